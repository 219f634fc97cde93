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

// CANN's HighLevelApiCheck (impl/adv_api/detail/api_check/host_apicheck.h): shape size and type
// size reported, isReuseSource warned about; the sizes are computed anyway.
bool CheckGluArgs(const TensorShape& shape, uint32_t typeSize, bool isReuseSource,
                  const char* fn) {
  if (shape.GetShapeSize() <= 0) {
    std::fprintf(stderr, "[%s] Input shape size should be greater than 0!\n", fn);
  }
  if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr, "[%s] Type size %u is unsupported! Support typesize is  2 4.\n", fn,
                 typeSize);
  }
  if (isReuseSource) {
    std::fprintf(stderr, "[%s] Current isReuseSource is true, which is not effective!\n", fn);
  }
  if (shape.GetShapeSize() <= 0) {
    std::fprintf(stderr, "Input Shape size must be greater than 0.\n");
    return false;
  }
  return true;
}

uint32_t Elems(const TensorShape& shape) {
  return static_cast<uint32_t>(std::max<int64_t>(shape.GetShapeSize(), 0));
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

void GetSwiGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                            uint32_t& maxValue, uint32_t& minValue, const bool isReuseSource) {
  if (!CheckGluArgs(srcShape, typeSize, isReuseSource, "GetSwiGLUMaxMinTmpSize")) return;
  const uint32_t units = typeSize == sizeof(float) ? 0 : 6;
  minValue = units * kRepeatBytes;
  maxValue = units * std::max(Elems(srcShape) * typeSize, kRepeatBytes);
}

void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                  uint32_t& extraBuffer) {
  if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr,
                 "[GetSwiGLUTmpBufferFactorSize] Type size %u is unsupported! Support typesize "
                 "is  2 4.\n",
                 typeSize);
  }
  extraBuffer = 0;
  maxLiveNodeCount = typeSize == sizeof(float) ? 0 : 6;
}

void GetGeGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (!CheckGluArgs(srcShape, typeSize, isReuseSource, "GetGeGLUMaxMinTmpSize")) return;
  const uint32_t units = typeSize == sizeof(float) ? 0 : 4;
  minValue = units * kRepeatBytes;
  maxValue = units * std::max(Elems(srcShape) * typeSize, kRepeatBytes);
}

void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf) {
  if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr,
                 "[GetGeGLUTmpBufferFactorSize] Type size %u is unsupported! Support typesize "
                 "is  2 4.\n",
                 typeSize);
  }
  extraBuf = 0;
  maxLiveNodeCount = typeSize == sizeof(float) ? 0 : 4;
}

void GetReGluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  const bool shape_ok = CheckGluArgs(srcShape, typeSize, isReuseSource, "GetReGluMaxMinTmpSize");
  if (isReuseSource) {
    std::fprintf(stderr, "multiplexing of input memory is not supported.\n");
    return;
  }
  const bool is_float = typeSize == sizeof(float);
  minValue = is_float ? kRepeatBytes : 6 * kRepeatBytes;
  const uint32_t max = !shape_ok ? 0 : is_float ? kRepeatBytes : Elems(srcShape) * 6 * typeSize;
  maxValue = std::max(max, minValue);
}

}  // namespace AscendC
