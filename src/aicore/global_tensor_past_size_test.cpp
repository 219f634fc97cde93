// GlobalTensor accesses past the size given to SetGlobalBuffer (global_tensor.h): inside the
// device allocation they touch the neighbouring elements, as the device does, with one warning
// per call site (an error in strict mode); beyond the allocation they fault. And the public
// address_ member: the view's first element, moving with operator[], raw access as on the device.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aicore_test_util.h"

namespace {

using ::testing::HasSubstr;

// 4 blocks each own 16 halves of a 64-half allocation and copy 32 from their start: all but the
// last read into the next block's slice (the unaligned samples' pattern).
TEST(GlobalTensorPastSize, InsideTheAllocationItReadsTheNeighboursWithAWarning) {
  ascsim_test::DeviceBuffer in(64 * sizeof(half) + 64), out(4 * 32 * sizeof(half));
  for (int i = 0; i < 64 + 32; ++i) in.as<half>()[i] = static_cast<half>(static_cast<float>(i));
  half* x = in.as<half>();
  half* y = out.as<half>();
  ascsim_test::WarningCapture warnings;
  ascsim::Launch("past_size", 4, [x, y] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32 * sizeof(half));
    AscendC::GlobalTensor<half> src, dst;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + 16 * AscendC::GetBlockIdx(), 16);
    dst.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + 32 * AscendC::GetBlockIdx(), 32);
    AscendC::LocalTensor<half> t = buf.Get<half>();
    AscendC::DataCopy(t, src, 32);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(dst, t, 32);
  });
  for (int b = 0; b < 4; ++b) {
    for (int i = 0; i < 32; ++i) {
      ASSERT_EQ(static_cast<float>(y[b * 32 + i]), static_cast<float>(16 * b + i)) << b << " " << i;
    }
  }
  EXPECT_THAT(warnings.All(),
              HasSubstr("past_size: block 0/4: DataCopy GM->UB read [0, 32) of half passes "
                        "GlobalTensor size 16; it stays in its device allocation, where the device "
                        "uses the neighbouring elements (x4)"));
}

TEST(GlobalTensorPastSize, StrictModeAndBeyondTheAllocationFault) {
  ascsim_test::DeviceBuffer in(64 * sizeof(float));
  float* x = in.as<float>();
  auto body = [x](uint32_t count) {
    return [x, count] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 128 * sizeof(float));
      AscendC::GlobalTensor<float> src;
      src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 16);
      AscendC::DataCopy(buf.Get<float>(), src, count);
    };
  };
  std::string fault;
  try {
    ascsim::Launch("beyond", 1, body(72));
  } catch (const ascsim::KernelError& e) {
    fault = e.what();
  }
  EXPECT_THAT(fault,
              HasSubstr("DataCopy GM->UB read [0, 72) of float exceeds GlobalTensor size 16"));
  ascsim::ScopedSettings settings;
  ascsim::SetStrict(true);
  fault.clear();
  try {
    ascsim::Launch("strict", 1, body(32));
  } catch (const ascsim::KernelError& e) {
    fault = e.what();
  }
  EXPECT_THAT(fault, HasSubstr("passes GlobalTensor size 16"));
  EXPECT_THAT(fault, HasSubstr("[strict mode]"));
}

TEST(GlobalTensorAddress, FollowsTheViewAndAccessesRawMemory) {
  ascsim_test::DeviceBuffer buf(32 * sizeof(int32_t));
  int32_t* p = buf.as<int32_t>();
  for (int i = 0; i < 32; ++i) p[i] = i;
  ascsim::Launch("address", 1, [p] {
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(p), 32);
    EXPECT_EQ(g.address_, p);
    EXPECT_EQ(g[5].address_, p + 5);
    EXPECT_EQ(g[5][3].address_, g.GetPhyAddr(8));
    *(g[10].address_ + 1) = 100;  // the GreaterEqual sample's tail store
  });
  EXPECT_EQ(p[11], 100);
}

}  // namespace
