// Tan (ascsim/adv/math_tan.h) through every include path production kernels use, and its host
// temporary-space sizes (tiling/sin_cos_clamp_tiling.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "adv_api/math/kernel_operator_tan_intf.h"
#include "adv_api/math/tan.h"
#include "adv_api/math/tan_tiling.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/math/kernel_operator_tan_intf.h"
#include "lib/math/tan.h"
#include "lib/math/tan_tiling.h"
#include "tiling/sin_cos_clamp_tiling.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

template <class T>
void Put(const AscendC::LocalTensor<T>& t, const std::vector<T>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, v[i]);
}

// tan_common_impl.h's steps in scalar float, one rounding per vector instruction; `via_int32`:
// the 310P's rounding of k (float -> int32 -> float, saturating).
float TanSteps(float x0, bool via_int32) {
  volatile float x = x0 + 0.0f;  // volatile: one rounding per step, no contraction
  float k = x * 0.3183098733425140380859375f;
  if (via_int32) {
    const float r = std::nearbyint(k);
    const int32_t i = r >= 2147483648.0f ? INT32_MAX
                      : r < -2147483648.0f ? INT32_MIN
                      : std::isnan(r)      ? 0
                                           : static_cast<int32_t>(r);
    k = static_cast<float>(i);
  } else {
    k = std::nearbyint(k);
  }
  volatile float t = k * 3.140625f;
  x = x - t;
  t = k * 0.0009670257568359375f;
  x = x - t;
  volatile float d1 = x + 1.57079637050628662109375f;
  volatile float d2 = x + -1.57079637050628662109375f;
  t = k * 6.2771141529083251953125e-7f;
  x = x - t;
  d1 = d1 - t;
  d2 = d2 - t;
  d1 = d1 + -0.00000004371139000189375f;
  d2 = d2 + 0.00000004371139000189375f;
  for (const float part : {1.21644916362129151821136474609375e-10f,
                           -1.0291767438275201129727065563201904296875e-13f}) {
    t = k * part;
    x = x - t;
    d1 = d1 - t;
    d2 = d2 - t;
  }
  volatile float x2 = x * x;
  volatile float up = x2 * 0.0698520831551998762793f;
  up = up + -6.8711573651634203789f;
  up = up * x2;
  up = up + 61.20362572811089435388f;
  up = up * x;
  volatile float down = x2 + -24.8048928861126769186219f;
  down = down * d1;
  down = down * d2;
  return up / down;
}

// Bit-exact against the steps; close to float64 tan away from the poles (the rational
// approximation's error, a few ulps of float, and half's rounding).
template <class T>
void CheckTan(const char* soc, uint32_t n, float range, uint32_t tmp_bytes, double rel) {
  SCOPED_TRACE(std::string(soc) + (sizeof(T) == 2 ? " half" : " float") + " n=" +
               std::to_string(n) + " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(128 * 1024, soc);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto x = RandomVector<T>(n, -range, range, n * 7 + tmp_bytes);
  Put(src, x);
  const bool v200 = std::string(soc) == "Ascend310P3";
  for (int form = 0; form < 3; ++form) {
    for (uint32_t i = 0; i < n; ++i) dst.SetValue(i, T(0));
    if (form == 0) AscendC::Tan(dst, src, tmp, n);
    if (form == 1) AscendC::Tan(dst, src, n);  // stack buffer
    if (form == 2) {
      if (n != src.GetSize()) continue;
      AscendC::Tan<T, true>(dst, src, tmp);
    }
    for (uint32_t i = 0; i < n; ++i) {
      const float xi = static_cast<float>(x[i]);
      const T want = static_cast<T>(TanSteps(xi, v200));
      ASSERT_EQ(Bits(dst.GetValue(i)), Bits(want)) << form << " " << i << " x=" << xi;
      if (std::fabs(std::cos(double(xi))) > 1e-2) {
        const double ref = std::tan(double(xi));
        const double got = double(static_cast<float>(dst.GetValue(i)));
        ASSERT_LE(std::fabs(got - ref), rel * std::fabs(ref) + rel) << i << " x=" << xi;
      }
    }
  }
}

TEST(AdvTan, BothDtypesOddSizesAndPieces) {
  // Away from the poles (|cos x| > 0.01) an input ulp moves tan by up to 1e-5 of itself.
  CheckTan<float>("Ascend910B1", 1001, 20, 1024, 1e-4);    // pieces of 64: 15 and a tail of 41
  CheckTan<float>("Ascend910B1", 37, 3, 4096, 1e-4);       // one piece
  CheckTan<float>("Ascend910B1", 500, 3000, 2048, 1e-4);   // large k
  CheckTan<half>("Ascend910B1", 1001, 6, 2560, 2e-3);      // pieces of 128
  CheckTan<half>("Ascend910B1", 65, 1.5f, 8192, 2e-3);
  CheckTan<float>("Ascend310P3", 333, 50, 1024, 1e-4);     // k rounded through int32
  CheckTan<half>("Ascend310P3", 129, 6, 2560, 2e-3);
}

TEST(AdvTan, SpecialValues) {
  CoreFixture fx;
  auto s = fx.Take<float>(8), d = fx.Take<float>(8);
  auto tmp = fx.Take<uint8_t>(1024);
  Put(s, std::vector<float>{0.0f, -0.0f, 0.7853981633974483f, -0.7853981633974483f, 3.0e9f,
                            NAN, INFINITY, 1.0f});
  AscendC::Tan(d, s, tmp, 8);
  EXPECT_EQ(Bits(d.GetValue(0)), Bits(0.0f));
  EXPECT_EQ(Bits(d.GetValue(1)), Bits(0.0f));  // x + 0 turns -0 into +0 first
  EXPECT_NEAR(d.GetValue(2), 1.0, 2e-7);
  EXPECT_EQ(d.GetValue(3), -d.GetValue(2));
  EXPECT_EQ(Bits(d.GetValue(4)), Bits(TanSteps(3.0e9f, false)));
  EXPECT_TRUE(std::isnan(d.GetValue(5)));
  EXPECT_TRUE(std::isnan(d.GetValue(6)));
  EXPECT_NEAR(d.GetValue(7), std::tan(1.0), 4e-7);
}

TEST(AdvTan, Errors) {
  CoreFixture fx;
  auto s = fx.Take<half>(128), d = fx.Take<half>(128);
  auto tmp = fx.Take<uint8_t>(2048);
  EXPECT_EQ(ErrorOf([&] { AscendC::Tan(d, s, tmp, 128); }),
            "test: block 0/1: Tan: sharedTmpBuffer holds 2048 B, less than the 2560 B the API "
            "needs at least (see its Get...MaxMinTmpSize)");
  auto f = fx.Take<float>(64), g = fx.Take<float>(64);
  auto t2 = fx.Take<uint8_t>(1024);
  EXPECT_THAT(ErrorOf([&] { AscendC::Tan(f, f, t2, 64); }),
              HasSubstr("the API does not support overlapping operands"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Tan(g, f, t2, 65); }),
              HasSubstr("Tan: calCount 65 exceeds the src (64) or dst (64) tensor size"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Tan(g, f, t2[32], 64); }),
              HasSubstr("Tan: sharedTmpBuffer holds 992 B, less than the 1024 B"));
  auto h = fx.Take<float>(256);
  const std::string overlap =
      ErrorOf([&] { AscendC::Tan(h, f, h.ReinterpretCast<uint8_t>(), 64); });
  EXPECT_THAT(overlap, HasSubstr("Tan: sharedTmpBuffer UB ["));
  EXPECT_THAT(overlap, HasSubstr("overlaps dst UB"));
}

TEST(AdvTan, HostTmpSizes) {
  uint32_t mx = 0, mn = 0, live = 0, extra = 9;
  AscendC::GetTanMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  EXPECT_EQ(mn, 2560u);   // 10 x 256 B
  EXPECT_EQ(mx, 20000u);  // 10 x 2000 B
  AscendC::GetTanMaxMinTmpSize(ge::Shape({10}), 4, true, mx, mn);
  EXPECT_EQ(mn, 1024u);
  EXPECT_EQ(mx, 1024u);
  AscendC::GetTanMaxMinTmpSize(ge::Shape({1001}), 4, false, mx, mn);
  EXPECT_EQ(mx, 16016u);
  AscendC::GetTanTmpBufferFactorSize(2, live, extra);
  EXPECT_EQ(live, 10u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetTanTmpBufferFactorSize(4, live, extra);
  EXPECT_EQ(live, 4u);
  testing::internal::CaptureStderr();
  mx = mn = 7;
  AscendC::GetTanMaxMinTmpSize(ge::Shape({0}), 2, false, mx, mn);
  EXPECT_THAT(testing::internal::GetCapturedStderr(),
              HasSubstr("Input Shape size must be greater than 0."));
  EXPECT_EQ(mx, 7u);
  // The minimum and the maximum both work in the kernel, with the same results.
  CoreFixture fx(128 * 1024);
  AscendC::GetTanMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  auto s = fx.Take<half>(1000), d = fx.Take<half>(1000), d2 = fx.Take<half>(1000);
  auto tmax = fx.Take<uint8_t>(mx), tmin = fx.Take<uint8_t>(mn);
  Put(s, RandomVector<half>(1000, -4, 4, 5));
  AscendC::Tan(d, s, tmax, 1000);
  AscendC::Tan(d2, s, tmin, 1000);
  for (uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(Bits(d.GetValue(i)), Bits(d2.GetValue(i))) << i;
}

}  // namespace
