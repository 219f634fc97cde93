// L1 -> BiasTable DataCopy with conversion (C1 half -> C2 float, cube.h): blockLen counts 64 B of
// the half source and each block writes twice the bytes of float, every element converted exactly
// (odd block counts, strides); and the errors of the other type pairs and of the extent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "ascsim/aicore/core_context.h"
#include "kernel_operator.h"

namespace {

using ::testing::HasSubstr;

struct Core {
  Core() : core(ascsim::FindSocProfile("Ascend910B1"), 1, false) {
    pipe = std::make_unique<AscendC::TPipe>();
  }
  ascsim::aicore::SingleCore core;
  std::unique_ptr<AscendC::TPipe> pipe;
};

TEST(BiasTableConvert, HalfToFloatInBlocksOf64SourceBytes) {
  Core c;
  AscendC::TBuf<AscendC::TPosition::C1> c1;
  AscendC::TBuf<AscendC::TPosition::C2> c2;
  c.pipe->InitBuffer(c1, 512);
  c.pipe->InitBuffer(c2, 1024);
  AscendC::LocalTensor<half> src = c1.Get<half>();
  AscendC::LocalTensor<float> dst = c2.Get<float>();
  for (uint32_t i = 0; i < 256; ++i) src.SetValue(i, static_cast<half>(0.125f * i - 7.0f));
  for (uint32_t i = 0; i < 256; ++i) dst.SetValue(i, -99.0f);
  // 3 blocks of 64 B of half (32 elements each): a source gap of one 32 B block between blocks,
  // a destination gap of one 64 B unit.
  AscendC::DataCopy(dst, src, AscendC::DataCopyParams(3, 1, 1, 1));
  for (uint32_t b = 0; b < 3; ++b) {
    for (uint32_t i = 0; i < 32; ++i) {
      const uint32_t s = b * 48 + i;  // 64 B + 32 B of gap = 48 halves per block
      const uint32_t d = b * 48 + i;  // 128 B + 64 B of gap = 48 floats per block
      ASSERT_EQ(dst.GetValue(d), static_cast<float>(src.GetValue(s))) << b << " " << i;
    }
    for (uint32_t i = 32; i < 48 && b < 2; ++i) ASSERT_EQ(dst.GetValue(b * 48 + i), -99.0f);
  }
}

TEST(BiasTableConvert, Errors) {
  Core c;
  AscendC::TBuf<AscendC::TPosition::C1> c1;
  AscendC::TBuf<AscendC::TPosition::C2> c2;
  c.pipe->InitBuffer(c1, 512);
  c.pipe->InitBuffer(c2, 256);
  // 2 x 64 B of half become 256 B of float: fits exactly; one more block does not.
  EXPECT_NO_THROW(
      AscendC::DataCopy(c2.Get<float>(), c1.Get<half>(), AscendC::DataCopyParams(1, 2, 0, 0)));
  try {
    AscendC::DataCopy(c2.Get<float>(), c1.Get<half>(), AscendC::DataCopyParams(1, 3, 0, 0));
    ADD_FAILURE() << "an overflowing copy was allowed";
  } catch (const ascsim::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("dst"));
  }
  try {
    AscendC::DataCopy(c2.Get<int32_t>(), c1.Get<half>(), AscendC::DataCopyParams(1, 1, 0, 0));
    ADD_FAILURE() << "half -> int32_t was allowed";
  } catch (const ascsim::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("src half and dst int32_t differ (L1 -> BiasTable converts "
                                    "half to float only)"));
  }
}

}  // namespace
