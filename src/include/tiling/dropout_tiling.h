// Host-side temporary-space sizes of DropOut (ascsim/adv/dropout.h), as asc-devkit
// include/adv_api/filter/dropout_tiling.h declares them and impl/adv_api/tiling/filter/
// dropout_tiling_impl.cpp computes them: min 2 * 256 B, max max(min, 2 * 4 B * elements). A type
// size other than 2 or 4, a shape without dims and isReuseSource are reported on stderr.
#pragma once

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // asc-devkit include/adv_api/utils/types.h

uint32_t GetDropOutMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                              const bool isReuseSource);
uint32_t GetDropOutMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                              const bool isReuseSource);
void GetDropOutMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                             const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC
