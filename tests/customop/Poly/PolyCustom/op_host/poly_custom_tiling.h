// The tiling data of PolyCustom and PolyGradCustom: how the elements split over the cores and
// into tiles, and the polynomial's coefficients in ascending order (PolyGradCustom: those of the
// derivative).
#ifndef POLY_CUSTOM_TILING_H
#define POLY_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PolyCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of x
TILING_DATA_FIELD_DEF(uint32_t, blockLength);  // elements per core
TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per tile (one queue buffer)
TILING_DATA_FIELD_DEF(uint32_t, coeffNum);     // coefficients used, 1 to 8
TILING_DATA_FIELD_DEF_ARR(float, 8, coeffs);   // c0, c1, ... (ascending powers)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PolyCustom, PolyCustomTilingData)
REGISTER_TILING_DATA_CLASS(PolyGradCustom, PolyCustomTilingData)
}  // namespace optiling
#endif  // POLY_CUSTOM_TILING_H
