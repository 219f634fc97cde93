// CANN's include path of AscendQuant's host temporary sizes (asc-devkit
// include/adv_api/quantization/ascend_quant_tiling.h; tiling/ascend_quant_tiling.h).
#pragma once

#include "tiling/ascend_quant_tiling.h"
