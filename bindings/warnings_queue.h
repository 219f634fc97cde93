// Simulator warnings -> Python warnings. The runtime reports warnings from worker and stream
// threads that do not hold the GIL, so the sink only appends to a mutex-protected queue; the
// queue is drained into warnings.warn(line, ascsim.SimulatorWarning) by the Python-facing
// calls (after each synchronous launch and in Stream.synchronize), which hold the GIL.
#pragma once

#include <pybind11/pybind11.h>

namespace ascsim_py {

// Creates ascsim.SimulatorWarning and installs the runtime's warning sink.
void RegisterWarnings(pybind11::module_& m);

// Issues every queued warning as a SimulatorWarning. Needs the GIL. Throws
// pybind11::error_already_set if a warning filter turned a warning into an exception.
// `stack_level` as for warnings.warn: 1 is the Python frame that called into _core, 2 its caller
// (the user's code, when a public Python wrapper made the call).
void DrainWarnings(int stack_level = 1);

}  // namespace ascsim_py
