// Integer vector ops wrap around on overflow, as the device's integer ALU does (and without
// undefined behaviour in the simulator: the sanitizer build runs these too).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "aicore_test_util.h"

namespace {

using ascsim_test::CoreFixture;

template <class T>
void Fill(const AscendC::LocalTensor<T>& t, T value, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) t.SetValue(i, value);
}

TEST(AicoreIntegerWrap, Int32AddSubMulWrapModulo2To32) {
  CoreFixture f;
  constexpr uint32_t n = 8;
  auto a = f.Take<int32_t>(n), b = f.Take<int32_t>(n), d = f.Take<int32_t>(n);
  const int32_t max = std::numeric_limits<int32_t>::max();
  const int32_t min = std::numeric_limits<int32_t>::min();
  Fill(a, max, n);
  Fill(b, int32_t{1}, n);
  AscendC::Add(d, a, b, n);
  EXPECT_EQ(d.GetValue(0), min);
  Fill(a, min, n);
  AscendC::Sub(d, a, b, n);
  EXPECT_EQ(d.GetValue(n - 1), max);
  Fill(a, int32_t{65536}, n);
  Fill(b, int32_t{65537}, n);
  AscendC::Mul(d, a, b, n);  // 2^32 + 2^16 wraps to 2^16
  EXPECT_EQ(d.GetValue(3), 65536);
}

TEST(AicoreIntegerWrap, Int32ScalarOpsAndAbsWrap) {
  CoreFixture f;
  constexpr uint32_t n = 8;
  auto a = f.Take<int32_t>(n), d = f.Take<int32_t>(n);
  const int32_t max = std::numeric_limits<int32_t>::max();
  const int32_t min = std::numeric_limits<int32_t>::min();
  Fill(a, max, n);
  AscendC::Adds(d, a, int32_t{2}, n);
  EXPECT_EQ(d.GetValue(0), min + 1);
  AscendC::Muls(d, a, int32_t{2}, n);
  EXPECT_EQ(d.GetValue(0), -2);
  Fill(a, min, n);
  AscendC::Abs(d, a, n);  // |INT32_MIN| is not representable: two's complement gives INT32_MIN
  EXPECT_EQ(d.GetValue(0), min);
}

TEST(AicoreIntegerWrap, Int16AddWrapsModulo2To16) {
  CoreFixture f;
  constexpr uint32_t n = 16;
  auto a = f.Take<int16_t>(n), b = f.Take<int16_t>(n), d = f.Take<int16_t>(n);
  Fill(a, int16_t{32767}, n);
  Fill(b, int16_t{2}, n);
  AscendC::Add(d, a, b, n);
  EXPECT_EQ(d.GetValue(5), int16_t{-32767});
}

}  // namespace
