// CANN's per-API include path of Xor (asc-devkit include/adv_api/math/kernel_operator_xor_intf.h; production kernels
// include the math APIs as lib/math/... too). ascsim's kernel_operator.h declares it
// (ascsim/adv/math_xor.h).
#pragma once

#include "kernel_operator.h"
