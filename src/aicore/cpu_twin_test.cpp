// The CPU-twin front door (tikicpulib.h): GmAlloc/GmFree and ICPU_RUN_KF.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "aclrtlaunch_add_custom.h"
#include "aicore_test_util.h"
#include "tikicpulib.h"

// Writes its block index into GM, and faults in the last block when asked to.
extern "C" __global__ __aicore__ void twin_block_ids(GM_ADDR out, uint32_t fault_in_last) {
  AscendC::GlobalTensor<int32_t> outGm;
  outGm.SetGlobalBuffer((__gm__ int32_t*)out, AscendC::GetBlockNum());
  const int64_t b = AscendC::GetBlockIdx();
  outGm.SetValue(b, static_cast<int32_t>(b) * 10);
  if (fault_in_last != 0 && b == AscendC::GetBlockNum() - 1) outGm.SetValue(b + 1, 0);
}

// AddN in the official samples' style: the inputs come as a ListTensorDesc; each block adds its
// slice of every input into z.
extern "C" __global__ __aicore__ void twin_addn(GM_ADDR inputs, GM_ADDR z, uint32_t blockLength) {
  AscendC::ListTensorDesc list(reinterpret_cast<__gm__ void*>(inputs));
  const uint64_t offset = uint64_t{blockLength} * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + offset, blockLength);
  for (uint32_t t = 0; t < list.GetSize(); ++t) {
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer(list.GetDataPtr<float>(t) + offset, blockLength);
    for (uint32_t i = 0; i < blockLength; ++i) {
      zGm.SetValue(i, (t == 0 ? 0.0f : zGm.GetValue(i)) + xGm.GetValue(i));
    }
  }
}
// Writes 7 into the first word it is given.
extern "C" __global__ __aicore__ void twin_poke(GM_ADDR out) {
  AscendC::GlobalTensor<int32_t> outGm;
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 1);
  outGm.SetValue(0, 7);
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

// CANN's CPU mode reads a pointer argument to plain host memory as the host's bytes (each block
// is a forked process; only GmAlloc memory is shared): the official AddN samples pass their
// ListTensorDesc as a stack struct.
TEST(CpuTwin, HostMemoryArgumentReadsAsASnapshot) {
  constexpr uint32_t kBlocks = 3, kBlockLength = 37, kN = kBlocks * kBlockLength;
  auto* x0 = static_cast<float*>(AscendC::GmAlloc(kN * sizeof(float)));
  auto* x1 = static_cast<float*>(AscendC::GmAlloc(kN * sizeof(float)));
  auto* z = static_cast<float*>(AscendC::GmAlloc(kN * sizeof(float)));
  const size_t live = ascsim::GetMemoryStats().allocations;
  for (uint32_t i = 0; i < kN; ++i) {
    x0[i] = 0.25f * static_cast<float>(i);
    x1[i] = -3.0f + static_cast<float>(i % 7);
  }
  struct {  // ListTensorDesc: pointer-array offset, two (dim | index << 32, shape) records, data
    uint64_t ptrOffset = 8 * (1 + 2 * 2);
    uint64_t desc[4] = {1, kN, 1 | (uint64_t{1} << 32), kN};
    uint64_t data[2];
  } inputs;
  inputs.data[0] = reinterpret_cast<uintptr_t>(x0);
  inputs.data[1] = reinterpret_cast<uintptr_t>(x1);
  ascsim_test::WarningCapture warnings;
  ICPU_RUN_KF(twin_addn, kBlocks, (GM_ADDR)&inputs, (GM_ADDR)z, kBlockLength);
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(z[i], x0[i] + x1[i]) << i;
  ASSERT_EQ(warnings.lines.size(), 1u);
  EXPECT_THAT(warnings.lines[0], HasSubstr("ICPU_RUN_KF(twin_addn): argument 0 (0x"));
  EXPECT_THAT(warnings.lines[0],
              HasSubstr("is host memory, not GmAlloc'd; as in CANN's CPU mode (each block a "
                        "process of its own) the kernel reads the host's bytes at the launch"));
  ICPU_RUN_KF(twin_addn, kBlocks, (GM_ADDR)&inputs, (GM_ADDR)z, kBlockLength);
  EXPECT_EQ(warnings.lines.size(), 1u);  // once per kernel and argument
  // Not readable at all: refused before the launch, naming the argument.
  try {
    ICPU_RUN_KF(twin_addn, kBlocks, (GM_ADDR)16, (GM_ADDR)z, kBlockLength);
    FAIL() << "no error";
  } catch (const ascsim::InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()),
              "ICPU_RUN_KF(twin_addn): argument 0 (0x10) is neither GmAlloc memory nor readable "
              "host memory; allocate kernel buffers with AscendC::GmAlloc");
  }
  EXPECT_EQ(ascsim::GetMemoryStats().allocations, live);  // the snapshots were freed
  // What the kernel writes into host memory stays in its copy.
  int32_t host_word = 5;
  ICPU_RUN_KF(twin_poke, 1, (GM_ADDR)&host_word);
  EXPECT_EQ(host_word, 5);
  AscendC::GmFree(x0);
  AscendC::GmFree(x1);
  AscendC::GmFree(z);
}

}  // namespace
