// Sinh (ascsim/adv/math_sinh.h) through every include path production kernels use, and its host
// temporary-space sizes (tiling/sin_cos_clamp_tiling.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "adv_api/math/kernel_operator_sinh_intf.h"
#include "adv_api/math/sinh.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/math/kernel_operator_sinh_intf.h"
#include "lib/math/sinh.h"
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

// The float path is bit-exact against the same float steps (e^(x - ln 2) - e^(-x - ln 2) with the
// basic Exp); both dtypes against float64 sinh. The difference of two exponentials loses
// relative precision near 0 (its error is a few ulps of 0.5 there), hence rel + abs bounds.
template <class T, bool reuse>
void CheckSinh(uint32_t n, float range, uint32_t tmp_bytes, double rel, double abs) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " n=" + std::to_string(n) +
               " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(128 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto x = RandomVector<T>(n, -range, range, n + tmp_bytes);
  Put(src, x);
  auto pos = fx.Take<float>(n), neg = fx.Take<float>(n);
  if constexpr (std::is_same_v<T, float>) {
    AscendC::Adds(pos, src, -0.69314718055994530941723212145818f, n);
    AscendC::Exp(pos, pos, n);
    AscendC::Muls(neg, src, -1.0f, n);
    AscendC::Adds(neg, neg, -0.69314718055994530941723212145818f, n);
    AscendC::Exp(neg, neg, n);
  }
  for (int form = 0; form < 3; ++form) {
    if (form == 0) AscendC::Sinh<T, reuse>(dst, src, tmp, n);
    if (form == 1) AscendC::Sinh<T, reuse>(dst, src, n);  // stack buffer
    if (form == 2 && n == src.GetSize()) AscendC::Sinh<T, reuse>(dst, src, tmp);
    for (uint32_t i = 0; i < n; ++i) {
      const double ref = std::sinh(double(float(x[i])));
      const double got = double(float(dst.GetValue(i)));
      ASSERT_LE(std::fabs(got - ref), rel * std::fabs(ref) + abs) << form << " " << i;
      if constexpr (std::is_same_v<T, float>) {
        ASSERT_EQ(Bits(dst.GetValue(i)), Bits(pos.GetValue(i) - neg.GetValue(i))) << i;
      }
    }
  }
}

TEST(AdvSinh, BothDtypes) {
  CheckSinh<float, false>(1001, 80, 256, 5e-6, 2e-7);
  CheckSinh<float, false>(100, 2, 384, 1e-6, 2e-7);
  CheckSinh<float, true>(37, 3, 4096, 1e-6, 2e-7);
  CheckSinh<half, false>(1001, 10, 1024, 1e-3, 1e-6);
  CheckSinh<half, false>(65, 11, 8192, 1e-3, 1e-6);
}

TEST(AdvSinh, SpecialValues) {
  CoreFixture fx;
  auto s = fx.Take<float>(8), d = fx.Take<float>(8);
  auto tmp = fx.Take<uint8_t>(256);
  Put(s, std::vector<float>{0.0f, -0.0f, 1.0f, -1.0f, 90.0f, -90.0f, INFINITY, -INFINITY});
  AscendC::Sinh(d, s, tmp, 8);
  EXPECT_EQ(d.GetValue(0), 0.0f);  // 0.5 - 0.5
  EXPECT_EQ(d.GetValue(1), 0.0f);
  EXPECT_NEAR(d.GetValue(2), std::sinh(1.0), 2e-7);
  EXPECT_EQ(d.GetValue(2), -d.GetValue(3));
  EXPECT_EQ(d.GetValue(4), INFINITY);  // e^(90 - ln 2) > FLT_MAX
  EXPECT_EQ(d.GetValue(5), -INFINITY);
  EXPECT_EQ(d.GetValue(6), INFINITY);
  EXPECT_EQ(d.GetValue(7), -INFINITY);
}

TEST(AdvSinh, Errors) {
  CoreFixture fx;
  auto s = fx.Take<half>(128), d = fx.Take<half>(128);
  auto tmp = fx.Take<uint8_t>(768);
  EXPECT_EQ(ErrorOf([&] { AscendC::Sinh(d, s, tmp, 128); }),
            "test: block 0/1: Sinh: sharedTmpBuffer holds 768 B, less than the 1024 B the API "
            "needs at least (see its Get...MaxMinTmpSize)");
  auto f = fx.Take<float>(64), g = fx.Take<float>(64);
  auto t2 = fx.Take<uint8_t>(256);
  EXPECT_THAT(ErrorOf([&] { AscendC::Sinh(f, f, t2, 64); }),
              HasSubstr("the API does not support overlapping operands"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Sinh(g, f, t2, 65); }),
              HasSubstr("Sinh: calCount 65 exceeds the src (64) or dst (64) tensor size"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Sinh(g, f, t2[32], 64); }),
              HasSubstr("Sinh: sharedTmpBuffer holds 224 B, less than the 256 B"));
  auto h = fx.Take<float>(256);
  const std::string overlap =
      ErrorOf([&] { AscendC::Sinh(h, f, h.ReinterpretCast<uint8_t>(), 64); });
  EXPECT_THAT(overlap, HasSubstr("Sinh: sharedTmpBuffer UB ["));
  EXPECT_THAT(overlap, HasSubstr("overlaps dst UB"));
}

TEST(AdvSinh, HostTmpSizes) {
  uint32_t mx = 0, mn = 0, live = 0, extra = 9;
  AscendC::GetSinhMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  EXPECT_EQ(mn, 1024u);
  EXPECT_EQ(mx, 8000u);
  AscendC::GetSinhMaxMinTmpSize(ge::Shape({10}), 4, true, mx, mn);
  EXPECT_EQ(mn, 256u);
  EXPECT_EQ(mx, 256u);
  AscendC::GetSinhMaxMinTmpSize(ge::Shape({1001}), 4, false, mx, mn);
  EXPECT_EQ(mx, 4004u);
  AscendC::GetSinhTmpBufferFactorSize(2, live, extra);
  EXPECT_EQ(live, 4u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetSinhTmpBufferFactorSize(4, live, extra);
  EXPECT_EQ(live, 1u);
  testing::internal::CaptureStderr();
  mx = mn = 7;
  AscendC::GetSinhMaxMinTmpSize(ge::Shape({0}), 2, false, mx, mn);
  EXPECT_THAT(testing::internal::GetCapturedStderr(),
              HasSubstr("Input Shape size must be greater than 0."));
  EXPECT_EQ(mx, 7u);
  // The minimum and the maximum both work in the kernel, with the same results.
  CoreFixture fx(128 * 1024);
  AscendC::GetSinhMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  auto s = fx.Take<half>(1000), d = fx.Take<half>(1000), d2 = fx.Take<half>(1000);
  auto tmax = fx.Take<uint8_t>(mx), tmin = fx.Take<uint8_t>(mn);
  Put(s, RandomVector<half>(1000, -4, 4, 5));
  AscendC::Sinh(d, s, tmax, 1000);
  AscendC::Sinh(d2, s, tmin, 1000);
  for (uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(Bits(d.GetValue(i)), Bits(d2.GetValue(i))) << i;
}

}  // namespace
