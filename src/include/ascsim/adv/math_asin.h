// Asin, the math advanced API of asc-devkit include/adv_api/math/asin.h (Atlas A2/A3 forms:
// template <T, isReuseSource>, with or without sharedTmpBuffer and calCount), with the algorithm of
// impl/adv_api/detail/math/asin/asin_common_impl.h as the same basic-API calls, piece by piece:
//   |x| < 1/sqrt(2): the Taylor series x * sum c_i x^(2i), i = 0..7 (Horner, from c_7)
//   otherwise:       pi/2 - the series at sqrt(1 - x^2)
// selected without branches by a 0/1 factor floor(min(|x|, 1/sqrt(2)) - 1/sqrt(2)) (a Cast to an
// integer with CAST_FLOOR and back), and the sign applied as x * 2^k / (|x * 2^k| + 2^-k) (k = 62
// for float, 15 for half). float computes in float; half computes the near-zero series in half and
// the rest in float (math_constant_util.h's constants, kCOEF, BOUNDARY, HALF_PI). dst, src and
// sharedTmpBuffer may not share a byte.
// Temporary space: pieces of tmpBytes / sizeof(T) / 4 (float) or / 6 (half) elements rounded down
// to 32; GetAsinMaxMinTmpSize (impl/adv_api/tiling/math/asin_tiling_impl.cpp) asks at least
// 2 * 256 B (float) or 6 * 256 B (half), and 2 or 6 times the input bytes at most.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/math.h"

namespace AscendC {
namespace detail {

// asc-devkit impl/adv_api/detail/math/math_constant_util.h.
constexpr float kAsinHalfPi = 1.5707963267948966192313216916398f;
constexpr float kAsinBoundary = 0.70710678118654752440084436210485f;  // 1 / sqrt(2)
constexpr uint32_t kAsinTaylorTerms = 7;
constexpr float kAsinCoef[] = {
    1.0f,
    0.16666666666666666666666666666667f,
    0.075f,
    0.04464285714285714285714285714286f,
    0.03038194444444444444444444444444f,
    0.02237215909090909090909090909091f,
    0.01735276442307692307692307692308f,
    0.01396484375f,
};

// dst = x * P(x^2); `sq` receives x^2.
template <class T>
void AsinTaylor(const LocalTensor<T>& dst, const LocalTensor<T>& x, const LocalTensor<T>& sq,
                uint32_t n) {
  Mul(dst, x, x, n);
  Mul(sq, x, x, n);
  Muls(dst, dst, T(kAsinCoef[kAsinTaylorTerms]), n);
  for (uint32_t i = kAsinTaylorTerms - 1; i > 0; --i) {
    Adds(dst, dst, T(kAsinCoef[i]), n);
    Mul(dst, dst, sq, n);
  }
  Adds(dst, dst, T(kAsinCoef[0]), n);
  Mul(dst, dst, x, n);
}

// dst = P(s) * sqrt(s) for s = x^2 held in `s`, which becomes sqrt(s).
template <class T>
void AsinTaylorOfSquare(const LocalTensor<T>& dst, const LocalTensor<T>& s, uint32_t n) {
  Muls(dst, s, T(1.0f), n);
  Muls(dst, dst, T(kAsinCoef[kAsinTaylorTerms]), n);
  for (uint32_t i = kAsinTaylorTerms - 1; i > 0; --i) {
    Adds(dst, dst, T(kAsinCoef[i]), n);
    Mul(dst, dst, s, n);
  }
  Adds(dst, dst, T(kAsinCoef[0]), n);
  Sqrt(s, s, n);
  Mul(dst, dst, s, n);
}

// dst = x * 2^k / (|x * 2^k| + 2^-k): the sign of x (0 at 0); `den` is work space.
template <class T>
void AsinSign(const LocalTensor<T>& dst, const LocalTensor<T>& x, const LocalTensor<T>& den,
              uint32_t n) {
  constexpr float kMax = sizeof(T) == 4 ? 4611686018427387904.0f : 32768.0f;    // 2^62 / 2^15
  constexpr float kMin = sizeof(T) == 4 ? 2.168404344971009e-19f : 3.0517578125e-05f;  // 2^-k
  Muls(dst, x, T(kMax), n);
  Abs(den, dst, n);
  Adds(den, den, T(kMin), n);
  Div(dst, dst, den, n);
}

inline void AsinFloat(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                      const LocalTensor<float>& t1, const LocalTensor<float>& t2, uint32_t n) {
  Mul(t2, src, src, n);
  Muls(t2, t2, -1.0f, n);
  Adds(t2, t2, 1.0f, n);
  Sqrt(dst, t2, n);
  AsinTaylor(t2, dst, t1, n);  // the series at sqrt(1 - x^2)
  Muls(t2, t2, -1.0f, n);
  Adds(t2, t2, kAsinHalfPi, n);
  Mul(t1, src, src, n);
  AsinTaylorOfSquare(dst, t1, n);  // the series at |x|; t1 = |x|
  Mins(t1, t1, kAsinBoundary, n);
  Adds(t1, t1, -kAsinBoundary, n);
  const LocalTensor<int32_t> flag = t1.ReinterpretCast<int32_t>();
  Cast(flag, t1, RoundMode::CAST_FLOOR, n);  // -1 below the boundary, 0 from it on
  Cast(t1, flag, RoundMode::CAST_NONE, n);
  Muls(t1, t1, -1.0f, n);
  Mul(dst, dst, t1, n);
  Muls(t1, t1, -1.0f, n);
  Adds(t1, t1, 1.0f, n);
  Mul(t2, t2, t1, n);
  Add(dst, dst, t2, n);
  AsinSign(t2, src, t1, n);
  Mul(dst, dst, t2, n);
}

inline void AsinHalf(const LocalTensor<half>& dst, const LocalTensor<half>& src,
                     const LocalTensor<half>& all, uint32_t split, uint32_t n) {
  const LocalTensor<float> f1 = all.ReinterpretCast<float>();
  const LocalTensor<float> f2 = f1[split];
  const LocalTensor<half> h1 = all[split * 4], h2 = all[split * 5];
  Cast(f2, src, RoundMode::CAST_NONE, n);
  Mul(f2, f2, f2, n);
  Muls(f2, f2, -1.0f, n);
  Adds(f2, f2, 1.0f, n);
  AsinTaylorOfSquare(f1, f2, n);  // the series at sqrt(1 - x^2), in float
  Muls(f1, f1, -1.0f, n);
  Adds(f1, f1, kAsinHalfPi, n);
  Abs(h2, src, n);
  AsinTaylor(dst, h2, h1, n);  // the series at |x|, in half
  Mins(h2, h2, half(kAsinBoundary), n);
  Adds(h2, h2, half(-kAsinBoundary), n);
  const LocalTensor<int8_t> flag = h1.ReinterpretCast<int8_t>();
  Cast(flag, h2, RoundMode::CAST_FLOOR, n);
  Cast(h2, flag, RoundMode::CAST_NONE, n);
  Muls(h2, h2, half(-1.0f), n);
  Mul(dst, dst, h2, n);
  Muls(h2, h2, half(-1.0f), n);
  Adds(h2, h2, half(1.0f), n);
  Cast(f2, h2, RoundMode::CAST_NONE, n);
  Mul(f1, f1, f2, n);
  Cast(f2, dst, RoundMode::CAST_NONE, n);
  Add(f1, f2, f1, n);
  AsinSign(h1, src, h2, n);
  Cast(f2, h1, RoundMode::CAST_NONE, n);
  Mul(f1, f1, f2, n);
  Cast(dst, f1, RoundMode::CAST_NONE, n);
}

template <class T, bool isReuseSource>
void AsinRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
             uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Asin takes half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr uint32_t procs = kHalf ? 6 : 4;
  AdvPrologue("Asin", dst, src, tmp, calCount, kHalf ? 6 * 256 : 2 * 256);
  ai::CheckNoOverlap("Asin", "dstTensor", dst, "srcTensor", src, calCount);
  const uint32_t split = tmp.GetSize() / sizeof(T) / procs / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<T> all = tmp.ReinterpretCast<T>();
  ForEachPiece("Asin", calCount, split, [&](uint32_t off, uint32_t n) {
    if constexpr (kHalf) {
      AsinHalf(dst[off], src[off], all, split, n);
    } else {
      AsinFloat(dst[off], src[off], all, all[split], n);
    }
  });
}

}  // namespace detail

template <typename T, bool isReuseSource = false>
void Asin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::AsinRun<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void Asin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Asin<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Asin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount) {
  Asin<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Asin"), calCount);
}
template <typename T, bool isReuseSource = false>
void Asin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Asin<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
