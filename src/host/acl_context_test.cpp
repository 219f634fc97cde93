// Contexts: creation makes a context current, the default context of aclrtSetDevice, per-thread
// current contexts, and every error code.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "acl/acl.h"

namespace {

using ::testing::HasSubstr;

TEST(AclContext, CreateSetGetDestroy) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext def = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&def), ACL_SUCCESS);
  ASSERT_NE(def, nullptr);

  aclrtContext ctx = nullptr;
  ASSERT_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
  aclrtContext current = nullptr;
  EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
  EXPECT_EQ(current, ctx);  // a new context is current on the creating thread
  int32_t device = -1;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  EXPECT_EQ(device, 0);

  EXPECT_EQ(aclrtSetCurrentContext(def), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
  EXPECT_EQ(current, def);

  EXPECT_EQ(aclrtDestroyContext(ctx), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(ctx), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("destroyed already?"));
  EXPECT_EQ(aclrtSetCurrentContext(ctx), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyContext(def), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("default context"));
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST(AclContext, DestroyingTheCurrentContextLeavesTheThreadWithout) {
  std::thread([] {
    aclrtContext ctx = nullptr;
    ASSERT_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(ctx), ACL_SUCCESS);
    aclrtContext current = nullptr;
    EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_ERROR_RT_CONTEXT_NULL);
  }).join();
}

TEST(AclContext, CurrentContextIsPerThread) {
  aclrtContext ctx = nullptr;
  ASSERT_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
  std::thread([ctx] {
    aclrtContext current = nullptr;
    int32_t device = -1;
    EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("this thread has no context"));
    EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    // Another thread's context may be made current here (CANN allows it).
    EXPECT_EQ(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
    EXPECT_EQ(current, ctx);
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    EXPECT_EQ(device, 0);
  }).join();
  EXPECT_EQ(aclrtDestroyContext(ctx), ACL_SUCCESS);
}

TEST(AclContext, ErrorCodes) {
  aclrtContext ctx = nullptr;
  EXPECT_EQ(aclrtCreateContext(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateContext(&ctx, 1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("device 1 does not exist"));
  EXPECT_EQ(aclrtCreateContext(&ctx, -1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetDevice(nullptr), ACL_ERROR_INVALID_PARAM);
  int not_a_context = 0;
  EXPECT_EQ(aclrtSetCurrentContext(&not_a_context), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyContext(&not_a_context), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
