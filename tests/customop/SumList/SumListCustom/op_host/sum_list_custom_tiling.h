#ifndef SUM_LIST_CUSTOM_TILING_H
#define SUM_LIST_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SumListCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SumListCustom, SumListCustomTilingData)
}  // namespace optiling
#endif  // SUM_LIST_CUSTOM_TILING_H
