// The bitwise `const uint64_t mask[]` argument (ascsim/aicore/vector_masked.h): its length is the
// element type's (asc-devkit docs, 逐bit模式: two words for 16-bit operands, one for 32-bit ones),
// so a 32-bit call with the documented `uint64_t mask[1]` must not read a second word (ops-math
// right_shift passes one from the stack). Checked against a scalar reference for both widths.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

// A one-word mask followed by a word that is not 0: reading mask[1] would see the neighbour.
struct OneWordMask {
  uint64_t mask[1];
  uint64_t neighbour;
};

template <class T>
void Put(const AscendC::LocalTensor<T>& t, const std::vector<T>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, v[i]);
}

template <class T>
void CheckOneWordMask() {
  constexpr uint32_t kPerRepeat = 64, kRepeats = 3;
  CoreFixture fx;
  auto src = fx.Take<T>(kPerRepeat * kRepeats), dst = fx.Take<T>(kPerRepeat * kRepeats);
  const auto x = RandomVector<T>(kPerRepeat * kRepeats, -100, 100, 7);
  Put(src, x);
  Put(dst, std::vector<T>(kPerRepeat * kRepeats, T(5)));
  const OneWordMask copy{{0x5555555555555555ull}, 0x0001000100000008ull};
  AscendC::Adds(dst, src, T(3), copy.mask, kRepeats, {1, 1, 8, 8});
  for (uint32_t i = 0; i < kPerRepeat * kRepeats; ++i) {
    const bool on = (copy.mask[0] >> (i % kPerRepeat)) & 1;
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(on ? T(x[i] + T(3)) : T(5))) << i;
  }
}

TEST(VectorMaskArray, ThirtyTwoBitCallsReadOneWord) {
  CheckOneWordMask<float>();
  CheckOneWordMask<int32_t>();
}

TEST(VectorMaskArray, ShiftRightWithOneWordMask) {
  CoreFixture fx;
  auto src = fx.Take<int32_t>(64), dst = fx.Take<int32_t>(64);
  const auto x = RandomVector<int32_t>(64, -100000, 100000, 3);
  Put(src, x);
  Put(dst, std::vector<int32_t>(64, 0));
  const OneWordMask m{{0xF0F0F0F0F0F0F0F1ull}, ~0ull};
  AscendC::UnaryRepeatParams p;
  AscendC::ShiftRight(dst, src, int32_t(3), m.mask, 1, p);
  for (uint32_t i = 0; i < 64; ++i) {
    const bool on = (m.mask[0] >> i) & 1;
    ASSERT_EQ(dst.GetValue(i), on ? (x[i] >> 3) : 0) << i;
  }
}

TEST(VectorMaskArray, SixteenBitCallsReadTwoWords) {
  CoreFixture fx;
  auto src = fx.Take<half>(128), dst = fx.Take<half>(128);
  const auto x = RandomVector<half>(128, -10, 10, 9);
  Put(src, x);
  Put(dst, std::vector<half>(128, half(0)));
  const uint64_t mask[2] = {0x8000000000000001ull, 0x00000000000000F0ull};
  AscendC::Muls(dst, src, half(2), mask, 1, {1, 1, 8, 8});
  for (uint32_t i = 0; i < 128; ++i) {
    const bool on = (mask[i / 64] >> (i % 64)) & 1;
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(on ? half(float(x[i]) * 2) : half(0))) << i;
  }
}

TEST(VectorMaskArray, Errors) {
  CoreFixture fx;
  auto f = fx.Take<float>(64), g = fx.Take<float>(64);
  auto h = fx.Take<half>(128), k = fx.Take<half>(128);
  // SetVectorMask gives both words: a 32-bit type still refuses a high word.
  EXPECT_THAT(ErrorOf([&] { AscendC::SetVectorMask<float>(1, 1); }),
              HasSubstr("SetVectorMask: bitwise mask[1] is 0x1 but must be 0 for 32-bit float"));
  AscendC::ResetMask();
  const OneWordMask zero{{0}, ~0ull};
  EXPECT_THAT(ErrorOf([&] {
                AscendC::Adds(g, f, 1.0f, zero.mask, 1, {1, 1, 8, 8});
              }),
              HasSubstr("Adds: bitwise mask is all zero"));
  const uint64_t both_zero[2] = {0, 0};
  EXPECT_THAT(ErrorOf([&] {
                AscendC::Adds(k, h, half(1), both_zero, 1, {1, 1, 8, 8});
              }),
              HasSubstr("Adds: bitwise mask is all zero"));
}

}  // namespace
