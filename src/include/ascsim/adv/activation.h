// The activation advanced APIs: Gelu, FasterGelu, FasterGeluV2, Silu, Swish (asc-devkit
// include/adv_api/activation/{gelu.h, silu.h, swish.h}; docs/zh/api/SIMD-API/高阶API/激活函数).
// Each is the Atlas A2/A3 algorithm of asc-devkit impl/adv_api/detail/activation/{gelu/gelu_impl.h,
// silu/silu_common_impl.h, swish/swish_common_impl.h}, written as the same sequence of basic-API
// calls, so the results carry the device's rounding at every step:
//   Gelu          y = 1.5957691216057308 * (x + 0.044715 x^3);
//                 x / (e^-|y| + 1) * e^min(y, 0)
//   FasterGelu    x / (1 + e^(-1.702 x))
//   FasterGeluV2  x * (sgn(x) * (-0.1444 * (min(|0.7071 x|, 1.769) - 1.769)^2 + 0.5) + 0.5), with
//                 sgn(x) = (x + 1e-12) / |x + 1e-12|
//   Silu          x / (1 + e^-x)
//   Swish         x / (1 + e^(-beta x))
// The Gelu family computes half in half unless highPrecision, which casts each piece to float,
// computes in float and casts back; highPerformance replaces each division by Reciprocal and Mul.
// Gelu and FasterGelu(V2) work in pieces of the temporary buffer (two, one and three T pieces, one
// float piece more for highPrecision half, each a whole number of 32 elements); Silu and Swish
// need no temporary space (they compute in dst).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/math.h"

namespace AscendC {
namespace detail {

// The documented minimum of every Gelu form (GetGeluMaxMinTmpSize: 3 * 256 B).
constexpr uint64_t kGeluMinTmpBytes = 3 * 256;

// The pieces of the temporary buffer a Gelu formula computes in.
template <class C>
struct GeluTmp {
  LocalTensor<C> a, b, c;
};

// y = 1.5957691216057308 * (x + 0.044715 x^3); x / (e^-|y| + 1) * e^min(y, 0) (gelu_impl.h
// GeluCalcSimplifiedAvoid: e^min(y, 0) keeps the exponent from overflowing).
template <class C, bool highPerformance>
void GeluFormula(const LocalTensor<C>& dst, const LocalTensor<C>& x, const GeluTmp<C>& t,
                 uint32_t n) {
  Mul(t.a, x, x, n);
  Mul(t.b, x, t.a, n);
  Muls(t.a, t.b, C(0.044715), n);
  Add(t.b, x, t.a, n);
  Muls(t.a, t.b, C(1.5957691216057308), n);
  Mins(t.b, t.a, C(0.0f), n);
  Exp(t.b, t.b, n);
  Abs(t.a, t.a, n);
  Muls(t.a, t.a, C(-1.0f), n);
  Exp(t.a, t.a, n);
  Adds(t.a, t.a, C(1.0f), n);
  if constexpr (highPerformance) {
    Reciprocal(t.a, t.a, n);
    Mul(t.a, x, t.a, n);
  } else {
    Div(t.a, x, t.a, n);
  }
  Mul(dst, t.a, t.b, n);
}

// x / (1 + e^(-1.702 x)) (FastGeluCalcSimplified).
template <class C, bool highPerformance>
void FasterGeluFormula(const LocalTensor<C>& dst, const LocalTensor<C>& x, const GeluTmp<C>& t,
                       uint32_t n) {
  Muls(t.a, x, C(-1.702), n);
  Exp(t.a, t.a, n);
  Adds(t.a, t.a, C(1.0f), n);
  if constexpr (highPerformance) {
    Reciprocal(t.a, t.a, n);
    Mul(dst, x, t.a, n);
  } else {
    Div(dst, x, t.a, n);
  }
}

// x * (sgn(x) * x1 + 0.5), x1 = -0.1444 * (min(|0.7071 x|, 1.769) - 1.769)^2 + 0.5,
// sgn(x) = (x + 1e-12) / |x + 1e-12| (FastGeluV2CalcSimplified; in half 1e-12 is 0, so x = 0
// gives 0 / 0 there as on the device).
template <class C, bool highPerformance>
void FasterGeluV2Formula(const LocalTensor<C>& dst, const LocalTensor<C>& x, const GeluTmp<C>& t,
                         uint32_t n) {
  Muls(t.a, x, C(0.7071), n);
  Abs(t.a, t.a, n);
  Mins(t.a, t.a, C(1.769), n);
  Adds(t.a, t.a, C(-1.769), n);
  Mul(t.a, t.a, t.a, n);
  Muls(t.a, t.a, C(-0.1444), n);
  Adds(t.a, t.a, C(0.5f), n);
  Adds(t.b, x, C(0.000000000001), n);
  Abs(t.c, t.b, n);
  if constexpr (highPerformance) {
    Reciprocal(t.c, t.c, n);
    Mul(t.b, t.b, t.c, n);
  } else {
    Div(t.b, t.b, t.c, n);
  }
  Mul(t.a, t.a, t.b, n);
  Adds(t.a, t.a, C(0.5f), n);
  Mul(dst, x, t.a, n);
}

// GeluClass / GeluFormulas / GeluFormulasHighPrecision: the checks, the split of the temporary
// buffer into `pieces` formula pieces (plus the float conversion piece for highPrecision half),
// and the loop over dataSize in pieces of stackSize elements.
template <class T, bool highPrecision, uint32_t pieces, class Formula>
void GeluRun(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint8_t>& tmp, uint32_t dataSize, Formula&& formula) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Gelu, FasterGelu and FasterGeluV2 take half or float");
  namespace ai = ascsim::aicore;
  AdvPrologue(api, dst, src, tmp, dataSize, kGeluMinTmpBytes);
  constexpr bool kConvert = highPrecision && std::is_same_v<T, half>;
  using C = std::conditional_t<kConvert, float, T>;
  const uint32_t need = pieces + (kConvert ? 1 : 0);
  const uint32_t stack = tmp.GetSize() / sizeof(C) / need / ONE_BLK_SIZE * ONE_BLK_SIZE;
  if (stack == 0) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": sharedTmpBuffer (", tmp.GetSize(), " B) leaves no room for ", need,
                      " pieces of 32 elements"));
  }
  const LocalTensor<C> all = tmp.ReinterpretCast<C>();
  GeluTmp<C> t{all, pieces >= 2 ? all[stack] : all, pieces >= 3 ? all[2 * stack] : all};
  ForEachPiece(api, dataSize, stack, [&](uint32_t off, uint32_t n) {
    if constexpr (kConvert) {
      const LocalTensor<float> conv = all[pieces * stack];
      Cast(conv, src[off], RoundMode::CAST_NONE, n);
      formula(conv, conv, t, n);
      Cast(dst[off], conv, RoundMode::CAST_NONE, n);
    } else {
      formula(dst[off], src[off], t, n);
    }
  });
}

}  // namespace detail

// ================================================================================== Gelu family
#define ASCSIM_GELU_API(Name, pieces, Formula)                                                  \
  template <typename T, bool highPrecision = false, bool highPerformance = false>               \
  void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                     \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {             \
    using C = std::conditional_t<highPrecision && std::is_same_v<T, half>, float, T>;           \
    detail::GeluRun<T, highPrecision, pieces>(                                                  \
        #Name, dstLocal, srcLocal, sharedTmpBuffer, dataSize,                                   \
        [](const LocalTensor<C>& d, const LocalTensor<C>& s, const detail::GeluTmp<C>& t,       \
           uint32_t n) { detail::Formula<C, highPerformance>(d, s, t, n); });                   \
  }                                                                                             \
  template <typename T, bool highPrecision = false, bool highPerformance = false>               \
  void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                     \
            const uint32_t dataSize) {                                                          \
    Name<T, highPrecision, highPerformance>(dstLocal, srcLocal, detail::AdvStack(#Name),        \
                                            dataSize);                                          \
  }
ASCSIM_GELU_API(Gelu, 2, GeluFormula)
ASCSIM_GELU_API(FasterGelu, 1, FasterGeluFormula)
ASCSIM_GELU_API(FasterGeluV2, 3, FasterGeluV2Formula)
#undef ASCSIM_GELU_API

// ================================================================================== Silu, Swish
namespace detail {
// Silu and Swish compute x / (1 + e^(k x)) in dst, so dst may not overlap src (documented; the
// first step would overwrite x).
template <class T>
void SigmoidWeighted(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                     T k, uint32_t dataSize) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Silu and Swish take half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  ai::CheckCalCount(api, dataSize, src.GetSize(), dst.GetSize());
  ai::CheckNoOverlap(api, "dstLocal", dst, "srcLocal", src, dataSize);
  Muls(dst, src, k, dataSize);
  Exp(dst, dst, dataSize);
  Adds(dst, dst, T(1.0f), dataSize);
  Div(dst, src, dst, dataSize);
}
}  // namespace detail

template <typename T, bool isReuseSource = false>
void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize) {
  detail::SigmoidWeighted("Silu", dstLocal, srcLocal, T(-1.0f), dataSize);
}

// swish(x) = x / (1 + e^(-beta x)); -beta is formed in float and rounded to T once (CANN:
// static_cast<T>(-1.0f * float(scalarValue))).
template <typename T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
           const T scalarValue) {
  detail::SigmoidWeighted("Swish", dstLocal, srcLocal, T(-1.0f * float(scalarValue)), dataSize);
}

}  // namespace AscendC
