// The faults a buggy kernel makes, through ACL: error codes and aclGetRecentErrMsg(), never an
// abort, and every stream keeps working after its error was reported.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void spin_forever_custom(GM_ADDR flag);
extern "C" __global__ __aicore__ void dequeue_empty_custom();
extern "C" __global__ __aicore__ void ub_overflow_custom();

namespace {

using ::testing::HasSubstr;

class AclKernelFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }
};

struct DeviceBuffers {
  explicit DeviceBuffers(uint32_t n) : n(n) {
    const size_t bytes = n * sizeof(float);
    EXPECT_EQ(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<float> h(n);
    for (uint32_t i = 0; i < n; ++i) h[i] = static_cast<float>(i);
    EXPECT_EQ(aclrtMemcpy(x, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(y, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  ~DeviceBuffers() {
    EXPECT_EQ(aclrtFree(x), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(y), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(z), ACL_SUCCESS);
  }
  // z == 2x, element by element.
  void ExpectDoubled() {
    const size_t bytes = n * sizeof(float);
    std::vector<float> h(n);
    ASSERT_EQ(aclrtMemcpy(h.data(), bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(h[i], 2.0f * i) << i;
  }
  uint32_t n;
  void *x = nullptr, *y = nullptr, *z = nullptr;
};

TEST_F(AclKernelFaults, KernelFaultsReturnCodesAndTheStreamStaysUsable) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  DeviceBuffers buf(8 * 1024);

  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(dequeue_empty_custom)(2, stream), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("dequeue_empty_custom: block 0/2"));

  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(ub_overflow_custom)(1, stream), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("ub_overflow_custom: block 0/1"));

  // totalLength twice the buffers: reads past the allocations.
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(add_custom_float)(8, stream, buf.x, buf.y, buf.z, 2 * buf.n),
            ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("add_custom_float: block"));

  // Synchronous (null stream) faults return the code at once.
  EXPECT_NE(ACLRT_LAUNCH_KERNEL(dequeue_empty_custom)(1, nullptr), ACL_SUCCESS);
  EXPECT_NE(ACLRT_LAUNCH_KERNEL(add_custom_float)(0, nullptr, buf.x, buf.y, buf.z, buf.n),
            ACL_SUCCESS);  // blockDim 0
  EXPECT_NE(ACLRT_LAUNCH_KERNEL(add_custom_float)(70000, nullptr, buf.x, buf.y, buf.z, buf.n),
            ACL_SUCCESS);

  // After all of that, a good launch on the same stream is right.
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(add_custom_float)(8, stream, buf.x, buf.y, buf.z, buf.n),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  buf.ExpectDoubled();
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(AclKernelFaults, TimeoutIsTheAicoreTimeoutCode) {
  ascsim::ScopedSettings settings;
  ascsim::SetLaunchTimeout(0.1);
  void* flag = nullptr;
  ASSERT_EQ(aclrtMalloc(&flag, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(flag, 32, 0, 32), ACL_SUCCESS);
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(spin_forever_custom)(2, nullptr, flag),
            ACL_ERROR_RT_AICORE_TIMEOUT);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("launch timed out"));
  EXPECT_EQ(aclrtFree(flag), ACL_SUCCESS);
}

TEST_F(AclKernelFaults, BadHostCallsReturnCodes) {
  void* p = nullptr;
  EXPECT_NE(aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  int local = 0;
  EXPECT_NE(aclrtFree(&local), ACL_SUCCESS);  // not device memory
  ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_NE(aclrtFree(p), ACL_SUCCESS);  // double free
  EXPECT_NE(std::string(aclGetRecentErrMsg()), "");
}

// Several host threads, each with its own stream, mixing good and faulty launches: each stream
// reports its own faults only, and every good result is right.
TEST_F(AclKernelFaults, ThreadsWithOwnStreamsSeeOnlyTheirOwnFaults) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 25;
  std::vector<std::thread> threads;
  std::vector<int> bad(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &bad] {
      aclrtStream stream = nullptr;
      if (aclrtCreateStream(&stream) != ACL_SUCCESS) {
        ++bad[t];
        return;
      }
      DeviceBuffers buf(2048 * (t + 1));
      for (int r = 0; r < kRounds; ++r) {
        const bool faulty = (r + t) % 3 == 0;
        if (faulty) {
          ACLRT_LAUNCH_KERNEL(dequeue_empty_custom)(1 + t % 2, stream);
        } else {
          ACLRT_LAUNCH_KERNEL(add_custom_float)(4, stream, buf.x, buf.y, buf.z, buf.n);
        }
        const aclError rc = aclrtSynchronizeStream(stream);
        if ((rc != ACL_SUCCESS) != faulty) ++bad[t];
      }
      buf.ExpectDoubled();
      if (aclrtDestroyStream(stream) != ACL_SUCCESS) ++bad[t];
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad, std::vector<int>(kThreads, 0));
}

}  // namespace
