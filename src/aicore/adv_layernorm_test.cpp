// LayerNorm, the [B, S, H] form (ascsim/adv/norm_softmax_quant.h), and its host tiling
// GetLayerNormMaxMinTmpSize / GetLayerNormNDTilingInfo (tiling/normalization_tiling.h): the
// output, mean and variance against a float64 reference in half and float, with the scratch of
// the minimum (one row per piece), of a few rows (pieces and a tail) and of the maximum; the
// padded H (originHLength < storageHLength), isReuseSource, the stack form; the tiling fields
// against asc-devkit's layernorm_tiling_impl.cpp; and every error path.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tiling/normalization_tiling.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

template <class T>
void Put(const AscendC::LocalTensor<T>& t, const std::vector<T>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, v[i]);
}

double D(half v) { return static_cast<float>(v); }
double D(float v) { return v; }

ge::Shape Bsh(int64_t b, int64_t s, int64_t h, int64_t oh) { return ge::Shape({b, s, h, oh}); }

// Runs LayerNorm on [b, s, h] (the first oh of each row real, the rest zero) with `stack` bytes
// of scratch and checks every output against float64.
template <class T, bool reuse = false>
void Check(uint32_t b, uint32_t s, uint32_t h, uint32_t oh, bool min_stack, bool use_stack_form) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " b=" + std::to_string(b) +
               " s=" + std::to_string(s) + " h=" + std::to_string(h) +
               " oh=" + std::to_string(oh) + (min_stack ? " min" : " max") +
               (reuse ? " reuse" : ""));
  const uint32_t rows = b * s, n = rows * h;
  uint32_t mx = 0, mn = 0;
  AscendC::GetLayerNormMaxMinTmpSize(Bsh(b, s, h, oh), sizeof(T), reuse, mx, mn);
  const uint32_t stack = min_stack ? mn : mx;
  AscendC::LayerNormTiling tiling;
  AscendC::GetLayerNormNDTilingInfo(Bsh(b, s, h, oh), stack, sizeof(T), reuse, tiling);
  ASSERT_GT(tiling.oneTmpSize, 0u);
  CoreFixture fx(190 * 1024);
  auto x = fx.Take<T>(n), y = fx.Take<T>(n), gamma = fx.Take<T>(h), beta = fx.Take<T>(h);
  auto mean = fx.Take<T>(rows), var = fx.Take<T>(rows);
  std::vector<T> xs = RandomVector<T>(n, -2, 3, n + h);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = oh; c < h; ++c) xs[r * h + c] = T(0.0f);  // the doc: pad H with zeros
  const auto gs = RandomVector<T>(h, 0.5f, 1.5f, 3), bs = RandomVector<T>(h, -0.5f, 0.5f, 4);
  Put(x, xs);
  Put(gamma, gs);
  Put(beta, bs);
  const T eps = T(1e-5f);
  if (use_stack_form) {
    AscendC::LayerNorm<T, reuse>(y, mean, var, x, gamma, beta, eps, tiling);
  } else {
    auto tmp = fx.Take<uint8_t>(stack);
    AscendC::LayerNorm<T, reuse>(y, mean, var, x, gamma, beta, tmp, eps, tiling);
  }
  // float computes in float throughout (sums of h terms); half rounds x once on the way in and
  // each output once on the way out.
  const double tol = sizeof(T) == 2 ? 8e-3 : 2e-5;
  for (uint32_t r = 0; r < rows; ++r) {
    double m = 0, v = 0;
    for (uint32_t c = 0; c < oh; ++c) m += D(xs[r * h + c]);
    m /= oh;
    for (uint32_t c = 0; c < oh; ++c) v += (D(xs[r * h + c]) - m) * (D(xs[r * h + c]) - m);
    v /= oh;
    ASSERT_NEAR(D(mean.GetValue(r)), m, tol * (1 + std::fabs(m))) << "row " << r;
    ASSERT_NEAR(D(var.GetValue(r)), v, tol * (1 + v)) << "row " << r;
    const double rstd = 1 / std::sqrt(v + D(eps));
    for (uint32_t c = 0; c < h; ++c) {
      const double want = (D(xs[r * h + c]) - m) * rstd * D(gs[c]) + D(bs[c]);
      ASSERT_NEAR(D(y.GetValue(r * h + c)), want, tol * (1 + std::fabs(want)))
          << "row " << r << " col " << c;
    }
  }
}

TEST(AdvLayerNorm, BshHalfAndFloatAgainstFloat64) {
  Check<half>(3, 5, 48, 48, true, false);    // one row per piece
  Check<half>(2, 7, 64, 64, false, false);   // one piece
  Check<float>(3, 5, 40, 40, true, false);
  Check<float>(1, 9, 72, 72, false, false);
  Check<float, true>(2, 3, 24, 24, true, false);  // inputX as the third piece
  Check<half>(1, 3, 32, 29, false, false);        // H padded from 29 to 32
  Check<float>(2, 2, 16, 16, true, true);         // the stack form
}

TEST(AdvLayerNorm, PiecesAndTailFromAMidSizedScratch) {
  // 5 rows of 40 floats in pieces of 2 rows: two rounds and a tail of one row.
  const ge::Shape shape = Bsh(1, 5, 40, 40);
  AscendC::LayerNormTiling t;
  AscendC::GetLayerNormNDTilingInfo(shape, 3 * 80 * 4 + 64, 4, false, t);
  EXPECT_EQ(t.oneTmpSize, 80u);
  EXPECT_EQ(t.loopRound, 2u);
  EXPECT_EQ(t.inputTailSize, 40u);
  EXPECT_EQ(t.meanVarTailSize, 1u);
  EXPECT_EQ(t.meanVarTailPos, 4u);
  CoreFixture fx;
  auto x = fx.Take<float>(200), y = fx.Take<float>(200), g = fx.Take<float>(40),
       b = fx.Take<float>(40), m = fx.Take<float>(5), v = fx.Take<float>(5),
       tmp = fx.Take<float>(3 * 80);
  const auto xs = RandomVector<float>(200, -1, 1, 9);
  Put(x, xs);
  Put(g, std::vector<float>(40, 1.0f));
  Put(b, std::vector<float>(40, 0.0f));
  AscendC::LayerNorm<float>(y, m, v, x, g, b, tmp.ReinterpretCast<uint8_t>(), 0.0f, t);
  EXPECT_EQ(t.bshCurLength, 40u);  // the device leaves the tail's lengths in the tiling
  EXPECT_EQ(t.bsCurLength, 1u);
  for (uint32_t r = 0; r < 5; ++r) {
    double mean = 0;
    for (uint32_t c = 0; c < 40; ++c) mean += xs[r * 40 + c];
    EXPECT_NEAR(m.GetValue(r), mean / 40, 1e-6) << r;
  }
}

TEST(AdvLayerNorm, HostTilingMatchesCann) {
  // asc-devkit's LayerNorm-Tiling.md example shape, half: min = 3 rows of 64 floats + 2 blocks of
  // 32 floats of mean/variance; max = 3 * 2048 floats + the same.
  uint32_t mx = 0, mn = 0;
  AscendC::GetLayerNormMaxMinTmpSize(Bsh(2, 16, 64, 64), 2, false, mx, mn);
  EXPECT_EQ(mn, 3u * 256 + 2 * 128);
  EXPECT_EQ(mx, 3u * 2 * 16 * 64 * 4 + 2 * 128);
  AscendC::GetLayerNormMaxMinTmpSize(Bsh(2, 16, 64, 64), 4, true, mx, mn);
  EXPECT_EQ(mn, 2u * 256 + 2 * 128);
  AscendC::LayerNormTiling t;
  AscendC::GetLayerNormNDTilingInfo(Bsh(2, 16, 64, 60), 1024, 2, false, t);
  EXPECT_EQ(t.bLength, 2u);
  EXPECT_EQ(t.sLength, 16u);
  EXPECT_EQ(t.hLength, 64u);
  EXPECT_EQ(t.originalHLength, 60u);
  EXPECT_EQ(t.inputXSize, 2048u);
  EXPECT_EQ(t.meanVarSize, 32u);
  EXPECT_EQ(t.numberOfTmpBuf, 3u);
  EXPECT_EQ(t.meanTmpTensorSize, 32u);
  EXPECT_EQ(t.varianceTmpTensorPos, 32u);
  EXPECT_EQ(t.tmpBufSize, 256u);
  EXPECT_EQ(t.oneTmpSize, 64u);  // (256 - 64) / 3 = 64, whole rows of 64
  EXPECT_EQ(t.firstTmpStartPos, 64u);
  EXPECT_EQ(t.secondTmpStartPos, 128u);
  EXPECT_EQ(t.thirdTmpStartPos, 192u);
  EXPECT_EQ(t.loopRound, 32u);
  EXPECT_EQ(t.inputTailSize, 0u);
  EXPECT_EQ(t.meanVarRoundSize, 1u);
  EXPECT_FLOAT_EQ(t.lastDimValueBack, 1.0f / 60);
}

TEST(AdvLayerNorm, HostRejectsBadShapesOnStderrAndTooLittleScratch) {
  uint32_t mx = 7, mn = 8;
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({2, 16, 64}), 2, false, mx, mn);
  AscendC::GetLayerNormMaxMinTmpSize(Bsh(2, 16, 64, 64), 8, false, mx, mn);
  AscendC::LayerNormTiling t;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({0, 16, 64, 64}), 4096, 2, false, t);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, HasSubstr("[LayerNorm][GetLayerNormMaxMinTmpSize] The dims of srcShape is 3, "
                             "should be 4 (e.g. [B, S, storageHLength, originHLength])!"));
  EXPECT_THAT(err, HasSubstr("[LayerNorm][GetLayerNormMaxMinTmpSize] Type size 8 is unsupported!"));
  EXPECT_THAT(err, HasSubstr("[LayerNorm][GetLayerNormNDTilingInfo] Input Shape size must be "
                             "greater than 0."));
  EXPECT_EQ(mx, 7u);  // left unset
  EXPECT_EQ(mn, 8u);
  // Less scratch than one row per piece: the tiling stays as it was (CANN returns early).
  AscendC::GetLayerNormNDTilingInfo(Bsh(1, 4, 64, 64), 3 * 64 * 4 - 4, 4, false, t);
  EXPECT_EQ(t.oneTmpSize, 0u);
}

TEST(AdvLayerNorm, KernelErrors) {
  CoreFixture fx;
  auto x = fx.Take<float>(4 * 64), y = fx.Take<float>(4 * 64), g = fx.Take<float>(64),
       b = fx.Take<float>(64), m = fx.Take<float>(8), v = fx.Take<float>(8);
  auto tmp = fx.Take<uint8_t>(4096);
  AscendC::LayerNormTiling empty;
  EXPECT_THAT(ErrorOf([&] { AscendC::LayerNorm<float>(y, m, v, x, g, b, tmp, 0.0f, empty); }),
              HasSubstr("LayerNorm: the LayerNormTiling is not filled in (oneTmpSize 0, "
                        "hLength 0"));
  AscendC::LayerNormTiling t;
  AscendC::GetLayerNormNDTilingInfo(Bsh(1, 4, 64, 64), 4096, 4, false, t);
  EXPECT_THAT(ErrorOf([&] { AscendC::LayerNorm<float>(y, m, v, x, g, b, tmp[3072], 0.0f, t); }),
              HasSubstr("LayerNorm: sharedTmpBuffer holds 1024 B, less than the 3072 B"));
  EXPECT_THAT(ErrorOf([&] { AscendC::LayerNorm<float>(y, m, m, x, g, b, tmp, 0.0f, t); }),
              HasSubstr("LayerNorm: outputMean UB"));
  const AscendC::LocalTensor<float> in_tmp = tmp.ReinterpretCast<float>();
  const std::string overlap =
      ErrorOf([&] { AscendC::LayerNorm<float>(in_tmp, m, v, x, g, b, tmp, 0.0f, t); });
  EXPECT_THAT(overlap, HasSubstr("LayerNorm: sharedTmpBuffer UB [0x"));
  EXPECT_THAT(overlap, HasSubstr(") overlaps output UB [0x"));
  AscendC::LayerNormTiling big;  // 8 rows of 64 for tensors of 4 rows
  AscendC::GetLayerNormNDTilingInfo(Bsh(2, 4, 64, 64), 8192, 4, false, big);
  EXPECT_THAT(ErrorOf([&] { AscendC::LayerNorm<float>(y, m, v, x, g, b, tmp, 0.0f, big); }),
              HasSubstr("LayerNorm: calCount 512 exceeds the src (256) or dst (256) tensor size"));
}

}  // namespace
