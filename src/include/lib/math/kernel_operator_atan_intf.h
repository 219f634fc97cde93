// CANN's per-API include path of Atan (asc-devkit include/adv_api/math/kernel_operator_atan_intf.h; production kernels
// include the math APIs as lib/math/... too, e.g. ops-nn foreach_atan). ascsim's
// kernel_operator.h declares it (ascsim/adv/math_acos_atan.h).
#pragma once

#include "kernel_operator.h"
