// Round, Trunc and Frac (ascsim/adv/math_round.h) against float64 references (std::nearbyint in
// round-half-to-even, std::trunc, x - trunc(x): each result is exact in its type), both dtypes,
// odd sizes, the sharedTmpBuffer and stack forms with pieces, in place where the docs allow it,
// every error path, and the host sizes of tiling/adv_math_tiling.h.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tiling/adv_math_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;

enum class Op { kRound, kTrunc, kFrac };

double Reference(Op op, double x) {
  switch (op) {
    case Op::kRound:
      return std::nearbyint(x);  // the default mode: ties to even
    case Op::kTrunc:
      return std::trunc(x);
    case Op::kFrac:
      return x - std::trunc(x);
  }
  return 0;
}

template <class T>
void Run(Op op, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& s,
         const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n) {
  switch (op) {
    case Op::kRound:
      tmp ? AscendC::Round(d, s, *tmp, n) : AscendC::Round(d, s, n);
      break;
    case Op::kTrunc:
      tmp ? AscendC::Trunc(d, s, *tmp, n) : AscendC::Trunc(d, s, n);
      break;
    case Op::kFrac:
      tmp ? AscendC::Frac(d, s, *tmp, n) : AscendC::Frac(d, s, n);
      break;
  }
}

// Values with halves (ties), negatives, values past 2^23 (float) / 2^10 (half) that are already
// whole, and zeros of both signs.
template <class T>
std::vector<T> Inputs(uint32_t n, uint32_t seed) {
  std::vector<T> v = RandomVector<T>(n, -300.0f, 300.0f, seed);
  const float special[] = {0.5f,  1.5f, 2.5f,    -0.5f,       -2.5f,     3.5f, -3.4f,
                           -0.0f, 0.0f, 1024.5f, -258.41888f, 5592.625f, 3.9f, -3.9f};
  for (uint32_t i = 0; i < n && i < sizeof(special) / sizeof(float); ++i) v[i] = T(special[i]);
  if constexpr (sizeof(T) == 4) {
    if (n > 20) v[20] = 16777215.0f;
    if (n > 21) v[21] = -8388609.0f;
  } else {
    if (n > 20) v[20] = T(65504.0f);
    if (n > 21) v[21] = T(-2049.0f);
  }
  return v;
}

template <class T>
void Check(Op op, const char* what, uint32_t n, uint32_t tmp_bytes) {
  SCOPED_TRACE(std::string(what) + (sizeof(T) == 2 ? " half" : " float") +
               " n=" + std::to_string(n) + " tmp=" + std::to_string(tmp_bytes));
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  CoreFixture fx(96 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const std::vector<T> x = Inputs<T>(n, n * 3 + 7);
  for (uint32_t i = 0; i < n; ++i) src.SetValue(i, x[i]);
  auto expect = [&](const AscendC::LocalTensor<T>& got) {
    for (uint32_t i = 0; i < n; ++i) {
      const double want = Reference(op, double(float(x[i])));
      ASSERT_EQ(double(float(got.GetValue(i))), want) << i << ": x=" << float(x[i]);
      ASSERT_EQ(std::signbit(float(got.GetValue(i))), std::signbit(want)) << i;
    }
  };
  Run(op, dst, src, &tmp, n);  // a small temporary: many pieces
  expect(dst);
  for (uint32_t i = 0; i < n; ++i) dst.SetValue(i, T(0.0f));
  Run<T>(op, dst, src, nullptr, n);  // the UB above the TPipe's buffers
  expect(dst);
  if (op != Op::kFrac) {  // Round and Trunc may work in place; Frac may not (its constraint)
    Run(op, src, src, &tmp, n);
    expect(src);
  }
}

TEST(AdvMathRound, RoundIsRintBothDtypes) {
  Check<float>(Op::kRound, "Round", 1001, 0);
  Check<float>(Op::kRound, "Round", 7, 64);
  Check<half>(Op::kRound, "Round", 1001, 256);
  Check<half>(Op::kRound, "Round", 23, 4096);
}

TEST(AdvMathRound, TruncTowardZeroBothDtypes) {
  Check<float>(Op::kTrunc, "Trunc", 999, 256);
  Check<float>(Op::kTrunc, "Trunc", 33, 1024);
  Check<half>(Op::kTrunc, "Trunc", 1025, 512);
  Check<half>(Op::kTrunc, "Trunc", 22, 640);
}

TEST(AdvMathRound, FracBothDtypes) {
  Check<float>(Op::kFrac, "Frac", 777, 0);
  Check<float>(Op::kFrac, "Frac", 22, 32);
  Check<half>(Op::kFrac, "Frac", 1003, 1024);
  Check<half>(Op::kFrac, "Frac", 31, 2048);
}

// The forms without calCount take the whole source.
TEST(AdvMathRound, WholeTensorForms) {
  CoreFixture fx;
  auto s = fx.Take<half>(40), d = fx.Take<half>(40);
  auto tmp = fx.Take<uint8_t>(1024);
  for (uint32_t i = 0; i < 40; ++i) s.SetValue(i, half(float(i) * 0.75f - 15.0f));
  AscendC::Frac(d, s, tmp);
  for (uint32_t i = 0; i < 40; ++i) {
    const double x = double(i) * 0.75 - 15.0;
    EXPECT_EQ(float(d.GetValue(i)), x - std::trunc(x)) << i;
  }
  AscendC::Round(d, s);
  for (uint32_t i = 0; i < 40; ++i)
    EXPECT_EQ(float(d.GetValue(i)), std::nearbyint(double(i) * 0.75 - 15.0)) << i;
  AscendC::Trunc(d, s, tmp);
  for (uint32_t i = 0; i < 40; ++i)
    EXPECT_EQ(float(d.GetValue(i)), std::trunc(double(i) * 0.75 - 15.0)) << i;
}

#define EXPECT_HAS(msg, text) EXPECT_NE((msg).find(text), std::string::npos) << (msg)

TEST(AdvMathRound, Misuse) {
  CoreFixture fx;
  auto s = fx.Take<half>(64), d = fx.Take<half>(64);
  auto sf = fx.Take<float>(64), df = fx.Take<float>(64);
  auto small = fx.Take<uint8_t>(224);
  auto tmp = fx.Take<uint8_t>(1024);
  EXPECT_HAS(ErrorOf([&] { AscendC::Round(d, s, small, 64); }),
             "Round: sharedTmpBuffer holds 224 B, less than the 256 B the API needs at least");
  EXPECT_HAS(ErrorOf([&] { AscendC::Trunc(df, sf, small, 64); }),
             "Trunc: sharedTmpBuffer holds 224 B, less than the 256 B");
  EXPECT_HAS(ErrorOf([&] { AscendC::Frac(d, s, tmp[256], 64); }),
             "Frac: sharedTmpBuffer holds 768 B, less than the 1024 B");
  AscendC::Trunc(d, s, tmp[512], 64);  // 512 B is half's minimum: enough
  AscendC::Frac(df, sf, 64);           // float Frac needs no temporary space at all
  EXPECT_HAS(ErrorOf([&] { AscendC::Frac(df, df[8], 32); }), "Frac: srcTensor [");
  EXPECT_HAS(ErrorOf([&] { AscendC::Frac(d, d, tmp, 64); }),
             "overlap; Frac does not support overlapping source and destination");
  EXPECT_HAS(ErrorOf([&] { AscendC::Round(df, sf, 65); }), "Round");
  auto wide = fx.Take<half>(512);
  EXPECT_HAS(ErrorOf([&] { AscendC::Trunc(d, wide, wide.ReinterpretCast<uint8_t>(), 64); }),
             "Trunc: sharedTmpBuffer UB");
}

TEST(AdvMathRound, HostTmpSizes) {
  uint32_t mx = 0, mn = 0, live = 0, extra = 9;
  auto* a2 = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  auto* v200 = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend310P3");
  AscendC::GetRoundMaxMinTmpSize(*a2, ge::Shape({999}), 4, false, mx, mn);
  EXPECT_EQ(mx, 0u);
  EXPECT_EQ(mn, 0u);
  AscendC::GetRoundMaxMinTmpSize(*a2, ge::Shape({999}), 2, false, mx, mn);
  EXPECT_EQ(mx, 1998u);
  EXPECT_EQ(mn, 256u);
  AscendC::GetRoundMaxMinTmpSize(*v200, ge::Shape({999}), 2, false, mx, mn);
  EXPECT_EQ(mx, 2 * 1998u);
  EXPECT_EQ(mn, 512u);
  AscendC::GetRoundTmpBufferFactorSize(*v200, 4, live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetTruncMaxMinTmpSize(ge::Shape({10}), 4, false, mx, mn);
  EXPECT_EQ(mx, 256u);
  EXPECT_EQ(mn, 256u);
  AscendC::GetTruncMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  EXPECT_EQ(mx, 4000u);
  EXPECT_EQ(mn, 512u);
  AscendC::GetTruncTmpBufferFactorSize(2, live, extra);
  EXPECT_EQ(live, 2u);
  AscendC::GetFracMaxMinTmpSize(ge::Shape({1000}), 4, false, mx, mn);
  EXPECT_EQ(mx, 0u);
  EXPECT_EQ(mn, 0u);
  AscendC::GetFracMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  EXPECT_EQ(mx, 8000u);
  EXPECT_EQ(mn, 1024u);
  AscendC::GetFracTmpBufferFactorSize(2, live, extra);
  EXPECT_EQ(live, 4u);
  // The sizes the host computes work in the kernel: min and max, half.
  CoreFixture fx;
  auto s = fx.Take<half>(1000), d = fx.Take<half>(1000);
  AscendC::GetFracMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  auto tmax = fx.Take<uint8_t>(mx), tmin = fx.Take<uint8_t>(mn);
  for (uint32_t i = 0; i < 1000; ++i) s.SetValue(i, half(float(i) / 7.0f));
  AscendC::Frac(d, s, tmax, 1000);
  const uint64_t a = Bits(d.GetValue(999));
  AscendC::Frac(d, s, tmin, 1000);
  EXPECT_EQ(Bits(d.GetValue(999)), a);
}

}  // namespace
