// CANN's include path of Asinh's host temporary sizes (asc-devkit include/adv_api/math/
// asinh_tiling.h; tiling/sin_cos_clamp_tiling.h).
#pragma once

#include "tiling/sin_cos_clamp_tiling.h"
