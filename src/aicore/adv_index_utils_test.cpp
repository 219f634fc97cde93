// ArithProgression / Arange (ascsim/adv/index.h) and InitGlobalMemory (ascsim/adv/utils.h)
// against scalar references: the progression as the device's algorithm rounds it (scalar first
// block, then Adds of block and repeat steps) and as exact arithmetic within a tolerance, in every
// supported type and at sizes around the block and repeat boundaries; the GM fill at sizes around
// the 32-byte and the UB-piece boundaries, with guard elements; the error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;

// The device's values (asc-devkit arithprogression_common_impl.h): elements of the first 32-byte
// block by the scalar unit, block k of the first repeat = block k-1 + 8-block step, repeat r =
// repeat r-1 + repeat step, each add rounded to T.
template <class T>
std::vector<T> DeviceProgression(T first, T diff, int32_t count) {
  constexpr int32_t kBlock = 32 / sizeof(T), kRepeat = 256 / sizeof(T);
  auto add = [](T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(a + b);
    else return T(float(a) + float(b));
  };
  auto step = [&](int32_t n) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(int64_t(diff) * n);
    else return T(float(diff) * float(n));
  };
  const int32_t padded = count > kBlock ? (count + kBlock - 1) / kBlock * kBlock : count;
  std::vector<T> v(padded);
  for (int32_t i = 0; i < std::min(count, kBlock); ++i) {
    if constexpr (std::is_same_v<T, half>) v[i] = half(float(first) + float(diff) * float(i));
    else v[i] = static_cast<T>(first + diff * static_cast<T>(i));
  }
  if (count <= kBlock) return v;
  const int32_t first_blocks = count > kRepeat ? kRepeat / kBlock : padded / kBlock;
  for (int32_t b = 1; b < first_blocks; ++b)
    for (int32_t j = 0; j < kBlock; ++j) v[b * kBlock + j] = add(v[(b - 1) * kBlock + j], step(kBlock));
  if (count > kRepeat) {
    for (int32_t i = kRepeat; i < padded; ++i) v[i] = add(v[i - kRepeat], step(kRepeat));
  }
  return v;
}

template <class T>
void CheckProgression(T first, T diff, int32_t count, double tolerance) {
  CoreFixture fx;
  constexpr int32_t kBlock = 32 / sizeof(T);
  const int32_t room = (count + kBlock - 1) / kBlock * kBlock;
  auto dst = fx.Take<T>(room);
  for (int32_t i = 0; i < room; ++i) dst.SetValue(i, T(99));
  AscendC::ArithProgression<T>(dst, first, diff, count);
  const std::vector<T> want = DeviceProgression(first, diff, count);
  for (int32_t i = 0; i < count; ++i) {
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(want[i])) << "element " << i << " of " << count;
    const double exact = double(float(first)) + double(float(diff)) * i;
    ASSERT_NEAR(double(float(dst.GetValue(i))), exact, tolerance * (1 + std::fabs(exact))) << i;
  }
  // Up to one block past count is the device's padding; beyond that nothing is written.
  const int32_t written = count > kBlock ? room : count;
  for (int32_t i = written; i < room; ++i) ASSERT_EQ(Bits(dst.GetValue(i)), Bits(T(99))) << i;
}

TEST(ArithProgression, FloatAndHalfAroundBlockAndRepeatBoundaries) {
  for (int32_t n : {1, 7, 8, 9, 40, 63, 64, 65, 100, 300}) {
    CheckProgression<float>(1.5f, 0.25f, n, 1e-6);
    CheckProgression<float>(-3.0f, -0.1f, n, 1e-5);  // inexact step: rounding follows the device
  }
  for (int32_t n : {1, 15, 16, 17, 100, 127, 128, 129, 300}) {
    CheckProgression<half>(half(0.5f), half(0.125f), n, 2e-3);
  }
}

TEST(ArithProgression, IntegersAreExact) {
  for (int32_t n : {1, 8, 9, 64, 65, 257}) CheckProgression<int32_t>(-10, 3, n, 0);
  for (int32_t n : {1, 16, 17, 128, 129, 300}) CheckProgression<int16_t>(5, -2, n, 0);
}

TEST(ArithProgression, ArangeIsTheSameProgression) {
  CoreFixture fx;
  auto a = fx.Take<float>(128), b = fx.Take<float>(128);
  AscendC::ArithProgression<float>(a, 2.0f, 0.5f, 100);
  AscendC::Arange<float>(b, 2.0f, 0.5f, 100);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.GetValue(i), b.GetValue(i)) << i;
}

TEST(ArithProgression, Errors) {
  CoreFixture fx;
  auto a = fx.Take<float>(64);
  EXPECT_EQ(ErrorOf([&] { AscendC::ArithProgression<float>(a, 0.0f, 1.0f, -1); }),
            "test: block 0/1: ArithProgression: count -1 is negative");
  // The device writes whole blocks: a tensor without room for them faults in the Adds.
  EXPECT_NE(ErrorOf([&] { AscendC::ArithProgression<float>(a, 0.0f, 1.0f, 100); }).find("Adds"),
            std::string::npos);
}

template <class T>
void CheckInitGlobalMemory(uint64_t size, T value) {
  CoreFixture fx;
  const uint64_t guard = 16;
  DeviceBuffer mem((size + 2 * guard) * sizeof(T));
  T* host = mem.as<T>();
  for (uint64_t i = 0; i < size + 2 * guard; ++i) host[i] = T(-1);
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(host + guard), size);
  AscendC::InitGlobalMemory(g, size, value);
  for (uint64_t i = 0; i < guard; ++i) {
    ASSERT_EQ(Bits(host[i]), Bits(T(-1))) << "guard before, " << i;
    ASSERT_EQ(Bits(host[guard + size + i]), Bits(T(-1))) << "guard after, " << i;
  }
  for (uint64_t i = 0; i < size; ++i) ASSERT_EQ(Bits(host[guard + i]), Bits(value)) << i << "/" << size;
}

TEST(InitGlobalMemory, FillsExactlySizeElements) {
  // One UB piece holds 16320 floats / 32640 halves (255 repeats): 40000 needs several pieces.
  for (uint64_t n : {1, 7, 8, 9, 15, 16, 17, 1000, 16320, 16321, 40000}) {
    CheckInitGlobalMemory<float>(n, 2.5f);
    CheckInitGlobalMemory<half>(n, half(-0.75f));
  }
  CheckInitGlobalMemory<int32_t>(77, -5);
  CheckInitGlobalMemory<uint16_t>(33, 7);
}

TEST(InitGlobalMemory, NeedsFreeUbAboveTheTPipe) {
  DeviceBuffer mem(64 * sizeof(float));
  {
    CoreFixture full(192 * 1024);  // the fixture's TBuf takes all of the A2's UB
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mem.gm()), 64);
    const std::string e = ErrorOf([&] { AscendC::InitGlobalMemory(g, 64, 0.0f); });
    EXPECT_NE(e.find("InitGlobalMemory"), std::string::npos) << e;
  }
  {
    CoreFixture fx;
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mem.gm()), 64);
    const std::string e = ErrorOf([&] { AscendC::InitGlobalMemory(g, 65, 0.0f); });
    EXPECT_NE(e.find("exceeds"), std::string::npos) << e;  // past the GlobalTensor's size
  }
}

}  // namespace
