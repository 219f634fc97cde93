// CANN's per-API include path of Sinh (asc-devkit include/adv_api/math/kernel_operator_sinh_intf.h; production kernels
// include the math APIs as lib/math/... too, e.g. ops-nn foreach_sinh). ascsim's kernel_operator.h
// declares it (ascsim/adv/math_sinh.h).
#pragma once

#include "kernel_operator.h"
