// Sinh, the math advanced API of asc-devkit include/adv_api/math/sinh.h (Atlas A2/A3 forms:
// template <T, isReuseSource>, with or without sharedTmpBuffer and calCount). The algorithm is
// impl/adv_api/detail/math/sinh/sinh_common_impl.h's as the same basic-API calls:
//   sinh x = e^(x - ln 2) - e^(-x - ln 2)
// in T for float, in float for half (cast in with CAST_NONE, out with CAST_NONE, as its half
// SinhCompute does). The checks are the common math API's: dst, src and sharedTmpBuffer may not
// share a byte.
// Temporary space (sinh_common_impl.h, impl/adv_api/tiling/math/sinh_tiling_impl.cpp): pieces of
// tmpBytes / sizeof(T) / procedures elements rounded down to 32, one procedure for float (e^(-x -
// ln 2); dst holds e^(x - ln 2)) and four half-sized ones for half (two float pieces: the converted
// x, then e^(-x - ln 2), and e^(x - ln 2)); at least one 256 B repeat per procedure.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/math.h"

namespace AscendC {
namespace detail {

// -ln 2, sinh_common_impl.h's SINH_NEG_LN_TWO (the float nearest it).
constexpr float kSinhMinusLn2 = -0.69314718055994530941723212145818f;

// dst = e^(x - ln 2) - e^(-x - ln 2); `neg` holds the second term. `x` may be `neg` (the half
// path's converted x) as long as dst's term is computed first, which the caller orders.
inline void SinhFloat(const LocalTensor<float>& dst, const LocalTensor<float>& x,
                      const LocalTensor<float>& neg, uint32_t n) {
  Adds(dst, x, kSinhMinusLn2, n);
  Exp(dst, dst, n);
  Muls(neg, x, -1.0f, n);
  Adds(neg, neg, kSinhMinusLn2, n);
  Exp(neg, neg, n);
  Sub(dst, dst, neg, n);
}

template <class T, bool isReuseSource>
void SinhRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
             uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Sinh takes half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr uint32_t procs = kHalf ? 4 : 1;
  AdvPrologue("Sinh", dst, src, tmp, calCount, uint64_t{procs} * 256);
  ai::CheckNoOverlap("Sinh", "dstTensor", dst, "srcTensor", src, calCount);
  const uint32_t split = tmp.GetSize() / sizeof(T) / procs / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<float> all = tmp.ReinterpretCast<float>();
  ForEachPiece("Sinh", calCount, split, [&](uint32_t off, uint32_t n) {
    if constexpr (kHalf) {
      const LocalTensor<float> x = all;  // then e^(-x - ln 2)
      const LocalTensor<float> pos = all[split];
      Cast(x, src[off], RoundMode::CAST_NONE, n);
      SinhFloat(pos, x, x, n);
      Cast(dst[off], pos, RoundMode::CAST_NONE, n);
    } else {
      SinhFloat(dst[off], src[off], all, n);
    }
  });
}

}  // namespace detail

template <typename T, bool isReuseSource = false>
void Sinh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::SinhRun<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void Sinh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Sinh<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Sinh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount) {
  Sinh<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Sinh"), calCount);
}
template <typename T, bool isReuseSource = false>
void Sinh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Sinh<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
