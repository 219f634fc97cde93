// CANN's include path of SwiGLU's host temporary sizes (asc-devkit
// include/adv_api/activation/swiglu_tiling.h): GetSwiGLUMaxMinTmpSize and GetSwiGLUTmpBufferFactorSize (tiling/activation_tiling.h).
#pragma once

#include "tiling/activation_tiling.h"
