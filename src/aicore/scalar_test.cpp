// scalar.h: the scalar unit's conversions against scalar references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;

// ---------------------------------------------------------------- scalar conversions

TEST(ScalarConversions, Bfloat16ConversionsOfTheScalarUnit) {
  for (float f : {0.0f, -1.0f, 3.14159f, 1e-40f, 65504.0f, 3.4e38f, -INFINITY}) {
    const bfloat16_t b = AscendC::ToBfloat16(f);
    EXPECT_EQ(b.bits, ascsim::FloatToBf16Bits(f)) << f;
    EXPECT_EQ(AscendC::ToFloat(b), ascsim::Bf16BitsToFloat(b.bits)) << f;
  }
  EXPECT_EQ(AscendC::ToBfloat16(NAN).bits, 0x7FFF);
  EXPECT_EQ(AscendC::ToBfloat16(-NAN).bits, 0x7FFF);
  // Ties go to even: 1 + 2^-8 is halfway between 1 and 1 + 2^-7.
  EXPECT_EQ(AscendC::ToBfloat16(1.0f + 1.0f / 256).bits, 0x3F80);
  EXPECT_EQ(AscendC::ToBfloat16(1.0f + 3.0f / 256).bits, 0x3F82);
  EXPECT_EQ(AscendC::Cast(AscendC::Cast(2.5f)), 2.5f);
}

TEST(ScalarConversions, ScalarCastRoundsByMode) {
  using AscendC::RoundMode;
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(2.5f)), 3);
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(-2.5f)), -3);
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_RINT>(2.5f)), 2);
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(-2.1f)), -3);
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_CEIL>(-2.9f)), -2);
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_RINT>(3e9f)), INT32_MAX);
  // 1 + 2^-11 lies between two halves; odd rounding picks the one with an odd last bit.
  const half h = AscendC::ScalarCast<float, half, RoundMode::CAST_ODD>(1.0f + 1.0f / 2048);
  EXPECT_EQ(h.bits, 0x3C01);
  EXPECT_EQ((AscendC::ScalarCast<float, half, RoundMode::CAST_ODD>(1.5f)).bits, 0x3E00);
}

}  // namespace
