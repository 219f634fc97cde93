// CANN's per-API include path of Cosh (asc-devkit include/adv_api/math/cosh.h; production kernels
// include the math APIs as lib/math/... too). ascsim's kernel_operator.h declares it
// (ascsim/adv/math_cosh.h).
#pragma once

#include "kernel_operator.h"
