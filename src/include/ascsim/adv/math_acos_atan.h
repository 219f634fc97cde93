// Acos and Atan, the math advanced APIs of asc-devkit include/adv_api/math/acos.h and atan.h
// (Atlas A2/A3 forms: template <T, isReuseSource>, with or without sharedTmpBuffer and calCount),
// with the algorithms of impl/adv_api/detail/math/acos/acos_common_impl.h and
// atan/atan_common_impl.h as the same basic-API calls, piece by piece:
//   Acos: pi/2 - Asin(x), as -(Asin(x) - pi/2); for half, from Asin's float result (before its
//         rounding to half), then rounded once to half. Temporary space as Asin's.
//   Atan: in float (half converted in and out): x clipped to [-10000, 10000]; on |x| the least of
//         the 4-term Taylor series of atan at |x|, pi/8 + the series at the tan(pi/8)-shifted |x|,
//         pi/4 + the series at |(|x| - 1) / (|x| + 1)|, and pi/8 + pi/4 + the 6-term series at that
//         value shifted by tan(pi/8); then the sign x * 2^62 / (|x * 2^62| + 2^-62). Pieces of
//         tmpBytes / 4 / 5 (float) or / 6 (half) floats rounded down to 32.
// The constants are CANN's double literals converted to float (as its `constexpr float` tables).
// Atan's host sizes (atan_tiling_impl.cpp): 5 (float) or 12 (half) units of the input bytes, at
// least one 256 B repeat per unit; Acos's (acos_tiling_impl.cpp): 2 or 6, as Asin's.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/math.h"
#include "ascsim/adv/math_asin.h"

namespace AscendC {
namespace detail {

template <class T, bool isReuseSource>
void AcosRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
             uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Acos takes half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr uint32_t procs = kHalf ? 6 : 4;  // as Asin (acos_common_impl.h uses its constants)
  AdvPrologue("Acos", dst, src, tmp, calCount, kHalf ? 6 * 256 : 2 * 256);
  ai::CheckNoOverlap("Acos", "dstTensor", dst, "srcTensor", src, calCount);
  const uint32_t split = tmp.GetSize() / sizeof(T) / procs / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<T> all = tmp.ReinterpretCast<T>();
  ForEachPiece("Acos", calCount, split, [&](uint32_t off, uint32_t n) {
    if constexpr (kHalf) {
      AsinHalf(dst[off], src[off], all, split, n);
      // Asin's float result is still in the first float piece of the temporary buffer.
      const LocalTensor<float> f = all.template ReinterpretCast<float>();
      Adds(f, f, -kAsinHalfPi, n);
      Muls(f, f, -1.0f, n);
      Cast(dst[off], f, RoundMode::CAST_NONE, n);
    } else {
      AsinFloat(dst[off], src[off], all, all[split], n);
      Adds(dst[off], dst[off], -kAsinHalfPi, n);
      Muls(dst[off], dst[off], -1.0f, n);
    }
  });
}

// dst = the `level`-term Taylor series of atan at x (Horner from 1/(2 level + 1)); `sq` = x^2.
inline void AtanTaylor(const LocalTensor<float>& dst, const LocalTensor<float>& x,
                       const LocalTensor<float>& sq, uint32_t level, uint32_t n) {
  constexpr float kFactor[7] = {
      static_cast<float>(1),
      static_cast<float>(-0.3333333333333333),
      static_cast<float>(0.2),
      static_cast<float>(-0.14285714285714285),
      static_cast<float>(0.1111111111111111),
      static_cast<float>(-0.09090909090909091),
      static_cast<float>(0.07692307692307693),
  };
  Mul(sq, x, x, n);
  Mul(dst, x, x, n);
  Muls(dst, dst, kFactor[level], n);
  for (uint32_t i = level - 1; i > 0; --i) {
    Adds(dst, dst, kFactor[i], n);
    Mul(dst, dst, sq, n);
  }
  Adds(dst, dst, kFactor[0], n);
  Mul(dst, dst, x, n);
}

// dst = |(x - f) / (1 + x f)|; `t` is work space.
inline void AtanShift(const LocalTensor<float>& dst, const LocalTensor<float>& x,
                      const LocalTensor<float>& t, float f, uint32_t n) {
  Muls(dst, x, f, n);
  Adds(dst, dst, 1.0f, n);
  Adds(t, x, 0 - f, n);
  Div(dst, t, dst, n);
  Abs(dst, dst, n);
}

// atan in float of `src` into `dst` (which may be `src`), with five float pieces of `split` at
// `work` (AtanFormulaImpl).
inline void AtanFloat(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                      const LocalTensor<float>& work, uint32_t split, uint32_t n) {
  constexpr float kPiBy4 = static_cast<float>(0.78539816339744830961566084581988);
  constexpr float kPiBy8 = static_cast<float>(0.39269908169872415480783042290994);
  constexpr float kTanPiBy8 = static_cast<float>(0.4142135623730950);
  constexpr float kMaxInput = 10000, kMinInput = -10000;
  constexpr float kSignMax = static_cast<float>(4611686018427387904.0);   // 2^62
  constexpr float kSignMin = static_cast<float>(2.168404344971009e-19);   // 2^-62
  const LocalTensor<float> t = work, clip = work[split], ab = work[2 * split],
                           t2 = work[3 * split], sq = work[4 * split];
  Mins(clip, src, kMaxInput, n);
  Maxs(clip, clip, kMinInput, n);
  Abs(ab, clip, n);
  AtanTaylor(dst, ab, sq, 4, n);
  AtanShift(t, ab, t2, kTanPiBy8, n);
  AtanTaylor(t2, t, sq, 4, n);
  Adds(t2, t2, kPiBy8, n);
  Min(dst, dst, t2, n);
  Adds(t2, ab, 1.0f, n);
  Adds(t, ab, -1.0f, n);
  Div(t, t, t2, n);
  Abs(t, t, n);
  AtanTaylor(t2, t, sq, 4, n);
  Adds(t2, t2, kPiBy4, n);
  Min(dst, dst, t2, n);
  AtanShift(t2, t, sq, kTanPiBy8, n);
  AtanTaylor(t, t2, sq, 6, n);
  Adds(t, t, kPiBy8, n);
  Adds(t, t, kPiBy4, n);
  Min(dst, dst, t, n);
  Muls(t, clip, kSignMax, n);
  Abs(t2, t, n);
  Adds(t2, t2, kSignMin, n);
  Div(t, t, t2, n);
  Mul(dst, dst, t, n);
}

template <class T, bool isReuseSource>
void AtanRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
             uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Atan takes half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr uint32_t procs = kHalf ? 6 : 5;
  // The device needs one 32-element piece per procedure (CheckTmpBufferSize on the piece size).
  AdvPrologue("Atan", dst, src, tmp, calCount, uint64_t{procs} * ONE_BLK_SIZE * sizeof(float));
  const uint32_t split = tmp.GetSize() / sizeof(float) / procs / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<float> work = tmp.ReinterpretCast<float>();
  ForEachPiece("Atan", calCount, split, [&](uint32_t off, uint32_t n) {
    if constexpr (kHalf) {
      const LocalTensor<float> conv = work[5 * split];
      Cast(conv, src[off], RoundMode::CAST_NONE, n);
      AtanFloat(conv, conv, work, split, n);
      Cast(dst[off], conv, RoundMode::CAST_NONE, n);
    } else {
      AtanFloat(dst[off], src[off], work, split, n);
    }
  });
}

}  // namespace detail

template <typename T, bool isReuseSource = false>
void Acos(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::AcosRun<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void Acos(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Acos<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Acos(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount) {
  Acos<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Acos"), calCount);
}
template <typename T, bool isReuseSource = false>
void Acos(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Acos<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false>
void Atan(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::AtanRun<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void Atan(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Atan<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Atan(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount) {
  Atan<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Atan"), calCount);
}
template <typename T, bool isReuseSource = false>
void Atan(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Atan<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
