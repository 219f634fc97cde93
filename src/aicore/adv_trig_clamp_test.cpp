// Sin, Cos (ascsim/adv/math_trig.h), Cosh (ascsim/adv/math_cosh.h), ClampMax, ClampMin
// (ascsim/adv/math_clamp.h), Sum (ascsim/adv/reduce.h) and their host sizes (tiling/sin_cos_clamp_tiling.h,
// tiling/sum_tiling.h): float64 references, both dtypes, odd sizes, isReuseSource, small
// temporary buffers, the stack forms, bit-exact scalar models where the device's steps are exact
// IEEE operations, and every error path.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
// The per-API paths production kernels include (ops-nn foreach_sin / foreach_cosh, ops-math
// polar): this file's Sin / Cos tests compile through them.
#include "adv_api/math/cos.h"
#include "adv_api/math/cosh.h"
#include "adv_api/math/kernel_operator_cos_intf.h"
#include "adv_api/math/kernel_operator_sin_intf.h"
#include "adv_api/math/sin.h"
#include "lib/math/cos.h"
#include "lib/math/cosh.h"
#include "lib/math/kernel_operator_cos_intf.h"
#include "lib/math/kernel_operator_sin_intf.h"
#include "lib/math/sin.h"
#include "tiling/sin_cos_clamp_tiling.h"
#include "tiling/sum_tiling.h"

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

// The polynomial's error is absolute (about 1e-7 for float); half adds one rounding at the end.
template <class T>
double MaxAbsErr(const AscendC::LocalTensor<T>& got, const std::vector<T>& x,
                 double (*ref)(double)) {
  double worst = 0;
  for (uint32_t i = 0; i < x.size(); ++i) {
    worst = std::max(worst, std::fabs(double(float(got.GetValue(i))) - ref(double(float(x[i])))));
  }
  return worst;
}
double SinRef(double x) { return std::sin(x); }
double CosRef(double x) { return std::cos(x); }

template <class T, bool reuse>
void CheckTrig(uint32_t n, float range, uint32_t tmp_bytes, double bound) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + (reuse ? " reuse" : "") +
               " n=" + std::to_string(n) + " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(128 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto x = RandomVector<T>(n, -range, range, n + tmp_bytes);
  Put(src, x);
  AscendC::Sin<T, reuse>(dst, src, tmp, n);
  EXPECT_LE(MaxAbsErr(dst, x, SinRef), bound);
  Put(src, x);  // isReuseSource may have changed src
  AscendC::Cos<T, reuse>(dst, src, tmp, n);
  EXPECT_LE(MaxAbsErr(dst, x, CosRef), bound);
  Put(src, x);
  AscendC::Sin<T, reuse>(dst, src, n);  // stack buffer
  EXPECT_LE(MaxAbsErr(dst, x, SinRef), bound);
  Put(src, x);
  AscendC::Cos<T, reuse>(dst, src);
  EXPECT_LE(MaxAbsErr(dst, x, CosRef), bound);
}

TEST(AdvTrig, SinCos) {
  CheckTrig<float, false>(1001, 10, 768, 2e-7);
  CheckTrig<float, false>(37, 3.2f, 4096, 2e-7);
  CheckTrig<float, true>(999, 100, 512, 1e-6);  // k pi grows with |x|
  CheckTrig<float, false>(333, 60000, 2048, 1e-2);
  CheckTrig<half, false>(1001, 10, 2048, 1e-3);
  CheckTrig<half, false>(65, 100, 8192, 1e-3);
}

TEST(AdvTrig, SpecialValues) {
  CoreFixture fx;
  auto s = fx.Take<float>(8), d = fx.Take<float>(8);
  auto tmp = fx.Take<uint8_t>(768);
  Put(s, std::vector<float>{0.0f, -0.0f, float(M_PI / 2), float(M_PI), 1e-20f, -1e-20f, 3e4f,
                            1.0f});
  AscendC::Sin(d, s, tmp, 8);
  EXPECT_EQ(d.GetValue(0), 0.0f);
  EXPECT_EQ(d.GetValue(4), 1e-20f);  // x P(x^2) with P(0) = 1
  EXPECT_EQ(d.GetValue(5), -1e-20f);
  EXPECT_NEAR(d.GetValue(2), 1.0, 1e-7);
  EXPECT_NEAR(d.GetValue(3), std::sin(double(float(M_PI))), 1e-7);
  AscendC::Cos(d, s, tmp, 8);
  EXPECT_NEAR(d.GetValue(0), 1.0, 1e-7);
  EXPECT_LE(d.GetValue(0), 1.0f);  // clamped to [-1, 1]
  EXPECT_NEAR(d.GetValue(3), -1.0, 1e-7);
  EXPECT_NEAR(d.GetValue(7), std::cos(1.0), 2e-7);
}

TEST(AdvTrig, Errors) {
  CoreFixture fx;
  auto s = fx.Take<half>(128), d = fx.Take<half>(128);
  auto tmp = fx.Take<uint8_t>(1024);
  EXPECT_EQ(ErrorOf([&] { AscendC::Sin(d, s, tmp, 128); }),
            "test: block 0/1: Sin: sharedTmpBuffer holds 1024 B, less than the 2048 B the API "
            "needs at least (see its Get...MaxMinTmpSize)");
  auto f = fx.Take<float>(64), g = fx.Take<float>(64);
  auto t2 = fx.Take<uint8_t>(768);
  AscendC::Cos<float, true>(g, f, tmp[512], 64);  // isReuseSource: 512 B are enough
  EXPECT_THAT(ErrorOf([&] { AscendC::Cos(f, f, t2, 64); }),
              HasSubstr("Cos: dstTensor UB"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Cos(f, f, t2, 64); }),
              HasSubstr("the API does not support overlapping operands"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Sin(g, f, t2, 65); }),
              HasSubstr("Sin: calCount 65 exceeds the src (64) or dst (64) tensor size"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Sin(g, f, t2.ReinterpretCast<uint8_t>()[32], 64); }),
              HasSubstr("Sin: sharedTmpBuffer holds 736 B, less than the 768 B"));
}

// Cosh: the float path is bit-exact against the same float steps (y1 = e^(x - ln 2) by the
// basic Exp, then y1 + 0.25 / y1 in IEEE float); both dtypes against float64 cosh (relative error:
// a few float ulps; half adds its final rounding).
template <class T, bool reuse>
void CheckCosh(uint32_t n, float range, uint32_t tmp_bytes, double rel_bound) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " n=" + std::to_string(n) +
               " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(128 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto x = RandomVector<T>(n, -range, range, n + tmp_bytes);
  Put(src, x);
  auto y1 = fx.Take<float>(n);
  if constexpr (std::is_same_v<T, float>) {
    AscendC::Adds(y1, src, -0.69314718055994530941723212145818f, n);
    AscendC::Exp(y1, y1, n);
  }
  for (int form = 0; form < 3; ++form) {
    if (form == 0) AscendC::Cosh<T, reuse>(dst, src, tmp, n);
    if (form == 1) AscendC::Cosh<T, reuse>(dst, src, n);  // stack buffer
    if (form == 2 && n == src.GetSize()) AscendC::Cosh<T, reuse>(dst, src, tmp);
    double worst = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const double xi = double(float(x[i]));
      const double ref = std::cosh(xi);
      const double got = double(float(dst.GetValue(i)));
      worst = std::max(worst, std::fabs(got - ref) / ref);
      if constexpr (std::is_same_v<T, float>) {
        const float e = y1.GetValue(i);
        ASSERT_EQ(Bits(dst.GetValue(i)), Bits(e + 0.25f / e)) << i;
      }
    }
    EXPECT_LE(worst, rel_bound) << form;
  }
}

TEST(AdvCosh, BothDtypes) {
  // The rounding of x - ln 2 (half an ulp of 80 is 3.8e-6) becomes a relative error of e^x.
  CheckCosh<float, false>(1001, 80, 512, 5e-6);
  CheckCosh<float, false>(100, 2, 768, 1e-6);
  CheckCosh<float, true>(37, 3, 4096, 1e-6);
  CheckCosh<half, false>(1001, 10, 1536, 1e-3);
  CheckCosh<half, false>(65, 11, 8192, 1e-3);
}

TEST(AdvCosh, SpecialValues) {
  CoreFixture fx;
  auto s = fx.Take<float>(8), d = fx.Take<float>(8);
  auto tmp = fx.Take<uint8_t>(512);
  Put(s, std::vector<float>{0.0f, -0.0f, 1.0f, -1.0f, 90.0f, -110.0f, INFINITY, -INFINITY});
  AscendC::Cosh(d, s, tmp, 8);
  EXPECT_EQ(d.GetValue(0), 1.0f);  // e^-ln2 + 0.25 / e^-ln2 = 0.5 + 0.5
  EXPECT_EQ(d.GetValue(1), 1.0f);
  EXPECT_NEAR(d.GetValue(2), std::cosh(1.0), 2e-7);
  EXPECT_EQ(d.GetValue(2), d.GetValue(3));
  EXPECT_TRUE(std::isinf(d.GetValue(4)));  // e^(90 - ln 2) > FLT_MAX
  EXPECT_TRUE(std::isinf(d.GetValue(5)));  // e^(-110.7) is 0 in float: 0.25 / 0
  EXPECT_TRUE(std::isinf(d.GetValue(6)));
  EXPECT_TRUE(std::isinf(d.GetValue(7)));
}

TEST(AdvCosh, Errors) {
  CoreFixture fx;
  auto s = fx.Take<half>(128), d = fx.Take<half>(128);
  auto tmp = fx.Take<uint8_t>(1024);
  EXPECT_EQ(ErrorOf([&] { AscendC::Cosh(d, s, tmp, 128); }),
            "test: block 0/1: Cosh: sharedTmpBuffer holds 1024 B, less than the 1536 B the API "
            "needs at least (see its Get...MaxMinTmpSize)");
  auto f = fx.Take<float>(64), g = fx.Take<float>(64);
  auto t2 = fx.Take<uint8_t>(512);
  EXPECT_THAT(ErrorOf([&] { AscendC::Cosh(f, f, t2, 64); }),
              HasSubstr("the API does not support overlapping operands"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Cosh(g, f, t2, 65); }),
              HasSubstr("Cosh: calCount 65 exceeds the src (64) or dst (64) tensor size"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Cosh(g, f, t2[32], 64); }),
              HasSubstr("Cosh: sharedTmpBuffer holds 480 B, less than the 512 B"));
  auto h = fx.Take<float>(256);
  const std::string overlap =
      ErrorOf([&] { AscendC::Cosh(h, f, h.ReinterpretCast<uint8_t>(), 64); });
  EXPECT_THAT(overlap, HasSubstr("Cosh: sharedTmpBuffer UB ["));
  EXPECT_THAT(overlap, HasSubstr("overlaps dst UB"));
}

TEST(AdvCosh, HostTmpSizes) {
  uint32_t mx = 0, mn = 0, live = 0, extra = 9;
  AscendC::GetCoshMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  EXPECT_EQ(mn, 1536u);
  EXPECT_EQ(mx, 12000u);
  AscendC::GetCoshMaxMinTmpSize(ge::Shape({10}), 4, true, mx, mn);
  EXPECT_EQ(mn, 512u);
  EXPECT_EQ(mx, 512u);
  AscendC::GetCoshTmpBufferFactorSize(2, live, extra);
  EXPECT_EQ(live, 6u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetCoshTmpBufferFactorSize(4, live, extra);
  EXPECT_EQ(live, 2u);
  testing::internal::CaptureStderr();
  mx = mn = 7;
  AscendC::GetCoshMaxMinTmpSize(ge::Shape({0}), 2, false, mx, mn);
  EXPECT_THAT(testing::internal::GetCapturedStderr(),
              HasSubstr("Input Shape size must be greater than 0."));
  EXPECT_EQ(mx, 7u);
  // The minimum and the maximum both work in the kernel.
  CoreFixture fx(128 * 1024);
  AscendC::GetCoshMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  auto s = fx.Take<half>(1000), d = fx.Take<half>(1000), d2 = fx.Take<half>(1000);
  auto tmax = fx.Take<uint8_t>(mx), tmin = fx.Take<uint8_t>(mn);
  Put(s, RandomVector<half>(1000, -4, 4, 5));
  AscendC::Cosh(d, s, tmax, 1000);
  AscendC::Cosh(d2, s, tmin, 1000);
  for (uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(Bits(d.GetValue(i)), Bits(d2.GetValue(i))) << i;
}

TEST(AdvClamp, MaxMin) {
  for (uint32_t n : {1u, 63u, 1000u}) {
    SCOPED_TRACE(n);
    CoreFixture fx;
    auto sf = fx.Take<float>(n), df = fx.Take<float>(n);
    auto sh = fx.Take<half>(n), dh = fx.Take<half>(n);
    auto tmp = fx.Take<uint8_t>(128);
    auto xf = RandomVector<float>(n, -5, 5, n);
    xf[0] = NAN;
    const auto xh = RandomVector<half>(n, -5, 5, n + 1);
    Put(sf, xf);
    Put(sh, xh);
    AscendC::ClampMax(df, sf, tmp, 1.5f, n);
    AscendC::ClampMin(dh, sh, half(-2.0f), n);
    for (uint32_t i = 1; i < n; ++i) {
      ASSERT_EQ(df.GetValue(i), std::min(xf[i], 1.5f)) << i;
      ASSERT_EQ(Bits(dh.GetValue(i)), Bits(float(xh[i]) < -2 ? half(-2.0f) : xh[i])) << i;
    }
    AscendC::ClampMin(df, sf, tmp, 0.25f, n);
    AscendC::ClampMax(dh, sh, tmp, half(3.0f), n);
    for (uint32_t i = 1; i < n; ++i) {
      ASSERT_EQ(df.GetValue(i), std::max(xf[i], 0.25f)) << i;
      ASSERT_EQ(Bits(dh.GetValue(i)), Bits(float(xh[i]) > 3 ? half(3.0f) : xh[i])) << i;
    }
  }
}

TEST(AdvClamp, Errors) {
  CoreFixture fx;
  auto s = fx.Take<half>(256), d = fx.Take<half>(256);
  auto tmp = fx.Take<uint8_t>(64);
  EXPECT_THAT(ErrorOf([&] { AscendC::ClampMax(d, s, tmp, half(1.0f), 256); }),
              HasSubstr("ClampMax: sharedTmpBuffer holds 64 B, less than the 128 B"));
  EXPECT_THAT(ErrorOf([&] { AscendC::ClampMin(s, s, half(1.0f), 256); }),
              HasSubstr("ClampMin: dstTensor UB [0x0, 0x200) overlaps srcTensor UB [0x0, 0x200)"));
  EXPECT_THAT(ErrorOf([&] { AscendC::ClampMin(d, s, half(1.0f), 257); }),
              HasSubstr("ClampMin: calCount 257 exceeds"));
}

TEST(AdvTrigClamp, HostTmpSizes) {
  uint32_t mx = 0, mn = 0, live = 0, extra = 9;
  AscendC::GetSinMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  EXPECT_EQ(mn, 2048u);
  EXPECT_EQ(mx, 16000u);
  AscendC::GetSinMaxMinTmpSize(ge::Shape({10}), 4, true, mx, mn);
  EXPECT_EQ(mn, 512u);
  EXPECT_EQ(mx, 512u);
  AscendC::GetCosMaxMinTmpSize(ge::Shape({1000}), 4, false, mx, mn);
  EXPECT_EQ(mn, 768u);
  EXPECT_EQ(mx, 12000u);
  AscendC::GetSinTmpBufferFactorSize(2, live, extra);
  EXPECT_EQ(live, 8u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetCosTmpBufferFactorSize(4, live, extra);
  EXPECT_EQ(live, 3u);
  AscendC::GetClampMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  EXPECT_EQ(mn, 128u);
  EXPECT_EQ(mx, 1000u);
  AscendC::GetClampTmpBufferFactorSize(4, live, extra);
  EXPECT_EQ(live, 1u);
  testing::internal::CaptureStderr();
  mx = mn = 7;
  AscendC::GetCosMaxMinTmpSize(ge::Shape({10}), 2, true, mx, mn);
  AscendC::GetClampMaxMinTmpSize(ge::Shape({0}), 2, false, mx, mn);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, HasSubstr("when the input data type is half, isReuseSource is not supported"));
  EXPECT_THAT(err, HasSubstr("Input Shape size must be greater than 0."));
  // The maximum and the minimum both work in the kernel.
  CoreFixture fx(128 * 1024);
  AscendC::GetSinMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  auto s = fx.Take<half>(1000), d = fx.Take<half>(1000);
  auto tmax = fx.Take<uint8_t>(mx), tmin = fx.Take<uint8_t>(mn);
  const auto x = RandomVector<half>(1000, -4, 4, 3);
  Put(s, x);
  AscendC::Sin(d, s, tmax, 1000);
  EXPECT_LE(MaxAbsErr(d, x, SinRef), 1e-3);
  AscendC::Sin(d, s, tmin, 1000);
  EXPECT_LE(MaxAbsErr(d, x, SinRef), 1e-3);
}

// Sum as the device computes it: per-repeat partial sums, then sums of those; the temporary
// buffer GetSumMaxMinTmpSize sizes is exactly what it needs.
TEST(AdvSum, MatchesRepeatSumsAndHostSize) {
  for (uint32_t n : {5u, 64u, 65u, 1000u, 16385u}) {
    SCOPED_TRACE(n);
    uint32_t mx = 0, mn = 0;
    AscendC::GetSumMaxMinTmpSize(n, 4, false, mx, mn);
    const uint32_t repeats = (n + 63) / 64;
    EXPECT_EQ(mn, (repeats + 7) / 8 * 8 * 4);
    EXPECT_EQ(mx, mn);
    CoreFixture fx(160 * 1024);
    const uint32_t inner = (n + 7) / 8 * 8;
    auto src = fx.Take<float>(2 * inner), dst = fx.Take<float>(8);
    auto tmp = fx.Take<uint8_t>(mn);
    const auto x = RandomVector<float>(2 * inner, -1, 1, n);
    Put(src, x);
    AscendC::SumParams p{2, inner, n};
    AscendC::Sum(dst, src, tmp, p);
    for (uint32_t row = 0; row < 2; ++row) {
      double want = 0;
      for (uint32_t i = 0; i < n; ++i) want += x[row * inner + i];
      EXPECT_NEAR(dst.GetValue(row), want, 1e-5 * (1 + std::sqrt(double(n)))) << row;
    }
  }
  CoreFixture fx;
  auto src = fx.Take<half>(4096), dst = fx.Take<half>(16);
  auto tmp = fx.Take<uint8_t>(32);
  EXPECT_THAT(ErrorOf([&] { AscendC::Sum(dst, src, tmp, AscendC::SumParams{1, 4096, 4096}); }),
              HasSubstr("Sum: sharedTmpBuffer holds 32 B, less than the 64 B the partial sums "
                        "need"));
  uint32_t mx = 3, mn = 3;
  testing::internal::CaptureStderr();
  AscendC::GetSumMaxMinTmpSize(0, 2, true, mx, mn);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, HasSubstr("[Sum][GetSumMaxMinTmpSize] The parameter isReuseSource is true"));
  EXPECT_THAT(err, HasSubstr("[Sum][GetSumMaxMinTmpSize] The parameter n is 0"));
  EXPECT_EQ(mx, 3u);
}

}  // namespace
