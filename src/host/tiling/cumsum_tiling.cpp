// CumSum's temporary-space sizes (tiling/cumsum_tiling.h), with CANN's host messages on stderr.
#include "tiling/cumsum_tiling.h"

#include <cstdio>

namespace AscendC {

void GetCumSumMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                            const bool isLastAxis, const bool isReuseSource, uint32_t& maxValue,
                            uint32_t& minValue) {
  (void)isReuseSource;  // the A2/A3 implementation does not reuse the source
  if (srcShape.GetDimNum() != 2) {
    std::fprintf(stderr, "Now only support dim = 2.\n");
    return;
  }
  if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr, "Now only support half and float.\n");
    return;
  }
  const int64_t outter = srcShape.GetDim(0), inner = srcShape.GetDim(1);
  if (inner <= 0 || (inner * typeSize) % 32 != 0) {
    std::fprintf(stderr, "The inner dim should be 32B aligned.\n");
    return;
  }
  const uint32_t rows = static_cast<uint32_t>(outter < 0 ? 0 : outter);
  const uint32_t cols = static_cast<uint32_t>(inner);
  if (!isLastAxis) {
    maxValue = minValue = typeSize == 2 ? rows * cols * 4 : 0;
    return;
  }
  constexpr uint32_t kGroup = 16;  // rows per TransDataTo5HD address list
  const uint32_t aligned = (rows + kGroup - 1) / kGroup * kGroup;
  const uint32_t cast_min = typeSize == 2 ? cols * kGroup * 2 : 0;
  const uint32_t cast_max = typeSize == 2 ? cols * aligned * 2 : 0;
  minValue = cast_min + kGroup * cols * typeSize * 2;
  maxValue = cast_max + aligned * cols * typeSize * 2;
}

}  // namespace AscendC
