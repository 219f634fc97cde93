// The Python exception hierarchy of ascsim (add_custom re-exports it) and the translation of C++
// exceptions into it. Every ascsim::Error and std::exception becomes a Python exception; none
// reaches the interpreter as a crash.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>

namespace ascsim_py {

// Creates Error and its subclasses on `m` and installs the exception translator, local to
// `_core`; exports TranslateAscsimError as the capsule `_core._error_translator` for users'
// modules (ascsim/pybind11.h, UseAscsim).
void RegisterErrors(pybind11::module_& m);

// A pybind11 exception translator for ascsim::Error and its subclasses only (anything else is
// rethrown, for the next translator).
void TranslateAscsimError(std::exception_ptr p);

}  // namespace ascsim_py
