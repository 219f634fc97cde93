// Host-side temporary-space sizes of the element-wise advanced APIs (ascsim/adv/math.h):
// GetSigmoidMaxMinTmpSize, GetTanhMaxMinTmpSize, GetLog/Log2/Log10MaxMinTmpSize,
// GetSignMaxMinTmpSize, GetFloorMaxMinTmpSize, GetCeilMaxMinTmpSize, GetPowerMaxMinTmpSize, and the
// Get...TmpBufferFactorSize companions. The numbers are asc-devkit's (impl/adv_api/tiling/math/*,
// activation/sigmoid_tiling_impl.cpp) except Power's, which follow ascsim's own temporary layout
// (five float pieces and three bit masks per piece; CANN's tensor-scalar float form counts five
// procedures too).
#pragma once

#include <algorithm>
#include <cstdint>

#include "graph/tensor.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
namespace adv_tiling_detail {
constexpr uint32_t kRepeatBytes = 256;
inline uint32_t Elements(const ge::Shape& s) { return static_cast<uint32_t>(s.GetShapeSize()); }
// The usual sizes of an API that keeps `nodes` live copies of its input: at least one 256 B repeat
// each, at most the whole input each.
inline void NodeSizes(uint32_t nodes, const ge::Shape& srcShape, uint32_t typeSize,
                      uint32_t& maxValue, uint32_t& minValue) {
  minValue = nodes * kRepeatBytes;
  maxValue = nodes * std::max(Elements(srcShape) * typeSize, kRepeatBytes);
}
}  // namespace adv_tiling_detail

inline void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                    const bool isReuseSource, uint32_t& maxValue,
                                    uint32_t& minValue) {
  (void)isReuseSource;
  const uint32_t bytes = adv_tiling_detail::Elements(srcShape) * typeSize;
  maxValue = std::max(bytes, adv_tiling_detail::kRepeatBytes);
  minValue = adv_tiling_detail::kRepeatBytes;
}

inline void GetTanhMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                 const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  adv_tiling_detail::NodeSizes(typeSize == sizeof(float) ? 1 : 4, srcShape, typeSize, maxValue,
                               minValue);
}
inline void GetTanhTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                       uint32_t& extraBuf) {
  extraBuf = 0;
  maxLiveNodeCount = typeSize == sizeof(float) ? 1 : 4;
}

inline void GetLogMaxMinTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue,
                                uint32_t& minValue) {
  maxValue = minValue = 0;  // Log computes in place
}
inline void GetLog10MaxMinTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue,
                                  uint32_t& minValue) {
  maxValue = minValue = 0;
}
inline void GetLog2MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                                 uint32_t& maxValue, uint32_t& minValue) {
  if (typeSize == sizeof(uint16_t)) {  // half goes through float
    minValue = adv_tiling_detail::kRepeatBytes;
    maxValue = std::max<uint32_t>(adv_tiling_detail::Elements(srcShape) * sizeof(float),
                                  adv_tiling_detail::kRepeatBytes);
  } else {
    maxValue = minValue = 0;
  }
}

inline void GetSignMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                                 uint32_t& maxValue, uint32_t& minValue) {
  minValue = 3 * adv_tiling_detail::kRepeatBytes;
  maxValue = std::max(3 * adv_tiling_detail::Elements(srcShape) * typeSize, minValue);
}
inline void GetSignTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount,
                                       uint32_t& extraBuffer) {
  extraBuffer = 0;
  maxLiveNodeCount = 3;
}

inline void GetFloorMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                                  uint32_t& maxValue, uint32_t& minValue) {
  adv_tiling_detail::NodeSizes(typeSize == sizeof(float) ? 0 : 2, srcShape, typeSize, maxValue,
                               minValue);
}
inline void GetCeilMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                                 uint32_t& maxValue, uint32_t& minValue) {
  adv_tiling_detail::NodeSizes(typeSize == sizeof(float) ? 1 : 2, srcShape, typeSize, maxValue,
                               minValue);
}

inline void GetErfMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                                uint32_t& maxValue, uint32_t& minValue) {
  adv_tiling_detail::NodeSizes(typeSize == sizeof(float) ? 3 : 8, srcShape, typeSize, maxValue,
                               minValue);
}

// Erfc (asc-devkit impl/adv_api/tiling/math/erfc_tiling_impl.cpp): 7 (float) or 16 (half) live
// nodes of the input's size, at least one 256 B repeat each; an empty shape leaves both unset.
inline void GetErfcMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                                 uint32_t& maxValue, uint32_t& minValue) {
  if (adv_tiling_detail::Elements(srcShape) == 0) return;
  adv_tiling_detail::NodeSizes(typeSize == sizeof(float) ? 7 : 16, srcShape, typeSize, maxValue,
                               minValue);
}
inline void GetErfcTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                       uint32_t& extraBuf) {
  maxLiveNodeCount = typeSize == sizeof(float) ? 7 : 16;
  extraBuf = 0;
}

// Power: pieces of 64-element multiples, five float pieces and three 32 B-aligned bit masks each.
inline uint32_t PowerTmpBytesForPiece(uint32_t split) {
  const uint32_t mask_bytes = ((split + 63) / 64 * 64 / 8 + 31) / 32 * 32;
  return 5 * split * 4 + 3 * mask_bytes;
}
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2,
                                  const bool typeIsInt, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  (void)typeIsInt, (void)typeSize, (void)isReuseSource;
  const uint32_t n =
      std::max(adv_tiling_detail::Elements(srcShape1), adv_tiling_detail::Elements(srcShape2));
  minValue = PowerTmpBytesForPiece(64);
  maxValue = std::max(minValue, PowerTmpBytesForPiece((n + 63) / 64 * 64));
}

// Round, Trunc, Frac (ascsim/adv/math_round.h): asc-devkit impl/adv_api/tiling/math/
// {round,trunc,frac}_tiling_impl.cpp. Round's sizes depend on the SoC: on A2/A3 float needs none
// and half one piece; on the 310P (DAV_2002) float one piece and half two.
inline void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                  const ge::Shape& srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  (void)isReuseSource;
  const bool v200 = ascendcPlatform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND310P;
  adv_tiling_detail::NodeSizes(typeSize == sizeof(float) ? (v200 ? 1 : 0) : (v200 ? 2 : 1), srcShape, typeSize, maxValue,
                               minValue);
}
inline void GetRoundTmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                        uint32_t& extraBuf) {
  const bool v200 = ascendcPlatform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND310P;
  extraBuf = 0;
  maxLiveNodeCount = typeSize == sizeof(float) ? (v200 ? 1 : 0) : (v200 ? 2 : 1);
}
inline void GetTruncMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  (void)isReuseSource;
  adv_tiling_detail::NodeSizes(typeSize == sizeof(float) ? 1 : 2, srcShape, typeSize, maxValue,
                               minValue);
}
inline void GetTruncTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                        uint32_t& extraBuf) {
  extraBuf = 0;
  maxLiveNodeCount = typeSize == sizeof(float) ? 1 : 2;
}
inline void GetFracMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                 const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  adv_tiling_detail::NodeSizes(typeSize == sizeof(float) ? 0 : 4, srcShape, typeSize, maxValue,
                               minValue);
}
inline void GetFracTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                       uint32_t& extraBuf) {
  extraBuf = 0;
  maxLiveNodeCount = typeSize == sizeof(float) ? 0 : 4;
}

}  // namespace AscendC
