// CANN's per-API include path of Acos (asc-devkit include/adv_api/math/acos.h; production kernels
// include the math APIs as lib/math/... too, e.g. ops-nn foreach_acos). ascsim's
// kernel_operator.h declares it (ascsim/adv/math_acos_atan.h).
#pragma once

#include "kernel_operator.h"
