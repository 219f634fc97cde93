// CANN's include path of Tan's host temporary sizes (asc-devkit include/adv_api/math/
// tan_tiling.h; tiling/sin_cos_clamp_tiling.h).
#pragma once

#include "tiling/sin_cos_clamp_tiling.h"
