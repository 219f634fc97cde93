// CANN's include path of the Pad / UnPad host tiling (asc-devkit include/adv_api/pad/pad_tiling.h):
// tiling/pad_tiling.h.
#pragma once

#include "tiling/pad_tiling.h"
