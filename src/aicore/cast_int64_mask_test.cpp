// Cast's mask/repeat form with a 64-bit operand (ascsim/aicore/vector_masked.h): the mask counts
// elements of the wider type, so int64_t <-> float / int32_t repeats hold 32 elements; the
// continuous mask is in [1, 32] and the bitwise mask[0] fits 32 bits, mask[1] unread (asc-devkit
// docs SIMD计算说明/掩码.md, Memory矢量计算/类型转换/Cast.md). ops-math angle_v2 casts int64_t to
// float this way with CAST_FLOOR.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::RoundMode;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

// int64_t -> float rounded toward -inf or to nearest even; |v| < 2^53 so double holds v exactly.
float ToFloat(int64_t v, RoundMode mode) {
  const double dv = static_cast<double>(v);
  float r = static_cast<float>(dv);  // nearest, ties to even
  if (mode == RoundMode::CAST_FLOOR && static_cast<double>(r) > dv) r = std::nextafter(r, -INFINITY);
  return r;
}

std::vector<int64_t> Values(uint32_t n) {
  std::vector<int64_t> v(n);
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (uint32_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v[i] = static_cast<int64_t>(s >> 12) % (int64_t{1} << 40) - (int64_t{1} << 39);
  }
  v[0] = (int64_t{1} << 24) + 1;  // between two floats: floor and rint differ
  v[1] = -((int64_t{1} << 24) + 1);
  return v;
}

// `repeats` repeats of `mask` (continuous) or `bits` (bitwise) elements, dense strides.
void CheckInt64ToFloat(RoundMode mode, uint32_t repeats, uint64_t mask, bool bitwise) {
  CoreFixture fx;
  const uint32_t n = 32 * repeats;
  LocalTensor<int64_t> src = fx.Take<int64_t>(n);
  LocalTensor<float> dst = fx.Take<float>(n);
  const std::vector<int64_t> x = Values(n);
  for (uint32_t i = 0; i < n; ++i) {
    src.SetValue(i, x[i]);
    dst.SetValue(i, -7.0f);
  }
  if (bitwise) {
    const uint64_t bits[2] = {mask, 0};
    AscendC::Cast(dst, src, mode, bits, static_cast<uint8_t>(repeats), {1, 1, 4, 8});
  } else {
    AscendC::Cast(dst, src, mode, mask, static_cast<uint8_t>(repeats), {1, 1, 4, 8});
  }
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t e = 0; e < 32; ++e) {
      const uint32_t i = r * 32 + e;
      const bool on = bitwise ? ((mask >> e) & 1) != 0 : e < mask;
      ASSERT_EQ(dst.GetValue(i), on ? ToFloat(x[i], mode) : -7.0f)
          << "element " << i << " value " << x[i] << " mask " << mask;
    }
  }
}

TEST(CastInt64Mask, Int64ToFloatRepeatsOf32Elements) {
  CheckInt64ToFloat(RoundMode::CAST_FLOOR, 3, 32, false);
  CheckInt64ToFloat(RoundMode::CAST_FLOOR, 2, 13, false);
  CheckInt64ToFloat(RoundMode::CAST_RINT, 1, 32, false);
  CheckInt64ToFloat(RoundMode::CAST_RINT, 2, 0xF0F0F00Full, true);
}

TEST(CastInt64Mask, FloatToInt64AndInt64ToInt32) {
  CoreFixture fx;
  LocalTensor<float> f = fx.Take<float>(64);
  LocalTensor<int64_t> w = fx.Take<int64_t>(64);
  LocalTensor<int32_t> i32 = fx.Take<int32_t>(64);
  for (uint32_t i = 0; i < 64; ++i) f.SetValue(i, -40.75f + 1.5f * static_cast<float>(i));
  // float -> int64_t: 32 per repeat, the float side 4 blocks a repeat.
  AscendC::Cast(w, f, RoundMode::CAST_TRUNC, uint64_t{32}, 2, {1, 1, 8, 4});
  AscendC::Cast(i32, w, RoundMode::CAST_NONE, uint64_t{20}, 2, {1, 1, 4, 8});
  for (uint32_t i = 0; i < 64; ++i) {
    const int64_t want = static_cast<int64_t>(std::trunc(-40.75f + 1.5f * static_cast<float>(i)));
    ASSERT_EQ(w.GetValue(i), want) << i;
    if (i % 32 < 20) {
      ASSERT_EQ(i32.GetValue(i), static_cast<int32_t>(want)) << i;
    }
  }
}

TEST(CastInt64Mask, MasksOutsideThe32ElementRepeatAreRefused) {
  CoreFixture fx;
  LocalTensor<int64_t> src = fx.Take<int64_t>(64);
  LocalTensor<float> dst = fx.Take<float>(64);
  EXPECT_THAT(ErrorOf([&] {
                AscendC::Cast(dst, src, RoundMode::CAST_FLOOR, uint64_t{33}, 1, {1, 1, 4, 8});
              }),
              HasSubstr("mask 33 is outside [1, 32] for int64_t"));
  const uint64_t wide[2] = {uint64_t{1} << 40, 0};
  EXPECT_THAT(ErrorOf([&] {
                AscendC::Cast(dst, src, RoundMode::CAST_FLOOR, wide, 1, {1, 1, 4, 8});
              }),
              HasSubstr("a 64-bit int64_t repeat has 32 elements"));
}

}  // namespace
