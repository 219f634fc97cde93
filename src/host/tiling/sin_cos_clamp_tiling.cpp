// Sin / Cos / Clamp temporary-space sizes (tiling/sin_cos_clamp_tiling.h), with CANN's host
// messages on stderr.
#include "tiling/sin_cos_clamp_tiling.h"

#include <algorithm>
#include <cstdio>

namespace AscendC {
namespace {
constexpr uint32_t kRepeatBytes = 256;

// The number of typeSize units of temporary space per element (0 after reporting half with
// isReuseSource, which the APIs do not support).
uint32_t TrigFactor(uint32_t typeSize, bool isReuseSource) {
  if (typeSize == sizeof(float)) return isReuseSource ? 2 : 3;
  if (isReuseSource) {
    std::fprintf(stderr, "when the input data type is half, isReuseSource is not supported\n");
    return 0;
  }
  return 8;
}

uint32_t Elements(const TensorShape& shape) {
  return static_cast<uint32_t>(std::max<int64_t>(shape.GetShapeSize(), 0));
}

// `factor` typeSize units per element, at least one repeat's worth; nothing set for an empty shape.
void FactorTmpSizes(const TensorShape& srcShape, uint32_t typeSize, uint32_t factor,
                    uint32_t& maxValue, uint32_t& minValue) {
  if (srcShape.GetShapeSize() <= 0) {
    std::fprintf(stderr, "Input Shape size must be greater than 0.\n");
    return;
  }
  minValue = factor * kRepeatBytes;
  maxValue = factor * std::max(Elements(srcShape) * typeSize, kRepeatBytes);
}

// Temporary nodes per element (float, half) of the APIs whose space is `nodes` typeSize units
// per element: one row per API, read by both of its size functions.
struct TmpNodes {
  uint32_t float_nodes;
  uint32_t half_nodes;
  uint32_t Of(uint32_t typeSize) const {
    return typeSize == sizeof(float) ? float_nodes : half_nodes;
  }
};
constexpr TmpNodes kCoshNodes{2, 6};
constexpr TmpNodes kSinhNodes{1, 4};
constexpr TmpNodes kAsinNodes{2, 6};
constexpr TmpNodes kAcosNodes{2, 6};
constexpr TmpNodes kAtanNodes{5, 12};
constexpr TmpNodes kAsinhNodes{3, 3};
constexpr TmpNodes kTanNodes{4, 10};  // tan_tiling_impl.cpp TAN_FLOAT_CALC_FAC / TAN_HALF_CALC_FAC

void NodeTmpSizes(const TmpNodes& nodes, const TensorShape& srcShape, uint32_t typeSize,
                  uint32_t& maxValue, uint32_t& minValue) {
  FactorTmpSizes(srcShape, typeSize, nodes.Of(typeSize), maxValue, minValue);
}

void NodeFactorSize(const TmpNodes& nodes, uint32_t typeSize, uint32_t& maxLiveNodeCount,
                    uint32_t& extraBuf) {
  extraBuf = 0;
  maxLiveNodeCount = nodes.Of(typeSize);
}
}  // namespace

void GetSinMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  const uint32_t factor = TrigFactor(typeSize, isReuseSource);
  uint32_t max = 0;
  if (srcShape.GetShapeSize() <= 0) {
    std::fprintf(stderr, "Input Shape size must be greater than 0.\n");
  } else {
    max = Elements(srcShape) * factor * typeSize;
  }
  minValue = factor * kRepeatBytes;
  maxValue = std::max(max, minValue);
}

void GetSinTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuf) {
  extraBuf = 0;
  maxLiveNodeCount = typeSize == sizeof(float) ? 3 : 8;
}

void GetCosMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (srcShape.GetShapeSize() <= 0) {
    std::fprintf(stderr, "Input Shape size must be greater than 0.\n");
    return;
  }
  FactorTmpSizes(srcShape, typeSize, TrigFactor(typeSize, isReuseSource), maxValue, minValue);
}

void GetCosTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuf) {
  extraBuf = 0;
  maxLiveNodeCount = typeSize == sizeof(float) ? 3 : 8;
}

void GetCoshMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                          uint32_t& maxValue, uint32_t& minValue) {
  NodeTmpSizes(kCoshNodes, srcShape, typeSize, maxValue, minValue);
}

void GetCoshTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer) {
  NodeFactorSize(kCoshNodes, typeSize, maxLiveNodeCount, extraBuffer);
}

void GetSinhMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                          uint32_t& maxValue, uint32_t& minValue) {
  NodeTmpSizes(kSinhNodes, srcShape, typeSize, maxValue, minValue);
}

void GetSinhTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuf) {
  NodeFactorSize(kSinhNodes, typeSize, maxLiveNodeCount, extraBuf);
}

void GetAsinMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                          uint32_t& maxValue, uint32_t& minValue) {
  NodeTmpSizes(kAsinNodes, srcShape, typeSize, maxValue, minValue);
}

void GetAsinTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer) {
  NodeFactorSize(kAsinNodes, typeSize, maxLiveNodeCount, extraBuffer);
}

void GetAcosMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                          uint32_t& maxValue, uint32_t& minValue) {
  NodeTmpSizes(kAcosNodes, srcShape, typeSize, maxValue, minValue);
}

void GetAcosTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer) {
  NodeFactorSize(kAcosNodes, typeSize, maxLiveNodeCount, extraBuffer);
}

void GetAtanMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                          uint32_t& maxValue, uint32_t& minValue) {
  NodeTmpSizes(kAtanNodes, srcShape, typeSize, maxValue, minValue);
}

void GetAtanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuf) {
  NodeFactorSize(kAtanNodes, typeSize, maxLiveNodeCount, extraBuf);
}

void GetAsinhMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                           uint32_t& maxValue, uint32_t& minValue) {
  NodeTmpSizes(kAsinhNodes, srcShape, typeSize, maxValue, minValue);
}

void GetAsinhTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf) {
  NodeFactorSize(kAsinhNodes, typeSize, maxLiveNodeCount, extraBuf);
}

void GetTanMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                         uint32_t& maxValue, uint32_t& minValue) {
  NodeTmpSizes(kTanNodes, srcShape, typeSize, maxValue, minValue);
}

void GetTanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuf) {
  NodeFactorSize(kTanNodes, typeSize, maxLiveNodeCount, extraBuf);
}

void GetXorMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                         uint32_t& maxValue, uint32_t& minValue) {
  uint32_t max = 0;
  if (srcShape.GetShapeSize() <= 0) {
    std::fprintf(stderr, "Input Shape size must be greater than 0.\n");
  } else {
    max = Elements(srcShape) * typeSize;
  }
  minValue = kRepeatBytes;
  maxValue = std::max(max, minValue);
}

void GetXorTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  extraBuffer = 0;
  maxLiveNodeCount = 1;
}

void GetClampMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                           uint32_t& maxValue, uint32_t& minValue) {
  if (srcShape.GetShapeSize() <= 0) {
    std::fprintf(stderr, "Input Shape size must be greater than 0.\n");
    return;
  }
  const uint32_t least = typeSize == sizeof(float) ? 64 : 128;
  minValue = least;
  maxValue = std::max(Elements(srcShape), least);
}

void GetClampTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  extraBuf = 0;
  maxLiveNodeCount = 1;
}

}  // namespace AscendC
