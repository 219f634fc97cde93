// kernel_operator_dump_tensor_intf.h: DumpTensor / printf (asc-devkit include/basic_api/kernel_operator_dump_tensor_intf.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
