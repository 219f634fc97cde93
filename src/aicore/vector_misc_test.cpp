// Axpy, Brcb, GatherMask, CreateVecIndex and bfloat16_t casts against scalar references.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;

template <class T>
void Fill(const AscendC::LocalTensor<T>& t, const std::vector<T>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, v[i]);
}

TEST(VectorMisc, AxpyCountFormSameAndMixedTypes) {
  CoreFixture fx;
  auto dh = fx.Take<half>(512), sh = fx.Take<half>(512);
  auto df = fx.Take<float>(512);
  const auto vd = RandomVector<half>(512, -4, 4, 1), vs = RandomVector<half>(512, -4, 4, 2);
  Fill(dh, vd);
  Fill(sh, vs);
  AscendC::Axpy(dh, sh, half(1.5f), 300);
  for (uint32_t i = 0; i < 512; ++i) {
    const half want = i < 300 ? half(float(vs[i]) * 1.5f + float(vd[i])) : vd[i];
    ASSERT_EQ(Bits(dh.GetValue(i)), Bits(want)) << i;
  }
  Fill(df, std::vector<float>(512, 1.0f));
  AscendC::Axpy(df, sh, half(2.0f), 256);
  for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(df.GetValue(i), float(vs[i]) * 2.0f + 1.0f) << i;
  EXPECT_EQ(df.GetValue(256), 1.0f);
}

TEST(VectorMisc, AxpyMaskForm) {
  CoreFixture fx;
  auto d = fx.Take<float>(1024), s = fx.Take<float>(1024);
  const auto vs = RandomVector<float>(1024, -4, 4, 3);
  Fill(s, vs);
  Fill(d, std::vector<float>(1024, 10.0f));
  AscendC::Axpy(d, s, 0.5f, 20, 3, {2, 1, 16, 8});
  std::vector<float> want(1024, 10.0f);
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t e = 0; e < 20; ++e)
      want[r * 128 + (e / 8) * 16 + e % 8] = vs[r * 64 + e] * 0.5f + 10.0f;
  for (uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(d.GetValue(i), want[i]) << i;
}

TEST(VectorMisc, BrcbBroadcastsEachElementToABlock) {
  CoreFixture fx;
  auto src = fx.Take<half>(64), dst = fx.Take<half>(2048);
  const auto vs = RandomVector<half>(64, -9, 9, 4);
  Fill(src, vs);
  Fill(dst, std::vector<half>(2048, half(-1.0f)));
  AscendC::Brcb(dst, src, 2, {2, 20});
  std::vector<half> want(2048, half(-1.0f));
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t j = 0; j < 8; ++j)
      for (uint32_t k = 0; k < 16; ++k) want[r * 20 * 16 + j * 2 * 16 + k] = vs[r * 8 + j];
  for (uint32_t i = 0; i < 2048; ++i) ASSERT_EQ(Bits(dst.GetValue(i)), Bits(want[i])) << i;
  auto srcf = fx.Take<float>(8), dstf = fx.Take<float>(64);
  Fill(srcf, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  AscendC::Brcb(dstf, srcf, 1, {1, 8});
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(dstf.GetValue(i), float(i / 8 + 1)) << i;
}

TEST(VectorMisc, GatherMaskBuiltinPatterns) {
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

TEST(VectorMisc, GatherMaskTensorPatternWithStrides) {
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

TEST(VectorMisc, CreateVecIndexIntAndFloat) {
  CoreFixture fx;
  auto di = fx.Take<int32_t>(128);
  auto df = fx.Take<half>(128);
  Fill(di, std::vector<int32_t>(128, -1));
  AscendC::CreateVecIndex(di, int32_t(-5), 100);
  for (uint32_t i = 0; i < 100; ++i) ASSERT_EQ(di.GetValue(i), int32_t(i) - 5);
  EXPECT_EQ(di.GetValue(100), -1);
  AscendC::CreateVecIndex(df, half(0.5f), 128);
  for (uint32_t i = 0; i < 128; ++i) ASSERT_EQ(Bits(df.GetValue(i)), Bits(half(0.5f + i)));
}

TEST(VectorMisc, Bfloat16CastsBothWays) {
  CoreFixture fx;
  auto f = fx.Take<float>(256), back = fx.Take<float>(256);
  auto b = fx.Take<bfloat16_t>(256);
  const auto vf = RandomVector<float>(256, -1000, 1000, 7);
  Fill(f, vf);
  AscendC::Cast(b, f, AscendC::RoundMode::CAST_RINT, 256);
  AscendC::Cast(back, b, AscendC::RoundMode::CAST_NONE, 256);
  for (uint32_t i = 0; i < 256; ++i) {
    const uint16_t want = ascsim::FloatToBf16Bits(vf[i]);
    ASSERT_EQ(Bits(b.GetValue(i)), want) << i;
    uint32_t widened = uint32_t(want) << 16;
    float wf;
    std::memcpy(&wf, &widened, 4);
    ASSERT_EQ(back.GetValue(i), wf) << i;
  }
}

TEST(VectorMisc, RejectsMisuse) {
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
  EXPECT_NE(ErrorOf([&] {
              AscendC::Brcb(dst, src, 1, {1, 8});
            }).find("Brcb: dst reaches byte 256"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Brcb(src, dst, 5, {1, 8});
            }).find("Brcb: src0 [0, 40) of half exceeds LocalTensor size 32"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf([&] { AscendC::Axpy(src[8], src, half(1.0f), 64); }).find("not 32-byte aligned"),
      std::string::npos);
  EXPECT_NE(ErrorOf([&] { AscendC::Axpy(src[16], src, half(1.0f), 64); }).find("Axpy: dst UB"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::CreateVecIndex(dst, half(0.0f), 33);
            }).find("CreateVecIndex: dst [0, 33) of half exceeds LocalTensor size 32"),
            std::string::npos);
}

}  // namespace

namespace {

TEST(VectorMisc, RejectsPartialOverlapInBrcbAndGatherMask) {
  CoreFixture fx;
  auto buf = fx.Take<half>(1024);
  uint64_t cnt = 0;
  EXPECT_NE(ErrorOf([&] {
              AscendC::Brcb(buf, buf[16], 2, {1, 8});
            }).find("Brcb: dst UB"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::GatherMask(buf[16], buf, uint8_t(7), false, 0, {1, 1, 8, 0}, cnt);
            }).find("GatherMask: dst UB"),
            std::string::npos);
}

}  // namespace
