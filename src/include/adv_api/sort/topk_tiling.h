// CANN's include path of TopK's host tiling (asc-devkit include/adv_api/sort/topk_tiling.h):
// GetTopKMaxMinTmpSize and TopKTilingFunc (tiling/topk_tiling.h).
#pragma once

#include "tiling/topk_tiling.h"
