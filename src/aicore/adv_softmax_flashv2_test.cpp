// SoftmaxFlashV2 (ascsim/adv/softmax_flashv2.h): one pass and an update pass against float64 (the
// update pass's max and sum are those of the whole row, as FlashAttention-2 needs), the
// production call with dst = src and the in/out max and sum in the same tensors, float, half and
// half with float statistics, the shape from src's ShapeInfo; its errors; the kernel and host
// tiling (tiling/softmax_flashv2_tiling.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "adv_api/activation/softmaxflashv2.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/activation/softmaxflashv2.h"
#include "tiling/tiling_api.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

constexpr AscendC::SoftmaxConfig kNoBrc{true, 0, 0,
                                        AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

// Two column blocks of one [m, 2k] score matrix, as incre_flash_attention feeds them: the first
// pass without update, the second with it (in place: dst = src, in/out statistics shared).
template <class T1, class T2>
void TwoPasses(uint32_t m, uint32_t k, uint32_t ori_k, double tol) {
  SCOPED_TRACE(std::string(sizeof(T1) == 2 ? "half" : "float") + "/" +
               (sizeof(T2) == 2 ? "half" : "float") + " " + std::to_string(m) + "x" +
               std::to_string(k) + " ori " + std::to_string(ori_k));
  constexpr uint32_t blk1 = 32 / sizeof(T1), blk2 = 32 / sizeof(T2);
  CoreFixture fx(160 * 1024);
  auto x = fx.Take<T1>(m * k);
  auto sum = fx.Take<T2>(m * blk2), mx = fx.Take<T2>(m * blk2), em = fx.Take<T1>(m * blk1);
  const uint32_t tmp_bytes =
      AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({m, k}), sizeof(T1), sizeof(T2), true);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  AscendC::SoftMaxTiling tiling;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({m, k}), sizeof(T1), sizeof(T2), tmp_bytes, tiling,
                                    true);
  const AscendC::SoftMaxShapeInfo shape{m, k, m, ori_k};
  const auto a = RandomVector<T1>(m * k, -6, 6, m * k + 1);
  const auto b = RandomVector<T1>(m * k, -3, 9, m * k + 2);  // a larger max in places
  Fill(x, a);
  AscendC::SoftmaxFlashV2<T1, false>(x, sum, mx, x, em, sum, mx, tmp, tiling, shape);
  std::vector<double> y1(m * k);
  for (uint32_t r = 0; r < m; ++r) {
    double big = -1e300, s = 0;
    for (uint32_t j = 0; j < ori_k; ++j) big = std::max(big, double(float(a[r * k + j])));
    for (uint32_t j = 0; j < ori_k; ++j) s += std::exp(double(float(a[r * k + j])) - big);
    for (uint32_t j = 0; j < k; ++j) {
      const double want = std::exp(double(float(a[r * k + j])) - big);
      ASSERT_NEAR(double(float(x.GetValue(r * k + j))), want, tol * std::max(want, 1e-2))
          << r << " " << j;
    }
    ASSERT_EQ(double(float(mx.GetValue(r * blk2 + blk2 - 1))), double(float(T2(big)))) << r;
    ASSERT_NEAR(double(float(sum.GetValue(r * blk2))), s, std::max(tol, 1e-5) * s) << r;
  }
  Fill(x, b);
  AscendC::SoftmaxFlashV2<T1, true>(x, sum, mx, x, em, sum, mx, tmp, tiling, shape);
  for (uint32_t r = 0; r < m; ++r) {
    double m1 = -1e300, m2 = -1e300;
    for (uint32_t j = 0; j < ori_k; ++j) m1 = std::max(m1, double(float(a[r * k + j])));
    for (uint32_t j = 0; j < ori_k; ++j) m2 = std::max(m2, double(float(b[r * k + j])));
    m1 = double(float(T2(m1)));  // the first pass's max as the statistics tensor holds it
    const double big = std::max(m1, m2);
    double s = 0;  // the whole row's sum against the new max
    for (uint32_t j = 0; j < ori_k; ++j) s += std::exp(double(float(a[r * k + j])) - big);
    for (uint32_t j = 0; j < ori_k; ++j) s += std::exp(double(float(b[r * k + j])) - big);
    for (uint32_t j = 0; j < k; ++j) {
      const double want = std::exp(double(float(b[r * k + j])) - big);
      ASSERT_NEAR(double(float(x.GetValue(r * k + j))), want, tol * std::max(want, 1e-2))
          << r << " " << j;
    }
    ASSERT_EQ(double(float(mx.GetValue(r * blk2))), double(float(T2(big)))) << r;
    ASSERT_NEAR(double(float(sum.GetValue(r * blk2))), s, 2 * std::max(tol, 1e-5) * s) << r;
    const double want_em = std::exp(m1 - big);
    ASSERT_NEAR(double(float(em.GetValue(r * blk1))), want_em, tol * want_em + 1e-7) << r;
  }
}

TEST(AdvSoftmaxFlashV2, TwoPassesMatchTheWholeRow) {
  TwoPasses<float, float>(5, 64, 64, 2e-6);
  TwoPasses<float, float>(3, 72, 70, 2e-6);  // the last two columns are padding
  TwoPasses<half, half>(4, 48, 45, 2e-3);
  TwoPasses<half, float>(6, 128, 128, 2e-3);
}

TEST(AdvSoftmaxFlashV2, ShapeFromTheTensorAndTheStack) {
  CoreFixture fx;
  auto x = fx.Take<float>(64), y = fx.Take<float>(64);
  auto sum = fx.Take<float>(16), mx = fx.Take<float>(16), em = fx.Take<float>(16);
  Fill(x, std::vector<float>(64, 1.0f));
  const uint32_t dims[] = {2, 32};
  x.SetShapeInfo(AscendC::ShapeInfo(2, dims));
  AscendC::SoftMaxTiling other;  // the tiling of another shape: the tensor's shape is used
  AscendC::SoftmaxFlashV2<float>(y, sum, mx, x, em, sum, mx, other);  // stack buffer
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(y.GetValue(i), 1.0f) << i;  // e^(1 - 1)
  EXPECT_EQ(sum.GetValue(0), 32.0f);
  EXPECT_EQ(sum.GetValue(15), 32.0f);
  EXPECT_EQ(mx.GetValue(9), 1.0f);
}

TEST(AdvSoftmaxFlashV2, Errors) {
  CoreFixture fx;
  auto x = fx.Take<float>(64), y = fx.Take<float>(64);
  auto sum = fx.Take<float>(16), mx = fx.Take<float>(16), em = fx.Take<float>(16);
  auto tmp = fx.Take<uint8_t>(128);
  AscendC::SoftMaxTiling t;
  const AscendC::SoftMaxShapeInfo shape{2, 32, 2, 32};
  EXPECT_EQ(ErrorOf([&] { AscendC::SoftmaxFlashV2<float>(y, sum, mx, x, em, sum, mx, tmp, t,
                                                         shape); }),
            "test: block 0/1: SoftmaxFlashV2: sharedTmpBuffer holds 128 B, less than the 288 B "
            "one row needs (see its Get...MaxMinTmpSize)");
  auto tmp2 = fx.Take<uint8_t>(288);
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxFlashV2<float>(y, sum, mx, x, em, sum, mx, tmp2, t,
                                                           {4, 12, 4, 12}); }),
              HasSubstr("SoftmaxFlashV2: shape [4, 12] (original k 12) needs m, k >= 1"));
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxFlashV2<float>(y, sum, mx, x, em, sum, mx, tmp2, t,
                                                           {4, 32, 4, 32}); }),
              HasSubstr("SoftmaxFlashV2: calCount 128 exceeds the src (64) or dst (64)"));
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxFlashV2<float, false, false, false, true>(
                                y, sum, mx, x, em, sum, mx, tmp2, t, shape); }),
              HasSubstr("isDataFormatNZ = true (NZ layout) is not simulated"));
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxFlashV2<float, true, false, false, false, kNoBrc>(
                                y, sum, mx, x, em, sum, mx, tmp2, t, shape); }),
              HasSubstr("SOFTMAX_OUTPUT_WITHOUT_BRC is not simulated"));
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxFlashV2<float>(y, mx, sum, mx, x, em, sum, mx, tmp2,
                                                           t, shape); }),
              HasSubstr("the outReduceMax form (SOFTMAX_OUTPUT_WITHOUT_BRC) is not simulated"));
}

TEST(AdvSoftmaxFlashV2, KernelAndHostTiling) {
  // Not a basic block: half 2 * blk + k + 64 floats per row, float blk + 64.
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({8, 64}), 4, 4, true), (8u + 64) * 4);
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({8, 64}), 2, 4, true),
            (16u + 64 + 64) * 4);
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({8, 64}), 2, 2, false),
            (32u + 64 + 64) * 4);
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MaxTmpSize(ge::Shape({6, 64}), 4, 4, true), 6u * 72 * 4);
  // Basic blocks: 8 rows (min), all rows (max), 128 floats of reduction when k = 1024.
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({16, 128}), 4, 4, true, true),
            8u * 72 * 4);
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MaxTmpSize(ge::Shape({16, 128}), 4, 4, true, true),
            16u * 72 * 4);
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({8, 1024}), 2, 4, true, true),
            8u * (8 + 1024 + 128) * 4);
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MaxTmpSize(ge::Shape({64, 512}), 4, 4, true, true),
            16u * 72 * 4);  // m halved while m * k >= 16384: 64 -> 32 -> 16
  testing::internal::CaptureStderr();
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({8, 12}), 4, 4, true), 0u);
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MaxTmpSize(ge::Shape({8, 64}), 8, 4, true), 0u);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, HasSubstr("[GetSoftMaxFlashV2MinTmpSize] the last axis of srcShape must be 32 B "
                             "aligned."));
  EXPECT_THAT(err, HasSubstr("dataTypeSize1 input error"));
  // Rows per pass: 1000 floats / (8 + 64) = 13 rows, rounded down to 8 (of 20).
  AscendC::SoftMaxTiling h;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({20, 64}), 4, 4, 4000, h, true);
  EXPECT_EQ(h.srcM, 20u);
  EXPECT_EQ(h.srcK, 64u);
  EXPECT_EQ(h.splitM, 8u);
  EXPECT_EQ(h.rangeM, 2u);
  EXPECT_EQ(h.tailM, 4u);
  EXPECT_EQ(h.tailSplitSize, 256u);
  EXPECT_EQ(h.outMaxK, 8u);
  constexpr AscendC::SoftMaxTiling k =
      AscendC::SoftMaxFlashV2TilingFunc({20, 64, 20, 64}, 4, 4, 4000, true);
  static_assert(k.splitM == 8 && k.rangeM == 2 && k.tailM == 4, "constexpr, as CANN's");
  EXPECT_EQ(k.reduceSize, 64u);
  const AscendC::SoftMaxTiling kh = AscendC::SoftMaxFlashV2TilingFunc({20, 64, 20, 64}, 2, 4, 4000);
  EXPECT_EQ(kh.splitM, 6u);  // 1000 / (16 + 64 + 64) = 6 rows (not more than 8: kept)
  AscendC::SoftMaxTiling hh;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({20, 64}), 2, 4, 4000, hh, true);
  EXPECT_EQ(hh.splitM, kh.splitM);
}

}  // namespace
