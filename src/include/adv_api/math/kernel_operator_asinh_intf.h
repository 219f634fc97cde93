// CANN's per-API include path of Asinh (asc-devkit include/adv_api/math/kernel_operator_asinh_intf.h; production kernels
// include the math APIs as lib/math/... too). ascsim's kernel_operator.h declares it
// (ascsim/adv/math_asinh.h).
#pragma once

#include "kernel_operator.h"
