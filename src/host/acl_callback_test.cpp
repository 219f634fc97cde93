// Host callbacks in stream order: subscribe, launch, process, unsubscribe, and their error codes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "ascsim/runtime.h"

namespace {

using ::testing::HasSubstr;

void Append(void* user) { static_cast<std::vector<int>*>(user)->push_back(1); }

struct Step {
  std::vector<int>* order;
  int value;
};
void Push(void* user) {
  auto* s = static_cast<Step*>(user);
  s->order->push_back(s->value);
}

TEST(AclCallback, CallbacksRunInStreamOrderOnTheSubscribedThread) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<int> order;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> worker_id{0};
  std::thread worker([&] {
    worker_id = static_cast<uint64_t>(pthread_self());
    while (!stop) aclrtProcessReport(20);
  });
  while (worker_id == 0) std::this_thread::yield();
  ASSERT_EQ(aclrtSubscribeReport(worker_id, stream), ACL_SUCCESS);
  Step steps[3] = {{&order, 1}, {&order, 2}, {&order, 3}};
  ASSERT_EQ(aclrtLaunchCallback(Push, &steps[0], ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(Push, &steps[1], ACL_CALLBACK_NO_BLOCK, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(Push, &steps[2], ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  // The last one blocked the stream, so all three have run by now.
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(aclrtUnSubscribeReport(worker_id, stream), ACL_SUCCESS);
  stop = true;
  worker.join();
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(AclCallback, ErrorCodes) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<int> ran;
  EXPECT_EQ(aclrtLaunchCallback(Append, &ran, ACL_CALLBACK_BLOCK, stream),
            ACL_ERROR_RT_STREAM_NO_CB_REG);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("no thread is subscribed"));
  EXPECT_EQ(aclrtLaunchCallback(nullptr, &ran, ACL_CALLBACK_BLOCK, stream),
            ACL_ERROR_INVALID_PARAM);
  const auto self = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(aclrtSubscribeReport(self, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSubscribeReport(self + 1, stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("already has a subscribed thread"));
  EXPECT_EQ(aclrtLaunchCallback(Append, &ran, static_cast<aclrtCallbackBlockType>(7), stream),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_REPORT_TIMEOUT);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("no callback arrived within 10 ms"));
  EXPECT_EQ(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtLaunchCallback(Append, &ran, ACL_CALLBACK_NO_BLOCK, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtProcessReport(5000), ACL_SUCCESS);
  EXPECT_EQ(ran.size(), 1u);
  EXPECT_EQ(aclrtUnSubscribeReport(self + 1, stream), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  EXPECT_EQ(aclrtUnSubscribeReport(self, stream), ACL_SUCCESS);
  int not_a_stream = 0;
  EXPECT_EQ(aclrtSubscribeReport(self, &not_a_stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

void Nothing(void*) {}

struct Subscription {
  uint64_t thread;
  aclrtStream stream;
};
void Unsubscribe(void* user) {
  auto* s = static_cast<Subscription*>(user);
  EXPECT_EQ(aclrtUnSubscribeReport(s->thread, s->stream), ACL_SUCCESS);
}

TEST(AclCallback, UnsubscribingBeforeTheStreamReachesACallbackFailsTheStream) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const auto self = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(aclrtSubscribeReport(self, stream), ACL_SUCCESS);
  // The first callback unsubscribes this thread while the stream waits for it; nobody is left
  // to run the second.
  Subscription sub{self, stream};
  ASSERT_EQ(aclrtLaunchCallback(Unsubscribe, &sub, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(Nothing, nullptr, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtProcessReport(5000), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()),
              HasSubstr("unsubscribed from the stream before the stream reached the callback"));
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(AclCallback, ABlockingCallbackNobodyRunsTimesOut) {
  ascsim::ScopedSettings restore;
  ascsim::SetLaunchTimeout(0.2);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const auto self = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(aclrtSubscribeReport(self, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(Nothing, nullptr, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_TIMEOUT);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()),
              HasSubstr("the blocking callback was not run within 0.2 s (ASCSIM_TIMEOUT)"));
  EXPECT_EQ(aclrtProcessReport(0), ACL_SUCCESS);  // runs it late; nothing is left queued
  EXPECT_EQ(aclrtUnSubscribeReport(self, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

}  // namespace
