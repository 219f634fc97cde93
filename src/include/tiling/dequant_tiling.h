// Host-side temporary-space size of AscendDequant (ascsim/adv/norm_softmax_quant.h), following
// ascsim's layout: one row of float results (rounded up to 8) and, for a non-float scale tensor,
// the scale in float.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/tensor.h"

namespace AscendC {

inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                          uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize;
  const std::vector<int64_t> d = srcShape.GetDims();
  const uint32_t n = d.empty() ? 0 : static_cast<uint32_t>(d.back());
  const uint32_t row = (n + 7) / 8 * 8 * 4;
  maxValue = 2 * row;  // float row + float scale; the row is the unit, so min == max
  minValue = maxValue;
}

}  // namespace AscendC
