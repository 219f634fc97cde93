// tensor_api/arch/arch.h (asc-devkit include/tensor_api/arch/arch.h): part of the tensor API, which ascsim
// provides whole through tensor_api/tensor.h.
#pragma once

#include "tensor_api/tensor.h"
