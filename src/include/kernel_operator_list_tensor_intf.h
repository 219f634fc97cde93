// The header asc-devkit ships as include/basic_api/kernel_operator_list_tensor_intf.h
// (ListTensorDesc, TensorDesc: the dynamic inputs of a custom operator); kernels of the official
// samples include it by this name. ascsim's ListTensorDesc is ascsim/aicore/list_tensor.h,
// which kernel_operator.h already includes.
#pragma once

#include "kernel_operator.h"
