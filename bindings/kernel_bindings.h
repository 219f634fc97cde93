// The shipped kernels as Python functions, and the deliberately faulty ones (add_custom.testing).
#pragma once

#include <pybind11/pybind11.h>

namespace add_custom_py {

void RegisterKernels(pybind11::module_& m);
void RegisterTesting(pybind11::module_& m);  // creates the submodule add_custom.testing

}  // namespace add_custom_py
