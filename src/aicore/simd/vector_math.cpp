// vector_math.h on the host CPU. The float paths (float, and half through float) are Highway
// SIMD compiled for every x86-64 target Highway knows and chosen at run time (dynamic dispatch),
// so one binary uses AVX-512 or AVX2+F16C where present and stays correct on plain SSE2.
// half uses F16C for its float<->half conversions (round to nearest even, as the device; the
// directed modes through F16C's rounding immediate, ROUND and ODD through one bit placed in the
// float before F16C rounds); targets without
// F16C, bfloat16_t, integer types, reductions and the other casts take the portable element
// loops at the end of this file.
#include "ascsim/aicore/simd/vector_math.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "aicore/simd/dtype_visit.h"
#include "ascsim/error.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "aicore/simd/vector_math.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/contrib/math/math-inl.h"

// After foreach_target.h: included once per target.
#include "aicore/simd/load_store-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ascsim::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// kF16Native, F16, LoadF and StoreF: load_store-inl.h.

// d[i] = f(a[i], b[i]) in float: whole vectors, then one lane at a time for the tail.
template <class T, class F>
HWY_INLINE void Map2(T* d, const T* a, const T* b, size_t n, const F& f) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  size_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    const auto r0 = f(df, LoadF(df, a + i), LoadF(df, b + i));
    const auto r1 = f(df, LoadF(df, a + i + lanes), LoadF(df, b + i + lanes));
    StoreF(df, r0, d + i);
    StoreF(df, r1, d + i + lanes);
  }
  for (; i + lanes <= n; i += lanes) StoreF(df, f(df, LoadF(df, a + i), LoadF(df, b + i)), d + i);
  const hn::CappedTag<float, 1> d1;
  for (; i < n; ++i) StoreF(d1, f(d1, LoadF(d1, a + i), LoadF(d1, b + i)), d + i);
}

template <class TD, class TS, class F>
HWY_INLINE void Map1(TD* d, const TS* s, size_t n, const F& f) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  size_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    const auto r0 = f(df, LoadF(df, s + i));
    const auto r1 = f(df, LoadF(df, s + i + lanes));
    StoreF(df, r0, d + i);
    StoreF(df, r1, d + i + lanes);
  }
  for (; i + lanes <= n; i += lanes) StoreF(df, f(df, LoadF(df, s + i)), d + i);
  const hn::CappedTag<float, 1> d1;
  for (; i < n; ++i) StoreF(d1, f(d1, LoadF(d1, s + i)), d + i);
}

// The portable loops' semantics, lane-wise: max/min as `x > y ? x : y` (NaN and signed-zero
// behaviour included), relu as `x > 0 ? x : 0`.
struct MaxOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V x, V y) const { return hn::IfThenElse(hn::Gt(x, y), x, y); }
};
struct MinOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V x, V y) const { return hn::IfThenElse(hn::Lt(x, y), x, y); }
};

// e^x with std::exp's special values: NaN stays NaN, overflow gives +inf (Highway's Exp is
// specified up to 104 and maps NaN to 0).
template <class D, class V>
HWY_INLINE V ExpF(D d, V x) {
  const V r = hn::Exp(d, x);
  const V overflowed =
      hn::IfThenElse(hn::Ge(x, hn::Set(d, 88.72283935546875f)),
                     hn::Set(d, std::numeric_limits<float>::infinity()), r);
  return hn::IfThenElse(hn::Eq(x, x), overflowed, x);
}

// ln x with std::log's special values: log(0) = -inf, log(x < 0) = NaN, log(inf) = inf.
template <class D, class V>
HWY_INLINE V LnF(D d, V x) {
  const V inf = hn::Set(d, std::numeric_limits<float>::infinity());
  V r = hn::Log(d, x);
  r = hn::IfThenElse(hn::Eq(x, inf), inf, r);
  r = hn::IfThenElse(hn::Eq(x, hn::Zero(d)), hn::Neg(inf), r);
  r = hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Set(d, std::numeric_limits<float>::quiet_NaN()),
                     r);
  return hn::IfThenElse(hn::Eq(x, x), r, x);
}

template <class T>
bool BinaryFloat(BinaryOp op, void* dst, const void* a, const void* b, size_t n) {
  T* d = static_cast<T*>(dst);
  const T* x = static_cast<const T*>(a);
  const T* y = static_cast<const T*>(b);
  switch (op) {
    case BinaryOp::kAdd:
      Map2(d, x, y, n, [](auto, auto p, auto q) HWY_ATTR { return hn::Add(p, q); });
      return true;
    case BinaryOp::kSub:
      Map2(d, x, y, n, [](auto, auto p, auto q) HWY_ATTR { return hn::Sub(p, q); });
      return true;
    case BinaryOp::kMul:
      Map2(d, x, y, n, [](auto, auto p, auto q) HWY_ATTR { return hn::Mul(p, q); });
      return true;
    case BinaryOp::kDiv:
      Map2(d, x, y, n, [](auto, auto p, auto q) HWY_ATTR { return hn::Div(p, q); });
      return true;
    case BinaryOp::kMax: Map2(d, x, y, n, MaxOp()); return true;
    case BinaryOp::kMin: Map2(d, x, y, n, MinOp()); return true;
    default: return false;  // And/Or on floats: the portable path raises the error
  }
}

template <class T>
bool UnaryFloat(UnaryOp op, void* dst, const void* src, size_t n) {
  T* d = static_cast<T*>(dst);
  const T* s = static_cast<const T*>(src);
  switch (op) {
    case UnaryOp::kExp:
      Map1(d, s, n, [](auto df, auto v) HWY_ATTR { return ExpF(df, v); });
      return true;
    case UnaryOp::kLn:
      Map1(d, s, n, [](auto df, auto v) HWY_ATTR { return LnF(df, v); });
      return true;
    case UnaryOp::kAbs:
      Map1(d, s, n, [](auto, auto v) HWY_ATTR { return hn::Abs(v); });
      return true;
    case UnaryOp::kSqrt:
      Map1(d, s, n, [](auto, auto v) HWY_ATTR { return hn::Sqrt(v); });
      return true;
    case UnaryOp::kRsqrt:  // exactly 1 / sqrt(x), not the approximate rsqrt instruction
      Map1(d, s, n, [](auto df, auto v) HWY_ATTR {
        return hn::Div(hn::Set(df, 1.0f), hn::Sqrt(v));
      });
      return true;
    case UnaryOp::kReciprocal:
      Map1(d, s, n, [](auto df, auto v) HWY_ATTR { return hn::Div(hn::Set(df, 1.0f), v); });
      return true;
    case UnaryOp::kRelu:
      Map1(d, s, n, [](auto df, auto v) HWY_ATTR { return MaxOp()(df, v, hn::Zero(df)); });
      return true;
    default: return false;
  }
}

template <class T>
bool ScalarFloat(ScalarOp op, void* dst, const void* src, float s, size_t n) {
  T* d = static_cast<T*>(dst);
  const T* x = static_cast<const T*>(src);
  switch (op) {
    case ScalarOp::kAdds:
      Map1(d, x, n, [s](auto df, auto v) HWY_ATTR { return hn::Add(v, hn::Set(df, s)); });
      return true;
    case ScalarOp::kMuls:
      Map1(d, x, n, [s](auto df, auto v) HWY_ATTR { return hn::Mul(v, hn::Set(df, s)); });
      return true;
    case ScalarOp::kMaxs:
      Map1(d, x, n, [s](auto df, auto v) HWY_ATTR { return MaxOp()(df, v, hn::Set(df, s)); });
      return true;
    case ScalarOp::kMins:
      Map1(d, x, n, [s](auto df, auto v) HWY_ATTR { return MinOp()(df, v, hn::Set(df, s)); });
      return true;
    case ScalarOp::kLeakyRelu:
      Map1(d, x, n, [s](auto df, auto v) HWY_ATTR {
        return hn::IfThenElse(hn::Ge(v, hn::Zero(df)), v, hn::Mul(v, hn::Set(df, s)));
      });
      return true;
    default: return false;
  }
}

// Each returns false when this target leaves the case to the portable loops.
bool BinaryFast(BinaryOp op, DType t, void* dst, const void* a, const void* b, size_t n) {
  if (t == DType::kF32) return BinaryFloat<float>(op, dst, a, b, n);
  if (t == DType::kF16 && kF16Native) return BinaryFloat<F16>(op, dst, a, b, n);
  return false;
}

bool UnaryFast(UnaryOp op, DType t, void* dst, const void* src, size_t n) {
  if (t == DType::kF32) return UnaryFloat<float>(op, dst, src, n);
  if (t == DType::kF16 && kF16Native) return UnaryFloat<F16>(op, dst, src, n);
  return false;
}

bool ScalarFast(ScalarOp op, DType t, void* dst, const void* src, const void* scalar, size_t n) {
  if (t == DType::kF32) {
    float s;
    std::memcpy(&s, scalar, sizeof(s));
    return ScalarFloat<float>(op, dst, src, s, n);
  }
  if (t == DType::kF16 && kF16Native) {
    uint16_t bits;
    std::memcpy(&bits, scalar, sizeof(bits));
    return ScalarFloat<F16>(op, dst, src, HalfBitsToFloat(bits), n);
  }
  return false;
}

// The half bits of float `f` under FLOOR / CEIL / TRUNC / ROUND / ODD, in 32-bit lanes, with
// the same results as the portable FloatToHalfMode (tests: bit for bit on every half, every tie
// and their float neighbours). Integer arithmetic on the float's bits: the magnitude is cut to
// the half grid (`base`: exponent and 10 fraction bits; for subnormal results the significand
// shifted by its exponent) and the cut-off bits (`rem`, against `half` = one half ulp) decide
// the increment each mode wants. Carries run into the exponent as they should (0x7BFF + 1 is
// inf); finite values from 65536 up saturate to inf or the largest finite by direction, as the
// reference's neighbour of inf does. NaN is left to CanonicalNaN.
template <Rounding mode, class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> HalfBitsUnder(DF /*df*/, hn::Vec<DF> f) {
  // Signed lanes (every value here is below 2^31): Highway 1.0 has signed Gt/Lt on every target
  // (unsigned compares and Ge are missing on some).
  const hn::RebindToSigned<DF> du;
  using VU = hn::Vec<decltype(du)>;
  const VU x = hn::BitCast(du, f);
  const VU sign = hn::And(hn::ShiftRight<16>(x), hn::Set(du, 0x8000));
  const VU abs = hn::And(x, hn::Set(du, 0x7FFFFFFF));
  const auto negative = hn::Ne(sign, hn::Zero(du));
  // Normal results (|f| >= 2^-14): rebias the exponent (127 - 15) and drop 13 fraction bits.
  const auto normal = hn::Gt(abs, hn::Set(du, 0x387FFFFF));
  const VU n_base = hn::ShiftRight<13>(hn::Sub(abs, hn::Set(du, 0x38000000)));
  const VU n_rem = hn::And(abs, hn::Set(du, 0x1FFF));
  const VU one = hn::Set(du, 1);
  if (hn::AllTrue(du, hn::And(normal, hn::Lt(abs, hn::Set(du, 0x47800000))))) {
    // Every lane a normal half below 65536 (the usual vector): a carry past 0x7BFF is inf, right.
    const auto inexact = hn::Ne(n_rem, hn::Zero(du));
    VU magnitude;
    switch (mode) {
      case Rounding::kFloor:
        magnitude = hn::Sub(n_base, hn::VecFromMask(du, hn::And(inexact, negative)));
        break;
      case Rounding::kCeil:
        magnitude = hn::Sub(n_base, hn::VecFromMask(du, hn::AndNot(negative, inexact)));
        break;
      case Rounding::kRound:  // half an ulp added before the cut: ties go up in magnitude
        magnitude = hn::ShiftRight<13>(hn::Sub(abs, hn::Set(du, 0x38000000 - 0x1000)));
        break;
      case Rounding::kOdd:
        magnitude = hn::Or(n_base, hn::And(hn::VecFromMask(du, inexact), one));
        break;
      default:
        magnitude = n_base;
        break;
    }
    return hn::Or(sign, magnitude);
  }
  // Subnormal results: significand * 2^(e - 126) in units of 2^-24; shifts beyond 31 leave
  // nothing but a non-zero remainder below one half (float subnormals: their fraction alone).
  const VU e = hn::ShiftRight<23>(abs);
  const VU fraction = hn::And(abs, hn::Set(du, 0x7FFFFF));
  const VU sig =
      hn::IfThenElse(hn::Eq(e, hn::Zero(du)), fraction, hn::Or(fraction, hn::Set(du, 0x800000)));
  const VU shift = hn::Min(hn::Sub(hn::Set(du, 126), hn::Min(e, hn::Set(du, 126))),
                           hn::Set(du, 31));
  const VU s_base = sig >> shift;
  const VU s_rem = hn::And(sig, hn::Sub(one << shift, one));
  const VU s_half = one << hn::Sub(shift, one);
  const VU base = hn::IfThenElse(normal, n_base, s_base);
  const VU rem = hn::IfThenElse(normal, n_rem, s_rem);
  const VU half_ulp = hn::IfThenElse(normal, hn::Set(du, 0x1000), s_half);
  const auto inexact = hn::Ne(rem, hn::Zero(du));
  VU magnitude;
  bool away_on_overflow_pos = false, away_on_overflow_neg = false;
  switch (mode) {
    case Rounding::kFloor:  // toward -inf: negative magnitudes grow
      magnitude = hn::Sub(base, hn::VecFromMask(du, hn::And(inexact, negative)));
      away_on_overflow_neg = true;
      break;
    case Rounding::kCeil:
      magnitude = hn::Sub(base, hn::VecFromMask(du, hn::AndNot(negative, inexact)));
      away_on_overflow_pos = true;
      break;
    case Rounding::kRound:  // to nearest, ties away from zero
      magnitude = hn::Sub(base, hn::VecFromMask(du, hn::Gt(rem, hn::Sub(half_ulp, one))));
      away_on_overflow_pos = away_on_overflow_neg = true;
      break;
    case Rounding::kOdd:  // von Neumann: an inexact result keeps its last bit set
      magnitude = hn::Or(base, hn::And(hn::VecFromMask(du, inexact), one));
      break;
    default:  // kTrunc
      magnitude = base;
      break;
  }
  // Finite beyond the half range (>= 65536): inf when rounding away from zero, else 65504.
  const auto beyond = hn::Gt(abs, hn::Set(du, 0x477FFFFF));
  const auto away = away_on_overflow_pos && away_on_overflow_neg
                        ? hn::Eq(abs, abs)
                        : away_on_overflow_pos ? hn::Not(negative)
                        : away_on_overflow_neg ? negative
                                               : hn::Ne(abs, abs);
  const VU saturated = hn::IfThenElse(away, hn::Set(du, 0x7C00), hn::Set(du, 0x7BFF));
  magnitude = hn::IfThenElse(beyond, saturated, magnitude);
  magnitude = hn::IfThenElse(hn::Eq(abs, hn::Set(du, 0x7F800000)), hn::Set(du, 0x7C00),
                             magnitude);  // inf stays inf
  return hn::Or(sign, magnitude);
}

// NaN as FloatToHalfBits makes it: the sign and the quiet NaN 0x7E00 (F16C would keep the top of
// the payload), so that every path gives the same bits.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> CanonicalNaN(DF /*df*/, hn::Vec<DF> f,
                                                        hn::Vec<hn::RebindToSigned<DF>> bits) {
  const hn::RebindToSigned<DF> di;
  const auto sign = hn::And(hn::ShiftRight<16>(hn::BitCast(di, f)), hn::Set(di, 0x8000));
  return hn::IfThenElse(hn::RebindMask(di, hn::IsNaN(f)), hn::Or(sign, hn::Set(di, 0x7E00)),
                        bits);
}

// F16C's conversion with its rounding-control immediate (0 nearest even, 1 down, 2 up, 3 toward
// zero: IEEE directed rounding, overflow included), for whole vectors of the AVX2 / AVX-512
// targets; Highway's DemoteTo always rounds to nearest.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
constexpr bool kF16cRounding = true;
template <int kImm, class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, DF>> DemoteF16c(DF /*df*/, hn::Vec<DF> f) {
  const hn::Rebind<uint16_t, DF> du16;
  if constexpr (sizeof(hn::Vec<DF>) == 64) {
#if HWY_TARGET <= HWY_AVX3
    return hn::Vec<decltype(du16)>{_mm512_cvtps_ph(f.raw, kImm)};
#else
    return hn::BitCast(du16, hn::DemoteTo(hn::Rebind<F16, DF>(), f));  // unreachable
#endif
  } else if constexpr (sizeof(hn::Vec<DF>) == 32) {
    return hn::Vec<decltype(du16)>{_mm256_cvtps_ph(f.raw, kImm)};
  } else {
    return hn::BitCast(du16, hn::DemoteTo(hn::Rebind<F16, DF>(), f));  // not used for modes
  }
}
#else
constexpr bool kF16cRounding = false;
template <int kImm, class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, DF>> DemoteF16c(DF /*df*/, hn::Vec<DF> f) {
  return hn::BitCast(hn::Rebind<uint16_t, DF>(), hn::DemoteTo(hn::Rebind<F16, DF>(), f));
}
#endif

// A float lane mask (all ones / zero) narrowed to 16-bit lanes (signed saturation keeps -1).
template <class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, DF>> MaskBits16(DF df, hn::Vec<DF> mask) {
  const hn::Rebind<int16_t, DF> di16;
  return hn::BitCast(hn::Rebind<uint16_t, DF>(),
                     hn::DemoteTo(di16, hn::BitCast(hn::RebindToSigned<DF>(), mask)));
}

// ODD or ROUND for vectors without NaN or non-zero subnormal halves (|f| >= 2^-14, or zero):
// the last 13 fraction bits are what the conversion drops, so one bit placed in the float decides
// F16C's own rounding, at the cost of two or three integer operations.
template <Rounding mode, class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, DF>> NormalHalfBits(DF df, hn::Vec<DF> f) {
  const hn::RebindToSigned<DF> di;
  const auto x = hn::BitCast(di, f);
  if constexpr (mode == Rounding::kOdd) {
    // Inexact (a dropped bit set) puts a sticky bit on the half's last bit (bit 13): the carry
    // of (dropped + 0x1FFF) reaches bit 13 exactly when dropped != 0. Truncation keeps it: the
    // odd one of the two neighbours. Finite values from 65504 up truncate to 65504 (0x7BFF,
    // odd), as the reference saturates; inf has no dropped bits.
    const auto carry = hn::Add(hn::And(x, hn::Set(di, 0x1FFF)), hn::Set(di, 0x1FFF));
    return DemoteF16c<3>(df, hn::BitCast(df, hn::Or(x, hn::And(carry, hn::Set(di, 0x2000)))));
  } else {
    // The round bit (bit 12, half a half-ulp) copied into bit 0 makes an exact tie lie above
    // the midpoint, so nearest-even rounds it away from zero; every other value rounds as
    // before (bit 0 lies below every other dropped bit). 65520 and up go to inf, as away from
    // zero does.
    const auto round_bit = hn::And(hn::ShiftRight<12>(x), hn::Set(di, 1));
    return DemoteF16c<0>(df, hn::BitCast(df, hn::Or(x, round_bit)));
  }
}

// One vector of floats to half bits (in 16-bit lanes) under `mode`.
template <Rounding mode, class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, DF>> HalfVector(DF df, hn::Vec<DF> f) {
  const hn::Rebind<uint16_t, DF> du16;
  const auto nan = hn::IsNaN(f);
  constexpr bool kDirected =
      mode == Rounding::kFloor || mode == Rounding::kCeil || mode == Rounding::kTrunc;
  if constexpr (mode == Rounding::kNone || mode == Rounding::kRint ||
                (kDirected && kF16cRounding && sizeof(hn::Vec<DF>) >= 32)) {
    // F16C rounds by itself: to nearest even, or down / up / toward zero; NaN (rare) is made
    // canonical.
    constexpr int kImm = mode == Rounding::kFloor  ? 1
                         : mode == Rounding::kCeil  ? 2
                         : mode == Rounding::kTrunc ? 3
                                                    : 0;
    const auto bits = DemoteF16c<kImm>(df, f);
    if (HWY_LIKELY(hn::AllFalse(df, nan))) return bits;
    const hn::RebindToSigned<DF> di;
    return hn::DemoteTo(du16, CanonicalNaN(df, f, hn::PromoteTo(di, bits)));
  } else if constexpr (kF16cRounding && sizeof(hn::Vec<DF>) >= 32 &&
                       (mode == Rounding::kOdd || mode == Rounding::kRound)) {
    const hn::RebindToSigned<DF> di;
    // One float compare clears the usual vector: every |f| >= 2^-14 (normal halves, inf,
    // overflow; false for NaN and for zero).
    if (HWY_LIKELY(hn::AllTrue(df, hn::Ge(hn::Abs(f), hn::Set(df, 0x1p-14f))))) {
      return NormalHalfBits<mode>(df, f);
    }
    // Zero is right in the bit trick too; non-zero subnormal halves, 0 < |f| < 2^-14, are not:
    // there the half's last bit sits further up the float's fraction. One signed compare after
    // adding 2^31 - 1 maps |f| in [1, 0x387FFFFF] onto [INT_MIN, 0xB87FFFFE] and everything else
    // (zero, normal, inf, NaN) above it.
    const auto abs = hn::And(hn::BitCast(di, f), hn::Set(di, 0x7FFFFFFF));
    const auto tiny = hn::Lt(hn::Add(abs, hn::Set(di, 0x7FFFFFFF)),
                             hn::Set(di, static_cast<int32_t>(0xB87FFFFFu)));
    if (hn::AllFalse(di, hn::Or(tiny, hn::RebindMask(di, nan)))) {
      return NormalHalfBits<mode>(df, f);
    }
    const hn::Rebind<F16, DF> dh;
    // Subnormal halves or NaN in the vector: truncated, then ODD sets the last bit of an
    // inexact result (the odd one of the two neighbours); ROUND takes the next magnitude at an
    // exact tie and round-to-nearest-even everywhere else, as the reference does. The
    // differences are exact (Sterbenz), so a tie is an equality; next to inf (65504..65535)
    // there is none and the nearest stands.
    hn::Vec<decltype(du16)> bits;
    const auto toward_zero = DemoteF16c<3>(df, f);
    const auto back = hn::PromoteTo(df, hn::BitCast(dh, toward_zero));
    if constexpr (mode == Rounding::kOdd) {
      const auto inexact = hn::VecFromMask(df, hn::Ne(back, f));
      bits = hn::Or(toward_zero, hn::And(MaskBits16(df, inexact), hn::Set(du16, 1)));
    } else {
      const auto next = hn::Add(toward_zero, hn::Set(du16, 1));  // one ulp more magnitude
      const auto mag = hn::Abs(f);
      const auto below = hn::Sub(mag, hn::Abs(back));
      const auto above = hn::Sub(hn::Abs(hn::PromoteTo(df, hn::BitCast(dh, next))), mag);
      const auto tie = MaskBits16(df, hn::VecFromMask(df, hn::Eq(below, above)));
      bits = hn::IfThenElse(hn::MaskFromVec(tie), next, DemoteF16c<0>(df, f));
    }
    if (HWY_LIKELY(hn::AllFalse(df, nan))) return bits;
    return hn::DemoteTo(du16, CanonicalNaN(df, f, hn::PromoteTo(di, bits)));
  } else {
    const auto bits = HalfBitsUnder<mode>(df, f);
    if (HWY_LIKELY(hn::AllFalse(df, nan))) return hn::DemoteTo(du16, bits);
    return hn::DemoteTo(du16, CanonicalNaN(df, f, bits));
  }
}

template <Rounding mode>
void FloatToHalfT(uint16_t* d, const float* s, size_t n) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<uint16_t, decltype(df)> du16;
  const size_t lanes = hn::Lanes(df);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(HalfVector<mode>(df, hn::LoadU(df, s + i)), du16, d + i);
  }
  if (i < n) {
    // The tail through one whole vector: Highway 1.0's variable shifts give 0 on partial vectors
    // (CappedTag<int32_t, 1>), so a one-lane loop would be wrong here.
    HWY_ALIGN float in[HWY_LANES(float)] = {};
    HWY_ALIGN uint16_t out[HWY_LANES(float)];
    std::memcpy(in, s + i, (n - i) * sizeof(float));
    hn::Store(HalfVector<mode>(df, hn::Load(df, in)), du16, out);
    std::memcpy(d + i, out, (n - i) * sizeof(uint16_t));
  }
}

void FloatToHalf(Rounding mode, uint16_t* d, const float* s, size_t n) {
  switch (mode) {
    case Rounding::kFloor: return FloatToHalfT<Rounding::kFloor>(d, s, n);
    case Rounding::kCeil: return FloatToHalfT<Rounding::kCeil>(d, s, n);
    case Rounding::kRound: return FloatToHalfT<Rounding::kRound>(d, s, n);
    case Rounding::kTrunc: return FloatToHalfT<Rounding::kTrunc>(d, s, n);
    case Rounding::kOdd: return FloatToHalfT<Rounding::kOdd>(d, s, n);
    default: return FloatToHalfT<Rounding::kRint>(d, s, n);
  }
}

// half <-> float: widening is exact; float -> half under every rounding mode.
bool CastFast(DType dst_t, DType src_t, Rounding mode, void* dst, const void* src, size_t n) {
  if (!kF16Native) return false;
  if (dst_t == DType::kF32 && src_t == DType::kF16) {  // exact widening, mode irrelevant
    Map1(static_cast<float*>(dst), static_cast<const F16*>(src), n, [](auto, auto v) HWY_ATTR { return v; });
    return true;
  }
  if (dst_t == DType::kF16 && src_t == DType::kF32) {
    FloatToHalf(mode, static_cast<uint16_t*>(dst), static_cast<const float*>(src), n);
    return true;
  }
  return false;
}

// Duplicate's fill in whole vectors of the widest target (2- and 4-byte elements; the others
// take the portable loop): the compiler's own loop is built for the baseline's 16-byte stores.
template <class T>
void FillT(void* dst, const void* scalar, size_t n) {
  const hn::ScalableTag<T> d;
  T bits;
  std::memcpy(&bits, scalar, sizeof(T));
  const auto v = hn::Set(d, bits);
  T* out = static_cast<T*>(dst);
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(v, d, out + i);
  for (; i < n; ++i) out[i] = bits;
}
bool FillFast(size_t size, void* dst, const void* scalar, size_t n) {
  if (size == 4) return FillT<uint32_t>(dst, scalar, n), true;
  if (size == 2) return FillT<uint16_t>(dst, scalar, n), true;
  return false;
}

}  // namespace HWY_NAMESPACE
}  // namespace ascsim::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

namespace ascsim::simd {

HWY_EXPORT(BinaryFast);
HWY_EXPORT(UnaryFast);
HWY_EXPORT(ScalarFast);
HWY_EXPORT(CastFast);
HWY_EXPORT(FillFast);

namespace {

// Portable element loops: the reference semantics, and the path for every case the SIMD
// targets leave alone.

template <class T>
struct Arith {  // the type arithmetic is done in
  using type = T;
};
template <>
struct Arith<half> {
  using type = float;
};
template <>
struct Arith<bfloat16_t> {
  using type = float;
};

template <class T>
constexpr bool kIsFloat = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                          std::is_same_v<T, float> || std::is_same_v<T, double>;

// Integer +, -, * and negation wrap as on the device. Signed overflow is undefined in C++, so
// integers are computed in the matching unsigned type (modular) and converted back.
template <class A>
A WrapAdd(A x, A y) {
  if constexpr (std::is_integral_v<A>) {
    using U = std::make_unsigned_t<decltype(x + y)>;
    return static_cast<A>(static_cast<U>(x) + static_cast<U>(y));
  } else {
    return A(x + y);
  }
}
template <class A>
A WrapSub(A x, A y) {
  if constexpr (std::is_integral_v<A>) {
    using U = std::make_unsigned_t<decltype(x - y)>;
    return static_cast<A>(static_cast<U>(x) - static_cast<U>(y));
  } else {
    return A(x - y);
  }
}
template <class A>
A WrapMul(A x, A y) {
  if constexpr (std::is_integral_v<A>) {
    using U = std::make_unsigned_t<decltype(x * y)>;
    return static_cast<A>(static_cast<U>(x) * static_cast<U>(y));
  } else {
    return A(x * y);
  }
}

template <class T, class F>
void Map2(void* dst, const void* a, const void* b, size_t n, F f) {
  using A = typename Arith<T>::type;
  T* d = static_cast<T*>(dst);
  const T* x = static_cast<const T*>(a);
  const T* y = static_cast<const T*>(b);
  for (size_t i = 0; i < n; ++i) d[i] = T(f(A(x[i]), A(y[i])));
}

template <class T, class F>
void Map1(void* dst, const void* src, size_t n, F f) {
  using A = typename Arith<T>::type;
  T* d = static_cast<T*>(dst);
  const T* x = static_cast<const T*>(src);
  for (size_t i = 0; i < n; ++i) d[i] = T(f(A(x[i])));
}

[[noreturn]] void Unsupported(const char* what, DType t) {
  throw InvalidArgument(std::string(what) + " is not supported for " + DTypeName(t));
}

template <class T>
void BinaryT(BinaryOp op, void* dst, const void* a, const void* b, size_t n) {
  using A = typename Arith<T>::type;
  switch (op) {
    case BinaryOp::kAdd: return Map2<T>(dst, a, b, n, [](A x, A y) { return WrapAdd(x, y); });
    case BinaryOp::kSub: return Map2<T>(dst, a, b, n, [](A x, A y) { return WrapSub(x, y); });
    case BinaryOp::kMul: return Map2<T>(dst, a, b, n, [](A x, A y) { return WrapMul(x, y); });
    case BinaryOp::kDiv:
      if constexpr (kIsFloat<T>) return Map2<T>(dst, a, b, n, [](A x, A y) { return x / y; });
      else Unsupported("Div", DTypeOf<T>());
    case BinaryOp::kMax: return Map2<T>(dst, a, b, n, [](A x, A y) { return x > y ? x : y; });
    case BinaryOp::kMin: return Map2<T>(dst, a, b, n, [](A x, A y) { return x < y ? x : y; });
    case BinaryOp::kAnd:
    case BinaryOp::kOr:
      if constexpr (!kIsFloat<T>) {
        if (op == BinaryOp::kAnd) return Map2<T>(dst, a, b, n, [](A x, A y) { return A(x & y); });
        return Map2<T>(dst, a, b, n, [](A x, A y) { return A(x | y); });
      } else {
        Unsupported(op == BinaryOp::kAnd ? "And" : "Or", DTypeOf<T>());
      }
  }
}

template <class T>
void UnaryT(UnaryOp op, void* dst, const void* src, size_t n) {
  using A = typename Arith<T>::type;
  if constexpr (kIsFloat<T>) {
    switch (op) {
      case UnaryOp::kExp: return Map1<T>(dst, src, n, [](A x) { return std::exp(x); });
      case UnaryOp::kLn: return Map1<T>(dst, src, n, [](A x) { return std::log(x); });
      case UnaryOp::kAbs: return Map1<T>(dst, src, n, [](A x) { return std::fabs(x); });
      case UnaryOp::kSqrt: return Map1<T>(dst, src, n, [](A x) { return std::sqrt(x); });
      case UnaryOp::kRsqrt: return Map1<T>(dst, src, n, [](A x) { return A(1) / std::sqrt(x); });
      case UnaryOp::kReciprocal: return Map1<T>(dst, src, n, [](A x) { return A(1) / x; });
      case UnaryOp::kRelu: return Map1<T>(dst, src, n, [](A x) { return x > A(0) ? x : A(0); });
      case UnaryOp::kNot: Unsupported("Not", DTypeOf<T>());
    }
  } else {
    switch (op) {
      case UnaryOp::kAbs: return Map1<T>(dst, src, n, [](A x) { return x < 0 ? WrapSub(A(0), x) : x; });
      case UnaryOp::kRelu: return Map1<T>(dst, src, n, [](A x) { return A(x > 0 ? x : 0); });
      case UnaryOp::kNot: return Map1<T>(dst, src, n, [](A x) { return A(~x); });
      default: Unsupported("this unary op", DTypeOf<T>());
    }
  }
}

template <class T>
void ScalarT(ScalarOp op, void* dst, const void* src, const void* scalar, size_t n) {
  using A = typename Arith<T>::type;
  T s_raw;
  std::memcpy(&s_raw, scalar, sizeof(T));
  const A s = A(s_raw);
  switch (op) {
    case ScalarOp::kAdds: return Map1<T>(dst, src, n, [s](A x) { return WrapAdd(x, s); });
    case ScalarOp::kMuls: return Map1<T>(dst, src, n, [s](A x) { return WrapMul(x, s); });
    case ScalarOp::kMaxs: return Map1<T>(dst, src, n, [s](A x) { return x > s ? x : s; });
    case ScalarOp::kMins: return Map1<T>(dst, src, n, [s](A x) { return x < s ? x : s; });
    case ScalarOp::kLeakyRelu:
      return Map1<T>(dst, src, n, [s](A x) { return x >= A(0) ? x : A(x * s); });
    case ScalarOp::kShiftLeft:
    case ScalarOp::kShiftRight:
      if constexpr (!kIsFloat<T>) {
        // Shift the bits as unsigned: a left shift of a negative signed value is undefined in C++17.
        if (op == ScalarOp::kShiftLeft) {
          return Map1<T>(dst, src, n, [s](A x) { return A(static_cast<std::make_unsigned_t<A>>(x) << s); });
        }
        return Map1<T>(dst, src, n, [s](A x) { return A(x >> s); });
      } else {
        Unsupported("Shift", DTypeOf<T>());
      }
  }
}

double RoundWith(double x, Rounding mode) {
  switch (mode) {
    case Rounding::kFloor: return std::floor(x);
    case Rounding::kCeil: return std::ceil(x);
    case Rounding::kRound: return std::round(x);
    case Rounding::kTrunc: return std::trunc(x);
    default: return std::nearbyint(x);  // rint: ties to even in the default FP environment
  }
}

// float -> half under a rounding mode: RNE directly; the others from the exact value's
// neighbours on the half grid.
uint16_t FloatToHalfMode(float f, Rounding mode) {
  if (mode == Rounding::kNone || mode == Rounding::kRint) return FloatToHalfBits(f);
  if (std::isnan(f) || std::isinf(f)) return FloatToHalfBits(f);
  const uint16_t nearest = FloatToHalfBits(f);
  const float back = HalfBitsToFloat(nearest);
  if (back == f) return nearest;
  // The other neighbour: one ulp toward f.
  auto step = [](uint16_t h, bool up) -> uint16_t {  // up = toward +inf
    const bool neg = h & 0x8000u;
    if ((h & 0x7FFFu) == 0) return up ? 0x0001u : 0x8001u;
    return static_cast<uint16_t>(neg == up ? h - 1 : h + 1);
  };
  const uint16_t other = step(nearest, f > back);
  const float lo_f = std::min(back, HalfBitsToFloat(other));
  const uint16_t lo = back < HalfBitsToFloat(other) ? nearest : other;
  const uint16_t hi = lo == nearest ? other : nearest;
  switch (mode) {
    case Rounding::kFloor: return lo;
    case Rounding::kCeil: return hi;
    case Rounding::kTrunc: return f > 0 ? lo : hi;
    case Rounding::kRound: {
      const float mid = (lo_f + HalfBitsToFloat(hi)) / 2;  // exact in float
      if (f == mid) return f > 0 ? hi : lo;
      return nearest;
    }
    case Rounding::kOdd: return (lo & 1u) ? lo : hi;  // von Neumann: pick the odd neighbour
    default: return nearest;
  }
}

// The raw bits of a binary floating-point value (half, bfloat16_t, float) and back.
template <class D>
using GridBits = std::conditional_t<sizeof(D) == 2, uint16_t, uint32_t>;
template <class D>
GridBits<D> ToGridBits(D v) {
  GridBits<D> b;
  std::memcpy(&b, &v, sizeof(D));
  return b;
}
template <class D>
D FromGridBits(GridBits<D> b) {
  D v;
  std::memcpy(static_cast<void*>(&v), &b, sizeof(D));
  return v;
}

// `x` (exact: every source type here fits a long double) rounded onto D's grid under `mode`:
// round-to-nearest-even first, then, when that was inexact, the neighbour on the other side of x
// picks floor / ceil / trunc / round-half-away / odd. Overflow follows the direction (FLOOR of a
// value above the largest finite gives the largest finite).
template <class D>
D RoundToGrid(long double x, Rounding mode) {
  const D nearest = D(static_cast<float>(x));  // RNE (ints beyond 2^24 only reach float here)
  if (mode == Rounding::kNone || mode == Rounding::kRint || std::isnan(x) || std::isinf(x)) {
    return nearest;
  }
  const long double back = static_cast<float>(nearest);
  if (back == x) return nearest;
  using U = GridBits<D>;
  constexpr U kSign = static_cast<U>(U{1} << (8 * sizeof(U) - 1));
  const auto step = [](U h, bool up) -> U {  // one ulp toward +inf (up) or -inf
    const bool neg = (h & kSign) != 0;
    if ((h & static_cast<U>(~kSign)) == 0) return up ? U{1} : static_cast<U>(kSign | 1u);
    return static_cast<U>(neg == up ? h - 1 : h + 1);
  };
  const U near_bits = ToGridBits(nearest);
  const U other_bits = step(near_bits, x > back);
  const long double other = static_cast<float>(FromGridBits<D>(other_bits));
  const bool near_is_lo = back < other;
  const U lo = near_is_lo ? near_bits : other_bits;
  const U hi = near_is_lo ? other_bits : near_bits;
  switch (mode) {
    case Rounding::kFloor:
      return FromGridBits<D>(lo);
    case Rounding::kCeil:
      return FromGridBits<D>(hi);
    case Rounding::kTrunc:
      return FromGridBits<D>(x > 0 ? lo : hi);
    case Rounding::kRound: {
      const long double mid = (back + other) / 2;  // exact in long double
      if (x == mid) return FromGridBits<D>(x > 0 ? hi : lo);
      return nearest;
    }
    case Rounding::kOdd:
      return FromGridBits<D>((lo & 1u) ? lo : hi);
    default:
      return nearest;
  }
}

template <class D, class S>
void CastT(Rounding mode, void* dst, const void* src, size_t n) {
  D* d = static_cast<D*>(dst);
  const S* s = static_cast<const S*>(src);
  if constexpr (std::is_same_v<D, half> && kIsFloat<S>) {
    for (size_t i = 0; i < n; ++i) d[i] = half::FromRaw(FloatToHalfMode(float(s[i]), mode));
  } else if constexpr (std::is_same_v<D, half> && std::is_same_v<S, int32_t>) {
    // int32 -> half: the round mode has no effect on the device (it goes through the deq scale).
    for (size_t i = 0; i < n; ++i) d[i] = D(static_cast<float>(s[i]));
  } else if constexpr (kIsFloat<D>) {
    // int -> float/half/bf16 and float -> bf16, rounded under the mode (exact when it fits).
    for (size_t i = 0; i < n; ++i) {
      long double x;
      if constexpr (kIsFloat<S>) {
        x = static_cast<float>(s[i]);
      } else {
        x = static_cast<long double>(s[i]);
      }
      d[i] = RoundToGrid<D>(x, mode);
    }
  } else if constexpr (kIsFloat<S>) {
    // float -> int: round by mode, saturate.
    const double lo = static_cast<double>(std::numeric_limits<D>::min());
    const double hi = static_cast<double>(std::numeric_limits<D>::max());
    for (size_t i = 0; i < n; ++i) {
      const double v = RoundWith(static_cast<double>(float(s[i])), mode);
      d[i] = std::isnan(v) ? D(0) : static_cast<D>(v < lo ? lo : (v > hi ? hi : v));
    }
  } else {
    for (size_t i = 0; i < n; ++i) d[i] = static_cast<D>(s[i]);
  }
}

// Binary-tree sum of one repeat in the element type's precision.
template <class T>
T TreeSum(const T* x, size_t n) {
  using A = typename Arith<T>::type;
  if (n == 1) return x[0];
  T buf[256];  // one 256 B repeat: 256 elements for 1-byte types
  for (size_t i = 0; i < n; ++i) buf[i] = x[i];
  while (n > 1) {
    const size_t half_n = n / 2;
    for (size_t i = 0; i < half_n; ++i) buf[i] = T(A(buf[2 * i]) + A(buf[2 * i + 1]));
    if (n % 2) buf[half_n] = buf[n - 1];
    n = half_n + n % 2;
  }
  return buf[0];
}

template <class T>
void ReduceSumT(const void* src, size_t n, void* result) {
  using A = typename Arith<T>::type;
  const T* x = static_cast<const T*>(src);
  const size_t per_repeat = 256 / sizeof(T);
  T acc = T(0);
  for (size_t start = 0; start < n; start += per_repeat) {
    const size_t len = std::min(per_repeat, n - start);
    const T part = TreeSum(x + start, len);
    acc = start == 0 ? part : T(A(acc) + A(part));
  }
  std::memcpy(result, &acc, sizeof(T));
}

template <class T, bool kMax>
void ReduceExtremeT(const void* src, size_t n, void* result, uint32_t* index) {
  using A = typename Arith<T>::type;
  const T* x = static_cast<const T*>(src);
  size_t best = 0;
  for (size_t i = 1; i < n; ++i) {
    if (kMax ? A(x[i]) > A(x[best]) : A(x[i]) < A(x[best])) best = i;
  }
  std::memcpy(result, &x[best], sizeof(T));
  if (index) *index = static_cast<uint32_t>(best);
}

template <class U>
void FillBits(void* dst, const void* scalar, size_t n) {
  U v;
  std::memcpy(&v, scalar, sizeof(U));
  U* d = static_cast<U*>(dst);
  for (size_t i = 0; i < n; ++i) d[i] = v;
}

}  // namespace

size_t DTypeSize(DType t) {
  size_t size = 0;
  VisitDType(t, [&](auto tag) { size = sizeof(tag); });
  return size;
}

const char* DTypeName(DType t) {
  static const char* const kNames[] = {"half",    "bfloat16_t", "float",    "int8_t",
                                       "uint8_t", "int16_t",    "uint16_t", "int32_t",
                                       "uint32_t", "int64_t",   "uint64_t"};
  return kNames[static_cast<int>(t)];
}

namespace portable {
void Binary(BinaryOp op, DType t, void* dst, const void* a, const void* b, size_t n) {
  VisitDType(t, [&](auto tag) { BinaryT<decltype(tag)>(op, dst, a, b, n); });
}
void Unary(UnaryOp op, DType t, void* dst, const void* src, size_t n) {
  VisitDType(t, [&](auto tag) { UnaryT<decltype(tag)>(op, dst, src, n); });
}
void WithScalar(ScalarOp op, DType t, void* dst, const void* src, const void* scalar, size_t n) {
  VisitDType(t, [&](auto tag) { ScalarT<decltype(tag)>(op, dst, src, scalar, n); });
}
void Cast(DType dst_t, DType src_t, Rounding mode, void* dst, const void* src, size_t n) {
  VisitDType(dst_t, [&](auto dtag) {
    VisitDType(src_t, [&](auto stag) {
      using D = decltype(dtag);
      using S = decltype(stag);
      if constexpr (std::is_same_v<D, S> && kIsFloat<D>) {
        // float -> float under a rounding mode rounds to an integral value.
        if (mode == Rounding::kNone) {
          std::memmove(dst, src, n * sizeof(D));
        } else {
          D* d = static_cast<D*>(dst);
          const D* s = static_cast<const D*>(src);
          for (size_t i = 0; i < n; ++i)
            d[i] = D(RoundWith(static_cast<double>(float(s[i])), mode));
        }
      } else if constexpr (std::is_same_v<D, S>) {
        std::memmove(dst, src, n * sizeof(D));
      } else {
        CastT<D, S>(mode, dst, src, n);
      }
    });
  });
}
}  // namespace portable

void Binary(BinaryOp op, DType t, void* dst, const void* a, const void* b, size_t n) {
  if (HWY_DYNAMIC_DISPATCH(BinaryFast)(op, t, dst, a, b, n)) return;
  portable::Binary(op, t, dst, a, b, n);
}
void Unary(UnaryOp op, DType t, void* dst, const void* src, size_t n) {
  if (HWY_DYNAMIC_DISPATCH(UnaryFast)(op, t, dst, src, n)) return;
  portable::Unary(op, t, dst, src, n);
}
void WithScalar(ScalarOp op, DType t, void* dst, const void* src, const void* scalar, size_t n) {
  if (HWY_DYNAMIC_DISPATCH(ScalarFast)(op, t, dst, src, scalar, n)) return;
  portable::WithScalar(op, t, dst, src, scalar, n);
}
void Fill(DType t, void* dst, const void* scalar, size_t n) {
  if (HWY_DYNAMIC_DISPATCH(FillFast)(DTypeSize(t), dst, scalar, n)) return;
  switch (DTypeSize(t)) {  // typed loops the compiler vectorises
    case 1: return FillBits<uint8_t>(dst, scalar, n);
    case 2: return FillBits<uint16_t>(dst, scalar, n);
    case 4: return FillBits<uint32_t>(dst, scalar, n);
    default: return FillBits<uint64_t>(dst, scalar, n);
  }
}
void Cast(DType dst_t, DType src_t, Rounding mode, void* dst, const void* src, size_t n) {
  if (HWY_DYNAMIC_DISPATCH(CastFast)(dst_t, src_t, mode, dst, src, n)) return;
  portable::Cast(dst_t, src_t, mode, dst, src, n);
}
void Copy(void* dst, const void* src, size_t bytes) { std::memmove(dst, src, bytes); }

void ReduceSum(DType t, const void* src, size_t n, void* result) {
  if (n == 0) return;
  VisitDType(t, [&](auto tag) { ReduceSumT<decltype(tag)>(src, n, result); });
}
void ReduceMax(DType t, const void* src, size_t n, void* result, uint32_t* index) {
  if (n == 0) return;
  VisitDType(t, [&](auto tag) { ReduceExtremeT<decltype(tag), true>(src, n, result, index); });
}
void ReduceMin(DType t, const void* src, size_t n, void* result, uint32_t* index) {
  if (n == 0) return;
  VisitDType(t, [&](auto tag) { ReduceExtremeT<decltype(tag), false>(src, n, result, index); });
}

}  // namespace ascsim::simd

#endif  // HWY_ONCE
