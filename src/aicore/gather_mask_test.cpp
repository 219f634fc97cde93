// GatherMask (gather_mask.h): built-in and tensor patterns with strides, and in counter mode
// (reduceMode = true), as Atlas A2/A3 run it (GatherMask docs,
// "配置方式一"): repeatTimes repeats of `mask` elements each, read at the block stride and packed
// into dst; against a scalar reference in half and float, with user and built-in patterns, masks
// below and above one repeat's elements, several repeats with repeat strides, in place; the mask
// register it leaves; the error paths.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;

using ascsim_test::RandomVector;

// The reference: element e of repeat r is src[r * repStride * perBlock + (e / perBlock) *
// blkStride * perBlock + e % perBlock]; its pattern bit is bit e of the row that starts
// r * src1RepeatStride blocks into the pattern.
template <class T>
std::vector<T> Reference(const std::vector<T>& src, const std::vector<uint8_t>& pattern_bytes,
                         uint32_t mask, const AscendC::GatherMaskParams& p, uint64_t* count) {
  const uint32_t per_block = 32 / sizeof(T);
  std::vector<T> out;
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const uint8_t* row = pattern_bytes.data() + r * p.src1RepeatStride * 32;
    for (uint32_t e = 0; e < mask; ++e) {
      if ((row[e / 8] >> (e % 8)) & 1) {
        out.push_back(src[r * p.src0RepeatStride * per_block +
                          (e / per_block) * p.src0BlockStride * per_block + e % per_block]);
      }
    }
  }
  *count = out.size();
  return out;
}

template <class T, class U>
void CheckUserPattern(uint32_t mask, AscendC::GatherMaskParams p, uint32_t pattern_seed) {
  CoreFixture fx;
  const uint32_t per_block = 32 / sizeof(T);
  const uint32_t src_elems = (p.repeatTimes - 1) * p.src0RepeatStride * per_block +
                             ((mask + per_block - 1) / per_block) * p.src0BlockStride * per_block +
                             per_block;
  const uint32_t pattern_bytes_n =
      (p.repeatTimes - 1) * p.src1RepeatStride * 32 + (mask + 31) / 32 * 4 + 32;
  auto src = fx.Take<T>(src_elems);
  auto pat = fx.Take<U>(pattern_bytes_n / sizeof(U));
  auto dst = fx.Take<T>(p.repeatTimes * mask + 64);
  std::vector<T> vs(src_elems);
  for (uint32_t i = 0; i < src_elems; ++i) vs[i] = T(float(i % 2000) * 0.5f);
  for (uint32_t i = 0; i < src_elems; ++i) src.SetValue(i, vs[i]);
  std::vector<uint8_t> bytes(pat.GetSize() * sizeof(U));
  uint32_t x = pattern_seed;
  for (auto& b : bytes) {
    x = x * 1103515245u + 12345u;
    b = static_cast<uint8_t>(x >> 16);
  }
  for (uint32_t i = 0; i < pat.GetSize(); ++i) {
    U w;
    std::memcpy(&w, &bytes[i * sizeof(U)], sizeof(U));
    pat.SetValue(i, w);
  }
  uint64_t want_count = 0;
  const std::vector<T> want = Reference(vs, bytes, mask, p, &want_count);
  uint64_t rsvd = 0;
  AscendC::GatherMask(dst, src, pat, true, mask, p, rsvd);
  ASSERT_EQ(rsvd, want_count);
  for (uint64_t i = 0; i < want_count; ++i) ASSERT_EQ(Bits(dst.GetValue(i)), Bits(want[i])) << i;
  // The mask register is left in normal mode holding the count (CANN's SetMaskNorm after).
  EXPECT_FALSE(ascsim::aicore::CurrentCore().vector.mask_counter_mode);
  EXPECT_EQ(ascsim::aicore::CurrentCore().vector.mask_low, mask);
}

TEST(GatherMaskCounter, UserPatternHalfAndFloat) {
  // Within one repeat (70 of 128 halves), beyond one repeat (300 elements), several repeats with
  // repeat strides, pattern rows shared (stride 0) or per repeat.
  CheckUserPattern<half, uint16_t>(70, {1, 2, 4, 0}, 1);
  CheckUserPattern<half, uint16_t>(300, {1, 1, 8, 0}, 2);
  CheckUserPattern<half, uint16_t>(129, {1, 3, 9, 1}, 3);
  CheckUserPattern<float, uint32_t>(33, {1, 2, 5, 0}, 4);
  CheckUserPattern<float, uint32_t>(200, {1, 2, 26, 1}, 5);
  CheckUserPattern<float, uint32_t>(64, {2, 1, 8, 0}, 6);  // block stride 2
}

template <class T>
void CheckBuiltin(uint8_t mode, uint32_t mask, AscendC::GatherMaskParams p) {
  CoreFixture fx;
  const uint32_t per_block = 32 / sizeof(T);
  const uint32_t src_elems =
      (p.repeatTimes - 1) * p.src0RepeatStride * per_block + mask + per_block;
  auto src = fx.Take<T>(src_elems);
  auto dst = fx.Take<T>(p.repeatTimes * mask + 64);
  std::vector<T> vs(src_elems);
  for (uint32_t i = 0; i < src_elems; ++i) vs[i] = T(float(i) + 0.25f);
  for (uint32_t i = 0; i < src_elems; ++i) src.SetValue(i, vs[i]);
  const uint16_t patterns[8] = {0, 0x5555, 0xAAAA, 0x1111, 0x2222, 0x4444, 0x8888, 0xFFFF};
  std::vector<uint8_t> row((mask + 15) / 16 * 2 + 32);
  for (size_t i = 0; i + 1 < row.size(); i += 2) std::memcpy(&row[i], &patterns[mode], 2);
  AscendC::GatherMaskParams q = p;
  q.src1RepeatStride = 0;  // built-in patterns have one row
  uint64_t want_count = 0;
  const std::vector<T> want = Reference(vs, row, mask, q, &want_count);
  uint64_t rsvd = 0;
  AscendC::GatherMask(dst, src, mode, true, mask, p, rsvd);
  ASSERT_EQ(rsvd, want_count) << int(mode);
  for (uint64_t i = 0; i < want_count; ++i) ASSERT_EQ(Bits(dst.GetValue(i)), Bits(want[i])) << i;
}

TEST(GatherMaskCounter, BuiltinPatternsKeepTheirPeriodPastOneRepeat) {
  for (uint8_t mode = 1; mode <= 7; ++mode) {
    CheckBuiltin<half>(mode, 45, {1, 1, 8, 0});
    CheckBuiltin<half>(mode, 333, {1, 1, 8, 0});
    CheckBuiltin<float>(mode, 21, {1, 3, 4, 7});  // src1RepeatStride is ignored for built-ins
    CheckBuiltin<float>(mode, 100, {1, 2, 16, 0});
  }
}

TEST(GatherMaskCounter, CompactsRowsInPlace) {
  // The production idiom: rows of 13 valid halves padded to 16, packed in place (pattern 7).
  CoreFixture fx;
  auto t = fx.Take<half>(16 * 6);
  for (uint32_t i = 0; i < 16 * 6; ++i) t.SetValue(i, half(float(i)));
  uint64_t rsvd = 0;
  AscendC::GatherMask(t, t, uint8_t(7), true, 13, {1, 6, 1, 0}, rsvd);
  ASSERT_EQ(rsvd, 13u * 6);
  for (uint32_t r = 0; r < 6; ++r)
    for (uint32_t e = 0; e < 13; ++e)
      ASSERT_EQ(float(t.GetValue(r * 13 + e)), float(r * 16 + e)) << r << "," << e;
}

TEST(GatherMaskCounter, NormalModeLeavesAFullMask) {
  CoreFixture fx;
  auto src = fx.Take<float>(64), dst = fx.Take<float>(64);
  AscendC::SetMaskCount();
  uint64_t rsvd = 0;
  AscendC::GatherMask(dst, src, uint8_t(7), false, 0, {1, 1, 8, 0}, rsvd);
  EXPECT_EQ(rsvd, 64u);
  EXPECT_FALSE(ascsim::aicore::CurrentCore().vector.mask_counter_mode);
  EXPECT_EQ(ascsim::aicore::CurrentCore().vector.mask_low, ~0ull);
  EXPECT_EQ(ascsim::aicore::CurrentCore().vector.mask_high, 0ull);
}

TEST(GatherMaskCounter, Errors) {
  CoreFixture fx;
  auto src = fx.Take<half>(256), dst = fx.Take<half>(512);
  auto pat = fx.Take<uint16_t>(16);
  uint64_t cnt = 0;
  EXPECT_EQ(ErrorOf([&] {
              AscendC::GatherMask(dst, src, pat, true, 0, {1, 1, 8, 0}, cnt);
            }),
            "test: block 0/1: GatherMask: mask 0 is outside [1, 4294967295] (reduceMode = true: "
            "the elements of each repeat)");
  // 300 elements of a repeat read past the 256-element src.
  EXPECT_NE(ErrorOf([&] {
              AscendC::GatherMask(dst, src, uint8_t(7), true, 300, {1, 1, 8, 0}, cnt);
            }).find("GatherMask: src0 reaches byte"),
            std::string::npos);
  // The pattern needs ceil(300 / 16) words in counter mode.
  EXPECT_NE(ErrorOf([&] {
              AscendC::GatherMask(dst, src, pat, true, 300, {1, 1, 8, 0}, cnt);
            }).find("GatherMask: src1Pattern reaches byte 38"),
            std::string::npos);
}

TEST(GatherMask, BuiltinPatterns) {
  CoreFixture fx;
  auto src = fx.Take<float>(256), dst = fx.Take<float>(256);
  std::vector<float> vs(256);
  for (uint32_t i = 0; i < 256; ++i) vs[i] = float(i);
  Fill(src, vs);
  for (uint8_t pattern = 1; pattern <= 7; ++pattern) {
    uint64_t cnt = 0;
    AscendC::GatherMask(dst, src, pattern, false, 0, {1, 2, 8, 0}, cnt);
    std::vector<float> want;
    for (uint32_t i = 0; i < 128; ++i) {
      bool take = false;
      switch (pattern) {
        case 1:
          take = i % 2 == 0;
          break;
        case 2:
          take = i % 2 == 1;
          break;
        case 7:
          take = true;
          break;
        default:
          take = i % 4 == uint32_t(pattern - 3);
          break;
      }
      if (take) want.push_back(vs[i]);
    }
    ASSERT_EQ(cnt, want.size()) << int(pattern);
    for (uint32_t k = 0; k < want.size(); ++k) ASSERT_EQ(dst.GetValue(k), want[k]) << int(pattern);
  }
}

TEST(GatherMask, TensorPatternWithStrides) {
  CoreFixture fx;
  auto src = fx.Take<half>(1024), dst = fx.Take<half>(512);
  auto pat = fx.Take<uint16_t>(64);
  const auto vs = RandomVector<half>(1024, -9, 9, 5);
  const auto vp = RandomVector<uint16_t>(64, 0, 65535, 6);
  Fill(src, vs);
  Fill(pat, vp);
  uint64_t cnt = 0;
  // Repeats 16 blocks apart in src, block stride 2, pattern rows 1 block (16 uint16) apart.
  AscendC::GatherMask(dst, src, pat, false, 0, {2, 3, 16, 1}, cnt);
  std::vector<half> want;
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t e = 0; e < 128; ++e) {
      const uint32_t bit = r * 256 + e;  // row r starts at 32 B * r = bit 256 r
      if ((vp[bit / 16] >> (bit % 16)) & 1) want.push_back(vs[r * 256 + (e / 16) * 32 + e % 16]);
    }
  }
  ASSERT_EQ(cnt, want.size());
  for (uint32_t k = 0; k < want.size(); ++k) ASSERT_EQ(Bits(dst.GetValue(k)), Bits(want[k])) << k;
}

TEST(GatherMask, RejectsMisuse) {
  CoreFixture fx;
  auto src = fx.Take<half>(256), dst = fx.Take<half>(32);
  auto pat = fx.Take<uint16_t>(16);
  uint64_t cnt = 0;
  EXPECT_NE(ErrorOf([&] {
              AscendC::GatherMask(dst, src, uint8_t(9), false, 0, {1, 1, 8, 0}, cnt);
            }).find("GatherMask: built-in src1Pattern 9 is outside [1, 7]"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::GatherMask(dst, src, uint8_t(7), false, 0, {1, 1, 8, 0}, cnt);
            }).find("GatherMask: dst [0, 128) of half exceeds LocalTensor size 32"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::GatherMask(dst, src, pat, false, 0, {1, 2, 8, 1}, cnt);
            })
                .find("GatherMask: src1Pattern reaches byte 48 (2 repeats, src1RepeatStride 1) "
                      "beyond its LocalTensor of 32 B"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::GatherMask(dst, src, uint8_t(1), true, 0, {1, 1, 8, 0}, cnt);
            }).find("GatherMask: mask 0 is outside [1, 4294967295]"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::GatherMask(dst, src, uint8_t(1), false, 0, {1, 300, 8, 0}, cnt);
            }).find("GatherMask: repeatTimes 300 is outside [0, 255]"),
            std::string::npos);
}

TEST(GatherMask, RejectsPartialOverlap) {
  CoreFixture fx;
  auto buf = fx.Take<half>(1024);
  uint64_t cnt = 0;
  EXPECT_NE(ErrorOf([&] {
              AscendC::GatherMask(buf[16], buf, uint8_t(7), false, 0, {1, 1, 8, 0}, cnt);
            }).find("GatherMask: dst UB"),
            std::string::npos);
}

// AscendCUtils::GetRsvdCnt reads what the last GatherMask selected (ops-math hans_encode's use:
// a compare mask, GatherMask in counter mode, then the count), for both element sizes.
TEST(GatherMask, GetRsvdCntReadsTheLastCount) {
  CoreFixture fx;
  EXPECT_EQ(AscendC::AscendCUtils::GetRsvdCnt(), 0);  // no GatherMask yet
  auto src = fx.Take<uint32_t>(64), dst = fx.Take<uint32_t>(64), pat = fx.Take<uint32_t>(8);
  std::vector<uint32_t> v(64);
  for (uint32_t i = 0; i < 64; ++i) v[i] = i * 7;
  Fill(src, v);
  const std::vector<uint32_t> bits{0x80000001u, 0x0000F00Fu};  // 2 + 8 of 64 elements
  for (uint32_t seed = 0; seed < 2; ++seed) {
    Fill(pat, seed == 0 ? bits : std::vector<uint32_t>{0xFFFFFFFFu, 0x1u});  // then 33
    uint64_t cnt = 0;
    AscendC::GatherMask(dst, src, pat, true, 64, {1, 1, 8, 0}, cnt);
    EXPECT_EQ(cnt, seed == 0 ? 10u : 33u);
    EXPECT_EQ(AscendC::AscendCUtils::GetRsvdCnt(), static_cast<int64_t>(cnt));
  }
  auto h = fx.Take<half>(128), hd = fx.Take<half>(128);
  Fill(h, std::vector<half>(128, half(1.0f)));
  uint64_t hcnt = 0;
  AscendC::GatherMask(hd, h, uint8_t(3), false, 0, {1, 1, 8, 0}, hcnt);  // 1 of every 4
  EXPECT_EQ(hcnt, 32u);
  EXPECT_EQ(AscendC::AscendCUtils::GetRsvdCnt(), 32);
}

}  // namespace
