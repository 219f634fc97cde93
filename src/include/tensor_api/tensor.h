// tensor_api/tensor.h: the tensor API of asc-devkit (include/tensor_api/tensor.h, namespace
// AscendC::Te): layouts, tensors over tagged memory pointers, copy and Mmad atoms. ascsim's subset
// is in ascsim/tensor_api/tensor_api.h (what it has and what it lacks: docs/architecture.md, "The
// tensor API").
#pragma once

#include "kernel_operator.h"
#include "ascsim/tensor_api/tensor_api.h"
