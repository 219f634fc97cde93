// tensor_api/arch/cube/copy_op.h (asc-devkit include/tensor_api/arch/cube/copy_op.h): part of the tensor API, which ascsim
// provides whole through tensor_api/tensor.h.
#pragma once

#include "tensor_api/tensor.h"
