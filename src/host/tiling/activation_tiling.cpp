// The activation APIs' temporary-space sizes (tiling/activation_tiling.h). A bad shape or type
// size is reported on stderr and the sizes are still returned, as CANN's host checks do.
#include "tiling/activation_tiling.h"

#include <algorithm>
#include <cstdio>

namespace AscendC {
namespace {
constexpr uint32_t kGeluPieces = 3, kRepeatBytes = 256;

void CheckGeluArgs(const TensorShape& shape, uint32_t typeSize, const char* fn) {
  if (shape.GetShapeSize() <= 0) {
    std::fprintf(stderr, "[%s] Input shape size should be greater than 0!\n", fn);
  }
  if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr, "[%s] Type size %u is unsupported! Support typesize is  2 4.\n", fn,
                 typeSize);
  }
}
}  // namespace

uint32_t GetGeluMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
  CheckGeluArgs(srcShape, typeSize, "GetGeluMinTmpSize");
  return kGeluPieces * kRepeatBytes;
}

uint32_t GetGeluMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
  CheckGeluArgs(srcShape, typeSize, "GetGeluMaxTmpSize");
  const uint32_t elements = static_cast<uint32_t>(std::max<int64_t>(srcShape.GetShapeSize(), 0));
  return std::max(kGeluPieces * kRepeatBytes,
                  kGeluPieces * elements * static_cast<uint32_t>(sizeof(float)));
}

void GetGeluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                          uint32_t& minValue) {
  maxValue = GetGeluMaxTmpSize(srcShape, typeSize);
  minValue = GetGeluMinTmpSize(srcShape, typeSize);
}

void GetSiluTmpSize(const TensorShape&, const uint32_t, const bool, uint32_t& maxValue,
                    uint32_t& minValue) {
  maxValue = minValue = 0;
}

void GetSwishTmpSize(const TensorShape&, const uint32_t, const bool, uint32_t& maxValue,
                     uint32_t& minValue) {
  maxValue = minValue = 0;
}

}  // namespace AscendC
