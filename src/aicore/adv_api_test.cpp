// The advanced APIs (ascsim/adv/*.h) against float64 references: both dtypes, odd sizes, the
// sharedTmpBuffer and stack-buffer forms, the temporary-buffer contract, and the host tiling
// functions (tiling/*.h) that size it. Error bounds are in units in the last place of the result
// type; each is the device algorithm's (the composition of rounded steps), measured here.
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
// The per-API paths production kernels include (ops-nn): this file's Sign and Erf tests compile
// through them; kernel_utils.h is CANN's basic-API utility header name.
#include "adv_api/math/erf.h"
#include "adv_api/math/kernel_operator_erf_intf.h"
#include "adv_api/math/sign.h"
#include "kernel_utils.h"
#include "lib/math/erf.h"
#include "lib/math/kernel_operator_erf_intf.h"
#include "tiling/adv_math_tiling.h"
#include "tiling/dequant_tiling.h"
#include "tiling/rmsnorm_tiling.h"
#include "tiling/softmax_tiling.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

// Distance of `got` from the exact `ref` in ulps of T at ref (NaN/inf must match exactly).
template <class T>
double Ulps(T got, double ref) {
  const double g = double(float(got));
  if (std::isnan(ref)) return std::isnan(g) ? 0 : 1e9;
  if (std::isinf(ref)) return g == ref ? 0 : 1e9;
  const int digits = std::is_same_v<T, half> ? 11 : 24;
  const int min_exp = std::is_same_v<T, half> ? -14 : -126;
  int e = 0;
  std::frexp(ref == 0 ? 1e-300 : ref, &e);
  const int exp = std::max(e - 1, min_exp);
  const double ulp = std::ldexp(1.0, exp - (digits - 1));
  return std::fabs(g - ref) / ulp;
}

template <class T>
double MaxUlps(const AscendC::LocalTensor<T>& got, const std::vector<double>& ref) {
  double worst = 0;
  for (uint32_t i = 0; i < ref.size(); ++i) worst = std::max(worst, Ulps(got.GetValue(i), ref[i]));
  return worst;
}

template <class T>
std::vector<double> Ref(const std::vector<T>& x, const std::function<double(double)>& f) {
  std::vector<double> r(x.size());
  for (size_t i = 0; i < x.size(); ++i) r[i] = f(double(float(x[i])));
  return r;
}

// ---------------------------------------------------------------- element-wise math

template <class T>
void CheckUnary(
    const char* what, uint32_t n, float lo, float hi, double bound,
    const std::function<double(double)>& ref,
    const std::function<void(const AscendC::LocalTensor<T>&, const AscendC::LocalTensor<T>&,
                             const AscendC::LocalTensor<uint8_t>&, uint32_t)>& with_tmp,
    const std::function<void(const AscendC::LocalTensor<T>&, const AscendC::LocalTensor<T>&,
                             uint32_t)>& stack,
    uint32_t tmp_bytes) {
  SCOPED_TRACE(std::string(what) + (sizeof(T) == 2 ? " half" : " float") +
               " n=" + std::to_string(n));
  CoreFixture fx(96 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto x = RandomVector<T>(n, lo, hi, n * 7 + 1);
  Fill(src, x);
  const auto want = Ref(x, ref);
  with_tmp(dst, src, tmp, n);  // small temporary: many pieces
  EXPECT_LE(MaxUlps(dst, want), bound);
  Fill(dst, std::vector<T>(n, T(0.0f)));
  stack(dst, src, n);  // the free UB above the TPipe's buffers
  EXPECT_LE(MaxUlps(dst, want), bound);
  with_tmp(src, src, tmp, n);  // in place
  EXPECT_LE(MaxUlps(src, want), bound);
}

#define ASCSIM_UNARY_CASE(Api, T, n, lo, hi, bound, ref, tmp)                               \
  CheckUnary<T>(                                                                            \
      #Api, n, lo, hi, bound, ref,                                                          \
      [](const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& s,                \
         const AscendC::LocalTensor<uint8_t>& t, uint32_t c) { AscendC::Api(d, s, t, c); }, \
      [](const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& s, uint32_t c) {  \
        AscendC::Api(d, s, c);                                                              \
      },                                                                                    \
      tmp)

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

TEST(AdvMath, Sigmoid) {
  ASCSIM_UNARY_CASE(Sigmoid, float, 1000, -20, 20, 4, Sigmoid, 256);
  ASCSIM_UNARY_CASE(Sigmoid, float, 7, -3, 3, 4, Sigmoid, 1024);
  ASCSIM_UNARY_CASE(Sigmoid, half, 1001, -8, 8, 3, Sigmoid, 256);
}

TEST(AdvMath, Tanh) {
  // The device's formula (e^2x - 1) / (e^2x + 1) cancels near 0; away from it a few ulps.
  ASCSIM_UNARY_CASE(
      Tanh, float, 999, 0.5f, 8, 8, [](double x) { return std::tanh(x); }, 256);
  ASCSIM_UNARY_CASE(
      Tanh, float, 333, -8, -0.5f, 8, [](double x) { return std::tanh(x); }, 512);
  ASCSIM_UNARY_CASE(
      Tanh, half, 513, -4, 4, 1, [](double x) { return std::tanh(x); }, 1024);
  // Clipped at +-8.8 on the device: tanh saturates to 1 in float there anyway.
  CoreFixture fx;
  auto s = fx.Take<float>(8), d = fx.Take<float>(8);
  Fill(s, std::vector<float>{100.0f, -100.0f, 0.0f, 1e-3f, 9.0f, -9.0f, 8.8f, INFINITY});
  AscendC::Tanh(d, s, 8u);
  EXPECT_EQ(d.GetValue(0), 1.0f);
  EXPECT_EQ(d.GetValue(1), -1.0f);
  EXPECT_EQ(d.GetValue(2), 0.0f);
  EXPECT_NEAR(d.GetValue(3), std::tanh(1e-3), 1e-7);  // cancellation: absolute, not relative
  EXPECT_EQ(d.GetValue(7), 1.0f);
}

TEST(AdvMath, LogFamily) {
  auto ln = [](double x) { return std::log(x); };
  CoreFixture fx;
  for (uint32_t n : {5u, 777u}) {
    auto sf = fx.Take<float>(n), df = fx.Take<float>(n);
    auto sh = fx.Take<half>(n), dh = fx.Take<half>(n);
    auto tmp = fx.Take<uint8_t>(256);
    const auto xf = RandomVector<float>(n, 1e-3f, 1e4f, n);
    const auto xh = RandomVector<half>(n, 1e-2f, 1e3f, n + 1);
    Fill(sf, xf);
    Fill(sh, xh);
    AscendC::Log(df, sf, n);
    EXPECT_LE(MaxUlps(df, Ref(xf, ln)), 2);
    AscendC::Log(dh, sh);
    EXPECT_LE(MaxUlps(dh, Ref(xh, ln)), 1);
    AscendC::Log2(df, sf, n);
    EXPECT_LE(MaxUlps(df, Ref(xf, [](double x) { return std::log2(x); })), 3);
    AscendC::Log2(dh, sh, tmp, n);
    EXPECT_LE(MaxUlps(dh, Ref(xh, [](double x) { return std::log2(x); })), 1);
    AscendC::Log10(df, sf, n);
    EXPECT_LE(MaxUlps(df, Ref(xf, [](double x) { return std::log10(x); })), 3);
  }
}

TEST(AdvMath, SignFloorCeilAreExact) {
  auto sign = [](double x) { return std::isnan(x) ? 0.0 : (x > 0) - (x < 0); };
  ASCSIM_UNARY_CASE(Sign, float, 999, -5, 5, 0, sign, 3 * 256);
  ASCSIM_UNARY_CASE(Sign, half, 300, -5, 5, 0, sign, 4096);
  auto floor = [](double x) { return std::floor(x); };
  auto ceil = [](double x) { return std::ceil(x); };
  ASCSIM_UNARY_CASE(Floor, float, 1001, -1000, 1000, 0, floor, 0 + 32);
  ASCSIM_UNARY_CASE(Floor, half, 1001, -1000, 1000, 0, floor, 512);
  ASCSIM_UNARY_CASE(Ceil, float, 65, -100, 100, 0, ceil, 256);
  ASCSIM_UNARY_CASE(Ceil, half, 129, -100, 100, 0, ceil, 512);
  // Special values: Sign(NaN) = 0 and Sign(+-0) = 0 as the device's comparisons give.
  CoreFixture fx;
  auto s = fx.Take<float>(6), d = fx.Take<float>(6);
  Fill(s, std::vector<float>{NAN, 0.0f, -0.0f, INFINITY, -INFINITY, 1e-40f});
  AscendC::Sign(d, s, 6u);
  const float want[] = {0, 0, 0, 1, -1, 1};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(d.GetValue(i), want[i]) << i;
}

TEST(AdvMath, PowerForms) {
  CoreFixture fx(96 * 1024);
  const uint32_t n = 333;
  auto x = fx.Take<float>(n), y = fx.Take<float>(n), d = fx.Take<float>(n);
  auto tmp = fx.Take<uint8_t>(4096);
  std::vector<float> vx = RandomVector<float>(n, -4, 4, 91), vy(n);
  for (uint32_t i = 0; i < n; ++i)
    vy[i] = i % 3 == 0 ? float(int(i % 7) - 3) : float(i % 11) * 0.37f;
  vx[0] = 1.0f, vy[1] = 0.0f, vx[2] = -2.0f, vy[2] = 3.0f, vx[4] = -2.0f, vy[4] = 0.5f;
  Fill(x, vx);
  Fill(y, vy);
  AscendC::Power(d, x, y, tmp, n);
  double worst = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const double want = std::pow(double(vx[i]), double(vy[i]));
    // e^(y ln|x|): the rounding of ln|x| is amplified by |y ln|x||.
    const double bound = 4 + std::fabs(vy[i] * std::log(std::fabs(double(vx[i])) + 1e-30));
    const double u = Ulps(d.GetValue(i), want);
    worst = std::max(worst, u);
    ASSERT_LE(u, bound) << i << " x=" << vx[i] << " y=" << vy[i];
  }
  EXPECT_EQ(d.GetValue(0), 1.0f);
  EXPECT_EQ(d.GetValue(1), 1.0f);
  EXPECT_FLOAT_EQ(d.GetValue(2), -8.0f);
  EXPECT_TRUE(std::isnan(d.GetValue(4)));
  // Tensor ^ scalar (the production form: beta^step) and scalar ^ tensor, stack buffer.
  AscendC::Power(d, x, 2.0f, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_LE(Ulps(d.GetValue(i), double(vx[i]) * vx[i]), 8) << i;
  AscendC::Power<float, false>(d, 0.9f, y, tmp);
  for (uint32_t i = 0; i < n; ++i) ASSERT_LE(Ulps(d.GetValue(i), std::pow(0.9, vy[i])), 8) << i;
  // half goes through float.
  auto xh = fx.Take<half>(64), dh = fx.Take<half>(64);
  const auto vxh = RandomVector<half>(64, 0.1f, 3, 92);
  Fill(xh, vxh);
  AscendC::Power(dh, xh, half(1.5f), tmp, 64);
  for (uint32_t i = 0; i < 64; ++i)
    ASSERT_LE(Ulps(dh.GetValue(i), std::pow(float(vxh[i]), 1.5)), 1) << i;
}

// int32_t x^y: products wrap modulo 2^32; a negative y gives trunc(1 / x^|y|) (1, -1 or 0) and 0
// where x^|y| is 0.
int32_t PowInt(int32_t x, int32_t y) {
  uint32_t r = 1, b = uint32_t(x);
  for (uint32_t e = y < 0 ? uint32_t(-int64_t(y)) : uint32_t(y); e != 0; e >>= 1, b *= b) {
    if (e & 1) r *= b;
  }
  const int32_t v = int32_t(r);
  if (y >= 0) return v;
  return v == 0 ? 0 : int32_t(std::trunc(1.0f / float(v)));
}

TEST(AdvMath, PowerInt32Forms) {
  CoreFixture fx(96 * 1024);
  const uint32_t n = 333;
  auto x = fx.Take<int32_t>(n), y = fx.Take<int32_t>(n), d = fx.Take<int32_t>(n);
  auto tmp = fx.Take<uint8_t>(4096);  // pieces of 192: two pieces and a tail
  std::vector<int32_t> vx(n), vy(n);
  for (uint32_t i = 0; i < n; ++i) {
    vx[i] = int32_t(i % 11) - 5;
    vy[i] = int32_t(i % 17) - 3;
  }
  vx[0] = 3, vy[0] = 25;           // wraps
  vx[1] = -7, vy[1] = 30;          // wraps, 30 rounds of squaring
  vx[2] = 0, vy[2] = 0;            // 0^0 = 1
  vx[3] = 0, vy[3] = -2;           // 0 for a zero base to a negative power
  vx[5] = -1, vy[5] = -3;          // -1
  vx[6] = 2, vy[6] = 2147483647;   // the largest exponent: 2^k wraps to 0
  Fill(x, vx);
  Fill(y, vy);
  AscendC::Power(d, x, y, tmp, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(d.GetValue(i), PowInt(vx[i], vy[i])) << i << " x=" << vx[i] << " y=" << vy[i];
  }
  // Tensor ^ scalar through the stack (ops-nn foreach_pow_scalar's form) and scalar ^ tensor.
  AscendC::Power<int32_t, false>(d, x, int32_t{3}, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(d.GetValue(i), PowInt(vx[i], 3)) << i;
  AscendC::Power<int32_t, false>(d, int32_t{-2}, y, tmp, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(d.GetValue(i), PowInt(-2, vy[i])) << i;
  // In place: dst may be the base tensor.
  Fill(d, vx);
  AscendC::Power(d, d, y, tmp, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(d.GetValue(i), PowInt(vx[i], vy[i])) << i;
  EXPECT_THAT(ErrorOf([&] { AscendC::Power(d, x, y, tmp[0], n + 1); }),
              HasSubstr("Power: calCount 334 exceeds the src (333) or dst (333) tensor size"));
  auto small = fx.Take<uint8_t>(64);
  EXPECT_THAT(ErrorOf([&] { AscendC::Power(d, x, y, small, n); }),
              HasSubstr("Power: sharedTmpBuffer holds 64 B, less than the"));
}

TEST(AdvMath, TemporaryBufferContract) {
  CoreFixture fx;
  auto s = fx.Take<float>(64), d = fx.Take<float>(64);
  auto small = fx.Take<uint8_t>(128);
  EXPECT_EQ(ErrorOf([&] { AscendC::Sigmoid(d, s, small, 64); }),
            "test: block 0/1: Sigmoid: sharedTmpBuffer holds 128 B, less than the 256 B the API "
            "needs at least (see its Get...MaxMinTmpSize)");
  EXPECT_EQ(ErrorOf([&] { AscendC::Sigmoid(d, s, 65u); }),
            "test: block 0/1: Sigmoid: calCount 65 exceeds the src (64) or dst (64) tensor size");
  auto tmp = fx.Take<uint8_t>(1024);
  EXPECT_NE(ErrorOf([&] { AscendC::Tanh(d, s, tmp[16], 64); }).find("not 32-byte aligned"),
            std::string::npos);
  auto big = fx.Take<uint8_t>(2048);
  const auto inside = big.ReinterpretCast<float>();
  EXPECT_EQ(ErrorOf([&] { AscendC::Sigmoid(inside, s, big, 64); }),
            "test: block 0/1: Sigmoid: sharedTmpBuffer UB [0x680, 0xe80) overlaps dst UB [0x680, "
            "0x780); the temporary buffer must be separate");
  // The stack forms need free UB above the TPipe's buffers.
  CoreFixture full(192 * 1024);
  auto a = full.Take<float>(64), b = full.Take<float>(64);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Sigmoid(b, a, 64u);
            }).find("Sigmoid: no UB is left above the TPipe's buffers (196608 of 196608 B in use)"),
            std::string::npos);
}

TEST(AdvMath, HostTmpSizesFitTheKernels) {
  uint32_t mx = 0, mn = 0;
  AscendC::GetSigmoidMaxMinTmpSize(ge::Shape({1000}), 4, false, mx, mn);
  EXPECT_EQ(mn, 256u);
  EXPECT_EQ(mx, 4000u);
  AscendC::GetTanhMaxMinTmpSize(ge::Shape({8, 16}), 2, false, mx, mn);
  EXPECT_EQ(mn, 1024u);
  EXPECT_EQ(mx, 1024u);
  AscendC::GetSignMaxMinTmpSize(ge::Shape({999}), 4, false, mx, mn);
  EXPECT_EQ(mn, 768u);
  AscendC::GetFloorMaxMinTmpSize(ge::Shape({999}), 4, false, mx, mn);
  EXPECT_EQ(mn, 0u);
  AscendC::GetPowerMaxMinTmpSize(ge::Shape({333}), ge::Shape({333}), false, 4, false, mx, mn);
  // Every size between min and max works (the kernel splits into pieces).
  CoreFixture fx(128 * 1024);
  auto x = fx.Take<float>(333), d = fx.Take<float>(333);
  auto tmp = fx.Take<uint8_t>(mx);
  Fill(x, RandomVector<float>(333, 0.5f, 2, 5));
  AscendC::Power(d, x, 3.0f, tmp[0], 333);
  auto t_min = fx.Take<uint8_t>(mn);
  AscendC::Power(d, x, 3.0f, t_min, 333);
  EXPECT_LE(Ulps(d.GetValue(100), std::pow(double(x.GetValue(100)), 3.0)), 8);
}

// ---------------------------------------------------------------- RmsNorm

template <class T>
void CheckRmsNorm(uint32_t b, uint32_t s, uint32_t h, uint32_t ori_h, uint32_t tmp_bytes,
                  double bound) {
  SCOPED_TRACE(std::to_string(b) + "x" + std::to_string(s) + "x" + std::to_string(h) +
               (sizeof(T) == 2 ? " half" : " float"));
  CoreFixture fx(160 * 1024);
  const uint32_t n = b * s * h;
  auto x = fx.Take<T>(n), y = fx.Take<T>(n), g = fx.Take<T>(h);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto vx = RandomVector<T>(n, -3, 3, n);
  const auto vg = RandomVector<T>(h, 0.5f, 1.5f, h);
  Fill(x, vx);
  Fill(g, vg);
  AscendC::RmsNormTiling tiling;
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(ge::Shape({b, s, h}), ge::Shape({b, s, ori_h}),
                                            tmp_bytes, sizeof(T), tiling));
  const float eps = 1e-5f;
  AscendC::RmsNorm(y, x, g, tmp, T(eps), tiling);
  double worst = 0;
  for (uint32_t r = 0; r < b * s; ++r) {
    double ss = 0;
    for (uint32_t j = 0; j < ori_h; ++j) ss += double(float(vx[r * h + j])) * float(vx[r * h + j]);
    const double rstd = 1.0 / std::sqrt(ss / ori_h + double(float(T(eps))));
    for (uint32_t j = 0; j < ori_h; ++j) {
      worst = std::max(worst, Ulps(y.GetValue(r * h + j),
                                   double(float(vx[r * h + j])) * rstd * double(float(vg[j]))));
    }
  }
  EXPECT_LE(worst, bound);
}

TEST(AdvRmsNorm, MatchesFloat64BothTypesAndPieces) {
  CheckRmsNorm<float>(2, 3, 64, 64, 4096, 8);    // several rows per piece
  CheckRmsNorm<float>(1, 5, 200, 197, 1024, 8);  // padded h, one row per piece (tail)
  CheckRmsNorm<half>(3, 1, 48, 40, 8192, 1);
  CheckRmsNorm<half>(1, 7, 512, 512, 4200, 1);
}

TEST(AdvRmsNorm, TilingAndTmpErrors) {
  AscendC::RmsNormTiling t;
  uint32_t mx = 0, mn = 0;
  ASSERT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({2, 3, 64}), 2, mx, mn));
  EXPECT_EQ(mn, (64u * 2 + 8) * 4);
  EXPECT_EQ(mx, (2u * 3 * 64 * 2 + 16) * 4);
  EXPECT_FALSE(
      AscendC::GetRmsNormTilingInfo(ge::Shape({2, 3, 64}), ge::Shape({2, 3, 64}), mn - 4, 2, t));
  EXPECT_FALSE(AscendC::GetRmsNormTilingInfo(ge::Shape({2, 3, 60}), ge::Shape({2, 3, 60}), mx, 4,
                                             t));  // 60 floats is not 32 B aligned
  CoreFixture fx;
  auto x = fx.Take<float>(384), y = fx.Take<float>(384), g = fx.Take<float>(64);
  auto tmp = fx.Take<uint8_t>(512);
  ASSERT_TRUE(
      AscendC::GetRmsNormTilingInfo(ge::Shape({2, 3, 64}), ge::Shape({2, 3, 64}), 4096, 4, t));
  EXPECT_NE(ErrorOf([&] {
              AscendC::RmsNorm(y, x, g, tmp, 1e-5f, t);
            }).find("RmsNorm: sharedTmpBuffer holds 512 B, less than the"),
            std::string::npos);
  AscendC::RmsNormTiling empty;
  EXPECT_NE(ErrorOf([&] {
              AscendC::RmsNorm(y, x, g, tmp, 1e-5f, empty);
            }).find("the RmsNormTiling is not filled in"),
            std::string::npos);
}

// ---------------------------------------------------------------- SoftMax

template <class T>
void CheckSoftMax(uint32_t m, uint32_t k, uint32_t ori_k, bool with_outputs, double bound) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + (sizeof(T) == 2 ? " half" : " float"));
  CoreFixture fx(160 * 1024);
  auto x = fx.Take<T>(m * k), y = fx.Take<T>(m * k);
  constexpr uint32_t blk = 32 / sizeof(T);
  auto sum = fx.Take<T>(m * blk), mx = fx.Take<T>(m * blk);
  const uint32_t tmp_bytes = AscendC::GetSoftMaxMinTmpSize(ge::Shape({m, k}), sizeof(T), false);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto vx = RandomVector<T>(m * k, -5, 5, m * k);
  Fill(x, vx);
  AscendC::SoftMaxTiling tiling;
  AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), sizeof(T), tmp_bytes, tiling);
  AscendC::SoftMaxShapeInfo info{m, k, m, ori_k};
  if (with_outputs)
    AscendC::SoftMax(y, sum, mx, x, tmp, tiling, info);
  else
    AscendC::SoftMax(y, x, tiling, info);  // stack buffer
  double worst = 0;
  for (uint32_t r = 0; r < m; ++r) {
    double big = -1e300, s = 0;
    for (uint32_t j = 0; j < ori_k; ++j) big = std::max(big, double(float(vx[r * k + j])));
    for (uint32_t j = 0; j < ori_k; ++j) s += std::exp(double(float(vx[r * k + j])) - big);
    for (uint32_t j = 0; j < ori_k; ++j) {
      worst = std::max(
          worst, Ulps(y.GetValue(r * k + j), std::exp(double(float(vx[r * k + j])) - big) / s));
    }
    if (with_outputs) {
      for (uint32_t j = 0; j < blk; ++j) {
        ASSERT_EQ(float(mx.GetValue(r * blk + j)), float(T(big)));
        ASSERT_LE(Ulps(sum.GetValue(r * blk + j), s), bound);
      }
    }
  }
  EXPECT_LE(worst, bound);
}

TEST(AdvSoftMax, RowsMatchFloat64) {
  CheckSoftMax<float>(5, 72, 70, true, 8);
  CheckSoftMax<float>(3, 1024, 1024, false, 16);  // the row sum accumulates over 16 repeats
  CheckSoftMax<half>(7, 48, 45, true, 1);
  CheckSoftMax<half>(2, 256, 256, false, 1);
}

TEST(AdvSoftMax, InPlaceAndErrors) {
  CoreFixture fx;
  auto x = fx.Take<float>(64);
  Fill(x, std::vector<float>(64, 2.0f));
  AscendC::SoftMaxTiling tiling;
  AscendC::SoftMaxTilingFunc(ge::Shape({2, 32}), 4, 4096, tiling);
  EXPECT_EQ(tiling.srcM, 2u);
  EXPECT_EQ(tiling.srcK, 32u);
  EXPECT_EQ(tiling.outMaxK, 8u);
  AscendC::SoftMax(x, x, tiling);  // in place, shape from the tiling
  EXPECT_FLOAT_EQ(x.GetValue(63), 1.0f / 32);
  auto tmp = fx.Take<uint8_t>(64);
  EXPECT_NE(ErrorOf([&] {
              AscendC::SoftMax(x, x, tmp, tiling);
            }).find("SoftMax: sharedTmpBuffer holds 64 B, less than the"),
            std::string::npos);
  AscendC::SoftMaxShapeInfo bad{2, 30, 2, 30};
  EXPECT_NE(ErrorOf([&] {
              AscendC::SoftMax(x, x, tiling, bad);
            }).find("k * sizeof(T) a multiple of 32 B"),
            std::string::npos);
}

// ---------------------------------------------------------------- AscendDequant

TEST(AdvDequant, TensorAndScalarScales) {
  CoreFixture fx;
  const uint32_t m = 3, n = 16, cal = 13;
  auto src = fx.Take<int32_t>(m * n);
  auto scale = fx.Take<float>(n);
  auto dh = fx.Take<half>(m * n);
  auto df = fx.Take<float>(m * n);
  auto tmp = fx.Take<uint8_t>(512);
  const auto vs = RandomVector<int32_t>(m * n, -100000, 100000, 3);
  const auto sc = RandomVector<float>(n, 1e-4f, 1e-2f, 4);
  Fill(src, vs);
  Fill(scale, sc);
  Fill(dh, std::vector<half>(m * n, half(-7.0f)));
  AscendC::AscendDequant(dh, src, scale, tmp, {m, n, cal});
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      const half want = j < cal ? half(float(vs[i * n + j]) * sc[j]) : half(-7.0f);
      ASSERT_EQ(Bits(dh.GetValue(i * n + j)), Bits(want)) << i << "," << j;
    }
  AscendC::AscendDequant(df, src, 0.5f, {m, n, n});  // scalar, stack buffer
  for (uint32_t i = 0; i < m * n; ++i) ASSERT_EQ(df.GetValue(i), float(vs[i]) * 0.5f) << i;
  // {1, n, calCount} with calCount | n is n / calCount rows (DEQUANT_WITH_SINGLE_ROW).
  AscendC::AscendDequant(dh, src, scale, tmp, {1, 48, 16});
  EXPECT_EQ(Bits(dh.GetValue(47)), Bits(half(float(vs[47]) * sc[15])));
  EXPECT_NE(ErrorOf([&] {
              AscendC::AscendDequant(df, src, 0.5f, {1, 12, 4});
            }).find("needs n * 4 a multiple of 32 B"),
            std::string::npos);
}

// ---------------------------------------------------------------- Erf, Broadcast, Sum, Mean

TEST(AdvMath, ErfRationalApproximation) {
  // The device's P/Q approximation is good to a few float ulps inside the clip and saturates
  // at +-erf(3.92) = +-(1 - 6e-9) beyond it.
  auto erf = [](double x) { return std::erf(x); };
  ASCSIM_UNARY_CASE(Erf, float, 999, -3.5f, 3.5f, 16, erf, 3 * 256);
  ASCSIM_UNARY_CASE(Erf, half, 257, -3, 3, 1, erf, 8 * 256);
  CoreFixture fx;
  auto s = fx.Take<float>(4), d = fx.Take<float>(4);
  Fill(s, std::vector<float>{10.0f, -10.0f, 0.0f, 1e-3f});
  AscendC::Erf(d, s, 4u);
  EXPECT_NEAR(d.GetValue(0), 1.0f, 1e-7);
  EXPECT_NEAR(d.GetValue(1), -1.0f, 1e-7);
  EXPECT_EQ(d.GetValue(2), 0.0f);
  EXPECT_NEAR(d.GetValue(3), std::erf(1e-3), 1e-9);
}

TEST(AdvReduce, BroadcastSumMean) {
  CoreFixture fx;
  const uint32_t m = 3, k = 40;
  auto col = fx.Take<float>(8), row = fx.Take<float>(k), out = fx.Take<float>(m * k);
  auto tmp = fx.Take<uint8_t>(1024);
  Fill(col, std::vector<float>{1, 2, 3, 0, 0, 0, 0, 0});
  std::vector<float> vr(k);
  for (uint32_t j = 0; j < k; ++j) vr[j] = float(j) - 0.5f;
  Fill(row, vr);
  const uint32_t dst2[2] = {m, k}, srcCol[2] = {m, 1}, srcRow[2] = {1, k};
  AscendC::Broadcast<float, 2, 1>(out, col, dst2, srcCol, tmp);
  for (uint32_t i = 0; i < m * k; ++i) ASSERT_EQ(out.GetValue(i), float(i / k + 1)) << i;
  AscendC::Broadcast<float, 2, 0>(out, row, dst2, srcRow);
  for (uint32_t i = 0; i < m * k; ++i) ASSERT_EQ(out.GetValue(i), vr[i % k]) << i;
  const uint32_t dst1[1] = {k}, src1[1] = {1};
  AscendC::Broadcast<float, 1, 0>(row, col, dst1, src1);
  EXPECT_EQ(row.GetValue(k - 1), 1.0f);
  const uint32_t bad[2] = {2, 1};
  EXPECT_NE(ErrorOf([&] {
              AscendC::Broadcast<float, 2, 1>(out, col, dst2, bad, tmp);
            }).find("does not broadcast to [3, 40]"),
            std::string::npos);
  // Sum / Mean of the first n of each row, rows `inner` apart.
  const uint32_t n = 37, inner = 40;
  auto x = fx.Take<float>(m * inner), r = fx.Take<float>(8);
  const auto vx = RandomVector<float>(m * inner, -2, 2, 77);
  Fill(x, vx);
  AscendC::SumParams sp{m, inner, n};
  AscendC::Sum(r, x, tmp, sp);
  for (uint32_t i = 0; i < m; ++i) {
    double want = 0;
    for (uint32_t j = 0; j < n; ++j) want += vx[i * inner + j];
    EXPECT_NEAR(r.GetValue(i), want, 1e-5) << i;
  }
  AscendC::MeanParams mp{m, inner, n};
  AscendC::Mean(r, x, tmp, mp);
  for (uint32_t i = 0; i < m; ++i) {
    double want = 0;
    for (uint32_t j = 0; j < n; ++j) want += vx[i * inner + j];
    EXPECT_NEAR(r.GetValue(i), want / n, 1e-6) << i;
  }
  auto xh = fx.Take<half>(2 * 48), rh = fx.Take<half>(16);
  const auto vh = RandomVector<half>(96, -2, 2, 78);
  Fill(xh, vh);
  AscendC::Mean(rh, xh, tmp, AscendC::MeanParams{2, 48, 45});
  double want = 0;
  for (uint32_t j = 0; j < 45; ++j) want += float(vh[48 + j]);
  EXPECT_LE(Ulps(rh.GetValue(1), want / 45), 1);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Sum(r, x, tmp, AscendC::SumParams{m, 37, 37});
            }).find("inner 37 must be n 37 rounded up to 32 B (40)"),
            std::string::npos);
}

}  // namespace
