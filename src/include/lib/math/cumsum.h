// CANN's per-API include path of CumSum (asc-devkit include/adv_api/math/cumsum.h, with
// CumSumConfig / CumSumInfo from cumsum_utils.h; the math APIs are also reached as lib/math/...).
// ascsim's kernel_operator.h declares it (ascsim/adv/math_cumsum.h).
#pragma once

#include "kernel_operator.h"
