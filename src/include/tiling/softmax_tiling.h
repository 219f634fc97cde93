// Host-side tiling of SoftMax (ascsim/adv/norm_softmax_quant.h): GetSoftMaxMaxTmpSize,
// GetSoftMaxMinTmpSize, SoftMaxTilingFunc and IsBasicBlockInSoftMax, with asc-devkit's Atlas A2/A3
// numbers (impl/adv_api/tiling/activation/softmax_tiling.cpp): per row the row in float, one 32 B
// block and a 64-float reduction area. The tiling goes into AscendC::tiling::SoftMaxTiling (the
// struct kernels receive); optiling::SoftMaxTiling (the TILING_DATA class) is not provided.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ascsim/adv/tiling_structs.h"
#include "graph/tensor.h"

namespace AscendC {
namespace softmax_tiling_detail {
constexpr uint32_t kBlock = 32, kFloat = 4, kUnit = 64, kBasicTile = 8, kBasicMin = 256;
inline void LastAxis(const ge::Shape& s, uint32_t& m, uint32_t& k) {
  const std::vector<int64_t> d = s.GetDims();
  k = d.empty() ? 0 : static_cast<uint32_t>(d.back());
  const int64_t all = s.GetShapeSize();
  m = k == 0 ? 0 : static_cast<uint32_t>(all / k);
}
}  // namespace softmax_tiling_detail

inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
  (void)isReuseSource;
  using namespace softmax_tiling_detail;
  uint32_t m, k;
  LastAxis(srcShape, m, k);
  if (dataTypeSize != 2 && dataTypeSize != 4) return 0;
  return m * (kBlock / dataTypeSize + k + kUnit) * kFloat;
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
  (void)isReuseSource;
  using namespace softmax_tiling_detail;
  uint32_t m, k;
  LastAxis(srcShape, m, k);
  if (dataTypeSize != 2 && dataTypeSize != 4) return 0;
  const uint32_t repeats = (k + 63) / 64, work = std::max<uint32_t>(kUnit, (repeats + 7) / 8 * 8);
  return (kBlock / dataTypeSize + k + work) * kFloat;
}

inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize,
                              tiling::SoftMaxTiling& softmaxTiling) {
  using namespace softmax_tiling_detail;
  uint32_t m, k;
  LastAxis(srcShape, m, k);
  if (k == 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return;
  const uint32_t per_blk = kBlock / dataTypeSize;
  const uint32_t work = localWorkSpaceSize / kFloat;
  uint32_t base_m = std::min(work / (per_blk + k + kUnit), m);
  if (base_m < m && base_m > kBasicTile) base_m = base_m / kBasicTile * kBasicTile;
  if (base_m > kBasicTile && m % kBasicTile == 0 && k % kUnit == 0) {
    base_m = base_m / kBasicTile * kBasicTile;
    while (base_m != 0 && m % base_m != 0) base_m -= kBasicTile;
    while (base_m * k >= kUnit * kBasicMin) base_m /= 2;
  }
  tiling_structs_detail::FillSoftMaxTiling(softmaxTiling, m, k, base_m, per_blk);
}

// Whether [m, k] and the tiling meet SoftMax's basic-block conditions (k a multiple of 64 in
// [256 / sizeof(T), 2048), m and the split a multiple of 8).
inline bool IsBasicBlockInSoftMax(tiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
  const uint32_t k = tiling.srcK;
  return k % 64 == 0 && k < 2048 && k >= 256 / dataTypeSize && tiling.srcM % 8 == 0 &&
         tiling.splitM % 8 == 0;
}

}  // namespace AscendC
