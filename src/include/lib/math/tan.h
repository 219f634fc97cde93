// CANN's per-API include path of Tan (asc-devkit include/adv_api/math/tan.h; production kernels
// include the math APIs as lib/math/... too). ascsim's kernel_operator.h declares it
// (ascsim/adv/math_tan.h).
#pragma once

#include "kernel_operator.h"
