// Sort32, MrgSort, GetMrgSortResult, Sort, Concat and Extract (sort.h) against std::stable_sort and
// a reference merge, both dtypes, with the error paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;

// (score, index) of pair p in a sorted-pair tensor.
template <class T>
std::pair<float, uint32_t> PairAt(const AscendC::LocalTensor<T>& t, uint32_t p) {
  constexpr uint32_t pp = 8 / sizeof(T);
  const float score = float(t.GetValue(p * pp));
  const uint32_t index = t.template ReinterpretCast<uint32_t>().GetValue(p * 2 + 1);
  return {score, index};
}

// Descending, equal scores in input order.
std::vector<std::pair<float, uint32_t>> RefSort(const std::vector<float>& s, uint32_t begin,
                                                uint32_t n, const std::vector<uint32_t>& idx) {
  std::vector<std::pair<float, uint32_t>> v;
  for (uint32_t i = 0; i < n; ++i) v.push_back({s[begin + i], idx[begin + i]});
  std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first > b.first; });
  return v;
}

template <class T>
void CheckSort32(uint32_t repeats) {
  SCOPED_TRACE(sizeof(T) == 2 ? "half" : "float");
  CoreFixture fx;
  const uint32_t n = repeats * 32;
  auto score = fx.Take<T>(n), dst = fx.Take<T>(n * 8 / sizeof(T));
  auto idx = fx.Take<uint32_t>(n);
  auto v = RandomVector<T>(n, -4, 4, n);
  v[3] = v[7] = v[11] = T(1.5f);  // ties keep their order
  Fill(score, v);
  std::vector<uint32_t> iv(n);
  std::iota(iv.begin(), iv.end(), 100u);
  Fill(idx, iv);
  AscendC::Sort32(dst, score, idx, repeats);
  std::vector<float> sf(n);
  for (uint32_t i = 0; i < n; ++i) sf[i] = float(v[i]);
  for (uint32_t g = 0; g < repeats; ++g) {
    const auto want = RefSort(sf, g * 32, 32, iv);
    for (uint32_t i = 0; i < 32; ++i) {
      ASSERT_EQ(PairAt(dst, g * 32 + i), want[i]) << g << "," << i;
    }
  }
}
TEST(Sort, Sort32SortsEachGroupDescendingAndStably) {
  CheckSort32<float>(3);
  CheckSort32<half>(5);
}

template <class T>
void CheckFullSort(uint32_t repeats) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " x" + std::to_string(repeats));
  CoreFixture fx(160 * 1024);
  const uint32_t n = repeats * 32;
  auto src = fx.Take<T>(n), sorted = fx.Take<T>(n * 8 / sizeof(T));
  auto tmp = fx.Take<T>(n * 8 / sizeof(T));
  auto idx = fx.Take<uint32_t>(n), outIdx = fx.Take<uint32_t>(n);
  auto outVal = fx.Take<T>(n);
  const auto v = RandomVector<T>(n, -100, 100, n + 3);
  Fill(src, v);
  std::vector<uint32_t> iv(n);
  std::iota(iv.begin(), iv.end(), 0u);
  Fill(idx, iv);
  // The production pattern: Concat, full Sort, Extract.
  AscendC::LocalTensor<T> concat;
  AscendC::Concat(concat, src, tmp, repeats * 2);
  AscendC::Sort<T, true>(sorted, concat, idx, tmp, repeats);
  AscendC::Extract(outVal, outIdx, sorted, repeats);
  std::vector<float> sf(n);
  for (uint32_t i = 0; i < n; ++i) sf[i] = float(v[i]);
  const auto want = RefSort(sf, 0, n, iv);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(float(outVal.GetValue(i)), want[i].first) << i;
    ASSERT_EQ(outIdx.GetValue(i), want[i].second) << i;
  }
}
TEST(Sort, FullSortConcatExtract) {
  CheckFullSort<float>(1);
  CheckFullSort<float>(5);
  CheckFullSort<float>(17);
  CheckFullSort<half>(6);
  CheckFullSort<half>(16);
}

TEST(Sort, MrgSortListsSuspensionAndResult) {
  CoreFixture fx;
  // Three descending lists of different lengths, float pairs.
  const uint16_t lens[4] = {5, 3, 4, 0};
  std::vector<std::vector<float>> s = {{9, 7, 5, 3, 1}, {8, 7, 0}, {10, 6, 2, -1}};
  AscendC::LocalTensor<float> lists[3];
  for (int l = 0; l < 3; ++l) {
    lists[l] = fx.Take<float>(16);
    for (uint32_t i = 0; i < s[l].size(); ++i) {
      lists[l].SetValue(2 * i, s[l][i]);
      lists[l].ReinterpretCast<uint32_t>().SetValue(2 * i + 1, l * 10 + i);
    }
  }
  auto dst = fx.Take<float>(32);
  AscendC::MrgSort4Info info(lens, false, 7, 1);
  AscendC::MrgSort(dst, AscendC::MrgSortSrcList<float>(lists[0], lists[1], lists[2], lists[2]),
                   info);
  const std::vector<std::pair<float, uint32_t>> want = {{10, 20}, {9, 0},  {8, 10}, {7, 1},
                                                        {7, 11},  {6, 21}, {5, 2},  {3, 3},
                                                        {2, 22},  {1, 4},  {0, 12}, {-1, 23}};
  for (uint32_t i = 0; i < want.size(); ++i) ASSERT_EQ(PairAt(dst, i), want[i]) << i;
  // Suspension: stops when list 2 (3 pairs) runs out.
  uint32_t sorted[4];
  AscendC::MrgSort<float, true>(
      dst, AscendC::MrgSortSrcList<float>(lists[0], lists[1], lists[2], lists[2]), lens, sorted, 7,
      1);
  uint16_t a, b, c, d;
  AscendC::GetMrgSortResult(a, b, c, d);
  // 10 9 8 7 7 6 5 3 2 1: list 0 runs out after its fifth pair and the merge stops there.
  EXPECT_EQ(a, 5);
  EXPECT_EQ(b, 2);
  EXPECT_EQ(c, 3);
  EXPECT_EQ(d, 0);
  EXPECT_EQ(sorted[0], 5u);
  EXPECT_EQ(sorted[1], 2u);
  EXPECT_EQ(sorted[2], 3u);
}

TEST(Sort, Errors) {
  CoreFixture fx;
  auto a = fx.Take<float>(64), d = fx.Take<float>(256);
  const uint16_t lens[4] = {8, 8, 8, 8};
  EXPECT_EQ(ErrorOf([&] {
              AscendC::MrgSort(d, AscendC::MrgSortSrcList<float>(a, a[16], a[32], a[48]),
                               AscendC::MrgSort4Info(lens, false, 5, 1));
            }),
            "test: block 0/1: MrgSort: validBit 5 must be 3, 7 or 15 (the first 2, 3 or 4 lists)");
  EXPECT_NE(ErrorOf([&] {
              AscendC::MrgSort(d, AscendC::MrgSortSrcList<float>(a, a[16], a[32], a[48]),
                               AscendC::MrgSort4Info(lens, true, 15, 2));
            }).find("repeatTimes 2 needs four contiguous lists"),
            std::string::npos);
  EXPECT_EQ(ErrorOf([&] {
              AscendC::MrgSort(d, AscendC::MrgSortSrcList<float>(a[1], a[18], a[34], a[50]),
                               AscendC::MrgSort4Info(lens, false, 15, 1));
            }),
            "test: block 0/1: MrgSort: src.src1 UB address 0x4 is not 8-byte aligned");
  auto idx = fx.Take<uint32_t>(64);
  EXPECT_EQ(ErrorOf([&] { AscendC::Sort32(d, a, idx, 3); }),
            "test: block 0/1: Sort32: src0 [0, 96) of float exceeds LocalTensor size 64");
  EXPECT_EQ(ErrorOf([&] { AscendC::Sort32(d, a, idx, 256); }),
            "test: block 0/1: Sort32: repeatTime 256 is outside [0, 255]");
  CoreFixture p310(128 * 1024, "Ascend310P3");
  auto s3 = p310.Take<float>(32), d3 = p310.Take<float>(64);
  auto i3 = p310.Take<uint32_t>(32);
  EXPECT_NE(ErrorOf([&] { AscendC::Sort32(d3, s3, i3, 1); })
                .find("Sort32: Sort32 is not available on Ascend310P3"),
            std::string::npos);
}

}  // namespace
