// The tiling data of SquaredDiffCustom: how the elements split over the cores and into tiles.
#ifndef SQUARED_DIFF_CUSTOM_TILING_H
#define SQUARED_DIFF_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SquaredDiffCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of x
TILING_DATA_FIELD_DEF(uint32_t, blockLength);  // elements per core
TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per tile (one queue buffer)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SquaredDiffCustom, SquaredDiffCustomTilingData)
}  // namespace optiling
#endif  // SQUARED_DIFF_CUSTOM_TILING_H
