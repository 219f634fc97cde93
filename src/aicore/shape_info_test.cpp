// ShapeInfo carried by tensors (LocalTensor / GlobalTensor SetShapeInfo, GetShapeInfo;
// ascsim/aicore/shape_info.h): what copies, sub-views and ReinterpretCast keep, the constructor's
// dimension check, and the softmax APIs taking [m, k] from the src tensor's shape when their
// SoftMaxShapeInfo is zero (asc-devkit softmax_base_impl.h, softmax_grad_base_impl.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tiling/softmax_tiling.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using AscendC::DataFormat;
using AscendC::ShapeInfo;
using ::testing::HasSubstr;

void ExpectShape(const ShapeInfo& s, std::vector<uint32_t> dims, std::vector<uint32_t> ori,
                 DataFormat format) {
  ASSERT_EQ(s.shapeDim, dims.size());
  ASSERT_EQ(s.originalShapeDim, ori.size());
  for (size_t i = 0; i < dims.size(); ++i) EXPECT_EQ(s.shape[i], dims[i]) << i;
  for (size_t i = 0; i < ori.size(); ++i) EXPECT_EQ(s.originalShape[i], ori[i]) << i;
  EXPECT_EQ(s.dataFormat, format);
}

template <class T>
void LocalRoundTrip() {
  CoreFixture fx;
  AscendC::LocalTensor<T> t = fx.Take<T>(96);
  ExpectShape(t.GetShapeInfo(), {}, {}, DataFormat::ND);  // never set: no dims
  const uint32_t dims[] = {3, 32}, ori[] = {3, 29};
  t.SetShapeInfo(ShapeInfo(2, dims, 2, ori, DataFormat::NZ));
  ExpectShape(t.GetShapeInfo(), {3, 32}, {3, 29}, DataFormat::NZ);
  const AscendC::LocalTensor<T> copy = t;
  ExpectShape(copy.GetShapeInfo(), {3, 32}, {3, 29}, DataFormat::NZ);
  ExpectShape(t[32].GetShapeInfo(), {3, 32}, {3, 29}, DataFormat::NZ);
  ExpectShape(t.template ReinterpretCast<uint8_t>().GetShapeInfo(), {}, {}, DataFormat::ND);
  AscendC::LocalTensor<T> other = fx.Take<T>(16);
  other = t;  // assignment carries it too
  ExpectShape(other.GetShapeInfo(), {3, 32}, {3, 29}, DataFormat::NZ);
  // Setting the copy's shape leaves the original's: the shape is a value, not shared.
  const uint32_t one[] = {96};
  other.SetShapeInfo(ShapeInfo(1, one));
  ExpectShape(other.GetShapeInfo(), {96}, {96}, DataFormat::ND);
  ExpectShape(t.GetShapeInfo(), {3, 32}, {3, 29}, DataFormat::NZ);
  // The shape is only a description: the tensor's size does not change.
  EXPECT_EQ(t.GetSize(), 96u);
  EXPECT_EQ(AscendC::GetShapeSize(t.GetShapeInfo()), 96);
}

TEST(ShapeInfo, LocalTensorCarriesItBothDtypes) {
  LocalRoundTrip<float>();
  LocalRoundTrip<half>();
}

TEST(ShapeInfo, GlobalTensorCarriesIt) {
  std::vector<float> host(40);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(host.data(), 40);
  ExpectShape(g.GetShapeInfo(), {}, {}, DataFormat::ND);
  const uint32_t dims[] = {2, 4, 5};
  g.SetShapeInfo(ShapeInfo(3, dims, DataFormat::NCHW));
  ExpectShape(g.GetShapeInfo(), {2, 4, 5}, {2, 4, 5}, DataFormat::NCHW);
  ExpectShape(g[8].GetShapeInfo(), {2, 4, 5}, {2, 4, 5}, DataFormat::NCHW);
  AscendC::GlobalTensor<half> h;
  const uint32_t one[] = {7};
  h.SetShapeInfo(ShapeInfo(1, one));
  ExpectShape(h.GetShapeInfo(), {7}, {7}, DataFormat::ND);
}

TEST(ShapeInfo, EightDimsFitNineFault) {
  const uint32_t dims[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const ShapeInfo eight(8, dims);
  ExpectShape(eight, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8}, DataFormat::ND);
  EXPECT_EQ(AscendC::GetShapeSize(eight), 40320);
  EXPECT_THAT(ErrorOf([&] { ShapeInfo s(9, dims); }),
              HasSubstr("ShapeInfo: inputShapeDim is 9, which should be at most 8 "
                        "(K_MAX_SHAPE_DIM)"));
  EXPECT_THAT(ErrorOf([&] { ShapeInfo s(2, dims, 12, dims, DataFormat::ND); }),
              HasSubstr("ShapeInfo: inputOriginalShapeDim is 12, which should be at most 8"));
}

// SoftMax with a zero SoftMaxShapeInfo and a tiling for another shape takes [m, k] and the
// original k from the src tensor's ShapeInfo: the same bits as the explicit SoftMaxShapeInfo run,
// and rows that match float64 over the original columns.
template <class T>
void SoftMaxFromTensorShape(std::vector<uint32_t> dims, uint32_t ori_k) {
  const uint32_t k = dims.back();
  uint32_t m = 1;
  for (size_t i = 0; i + 1 < dims.size(); ++i) m *= dims[i];
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + (sizeof(T) == 2 ? " half" : " float"));
  CoreFixture fx(160 * 1024);
  auto x = fx.Take<T>(m * k), y = fx.Take<T>(m * k), y2 = fx.Take<T>(m * k);
  constexpr uint32_t blk = 32 / sizeof(T);
  auto sum = fx.Take<T>(m * blk), mx = fx.Take<T>(m * blk);
  auto sum2 = fx.Take<T>(m * blk), mx2 = fx.Take<T>(m * blk);
  const uint32_t tmp_bytes = AscendC::GetSoftMaxMinTmpSize(ge::Shape({m, k}), sizeof(T), false);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto vx = RandomVector<T>(m * k, -4, 4, m * k + ori_k);
  Fill(x, vx);
  AscendC::SoftMaxTiling other;  // a tiling for a different shape: the tensor's shape wins
  AscendC::SoftMaxTilingFunc(ge::Shape({1, 64}), sizeof(T), tmp_bytes, other);
  std::vector<uint32_t> ori = dims;
  ori.back() = ori_k;
  x.SetShapeInfo(ShapeInfo(static_cast<uint8_t>(dims.size()), dims.data(),
                           static_cast<uint8_t>(ori.size()), ori.data(), DataFormat::ND));
  AscendC::SoftMax(y, sum, mx, x, tmp, other);
  AscendC::SoftMax(y2, sum2, mx2, x, tmp, other, AscendC::SoftMaxShapeInfo{m, k, m, ori_k});
  for (uint32_t i = 0; i < m * k; ++i) ASSERT_EQ(Bits(y.GetValue(i)), Bits(y2.GetValue(i))) << i;
  for (uint32_t i = 0; i < m * blk; ++i) {
    ASSERT_EQ(Bits(sum.GetValue(i)), Bits(sum2.GetValue(i))) << i;
    ASSERT_EQ(Bits(mx.GetValue(i)), Bits(mx2.GetValue(i))) << i;
  }
  const double tol = sizeof(T) == 2 ? 2e-3 : 2e-6;
  for (uint32_t r = 0; r < m; ++r) {
    double big = -1e300, s = 0;
    for (uint32_t j = 0; j < ori_k; ++j) big = std::max(big, double(float(vx[r * k + j])));
    for (uint32_t j = 0; j < ori_k; ++j) s += std::exp(double(float(vx[r * k + j])) - big);
    for (uint32_t j = 0; j < ori_k; ++j) {
      const double ref = std::exp(double(float(vx[r * k + j])) - big) / s;
      ASSERT_NEAR(double(float(y.GetValue(r * k + j))), ref, tol * std::max(ref, 1e-3))
          << r << " " << j;
    }
    ASSERT_EQ(float(mx.GetValue(r * blk)), float(T(big))) << r;
  }
}

TEST(ShapeInfo, SoftMaxTakesTheTensorShape) {
  SoftMaxFromTensorShape<float>({5, 40}, 37);
  SoftMaxFromTensorShape<float>({2, 3, 8}, 8);  // m is the product of the leading dims
  SoftMaxFromTensorShape<half>({3, 48}, 45);
  SoftMaxFromTensorShape<half>({1, 1, 16}, 16);
}

TEST(ShapeInfo, SoftMaxShapeWinsAndErrors) {
  CoreFixture fx;
  auto x = fx.Take<float>(64), y = fx.Take<float>(64);
  Fill(x, std::vector<float>(64, 1.0f));
  AscendC::SoftMaxTiling tiling;
  AscendC::SoftMaxTilingFunc(ge::Shape({2, 32}), 4, 4096, tiling);
  // A tensor shape with a last axis that is not 32 B aligned is refused as any other.
  const uint32_t bad[] = {4, 12};
  x.SetShapeInfo(ShapeInfo(2, bad));
  EXPECT_THAT(ErrorOf([&] { AscendC::SoftMax(y, x, tiling); }),
              HasSubstr("SoftMax: shape [4, 12] (original k 12) needs m, k >= 1"));
  // A set SoftMaxShapeInfo wins over the tensor's shape.
  AscendC::SoftMax(y, x, tiling, AscendC::SoftMaxShapeInfo{2, 32, 2, 32});
  EXPECT_FLOAT_EQ(y.GetValue(63), 1.0f / 32);
  // SoftmaxGrad reads it the same way: a 2 x 32 shape on src gives the tiling-free result.
  const uint32_t dims[] = {2, 32};
  auto grad = fx.Take<float>(64), dst = fx.Take<float>(64), dst2 = fx.Take<float>(64);
  Fill(grad, RandomVector<float>(64, -1, 1, 3));
  Fill(x, RandomVector<float>(64, 0, 1, 4));
  x.SetShapeInfo(ShapeInfo(2, dims));
  AscendC::SoftMaxTiling small;
  AscendC::SoftMaxTilingFunc(ge::Shape({1, 8}), 4, 4096, small);
  AscendC::SoftmaxGrad(dst, grad, x, small, false);
  AscendC::SoftmaxGrad(dst2, grad, x, small, false, AscendC::SoftMaxShapeInfo{2, 32, 2, 32});
  for (uint32_t r = 0; r < 2; ++r) {
    double s = 0;
    for (uint32_t j = 0; j < 32; ++j) s += double(grad.GetValue(r * 32 + j)) * x.GetValue(r * 32 + j);
    for (uint32_t j = 0; j < 32; ++j) {
      const uint32_t i = r * 32 + j;
      ASSERT_EQ(Bits(dst.GetValue(i)), Bits(dst2.GetValue(i))) << i;
      ASSERT_NEAR(dst.GetValue(i), (grad.GetValue(i) - s) * x.GetValue(i), 1e-5) << i;
    }
  }
}

}  // namespace
