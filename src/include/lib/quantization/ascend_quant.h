// CANN's per-API include path of AscendQuant (asc-devkit include/adv_api/quantization/ascend_quant.h;
// production kernels reach it as lib/quantization/... too, e.g. ops-transformer ffn).
// ascsim's kernel_operator.h declares it (ascsim/adv/quant.h).
#pragma once

#include "kernel_operator.h"
