// Whole-tensor expressions (symbol_override.h) against scalar references.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::Fill;
using ascsim_test::RandomVector;

template <class T>
void CheckOperators() {
  CoreFixture fx;
  constexpr uint32_t n = 256 / sizeof(T) * 2;  // whole 256 B repeats for the comparisons
  auto a = fx.Take<T>(n), b = fx.Take<T>(n), d = fx.Take<T>(n);
  auto m = fx.Take<uint8_t>(n / 8);
  const auto va = RandomVector<T>(n, -4, 4, 7), vb = RandomVector<T>(n, 0.5f, 4, 8);
  Fill(a, va);
  Fill(b, vb);
  d = a + b;
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(Bits(d.GetValue(i)), Bits(T(float(va[i]) + float(vb[i]))));
  d = a - b;
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(Bits(d.GetValue(i)), Bits(T(float(va[i]) - float(vb[i]))));
  d = a * b;
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(Bits(d.GetValue(i)), Bits(T(float(va[i]) * float(vb[i]))));
  d = a / b;
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(Bits(d.GetValue(i)), Bits(T(float(va[i]) / float(vb[i]))));
  m = a < b;
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ((m.GetValue(i / 8) >> (i % 8)) & 1, float(va[i]) < float(vb[i]) ? 1 : 0) << i;
  }
  // dst's size decides the count: a shorter view leaves the rest alone.
  Fill(d, std::vector<T>(n, T(9.0f)));
  AscendC::LocalTensor<T> head = d;
  head.SetSize(16);
  head = a + b;
  EXPECT_EQ(Bits(d.GetValue(15)), Bits(T(float(va[15]) + float(vb[15]))));
  EXPECT_EQ(float(d.GetValue(16)), 9.0f);
}
TEST(SymbolOverride, WholeTensorOperators) {
  CheckOperators<float>();
  CheckOperators<half>();
  CoreFixture fx;
  auto x = fx.Take<int16_t>(16), y = fx.Take<int16_t>(16), z = fx.Take<int16_t>(16);
  Fill(x, std::vector<int16_t>(16, 0x0F0F));
  Fill(y, std::vector<int16_t>(16, 0x00FF));
  z = x & y;
  EXPECT_EQ(z.GetValue(3), 0x000F);
  z = x | y;
  EXPECT_EQ(z.GetValue(3), 0x0FFF);
}

}  // namespace
