// Portable implementation of vector_math.h: plain loops the compiler vectorises for float and
// integer types; 16-bit floats go through float per element.
#include "aicore/simd/vector_math.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "ascsim/error.h"

namespace ascsim::simd {
namespace {

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
    case BinaryOp::kAdd: return Map2<T>(dst, a, b, n, [](A x, A y) { return A(x + y); });
    case BinaryOp::kSub: return Map2<T>(dst, a, b, n, [](A x, A y) { return A(x - y); });
    case BinaryOp::kMul: return Map2<T>(dst, a, b, n, [](A x, A y) { return A(x * y); });
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
      case UnaryOp::kAbs: return Map1<T>(dst, src, n, [](A x) { return A(x < 0 ? -x : x); });
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
    case ScalarOp::kAdds: return Map1<T>(dst, src, n, [s](A x) { return A(x + s); });
    case ScalarOp::kMuls: return Map1<T>(dst, src, n, [s](A x) { return A(x * s); });
    case ScalarOp::kMaxs: return Map1<T>(dst, src, n, [s](A x) { return x > s ? x : s; });
    case ScalarOp::kMins: return Map1<T>(dst, src, n, [s](A x) { return x < s ? x : s; });
    case ScalarOp::kLeakyRelu:
      return Map1<T>(dst, src, n, [s](A x) { return x >= A(0) ? x : A(x * s); });
    case ScalarOp::kShiftLeft:
    case ScalarOp::kShiftRight:
      if constexpr (!kIsFloat<T>) {
        if (op == ScalarOp::kShiftLeft) return Map1<T>(dst, src, n, [s](A x) { return A(x << s); });
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
  T buf[128];
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
  Dispatch(t, [&](auto tag) { BinaryT<decltype(tag)>(op, dst, a, b, n); });
}
void Unary(UnaryOp op, DType t, void* dst, const void* src, size_t n) {
  Dispatch(t, [&](auto tag) { UnaryT<decltype(tag)>(op, dst, src, n); });
}
void WithScalar(ScalarOp op, DType t, void* dst, const void* src, const void* scalar, size_t n) {
  Dispatch(t, [&](auto tag) { ScalarT<decltype(tag)>(op, dst, src, scalar, n); });
}
void Fill(DType t, void* dst, const void* scalar, size_t n) {
  const size_t size = DTypeSize(t);
  uint8_t* d = static_cast<uint8_t*>(dst);
  for (size_t i = 0; i < n; ++i) std::memcpy(d + i * size, scalar, size);
}
void Cast(DType dst_t, DType src_t, Rounding mode, void* dst, const void* src, size_t n) {
  Dispatch(dst_t, [&](auto dtag) {
    Dispatch(src_t, [&](auto stag) {
      using D = decltype(dtag);
      using S = decltype(stag);
      if constexpr (std::is_same_v<D, S>) {
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
