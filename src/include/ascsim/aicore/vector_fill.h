// Brcb (each of 8 source elements broadcast to one 32 B block) and CreateVecIndex
// (dst[i] = first + i) (docs 基础API/.../数据填充).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/simd/masked_math.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/vector_masked.h"

namespace AscendC {

struct BrcbRepeatParams {
  BrcbRepeatParams() = default;
  BrcbRepeatParams(uint16_t dstBlkStrideIn, uint16_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  uint16_t dstBlkStride = 1;
  uint16_t dstRepStride = 8;
};

}  // namespace AscendC

namespace AscendC {

// --- Brcb: repeat r reads src0[8r, 8r + 8) and fills dst block j of the repeat with element j ---
template <class T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
          const BrcbRepeatParams& repeatParams) {
  namespace ai = ascsim::aicore;
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb takes 16- or 32-bit elements");
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const uint64_t n_src = uint64_t{repeatTime} * 8;
  const T* s = ai::CheckUbOperand("Brcb", "src0", src0, n_src);
  ascsim::simd::RepeatPlan plan;
  plan.per_repeat = ai::PerRepeat<T>();
  plan.per_block = ai::kBlockBytes / sizeof(T);
  plan.repeats = repeatTime;
  plan.body = plan.last = ascsim::simd::FirstElements(plan.per_repeat);
  const auto sd = ai::StrideOf(repeatParams.dstBlkStride, repeatParams.dstRepStride);
  uint64_t nd;
  auto* d = reinterpret_cast<uint8_t*>(ai::CheckStridedOperand("Brcb", "dst", dst, plan, sd, &nd));
  ai::CheckOverlapExact("Brcb", "dst", d, nd, "src0", s, n_src * sizeof(T));
  const ascsim::simd::DType dt = ascsim::simd::DTypeOf<T>();
  for (uint32_t r = 0; r < repeatTime; ++r) {
    for (uint32_t j = 0; j < 8; ++j) {
      ascsim::simd::Fill(
          dt, d + ascsim::simd::ElementOffset(plan, sd, sizeof(T), r, j * plan.per_block),
          &s[r * 8 + j], plan.per_block);
    }
  }
  ai::Record(core, [&] {
    return ai::VectorCall("Brcb", ascsim::trace::VectorClass::kSimple, sizeof(T),
                          uint64_t{plan.repeats} * plan.per_repeat, ai::BufferId(dst),
                          ai::BufferId(src0), ascsim::trace::kNoBuffer);
  });
}

// --- CreateVecIndex: dst[i] = firstValue + i for i < calCount ---
template <class T>
void CreateVecIndex(LocalTensor<T> dst, const NonDeduced<T> firstValue, uint32_t calCount) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  T* d = ai::CheckUbOperand("CreateVecIndex", "dst", dst, calCount);
  ascsim::simd::IndexRun(ascsim::simd::DTypeOf<T>(), d, static_cast<double>(firstValue), calCount);
  ai::Record(core, [&] {
    return ai::VectorCall("CreateVecIndex", ascsim::trace::VectorClass::kSimple, sizeof(T),
                          calCount, ai::BufferId(dst), ascsim::trace::kNoBuffer,
                          ascsim::trace::kNoBuffer);
  });
}

}  // namespace AscendC
