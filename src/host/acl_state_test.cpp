// host::AclState: the one recent-error slot every entry point writes (per thread), and fork(): a
// child of a process whose other threads were using the ACL registries at the moment of fork can
// use every registry (the handles it inherited and new ones), and never hangs on a lock a thread
// that does not exist in the child held.
#include "host/acl_state.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "acl/acl.h"

namespace {

using ::testing::HasSubstr;

TEST(AclState, RecentErrorIsPerThreadAndSharedByEveryEntryPoint) {
  // A validation failure (RecordError), a Guard failure and one from another group of calls.
  EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_STREQ(aclGetRecentErrMsg(), "aclrtGetDeviceCount: count is null");
  EXPECT_EQ(aclrtMalloc(nullptr, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_STREQ(aclGetRecentErrMsg(), "aclrtMalloc: devPtr is null");
  EXPECT_EQ(aclrtDestroyEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_STREQ(aclGetRecentErrMsg(), "aclrtDestroyEvent: event is null");
  EXPECT_EQ(ascsim::acl::RecentError(), "aclrtDestroyEvent: event is null");
  std::string other_thread = "unset";
  std::thread([&] {
    other_thread = aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSetDevice(3), ACL_ERROR_RT_INVALID_DEVICEID);
  }).join();
  EXPECT_EQ(other_thread, "");  // nothing failed on that thread before
  EXPECT_STREQ(aclGetRecentErrMsg(), "aclrtDestroyEvent: event is null");
}

// What a child does with the state it inherited; returns 0 when all is as expected.
int UseAclInChild(void* parent_block, aclrtStream parent_stream) {
  if (aclrtFreeHost(parent_block) != ACL_SUCCESS) return 10;  // the registry came along
  if (aclrtSynchronizeStream(parent_stream) == ACL_SUCCESS) return 11;
  if (std::string(aclGetRecentErrMsg()).find("before fork") == std::string::npos) return 12;
  int32_t device = -1;
  if (aclrtGetDevice(&device) != ACL_SUCCESS || device != 0) return 13;
  aclrtEvent event = nullptr;
  if (aclrtCreateEvent(&event) != ACL_SUCCESS) return 14;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 15;
  if (aclrtRecordEvent(event, stream) != ACL_SUCCESS) return 16;
  if (aclrtSynchronizeEvent(event) != ACL_SUCCESS) return 17;
  if (aclrtDestroyEvent(event) != ACL_SUCCESS) return 18;
  void* block = nullptr;
  if (aclrtMallocHost(&block, 64) != ACL_SUCCESS) return 19;
  if (aclrtFreeHost(block) != ACL_SUCCESS) return 20;
  if (aclrtDestroyStream(stream) != ACL_SUCCESS) return 21;
  return 0;
}

TEST(AclState, ForkChildUsesTheRegistriesWhileOtherThreadsHeldThem) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream parent_stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&parent_stream), ACL_SUCCESS);
  // Two threads take the event, host-block and stream registries' locks without pause, so
  // fork() finds them held unless the fork handler holds them across it.
  std::atomic<bool> stop{false};
  auto churn = [&] {
    while (!stop.load()) {
      aclrtEvent e = nullptr;
      if (aclrtCreateEvent(&e) == ACL_SUCCESS) aclrtDestroyEvent(e);
      void* p = nullptr;
      if (aclrtMallocHost(&p, 16) == ACL_SUCCESS) aclrtFreeHost(p);
      aclrtSynchronizeStream(parent_stream);
    }
  };
  std::thread a(churn), b(churn);
  for (int round = 0; round < 20; ++round) {
    void* block = nullptr;
    ASSERT_EQ(aclrtMallocHost(&block, 32), ACL_SUCCESS);
    const pid_t pid = fork();
    ASSERT_NE(pid, -1);
    if (pid == 0) {
      alarm(20);  // a child stuck on a lock dies by SIGALRM instead of hanging the test
      _exit(UseAclInChild(block, parent_stream));
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "round " << round << ": child killed by signal "
                                   << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    ASSERT_EQ(WEXITSTATUS(status), 0) << "round " << round;
    EXPECT_EQ(aclrtFreeHost(block), ACL_SUCCESS);  // the parent's block is still its own
  }
  stop = true;
  a.join();
  b.join();
  EXPECT_EQ(aclrtDestroyStream(parent_stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

}  // namespace
