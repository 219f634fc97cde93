#undef NDEBUG  // the kernel assert is what is tested; a Release build defines NDEBUG
// DumpTensor with a ShapeInfo, DumpAccChkPoint (ascsim/aicore/dump_tensor.h) and the kernel assert
// (ascsim/aicore/kernel_assert.h): the printed text of each documented case, the offset dump, the
// 30 KB limit, GM tensors, L1 tensors; an assertion's line and fault, with and without a message;
// KERNEL_LOG and ASCENDC_ASSERT (ascsim/aicore/kernel_log.h, also by CANN's name kernel_log.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "aicore_test_util.h"
// CANN's header name for KERNEL_LOG (production kernel unit tests include it).
#include "kernel_log.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using AscendC::TPosition;

std::string Printed(ascsim::KernelBody body) {
  testing::internal::CaptureStdout();
  try {
    ascsim::Launch("dump", 1, std::move(body));
  } catch (const ascsim::Error& e) {
    const std::string out = testing::internal::GetCapturedStdout();
    ADD_FAILURE() << e.what();
    return out;
  }
  return testing::internal::GetCapturedStdout();
}

// A 2-D shape of `rows` x `cols` over 8 x 8 float values 0..63.
std::string DumpShaped(uint32_t rows, uint32_t cols, uint32_t dump) {
  return Printed([=] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    for (int i = 0; i < 128; ++i) t.SetValue(i, static_cast<float>(i));
    uint32_t dims[] = {rows, cols};
    AscendC::ShapeInfo shape(2, dims);
    EXPECT_EQ(AscendC::GetShapeSize(shape), static_cast<int>(rows * cols));
    AscendC::DumpTensor(t, 2, dump, shape);
  });
}

TEST(DumpTensor, ShapedRowsAsDocumented) {
  const std::string exact = DumpShaped(2, 3, 6);
  EXPECT_THAT(exact, HasSubstr("[block 0] DumpTensor: desc=2, addr=0x0, data_type=float32, "
                               "position=UB, dump_size=6\n"
                               "[block 0] [[0.000000,1.000000,2.000000],\n"
                               "[block 0] [3.000000,4.000000,5.000000]]\n"));
  const std::string fewer = DumpShaped(1, 3, 6);  // the shape holds less than dumpSize
  EXPECT_THAT(fewer, HasSubstr("shape is [1, 3], dumpSize is 6, dumpSize is greater than "
                               "shapeSize.\n[block 0] [[0.000000,1.000000,2.000000]]\n"));
  const std::string more = DumpShaped(3, 2, 5);  // the shape holds more: "-" after the data
  EXPECT_THAT(more, HasSubstr("shape is [3, 2], dumpSize is 5, data is not enough.\n"
                              "[block 0] [[0.000000,1.000000],\n[block 0] [2.000000,3.000000],\n"
                              "[block 0] [4.000000,-]]\n"));
}

TEST(DumpTensor, AccChkPointDumpsFromAnOffsetAndHalfPrintsAsFloat16) {
  const std::string out = Printed([] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(half));
    AscendC::LocalTensor<half> t = buf.Get<half>();
    for (int i = 0; i < 64; ++i) t.SetValue(i, static_cast<half>(i * 0.5f));
    AscendC::DumpAccChkPoint(t, 56, 32, 3);
  });
  EXPECT_THAT(out, HasSubstr("DumpTensor: desc=56, addr=64, data_type=float16, position=UB, "
                             "dump_size=3\n[block 0] [16.000000, 16.500000, 17.000000]\n"));
}

TEST(DumpTensor, GlobalTensorsL1TensorsAndTheSizeLimit) {
  ascsim_test::DeviceBuffer gm(16 * sizeof(int32_t));
  for (int i = 0; i < 16; ++i) gm.as<int32_t>()[i] = i * 3;
  int32_t* p = gm.as<int32_t>();
  const std::string out = Printed([p] {
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(p), 16);
    uint32_t dims[] = {2, 2};
    AscendC::DumpTensor(g, 7, 4, AscendC::ShapeInfo(2, dims));
    AscendC::DumpAccChkPoint(g, 8, 10, 2);
    AscendC::TPipe pipe;
    // 30 KB or more prints nothing
    AscendC::TBuf<TPosition::VECCALC> big;
    pipe.InitBuffer(big, 40 * 1024);
    AscendC::DumpAccChkPoint(big.Get<float>(), 10, 0, 8 * 1024);
  });
  // An L1 tensor (a cube kernel: A1 is the AIC's memory) prints its header only.
  const std::string l1_out = Printed([] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::A1> l1;
    pipe.InitBuffer(l1, 64);
    uint32_t dims[] = {2, 2};
    AscendC::DumpTensor(l1.Get<half>(), 9, 0, AscendC::ShapeInfo(2, dims));
  });
  EXPECT_THAT(out, HasSubstr("desc=7, addr=0x"));
  EXPECT_THAT(out, HasSubstr("position=GM, dump_size=4\n[block 0] [[0,3],\n[block 0] [6,9]]\n"));
  EXPECT_THAT(out, HasSubstr("desc=8, addr="));
  EXPECT_THAT(out, HasSubstr("[30, 33]"));
  EXPECT_THAT(l1_out,
              HasSubstr("desc=9, addr=0x0, data_type=float16, position=L1, dump_size=0"));
  EXPECT_THAT(out, Not(HasSubstr("desc=10")));
}

TEST(KernelAssert, AFailedAssertionPrintsItsLineAndFaultsTheBlock) {
  testing::internal::CaptureStdout();
  std::string fault;
  try {
    ascsim::Launch("asserting", 2, [] {
      const int64_t idx = AscendC::GetBlockIdx();
      assert(idx >= 0);                          // holds
      assert(idx == 0, "block %d of %d\n", static_cast<int>(idx), 2);
    });
  } catch (const ascsim::KernelError& e) {
    fault = e.what();
  }
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_THAT(fault, HasSubstr("asserting: block 1/2: [ASSERT] "));
  EXPECT_THAT(fault, HasSubstr("dump_tensor_test.cpp:"));
  EXPECT_THAT(fault, HasSubstr("Assertion `idx == 0' failed. block 1 of 2"));
  EXPECT_THAT(out, HasSubstr("[block 1] [ASSERT] "));
  EXPECT_THAT(out, HasSubstr("Assertion `idx == 0' failed. block 1 of 2\n"));
  EXPECT_THAT(out, Not(HasSubstr("[block 0] [ASSERT]")));
  // The one-argument form, and ascendc_assert.
  std::string plain;
  try {
    ascsim::Launch("asserting", 1, [] { ascendc_assert(1 + 1 == 3); });
  } catch (const ascsim::KernelError& e) {
    plain = e.what();
  }
  EXPECT_THAT(plain, HasSubstr("Assertion `1 + 1 == 3' failed."));
}

// KERNEL_LOG prints CANN's CPU-debug layout on the block's channel; ASCENDC_ASSERT runs its
// behaviour, then faults the block with the condition and where it is.
TEST(KernelLog, LinesCarryLevelBlockCoreTypeAndPlace) {
  const std::string out = Printed([] {
    KERNEL_LOG(KERNEL_ERROR, "tile %d of %u", 3, 7u);
    KERNEL_LOG(KERNEL_INFO, "plain");
    KERNEL_LOG(KERNEL_EORROR, "misspelt level");  // compiles, as on the device build
    ASCENDC_ASSERT(1 + 1 == 2, { KERNEL_LOG(KERNEL_ERROR, "not printed"); });
  });
  EXPECT_THAT(out, HasSubstr("[block 0] [ERROR][Block_0][AIV_0][" __FILE__ ":"));
  EXPECT_THAT(out, HasSubstr("] tile 3 of 7\n"));
  EXPECT_THAT(out, HasSubstr("[block 0] [INFO][Block_0][AIV_0]["));
  EXPECT_THAT(out, HasSubstr("[KERNEL_EORROR][Block_0]"));
  EXPECT_THAT(out, HasSubstr("] misspelt level\n"));
  EXPECT_THAT(out, Not(HasSubstr("not printed")));
}

TEST(KernelLog, AFailedAscendcAssertRunsItsBehaviourAndFaultsTheBlock) {
  testing::internal::CaptureStdout();
  std::string fault;
  try {
    ascsim::Launch("checking", 2, [] {
      const int64_t b = AscendC::GetBlockIdx();
      ASCENDC_ASSERT(b != 1, { KERNEL_LOG(KERNEL_ERROR, "Division by zero error!"); });
    });
  } catch (const ascsim::KernelError& e) {
    fault = e.what();
  }
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_THAT(fault, HasSubstr("checking: block 1/2: ASCENDC_ASSERT(b != 1) failed at "));
  EXPECT_THAT(fault, HasSubstr("dump_tensor_test.cpp:"));
  EXPECT_THAT(out, HasSubstr("[block 1] [ERROR][Block_1][AIV_0]"));
  EXPECT_THAT(out, HasSubstr("Division by zero error!"));
  EXPECT_THAT(out, Not(HasSubstr("[block 0] [ERROR]")));
}

TEST(KernelLogDeathTest, OutsideAKernelAFailedAscendcAssertAborts) {
  EXPECT_DEATH(ASCENDC_ASSERT(2 < 1, {}), "ASCENDC_ASSERT\\(2 < 1\\) failed.");
}

TEST(KernelAssertDeathTest, OutsideAKernelItIsTheCLibrarysAssert) {
  EXPECT_DEATH(assert(2 < 1), "Assertion `2 < 1' failed.");
}

}  // namespace
