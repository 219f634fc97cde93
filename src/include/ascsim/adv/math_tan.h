// Tan, the math advanced API of asc-devkit include/adv_api/math/tan.h (forms: template <T,
// isReuseSource>, with or without sharedTmpBuffer and calCount; half and float). The algorithm is
// impl/adv_api/detail/math/tan/tan_common_impl.h's (TanCompute, TanRound, KPI_0..KPI_4,
// TanPolynomialApproximation), as the same basic-API calls in the same order on the same
// buffers, so the results are those of its steps:
//   x' = x + 0 (float: the copy it works on); k = rint(x' / pi) (x' * 0.31830987..., rounded to
//   even: a float -> float Cast with CAST_RINT on A2, tan_v220_impl.h TanCast; on the 310P through
//   int32, tan_v200_impl.h);
//   x' -= k pi_0 .. k pi_4 (pi in five parts, each product rounded), down1 = x' + pi/2 and
//   down2 = x' - pi/2 taken after pi_1 and corrected by the later parts;
//   tan x = x' ((R0 x'^2 + R1) x'^2 + R2) / ((x'^2 + R3) down1 down2)
// in float; half is cast to float (CAST_NONE) and the result back (CAST_NONE). The checks are the
// common math API's (tan_check_common.h: CheckFuncClassMathCommon): calCount inside both
// tensors, the temporary buffer apart from them and at least the host minimum, and dst and src
// may not share a byte.
// Temporary space (TanImpl, impl/adv_api/tiling/math/tan_tiling_impl.cpp): pieces of
// tmpBytes / sizeof(T) / procedures elements rounded down to 32, 4 procedures for float (four
// float pieces: k, down1, down2, x'; dst is the products' scratch) and 10 for half (five float
// pieces: the result, x', k, down1, down2); the host minimum is one 256 B repeat per procedure.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/math.h"

namespace AscendC {
namespace detail {

// tan_common_impl.h's constants: float, from the same decimal literals.
constexpr float kTanInvPi = 0.3183098733425140380859375;             // PI_FOR_X_TODIV
constexpr float kTanPi0 = 3.140625;                                  // PI_V2
constexpr float kTanPi1 = 0.0009670257568359375;                     // KPI_FIRS_PI_MULS
constexpr float kTanPi2 = 6.2771141529083251953125e-7;               // KPI_TWI_PI_MULS
constexpr float kTanPi3 = 1.21644916362129151821136474609375e-10;    // KPI_THIR_PI_MULS
constexpr float kTanPi4 = -1.0291767438275201129727065563201904296875e-13;  // KPI_FOR_PI_MULS
constexpr float kTanHalfPi = 1.57079637050628662109375;              // PI_DOWN
constexpr float kTanHalfPiNeg = -1.57079637050628662109375;          // PI_DOWN_NEG
constexpr float kTanHalfPiLow = 0.00000004371139000189375;           // PI_RESDOWN_ADDS
constexpr float kTanHalfPiLowNeg = -0.00000004371139000189375;       // PI_RESDOWN_ADDS_NEG
constexpr float kTanR0 = 0.0698520831551998762793;                   // TAN_RES_MULTI_SCA
constexpr float kTanR1 = -6.8711573651634203789;                     // TAN_RES_ADDICT_UP
constexpr float kTanR2 = 61.20362572811089435388;                    // TAN_2ADDS
constexpr float kTanR3 = -24.8048928861126769186219;                 // TAN_3ADDS

// TanCast: round to nearest even, as the device's architecture does it.
inline void TanRoundToEven(const LocalTensor<float>& k, uint32_t n) {
  if (ascsim::aicore::CurrentCore().launch->soc->arch == 2002) {
    const LocalTensor<int32_t> as_int = k.ReinterpretCast<int32_t>();
    Cast(as_int, k, RoundMode::CAST_RINT, n);
    Cast(k, as_int, RoundMode::CAST_NONE, n);
  } else {
    Cast(k, k, RoundMode::CAST_RINT, n);
  }
}

// TanRound then TanPolynomialApproximation: `dst` gets tan of `x` (which the reduction
// overwrites); `k`, `down1`, `down2` are scratch pieces of n floats.
inline void TanFloat(const LocalTensor<float>& dst, const LocalTensor<float>& x,
                     const LocalTensor<float>& k, const LocalTensor<float>& down1,
                     const LocalTensor<float>& down2, uint32_t n) {
  Muls(k, x, kTanInvPi, n);
  TanRoundToEven(k, n);
  Muls(dst, k, kTanPi0, n);  // KPI_0
  Sub(x, x, dst, n);
  Muls(dst, k, kTanPi1, n);  // KPI_1
  Sub(x, x, dst, n);
  Adds(down1, x, kTanHalfPi, n);
  Adds(down2, x, kTanHalfPiNeg, n);
  Muls(dst, k, kTanPi2, n);  // KPI_2
  Sub(x, x, dst, n);
  Sub(down1, down1, dst, n);
  Sub(down2, down2, dst, n);
  Adds(down1, down1, kTanHalfPiLowNeg, n);
  Adds(down2, down2, kTanHalfPiLow, n);
  for (const float part : {kTanPi3, kTanPi4}) {  // KPI_3, KPI_4
    Muls(dst, k, part, n);
    Sub(x, x, dst, n);
    Sub(down1, down1, dst, n);
    Sub(down2, down2, dst, n);
  }
  // The polynomial: k is x^2 from here.
  Mul(k, x, x, n);
  Muls(dst, k, kTanR0, n);
  Adds(dst, dst, kTanR1, n);
  Mul(dst, dst, k, n);
  Adds(dst, dst, kTanR2, n);
  Mul(dst, dst, x, n);
  Adds(k, k, kTanR3, n);
  Mul(k, k, down1, n);
  Mul(k, k, down2, n);
  Div(dst, dst, k, n);
}

template <class T, bool isReuseSource>
void TanRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
            uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Tan takes half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr uint32_t procs = kHalf ? 10 : 4;  // TAN_HALF_CALC_PROCEDURE / TAN_FLOAT_CALC_PROCEDURE
  AdvPrologue("Tan", dst, src, tmp, calCount, uint64_t{procs} * 256);
  ai::CheckNoOverlap("Tan", "dstTensor", dst, "srcTensor", src, calCount);
  const uint32_t split = tmp.GetSize() / sizeof(T) / procs / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<float> all = tmp.ReinterpretCast<float>();
  ForEachPiece("Tan", calCount, split, [&](uint32_t off, uint32_t n) {
    if constexpr (kHalf) {
      const LocalTensor<float> result = all;
      const LocalTensor<float> x = all[split];
      Cast(x, src[off], RoundMode::CAST_NONE, n);
      TanFloat(result, x, all[2 * split], all[3 * split], all[4 * split], n);
      Cast(dst[off], result, RoundMode::CAST_NONE, n);
    } else {
      const LocalTensor<float> x = all[3 * split];
      Adds(x, src[off], 0.0f, n);
      TanFloat(dst[off], x, all, all[split], all[2 * split], n);
    }
  });
}

}  // namespace detail

template <typename T, bool isReuseSource = false>
void Tan(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::TanRun<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void Tan(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Tan<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Tan(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const uint32_t calCount) {
  Tan<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Tan"), calCount);
}
template <typename T, bool isReuseSource = false>
void Tan(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Tan<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
