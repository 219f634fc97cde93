// tensor_api/utils/utils.h (asc-devkit include/tensor_api/utils/utils.h): part of the tensor API, which ascsim
// provides whole through tensor_api/tensor.h.
#pragma once

#include "tensor_api/tensor.h"
