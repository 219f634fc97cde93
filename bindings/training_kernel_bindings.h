// The shipped kernels a training step needs beside the seed's (gelu_custom_backward,
// rms_norm_custom) as functions of _core; the typed public wrappers are
// python/add_custom/__init__.py.
#pragma once

#include <pybind11/pybind11.h>

namespace ascsim_py {

void RegisterTrainingKernels(pybind11::module_& m);

}  // namespace ascsim_py
