// Events: ordering on streams, status queries, aclrtStreamWaitEvent across streams, and elapsed
// time as the cost model's device time (the same sum a Profiler reports for those launches).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ascsim/profile.h"
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_LENGTH = 256;
}  // namespace

// z = x + y over float, one tile after another with double buffering.
extern "C" __global__ __aicore__ void event_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                       uint32_t totalLength) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
  const uint32_t blockLength = totalLength / AscendC::GetBlockNum();
  const uint32_t offset = blockLength * AscendC::GetBlockIdx();
  xGm.SetGlobalBuffer((__gm__ float*)x + offset, blockLength);
  yGm.SetGlobalBuffer((__gm__ float*)y + offset, blockLength);
  zGm.SetGlobalBuffer((__gm__ float*)z + offset, blockLength);
  pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  for (uint32_t i = 0; i < blockLength / TILE_LENGTH; i++) {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
    AscendC::DataCopy(yLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
    xLocal = inQueueX.DeQue<float>();
    yLocal = inQueueY.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
    zLocal = outQueueZ.DeQue<float>();
    AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);
    outQueueZ.FreeTensor(zLocal);
  }
}

namespace {

using ::testing::HasSubstr;

class AclEvent : public ::testing::Test {
 protected:
  static constexpr uint32_t kLength = 16 * 4096;
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    for (void** p : {&x_, &y_, &z_}) {
      ASSERT_EQ(aclrtMalloc(p, kLength * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemset(*p, kLength * sizeof(float), 0, kLength * sizeof(float)), ACL_SUCCESS);
    }
  }
  void TearDown() override {
    for (void* p : {x_, y_, z_}) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  }
  void Launch(uint32_t blocks, aclrtStream stream) {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(event_add_custom)(blocks, stream, x_, y_, z_, kLength),
              ACL_SUCCESS);
  }
  aclrtStream stream_ = nullptr;
  void *x_ = nullptr, *y_ = nullptr, *z_ = nullptr;
};

TEST_F(AclEvent, ElapsedTimeIsTheModelledDeviceTimeOfTheLaunchesBetween) {
  aclrtEvent start = nullptr, end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC), ACL_SUCCESS);
  Launch(8, stream_);  // before start: not counted
  ascsim::Profiler prof;
  ASSERT_EQ(aclrtRecordEvent(start, stream_), ACL_SUCCESS);
  Launch(8, stream_);
  Launch(16, stream_);
  ASSERT_EQ(aclrtRecordEvent(end, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(end), ACL_SUCCESS);
  float ms = -1;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
  // The profiler also saw the launch before `start`; only the last two are between the events.
  std::vector<ascsim::LaunchEstimate> launches = prof.Summary();
  ASSERT_EQ(launches.size(), 2u);
  double expected_us = 0;
  for (const auto& e : launches) expected_us += e.estimated_us + e.launch_overhead_us;
  EXPECT_GT(expected_us, 0);
  EXPECT_NEAR(ms, expected_us / 1000.0, 1e-6 + 1e-6 * expected_us / 1000.0);
  // Reversed: the same time, negative.
  float back = 0;
  ASSERT_EQ(aclrtEventElapsedTime(&back, end, start), ACL_SUCCESS);
  EXPECT_FLOAT_EQ(back, -ms);
  EXPECT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(end), ACL_SUCCESS);
}

TEST_F(AclEvent, DefaultStreamEventsTimeSynchronousLaunches) {
  aclrtEvent start = nullptr, end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(start, nullptr), ACL_SUCCESS);
  Launch(4, nullptr);
  ASSERT_EQ(aclrtRecordEvent(end, nullptr), ACL_SUCCESS);
  float ms = 0;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
  EXPECT_GT(ms, 0.0f);
  EXPECT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(end), ACL_SUCCESS);
}

void Nothing(void*) {}

TEST_F(AclEvent, PendingUnrecordedAndUntimedEventsAreRefused) {
  aclrtEvent a = nullptr, b = nullptr, untimed = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&b), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEventWithFlag(&untimed, ACL_EVENT_SYNC), ACL_SUCCESS);
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("startEvent was never recorded"));
  // Hold the stream with a blocking callback so `b` stays pending.
  const auto self = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(aclrtSubscribeReport(self, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(a, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(a), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(Nothing, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(b, stream_), ACL_SUCCESS);
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  EXPECT_EQ(aclrtQueryEventStatus(b, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  aclrtEventStatus old_status = ACL_EVENT_STATUS_COMPLETE;
  EXPECT_EQ(aclrtQueryEvent(b, &old_status), ACL_SUCCESS);
  EXPECT_EQ(old_status, ACL_EVENT_STATUS_NOT_READY);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("endEvent has not completed yet"));
  EXPECT_EQ(aclrtProcessReport(5000), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(b), ACL_SUCCESS);
  EXPECT_EQ(aclrtQueryEventStatus(b, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
  EXPECT_EQ(ms, 0.0f);  // nothing ran between them
  EXPECT_EQ(aclrtUnSubscribeReport(self, stream_), ACL_SUCCESS);

  ASSERT_EQ(aclrtRecordEvent(untimed, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, untimed, b), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("without ACL_EVENT_TIME_LINE"));
  // A reset forgets the record.
  ASSERT_EQ(aclrtResetEvent(b, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_INTERNAL_ERROR);
  for (aclrtEvent e : {a, b, untimed}) EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
}

TEST_F(AclEvent, StreamWaitEventOrdersTwoStreams) {
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  aclrtEvent ready = nullptr, after = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&ready), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&after), ACL_SUCCESS);
  const auto self = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(aclrtSubscribeReport(self, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(Nothing, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  Launch(8, stream_);
  ASSERT_EQ(aclrtRecordEvent(ready, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(other, ready), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(after, other), ACL_SUCCESS);
  // `other` waits for `stream_`, which waits for this thread's aclrtProcessReport.
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  EXPECT_EQ(aclrtQueryEventStatus(after, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  EXPECT_EQ(aclrtProcessReport(5000), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  // `other` ran nothing itself, but its timeline moved up to the event it waited for.
  float ms = -1;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, ready, after), ACL_SUCCESS);
  EXPECT_EQ(ms, 0.0f);
  EXPECT_EQ(aclrtUnSubscribeReport(self, stream_), ACL_SUCCESS);
  for (aclrtEvent e : {ready, after}) EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST_F(AclEvent, ErrorCodes) {
  aclrtEvent e = nullptr;
  EXPECT_EQ(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateEventWithFlag(&e, 0x1000), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("unknown flag bits 0x1000"));
  EXPECT_EQ(aclrtDestroyEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtRecordEvent(nullptr, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtStreamWaitEvent(stream_, nullptr), ACL_ERROR_INVALID_PARAM);
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(nullptr, &ms, &ms), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(e), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("not an event from aclrtCreateEvent"));
  EXPECT_EQ(aclrtRecordEvent(e, stream_), ACL_ERROR_INVALID_PARAM);
  aclrtEvent ok = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&ok), ACL_SUCCESS);
  int not_a_stream = 0;
  EXPECT_EQ(aclrtRecordEvent(ok, &not_a_stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyEvent(ok), ACL_SUCCESS);
}

}  // namespace
