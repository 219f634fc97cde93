// half and bfloat16_t: conversions against exhaustive and hardware-independent references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "ascsim/half.h"

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
  EXPECT_EQ(ascsim::FloatToHalfBits(65520.0f), 0x7C00);  // rounds to infinity
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
