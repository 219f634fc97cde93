// Host-side tiling of RmsNorm (ascsim/adv/norm_softmax_quant.h): GetRmsNormMaxMinTmpSize and
// GetRmsNormTilingInfo for [b, s, h] inputs, with asc-devkit's rules
// (impl/adv_api/tiling/normalization/rmsnorm_tiling_impl.cpp): the temporary space holds, in
// float, the reduced rows (rounded up to 8), the rows being normalised and, for half, those rows
// converted. The tiling goes into AscendC::tiling::RmsNormTiling; optiling::RmsNormTiling (the
// TILING_DATA class) is not provided.
#pragma once

#include <cstdint>
#include <vector>

#include "ascsim/adv/tiling_structs.h"
#include "ascsim/ceil_align.h"
#include "graph/tensor.h"

namespace AscendC {
namespace rmsnorm_tiling_detail {
constexpr uint32_t kBlockFloats = 8, kFloat = 4, kMaxRepeat = 255;
inline uint32_t Align(uint32_t v, uint32_t unit) { return ascsim::AlignUp(v, unit); }
inline bool Dims3(const ge::Shape& s, uint32_t& b, uint32_t& sl, uint32_t& h) {
  const std::vector<int64_t> d = s.GetDims();
  if (d.size() != 3) return false;
  b = static_cast<uint32_t>(d[0]);
  sl = static_cast<uint32_t>(d[1]);
  h = static_cast<uint32_t>(d[2]);
  return true;
}
}  // namespace rmsnorm_tiling_detail

inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                    uint32_t& maxValue, uint32_t& minValue,
                                    const bool isBasicBlock = false) {
  using namespace rmsnorm_tiling_detail;
  uint32_t b, s, h;
  if (!Dims3(srcShape, b, s, h)) return false;
  if (isBasicBlock && (h % 64 != 0 || (b * s) % 8 != 0 || h >= 2048)) return false;
  const uint32_t coeff = typeSize == 2 ? 2 : 1;
  maxValue = (b * s * h * coeff + Align(b * s, 32 / typeSize)) * kFloat;
  minValue = (h * coeff + kBlockFloats) * kFloat;
  return true;
}

inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 tiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  using namespace rmsnorm_tiling_detail;
  uint32_t b, s, h, ob, os, oh;
  if (!Dims3(srcShape, b, s, h) || !Dims3(originSrcShape, ob, os, oh)) return false;
  if (b != ob || s != os || h < oh || oh == 0 || (h * typeSize) % 32 != 0) return false;
  if (isBasicBlock && (h % 64 != 0 || (b * s) % 8 != 0 || h >= 2048)) return false;
  const uint32_t coeff = typeSize == 2 ? 2 : 1;
  if (stackBufferByteSize < (h * coeff + kBlockFloats) * kFloat) return false;
  tiling.bLength = b;
  tiling.sLength = s;
  tiling.hLength = h;
  tiling.originalHLength = oh;
  tiling.reciprocalOfHLength = 1.0f / static_cast<float>(oh);
  const uint32_t total = stackBufferByteSize / kFloat;
  uint32_t bs = 1;
  while (total >= (bs + 1) * h * coeff + Align(bs + 1, kBlockFloats)) ++bs;
  const uint32_t input = b * s * h;
  uint32_t one = bs * h;
  if (one > input) one = input;
  bs = one / h;
  if (isBasicBlock) {
    bs = bs < 8 ? bs : bs / 8 * 8;
  } else if (bs > kMaxRepeat) {
    bs = kMaxRepeat;
  }
  one = bs * h;
  tiling.mainBshLength = one;
  tiling.mainBsLength = bs;
  tiling.mainBsLengthAlign = Align(bs, kBlockFloats);
  tiling.loopRound = one == 0 ? 0 : input / one;
  const uint32_t tail = one == 0 ? 0 : input % one;
  tiling.tailBshLength = tail;
  tiling.inputTailPos = input - tail;
  tiling.tailBsLength = tail / h;
  return true;
}

}  // namespace AscendC
