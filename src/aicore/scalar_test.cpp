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

// ---------------------------------------------------------------- bit counting

namespace {

// Bit-by-bit references of the scalar unit's bit instructions.
int64_t RefCount(uint64_t v, int value) {
  int64_t n = 0;
  for (int i = 0; i < 64; ++i) n += static_cast<int>((v >> i) & 1) == value;
  return n;
}
int64_t RefClz(uint64_t v) {
  int64_t n = 0;
  for (int i = 63; i >= 0 && ((v >> i) & 1) == 0; --i) ++n;
  return n;
}
int64_t RefSameAsSign(int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v);
  const uint64_t sign = u >> 63;
  int64_t n = 0;
  for (int i = 62; i >= 0 && ((u >> i) & 1) == sign; --i) ++n;
  return n == 63 ? -1 : n;
}
int64_t RefSff(uint64_t v, int value) {
  for (int i = 0; i < 64; ++i) {
    if (static_cast<int>((v >> i) & 1) == value) return i;
  }
  return -1;
}

std::vector<uint64_t> BitPatterns() {
  std::vector<uint64_t> v = {0,      1,      2,          3,
                             ~0ull,  ~1ull,  1ull << 63, (1ull << 63) - 1,
                             0x0fffffffffffffffull, 0x0100000000000020ull,
                             0x00F0000000000000ull, 0x0f00000000000000ull};
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 200; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v.push_back(x >> (i % 64));  // values with every count of leading zeros
  }
  return v;
}

}  // namespace

TEST(ScalarBits, CountsAgainstBitByBitReferences) {
  for (uint64_t v : BitPatterns()) {
    SCOPED_TRACE(v);
    EXPECT_EQ(AscendC::GetBitCount<1>(v), RefCount(v, 1));
    EXPECT_EQ(AscendC::GetBitCount<0>(v), RefCount(v, 0));
    EXPECT_EQ(AscendC::ScalarGetCountOfValue<1>(v), RefCount(v, 1));
    EXPECT_EQ(AscendC::ScalarGetCountOfValue<0>(v), RefCount(v, 0));
    EXPECT_EQ(AscendC::CountLeadingZero(v), RefClz(v));
    EXPECT_EQ(AscendC::ScalarCountLeadingZero(v), RefClz(v));
    EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(static_cast<int64_t>(v)),
              RefSameAsSign(static_cast<int64_t>(v)));
    EXPECT_EQ(AscendC::GetSFFValue<1>(v), RefSff(v, 1));
    EXPECT_EQ(AscendC::GetSFFValue<0>(v), RefSff(v, 0));
    EXPECT_EQ(AscendC::ScalarGetSFFValue<1>(v), RefSff(v, 1));
    EXPECT_EQ(AscendC::ScalarGetSFFValue<0>(v), RefSff(v, 0));
  }
}

TEST(ScalarBits, TheDocumentedExamples) {
  // docs 标量计算: ScalarCountLeadingZero, CountBitsCntSameAsSignBit, GetSFFValue.
  EXPECT_EQ(AscendC::ScalarCountLeadingZero(0x0fffffffffffffffull), 4);
  EXPECT_EQ(AscendC::CountLeadingZero(0), 64);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(0x0f00000000000000ll), 3);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(0x0100000000000020ll), 6);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(1), 62);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(0), -1);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(-1), -1);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(INT64_MIN), 0);
  EXPECT_EQ(AscendC::GetSFFValue<1>(0), -1);
  EXPECT_EQ(AscendC::GetSFFValue<0>(~0ull), -1);
  EXPECT_EQ((AscendC::Cast<float, int32_t, AscendC::RoundMode::CAST_FLOOR>(-2.5f)), -3);
}
