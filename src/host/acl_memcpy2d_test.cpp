// aclrtMemcpy2d / aclrtMemcpy2dAsync: pitched copies every way, and the parameter rules.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

using ::testing::HasSubstr;

TEST(AclMemcpy2d, PitchedRoundTripKeepsTheGaps) {
  constexpr size_t kWidth = 10, kHeight = 7, kHostPitch = 13, kDevPitch = 32;
  std::vector<uint8_t> host(kHostPitch * kHeight), back(kHostPitch * kHeight, 0xEE);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint8_t>(i * 3 + 1);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, kDevPitch * kHeight, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(dev, kDevPitch * kHeight, 0x55, kDevPitch * kHeight), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy2d(dev, kDevPitch, host.data(), kHostPitch, kWidth, kHeight,
                          ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  std::vector<uint8_t> raw(kDevPitch * kHeight);
  ASSERT_EQ(aclrtMemcpy(raw.data(), raw.size(), dev, raw.size(), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (size_t r = 0; r < kHeight; ++r) {
    for (size_t c = 0; c < kDevPitch; ++c) {
      ASSERT_EQ(raw[r * kDevPitch + c], c < kWidth ? host[r * kHostPitch + c] : 0x55) << r << c;
    }
  }
  ASSERT_EQ(aclrtMemcpy2d(back.data(), kHostPitch, dev, kDevPitch, kWidth, kHeight,
                          ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (size_t r = 0; r < kHeight; ++r) {
    for (size_t c = 0; c < kHostPitch; ++c) {
      ASSERT_EQ(back[r * kHostPitch + c], c < kWidth ? host[r * kHostPitch + c] : 0xEE);
    }
  }
  // Device to device and the DEFAULT kind, on a stream.
  void* dev2 = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev2, kWidth * kHeight, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy2dAsync(dev2, kWidth, dev, kDevPitch, kWidth, kHeight,
                               ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
            ACL_SUCCESS);
  std::vector<uint8_t> packed(kWidth * kHeight);
  ASSERT_EQ(aclrtMemcpy2dAsync(packed.data(), kWidth, dev2, kWidth, kWidth, kHeight,
                               ACL_MEMCPY_DEFAULT, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  for (size_t r = 0; r < kHeight; ++r) {
    for (size_t c = 0; c < kWidth; ++c) ASSERT_EQ(packed[r * kWidth + c], host[r * kHostPitch + c]);
  }
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev2), ACL_SUCCESS);
}

TEST(AclMemcpy2d, ParameterRules) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<uint8_t> host(256);
  // Nothing to copy succeeds, even with null pointers (CANN checks sizes first).
  EXPECT_EQ(aclrtMemcpy2d(nullptr, 16, nullptr, 16, 0, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy2d(nullptr, 16, nullptr, 16, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy2d(nullptr, 16, host.data(), 16, 4, 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("dst or src is null"));
  EXPECT_EQ(aclrtMemcpy2d(dev, 16, host.data(), 8, 9, 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()),
              HasSubstr("width 9 must not exceed spitch 8 or dpitch 16"));
  EXPECT_EQ(aclrtMemcpy2d(host.data(), 16, host.data() + 128, 16, 8, 4, ACL_MEMCPY_HOST_TO_HOST),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("kind 0 is not"));
  // The device side's rows must stay inside its allocation: 16 rows of pitch 32 are 488 B.
  EXPECT_EQ(aclrtMemcpy2d(dev, 32, host.data(), 8, 8, 16, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()),
              HasSubstr("destination rows span 488 B (16 rows of 8 B, pitch 32)"));
  EXPECT_EQ(aclrtMemcpy2d(host.data(), 8, host.data(), 8, 8, 4, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("source rows"));
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

void Nothing(void*) {}

TEST(AclMemcpy2d, AsyncCopyIsCheckedAgainWhenItRuns) {
  // The stream is held by a blocking callback until this thread runs it, so the allocation can
  // be freed between issuing the copy and the copy running.
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const auto self = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(aclrtSubscribeReport(self, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(Nothing, nullptr, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
  std::vector<uint8_t> host(64);
  void* doomed = nullptr;
  ASSERT_EQ(aclrtMalloc(&doomed, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy2dAsync(doomed, 64, host.data(), 8, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(doomed), ACL_SUCCESS);
  EXPECT_EQ(aclrtProcessReport(5000), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("not inside one device allocation"));
  EXPECT_EQ(aclrtUnSubscribeReport(self, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

}  // namespace
