// PYBIND11_MODULE(add_custom): the Python face of ascsim. Thin by design (DESIGN.md, "Layers"):
// argument checks, GIL release, NumPy <-> device memory and exception mapping; no simulation.
#include <pybind11/pybind11.h>

#include "ascsim/profile.h"
#include "errors.h"
#include "kernel_bindings.h"
#include "settings_bindings.h"
#include "stream.h"
#include "warnings_queue.h"
#ifdef ASCSIM_HAVE_PROFILE_BINDINGS  // set by bindings/CMakeLists.txt when the file exists
#include "profile_bindings.h"
#endif

PYBIND11_MODULE(add_custom, m) {
  m.doc() = R"doc(
add_custom: Ascend C kernels (add_custom, gelu_custom) on ascsim's simulated NPU, over NumPy.

    import numpy as np, add_custom
    x = np.random.uniform(-1, 1, [8, 2048]).astype(np.float16)
    y = np.random.uniform(-1, 1, [8, 2048]).astype(np.float16)
    z = add_custom.run_add_custom(x, y)          # == x + y

Errors derive from add_custom.Error (RuntimeError); kernel faults raise add_custom.KernelError.
Non-fatal device traps are issued as add_custom.SimulatorWarning.
)doc";
  ascsim::InstallTraceFromEnvironment();  // ASCSIM_TRACE=path.json: trace every launch
  add_custom_py::RegisterErrors(m);
  add_custom_py::RegisterWarnings(m);
  add_custom_py::RegisterStream(m);
  add_custom_py::RegisterKernels(m);
  add_custom_py::RegisterSettings(m);
  add_custom_py::RegisterTesting(m);
#ifdef ASCSIM_HAVE_PROFILE_BINDINGS
  RegisterProfile(m);
#endif
}
