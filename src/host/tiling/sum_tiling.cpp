// Sum's temporary-space size (tiling/sum_tiling.h), with CANN's messages on stderr.
#include "tiling/sum_tiling.h"

#include <cstdio>

namespace AscendC {

void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxSize, uint32_t& minSize) {
  if (isReuseSource) {
    std::fprintf(stderr,
                 "[Sum][GetSumMaxMinTmpSize] The parameter isReuseSource is true, which is not "
                 "effective!\n");
  }
  if (typeSize == 0) {
    std::fprintf(stderr,
                 "[Sum][GetSumMaxMinTmpSize] The parameter typeSize is %u, expected is 2 or 4!\n",
                 typeSize);
    return;
  }
  if (n == 0) {
    std::fprintf(stderr,
                 "[Sum][GetSumMaxMinTmpSize] The parameter n is %u, expected is greater than 0!\n",
                 n);
    return;
  }
  constexpr uint32_t kBlockBytes = 32, kRepeatBytes = 256;
  const uint32_t perBlock = kBlockBytes / typeSize, perRepeat = kRepeatBytes / typeSize;
  if (perBlock == 0 || perRepeat == 0) {
    std::fprintf(stderr, "typeSize value is too large.\n");
    return;
  }
  const uint32_t repeats = (n + perRepeat - 1) / perRepeat;
  maxSize = minSize = (repeats + perBlock - 1) / perBlock * perBlock * typeSize;
}

}  // namespace AscendC
