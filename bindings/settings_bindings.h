// Runtime settings and statistics: strict and serial mode, the SoC profile, device memory.
#pragma once

#include <pybind11/pybind11.h>

namespace ascsim_py {

void RegisterSettings(pybind11::module_& m);

}  // namespace ascsim_py
