// Brcb and CreateVecIndex (vector_fill.h) against scalar references, with their error paths.
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

TEST(VectorFill, BrcbBroadcastsEachElementToABlock) {
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

TEST(VectorFill, CreateVecIndexIntAndFloat) {
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

TEST(VectorFill, RejectsMisuse) {
  CoreFixture fx;
  auto src = fx.Take<half>(256), dst = fx.Take<half>(32);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Brcb(dst, src, 1, {1, 8});
            }).find("Brcb: dst reaches byte 256"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Brcb(src, dst, 5, {1, 8});
            }).find("Brcb: src0 [0, 40) of half exceeds LocalTensor size 32"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::CreateVecIndex(dst, half(0.0f), 33);
            }).find("CreateVecIndex: dst [0, 33) of half exceeds LocalTensor size 32"),
            std::string::npos);
}

TEST(VectorFill, RejectsPartialOverlapInBrcb) {
  CoreFixture fx;
  auto buf = fx.Take<half>(1024);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Brcb(buf, buf[16], 2, {1, 8});
            }).find("Brcb: dst UB"),
            std::string::npos);
}

}  // namespace
