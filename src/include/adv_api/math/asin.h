// CANN's per-API include paths of Asin (asc-devkit include/adv_api/math/asin.h; production kernels
// include the math APIs as lib/math/... too, e.g. ops-math asin_with_agent). ascsim's
// kernel_operator.h declares it (ascsim/adv/math_asin.h).
#pragma once

#include "kernel_operator.h"
