// vector_math.h on the host CPU. The float paths (float, and half through float) are Highway
// SIMD compiled for every x86-64 target Highway knows and chosen at run time (dynamic dispatch),
// so one binary uses AVX-512 or AVX2+F16C where present and stays correct on plain SSE2.
// half uses F16C for its float<->half conversions (round to nearest even, as the device);
// targets without F16C, bfloat16_t, integer types, reductions and casts other than
// float<->half (RINT/NONE) take the portable element loops at the end of this file.
#include "ascsim/aicore/simd/vector_math.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "ascsim/error.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "aicore/simd/vector_math.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/contrib/math/math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ascsim::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Highway emulates float->half without F16C by truncation; the device rounds to nearest even,
// so half is handled here only where F16C does the conversion.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
constexpr bool kF16Native = true;
#else
constexpr bool kF16Native = false;
#endif

using F16 = hwy::float16_t;

template <class DF>
HWY_INLINE hn::Vec<DF> LoadF(DF df, const float* p) {
  return hn::LoadU(df, p);
}
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF(DF df, const F16* p) {
  const hn::Rebind<F16, DF> dh;
  return hn::PromoteTo(df, hn::LoadU(dh, p));
}
template <class DF>
HWY_INLINE void StoreF(DF df, hn::Vec<DF> v, float* p) {
  hn::StoreU(v, df, p);
}
template <class DF>
HWY_INLINE void StoreF(DF, hn::Vec<DF> v, F16* p) {
  const hn::Rebind<F16, DF> dh;
  hn::StoreU(hn::DemoteTo(dh, v), dh, p);
}

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

// half <-> float under RINT/NONE (the other rounding modes take the portable path).
bool CastFast(DType dst_t, DType src_t, Rounding mode, void* dst, const void* src, size_t n) {
  if (!kF16Native) return false;
  if (dst_t == DType::kF32 && src_t == DType::kF16) {  // exact widening, mode irrelevant
    Map1(static_cast<float*>(dst), static_cast<const F16*>(src), n, [](auto, auto v) HWY_ATTR { return v; });
    return true;
  }
  if (dst_t == DType::kF16 && src_t == DType::kF32 &&
      (mode == Rounding::kNone || mode == Rounding::kRint)) {
    Map1(static_cast<F16*>(dst), static_cast<const float*>(src), n, [](auto, auto v) HWY_ATTR { return v; });
    return true;
  }
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

template <class F>
void Dispatch(DType t, F&& f) {
  switch (t) {
    case DType::kF16: return f(half{});
    case DType::kBF16: return f(bfloat16_t{});
    case DType::kF32: return f(float{});
    case DType::kI8: return f(int8_t{});
    case DType::kU8: return f(uint8_t{});
    case DType::kI16: return f(int16_t{});
    case DType::kU16: return f(uint16_t{});
    case DType::kI32: return f(int32_t{});
    case DType::kU32: return f(uint32_t{});
    case DType::kI64: return f(int64_t{});
    case DType::kU64: return f(uint64_t{});
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

template <class D, class S>
void CastT(Rounding mode, void* dst, const void* src, size_t n) {
  D* d = static_cast<D*>(dst);
  const S* s = static_cast<const S*>(src);
  if constexpr (std::is_same_v<D, half> && kIsFloat<S>) {
    for (size_t i = 0; i < n; ++i) d[i] = half::FromRaw(FloatToHalfMode(float(s[i]), mode));
  } else if constexpr (kIsFloat<D>) {
    // int -> float or float -> float (exact, or RNE for narrowing to bf16).
    if constexpr (kIsFloat<S>) {
      for (size_t i = 0; i < n; ++i) d[i] = D(float(s[i]));
    } else {
      for (size_t i = 0; i < n; ++i) d[i] = D(static_cast<float>(s[i]));
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
  Dispatch(t, [&](auto tag) { size = sizeof(tag); });
  return size;
}

const char* DTypeName(DType t) {
  static const char* const kNames[] = {"half",    "bfloat16_t", "float",    "int8_t",
                                       "uint8_t", "int16_t",    "uint16_t", "int32_t",
                                       "uint32_t", "int64_t",   "uint64_t"};
  return kNames[static_cast<int>(t)];
}

void Binary(BinaryOp op, DType t, void* dst, const void* a, const void* b, size_t n) {
  if (HWY_DYNAMIC_DISPATCH(BinaryFast)(op, t, dst, a, b, n)) return;
  Dispatch(t, [&](auto tag) { BinaryT<decltype(tag)>(op, dst, a, b, n); });
}
void Unary(UnaryOp op, DType t, void* dst, const void* src, size_t n) {
  if (HWY_DYNAMIC_DISPATCH(UnaryFast)(op, t, dst, src, n)) return;
  Dispatch(t, [&](auto tag) { UnaryT<decltype(tag)>(op, dst, src, n); });
}
void WithScalar(ScalarOp op, DType t, void* dst, const void* src, const void* scalar, size_t n) {
  if (HWY_DYNAMIC_DISPATCH(ScalarFast)(op, t, dst, src, scalar, n)) return;
  Dispatch(t, [&](auto tag) { ScalarT<decltype(tag)>(op, dst, src, scalar, n); });
}
void Fill(DType t, void* dst, const void* scalar, size_t n) {
  switch (DTypeSize(t)) {  // typed loops the compiler vectorises
    case 1: return FillBits<uint8_t>(dst, scalar, n);
    case 2: return FillBits<uint16_t>(dst, scalar, n);
    case 4: return FillBits<uint32_t>(dst, scalar, n);
    default: return FillBits<uint64_t>(dst, scalar, n);
  }
}
void Cast(DType dst_t, DType src_t, Rounding mode, void* dst, const void* src, size_t n) {
  if (HWY_DYNAMIC_DISPATCH(CastFast)(dst_t, src_t, mode, dst, src, n)) return;
  Dispatch(dst_t, [&](auto dtag) {
    Dispatch(src_t, [&](auto stag) {
      using D = decltype(dtag);
      using S = decltype(stag);
      if constexpr (std::is_same_v<D, S>) {
        // float -> float with FLOOR/CEIL/ROUND/TRUNC/RINT rounds to an integral value (the
        // advanced Floor/Ceil use it); other same-type casts copy.
        if constexpr (std::is_same_v<D, float>) {
          if (mode != Rounding::kNone && mode != Rounding::kOdd) {
            const float* s = static_cast<const float*>(src);
            float* d = static_cast<float*>(dst);
            for (size_t i = 0; i < n; ++i) d[i] = static_cast<float>(RoundWith(s[i], mode));
            return;
          }
        }
        std::memmove(dst, src, n * sizeof(D));
      } else {
        CastT<D, S>(mode, dst, src, n);
      }
    });
  });
}
void Copy(void* dst, const void* src, size_t bytes) { std::memmove(dst, src, bytes); }

void ReduceSum(DType t, const void* src, size_t n, void* result) {
  if (n == 0) return;
  Dispatch(t, [&](auto tag) { ReduceSumT<decltype(tag)>(src, n, result); });
}
void ReduceMax(DType t, const void* src, size_t n, void* result, uint32_t* index) {
  if (n == 0) return;
  Dispatch(t, [&](auto tag) { ReduceExtremeT<decltype(tag), true>(src, n, result, index); });
}
void ReduceMin(DType t, const void* src, size_t n, void* result, uint32_t* index) {
  if (n == 0) return;
  Dispatch(t, [&](auto tag) { ReduceExtremeT<decltype(tag), false>(src, n, result, index); });
}

}  // namespace ascsim::simd

#endif  // HWY_ONCE
