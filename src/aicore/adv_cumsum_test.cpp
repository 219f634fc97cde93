// CumSum (ascsim/adv/math_cumsum.h) through its include paths, against a scalar reference of the
// device's summation order (float adds row after row; half summed in float and rounded once), both
// axes, both dtypes, several passes over the temporary buffer; its errors; and the host
// temporary-space sizes (tiling/cumsum_tiling.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "adv_api/math/cumsum.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/math/cumsum.h"
#include "tiling/tiling_api.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

constexpr AscendC::CumSumConfig kLastNoRow{true, false, false};
constexpr AscendC::CumSumConfig kLastRow{true, true, true};
constexpr AscendC::CumSumConfig kFirstRow{false, false, true};

// The device's sums: float adds in order along the axis (half converted to float first and the
// float sum rounded to half once), then + 0 (CANN's final Adds, which turns -0 into +0).
template <class T>
std::vector<T> Reference(const std::vector<T>& x, uint32_t outter, uint32_t inner, bool last) {
  std::vector<float> acc(x.size());
  for (uint32_t r = 0; r < outter; ++r) {
    for (uint32_t j = 0; j < inner; ++j) {
      const uint32_t i = r * inner + j;
      const float v = float(x[i]);
      if (last) {
        acc[i] = j == 0 ? v : acc[i - 1] + v;
      } else {
        acc[i] = r == 0 ? v + 0.0f : acc[i - inner] + v;
      }
    }
  }
  std::vector<T> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const T rounded = T(acc[i]);
    out[i] = last ? T(float(rounded) + 0.0f) : rounded;
  }
  return out;
}

template <class T, const AscendC::CumSumConfig& config>
void Check(uint32_t outter, uint32_t inner, uint32_t tmp_bytes) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half " : "float ") + std::to_string(outter) + "x" +
               std::to_string(inner) + " tmp " + std::to_string(tmp_bytes) +
               (config.isLastAxis ? " last" : " first"));
  const uint32_t n = outter * inner;
  CoreFixture fx(180 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n), last = fx.Take<T>(inner);
  auto tmp = fx.Take<uint8_t>(tmp_bytes == 0 ? 32 : tmp_bytes);
  const auto x = RandomVector<T>(n, -2, 2, n + inner + tmp_bytes);
  Fill(src, x);
  const auto ref = Reference(x, outter, inner, config.isLastAxis);
  for (int form = 0; form < 2; ++form) {
    Fill(dst, std::vector<T>(n, T(7.0f)));
    Fill(last, std::vector<T>(inner, T(7.0f)));
    if (form == 0) {
      AscendC::CumSum<T, config>(dst, last, src, tmp, AscendC::CumSumInfo{outter, inner});
    } else {
      AscendC::CumSum<T, config>(dst, last, src, AscendC::CumSumInfo{outter, inner});  // stack
    }
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(Bits(dst.GetValue(i)), Bits(ref[i])) << "form " << form << " element " << i;
    }
    for (uint32_t j = 0; j < inner; ++j) {
      const T want = config.outputLastRow ? ref[(outter - 1) * inner + j] : T(7.0f);
      ASSERT_EQ(Bits(last.GetValue(j)), Bits(want)) << "form " << form << " last row " << j;
    }
  }
}

uint32_t MinTmp(uint32_t outter, uint32_t inner, uint32_t type_size, bool last) {
  uint32_t mx = 0, mn = 0;
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape({outter, inner}), type_size, last, false, mx, mn);
  return mn;
}

TEST(AdvCumSum, LastAxisFloat) {
  Check<float, kLastNoRow>(1, 96, MinTmp(1, 96, 4, true));  // production's shape: one row
  Check<float, kLastRow>(5, 24, MinTmp(5, 24, 4, true));
  Check<float, AscendC::defaultCumSumConfig>(16, 8, MinTmp(16, 8, 4, true));
  // 37 rows through the minimum buffer: three passes of 16, 16 and 5 rows.
  Check<float, kLastRow>(37, 40, MinTmp(37, 40, 4, true));
  Check<float, kLastRow>(37, 40, MinTmp(37, 40, 4, true) * 3);  // one pass of all 37
}

TEST(AdvCumSum, LastAxisHalf) {
  Check<half, kLastNoRow>(1, 16, MinTmp(1, 16, 2, true));
  Check<half, kLastRow>(3, 48, MinTmp(3, 48, 2, true));
  Check<half, kLastRow>(33, 32, MinTmp(33, 32, 2, true));  // passes of 16, 16, 1 rows
  Check<half, AscendC::defaultCumSumConfig>(20, 64, MinTmp(20, 64, 2, true) * 2);
}

TEST(AdvCumSum, FirstAxisBothDtypes) {
  Check<float, kFirstRow>(1, 8, 0);
  Check<float, kFirstRow>(29, 24, 0);  // float needs no temporary space
  Check<half, kFirstRow>(7, 16, MinTmp(7, 16, 2, false));
  Check<half, kFirstRow>(30, 48, MinTmp(30, 48, 2, false));
}

TEST(AdvCumSum, NegativeZeroAndInPlace) {
  CoreFixture fx;
  auto x = fx.Take<float>(8), tmp = fx.Take<float>(1024);
  Fill(x, std::vector<float>{-0.0f, -0.0f, 1.5f, -1.5f, -0.0f, 2.0f, 3.0f, -4.0f});
  auto t8 = tmp.ReinterpretCast<uint8_t>();
  AscendC::CumSum<float, kLastRow>(x, x, x, t8, AscendC::CumSumInfo{1, 8});  // dst = src = lastRow
  const std::vector<float> want{0.0f, 0.0f, 1.5f, 0.0f, 0.0f, 2.0f, 5.0f, 1.0f};
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(Bits(x.GetValue(i)), Bits(want[i])) << i;  // +0, not -0: the final Adds(0)
  }
}

TEST(AdvCumSum, Errors) {
  CoreFixture fx;
  auto f = fx.Take<float>(64), g = fx.Take<float>(64), row = fx.Take<float>(8);
  auto tmp = fx.Take<uint8_t>(1024);
  EXPECT_THAT(ErrorOf([&] {
                AscendC::CumSum<float, kLastNoRow>(g, row, f, tmp, AscendC::CumSumInfo{4, 12});
              }),
              HasSubstr("CumSum: cumSumInfo {outter 4, inner 12} needs outter, inner >= 1 and "
                        "inner * sizeof(T) a multiple of 32 B"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::CumSum<float, kLastNoRow>(g, row, f, tmp, AscendC::CumSumInfo{0, 8});
              }),
              HasSubstr("CumSum: cumSumInfo {outter 0, inner 8}"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::CumSum<float, kLastNoRow>(g, row, f, tmp, AscendC::CumSumInfo{9, 8});
              }),
              HasSubstr("CumSum: calCount 72 exceeds the src (64) or dst (64) tensor size"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::CumSum<float, kLastRow>(g, row, f, tmp, AscendC::CumSumInfo{4, 16});
              }),
              HasSubstr("CumSum: lastRowTensor holds 8 elements, fewer than cumSumInfo.inner "
                        "(16) with config.outputLastRow"));
  // Last axis: 16 rows of 16 floats need 16 * 16 * 8 = 2048 B.
  EXPECT_EQ(ErrorOf([&] {
              AscendC::CumSum<float, kLastNoRow>(g, row, f, tmp, AscendC::CumSumInfo{4, 16});
            }),
            "test: block 0/1: CumSum: sharedTmpBuffer holds 1024 B, less than the 2048 B 16 rows "
            "of the last axis need (see its Get...MaxMinTmpSize)");
  auto h = fx.Take<half>(512), h2 = fx.Take<half>(512), hrow = fx.Take<half>(16);
  EXPECT_EQ(ErrorOf([&] {
              AscendC::CumSum<half, kFirstRow>(h2, hrow, h, tmp, AscendC::CumSumInfo{32, 16});
            }),
            "test: block 0/1: CumSum: sharedTmpBuffer holds 1024 B, less than the 2048 B the "
            "outter * inner floats need (see its Get...MaxMinTmpSize)");
  auto big = fx.Take<uint8_t>(4096);
  AscendC::CumSum<half, kFirstRow>(h2, hrow, h, big, AscendC::CumSumInfo{32, 16});  // fits
  auto in_tmp = big.ReinterpretCast<float>();
  const std::string overlap = ErrorOf([&] {
    AscendC::CumSum<float, kLastNoRow>(g, row, in_tmp, big, AscendC::CumSumInfo{4, 16});
  });
  EXPECT_THAT(overlap, HasSubstr("CumSum: sharedTmpBuffer UB ["));
  EXPECT_THAT(overlap, HasSubstr("overlaps src UB"));
}

TEST(AdvCumSum, HostTmpSizes) {
  uint32_t mx = 0, mn = 0;
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape({1, 96}), 4, true, true, mx, mn);
  EXPECT_EQ(mn, 16u * 96 * 4 * 2);
  EXPECT_EQ(mx, 16u * 96 * 4 * 2);
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape({33, 32}), 2, true, false, mx, mn);
  EXPECT_EQ(mn, 32u * 16 * 2 + 16u * 32 * 2 * 2);
  EXPECT_EQ(mx, 32u * 48 * 2 + 48u * 32 * 2 * 2);
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape({5, 16}), 2, false, false, mx, mn);
  EXPECT_EQ(mn, 5u * 16 * 4);
  EXPECT_EQ(mx, 5u * 16 * 4);
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape({5, 16}), 4, false, false, mx, mn);
  EXPECT_EQ(mn, 0u);
  EXPECT_EQ(mx, 0u);
  const struct {
    std::vector<int64_t> dims;
    uint32_t type_size;
    const char* message;
  } bad[] = {{{2, 3, 8}, 4, "Now only support dim = 2."},
             {{2, 8}, 8, "Now only support half and float."},
             {{2, 7}, 4, "The inner dim should be 32B aligned."}};
  for (const auto& b : bad) {
    mx = mn = 5;
    testing::internal::CaptureStderr();
    AscendC::GetCumSumMaxMinTmpSize(ge::Shape(b.dims), b.type_size, true, false, mx, mn);
    EXPECT_THAT(testing::internal::GetCapturedStderr(), HasSubstr(b.message));
    EXPECT_EQ(mx, 5u);
    EXPECT_EQ(mn, 5u);
  }
  // The maximum makes one pass of every row; it gives the minimum's results.
  CoreFixture fx(160 * 1024);
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape({40, 32}), 2, true, false, mx, mn);
  auto s = fx.Take<half>(1280), d = fx.Take<half>(1280), d2 = fx.Take<half>(1280);
  auto row = fx.Take<half>(32);
  auto tmax = fx.Take<uint8_t>(mx), tmin = fx.Take<uint8_t>(mn);
  Fill(s, RandomVector<half>(1280, -3, 3, 9));
  AscendC::CumSum<half, kLastNoRow>(d, row, s, tmax, AscendC::CumSumInfo{40, 32});
  AscendC::CumSum<half, kLastNoRow>(d2, row, s, tmin, AscendC::CumSumInfo{40, 32});
  for (uint32_t i = 0; i < 1280; ++i) ASSERT_EQ(Bits(d.GetValue(i)), Bits(d2.GetValue(i))) << i;
}

}  // namespace
