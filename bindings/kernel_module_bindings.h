// Kernel modules (ascsim/kernel_module.h) from Python: _core.KernelLibrary opens a module's
// shared library with dlopen, reads its kernel table, and launches a kernel from Python
// arguments converted by the kernel's own parameter descriptions. ascsim.load() and the modules
// ascsim_add_kernel_module() builds sit on it (python/ascsim/_loader.py).
#pragma once

#include <pybind11/pybind11.h>

namespace ascsim_py {

void RegisterKernelModules(pybind11::module_& m);

}  // namespace ascsim_py
