// The Python exception hierarchy of ascsim (add_custom re-exports it) and the translation of C++
// exceptions into it. Every ascsim::Error and std::exception becomes a Python exception; none
// reaches the interpreter as a crash.
#pragma once

#include <pybind11/pybind11.h>

namespace ascsim_py {

// Creates Error and its subclasses on `m` and installs the exception translator.
void RegisterErrors(pybind11::module_& m);

}  // namespace ascsim_py
