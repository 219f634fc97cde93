// The profiler (ascsim/profile.h) for Python: _core.Profile collects while alive; the public
// ascsim.profile() context manager and plot() are python/ascsim/_profile.py and _plot.py.
#pragma once

#include <pybind11/pybind11.h>

namespace ascsim_py {

void RegisterProfile(pybind11::module_& m);

}  // namespace ascsim_py
