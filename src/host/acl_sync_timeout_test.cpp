// The *WithTimeout synchronizations count their timeout in simulated device time: the cost
// model's estimate of the work they waited for (since the stream was last synchronized), not the
// wall clock the simulation takes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "ascsim/profile.h"
#include "kernel_operator.h"

namespace {
constexpr uint32_t kSpinLength = 16384;  // floats per vector instruction (64 KB of UB)
}  // namespace

// `iters` Adds over 64 KB of UB on one core: device time grows with `iters`, GM traffic does not.
extern "C" __global__ __aicore__ void sync_timeout_spin(GM_ADDR z, uint32_t iters) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kSpinLength * sizeof(float));
  AscendC::LocalTensor<float> acc = buf.Get<float>();
  AscendC::Duplicate(acc, 0.0f, kSpinLength);
  for (uint32_t i = 0; i < iters; ++i) {
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(acc, acc, 1.0f, kSpinLength);
  }
  AscendC::GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer((__gm__ float*)z, kSpinLength);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
  AscendC::DataCopy(zGm, acc, kSpinLength);
}

// Slow on the CPU, nearly free on the device: the wall clock of a simulation says nothing.
extern "C" __global__ __aicore__ void sync_timeout_sleepy(GM_ADDR z) {
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  AscendC::GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer((__gm__ float*)z, 8);
  zGm.SetValue(0, 1.0f);
}

namespace {

using ::testing::HasSubstr;

class AclSyncTimeout : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&z_, kSpinLength * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    // Earlier default-stream work of this thread (other tests) is not what these tests wait for.
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtFree(z_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  }
  void Spin(aclrtStream stream, uint32_t iters) {
    ASSERT_EQ(ACLRT_LAUNCH_KERNEL(sync_timeout_spin)(1, stream, z_, iters), ACL_SUCCESS);
  }
  // The modelled device time (ms) of one Spin launch, as the profiler estimates it.
  double SpinMs(uint32_t iters) {
    ascsim::Profiler prof;
    Spin(nullptr, iters);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    std::vector<ascsim::LaunchEstimate> launches = prof.Summary();
    EXPECT_EQ(launches.size(), 1u);
    if (launches.empty()) return 0;
    return (launches[0].estimated_us + launches[0].launch_overhead_us) / 1000.0;
  }
  aclrtStream stream_ = nullptr;
  void* z_ = nullptr;
};

// Enough Adds for about 3 ms of device time: over a 1 ms timeout, far under 60 s.
constexpr uint32_t kLongIters = 12000;

TEST_F(AclSyncTimeout, KernelOverTheTimeoutInDeviceTimeReturnsTheTimeoutCode) {
  const double ms = SpinMs(kLongIters);
  ASSERT_GT(ms, 1.5) << "the spin kernel should take well over 1 ms of device time";
  ASSERT_LT(ms, 100.0);
  Spin(stream_, kLongIters);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_THAT(aclGetRecentErrMsg(),
              HasSubstr("aclrtSynchronizeStreamWithTimeout: the stream's work takes"));
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("over the timeout of 1 ms"));
  // The work finished all the same: its result is there.
  std::vector<float> z(kSpinLength);
  ASSERT_EQ(aclrtMemcpy(z.data(), z.size() * sizeof(float), z_, z.size() * sizeof(float),
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(z[0], static_cast<float>(kLongIters));
  EXPECT_EQ(z[kSpinLength - 1], static_cast<float>(kLongIters));
  // The timed-out synchronization counted as one: nothing is pending now.
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 1), ACL_SUCCESS);
}

TEST_F(AclSyncTimeout, TheSameKernelWithinALargeTimeoutOrWithoutLimitSucceeds) {
  Spin(stream_, kLongIters);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 60000), ACL_SUCCESS);
  Spin(stream_, kLongIters);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, -1), ACL_SUCCESS);
  // The threshold is the estimate: just over it passes, just under it times out.
  const double ms = SpinMs(kLongIters);
  Spin(stream_, kLongIters);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, static_cast<int32_t>(ms) + 1), ACL_SUCCESS);
  Spin(stream_, kLongIters);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, static_cast<int32_t>(ms)),
            ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

// Before: the timeout ran on the wall clock, and a correct program whose simulation took longer
// than its timeout failed with 507046.
TEST_F(AclSyncTimeout, SlowSimulationOfAShortKernelDoesNotTimeOut) {
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(sync_timeout_sleepy)(1, stream_, z_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 1), ACL_SUCCESS);
  float z0 = 0;
  ASSERT_EQ(aclrtMemcpy(&z0, sizeof z0, z_, sizeof z0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(z0, 1.0f);  // it waited for the kernel
}

TEST_F(AclSyncTimeout, OnlyWorkSinceTheLastSynchronizationCounts) {
  Spin(stream_, kLongIters);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 1), ACL_SUCCESS);
  Spin(stream_, kLongIters);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 1), ACL_SUCCESS);
  // Short launches add up.
  for (int i = 0; i < 4; ++i) Spin(stream_, kLongIters / 4);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

TEST_F(AclSyncTimeout, DefaultStreamWorkRanOnThisThread) {
  Spin(nullptr, kLongIters);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 1), ACL_SUCCESS);
  Spin(nullptr, kLongIters);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 60000), ACL_SUCCESS);
}

TEST_F(AclSyncTimeout, DeviceTimeoutTakesTheLongestStream) {
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  // Streams run side by side: two halves on two streams do not add up to the whole.
  const double half_ms = SpinMs(kLongIters / 2);
  Spin(stream_, kLongIters / 2);
  Spin(other, kLongIters / 2);
  EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(static_cast<int32_t>(half_ms) + 1), ACL_SUCCESS);
  Spin(stream_, kLongIters);
  EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_THAT(aclGetRecentErrMsg(),
              HasSubstr("aclrtSynchronizeDeviceWithTimeout: the device's work takes"));
  EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(1), ACL_SUCCESS);
  Spin(other, kLongIters);
  EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(-1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST_F(AclSyncTimeout, EventTimeoutCountsTheWorkBeforeTheRecord) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  Spin(stream_, kLongIters);
  ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 1), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("aclrtSynchronizeEventWithTimeout: the work before"));
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 60000), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, -1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  // After the stream's synchronization, a record of no new work waits for nothing.
  ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

// CANN: timeout < -1 and 0 are ACL_ERROR_RT_PARAM_INVALID (hicann/runtime aclrt_impl and
// api_error.cc); a null event is ACL_ERROR_INVALID_PARAM; a handle that is no stream fails.
TEST_F(AclSyncTimeout, BadArguments) {
  for (int32_t bad : {0, -2, -1000}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, bad), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("aclrtSynchronizeStreamWithTimeout: timeout " +
                                                std::to_string(bad) + " ms is invalid"));
    EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(bad), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("aclrtSynchronizeDeviceWithTimeout: timeout"));
    EXPECT_EQ(aclrtSynchronizeEventWithTimeout(nullptr, bad), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("aclrtSynchronizeEventWithTimeout: timeout"));
  }
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(nullptr, 10), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("aclrtSynchronizeEventWithTimeout: event is null"));
  int not_an_event = 0;
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(&not_an_event, 10), ACL_ERROR_INVALID_PARAM);
  int not_a_stream = 0;
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(&not_a_stream, 10), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("not a stream from aclrtCreateStream"));
}

}  // namespace
