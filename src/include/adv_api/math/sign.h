// CANN's per-API include path of Sign (asc-devkit include/adv_api/math/sign.h; production kernels
// include it as adv_api/math/sign.h). ascsim's kernel_operator.h declares it (ascsim/adv/math.h).
#pragma once

#include "kernel_operator.h"
