// The Python exception hierarchy of add_custom and the translation of C++ exceptions into it.
// Every ascsim::Error and std::exception becomes a Python exception; none reaches the interpreter
// as a crash.
#pragma once

#include <pybind11/pybind11.h>

namespace add_custom_py {

// Creates add_custom.Error and its subclasses on `m` and installs the exception translator.
void RegisterErrors(pybind11::module_& m);

}  // namespace add_custom_py
