// `half` (IEEE 754 binary16) and `bfloat16_t` as Ascend C kernels use them: storage types whose
// arithmetic goes through float and whose conversion from float rounds to nearest, ties to even.
// Their bit layout matches NumPy's float16, so arrays move between the two without conversion.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ascsim {

inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float BitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// A float -> 16-bit float conversion by arithmetic only, for constant expressions (kernels write
// `constexpr half kAlpha = half(1.6732632)`, as bisheng's builtin half allows): `mant` mantissa
// bits, the smallest normal exponent `emin`, the largest `emax`; round to nearest even, overflow to
// infinity, NaN to the quiet NaN. Exact: every step is a power-of-two scaling of a double; the
// result equals the run-time conversion's for every float (bfloat16_t NaNs: but their payload).
constexpr uint16_t ConstFloat16Bits(float f, int mant, int emin, int emax) {
  const int exp_bits = mant == 10 ? 5 : 8;
  const uint32_t exp_all = (1u << exp_bits) - 1;
  const uint32_t sign = __builtin_signbit(f) ? 0x8000u : 0u;
  // A NaN's payload cannot be read in a constant expression: the quiet NaN of its sign.
  if (f != f) return static_cast<uint16_t>(sign | (exp_all << mant) | (1u << (mant - 1)));
  double x = f < 0 ? -static_cast<double>(f) : static_cast<double>(f);
  if (x == 0) return static_cast<uint16_t>(sign);
  if (x > 3.4028235e38) return static_cast<uint16_t>(sign | (exp_all << mant));  // +-inf in
  int e = 0;
  while (x >= 2.0) {
    x /= 2.0;
    ++e;
  }
  while (x < 1.0) {
    x *= 2.0;
    --e;
  }
  // x in [1, 2): the significand scaled to an integer of mant bits at exponent max(e, emin).
  const int shift = e < emin ? mant - (emin - e) : mant;
  double q = x;
  for (int i = 0; i < shift; ++i) q *= 2.0;
  for (int i = 0; i > shift; --i) q /= 2.0;
  auto n = static_cast<uint64_t>(q);
  const double frac = q - static_cast<double>(n);
  if (frac > 0.5 || (frac == 0.5 && (n & 1u) != 0)) ++n;
  if (e < emin) {  // subnormal (n may round up into the smallest normal: the bits still add up)
    return static_cast<uint16_t>(sign | n);
  }
  if (n == (uint64_t{2} << mant)) {  // rounded up to the next power of two
    n >>= 1;
    ++e;
  }
  if (e > emax) return static_cast<uint16_t>(sign | (exp_all << mant));
  const uint32_t biased = static_cast<uint32_t>(e - emin + 1);
  return static_cast<uint16_t>(sign | (biased << mant) | (n & ((uint64_t{1} << mant) - 1)));
}

// float -> binary16, round to nearest even; overflow goes to infinity, NaN stays NaN.
constexpr uint16_t FloatToHalfBits(float f) {
  if (__builtin_is_constant_evaluated()) return ConstFloat16Bits(f, 10, -14, 15);
  const uint32_t x = FloatBits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7FFFFFFFu;
  if (abs >= 0x7F800000u) {  // Inf or NaN
    return static_cast<uint16_t>(sign | 0x7C00u | (abs > 0x7F800000u ? 0x0200u : 0u));
  }
  if (abs >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds to >= 65520
  if (abs < 0x38800000u) {  // result is subnormal or zero: scale into the subnormal grid
    // 0.5 in binary16 subnormal units is 2^-25; adding 0.5f shifts the value so that the float
    // adder performs the round-to-nearest-even for us.
    const float scaled = BitsToFloat(abs) + 0.5f;
    return static_cast<uint16_t>(sign | (FloatBits(scaled) - 0x3F000000u));
  }
  const uint32_t mant_odd = (abs >> 13) & 1u;
  uint32_t v = abs + 0xC8000FFFu + mant_odd;  // rebias exponent (-112 << 23) and round
  return static_cast<uint16_t>(sign | (v >> 13));
}

inline float HalfBitsToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  const uint32_t mant = h & 0x3FFu;
  if (exp == 0) {  // zero or subnormal: mant * 2^-24
    const float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
    return BitsToFloat(FloatBits(v) | sign);
  }
  if (exp == 31) return BitsToFloat(sign | 0x7F800000u | (mant << 13));
  return BitsToFloat(sign | ((exp + 112u) << 23) | (mant << 13));
}

constexpr uint16_t FloatToBf16Bits(float f) {
  if (__builtin_is_constant_evaluated()) return ConstFloat16Bits(f, 7, -126, 127);
  const uint32_t x = FloatBits(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // NaN
  const uint32_t rounding = 0x7FFFu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding) >> 16);
}
inline float Bf16BitsToFloat(uint16_t b) { return BitsToFloat(static_cast<uint32_t>(b) << 16); }

// CRTP base: a 16-bit float storage type with float arithmetic.
template <class Self, uint16_t (*ToBits)(float), float (*FromBits)(uint16_t)>
struct Float16Storage {
  uint16_t bits = 0;

  Float16Storage() = default;
  // constexpr: the conversion is done by arithmetic when constant-evaluated (ConstFloat16Bits).
  template <class U, class = std::enable_if_t<std::is_arithmetic_v<U>>>
  constexpr Float16Storage(U v)
      : bits(ToBits(static_cast<float>(v))) {}  // NOLINT: implicit like the device

  static Self FromRaw(uint16_t raw) {
    Self s;
    s.bits = raw;
    return s;
  }
  operator float() const { return FromBits(bits); }  // NOLINT: implicit like the device
  float ToFloat() const { return FromBits(bits); }

  Self& operator+=(Self o) { return self() = Self(float(*this) + float(o)); }
  Self& operator-=(Self o) { return self() = Self(float(*this) - float(o)); }
  Self& operator*=(Self o) { return self() = Self(float(*this) * float(o)); }
  Self& operator/=(Self o) { return self() = Self(float(*this) / float(o)); }
  Self operator-() const { return FromRaw(static_cast<uint16_t>(bits ^ 0x8000u)); }

 private:
  Self& self() { return static_cast<Self&>(*this); }
};

}  // namespace ascsim

struct half : ascsim::Float16Storage<half, ascsim::FloatToHalfBits, ascsim::HalfBitsToFloat> {
  using Float16Storage::Float16Storage;
};
struct bfloat16_t
    : ascsim::Float16Storage<bfloat16_t, ascsim::FloatToBf16Bits, ascsim::Bf16BitsToFloat> {
  using Float16Storage::Float16Storage;
};
static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "16-bit storage types");

// Mixed arithmetic goes through float, as in the CPU-twin's half.
#define ASCSIM_HALF_BINARY(OP)                                                   \
  inline half operator OP(half a, half b) { return half(float(a) OP float(b)); } \
  inline bfloat16_t operator OP(bfloat16_t a, bfloat16_t b) {                    \
    return bfloat16_t(float(a) OP float(b));                                     \
  }
ASCSIM_HALF_BINARY(+)
ASCSIM_HALF_BINARY(-)
ASCSIM_HALF_BINARY(*)
ASCSIM_HALF_BINARY(/)
#undef ASCSIM_HALF_BINARY
#define ASCSIM_HALF_COMPARE(OP)                                            \
  inline bool operator OP(half a, half b) { return float(a) OP float(b); } \
  inline bool operator OP(bfloat16_t a, bfloat16_t b) { return float(a) OP float(b); }
ASCSIM_HALF_COMPARE(==)
ASCSIM_HALF_COMPARE(!=)
ASCSIM_HALF_COMPARE(<)
ASCSIM_HALF_COMPARE(<=)
ASCSIM_HALF_COMPARE(>)
ASCSIM_HALF_COMPARE(>=)
#undef ASCSIM_HALF_COMPARE
