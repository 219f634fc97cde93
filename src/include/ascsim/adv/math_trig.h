// Sin and Cos, the math advanced APIs of asc-devkit include/adv_api/math/{sin.h, cos.h} (Atlas
// A2/A3 forms: template <T, isReuseSource>; docs/zh/api/SIMD-API/高阶API/数学计算/{Sin,Cos}接口).
// Each is the algorithm of impl/adv_api/detail/math/{sin/sin_common_impl.h,
// cos/cos_common_impl.h} as the same basic-API calls, in float (half is cast to float and back):
//   Sin  k = round(x / pi); x0 = x - k pi, with pi split in four parts (3.140625 + ...) so x0 keeps
//        its precision; sin x = (-1)^k x0 P(x0^2), P a degree-4 polynomial
//   Cos  k = rint(x / pi + 1/2); x0 = x - k pi + pi/2 (pi in five parts); cos x = (-1)^k x0 P(x0^2),
//        clamped to [-1, 1]
// (-1)^k is formed as 4 floor(k / 2) - 2k + 1. The documented input range is [-65504, 65504]:
// outside it k pi loses the precision the reduction needs, as on the device.
// Temporary space: float pieces of a whole number of 32 elements each, four for half (converted
// x, k, k pi / x^2, reduced x), three for float (two with isReuseSource, which reduces x in
// srcTensor).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/math.h"

namespace AscendC {
namespace detail {

struct TrigTmp {
  LocalTensor<float> round, kpi, x;
};

// sign = 4 floor(k / 2) - 2k + 1 in dst, x^2 in kpi (SinSignCompute / SignCompute).
inline void TrigSign(const LocalTensor<float>& dst, const LocalTensor<float>& x,
                     const TrigTmp& t, uint32_t n) {
  Mul(t.kpi, x, x, n);
  Muls(dst, t.round, 0.5f, n);
  Cast(dst, dst, RoundMode::CAST_FLOOR, n);
  Muls(dst, dst, 4.0f, n);
  Muls(t.round, t.round, -2.0f, n);
  Add(dst, dst, t.round, n);
  Adds(dst, dst, 1.0f, n);
}

// dst = sign * x P(x^2), P(u) = (((2.604926501e-6 u - 1.980894471e-4) u + 8.333049340e-3) u
// - 0.1666665792) u + 1.
inline void TrigPolynomial(const LocalTensor<float>& dst, const LocalTensor<float>& x,
                           const TrigTmp& t, uint32_t n) {
  TrigSign(dst, x, t, n);
  Muls(t.round, t.kpi, 2.604926501e-6f, n);
  Adds(t.round, t.round, -0.0001980894471f, n);
  Mul(t.round, t.round, t.kpi, n);
  Adds(t.round, t.round, 0.008333049340f, n);
  Mul(t.round, t.round, t.kpi, n);
  Adds(t.round, t.round, -0.1666665792f, n);
  Mul(t.round, t.round, t.kpi, n);
  Adds(t.round, t.round, 1.0f, n);
  Mul(t.round, t.round, x, n);
  Mul(dst, t.round, dst, n);
}

// x -= k c for each part c of pi (SinKpi / KPI): the first writes t.x from src.
inline void SubtractKpi(const LocalTensor<float>& src, const TrigTmp& t, float c, bool first,
                        uint32_t n) {
  Muls(t.kpi, t.round, c, n);
  Sub(t.x, first ? src : t.x, t.kpi, n);
}

inline void SinFloat(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                     const TrigTmp& t, uint32_t n) {
  Muls(t.round, src, 0.3183098733425140380859375f, n);
  Cast(t.round, t.round, RoundMode::CAST_ROUND, n);
  SubtractKpi(src, t, 3.140625f, true, n);
  SubtractKpi(src, t, 0.0009670257568359375f, false, n);
  SubtractKpi(src, t, 6.2771141529083251953125e-7f, false, n);
  SubtractKpi(src, t, 1.21644916362129151821136474609375e-10f, false, n);
  TrigPolynomial(dst, t.x, t, n);
}

inline void CosFloat(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                     const TrigTmp& t, uint32_t n) {
  Muls(t.round, src, 0.3183098733425140380859375f, n);
  Adds(t.round, t.round, 0.5f, n);
  Cast(t.round, t.round, RoundMode::CAST_RINT, n);
  SubtractKpi(src, t, 3.140625f, true, n);
  SubtractKpi(src, t, 0.0009670257568359375f, false, n);
  Adds(t.x, t.x, 1.57079637050628662109375f, n);
  SubtractKpi(src, t, 6.2771141529083251953125e-7f, false, n);
  SubtractKpi(src, t, 1.21644916362129151821136474609375e-10f, false, n);
  SubtractKpi(src, t, -1.0290623200529979163359041220560e-13f, false, n);
  Adds(t.x, t.x, -0.00000004371139000189375f, n);
  TrigPolynomial(dst, t.x, t, n);
  Mins(dst, dst, 1.0f, n);
  Maxs(dst, dst, -1.0f, n);
}

// SinImpl / CosImpl: checks, the pieces of the temporary buffer, the loop over calCount.
template <class T, bool isReuseSource, class F>
void TrigRun(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint8_t>& tmp, uint32_t calCount, F&& f) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Sin and Cos take half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr uint32_t procs = kHalf ? 4 : (isReuseSource ? 2 : 3);
  AdvPrologue(api, dst, src, tmp, calCount, uint64_t{kHalf ? 8u : procs} * 256);
  ai::CheckNoOverlap(api, "dstTensor", dst, "srcTensor", src, calCount);
  const uint32_t split = tmp.GetSize() / sizeof(float) / procs / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<float> all = tmp.ReinterpretCast<float>();
  ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
    if constexpr (kHalf) {
      const LocalTensor<float> conv = all;
      const TrigTmp t{all[split], all[2 * split], all[3 * split]};
      Cast(conv, src[off], RoundMode::CAST_NONE, n);
      f(conv, conv, t, n);
      Cast(dst[off], conv, RoundMode::CAST_NONE, n);
    } else {
      const LocalTensor<float> x = isReuseSource ? src[off] : all[2 * split];
      f(dst[off], src[off], TrigTmp{all, all[split], x}, n);
    }
  });
}

}  // namespace detail

#define ASCSIM_TRIG_API(Name, Fn)                                                              \
  template <typename T, bool isReuseSource = false>                                            \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                  \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {            \
    detail::TrigRun<T, isReuseSource>(#Name, dstTensor, srcTensor, sharedTmpBuffer, calCount,  \
                                      detail::Fn);                                             \
  }                                                                                            \
  template <typename T, bool isReuseSource = false>                                            \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                  \
            const LocalTensor<uint8_t>& sharedTmpBuffer) {                                     \
    Name<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());        \
  }                                                                                            \
  template <typename T, bool isReuseSource = false>                                            \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                  \
            const uint32_t calCount) {                                                         \
    Name<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack(#Name), calCount);           \
  }                                                                                            \
  template <typename T, bool isReuseSource = false>                                            \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {                \
    Name<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());                         \
  }
ASCSIM_TRIG_API(Sin, SinFloat)
ASCSIM_TRIG_API(Cos, CosFloat)
#undef ASCSIM_TRIG_API

}  // namespace AscendC
