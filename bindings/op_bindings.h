// ascsim.load_op's native half (python/ascsim/_op_loader.py): an operator package's operators
// called through the aclnn runtime (src/op/aclnn) with NumPy arrays, and the custom-operator
// build tools (op_build, opc) run in a child interpreter.
#pragma once

#include <pybind11/pybind11.h>

namespace ascsim_py {

void RegisterOps(pybind11::module_& m);

}  // namespace ascsim_py
