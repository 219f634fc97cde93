// AscendQuant's temporary-space sizes (tiling/ascend_quant_tiling.h), with CANN's host messages
// on stderr.
#include "tiling/ascend_quant_tiling.h"

#include <algorithm>
#include <cstdio>

namespace AscendC {

void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  extraBuf = 0;
  maxLiveNodeCount = 2;
}

void GetAscendQuantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                 uint32_t& maxValue, uint32_t& minValue) {
  const int64_t elems = srcShape.GetShapeSize();
  const char* fn = "[AscendQuant][GetAscendQuantMaxMinTmpSize]";
  if (elems <= 0) {
    std::fprintf(stderr, "%s Input Shape size must be greater than 0.\n", fn);
  } else if (elems * typeSize % 32 != 0) {
    std::fprintf(stderr, "%s Input Shape size must be 32B aligned!.\n", fn);
  } else if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr, "%s Type size %u is unsupported!\n", fn, typeSize);
  }
  const uint32_t n = static_cast<uint32_t>(std::max<int64_t>(elems, 0));
  const uint32_t max = std::max(n * 2, 2u * 256u);
  maxValue = (max + 31) / 32 * 32;
  minValue = 2 * 256;
}

}  // namespace AscendC
