// CANN's per-API include path of AscendAntiQuant (asc-devkit include/adv_api/quantization/ascend_antiquant.h;
// kernels include the advanced APIs as lib/... too). ascsim's kernel_operator.h declares it
// (ascsim/adv/antiquant.h).
#pragma once

#include "kernel_operator.h"
