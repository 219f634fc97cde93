// The CPU-twin front door (tikicpulib.h): GmAlloc/GmFree and ICPU_RUN_KF.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "aclrtlaunch_add_custom.h"
#include "tikicpulib.h"

// Writes its block index into GM, and faults in the last block when asked to.
extern "C" __global__ __aicore__ void twin_block_ids(GM_ADDR out, uint32_t fault_in_last) {
  AscendC::GlobalTensor<int32_t> outGm;
  outGm.SetGlobalBuffer((__gm__ int32_t*)out, AscendC::GetBlockNum());
  const int64_t b = AscendC::GetBlockIdx();
  outGm.SetValue(b, static_cast<int32_t>(b) * 10);
  if (fault_in_last != 0 && b == AscendC::GetBlockNum() - 1) outGm.SetValue(b + 1, 0);
}

namespace {

using ::testing::HasSubstr;

TEST(CpuTwin, GmAllocIsDeviceMemoryAndGmFreeReleasesIt) {
  uint8_t* p = static_cast<uint8_t*>(AscendC::GmAlloc(4096));
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(ascsim::IsDeviceMemory(p));
  EXPECT_EQ(ascsim::DeviceAllocationSize(p), 4096u);
  AscendC::GmFree(p);
  EXPECT_FALSE(ascsim::IsDeviceMemory(p));
  EXPECT_THROW(AscendC::GmFree(p), ascsim::InvalidArgument);
}

TEST(CpuTwin, IcpuRunKfRunsAddCustom) {
  constexpr uint32_t kBlockDim = 8, kLength = 8 * 2048;
  constexpr size_t kBytes = kLength * sizeof(half);
  auto* x = static_cast<half*>(AscendC::GmAlloc(kBytes));
  auto* y = static_cast<half*>(AscendC::GmAlloc(kBytes));
  auto* z = static_cast<half*>(AscendC::GmAlloc(kBytes));
  for (uint32_t i = 0; i < kLength; ++i) {
    x[i] = half(float(i % 512) / 8.0f);
    y[i] = half(-float(i % 33));
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, kBlockDim, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, kLength);
  for (uint32_t i = 0; i < kLength; ++i) {
    ASSERT_EQ(float(z[i]), float(half(float(x[i]) + float(y[i])))) << i;
  }
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  // The mode stays in effect for every later launch, as in CANN; the other tests of this
  // process run cube and mix kernels, so put it back.
  ascsim::aicore::SetRequestedKernelMode(-1);
}

TEST(CpuTwin, IcpuRunKfThrowsKernelErrorOnAFault) {
  auto* out = static_cast<int32_t*>(AscendC::GmAlloc(6 * sizeof(int32_t)));
  ICPU_RUN_KF(twin_block_ids, 6, (GM_ADDR)out, 0u);
  for (int b = 0; b < 6; ++b) EXPECT_EQ(out[b], b * 10);
  try {
    ICPU_RUN_KF(twin_block_ids, 6, (GM_ADDR)out, 1u);
    FAIL() << "no error";
  } catch (const ascsim::KernelError& e) {
    EXPECT_EQ(std::string(e.what()),
              "twin_block_ids: block 5/6: GlobalTensor::SetValue write [6, 7) of int32_t exceeds "
              "GlobalTensor size 6");
    EXPECT_EQ(e.fault_kind(), ascsim::ErrorKind::kOutOfBounds);
  }
  AscendC::GmFree(out);
}

}  // namespace
