// kernel_operator_list_tensor_intf.h: ListTensorDesc / TensorDesc (asc-devkit include/basic_api/kernel_operator_list_tensor_intf.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
