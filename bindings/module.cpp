// PYBIND11_MODULE(_core): the private extension under the `ascsim` and `add_custom` Python
// packages (python/). Thin by design (DESIGN.md, "Layers"): argument checks, GIL release,
// NumPy <-> device memory, exception mapping; no simulation. The public API, with signatures
// and docs, is the Python code over it.
#include <pybind11/pybind11.h>

#include "ascsim/kernel_module.h"
#include "ascsim/profile.h"
#include "ascsim/version.h"
#include "errors.h"
#include "kernel_bindings.h"
#include "kernel_module_bindings.h"
#include "op_bindings.h"
#include "profile_bindings.h"
#include "settings_bindings.h"
#include "stream.h"
#include "training_kernel_bindings.h"
#include "warnings_queue.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "ascsim's private extension: use the `ascsim` and `add_custom` packages.";
  m.attr("__version__") = ASCSIM_VERSION_STRING;
  m.attr("KERNEL_MODULE_ABI") = ascsim::module::kAbiVersion;
  ascsim::InstallTraceFromEnvironment();  // ASCSIM_TRACE=path.json: trace every launch
  ascsim_py::RegisterErrors(m);
  ascsim_py::RegisterWarnings(m);
  ascsim_py::RegisterStream(m);
  ascsim_py::RegisterKernels(m);
  ascsim_py::RegisterTrainingKernels(m);
  ascsim_py::RegisterSettings(m);
  ascsim_py::RegisterKernelModules(m);
  ascsim_py::RegisterProfile(m);
  ascsim_py::RegisterOps(m);
}
