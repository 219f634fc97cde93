// Compare / CompareScalar / Select / CMPMASK against scalar references of the documented bit
// layout: bit i of the packed mask (bit i % 8 of byte i / 8) belongs to element i.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_operator.h"

namespace {

using AscendC::CMPMODE;
using AscendC::SELMODE;
using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;

constexpr uint32_t kCap = 2048;

bool BitOf(const AscendC::LocalTensor<uint8_t>& t, uint32_t i) {
  return (t.GetValue(i / 8) >> (i % 8)) & 1;
}
bool Ref(CMPMODE m, float x, float y) {
  switch (m) {
    case CMPMODE::LT:
      return x < y;
    case CMPMODE::GT:
      return x > y;
    case CMPMODE::EQ:
      return x == y;
    case CMPMODE::LE:
      return x <= y;
    case CMPMODE::GE:
      return x >= y;
    case CMPMODE::NE:
      return x != y;
  }
  return false;
}
const CMPMODE kModes[] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ,
                          CMPMODE::LE, CMPMODE::GE, CMPMODE::NE};

// Small integers so EQ and NE see both outcomes.
template <class T>
void RunCompareCount() {
  CoreFixture fx;
  auto a = fx.Take<T>(kCap), b = fx.Take<T>(kCap);
  auto bits = fx.Take<uint8_t>(kCap / 8 + 32);
  const auto va = RandomVector<T>(kCap, -3, 3, 1), vb = RandomVector<T>(kCap, -3, 3, 2);
  Fill(a, va);
  Fill(b, vb);
  const uint32_t count = 3 * 256 / sizeof(T);
  for (CMPMODE m : kModes) {
    Fill(bits, std::vector<uint8_t>(kCap / 8 + 32, 0xA5));
    AscendC::Compare(bits, a, b, m, count);
    for (uint32_t i = 0; i < count; ++i) {
      ASSERT_EQ(BitOf(bits, i), Ref(m, float(va[i]), float(vb[i])))
          << "mode " << int(m) << " i " << i;
    }
    EXPECT_EQ(bits.GetValue(count / 8), 0xA5) << "byte after the mask must stay";
    Fill(bits, std::vector<uint8_t>(kCap / 8 + 32, 0xA5));
    AscendC::CompareScalar(bits, a, T(1), m, count);
    for (uint32_t i = 0; i < count; ++i) {
      ASSERT_EQ(BitOf(bits, i), Ref(m, float(va[i]), 1.0f)) << "scalar mode " << int(m);
    }
  }
}
TEST(CompareSelect, CountFormAllModesHalfAndFloat) {
  RunCompareCount<half>();
  RunCompareCount<float>();
}

template <class T>
void RunCompareMasked() {
  CoreFixture fx;
  auto a = fx.Take<T>(kCap), b = fx.Take<T>(kCap);
  auto bits = fx.Take<uint8_t>(256);
  const auto va = RandomVector<T>(kCap, -3, 3, 3), vb = RandomVector<T>(kCap, -3, 3, 4);
  Fill(a, va);
  Fill(b, vb);
  const uint32_t per = 256 / sizeof(T), b_elems = 32 / sizeof(T);
  const uint32_t len = per - 5;
  Fill(bits, std::vector<uint8_t>(256, 0xFF));
  AscendC::Compare(bits, a, b, CMPMODE::GE, len, 3, {1, 2, 1, 8, 16, 8});
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t e = 0; e < per; ++e) {
      const uint32_t ia = r * 16 * b_elems + (e / b_elems) * 2 * b_elems + e % b_elems;
      const bool want = e < len && Ref(CMPMODE::GE, float(va[ia]), float(vb[r * per + e]));
      ASSERT_EQ(BitOf(bits, r * per + e), want) << "r " << r << " e " << e;
    }
  }
  EXPECT_EQ(bits.GetValue(3 * per / 8), 0xFF);
}
TEST(CompareSelect, MaskFormPacksRepeatsAndClearsDisabledBits) {
  RunCompareMasked<half>();
  RunCompareMasked<float>();
}

template <class T>
void RunSelect(SELMODE mode) {
  CoreFixture fx;
  auto dst = fx.Take<T>(kCap), a = fx.Take<T>(kCap), b = fx.Take<T>(kCap);
  auto sel = fx.Take<uint8_t>(256);
  const auto va = RandomVector<T>(kCap, 0, 100, 5), vb = RandomVector<T>(kCap, -100, 0, 6);
  const auto vs = RandomVector<uint8_t>(256, 0, 255, 7);
  Fill(a, va);
  Fill(b, vb);
  Fill(sel, vs);
  Fill(dst, std::vector<T>(kCap, T(-7)));
  const uint32_t per = 256 / sizeof(T), count = 2 * per + 10;
  const T scalar = T(42);
  if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE)
    AscendC::Select(dst, sel, a, scalar, mode, count);
  else
    AscendC::Select(dst, sel, a, b, mode, count);
  for (uint32_t i = 0; i < kCap; ++i) {
    T want = T(-7);
    if (i < count) {
      const uint32_t bit = mode == SELMODE::VSEL_CMPMASK_SPR ? i % per : i;
      const bool take_a = (vs[bit / 8] >> (bit % 8)) & 1;
      want = take_a ? va[i] : (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE ? scalar : vb[i]);
    }
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(want)) << "mode " << int(mode) << " i " << i;
  }
}
TEST(CompareSelect, SelectCountFormThreeModes) {
  for (SELMODE m : {SELMODE::VSEL_CMPMASK_SPR, SELMODE::VSEL_TENSOR_SCALAR_MODE,
                    SELMODE::VSEL_TENSOR_TENSOR_MODE}) {
    RunSelect<half>(m);
    RunSelect<float>(m);
  }
}

TEST(CompareSelect, SelectMaskFormWithStridesAndBitMask) {
  CoreFixture fx;
  auto dst = fx.Take<float>(kCap), a = fx.Take<float>(kCap), b = fx.Take<float>(kCap);
  auto sel = fx.Take<uint8_t>(64);
  const auto va = RandomVector<float>(kCap, 0, 100, 8), vb = RandomVector<float>(kCap, -100, 0, 9);
  const auto vs = RandomVector<uint8_t>(64, 0, 255, 10);
  Fill(a, va);
  Fill(b, vb);
  Fill(sel, vs);
  Fill(dst, std::vector<float>(kCap, -7.0f));
  const uint64_t mask[2] = {0x00000000FFFF00F1ull, 0};
  AscendC::Select(dst, sel, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, mask, 2, {2, 1, 1, 16, 8, 8});
  std::vector<float> want(kCap, -7.0f);
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t e = 0; e < 64; ++e) {
      if (!((mask[0] >> e) & 1)) continue;
      const uint32_t bit = r * 64 + e;
      const bool take_a = (vs[bit / 8] >> (bit % 8)) & 1;
      want[r * 128 + (e / 8) * 16 + e % 8] = take_a ? va[r * 64 + e] : vb[r * 64 + e];
    }
  }
  for (uint32_t i = 0; i < kCap; ++i) ASSERT_EQ(dst.GetValue(i), want[i]) << i;
}

TEST(CompareSelect, CompareIntoCmpMaskThenSelectFromRegister) {
  CoreFixture fx;
  auto dst = fx.Take<half>(kCap), a = fx.Take<half>(kCap), b = fx.Take<half>(kCap);
  auto reg = fx.Take<uint8_t>(32);
  const auto va = RandomVector<half>(kCap, -3, 3, 11), vb = RandomVector<half>(kCap, -3, 3, 12);
  Fill(a, va);
  Fill(b, vb);
  AscendC::Compare(a, b, CMPMODE::LT, 128, {1, 1, 1, 8, 8, 8});
  AscendC::GetCmpMask(reg);
  for (uint32_t i = 0; i < 128; ++i) ASSERT_EQ(BitOf(reg, i), float(va[i]) < float(vb[i])) << i;
  // Every repeat of a register-mode Select reuses the same 128 bits.
  AscendC::SetVectorMask<half>(128);
  AscendC::Select<half, SELMODE::VSEL_CMPMASK_SPR>(dst, a, b, 2, {1, 1, 1, 8, 8, 8});
  for (uint32_t i = 0; i < 256; ++i) {
    const bool take_a = BitOf(reg, i % 128);
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(take_a ? va[i] : vb[i])) << i;
  }
  // SetCmpMask loads the register from UB.
  Fill(reg, std::vector<uint8_t>(32, 0));
  reg.SetValue(0, 0x01);
  AscendC::SetCmpMask(reg);
  AscendC::Select<half, SELMODE::VSEL_CMPMASK_SPR>(dst, a, b, 1, {1, 1, 1, 8, 8, 8});
  EXPECT_EQ(Bits(dst.GetValue(0)), Bits(va[0]));
  EXPECT_EQ(Bits(dst.GetValue(1)), Bits(vb[1]));
}

TEST(CompareSelect, RejectsMisuse) {
  CoreFixture fx;
  auto a = fx.Take<half>(kCap), b = fx.Take<half>(kCap), dst = fx.Take<half>(kCap);
  auto bits = fx.Take<uint8_t>(32);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Compare(bits, a, b, CMPMODE::EQ, 100);
            }).find("Compare: count 100 of half is 200 B, not a multiple of 256 B"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { AscendC::Compare(bits, a, b, CMPMODE::EQ, 512); })
                .find("Compare: dst needs 64 B of mask bits (512 elements) but its LocalTensor "
                      "holds 32 B"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Select(dst, bits, a, b, SELMODE::VSEL_TENSOR_SCALAR_MODE, 128);
            }).find("Select: selMode VSEL_TENSOR_SCALAR_MODE does not fit a tensor src1"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Select(dst, bits, a, half(1.0f), SELMODE::VSEL_TENSOR_TENSOR_MODE, 128);
            }).find("does not fit a scalar src1"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Select(dst, bits, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 512);
            }).find("Select: selMask needs 64 B of mask bits"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf([&] {
        AscendC::Select<half, SELMODE::VSEL_TENSOR_TENSOR_MODE>(dst, a, b, 1, {1, 1, 1, 8, 8, 8});
      }).find("needs a selMask tensor"),
      std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Compare(bits, a, b, CMPMODE::EQ, 129, 1, {1, 1, 1, 8, 8, 8});
            }).find("Compare: mask 129 is outside [1, 128]"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Compare(bits, a[8], b, CMPMODE::EQ, 128);
            }).find("not 32-byte aligned"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { AscendC::GetCmpMask(bits[24]); }).find("GetCmpMask: dst needs 16 B"),
            std::string::npos);
}

}  // namespace

namespace {

TEST(CompareSelect, RejectsPartialOverlapOfMaskAndData) {
  CoreFixture fx;
  auto a = fx.Take<half>(kCap), b = fx.Take<half>(kCap), dst = fx.Take<half>(kCap);
  auto sel = fx.Take<uint8_t>(64);
  // The bit mask written over the tail of src0.
  auto bits_over_a = a[64].ReinterpretCast<uint8_t>();
  EXPECT_NE(ErrorOf([&] {
              AscendC::Compare(bits_over_a, a, b, CMPMODE::EQ, 256);
            }).find("Compare: dst UB"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Select(a[64], sel, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);
            }).find("Select: dst UB"),
            std::string::npos);
  (void)dst;
}

}  // namespace

namespace {

TEST(CompareSelect, ComparesMaskFormWithSourceStrides) {
  CoreFixture fx;
  auto a = fx.Take<float>(kCap);
  auto bits = fx.Take<uint8_t>(64);
  const auto va = RandomVector<float>(kCap, -3, 3, 21);
  Fill(a, va);
  Fill(bits, std::vector<uint8_t>(64, 0xFF));
  const uint64_t mask[2] = {0xFFFF0000FFFF0001ull, 0};
  AscendC::Compares(bits, a, 0.0f, CMPMODE::GT, mask, 2, {1, 2, 8, 16});
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t e = 0; e < 64; ++e) {
      const uint32_t src = r * 128 + (e / 8) * 16 + e % 8;
      const bool want = ((mask[0] >> e) & 1) && va[src] > 0.0f;
      ASSERT_EQ(BitOf(bits, r * 64 + e), want) << r << " " << e;
    }
  }
  EXPECT_EQ(bits.GetValue(16), 0xFF);
}

}  // namespace
