// Asin (ascsim/adv/math_asin.h) through every include path production kernels use, and its host
// temporary-space sizes (tiling/sin_cos_clamp_tiling.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "adv_api/math/asin.h"
#include "adv_api/math/kernel_operator_asin_intf.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/math/asin.h"
#include "lib/math/kernel_operator_asin_intf.h"
#include "tiling/sin_cos_clamp_tiling.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

// The float algorithm step by step in scalar float (the series to c_7, the 0/1 selection, the
// sign by division), which the vector calls must reproduce to the bit.
float AsinFloatSteps(float x) {
  const float c[] = {1.0f, 0.16666666666666666666666666666667f, 0.075f,
                     0.04464285714285714285714285714286f, 0.03038194444444444444444444444444f,
                     0.02237215909090909090909090909091f, 0.01735276442307692307692307692308f,
                     0.01396484375f};
  const auto series = [&](float s) {  // P(s), Horner from c_7
    float p = s * 1.0f * c[7];
    for (int i = 6; i > 0; --i) p = (p + c[i]) * s;
    return p + c[0];
  };
  const float r = std::sqrt(x * x * -1.0f + 1.0f);
  const float far = (r * series(r * r)) * -1.0f + 1.5707963267948966f;
  const float ax = std::sqrt(x * x);
  const float near = series(x * x) * ax;
  const float flag = std::floor(std::fmin(ax, 0.70710678118654752f) + -0.70710678118654752f);
  const float keep_near = flag * -1.0f;
  const float keep_far = keep_near * -1.0f + 1.0f;
  const float scaled = x * 4611686018427387904.0f;
  const float sign = scaled / (std::fabs(scaled) + 2.168404344971009e-19f);
  return (near * keep_near + far * keep_far) * sign;
}

template <class T>
void CheckAsin(uint32_t n, uint32_t tmp_bytes, double abs_bound) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " n=" + std::to_string(n) +
               " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(128 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto x = RandomVector<T>(n, -1, 1, n + tmp_bytes);
  Fill(src, x);
  for (int form = 0; form < 3; ++form) {
    if (form == 0) AscendC::Asin(dst, src, tmp, n);
    if (form == 1) AscendC::Asin(dst, src, n);  // stack buffer
    if (form == 2 && n == src.GetSize()) AscendC::Asin(dst, src, tmp);
    for (uint32_t i = 0; i < n; ++i) {
      const double ref = std::asin(double(float(x[i])));
      const double got = double(float(dst.GetValue(i)));
      ASSERT_LE(std::fabs(got - ref), abs_bound + 2e-3 * std::fabs(ref) * (sizeof(T) == 2))
          << form << " " << i << " x=" << float(x[i]);
      if constexpr (std::is_same_v<T, float>) {
        ASSERT_EQ(Bits(dst.GetValue(i)), Bits(AsinFloatSteps(x[i]))) << form << " " << i;
      }
    }
  }
}

// The 8-term series leaves up to ~6e-5 near |x| = 1/sqrt(2) (the next terms); half adds its own
// rounding of the near-zero series.
TEST(AdvAsin, BothDtypes) {
  CheckAsin<float>(1001, 512, 1e-4);
  CheckAsin<float>(67, 4096, 1e-4);
  CheckAsin<half>(1001, 1536, 2e-3);
  CheckAsin<half>(77, 8192, 2e-3);
}

TEST(AdvAsin, SpecialValues) {
  CoreFixture fx;
  auto s = fx.Take<float>(8), d = fx.Take<float>(8);
  auto tmp = fx.Take<uint8_t>(512);
  Fill(s, std::vector<float>{0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 0.70710678f, 1.5f, -2.0f});
  AscendC::Asin(d, s, tmp, 8);
  EXPECT_EQ(d.GetValue(0), 0.0f);
  EXPECT_NEAR(d.GetValue(1), M_PI / 2, 1e-6);
  EXPECT_NEAR(d.GetValue(2), -M_PI / 2, 1e-6);
  EXPECT_NEAR(d.GetValue(3), std::asin(0.5), 2e-6);
  EXPECT_EQ(d.GetValue(3), -d.GetValue(4));
  EXPECT_NEAR(d.GetValue(5), M_PI / 4, 1e-4);
  EXPECT_TRUE(std::isnan(d.GetValue(6)));  // outside [-1, 1]: sqrt of a negative
  EXPECT_TRUE(std::isnan(d.GetValue(7)));
}

TEST(AdvAsin, Errors) {
  CoreFixture fx;
  auto s = fx.Take<half>(128), d = fx.Take<half>(128);
  auto tmp = fx.Take<uint8_t>(1024);
  EXPECT_EQ(ErrorOf([&] { AscendC::Asin(d, s, tmp, 128); }),
            "test: block 0/1: Asin: sharedTmpBuffer holds 1024 B, less than the 1536 B the API "
            "needs at least (see its Get...MaxMinTmpSize)");
  auto f = fx.Take<float>(64), g = fx.Take<float>(64);
  auto t2 = fx.Take<uint8_t>(512);
  EXPECT_THAT(ErrorOf([&] { AscendC::Asin(f, f, t2, 64); }),
              HasSubstr("the API does not support overlapping operands"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Asin(g, f, t2, 65); }),
              HasSubstr("Asin: calCount 65 exceeds the src (64) or dst (64) tensor size"));
  auto h = fx.Take<float>(256);
  EXPECT_THAT(ErrorOf([&] { AscendC::Asin(h, f, h.ReinterpretCast<uint8_t>(), 64); }),
              HasSubstr("Asin: sharedTmpBuffer UB ["));
}

TEST(AdvAsin, HostTmpSizes) {
  uint32_t mx = 0, mn = 0, live = 0, extra = 9;
  AscendC::GetAsinMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  EXPECT_EQ(mn, 1536u);
  EXPECT_EQ(mx, 12000u);
  AscendC::GetAsinMaxMinTmpSize(ge::Shape({10}), 4, true, mx, mn);
  EXPECT_EQ(mn, 512u);
  EXPECT_EQ(mx, 512u);
  AscendC::GetAsinMaxMinTmpSize(ge::Shape({1001}), 4, false, mx, mn);
  EXPECT_EQ(mx, 8008u);
  AscendC::GetAsinTmpBufferFactorSize(2, live, extra);
  EXPECT_EQ(live, 6u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetAsinTmpBufferFactorSize(4, live, extra);
  EXPECT_EQ(live, 2u);
  testing::internal::CaptureStderr();
  mx = mn = 7;
  AscendC::GetAsinMaxMinTmpSize(ge::Shape({0}), 2, false, mx, mn);
  EXPECT_THAT(testing::internal::GetCapturedStderr(),
              HasSubstr("Input Shape size must be greater than 0."));
  EXPECT_EQ(mx, 7u);
  // The minimum and the maximum give the same results.
  CoreFixture fx(128 * 1024);
  AscendC::GetAsinMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  auto s = fx.Take<half>(1000), d = fx.Take<half>(1000), d2 = fx.Take<half>(1000);
  auto tmax = fx.Take<uint8_t>(mx), tmin = fx.Take<uint8_t>(mn);
  Fill(s, RandomVector<half>(1000, -1, 1, 5));
  AscendC::Asin(d, s, tmax, 1000);
  AscendC::Asin(d2, s, tmin, 1000);
  for (uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(Bits(d.GetValue(i)), Bits(d2.GetValue(i))) << i;
}

}  // namespace
