// Axpy and MulAddDst (vector_fused.h) against scalar references, with their error paths.
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
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;

TEST(Axpy, CountFormSameAndMixedTypes) {
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

TEST(Axpy, MaskForm) {
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

TEST(Axpy, RejectsMisuse) {
  CoreFixture fx;
  auto src = fx.Take<half>(256);
  EXPECT_NE(
      ErrorOf([&] { AscendC::Axpy(src[8], src, half(1.0f), 64); }).find("not 32-byte aligned"),
      std::string::npos);
  EXPECT_NE(ErrorOf([&] { AscendC::Axpy(src[16], src, half(1.0f), 64); }).find("Axpy: dst UB"),
            std::string::npos);
}

template <class T, class U>
void CheckMulAddDst(uint32_t n) {
  CoreFixture fx;
  auto d = fx.Take<T>(n);
  auto a = fx.Take<U>(n), b = fx.Take<U>(n);
  const auto vd = RandomVector<T>(n, -3, 3, 1), va = RandomVector<U>(n, -3, 3, 2),
             vb = RandomVector<U>(n, -3, 3, 3);
  Fill(d, vd);
  Fill(a, va);
  Fill(b, vb);
  AscendC::MulAddDst(d, a, b, n - 1);
  for (uint32_t i = 0; i < n; ++i) {
    const T want = i < n - 1 ? T(float(va[i]) * float(vb[i]) + float(vd[i])) : vd[i];
    ASSERT_EQ(Bits(d.GetValue(i)), Bits(want)) << i;
  }
}
TEST(MulAddDst, CountFormSameAndMixedTypes) {
  CheckMulAddDst<float, float>(1001);
  CheckMulAddDst<half, half>(333);
  CheckMulAddDst<float, half>(77);
}

TEST(MulAddDst, FusedMulAddBothTypes) {
  CoreFixture fx;
  auto d = fx.Take<float>(100), a = fx.Take<float>(100), b = fx.Take<float>(100);
  const auto vd = RandomVector<float>(100, -3, 3, 4), va = RandomVector<float>(100, -3, 3, 5),
             vb = RandomVector<float>(100, -3, 3, 6);
  Fill(d, vd);
  Fill(a, va);
  Fill(b, vb);
  AscendC::FusedMulAdd(d, a, b, 99);
  for (uint32_t i = 0; i < 99; ++i) ASSERT_EQ(d.GetValue(i), va[i] * vd[i] + vb[i]) << i;
  EXPECT_EQ(d.GetValue(99), vd[99]);
  auto dh = fx.Take<half>(64), ah = fx.Take<half>(64), bh = fx.Take<half>(64);
  Fill(dh, std::vector<half>(64, half(1.5f)));
  Fill(ah, std::vector<half>(64, half(2.0f)));
  Fill(bh, std::vector<half>(64, half(0.25f)));
  AscendC::FusedMulAdd(dh, ah, bh, 40, 1, {1, 1, 1, 8, 8, 8});
  EXPECT_EQ(float(dh.GetValue(39)), 3.25f);
  EXPECT_EQ(float(dh.GetValue(40)), 1.5f);
}

TEST(MulAddDst, MaskFormAndErrors) {
  CoreFixture fx;
  auto d = fx.Take<float>(256), a = fx.Take<float>(256), b = fx.Take<float>(256);
  Fill(d, std::vector<float>(256, 1.0f));
  Fill(a, std::vector<float>(256, 2.0f));
  Fill(b, std::vector<float>(256, 3.0f));
  AscendC::MulAddDst(d, a, b, 10, 2, {1, 1, 1, 16, 8, 8});
  for (uint32_t i = 0; i < 256; ++i) {
    const bool on = (i % 128) < 10 && i < 256;
    ASSERT_EQ(d.GetValue(i), on ? 7.0f : 1.0f) << i;
  }
  EXPECT_EQ(ErrorOf([&] { AscendC::MulAddDst(d, a, d[4], 8); }),
            "test: block 0/1: MulAddDst: src1 UB address 0x10 is not 32-byte aligned");
  EXPECT_EQ(ErrorOf([&] { AscendC::MulAddDst(d, a, b, 257); }),
            "test: block 0/1: MulAddDst: dst [0, 257) of float exceeds LocalTensor size 256");
}

// A descriptor of three [rows, cols] float tensors in GM, as the framework builds a TensorList.

}  // namespace
