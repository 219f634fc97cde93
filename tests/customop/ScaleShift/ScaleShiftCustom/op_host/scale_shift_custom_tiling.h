// The tiling data of ScaleShiftCustom.
#ifndef SCALE_SHIFT_CUSTOM_TILING_H
#define SCALE_SHIFT_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleShiftCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleShiftCustom, ScaleShiftCustomTilingData)
}  // namespace optiling
#endif  // SCALE_SHIFT_CUSTOM_TILING_H
