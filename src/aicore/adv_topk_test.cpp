// TopK (ascsim/adv/topk.h) through its include paths, against a scalar reference (a stable sort:
// descending for isLargest, ascending otherwise, NaN first, equal values in input order), both
// modes and dtypes, with and without given indices and finish flags, through the stack; its
// errors; and the host tiling (tiling/topk_tiling.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "adv_api/sort/kernel_operator_topk_intf.h"
#include "adv_api/sort/topk.h"
#include "adv_api/sort/topk_tiling.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/sort/topk.h"
#include "tiling/tiling_api.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using AscendC::TopKMode;
using ::testing::HasSubstr;

// Row r's first k (value, index) pairs in the order the API gives them.
template <class T>
std::vector<std::pair<T, int32_t>> Reference(const std::vector<T>& x, const std::vector<int32_t>& idx,
                                             uint32_t r, uint32_t inner, int32_t k, bool largest) {
  std::vector<uint32_t> order(inner);
  std::iota(order.begin(), order.end(), 0u);
  auto key = [&](uint32_t j) { return float(x[r * inner + j]); };
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const float va = key(a), vb = key(b);
    if (std::isnan(va)) return !std::isnan(vb);
    if (std::isnan(vb)) return false;
    return largest ? va > vb : va < vb;
  });
  std::vector<std::pair<T, int32_t>> out;
  for (int32_t i = 0; i < k; ++i) out.push_back({x[r * inner + order[i]], idx[order[i]]});
  return out;
}

struct Case {
  uint32_t outter, inner, n;
  int32_t k;
  bool largest;
};

template <class T, bool initIndex, bool hasFinish, TopKMode mode>
void Check(const Case& c, bool ties, bool stack = false) {
  constexpr bool small = mode == TopKMode::TOPK_NSMALL;
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + (small ? " small " : " normal ") +
               std::to_string(c.outter) + "x" + std::to_string(c.inner) + " n " +
               std::to_string(c.n) + " k " + std::to_string(c.k) +
               (c.largest ? " largest" : " smallest") + (initIndex ? " index" : "") +
               (hasFinish ? " finish" : "") + (stack ? " stack" : ""));
  const uint32_t total = c.outter * c.inner;
  constexpr uint32_t blk = 32 / sizeof(T);
  const uint32_t kpad = small ? c.k : (c.k + blk - 1) / blk * blk;
  const uint32_t kpad_i = small ? c.k : (c.k + 7) / 8 * 8;
  CoreFixture fx(180 * 1024);
  auto src = fx.Take<T>(total);
  auto dv = fx.Take<T>(c.outter * kpad), di = fx.Take<int32_t>(c.outter * kpad_i);
  auto si = fx.Take<int32_t>(small ? total : c.inner);
  auto fin = fx.Take<bool>((c.outter + 31) / 32 * 32);
  uint32_t mx = 0, mn = 0;
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  AscendC::GetTopKMaxMinTmpSize(*plat, c.inner, c.outter, false, initIndex, mode, c.largest,
                                sizeof(T), mx, mn);
  auto tmp = fx.Take<uint8_t>(mn);
  AscendC::TopkTiling tiling;
  AscendC::TopKTilingFunc(*plat, c.inner, c.outter, c.k, sizeof(T), initIndex, mode, c.largest,
                          tiling);
  // Values: random, or few distinct ones (ties); the padding holds the value the docs advise.
  std::vector<T> x = RandomVector<T>(total, -50, 50, total + c.k);
  for (uint32_t i = 0; i < total; ++i) {
    if (ties) x[i] = T(float(int(float(x[i])) / 10));
    if (i % c.inner >= c.n) x[i] = T(c.largest ? -INFINITY : INFINITY);
  }
  Fill(src, x);
  std::vector<int32_t> idx(small ? total : c.inner);
  for (size_t i = 0; i < idx.size(); ++i) {
    idx[i] = initIndex ? int32_t(1000 + 3 * (i % c.inner) + (i / c.inner)) : int32_t(i % c.inner);
  }
  if (initIndex) Fill(si, idx);
  std::vector<bool> finished(c.outter);
  for (uint32_t r = 0; r < c.outter; ++r) {
    finished[r] = hasFinish && r % 2 == 1;
    fin.SetValue(r, finished[r]);
  }
  if (stack) {
    AscendC::TopK<T, initIndex, hasFinish, false, mode>(dv, di, src, si, fin, c.k, tiling,
                                                        {int32_t(c.outter), int32_t(c.inner),
                                                         int32_t(c.n)},
                                                        c.largest);
  } else {
    AscendC::TopK<T, initIndex, hasFinish, false, mode>(dv, di, src, si, fin, tmp, c.k, tiling,
                                                        {int32_t(c.outter), int32_t(c.inner),
                                                         int32_t(c.n)},
                                                        c.largest);
  }
  for (uint32_t r = 0; r < c.outter; ++r) {
    std::vector<int32_t> row_idx(c.inner);
    for (uint32_t j = 0; j < c.inner; ++j) row_idx[j] = idx[small ? r * c.inner + j : j];
    const auto want = Reference(x, row_idx, r, c.inner, c.k, c.largest);
    for (int32_t i = 0; i < c.k; ++i) {
      ASSERT_EQ(Bits(dv.GetValue(r * kpad + i)), Bits(want[i].first)) << "row " << r << " " << i;
      const int32_t want_idx = finished[r] ? int32_t(c.n) : want[i].second;
      ASSERT_EQ(di.GetValue(r * kpad_i + i), want_idx) << "row " << r << " " << i;
    }
  }
  // The source is left as it was.
  for (uint32_t i = 0; i < total; ++i) ASSERT_EQ(Bits(src.GetValue(i)), Bits(x[i])) << i;
}

TEST(AdvTopK, NormalFloat) {
  Check<float, false, false, TopKMode::TOPK_NORMAL>({3, 64, 60, 5, true}, false);
  Check<float, false, false, TopKMode::TOPK_NORMAL>({3, 64, 60, 5, false}, false);
  Check<float, true, true, TopKMode::TOPK_NORMAL>({4, 96, 90, 9, false}, true);
  Check<float, false, false, TopKMode::TOPK_NORMAL>({2, 1024, 1000, 40, true}, true);  // 5 passes
  Check<float, false, false, TopKMode::TOPK_NORMAL>({1, 32, 1, 1, true}, false);
}

TEST(AdvTopK, NormalHalf) {
  Check<half, false, false, TopKMode::TOPK_NORMAL>({2, 128, 128, 17, true}, false);
  Check<half, true, true, TopKMode::TOPK_NORMAL>({3, 160, 150, 33, false}, true);
  Check<half, false, true, TopKMode::TOPK_NORMAL>({2, 64, 64, 64, true}, true, true);  // stack
}

TEST(AdvTopK, SmallBothDtypes) {
  Check<float, false, false, TopKMode::TOPK_NSMALL>({5, 32, 32, 7, true}, false);
  Check<float, true, false, TopKMode::TOPK_NSMALL>({3, 32, 30, 30, false}, true);
  Check<half, false, false, TopKMode::TOPK_NSMALL>({6, 32, 31, 3, false}, false);
  Check<half, true, false, TopKMode::TOPK_NSMALL>({257, 32, 32, 32, true}, true);  // 2 chunks
  Check<half, false, false, TopKMode::TOPK_NSMALL>({2, 32, 32, 5, true}, false, true);
}

TEST(AdvTopK, NanSortsFirstAndInfIsLargest) {
  CoreFixture fx;
  auto src = fx.Take<float>(32), dv = fx.Take<float>(8);
  auto di = fx.Take<int32_t>(8), si = fx.Take<int32_t>(32);
  AscendC::LocalTensor<bool> fin;
  auto tmp = fx.Take<uint8_t>(20 * 32);
  std::vector<float> x(32, 1.0f);
  x[5] = NAN;
  x[9] = INFINITY;
  x[20] = -INFINITY;
  Fill(src, x);
  AscendC::TopkTiling tiling;
  for (bool largest : {true, false}) {
    AscendC::TopK<float>(dv, di, src, si, fin, tmp, 3, tiling, {1, 32, 32}, largest);
    EXPECT_TRUE(std::isnan(dv.GetValue(0)));
    EXPECT_EQ(di.GetValue(0), 5);
    EXPECT_EQ(dv.GetValue(1), largest ? INFINITY : -INFINITY);
    EXPECT_EQ(di.GetValue(1), largest ? 9 : 20);
    EXPECT_EQ(dv.GetValue(2), 1.0f);
    EXPECT_EQ(di.GetValue(2), 0);  // the first of the equal values
  }
}

TEST(AdvTopK, Errors) {
  CoreFixture fx;
  auto src = fx.Take<float>(128), dv = fx.Take<float>(16);
  auto di = fx.Take<int32_t>(16), si = fx.Take<int32_t>(128);
  auto tmp = fx.Take<uint8_t>(20 * 64);
  AscendC::LocalTensor<bool> fin;
  AscendC::TopkTiling t;
  auto run = [&](int32_t k, AscendC::TopKInfo info) {
    return ErrorOf([&] { AscendC::TopK<float>(dv, di, src, si, fin, tmp, k, t, info); });
  };
  EXPECT_THAT(run(0, {1, 64, 64}), HasSubstr("TopK: k 0 must be in [1, n 64]"));
  EXPECT_THAT(run(9, {1, 64, 8}), HasSubstr("TopK: k 9 must be in [1, n 8]"));
  EXPECT_THAT(run(1, {1, 40, 40}), HasSubstr("TopK: topKInfo.inner 40 must be a positive multiple "
                                             "of 32"));
  EXPECT_THAT(run(1, {1, 64, 65}), HasSubstr("TopK: topKInfo.n 65 must be in [1, inner 64]"));
  EXPECT_THAT(run(1, {0, 64, 64}), HasSubstr("TopK: topKInfo.outter 0 must be at least 1"));
  EXPECT_THAT(run(1, {1, 8192, 64}), HasSubstr("exceeds 4096, the most TOPK_NORMAL sorts"));
  EXPECT_THAT(run(1, {3, 64, 64}),
              HasSubstr("TopK: srcLocal holds 128 elements, fewer than the 192 the shape needs"));
  EXPECT_THAT(run(9, {2, 64, 64}), HasSubstr("TopK: dstValueLocal holds 16 elements, fewer than "
                                             "the 32 the shape needs"));
  EXPECT_THAT(run(1, {1, 96, 96}),
              HasSubstr("TopK: sharedTmpBuffer holds 1280 B, less than the 1920 B the shape needs"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::TopK<float, false, false, false, TopKMode::TOPK_NSMALL>(
                    dv, di, src, si, fin, tmp, 1, t, {1, 64, 64});
              }),
              HasSubstr("TopK: topKInfo.inner 64 must be 32 in TOPK_NSMALL mode"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::TopK<float, false, true>(dv, di, src, si, fin, tmp, 1, t, {1, 64, 64});
              }),
              HasSubstr("TopK: finishLocal holds 0 elements, fewer than the 1 the shape needs"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::TopK<float, true>(dv, di, src, si[120], fin, tmp, 1, t, {1, 64, 64});
              }),
              HasSubstr("TopK: srcIndexLocal holds 8 elements, fewer than the 64"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::TopK<float>(src, di, src, si, fin, tmp, 1, t, {1, 64, 64});
              }),
              HasSubstr("overlaps srcLocal UB"));
}

// CANN's kernel_operator.h brings TopK's global constants (topk_common_utils.h) into every kernel
// on A2/A3; production kernels use SIXTEEN and EIGHT unqualified, so they must have CANN's types
// and values here too.
TEST(AdvTopK, CommonConstantsAreVisibleUnqualifiedAsInCann) {
  static_assert(std::is_same_v<decltype(SIXTEEN), const uint32_t>);
  static_assert(std::is_same_v<decltype(MIN_SORT32_SIZE), const uint16_t>);
  const uint32_t kValues[] = {TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TWELVE, SIXTEEN,
                              THIRTY_TWO, FORTYEIGHT};
  const uint32_t kExpected[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 32, 48};
  for (size_t i = 0; i < std::size(kValues); ++i) EXPECT_EQ(kValues[i], kExpected[i]) << i;
  EXPECT_EQ(MIN_SORT32_SIZE, 32);
  EXPECT_EQ(MIN_RPSORT16_SIZE, 16);
  EXPECT_EQ(MRGSORT_VALID_TWO_OFFSET, 769u);
  EXPECT_EQ(TOPK_NORMAL_INNER_MAX_LEN, 4096u);
  EXPECT_EQ(TOPK_NORMAL_INNER_MAX_HALF_LEN, 2048u);
  EXPECT_EQ(VREDUCEV2_HALF_MASK, 128u);
  EXPECT_EQ(VREDUCEV2_FOUR_BYTE_MASK, 64u);
}

TEST(AdvTopK, HostTmpSizesAndTiling) {
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  uint32_t mx = 0, mn = 0;
  AscendC::GetTopKMaxMinTmpSize(*plat, 64, 3, false, false, TopKMode::TOPK_NORMAL, true, 4, mx, mn);
  EXPECT_EQ(mn, 20u * 64);
  EXPECT_EQ(mx, mn);
  AscendC::GetTopKMaxMinTmpSize(*plat, 64, 3, false, true, TopKMode::TOPK_NORMAL, false, 2, mx, mn);
  EXPECT_EQ(mn, 16u * 64);
  AscendC::GetTopKMaxMinTmpSize(*plat, 32, 5, false, false, TopKMode::TOPK_NSMALL, false, 2, mx, mn);
  EXPECT_EQ(mn, 160u * 8 + 64 + 160 * 4 + 160 * 4);
  AscendC::GetTopKMaxMinTmpSize(*plat, 32, 5, false, true, TopKMode::TOPK_NSMALL, true, 4, mx, mn);
  EXPECT_EQ(mn, 160u * 8 + 64);
  testing::internal::CaptureStderr();
  AscendC::GetTopKMaxMinTmpSize(*plat, 40, 1, false, true, TopKMode::TOPK_NORMAL, true, 4, mx, mn);
  AscendC::GetTopKMaxMinTmpSize(*plat, 64, 1, false, true, TopKMode::TOPK_NSMALL, true, 4, mx, mn);
  AscendC::GetTopKMaxMinTmpSize(*plat, 64, 1, false, true, TopKMode::TOPK_NORMAL, true, 8, mx, mn);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, HasSubstr("[TopK][GetTopKMaxMinTmpSize] The length of the inner axis must be a "
                             "multiple of 32!"));
  EXPECT_THAT(err, HasSubstr("In Small mode, the length of the inner axis must be 32!"));
  EXPECT_THAT(err, HasSubstr("Type size 8 is unsupported!"));

  // The fields of SetTopkNormalVal / SetTopkNSmallVal / GetVreduceMask for two shapes.
  AscendC::TopkTiling n;
  EXPECT_TRUE(AscendC::TopKTilingFunc(*plat, 64, 3, 5, 4, false, TopKMode::TOPK_NORMAL, true, n));
  EXPECT_EQ(n.tmpLocalSize, 320);
  EXPECT_EQ(n.srcIndexOffset, 256);
  EXPECT_EQ(n.allDataSize, 192);
  EXPECT_EQ(n.innerDataSize, 128);
  EXPECT_EQ(n.sortRepeat, 2u);
  EXPECT_EQ(n.mrgSortRepeat, 16);
  EXPECT_EQ(n.kAlignFourBytes, 8);
  EXPECT_EQ(n.kAlignTwoBytes, 16);
  EXPECT_EQ(n.maskOffset, 24);
  EXPECT_EQ(n.maskVreducev2FourBytes, 10);
  EXPECT_EQ(n.maskVreducev2TwoBytes, 20);
  EXPECT_EQ(n.copyUbToUbBlockCount, 16u);
  EXPECT_EQ(n.mrgSortSrc3offset, 6);
  EXPECT_EQ(n.mrgFourQueueTailPara1, 128);
  AscendC::TopkTiling s;
  EXPECT_TRUE(AscendC::TopKTilingFunc(*plat, 32, 5, 7, 2, false, TopKMode::TOPK_NSMALL, false, s));
  EXPECT_EQ(s.innerDataSize, 640);
  EXPECT_EQ(s.maskOffset, 35);
  EXPECT_EQ(s.topkMrgSrc1MaskSizeOffset, 800);
  EXPECT_EQ(s.topkNSmallSrcIndexOffset, 832);
  EXPECT_EQ(s.tmpLocalSize, 832 + 320);
  EXPECT_EQ(s.vreduceIdxMask0, 0b10101010101010u);
  EXPECT_EQ(s.vreducehalfValMask0, 0x1111);
  EXPECT_EQ(s.vreducehalfValMask1, 0x111);
  EXPECT_EQ(s.vreducehalfValMask2, 0);
  AscendC::TopkTiling f;
  AscendC::TopKTilingFunc(*plat, 32, 2, 20, 4, true, TopKMode::TOPK_NSMALL, true, f);
  EXPECT_EQ(f.vreduceValMask0, 0x55555555u);
  EXPECT_EQ(f.vreduceValMask1, 0x55u);
  EXPECT_EQ(f.vreduceIdxMask0, 0xAAAAAAAAu);
  EXPECT_EQ(f.vreduceIdxMask1, 0xAAu);
  // The TILING_DATA class holds the same fields and saves the kernel struct's bytes.
  optiling::TopkTiling o;
  EXPECT_TRUE(AscendC::TopKTilingFunc(*plat, 64, 3, 5, 4, false, TopKMode::TOPK_NORMAL, true, o));
  EXPECT_EQ(o.get_tmpLocalSize(), 320);
  ASSERT_EQ(o.GetDataSize(), sizeof(AscendC::TopkTiling));
  AscendC::TopkTiling saved;
  o.SaveToBuffer(&saved, sizeof(saved));
  EXPECT_EQ(std::memcmp(&saved, &n, sizeof(n)), 0);
  const optiling::TopkTiling copy = o;
  EXPECT_EQ(copy.get_maskOffset(), 24);
}

}  // namespace
