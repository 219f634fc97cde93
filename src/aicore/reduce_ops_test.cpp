// WholeReduce*, BlockReduce*, PairReduceSum and the mask/repeat form of ReduceSum/Max/Min against scalar
// references: pairwise-tree sums rounded per step (16-bit floats saturating at 65504), first
// extreme with its index within the repeat.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_operator.h"

namespace {

using AscendC::ReduceOrder;
using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;

constexpr uint32_t kCap = 4096;

template <class T>
T SatAdd(T x, T y) {
  float v = float(x) + float(y);
  if (std::is_same_v<T, half>) v = v > 65504.0f ? 65504.0f : (v < -65504.0f ? -65504.0f : v);
  return T(v);
}
// Pairwise tree over `slots` (a power of two), disabled slots 0.
template <class T>
T TreeSum(std::vector<T> slots) {
  for (size_t w = slots.size(); w > 1; w /= 2)
    for (size_t i = 0; i < w / 2; ++i) slots[i] = SatAdd(slots[2 * i], slots[2 * i + 1]);
  return slots[0];
}
template <class T>
uint32_t SrcIndex(uint32_t r, uint32_t e, uint32_t blk, uint32_t rep) {
  const uint32_t b = 32 / sizeof(T);
  return r * rep * b + (e / b) * blk * b + e % b;
}

template <class T>
void RunWholeReduceSum() {
  CoreFixture fx;
  auto src = fx.Take<T>(kCap), dst = fx.Take<T>(512);
  const auto v = RandomVector<T>(kCap, -10, 10, 1);
  Fill(src, v);
  Fill(dst, std::vector<T>(512, T(-1)));
  const uint32_t per = 256 / sizeof(T), len = per - 7;
  AscendC::WholeReduceSum(dst, src, len, 3, 2, 2, 20);
  for (uint32_t r = 0; r < 3; ++r) {
    std::vector<T> slots(per, T(0));
    for (uint32_t e = 0; e < len; ++e) slots[e] = v[SrcIndex<T>(r, e, 2, 20)];
    EXPECT_EQ(Bits(dst.GetValue(r * 2)), Bits(TreeSum(slots))) << "repeat " << r;
    EXPECT_EQ(float(dst.GetValue(r * 2 + 1)), -1.0f) << "gap between results must stay";
  }
  // Bitwise mask.
  const uint64_t mask[2] = {0xF0F0F0F0F0F0F0F0ull, sizeof(T) == 2 ? 0x1ull : 0};
  AscendC::WholeReduceSum(dst, src, mask, 1, 1, 1, 8);
  std::vector<T> slots(per, T(0));
  for (uint32_t e = 0; e < per; ++e)
    if ((mask[e / 64] >> (e % 64)) & 1) slots[e] = v[e];
  EXPECT_EQ(Bits(dst.GetValue(0)), Bits(TreeSum(slots)));
}
TEST(ReduceOps, WholeReduceSumHalfAndFloat) {
  RunWholeReduceSum<half>();
  RunWholeReduceSum<float>();
}

template <class T>
void RunWholeReduceExtreme(bool is_max) {
  CoreFixture fx;
  auto src = fx.Take<T>(kCap), dst = fx.Take<T>(512);
  auto v = RandomVector<T>(kCap, -5, 5, 2);  // many ties: first occurrence must win
  Fill(src, v);
  const uint32_t per = 256 / sizeof(T), len = per / 2 + 3;
  for (ReduceOrder order : {ReduceOrder::ORDER_VALUE_INDEX, ReduceOrder::ORDER_INDEX_VALUE,
                            ReduceOrder::ORDER_ONLY_VALUE, ReduceOrder::ORDER_ONLY_INDEX}) {
    Fill(dst, std::vector<T>(512, T(-99)));
    if (is_max)
      AscendC::WholeReduceMax(dst, src, len, 2, 1, 1, 8, order);
    else
      AscendC::WholeReduceMin(dst, src, len, 2, 1, 1, 8, order);
    for (uint32_t r = 0; r < 2; ++r) {
      uint32_t best = 0;
      for (uint32_t e = 1; e < len; ++e) {
        const float x = float(v[r * per + e]), b = float(v[r * per + best]);
        if (is_max ? x > b : x < b) best = e;
      }
      const T value = v[r * per + best];
      auto bytes = [&](uint32_t byte_off, void* out, size_t n) {
        std::memcpy(
            out,
            reinterpret_cast<const uint8_t*>(ascsim::aicore::TensorAccess::Data(dst)) + byte_off,
            n);
      };
      uint32_t idx = 0;
      T got{};
      switch (order) {
        case ReduceOrder::ORDER_VALUE_INDEX:
          bytes(r * 2 * sizeof(T), &got, sizeof(T));
          bytes(r * 2 * sizeof(T) + sizeof(T), &idx, sizeof(T));
          break;
        case ReduceOrder::ORDER_INDEX_VALUE:
          bytes(r * 2 * sizeof(T), &idx, sizeof(T));
          bytes(r * 2 * sizeof(T) + sizeof(T), &got, sizeof(T));
          break;
        case ReduceOrder::ORDER_ONLY_VALUE:
          bytes(r * sizeof(T), &got, sizeof(T));
          idx = best;
          break;
        case ReduceOrder::ORDER_ONLY_INDEX:
          bytes(r * 4, &idx, 4);
          got = value;
          break;
      }
      EXPECT_EQ(Bits(got), Bits(value)) << "order " << int(order) << " repeat " << r;
      EXPECT_EQ(idx, best) << "order " << int(order) << " repeat " << r;
    }
  }
}
TEST(ReduceOps, WholeReduceMaxMinEveryOrder) {
  RunWholeReduceExtreme<half>(true);
  RunWholeReduceExtreme<half>(false);
  RunWholeReduceExtreme<float>(true);
  RunWholeReduceExtreme<float>(false);
}

template <class T>
void RunBlockReduce() {
  CoreFixture fx;
  auto src = fx.Take<T>(kCap), dst = fx.Take<T>(512);
  const auto v = RandomVector<T>(kCap, -10, 10, 3);
  Fill(src, v);
  const uint32_t per = 256 / sizeof(T), b = 32 / sizeof(T);
  // Block 2 has no active element.
  uint64_t mask[2] = {0, 0};
  for (uint32_t e = 0; e < per; ++e)
    if (e / b != 2 && (e % 3 != 1)) mask[e / 64] |= 1ull << (e % 64);
  for (int kind = 0; kind < 3; ++kind) {
    Fill(dst, std::vector<T>(512, T(-99)));
    if (kind == 0) AscendC::BlockReduceSum(dst, src, 2, mask, 2, 1, 8);
    if (kind == 1) AscendC::BlockReduceMax(dst, src, 2, mask, 2, 1, 8);
    if (kind == 2) AscendC::BlockReduceMin(dst, src, 2, mask, 2, 1, 8);
    for (uint32_t r = 0; r < 2; ++r) {
      for (uint32_t blk = 0; blk < 8; ++blk) {
        std::vector<T> slots(b, T(0));
        bool any = false;
        T ext{};
        for (uint32_t i = 0; i < b; ++i) {
          const uint32_t e = blk * b + i;
          if (!((mask[e / 64] >> (e % 64)) & 1)) continue;
          const T x = v[r * per + e];
          slots[i] = x;
          if (!any || (kind == 1 ? float(x) > float(ext) : float(x) < float(ext))) ext = x;
          any = true;
        }
        T want = kind == 0 ? TreeSum(slots) : (any ? ext : T(-99));
        EXPECT_EQ(Bits(dst.GetValue(r * 16 + blk)), Bits(want))
            << "kind " << kind << " r " << r << " blk " << blk;
        EXPECT_EQ(float(dst.GetValue(r * 16 + 8 + blk)), -99.0f) << "dstRepStride gap";
      }
    }
  }
}
TEST(ReduceOps, BlockReduceSumMaxMinWithAnEmptyBlock) {
  RunBlockReduce<half>();
  RunBlockReduce<float>();
}

// PairReduceSum: per repeat, (a1+a2, a3+a4, ...) written contiguously, half a repeat's elements;
// dstRepStride counts 128 B; a pair with one active element gives it, with none 0.
template <class T>
void RunPairReduceSum() {
  CoreFixture fx;
  auto src = fx.Take<T>(kCap), dst = fx.Take<T>(1024);
  const auto v = RandomVector<T>(kCap, -10, 10, 7);
  Fill(src, v);
  const uint32_t per = 256 / sizeof(T), half_rep = per / 2;
  // Continuous mask of an odd length: the last pair has one active element, the rest none.
  const uint32_t len = per - 5;
  Fill(dst, std::vector<T>(1024, T(-99)));
  AscendC::PairReduceSum(dst, src, 3, static_cast<int32_t>(len), 2, 2, 20);
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t g = 0; g < half_rep; ++g) {
      T want = T(0);
      if (2 * g < len) want = v[SrcIndex<T>(r, 2 * g, 2, 20)];
      if (2 * g + 1 < len) want = SatAdd(want, v[SrcIndex<T>(r, 2 * g + 1, 2, 20)]);
      EXPECT_EQ(Bits(dst.GetValue(r * 2 * half_rep + g)), Bits(want)) << "r " << r << " g " << g;
      EXPECT_EQ(float(dst.GetValue(r * 2 * half_rep + half_rep + g)), -99.0f)
          << "dstRepStride 2 leaves the next 128 B";
    }
  }
  // Bitwise mask over one repeat, blocks contiguous.
  const uint64_t mask[2] = {0xA5A5F00F0FF0C3C3ull, sizeof(T) == 2 ? 0x00FF00FF00FF00FFull : 0};
  Fill(dst, std::vector<T>(1024, T(-99)));
  AscendC::PairReduceSum(dst, src, 1, mask, 1, 1, 8);
  for (uint32_t g = 0; g < half_rep; ++g) {
    T want = T(0);
    for (uint32_t e : {2 * g, 2 * g + 1})
      if ((mask[e / 64] >> (e % 64)) & 1) want = SatAdd(want, v[e]);
    EXPECT_EQ(Bits(dst.GetValue(g)), Bits(want)) << "g " << g;
  }
  EXPECT_EQ(float(dst.GetValue(half_rep)), -99.0f) << "one repeat writes 128 B";
}
TEST(ReduceOps, PairReduceSumHalfAndFloat) {
  RunPairReduceSum<half>();
  RunPairReduceSum<float>();
}

TEST(ReduceOps, PairReduceSumSaturatesHalfAndRejectsMisuse) {
  CoreFixture fx;
  auto src = fx.Take<half>(512), dst = fx.Take<half>(128);
  Fill(src, std::vector<half>(512, half(1.0f)));
  src.SetValue(0, half(60000.0f));
  src.SetValue(1, half(60000.0f));
  AscendC::PairReduceSum(dst, src, 2, 128, 1, 1, 8);
  EXPECT_EQ(float(dst.GetValue(0)), 65504.0f);
  EXPECT_EQ(float(dst.GetValue(1)), 2.0f);
  EXPECT_EQ(float(dst.GetValue(64)), 2.0f);
  EXPECT_NE(ErrorOf([&] { AscendC::PairReduceSum(dst[8], src, 1, 128, 1, 1, 8); })
                .find("PairReduceSum: dst UB address"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { AscendC::PairReduceSum(dst, src, 3, 128, 1, 1, 8); })
                .find("PairReduceSum: dst reaches byte 384 (3 results 128 B apart) beyond its "
                      "LocalTensor of 256 B"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { AscendC::PairReduceSum(dst, src, 1, 128, -1, 1, 8); })
                .find("PairReduceSum: dstRepStride -1 is negative"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { AscendC::PairReduceSum(dst, src, 1, 129, 1, 1, 8); })
                .find("PairReduceSum: mask"),
            std::string::npos);
}

TEST(ReduceOps, HalfSumsSaturateInsteadOfOverflowing) {
  CoreFixture fx;
  auto src = fx.Take<half>(256), dst = fx.Take<half>(16);
  Fill(src, std::vector<half>(256, half(0.0f)));
  src.SetValue(0, half(60000.0f));
  src.SetValue(1, half(60000.0f));
  src.SetValue(2, half(-30000.0f));
  src.SetValue(3, half(100.0f));
  AscendC::BlockReduceSum(dst, src, 1, 4, 1, 1, 8);
  const half want = SatAdd(half(65504.0f), SatAdd(half(-30000.0f), half(100.0f)));
  EXPECT_EQ(Bits(dst.GetValue(0)), Bits(want));
  EXPECT_LT(float(dst.GetValue(0)), 40000.0f);
}

TEST(ReduceOps, ReduceMaskFormAcrossRepeats) {
  CoreFixture fx;
  auto src = fx.Take<float>(kCap), dst = fx.Take<float>(8), work = fx.Take<float>(64);
  auto v = RandomVector<float>(kCap, -10, 10, 4);
  v[64 * 2 + 17] = 50.0f;  // repeat 2, element 17 (element 17 < mask)
  v[64 * 3 + 40] = 99.0f;  // beyond the mask: ignored
  Fill(src, v);
  AscendC::ReduceMax(dst, src, work, 30, 4, 8, true);
  EXPECT_EQ(dst.GetValue(0), 50.0f);
  uint32_t idx;
  const float raw = dst.GetValue(1);
  std::memcpy(&idx, &raw, 4);
  EXPECT_EQ(idx, 2u * 64 + 17);
  AscendC::ReduceSum(dst, src, work, 30, 4, 8);
  float acc = 0;
  for (uint32_t r = 0; r < 4; ++r) {
    std::vector<float> slots(64, 0.0f);
    for (uint32_t e = 0; e < 30; ++e) slots[e] = v[r * 64 + e];
    acc = r == 0 ? TreeSum(slots) : acc + TreeSum(slots);
  }
  EXPECT_EQ(dst.GetValue(0), acc);
  const uint64_t mask[2] = {0x3, 0};
  AscendC::ReduceMin(dst, src, work, mask, 2, 8, false);
  float want = v[0];
  for (uint32_t i : {1u, 64u, 65u}) want = v[i] < want ? v[i] : want;
  EXPECT_EQ(dst.GetValue(0), want);
}

TEST(ReduceOps, RejectsMisuse) {
  CoreFixture fx;
  auto src = fx.Take<half>(kCap), dst = fx.Take<half>(64), work = fx.Take<half>(16);
  EXPECT_NE(ErrorOf([&] {
              AscendC::WholeReduceSum(dst, src, 128, 256, 1, 1, 8);
            }).find("WholeReduceSum: repeatTime 256 is outside [0, 255]"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::WholeReduceSum(dst, src, 128, 1, 1, -1, 8);
            }).find("WholeReduceSum: srcBlkStride -1 is negative"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::WholeReduceSum(dst, src, -3, 1, 1, 1, 8);
            }).find("WholeReduceSum: mask -3 is negative"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { AscendC::WholeReduceMax(dst[40], src, 128, 30, 1, 1, 8); })
                .find("WholeReduceMax: dst reaches byte 120 (30 results 4 B apart) beyond its "
                      "LocalTensor of 48 B"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::BlockReduceSum(dst[4], src, 1, 128, 1, 1, 8);
            }).find("BlockReduceSum: dst UB address"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::WholeReduceMin(dst, src, 128, 20, 1, 1, 200);
            }).find("WholeReduceMin: src reaches byte"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::ReduceMax(dst, src, work, 128, 30, 8, true);
            }).find("ReduceMax: workLocal [0, 32) of half exceeds LocalTensor size 16"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::WholeReduceSum(src[64], src, 128, 2, 1, 1, 8);
            }).find("partially overlaps"),
            std::string::npos);
}

}  // namespace

namespace {

TEST(ReduceOps, RejectsEmptyReduceAndUnusableCounterCount) {
  CoreFixture fx;
  auto src = fx.Take<float>(256), dst = fx.Take<float>(8), work = fx.Take<float>(8);
  EXPECT_NE(ErrorOf([&] {
              AscendC::ReduceMax(dst, src, work, 64, 0, 8, true);
            }).find("ReduceMax: repeatTime must be >= 1"),
            std::string::npos);
  // ResetMask in counter mode leaves an all-ones count: no instruction can run on it.
  AscendC::SetMaskCount();
  AscendC::ResetMask();
  EXPECT_NE(ErrorOf([&] { AscendC::WholeReduceSum<float, false>(dst, src, 0, 1, 1, 1, 8); })
                .find("WholeReduceSum: counter-mode mask 18446744073709551615 elements is not a "
                      "usable count"),
            std::string::npos);
  AscendC::SetMaskNorm();
}

}  // namespace

namespace {

TEST(ReduceOps, RepeatReduceSumMatchesWholeReduceSum) {
  CoreFixture fx;
  auto src = fx.Take<half>(kCap), a = fx.Take<half>(64), b = fx.Take<half>(64);
  Fill(src, RandomVector<half>(kCap, -10, 10, 9));
  Fill(a, std::vector<half>(64, half(-1.0f)));
  Fill(b, std::vector<half>(64, half(-1.0f)));
  AscendC::RepeatReduceSum(a, src, 5, 77, 1, 2, 3, 16);
  AscendC::WholeReduceSum(b, src, 77, 5, 3, 2, 16);
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(Bits(a.GetValue(i)), Bits(b.GetValue(i))) << i;
  EXPECT_EQ(float(a.GetValue(1)), -1.0f);
  EXPECT_NE(float(a.GetValue(3)), -1.0f);
}

}  // namespace

namespace {

// ReduceSum/Max/Min (count form and mask/repeat form) need dst aligned only to its result: the
// element for SUM and MAX/MIN without index, the value-index pair with it (asc-devkit docs
// ReduceSum.md -> ReduceRepeat.md table 3). LayerNormCustomSample reduces row j into
// tmpTensor2[j] (float, UB 0x...4 aligned).
template <class T>
void RunReduceIntoUnalignedSlots() {
  CoreFixture fx;
  const uint32_t n = 100, pitch = 128, rows = 5;  // rows start 32-byte aligned, as src must
  auto src = fx.Take<T>(pitch * rows), dst = fx.Take<T>(64), work = fx.Take<T>(512);
  const auto v = RandomVector<T>(pitch * rows, -4, 4, 7);
  Fill(src, v);
  for (uint32_t j = 0; j < rows; ++j) AscendC::ReduceSum<T>(dst[j], src[j * pitch], work, n);
  for (uint32_t j = 0; j < rows; ++j) {
    double sum = 0;
    for (uint32_t i = 0; i < n; ++i) sum += double(float(v[j * pitch + i]));
    const double tolerance = std::is_same_v<T, half> ? 0.25 : 1e-3;
    EXPECT_NEAR(float(dst.GetValue(j)), sum, tolerance) << j;
  }
  // Max with its index: a pair, aligned to two elements.
  AscendC::ReduceMax<T>(dst[2], src, work, n, true);
  T best = v[0];
  for (uint32_t i = 1; i < n; ++i) best = float(v[i]) > float(best) ? v[i] : best;
  EXPECT_EQ(Bits(dst.GetValue(2)), Bits(best));
  AscendC::ReduceMin<T>(dst[3], src, work, n);  // value only: one element
  // The mask/repeat form follows the same rule.
  AscendC::ReduceSum<T>(dst[1], src, work, 256 / sizeof(T), 1, 8);
  const std::string odd_pair = ErrorOf([&] { AscendC::ReduceMax<T>(dst[1], src, work, n, true); });
  EXPECT_NE(odd_pair.find("ReduceMax: dst UB address"), std::string::npos) << odd_pair;
  EXPECT_NE(odd_pair.find("is not " + std::to_string(2 * sizeof(T)) + "-byte aligned"),
            std::string::npos)
      << odd_pair;
}

TEST(ReduceOps, ReduceDstNeedsOnlyItsResultsAlignment) {
  RunReduceIntoUnalignedSlots<half>();
  RunReduceIntoUnalignedSlots<float>();
}

TEST(ReduceOps, ReduceDstBelowItsElementAlignmentFaults) {
  CoreFixture fx;
  auto src = fx.Take<float>(256), work = fx.Take<float>(64);
  auto bytes = fx.Take<uint8_t>(64);
  // A float dst at byte 2 of a UB block: not even 4-byte aligned.
  auto dst = bytes[2].ReinterpretCast<float>();
  const std::string msg = ErrorOf([&] { AscendC::ReduceSum<float>(dst, src, work, 64); });
  EXPECT_NE(msg.find("ReduceSum: dst UB address"), std::string::npos) << msg;
  EXPECT_NE(msg.find("is not 4-byte aligned"), std::string::npos) << msg;
}

}  // namespace
