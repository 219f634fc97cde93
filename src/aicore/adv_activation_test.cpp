// The activation advanced APIs (ascsim/adv/activation.h) and their host sizes
// (tiling/activation_tiling.h): Gelu, FasterGelu, FasterGeluV2 (default, highPrecision,
// highPerformance), Silu and Swish against float64 references of the functions they compute, both
// dtypes, odd sizes, small temporary buffers (many pieces), the stack-buffer forms, the examples of
// asc-devkit's documentation, and every error path. Error bounds are the device algorithms'
// (a composition of rounded steps), measured here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tiling/activation_tiling.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

template <class T>
void Put(const AscendC::LocalTensor<T>& t, const std::vector<T>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, v[i]);
}

// |got - ref| in units of the spacing of T at ref, with an absolute floor of `abs` (near the
// zeros of a function the relative error of a composition of rounded steps is unbounded).
template <class T>
double Err(T got, double ref, double abs) {
  const double g = double(float(got));
  if (std::isnan(ref)) return std::isnan(g) ? 0 : 1e9;
  const double d = std::fabs(g - ref);
  if (d <= abs) return 0;
  const int digits = std::is_same_v<T, half> ? 11 : 24;
  int e = 0;
  std::frexp(ref == 0 ? 1e-30 : ref, &e);
  const int min_exp = std::is_same_v<T, half> ? -14 : -126;
  return d / std::ldexp(1.0, std::max(e - 1, min_exp) - (digits - 1));
}

double GeluRef(double x) {  // the tanh form, which the device's x * sigmoid(2 y') equals exactly
  return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}
double FasterGeluRef(double x) { return x / (1 + std::exp(-1.702 * x)); }
double FasterGeluV2Ref(double x) {
  const double c = std::min(std::fabs(0.7071 * x), 1.769) - 1.769;
  const double sgn = x > 0 ? 1 : (x < 0 ? -1 : 0);
  return x * (sgn * (-0.1444 * c * c + 0.5) + 0.5);
}
double SiluRef(double x) { return x / (1 + std::exp(-x)); }

// Runs `call` (sharedTmpBuffer form with `tmp_bytes`) and `stack` over n random values in
// [lo, hi) and checks every result against `ref` within `bound` (in spacings of T, `abs` floor).
template <class T, class WithTmp, class Stack>
void Check(const char* what, uint32_t n, float lo, float hi, uint32_t tmp_bytes, double bound,
           double abs, double (*ref)(double), WithTmp&& call, Stack&& stack) {
  SCOPED_TRACE(std::string(what) + (sizeof(T) == 2 ? " half" : " float") + " n=" +
               std::to_string(n) + " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(96 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto x = RandomVector<T>(n, lo, hi, n * 13 + tmp_bytes);
  Put(src, x);
  call(dst, src, tmp, n);
  double worst = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const double e = Err(dst.GetValue(i), ref(double(float(x[i]))), abs);
    worst = std::max(worst, e);
    ASSERT_LE(e, bound) << i << " x=" << float(x[i]) << " got " << float(dst.GetValue(i));
  }
  Put(dst, std::vector<T>(n, T(0.0f)));
  stack(dst, src, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_LE(Err(dst.GetValue(i), ref(double(float(x[i]))), abs), bound) << i;
  }
}

#define ASCSIM_GELU_CASE(Api, T, hp, perf, n, lo, hi, tmp, bound, abs, ref)                   \
  Check<T>(                                                                                   \
      #Api, n, lo, hi, tmp, bound, abs, ref,                                                  \
      [](const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& s,                  \
         const AscendC::LocalTensor<uint8_t>& t, uint32_t c) {                                \
        AscendC::Api<T, hp, perf>(d, s, t, c);                                                \
      },                                                                                      \
      [](const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& s, uint32_t c) {    \
        AscendC::Api<T, hp, perf>(d, s, c);                                                   \
      })

TEST(AdvActivation, GeluFloat) {
  ASCSIM_GELU_CASE(Gelu, float, false, false, 1001, -8, 8, 768, 8, 1e-6, GeluRef);
  ASCSIM_GELU_CASE(Gelu, float, false, true, 333, -8, 8, 1024, 8, 1e-6, GeluRef);
  ASCSIM_GELU_CASE(Gelu, float, true, false, 7, -3, 3, 4096, 8, 1e-6, GeluRef);
}

TEST(AdvActivation, GeluHalf) {
  // In half every step rounds to 11 bits: x^3 and the exponentials carry most of the error.
  ASCSIM_GELU_CASE(Gelu, half, false, false, 999, -6, 6, 768, 8, 2e-3, GeluRef);
  ASCSIM_GELU_CASE(Gelu, half, false, true, 129, -6, 6, 2048, 8, 2e-3, GeluRef);
  // highPrecision computes each piece in float: one rounding at the end.
  ASCSIM_GELU_CASE(Gelu, half, true, false, 999, -6, 6, 768, 1, 1e-4, GeluRef);
  ASCSIM_GELU_CASE(Gelu, half, true, true, 65, -6, 6, 1536, 1, 1e-4, GeluRef);
}

TEST(AdvActivation, FasterGelu) {
  ASCSIM_GELU_CASE(FasterGelu, float, false, false, 1001, -10, 10, 768, 4, 1e-7, FasterGeluRef);
  ASCSIM_GELU_CASE(FasterGelu, float, false, true, 31, -10, 10, 4096, 4, 1e-7, FasterGeluRef);
  ASCSIM_GELU_CASE(FasterGelu, half, false, false, 777, -6, 6, 768, 4, 1e-3, FasterGeluRef);
  ASCSIM_GELU_CASE(FasterGelu, half, true, false, 777, -6, 6, 768, 1, 1e-4, FasterGeluRef);
}

TEST(AdvActivation, FasterGeluV2) {
  ASCSIM_GELU_CASE(FasterGeluV2, float, false, false, 1001, -6, 6, 768, 8, 1e-6, FasterGeluV2Ref);
  ASCSIM_GELU_CASE(FasterGeluV2, float, false, true, 99, -6, 6, 2048, 8, 1e-6, FasterGeluV2Ref);
  ASCSIM_GELU_CASE(FasterGeluV2, half, false, false, 501, -6, 6, 768, 4, 1e-3, FasterGeluV2Ref);
  ASCSIM_GELU_CASE(FasterGeluV2, half, true, false, 501, -6, 6, 768, 1, 1e-4, FasterGeluV2Ref);
}

// x = 0: (0 + 1e-12) / |0 + 1e-12| is 1 in float, so the result is 0; in half 1e-12 is 0 and the
// sign is 0 / 0, so the device's half algorithm gives NaN there (its highPrecision form does not).
TEST(AdvActivation, FasterGeluV2AtZero) {
  CoreFixture fx;
  auto sf = fx.Take<float>(8), df = fx.Take<float>(8);
  auto sh = fx.Take<half>(16), dh = fx.Take<half>(16);
  auto tmp = fx.Take<uint8_t>(768);
  Put(sf, std::vector<float>(8, 0.0f));
  Put(sh, std::vector<half>(16, half(0.0f)));
  AscendC::FasterGeluV2(df, sf, tmp, 8);
  EXPECT_EQ(df.GetValue(0), 0.0f);
  AscendC::FasterGeluV2(dh, sh, tmp, 16);
  EXPECT_TRUE(std::isnan(float(dh.GetValue(0))));
  AscendC::FasterGeluV2<half, true>(dh, sh, tmp, 16);
  EXPECT_EQ(float(dh.GetValue(0)), 0.0f);
}

// asc-devkit docs/zh/api/SIMD-API/高阶API/激活函数/Silu接口/Silu.md: the documented float example.
TEST(AdvActivation, SiluDocumentedExample) {
  const std::vector<float> x = {-100, -50, -20, -10, -5, -4,   -3,  -2,  -1, -0.5, -0.4,
                                -0.3, -0.2, -0.1, -0.01, 0, 0, 0.01, 0.1, 0.2, 0.3, 0.4,
                                0.5,  1,    2,    3,     4, 5, 10,   20,  50,  100};
  const std::vector<double> y = {-0.,         -0.,         -0.00000004, -0.00045398, -0.03346425,
                                 -0.07194484, -0.14227761, -0.23840587, -0.2689414,  -0.18877034,
                                 -0.16052495, -0.12766725, -0.0900332,  -0.04750208, -0.004975,
                                 0.,          0.,          0.005025,    0.05249792,  0.10996681,
                                 0.17233276,  0.23947507,  0.31122968,  0.7310586,   1.761594,
                                 2.8577225,   3.928055,    4.9665356,   9.999546,    20.,
                                 50.,         100.};
  CoreFixture fx;
  auto s = fx.Take<float>(32), d = fx.Take<float>(32);
  Put(s, x);
  AscendC::Silu(d, s, 32);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_NEAR(d.GetValue(i), y[i], 1e-6 * (1 + std::fabs(y[i])));
}

TEST(AdvActivation, SiluAndSwish) {
  for (uint32_t n : {1u, 37u, 1001u}) {
    SCOPED_TRACE(n);
    CoreFixture fx(96 * 1024);
    auto sf = fx.Take<float>(n), df = fx.Take<float>(n);
    auto sh = fx.Take<half>(n), dh = fx.Take<half>(n);
    const auto xf = RandomVector<float>(n, -20, 20, n);
    const auto xh = RandomVector<half>(n, -8, 8, n + 5);
    Put(sf, xf);
    Put(sh, xh);
    AscendC::Silu(df, sf, n);
    AscendC::Silu(dh, sh, n);
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_LE(Err(df.GetValue(i), SiluRef(xf[i]), 1e-30), 4) << i;
      ASSERT_LE(Err(dh.GetValue(i), SiluRef(float(xh[i])), 1e-4), 4) << i;
    }
    // Swish(x, beta) = x / (1 + e^(-beta x)); beta = 1 is Silu bit for bit.
    AscendC::Swish(df, sf, n, 1.702f);
    AscendC::Swish(dh, sh, n, half(0.5f));
    for (uint32_t i = 0; i < n; ++i) {
      // The rounding of -beta x is amplified by e^(-beta x): |beta x| ulps more.
      ASSERT_LE(Err(df.GetValue(i), xf[i] / (1 + std::exp(-1.702 * xf[i])), 1e-30),
                4 + 1.702 * std::fabs(xf[i]))
          << i;
      const double xv = float(xh[i]);
      ASSERT_LE(Err(dh.GetValue(i), xv / (1 + std::exp(-0.5 * xv)), 1e-4), 4) << i;
    }
    auto d2 = fx.Take<float>(n);
    AscendC::Silu(df, sf, n);
    AscendC::Swish(d2, sf, n, 1.0f);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(df.GetValue(i), d2.GetValue(i)) << i;
  }
}

TEST(AdvActivation, Errors) {
  CoreFixture fx;
  auto s = fx.Take<float>(64), d = fx.Take<float>(64);
  auto small = fx.Take<uint8_t>(512);
  EXPECT_EQ(ErrorOf([&] { AscendC::Gelu(d, s, small, 64); }),
            "test: block 0/1: Gelu: sharedTmpBuffer holds 512 B, less than the 768 B the API "
            "needs at least (see its Get...MaxMinTmpSize)");
  auto tmp = fx.Take<uint8_t>(1024);
  EXPECT_EQ(ErrorOf([&] { AscendC::FasterGelu(d, s, tmp, 65); }),
            "test: block 0/1: FasterGelu: calCount 65 exceeds the src (64) or dst (64) tensor "
            "size");
  EXPECT_THAT(ErrorOf([&] { AscendC::FasterGeluV2(d, s, tmp[16], 64); }),
              HasSubstr("not 32-byte aligned"));
  auto big = fx.Take<uint8_t>(1024);
  EXPECT_THAT(ErrorOf([&] { AscendC::Gelu(big.ReinterpretCast<float>(), s, big, 64); }),
              HasSubstr("Gelu: sharedTmpBuffer UB"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Silu(d, d, 64); }),
              HasSubstr("Silu: dstLocal UB [0x100, 0x200) overlaps srcLocal UB [0x100, 0x200); "
                        "the API does not support overlapping operands"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Swish(s[8], s, 32, 1.0f); }),
              HasSubstr("Swish: dstLocal UB [0x20, 0xa0) overlaps srcLocal UB [0x0, 0x80)"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Silu(d, s, 100); }),
              HasSubstr("Silu: calCount 100 exceeds the src (64) or dst (64) tensor size"));
  // The stack form needs a TPipe with free UB above its buffers.
  CoreFixture full(192 * 1024);
  auto a = full.Take<float>(64), b = full.Take<float>(64);
  EXPECT_THAT(ErrorOf([&] { AscendC::Gelu(b, a, 64); }),
              HasSubstr("Gelu: no UB is left above the TPipe's buffers"));
}

TEST(AdvActivation, HostTmpSizes) {
  uint32_t mx = 1, mn = 1;
  AscendC::GetGeluMaxMinTmpSize(ge::Shape({1000}), 2, mx, mn);
  EXPECT_EQ(mn, 768u);
  EXPECT_EQ(mx, 12000u);
  AscendC::GetGeluMaxMinTmpSize(ge::Shape({16}), 4, mx, mn);
  EXPECT_EQ(mx, 768u);
  EXPECT_EQ(AscendC::GetGeluMinTmpSize(ge::Shape({7}), 4), 768u);
  EXPECT_EQ(AscendC::GetGeluMaxTmpSize(ge::Shape({100}), 4), 1200u);
  AscendC::GetSiluTmpSize(ge::Shape({100}), 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  mx = mn = 1;
  AscendC::GetSwishTmpSize(ge::Shape({100}), 2, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  testing::internal::CaptureStderr();
  AscendC::GetGeluMaxMinTmpSize(ge::Shape({0}), 8, mx, mn);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, HasSubstr("[GetGeluMaxTmpSize] Input shape size should be greater than 0!"));
  EXPECT_THAT(err, HasSubstr("[GetGeluMinTmpSize] Type size 8 is unsupported!"));
  // Every size from the minimum up works in the kernel (pieces of whole 32 elements).
  CoreFixture fx(96 * 1024);
  auto s = fx.Take<half>(1000), d = fx.Take<half>(1000);
  AscendC::GetGeluMaxMinTmpSize(ge::Shape({1000}), 2, mx, mn);
  auto t_max = fx.Take<uint8_t>(mx), t_min = fx.Take<uint8_t>(mn);
  Put(s, RandomVector<half>(1000, -3, 3, 4));
  AscendC::FasterGeluV2<half, true>(d, s, t_max, 1000);
  EXPECT_LE(Err(d.GetValue(999), FasterGeluV2Ref(float(s.GetValue(999))), 1e-4), 1);
  AscendC::FasterGeluV2<half, true>(d, s, t_min, 1000);
  EXPECT_LE(Err(d.GetValue(999), FasterGeluV2Ref(float(s.GetValue(999))), 1e-4), 1);
}

}  // namespace
