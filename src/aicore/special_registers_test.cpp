// special_registers.h (DEQSCALE, ACC_VAL, CTRL[48], AscendCUtils) against scalar references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ascsim_test::Warnings;

// ---------------------------------------------------------------- registers

TEST(SpecialRegisters, Int32ToHalfCastScalesByDeqScale) {
  CoreFixture fx;
  constexpr uint32_t n = 77;
  auto src = fx.Take<int32_t>(n);
  auto dst = fx.Take<half>(n);
  const auto v = RandomVector<int32_t>(n, -70000, 70000, 5);
  Fill(src, v);
  AscendC::SetDeqScale(half(1.0f));
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(Bits(dst.GetValue(i)), Bits(half(float(v[i])))) << i;
  AscendC::SetDeqScale(half(0.25f));
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(half(float(v[i]) * 0.25f))) << i;
  }
  EXPECT_EQ(Warnings(fx), "");
}

TEST(SpecialRegisters, Int32ToHalfCastWithoutDeqScaleWarns) {
  CoreFixture fx;
  auto src = fx.Take<int32_t>(16);
  auto dst = fx.Take<half>(16);
  Fill(src, std::vector<int32_t>(16, 3));
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, 16);
  EXPECT_EQ(float(dst.GetValue(15)), 3.0f);
  EXPECT_NE(Warnings(fx).find("which this kernel never set (call SetDeqScale((half)1.0)"),
            std::string::npos);
}

template <class T>
void CheckAccVal(uint32_t n, uint32_t seed) {
  CoreFixture fx;
  auto src = fx.Take<T>(n), dst = fx.Take<T>(16), work = fx.Take<T>(512);
  const auto v = RandomVector<T>(n, -2, 2, seed);
  Fill(src, v);
  AscendC::ReduceSum(dst, src, work, n);
  EXPECT_EQ(Bits(AscendC::GetAccVal<T>()), Bits(dst.GetValue(0)));
  const int64_t raw = AscendC::GetAccVal();
  T low;
  std::memcpy(static_cast<void*>(&low), &raw, sizeof(T));
  EXPECT_EQ(Bits(low), Bits(dst.GetValue(0)));
  EXPECT_EQ(raw >> (8 * sizeof(T)), 0);
  EXPECT_EQ(Bits(AscendC::GetReduceRepeatSumSpr<T>()), Bits(dst.GetValue(0)));
}
TEST(SpecialRegisters, AccValHoldsTheLastReduceSum) {
  CheckAccVal<float>(1001, 6);
  CheckAccVal<half>(333, 7);
}

TEST(SpecialRegisters, CtrlSprBit48) {
  CoreFixture fx;
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 1);  // inf/NaN mode: what ascsim computes in
  AscendC::SetCtrlSpr<48, 48>(1);
  EXPECT_EQ(Warnings(fx), "");
  AscendC::SetCtrlSpr<48, 48>(0);
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 0);
  EXPECT_NE(Warnings(fx).find("saturation mode (inf -> +-MAX, NaN -> 0 for half/bfloat16_t) is not "
                              "simulated"),
            std::string::npos);
  AscendC::ResetCtrlSpr<48, 48>();
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 1);
  EXPECT_EQ(ErrorOf([] { AscendC::SetCtrlSpr<48, 48>(2); }),
            "test: block 0/1: SetCtrlSpr<48, 48>: value 2 does not fit the 1-bit field CTRL[48]");
}

TEST(SpecialRegisters, CtrlSprIsNotOn310P) {
  CoreFixture fx(128 * 1024, "Ascend310P3");
  EXPECT_EQ(ErrorOf([] { (void)AscendC::GetCtrlSpr<48, 48>(); }),
            "test: block 0/1: GetCtrlSpr: CTRL[48] is not available on Ascend310P3 (arch 2002); "
            "it exists on arch 2201 (Atlas A2/A3)");
}

TEST(SpecialRegisters, AscendCUtilsSetMaskWritesTheRegister) {
  CoreFixture fx;
  auto& core = fx.core().core();
  for (int32_t len : {1, 7, 63, 64, 65, 100, 127, 128, 200}) {
    AscendC::AscendCUtils::SetMask<half>(len);
    uint64_t lo = 0, hi = 0;
    for (int32_t e = 0; e < std::min(len, 128); ++e) (e < 64 ? lo : hi) |= uint64_t{1} << (e % 64);
    EXPECT_EQ(core.vector.mask_low, lo) << len;
    EXPECT_EQ(core.vector.mask_high, hi) << len;
  }
  AscendC::AscendCUtils::SetMask<float>(64);  // a whole float repeat
  EXPECT_EQ(core.vector.mask_low, ~0ull);
  AscendC::AscendCUtils::SetMask<float>(0x12, 0x34);
  EXPECT_EQ(core.vector.mask_high, 0x12u);
  EXPECT_EQ(core.vector.mask_low, 0x34u);
  EXPECT_EQ(AscendC::AscendCUtils::GetC0Count(2), 16);
  EXPECT_EQ(AscendC::AscendCUtils::GetC0Count(4), 8);
  EXPECT_EQ(AscendC::AscendCUtils::GetBitSize(4), 32);
  EXPECT_EQ(AscendC::AscendCUtils::GetDefaultBlockNum(), 8);
  static_assert(AscendC::GetDataBlockSizeInBytes() == 32);
  EXPECT_EQ(ErrorOf([] { AscendC::AscendCUtils::GetC0Count(0); }),
            "test: block 0/1: AscendCUtils::GetC0Count: dtypeSize can not be 0");
  // The mask it leaves is the one a later isSetMask=false instruction uses.
  auto a = fx.Take<float>(64), b = fx.Take<float>(64), c = fx.Take<float>(64);
  Fill(a, std::vector<float>(64, 1.0f));
  Fill(b, std::vector<float>(64, 2.0f));
  Fill(c, std::vector<float>(64, 0.0f));
  AscendC::AscendCUtils::SetMask<float>(10);
  AscendC::Add<float, false>(c, a, b, AscendC::MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(c.GetValue(i), i < 10 ? 3.0f : 0.0f) << i;
  AscendC::InitSocState();
  EXPECT_EQ(core.vector.mask_low, ~0ull);
  EXPECT_FALSE(core.vector.mask_counter_mode);
}

}  // namespace
