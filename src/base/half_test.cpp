// half and bfloat16_t: conversions against exhaustive and hardware-independent references.
#include "ascsim/half.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace {

TEST(Half, EveryFiniteHalfRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits < 65536; ++bits) {
    const float f = ascsim::HalfBitsToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(f)) continue;
    EXPECT_EQ(ascsim::FloatToHalfBits(f), bits) << "bits " << bits;
  }
}

TEST(Half, RoundsToNearestEvenBetweenNeighbours) {
  // 1 + 2^-11 lies exactly between 1 and 1 + 2^-10: ties go to the even mantissa (1.0).
  EXPECT_EQ(ascsim::FloatToHalfBits(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  // 1 + 3 * 2^-11 lies between 1 + 2^-10 (odd) and 1 + 2^-9 (even): goes up.
  EXPECT_EQ(ascsim::FloatToHalfBits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_EQ(ascsim::FloatToHalfBits(65504.0f), 0x7BFF);
  EXPECT_EQ(ascsim::FloatToHalfBits(65520.0f), 0x7C00);               // rounds to infinity
  EXPECT_EQ(ascsim::FloatToHalfBits(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(ascsim::FloatToHalfBits(std::ldexp(1.0f, -26)), 0x0000);  // below half of it
}

TEST(Half, ArithmeticGoesThroughFloat) {
  const half a = 1.5f, b = 2.25f;
  EXPECT_EQ(float(a + b), 3.75f);
  EXPECT_EQ(float(a * b), 3.375f);
  EXPECT_TRUE(a < b);
}

TEST(BFloat16, RoundsToNearestEven) {
  EXPECT_EQ(ascsim::FloatToBf16Bits(1.0f), 0x3F80);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1.0).
  EXPECT_EQ(ascsim::FloatToBf16Bits(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(float(bfloat16_t(3.0f)), 3.0f);
}

}  // namespace

// Kernels write `constexpr half kAlpha = half(1.6732632)` (bisheng's half converts at compile
// time): the constant-evaluated conversion, by arithmetic, must give the run-time bits for every
// float (a bfloat16_t NaN keeps its payload at run time, which a constant expression cannot read).
constexpr half kConstAlpha = half(1.6732632423543772848170429916717);
constexpr bfloat16_t kConstScale = bfloat16_t(1.0507009873554804934193349852946);
static_assert(kConstAlpha.bits == 0x3EB1 && kConstScale.bits == 0x3F86, "constexpr 16-bit floats");
static_assert(half(65504.0f).bits == 0x7BFF && half(65520.0f).bits == 0x7C00, "largest, overflow");
static_assert(half(-0.0f).bits == 0x8000 && half(5.9604645e-8f).bits == 0x0001, "-0, smallest");

TEST(Half, ConstantConversionMatchesTheRunTimeOne) {
  std::mt19937 rng(7);
  auto check = [](float f) {
    ASSERT_EQ(ascsim::ConstFloat16Bits(f, 10, -14, 15), ascsim::FloatToHalfBits(f)) << f;
    if (f != f) return;
    ASSERT_EQ(ascsim::ConstFloat16Bits(f, 7, -126, 127), ascsim::FloatToBf16Bits(f)) << f;
  };
  for (int i = 0; i < 300000; ++i) {
    const uint32_t u = rng();
    float f;
    std::memcpy(&f, &u, 4);
    check(f);
  }
  // Every half value, and the midpoints between neighbours (the ties).
  for (uint32_t h = 0; h < 0x7C00; ++h) {
    const float a = ascsim::HalfBitsToFloat(static_cast<uint16_t>(h));
    const float b = ascsim::HalfBitsToFloat(static_cast<uint16_t>(h + 1));
    check(a);
    check(-a);
    check((a + b) / 2);
  }
  for (float f : {0.0f, 65520.0f, 1e-45f, 3.4028235e38f, std::numeric_limits<float>::infinity()})
    check(f);
  EXPECT_EQ(ascsim::ConstFloat16Bits(std::nanf(""), 10, -14, 15), 0x7E00);
}
