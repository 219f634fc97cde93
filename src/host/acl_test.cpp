// The ACL front door: error codes instead of exceptions, streams, memory calls and
// ACLRT_LAUNCH_KERNEL with the generated launcher's argument types.
#include "acl/acl.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "aclrtlaunch_add_custom.h"
#include "ascsim/half.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

// A kernel that reads one tile past its GlobalTensor in block 2 (of any grid).
extern "C" __global__ __aicore__ void acl_oob_kernel(GM_ADDR x, uint32_t n) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64 * sizeof(float));
  AscendC::GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, n);
  const uint32_t offset = AscendC::GetBlockIdx() == 2 ? n : 0;
  AscendC::DataCopy(buf.Get<float>(), xGm[offset], 64);
}

namespace {

using ::testing::HasSubstr;

class Acl : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }
  aclrtStream stream_ = nullptr;
};

TEST_F(Acl, OnlyDeviceZeroExists) {
  EXPECT_EQ(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("device 1 does not exist"));
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 1u);
}

TEST_F(Acl, MallocMemcpyMemsetEveryKind) {
  constexpr size_t kBytes = 1000;
  void* host = nullptr;
  void* dev_a = nullptr;
  void* dev_b = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, kBytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dev_a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dev_b, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  EXPECT_TRUE(ascsim::IsDeviceMemory(dev_a));
  std::vector<uint8_t> src(kBytes), back(kBytes);
  for (size_t i = 0; i < kBytes; ++i) src[i] = static_cast<uint8_t>(i * 7);

  EXPECT_EQ(aclrtMemcpy(host, kBytes, src.data(), kBytes, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dev_a, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dev_b, kBytes, dev_a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(back.data(), kBytes, dev_b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(back, src);

  // count > destMax is refused and copies nothing.
  std::vector<uint8_t> small(10, 0xAA);
  EXPECT_EQ(aclrtMemcpy(small.data(), 10, dev_a, 11, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("count 11 exceeds destMax 10"));
  EXPECT_EQ(small, std::vector<uint8_t>(10, 0xAA));
  // A host pointer where device memory is required.
  EXPECT_NE(aclrtMemcpy(host, kBytes, src.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("not inside device memory"));
  // Running past the end of a device allocation.
  EXPECT_NE(aclrtMemcpy(back.data(), kBytes + 600, dev_a, kBytes + 600, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);

  EXPECT_EQ(aclrtMemset(dev_a, kBytes, 0x5C, 100), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(back.data(), kBytes, dev_a, kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(back[i], i < 100 ? 0x5C : src[i]) << i;
  EXPECT_EQ(aclrtMemset(dev_a, 10, 0, 11), ACL_ERROR_INVALID_PARAM);

  // Async forms on a stream.
  EXPECT_EQ(aclrtMemsetAsync(dev_b, kBytes, 1, kBytes, stream_), ACL_SUCCESS);
  EXPECT_EQ(
      aclrtMemcpyAsync(back.data(), kBytes, dev_b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
      ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(back, std::vector<uint8_t>(kBytes, 1));

  EXPECT_EQ(aclrtMalloc(&dev_a, 0, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS, true);
  EXPECT_EQ(aclrtFree(dev_a), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev_a), ACL_ERROR_INVALID_PARAM);  // double free: a code, not an abort
  EXPECT_EQ(aclrtFree(dev_b), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

TEST_F(Acl, MemcpyMustStayInsideOneAllocation) {
  // Two device regions back to back: a copy starting in the first may not run into the second,
  // although both of its ends are device memory.
  std::vector<uint8_t> backing(2000, 3), out(1000);
  ascsim::ExternalMemory first(backing.data(), 1000);
  ascsim::ExternalMemory second(backing.data() + 1000, 1000);
  EXPECT_EQ(aclrtMemcpy(out.data(), 1000, backing.data() + 500, 1000, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("source range of 1000 B"));
  EXPECT_EQ(aclrtMemcpy(out.data(), 1000, backing.data() + 1000, 1000, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_NE(aclrtMemset(backing.data() + 999, 2, 0, 2), ACL_SUCCESS);
}

TEST_F(Acl, LaunchAddCustomWithVoidPointerArguments) {
  constexpr uint32_t kLength = 8 * 2048;
  constexpr size_t kBytes = kLength * sizeof(half);
  std::vector<half> x(kLength), y(kLength), z(kLength);
  for (uint32_t i = 0; i < kLength; ++i) {
    x[i] = half(float(i % 100) * 0.25f);
    y[i] = half(float(i % 7) - 3.0f);
  }
  void *xd, *yd, *zd;
  ASSERT_EQ(aclrtMalloc(&xd, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&yd, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&zd, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(xd, kBytes, x.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(yd, kBytes, y.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(add_custom)(8, stream_, xd, yd, zd, kLength), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(z.data(), kBytes, zd, kBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint32_t i = 0; i < kLength; ++i) {
    ASSERT_EQ(float(z[i]), float(half(float(x[i]) + float(y[i])))) << i;
  }
  // The default stream (nullptr) runs synchronously.
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(add_custom)(4, nullptr, xd, xd, zd, kLength), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(z.data(), kBytes, zd, kBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(float(z[123]), float(half(2 * float(x[123]))));
  // blockDim 0 is refused with a code.
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(add_custom)(0, stream_, xd, yd, zd, kLength),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("blockDim 0"));
  aclrtFree(xd);
  aclrtFree(yd);
  aclrtFree(zd);
}

TEST_F(Acl, OutOfBoundsKernelFailsAtSynchronizeWith507016) {
  constexpr uint32_t kLength = 256;
  void* xd = nullptr;
  // Exactly kLength floats: block 2's read runs past the allocation (inside it, past the
  // GlobalTensor's size only, it would be a warning).
  ASSERT_EQ(aclrtMalloc(&xd, kLength * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(acl_oob_kernel)(4, stream_, xd, kLength), ACL_SUCCESS);
  testing::internal::CaptureStderr();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
  const std::string printed = testing::internal::GetCapturedStderr();
  const std::string message = aclGetRecentErrMsg();  // copied before the next ACL call
  EXPECT_EQ(message,
            "acl_oob_kernel: block 2/4: DataCopy GM->UB read [256, 320) of float exceeds "
            "GlobalTensor size 256");
  // The message is printed too: programs usually print only the code.
  EXPECT_EQ(printed,
            "ascsim: aclrtSynchronizeStream failed with aclError 507016: " + message + "\n");
  // Reported once: the stream is usable again.
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  // On the default stream the code comes from the launch itself.
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(acl_oob_kernel)(3, nullptr, xd, kLength),
            ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("block 2/3"));
  EXPECT_EQ(aclrtFree(xd), ACL_SUCCESS);
}

TEST_F(Acl, DestroyingAStreamTwiceIsAnErrorCode) {
  aclrtStream extra = nullptr;
  ASSERT_EQ(aclrtCreateStream(&extra), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(extra), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(extra), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("not a stream"));
  EXPECT_EQ(aclrtSynchronizeStream(extra), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

}  // namespace
