// tensor_api/atom/cube/mmad_atom.h (asc-devkit include/tensor_api/atom/cube/mmad_atom.h): part of the tensor API, which ascsim
// provides whole through tensor_api/tensor.h.
#pragma once

#include "tensor_api/tensor.h"
