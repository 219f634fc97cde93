// CANN's per-API include path of Erfc (asc-devkit include/adv_api/math/erfc.h; production kernels
// include the math APIs as lib/math/... too, e.g. ops-nn foreach_erfc). ascsim's kernel_operator.h
// declares it (ascsim/adv/math_erfc.h).
#pragma once

#include "kernel_operator.h"
