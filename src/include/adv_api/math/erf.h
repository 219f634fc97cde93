// CANN's per-API include path of Erf (asc-devkit include/adv_api/math/erf.h; production kernels
// include the math APIs as lib/math/... too, e.g. ops-nn foreach_erf). ascsim's kernel_operator.h
// declares it (ascsim/adv/math_erf.h).
#pragma once

#include "kernel_operator.h"
