// SoftmaxGrad and SoftmaxGradFront (ascsim/adv/softmax_grad.h): float64 references of the docs'
// formula, both dtypes, odd row counts and padded (oriSrcK < k) rows, dst sharing src, the
// stack forms, tiling-only shapes, and every error path.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

// The docs' softmax_grad: s = sum(grad * src) over the first ori_k columns of a row; isFront
// returns s, else (grad - s) * src over all k columns.
std::vector<double> SoftmaxGradRef(const std::vector<double>& g, const std::vector<double>& y,
                                   uint32_t m, uint32_t k, uint32_t ori_k, bool front) {
  std::vector<double> out(front ? m : uint64_t{m} * k);
  for (uint32_t r = 0; r < m; ++r) {
    double s = 0;
    for (uint32_t c = 0; c < ori_k; ++c) s += g[r * k + c] * y[r * k + c];
    if (front) {
      out[r] = s;
      continue;
    }
    for (uint32_t c = 0; c < k; ++c) out[r * k + c] = (g[r * k + c] - s) * y[r * k + c];
  }
  return out;
}

template <class T>
std::vector<double> AsDouble(const std::vector<T>& v) {
  std::vector<double> d(v.size());
  for (size_t i = 0; i < v.size(); ++i) d[i] = double(float(v[i]));
  return d;
}

// Minimum temporary bytes (GetSoftMaxGradMinTmpSize, A2/A3).
uint32_t MinTmp(uint32_t k, bool half, bool front) {
  const uint32_t blk = half ? 16 : 8;
  return 4 * (half ? blk * 2 + k * 3 + 64 : (front ? blk + k + 64 : blk * 2 + k + 64));
}

template <class T>
void CheckGrad(uint32_t m, uint32_t k, uint32_t ori_k, bool front, bool in_place, bool stack,
               double bound) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " m=" + std::to_string(m) +
               " k=" + std::to_string(k) + " ori_k=" + std::to_string(ori_k) +
               (front ? " front" : "") + (in_place ? " in-place" : "") + (stack ? " stack" : ""));
  CoreFixture fx(stack ? 64 * 1024 : 192 * 1024);  // the stack form uses the UB above
  const uint32_t n = m * k, blk = 32 / sizeof(T);
  auto grad = fx.Take<T>(n), src = fx.Take<T>(n);
  auto dst = in_place ? src : fx.Take<T>(front ? m * blk : n);
  auto tmp = fx.Take<uint8_t>(MinTmp(k, sizeof(T) == 2, front));
  const auto g = RandomVector<T>(n, -1, 1, n + k), y = RandomVector<T>(n, 0, 1, n + 7);
  Fill(grad, g);
  Fill(src, y);
  AscendC::SoftMaxTiling tiling;
  tiling.srcM = m;
  tiling.srcK = k;
  const AscendC::SoftMaxShapeInfo info{m, k, m, ori_k};
  if (stack) {
    AscendC::SoftmaxGrad<T>(dst, grad, src, tiling, front, info);
  } else {
    AscendC::SoftmaxGrad<T>(dst, grad, src, tmp, tiling, front, info);
  }
  const auto want = SoftmaxGradRef(AsDouble(g), AsDouble(y), m, k, ori_k, front);
  double worst = 0;
  for (uint32_t r = 0; r < m; ++r) {
    if (front) {
      for (uint32_t j = 0; j < blk; ++j) {
        worst = std::max(worst, std::fabs(double(float(dst.GetValue(r * blk + j))) - want[r]));
      }
    } else {
      for (uint32_t c = 0; c < k; ++c) {
        worst =
            std::max(worst, std::fabs(double(float(dst.GetValue(r * k + c))) - want[r * k + c]));
      }
    }
  }
  EXPECT_LE(worst, bound);
}

TEST(AdvSoftmaxGrad, MatchesFloat64Reference) {
  CheckGrad<float>(5, 72, 72, false, false, false, 1e-5);
  CheckGrad<float>(3, 40, 33, false, false, false, 1e-5);  // padded rows
  CheckGrad<float>(1, 8, 8, false, false, false, 1e-6);
  CheckGrad<half>(7, 48, 48, false, false, false, 2e-2);
  CheckGrad<half>(3, 32, 17, false, false, false, 2e-2);
}

TEST(AdvSoftmaxGrad, IsFrontWritesTheRowSumPerBlock) {
  CheckGrad<float>(5, 72, 72, true, false, false, 1e-5);
  CheckGrad<float>(3, 40, 31, true, false, false, 1e-5);
  CheckGrad<half>(7, 48, 45, true, false, false, 2e-2);
}

TEST(AdvSoftmaxGrad, DstMayShareSrcAndStackForm) {
  CheckGrad<float>(4, 64, 64, false, true, false, 1e-5);
  CheckGrad<half>(3, 32, 32, false, true, false, 2e-2);
  CheckGrad<float>(3, 24, 24, false, false, true, 1e-5);
  CheckGrad<half>(2, 16, 16, true, false, true, 2e-2);
}

TEST(AdvSoftmaxGrad, LongRowsReduceInPieces) {
  // 5000 floats > 4096: the row sum is taken in two reductions with 64 floats of work area.
  CheckGrad<float>(1, 5000, 4999, false, false, false, 1e-3);
}

TEST(AdvSoftmaxGrad, ShapeFromTilingWhenInfoUnset) {
  CoreFixture fx;
  auto g = fx.Take<float>(16), y = fx.Take<float>(16), d = fx.Take<float>(16);
  auto tmp = fx.Take<uint8_t>(MinTmp(8, false, false));
  for (uint32_t i = 0; i < 16; ++i) {
    g.SetValue(i, float(i % 8) / 8);
    y.SetValue(i, 0.5f);
  }
  AscendC::SoftMaxTiling tiling;
  tiling.srcM = 2;
  tiling.srcK = 8;
  AscendC::SoftmaxGradFront<float>(d, g, y, tmp, tiling);
  // sum over c of (c / 8) * 0.5 = 0.5 * 28 / 8
  EXPECT_FLOAT_EQ(d.GetValue(0), 1.75f);
  EXPECT_FLOAT_EQ(d.GetValue(15), 1.75f);
  AscendC::SoftmaxGradFront<float>(d, g, y, tiling);  // stack form
  EXPECT_FLOAT_EQ(d.GetValue(8), 1.75f);
}

TEST(AdvSoftmaxGrad, Errors) {
  CoreFixture fx;
  auto g = fx.Take<float>(64), y = fx.Take<float>(64), d = fx.Take<float>(64);
  auto small = fx.Take<uint8_t>(256), tmp = fx.Take<uint8_t>(1024);
  AscendC::SoftMaxTiling tiling;
  AscendC::SoftMaxShapeInfo info{2, 32, 2, 32};
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxGrad<float>(d, g, y, small, tiling, false, info); }),
              HasSubstr("SoftmaxGrad: sharedTmpBuffer holds 256 B, less than the 416 B"));
  info = {2, 12, 2, 12};  // 48 B rows
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxGrad<float>(d, g, y, tmp, tiling, false, info); }),
              HasSubstr("SoftmaxGrad: shape [2, 12] (original k 12) needs m, k >= 1, k * "
                        "sizeof(T) a multiple of 32 B and original k <= k"));
  info = {2, 32, 2, 40};
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxGrad<float>(d, g, y, tmp, tiling, false, info); }),
              HasSubstr("original k 40"));
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxGrad<float>(d, g, y, tmp, tiling); }),
              HasSubstr("SoftmaxGrad: shape [0, 0]"));
  info = {4, 32, 4, 32};  // 128 elements, the tensors hold 64
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxGrad<float>(d, g, y, tmp, tiling, false, info); }),
              HasSubstr("SoftmaxGrad: calCount 128 exceeds"));
  info = {2, 32, 2, 32};
  auto d8 = fx.Take<float>(8);
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftmaxGradFront<float>(d8, g, y, tmp, tiling, info); }),
              HasSubstr("SoftmaxGradFront: dstTensor holds 8 elements; 16 needed (isFront: one "
                        "32 B block per row)"));
  EXPECT_THAT(
      ErrorOf([&] { AscendC::SoftmaxGrad<float, false, true>(d, g, y, tmp, tiling, false, info); }),
      HasSubstr("SoftmaxGrad: isDataFormatNZ = true (NZ layout) is not simulated"));
  const auto overlap = tmp.ReinterpretCast<float>();
  EXPECT_THAT(
      ErrorOf([&] { AscendC::SoftmaxGrad<float>(overlap, g, y, tmp, tiling, false, info); }),
      HasSubstr("SoftmaxGrad"));
}

}  // namespace

namespace {

template <class T1, class T2, uint8_t step_mode>
void CheckAdjust(uint32_t m, uint32_t k) {
  SCOPED_TRACE(std::string(sizeof(T1) == 2 ? "half" : "float") + " res, " +
               (sizeof(T2) == 2 ? "half" : "float") + " max, step mode " +
               std::to_string(step_mode) + " m=" + std::to_string(m));
  CoreFixture fx;
  const uint32_t step = step_mode == 0 ? 32 / sizeof(T2) : 1;
  auto res = fx.Take<T1>(m * k), mx = fx.Take<T2>(m * step);
  const auto x = RandomVector<T1>(m * k, 0, 1, m * k);
  Fill(res, x);
  const T2 from = T2(-3.5f);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t j = 0; j < step; ++j) mx.SetValue(r * step + j, r % 3 == 1 ? from : T2(float(r)));
  }
  uint32_t from_bits = 0;
  std::memcpy(&from_bits, &from, sizeof(T2));
  const bool got = AscendC::AdjustSoftMaxRes<T1, T2, false, step_mode>(
      res, mx, from_bits, T1(9.0f), AscendC::SoftMaxShapeInfo{m, k, m, k});
  EXPECT_EQ(got, m > 1);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < k; ++c) {
      const float want = r % 3 == 1 ? 9.0f : float(x[r * k + c]);
      ASSERT_EQ(float(res.GetValue(r * k + c)), want) << "row " << r << " col " << c;
    }
  }
}

TEST(AdvAdjustSoftMaxRes, RowsWhoseMaxIsFromBecomeTo) {
  CheckAdjust<float, float, 0>(5, 24);
  CheckAdjust<half, half, 0>(7, 32);
  CheckAdjust<half, float, 1>(4, 16);
  CheckAdjust<float, half, 1>(3, 8);
  CheckAdjust<float, float, 0>(1, 8);  // no row matches
}

TEST(AdvAdjustSoftMaxRes, Errors) {
  CoreFixture fx;
  auto res = fx.Take<float>(64), mx = fx.Take<float>(16);
  EXPECT_THAT(ErrorOf([&] {
                AscendC::AdjustSoftMaxRes<float, float>(res, mx, 0u, 0.0f,
                                                        AscendC::SoftMaxShapeInfo{2, 12, 2, 12});
              }),
              HasSubstr("AdjustSoftMaxRes: shape [2, 12] needs m, k >= 1 and k * sizeof(T1) a "
                        "multiple of 32 B"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::AdjustSoftMaxRes<float, float>(res, mx, 0u, 0.0f,
                                                        AscendC::SoftMaxShapeInfo{4, 16, 4, 16});
              }),
              HasSubstr("AdjustSoftMaxRes: softMaxRes holds 64 elements (64 needed), maxTensor 16 "
                        "(25 needed)"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::AdjustSoftMaxRes<float, float, true>(
                    res, mx, 0u, 0.0f, AscendC::SoftMaxShapeInfo{2, 8, 2, 8});
              }),
              HasSubstr("AdjustSoftMaxRes: isDataFormatNZ = true (NZ layout) is not simulated"));
}

}  // namespace
