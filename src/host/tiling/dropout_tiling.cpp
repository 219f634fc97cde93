// DropOut's temporary-space sizes (tiling/dropout_tiling.h), with CANN's host messages on stderr.
#include "tiling/dropout_tiling.h"

#include <algorithm>
#include <cstdio>

namespace AscendC {
namespace {
constexpr uint32_t kRepeatBytes = 256;

void CheckDropOutParams(const TensorShape& shape, uint32_t typeSize, bool isReuseSource,
                        const char* fn) {
  if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr, "[DropOut][%s] The value of typeSize is %u, should be 2 or 4.\n", fn,
                 typeSize);
  }
  if (shape.GetDimNum() == 0) {
    std::fprintf(stderr,
                 "[DropOut][%s] The dims of srcShape is %zu, should be greater than 0.\n", fn,
                 shape.GetDimNum());
  }
  if (isReuseSource) {
    std::fprintf(stderr, "[DropOut][%s] The value of isReuseSource is true, may not be effective.\n",
                 fn);
  }
}
}  // namespace

uint32_t GetDropOutMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                              const bool isReuseSource) {
  CheckDropOutParams(srcShape, typeSize, isReuseSource, "GetDropOutMinTmpSize");
  return 2 * kRepeatBytes;
}

uint32_t GetDropOutMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                              const bool isReuseSource) {
  CheckDropOutParams(srcShape, typeSize, isReuseSource, "GetDropOutMaxTmpSize");
  const uint32_t min = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
  uint32_t elems = 1;
  for (const int64_t d : srcShape.GetDims()) elems *= static_cast<uint32_t>(d);
  return std::max(min, 2 * elems * static_cast<uint32_t>(sizeof(float)));
}

void GetDropOutMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                             const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  CheckDropOutParams(srcShape, typeSize, isReuseSource, "GetDropOutMaxMinTmpSize");
  maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
  minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

}  // namespace AscendC
