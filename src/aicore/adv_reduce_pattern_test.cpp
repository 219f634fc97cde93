// ReduceSum<float, Pattern::Reduce::AR / RA> (ascsim/adv/reduce_pattern.h) against a float64
// scalar reference: row sums and column sums of padded 2-D tensors at odd shapes, with and
// without sharedTmpBuffer, inside a kernel of this file's own; the documented example; the
// error paths (srcInnerPad false, an empty axis, tensors too small, dst overlapping src, a
// temporary buffer too small or overlapping). Other element types are rejected at compile time
// (float only on Atlas A2/A3), so the second type here is the stack form.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;

constexpr uint32_t Pad8(uint32_t n) { return (n + 7) / 8 * 8; }

// src[i][j] for i < rows, j < cols, rows `Pad8(cols)` apart; padding holds a value that must not
// count.
std::vector<float> Matrix(uint32_t rows, uint32_t cols, uint32_t seed) {
  std::vector<float> v(size_t{rows} * Pad8(cols), 1e6f);
  std::vector<float> r = ascsim_test::RandomVector<float>(size_t{rows} * cols, -4.0f, 4.0f, seed);
  for (uint32_t i = 0; i < rows; ++i)
    for (uint32_t j = 0; j < cols; ++j) v[size_t{i} * Pad8(cols) + j] = r[size_t{i} * cols + j];
  return v;
}

template <class Pattern>
std::vector<double> Reference(const std::vector<float>& m, uint32_t rows, uint32_t cols) {
  constexpr bool kAR = std::is_same_v<Pattern, AscendC::Pattern::Reduce::AR>;
  std::vector<double> out(kAR ? rows : cols, 0.0);
  for (uint32_t i = 0; i < rows; ++i)
    for (uint32_t j = 0; j < cols; ++j) out[kAR ? i : j] += m[size_t{i} * Pad8(cols) + j];
  return out;
}

// The kernel: src in, ReduceSum with a caller's temporary buffer or the stack, dst out.
template <class Pattern>
void CheckReduce(uint32_t rows, uint32_t cols, bool with_tmp) {
  constexpr bool kAR = std::is_same_v<Pattern, AscendC::Pattern::Reduce::AR>;
  SCOPED_TRACE(std::string(kAR ? "AR " : "RA ") + std::to_string(rows) + "x" +
               std::to_string(cols) + (with_tmp ? " tmp" : " stack"));
  CoreFixture fx;
  const std::vector<float> m = Matrix(rows, cols, rows * 131 + cols);
  const uint32_t out = kAR ? rows : cols;
  auto src = fx.Take<float>(rows * Pad8(cols));
  auto dst = fx.Take<float>(Pad8(out) + 8);
  for (uint32_t i = 0; i < rows * Pad8(cols); ++i) src.SetValue(i, m[i]);
  for (uint32_t i = 0; i < Pad8(out) + 8; ++i) dst.SetValue(i, -7.0f);
  const uint32_t shape[] = {rows, cols};
  if (with_tmp) {
    const uint64_t bytes = AscendC::ReduceSumPatternTmpBytes(kAR, cols);
    auto tmp = fx.Take<uint8_t>(static_cast<uint32_t>(bytes) + 32);
    AscendC::ReduceSum<float, Pattern, false>(dst, src, tmp, shape, true);
  } else {
    AscendC::ReduceSum<float, Pattern>(dst, src, shape, true);
  }
  const std::vector<double> want = Reference<Pattern>(m, rows, cols);
  for (uint32_t i = 0; i < out; ++i) {
    ASSERT_NEAR(dst.GetValue(i), want[i], 1e-5 * (1 + std::fabs(want[i]) + cols)) << i;
  }
  for (uint32_t i = out; i < Pad8(out) + 8; ++i) ASSERT_EQ(dst.GetValue(i), -7.0f) << i;
}

TEST(ReducePattern, RowSumsAtOddShapes) {
  for (uint32_t rows : {1u, 2u, 3u, 7u}) {
    for (uint32_t cols : {1u, 5u, 8u, 9u, 63u, 64u, 65u, 200u}) {
      CheckReduce<AscendC::Pattern::Reduce::AR>(rows, cols, true);
      CheckReduce<AscendC::Pattern::Reduce::AR>(rows, cols, false);
    }
  }
}

TEST(ReducePattern, ColumnSumsAtOddShapes) {
  for (uint32_t rows : {1u, 2u, 5u, 17u}) {
    for (uint32_t cols : {1u, 7u, 8u, 9u, 65u, 129u}) {
      CheckReduce<AscendC::Pattern::Reduce::RA>(rows, cols, true);
      CheckReduce<AscendC::Pattern::Reduce::RA>(rows, cols, false);
    }
  }
}

// The documented example (ReduceSum-90.md): shape (2, 8), AR -> [13, 9].
TEST(ReducePattern, DocumentedExample) {
  CoreFixture fx;
  const float v[16] = {0, 4, 2, 0, -1, 2, -1, 7, 0, 1, -9, 2, 2, 2, 8, 3};
  auto src = fx.Take<float>(16);
  auto dst = fx.Take<float>(8);
  for (int i = 0; i < 16; ++i) src.SetValue(i, v[i]);
  const uint32_t shape[] = {2, 8};
  AscendC::ReduceSum<float, AscendC::Pattern::Reduce::AR, true>(dst, src, shape, true);
  EXPECT_EQ(dst.GetValue(0), 13.0f);
  EXPECT_EQ(dst.GetValue(1), 9.0f);
  AscendC::ReduceSum<float, AscendC::Pattern::Reduce::RA>(dst, src, shape, true);
  const float cols[8] = {0, 5, -7, 2, 1, 4, 7, 10};
  for (int j = 0; j < 8; ++j) EXPECT_EQ(dst.GetValue(j), cols[j]) << j;
}

TEST(ReducePattern, ErrorPaths) {
  CoreFixture fx;
  auto src = fx.Take<float>(32);
  auto dst = fx.Take<float>(8);
  auto tmp = fx.Take<uint8_t>(64);
  for (int i = 0; i < 32; ++i) src.SetValue(i, 1.0f);
  const char* ar = "test: block 0/1: ReduceSum<float, Pattern::Reduce::AR>: ";
  const char* ra = "test: block 0/1: ReduceSum<float, Pattern::Reduce::RA>: ";
  const uint32_t shape[] = {2, 9};
  EXPECT_EQ(ErrorOf([&] {
              AscendC::ReduceSum<float, AscendC::Pattern::Reduce::AR>(dst, src, shape, false);
            }),
            std::string(ar) +
                "srcInnerPad false is not supported on Atlas A2/A3 (pad src's rows to 32 B and "
                "pass true)");
  const uint32_t empty[] = {3, 0};
  EXPECT_EQ(ErrorOf([&] {
              AscendC::ReduceSum<float, AscendC::Pattern::Reduce::RA>(dst, src, empty, true);
            }),
            std::string(ra) + "srcShape {3, 0} has an empty axis");
  const uint32_t big[] = {3, 9};  // 2 * 16 + 9 = 41 elements > 32
  EXPECT_EQ(ErrorOf([&] {
              AscendC::ReduceSum<float, AscendC::Pattern::Reduce::AR>(dst, src, big, true);
            }),
            std::string(ar) +
                "srcShape {3, 9} needs 41 src and 3 dst elements; the tensors hold 32 and 8");
  const uint32_t wide[] = {1, 9};  // RA: 9 outputs > 8
  EXPECT_EQ(ErrorOf([&] {
              AscendC::ReduceSum<float, AscendC::Pattern::Reduce::RA>(dst, src, wide, true);
            }),
            std::string(ra) +
                "srcShape {1, 9} needs 9 src and 9 dst elements; the tensors hold 32 and 8");
  // dst inside src (rows {0..6} and {8..14}; dst from element 8).
  const uint32_t two_by_seven[] = {2, 7};
  const std::string overlap = ErrorOf([&] {
    AscendC::ReduceSum<float, AscendC::Pattern::Reduce::RA>(src[8], src, two_by_seven, true);
  });
  EXPECT_NE(overlap.find(std::string(ra) + "dstTensor UB ["), std::string::npos) << overlap;
  EXPECT_NE(overlap.find("overlaps srcTensor UB"), std::string::npos) << overlap;
  // AR's temporary buffer: too small, then overlapping src.
  const std::string small = ErrorOf([&] {
    AscendC::ReduceSum<float, AscendC::Pattern::Reduce::AR>(dst, src, tmp[32], shape, true);
  });
  EXPECT_NE(small.find(ar), std::string::npos) << small;
  EXPECT_NE(small.find("the row sum and its work area need"), std::string::npos) << small;
  auto whole = fx.Take<uint8_t>(4096);
  AscendC::LocalTensor<uint8_t> over = src.ReinterpretCast<uint8_t>();
  const std::string shared = ErrorOf([&] {
    AscendC::ReduceSum<float, AscendC::Pattern::Reduce::AR>(dst, src, over, shape, true);
  });
  EXPECT_NE(shared.find("sharedTmpBuffer UB ["), std::string::npos) << shared;
  EXPECT_NE(shared.find("overlaps srcTensor"), std::string::npos) << shared;
  // And the same call with a proper buffer works.
  AscendC::ReduceSum<float, AscendC::Pattern::Reduce::AR>(dst, src, whole, shape, true);
  EXPECT_EQ(dst.GetValue(0), 9.0f);
  EXPECT_EQ(dst.GetValue(1), 9.0f);
}

}  // namespace
