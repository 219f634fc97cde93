// The profiler's Python face: `with add_custom.profile() as prof:` around launches, then
// prof.summary(), str(prof), prof.save_trace(path) and prof.plot(path). Registered by the module
// init of the add_custom extension.
#pragma once

#include <pybind11/pybind11.h>

void RegisterProfile(pybind11::module_& m);
