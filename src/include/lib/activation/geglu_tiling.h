// CANN's include path of GeGLU's host temporary sizes (asc-devkit
// include/adv_api/activation/geglu_tiling.h): GetGeGLUMaxMinTmpSize and GetGeGLUTmpBufferFactorSize (tiling/activation_tiling.h).
#pragma once

#include "tiling/activation_tiling.h"
