// CANN's per-API include paths of Sin and Cos (asc-devkit include/adv_api/math/{sin,cos,
// kernel_operator_sin_intf,kernel_operator_cos_intf}.h, mirror-cann/asc-devkit; production kernels
// include them as lib/math/...). ascsim's kernel_operator.h declares them (ascsim/adv/math_trig.h).
#pragma once

#include "kernel_operator.h"
