// The normalization APIs' host tiling (tiling/normalization_tiling.h), with CANN's messages on
// stderr.
#include "tiling/normalization_tiling.h"

#include <cstdio>

namespace AscendC {

void GetWelfordUpdateMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeT,
                                   const uint32_t, const bool isReuseSource, const bool,
                                   uint32_t& maxValue, uint32_t& minValue) {
  constexpr uint32_t kRepeatBytes = 256, kFloatsPerRepeat = kRepeatBytes / sizeof(float);
  if (srcShape.GetDimNum() != 2) {
    std::fprintf(stderr, "srcShape dims must be 2.\n");
    return;
  }
  const uint32_t rnLength = static_cast<uint32_t>(srcShape.GetDim(0));
  const uint32_t abLength = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t pieces = typeSizeT == sizeof(uint16_t) ? 3 : (isReuseSource ? 1 : 2);
  minValue = pieces * kRepeatBytes;
  maxValue = (rnLength * abLength + kFloatsPerRepeat - 1) / kFloatsPerRepeat * minValue;
}

}  // namespace AscendC
