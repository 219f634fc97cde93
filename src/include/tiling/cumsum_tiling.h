// Host-side temporary-space sizes of CumSum (ascsim/adv/math_cumsum.h), as asc-devkit
// include/adv_api/math/cumsum_tiling.h declares GetCumSumMaxMinTmpSize and
// impl/adv_api/tiling/math/cumsum_tiling.cpp computes it (Atlas A2/A3): a 2-D [outter, inner]
// shape, inner * typeSize a multiple of 32 B. Along the last axis: min for 16 rows, max for all
// rows padded to 16, each row needing inner * typeSize for each of the two transposes plus, for
// half, inner * 2 B more; along the first axis: outter * inner floats for half, nothing for float.
// A shape or type it does not take is reported on stderr and leaves maxValue / minValue unset.
#pragma once

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // asc-devkit include/adv_api/utils/types.h

void GetCumSumMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                            const bool isLastAxis, const bool isReuseSource, uint32_t& maxValue,
                            uint32_t& minValue);

}  // namespace AscendC
