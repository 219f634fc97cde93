// CANN's include path of Xor's host temporary sizes (asc-devkit include/adv_api/math/
// xor_tiling.h; tiling/sin_cos_clamp_tiling.h).
#pragma once

#include "tiling/sin_cos_clamp_tiling.h"
