// kernel_type.h: the DT_* / FORMAT_* numbers under the header path production kernels include
// (asc-devkit include/basic_api/kernel_type.h); defined in ascsim/aicore/dtype_format.h, which
// kernel_operator.h brings.
#pragma once

#include "kernel_operator.h"
