// aclrtMalloc's block on the device is the size rounded up to 32 B plus 32 B (docs "aclrtMalloc",
// "aclrtMallocAlign32"): a kernel may touch all of it without a fault, and no byte further.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"

// dst[0, n) = src[0, n) + 1 over float, through UB, n a multiple of 8 (whole 32-byte blocks).
extern "C" __global__ __aicore__ void malloc_padding_copy(GM_ADDR src, GM_ADDR dst, uint32_t n) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
  AscendC::GlobalTensor<float> srcGm, dstGm;
  srcGm.SetGlobalBuffer((__gm__ float*)src, n);
  dstGm.SetGlobalBuffer((__gm__ float*)dst, n);
  pipe.InitBuffer(inQueue, 1, n * sizeof(float));
  pipe.InitBuffer(outQueue, 1, n * sizeof(float));
  AscendC::LocalTensor<float> in = inQueue.AllocTensor<float>();
  AscendC::DataCopy(in, srcGm, n);
  inQueue.EnQue(in);
  in = inQueue.DeQue<float>();
  AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
  AscendC::Adds(out, in, 1.0f, n);
  outQueue.EnQue(out);
  inQueue.FreeTensor(in);
  out = outQueue.DeQue<float>();
  AscendC::DataCopy(dstGm, out, n);
  outQueue.FreeTensor(out);
}

namespace {

using ::testing::HasSubstr;

class AclMallocPadding : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
  // Allocates `requested` bytes for the source and copies `n` floats from it; returns the code.
  aclError Copy(size_t requested, uint32_t n, std::vector<float>* result) {
    void* src = nullptr;
    void* dst = nullptr;
    EXPECT_EQ(aclrtMalloc(&src, requested, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&dst, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<float> host(n);
    for (uint32_t i = 0; i < n; ++i) host[i] = static_cast<float>(i);
    // The padding is device memory like the rest: a copy may fill it (destMax is the caller's).
    const size_t fill = std::min<size_t>(n * sizeof(float), (requested + 31) / 32 * 32 + 32);
    EXPECT_EQ(aclrtMemcpy(src, fill, host.data(), fill, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    const aclError rc = ACLRT_LAUNCH_KERNEL(malloc_padding_copy)(1, nullptr, src, dst, n);
    result->assign(n, 0.0f);
    if (rc == ACL_SUCCESS) {
      EXPECT_EQ(aclrtMemcpy(result->data(), n * sizeof(float), dst, n * sizeof(float),
                            ACL_MEMCPY_DEVICE_TO_HOST),
                ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtFree(src), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dst), ACL_SUCCESS);
    return rc;
  }
};

TEST_F(AclMallocPadding, AKernelMayUseTheWholeDeviceBlock) {
  // (requested bytes, floats in the device block): ALIGN_UP(size, 32) + 32.
  for (const auto& [requested, floats] :
       std::vector<std::pair<size_t, uint32_t>>{{2, 16}, {32, 16}, {33, 24}, {100, 40}}) {
    SCOPED_TRACE(requested);
    std::vector<float> z;
    ASSERT_EQ(Copy(requested, floats, &z), ACL_SUCCESS) << aclGetRecentErrMsg();
    for (uint32_t i = 0; i < floats; ++i) EXPECT_EQ(z[i], static_cast<float>(i) + 1.0f) << i;
  }
}

TEST_F(AclMallocPadding, ABlockPastTheDeviceBlockFaults) {
  for (const auto& [requested, floats] :
       std::vector<std::pair<size_t, uint32_t>>{{2, 24}, {32, 24}, {100, 48}}) {
    SCOPED_TRACE(requested);
    std::vector<float> z;
    const size_t block = (requested + 31) / 32 * 32 + 32;
    EXPECT_EQ(Copy(requested, floats, &z), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
    EXPECT_THAT(aclGetRecentErrMsg(),
                HasSubstr("outside its device allocation of " + std::to_string(block) + " B"));
  }
}

}  // namespace
