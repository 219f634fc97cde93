// Acos and Atan (ascsim/adv/math_acos_atan.h) through every include path production kernels use,
// and their host temporary-space sizes (tiling/sin_cos_clamp_tiling.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "adv_api/math/acos.h"
#include "adv_api/math/atan.h"
#include "adv_api/math/kernel_operator_acos_intf.h"
#include "adv_api/math/kernel_operator_atan_intf.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/math/acos.h"
#include "lib/math/atan.h"
#include "lib/math/kernel_operator_acos_intf.h"
#include "lib/math/kernel_operator_atan_intf.h"
#include "tiling/sin_cos_clamp_tiling.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

// atan_common_impl.h's steps in scalar float (CANN's double constants converted to float), which
// the vector calls must reproduce to the bit.
float AtanTaylorRef(float x, int level) {
  const float f[7] = {1.0f, float(-0.3333333333333333), float(0.2), float(-0.14285714285714285),
                      float(0.1111111111111111), float(-0.09090909090909091),
                      float(0.07692307692307693)};
  const float sq = x * x;
  float d = x * x;
  d = d * f[level];
  for (int i = level - 1; i > 0; --i) d = (d + f[i]) * sq;
  return (d + f[0]) * x;
}
float AtanShiftRef(float x, float f) { return std::fabs((x + (0 - f)) / (x * f + 1.0f)); }
float AtanSteps(float x) {
  const float pi4 = float(0.78539816339744830961566084581988);
  const float pi8 = float(0.39269908169872415480783042290994);
  const float t8 = float(0.4142135623730950);
  const float clip = std::fmax(std::fmin(x, 10000.0f), -10000.0f);
  const float a = std::fabs(clip);
  float d = AtanTaylorRef(a, 4);
  d = std::fmin(d, AtanTaylorRef(AtanShiftRef(a, t8), 4) + pi8);
  const float u = std::fabs((a + -1.0f) / (a + 1.0f));
  d = std::fmin(d, AtanTaylorRef(u, 4) + pi4);
  d = std::fmin(d, (AtanTaylorRef(AtanShiftRef(u, t8), 6) + pi8) + pi4);
  const float s = clip * 4611686018427387904.0f;
  return d * (s / (std::fabs(s) + 2.168404344971009e-19f));
}

template <class T>
void CheckAtan(uint32_t n, uint32_t tmp_bytes, float lo, float hi) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " n=" + std::to_string(n) +
               " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(128 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  auto x = RandomVector<T>(n, lo, hi, n + tmp_bytes);
  x[0] = T(0.0f);
  if (n > 3) {
    x[1] = T(1.0f);
    x[2] = T(-0.41421356f);
    x[3] = T(hi * 4);  // clipped to 10000 when large
  }
  Fill(src, x);
  AscendC::Atan<T>(dst, src, tmp, n);
  for (uint32_t i = 0; i < n; ++i) {
    const float want = AtanSteps(float(x[i]));
    const T w = T(want);
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(w)) << "x=" << float(x[i]) << " got "
                                              << float(dst.GetValue(i)) << " want " << want;
    ASSERT_NEAR(float(dst.GetValue(i)), std::atan(double(x[i])), sizeof(T) == 2 ? 2e-3 : 2e-4);
  }
}

TEST(AdvAtan, BitExactAgainstTheDevicesStepsInBothTypes) {
  CheckAtan<float>(1000, 5 * 256 * 4, -3, 3);   // several pieces of 256
  CheckAtan<float>(77, 640, -20000, 20000);     // pieces of 32, clipping
  CheckAtan<half>(333, 12 * 256, -4, 4);
  CheckAtan<half>(64, 6 * 128, -100, 100);
}

TEST(AdvAtan, ErrorsNameTheCall) {
  CoreFixture fx(64 * 1024);
  auto src = fx.Take<float>(64), dst = fx.Take<float>(64);
  auto tmp = fx.Take<uint8_t>(512);
  EXPECT_THAT(ErrorOf([&] { AscendC::Atan<float>(dst, src, tmp, 64); }),
              HasSubstr("Atan"));
  auto big = fx.Take<uint8_t>(1024);
  EXPECT_THAT(ErrorOf([&] { AscendC::Atan<float>(dst, src, big, 65); }), HasSubstr("Atan"));
}

// Acos is -(Asin(x) - pi/2): float bit-exact against ascsim's Asin (itself bit-exact against the
// device's steps, adv_asin_test.cpp); half rounded once from Asin's float result, within a half
// ulp or two of acos.
TEST(AdvAcos, FloatIsHalfPiMinusAsinToTheBit) {
  CoreFixture fx(128 * 1024);
  const uint32_t n = 517;
  auto src = fx.Take<float>(n), dst = fx.Take<float>(n), as = fx.Take<float>(n);
  auto tmp = fx.Take<uint8_t>(4 * 4 * 128);  // pieces of 128
  auto x = RandomVector<float>(n, -1, 1, 5);
  x[0] = 1.0f;
  x[1] = -1.0f;
  x[2] = 0.70710678f;
  Fill(src, x);
  AscendC::Acos<float>(dst, src, tmp, n);
  AscendC::Asin<float>(as, src, tmp, n);
  const float half_pi = 1.5707963267948966192313216916398f;
  for (uint32_t i = 0; i < n; ++i) {
    const float want = (as.GetValue(i) + -half_pi) * -1.0f;
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(want)) << "x=" << x[i];
    ASSERT_NEAR(dst.GetValue(i), std::acos(double(x[i])), 2e-4);
  }
}

TEST(AdvAcos, HalfRoundsOnceFromTheFloatResult) {
  CoreFixture fx(128 * 1024);
  const uint32_t n = 300;
  auto src = fx.Take<half>(n), dst = fx.Take<half>(n);
  auto tmp = fx.Take<uint8_t>(6 * 256);
  auto x = RandomVector<half>(n, -1, 1, 9);
  Fill(src, x);
  AscendC::Acos<half>(dst, src, tmp, n);
  for (uint32_t i = 0; i < n; ++i) {
    const double want = std::acos(double(float(x[i])));
    ASSERT_NEAR(float(dst.GetValue(i)), want, 2 * std::ldexp(1.0, -10) * std::max(want, 0.25))
        << "x=" << float(x[i]);
  }
  EXPECT_THAT(ErrorOf([&] { AscendC::Acos<half>(dst, src, tmp[0].ReinterpretCast<uint8_t>(), n + 1); }),
              HasSubstr("Acos"));
}

TEST(AdvAcosAtanTiling, HostSizesAreCannsFactors) {
  uint32_t maxv = 0, minv = 0, nodes = 0, extra = 1;
  const ge::Shape shape({1000});
  AscendC::GetAtanMaxMinTmpSize(shape, 4, false, maxv, minv);
  EXPECT_EQ(minv, 5u * 256u);
  EXPECT_EQ(maxv, 5u * 4000u);
  AscendC::GetAtanMaxMinTmpSize(shape, 2, false, maxv, minv);
  EXPECT_EQ(minv, 12u * 256u);
  EXPECT_EQ(maxv, 12u * 2000u);
  AscendC::GetAcosMaxMinTmpSize(shape, 2, true, maxv, minv);
  EXPECT_EQ(minv, 6u * 256u);
  EXPECT_EQ(maxv, 6u * 2000u);
  AscendC::GetAtanTmpBufferFactorSize(2, nodes, extra);
  EXPECT_EQ(nodes, 12u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetAcosTmpBufferFactorSize(4, nodes, extra);
  EXPECT_EQ(nodes, 2u);
}

}  // namespace
