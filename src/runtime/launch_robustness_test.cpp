// Launches that must fail cleanly or keep working under abuse: streams destroyed while another
// thread synchronizes them, scalar polling that must observe the timeout, kernels that throw
// something other than a std::exception, huge timeouts, a kernel launching a kernel, and the
// printf text of a faulting block. LaunchRobustness.* exercises threads (it is in the TSan filter
// of scripts/sanitizers.sh).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"
#include "aicore_test_util.h"
#include "ascsim/kernel_launcher.h"
#include "ascsim/runtime.h"
#include "kernel_launchers.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void spin_forever_custom(GM_ADDR flag);

namespace {

using ascsim::ErrorKind;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;
using ::testing::Not;

using AscendC::LocalTensor;
using AscendC::TPosition;
using Clock = std::chrono::steady_clock;
using ascsim_test::SecondsSince;
using ascsim_test::TimeoutScope;

class SerialScope {
 public:
  explicit SerialScope(bool serial) : previous_(ascsim::IsSerial()) { ascsim::SetSerial(serial); }
  ~SerialScope() { ascsim::SetSerial(previous_); }

 private:
  bool previous_;
};

// Runs `body` as a launch of `block_dim` blocks; returns the KernelError (kind and message).
template <class F>
std::string LaunchError(uint32_t block_dim, F body, ErrorKind* kind = nullptr,
                        const char* name = "robustness") {
  try {
    ascsim::Launch(name, block_dim, body);
  } catch (const ascsim::KernelError& e) {
    if (kind != nullptr) *kind = e.fault_kind();
    return e.what();
  }
  ADD_FAILURE() << "expected a KernelError";
  return "";
}

// z = x + y on the real add kernel over `stream` (nullptr: synchronous); checks every element.
void ExpectAddWorks(ascsim::Stream* stream = nullptr) {
  constexpr uint64_t kN = 2048;
  std::vector<float> x(kN), y(kN), z(kN, -1.0f);
  for (uint64_t i = 0; i < kN; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f;
  }
  ascsim::ExternalMemory xm(x.data(), kN * 4), ym(y.data(), kN * 4), zm(z.data(), kN * 4);
  ascsim::kernels::LaunchAddCustom(ascsim::kernels::ElementType::kFloat32, x.data(), y.data(),
                                   z.data(), kN, 4, stream);
  if (stream != nullptr) stream->Synchronize();
  for (uint64_t i = 0; i < kN; ++i) ASSERT_EQ(z[i], x[i] + 0.5f) << i;
}

// ---- ACL stream synchronisation racing stream destruction ---------------------------------------

// A launch that runs until the timeout (0.3 s) stops it, queued on `stream`.
void QueueStuckLaunch(aclrtStream stream, void* flag) {
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(spin_forever_custom)(2, stream, flag), ACL_SUCCESS);
}

TEST(LaunchRobustness, DestroyingAStreamWhileAnotherThreadSynchronizesIt) {
  TimeoutScope timeout(0.3);
  void* flag = nullptr;
  ASSERT_EQ(aclrtMalloc(&flag, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(flag, 32, 0, 32), ACL_SUCCESS);
  for (int device_wide = 0; device_wide < 2; ++device_wide) {
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    QueueStuckLaunch(s, flag);
    std::atomic<bool> waiting{false};
    std::thread waiter([&] {
      waiting = true;
      // The stuck launch's timeout, or nothing if the destroy dropped it first.
      const aclError rc = device_wide ? aclrtSynchronizeDevice() : aclrtSynchronizeStream(s);
      EXPECT_TRUE(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_AICORE_TIMEOUT ||
                  rc == ACL_ERROR_INVALID_PARAM)
          << rc;
    });
    while (!waiting) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the waiter is inside the wait
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    waiter.join();
  }
  EXPECT_EQ(aclrtFree(flag), ACL_SUCCESS);
}

TEST(LaunchRobustness, DeviceSyncLoopWhileOtherThreadsCycleTheirStreams) {
  constexpr uint32_t kN = 1024;
  std::atomic<bool> stop{false};
  std::thread syncer([&] {
    while (!stop) EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  });
  std::vector<std::thread> workers;
  for (int t = 0; t < 2; ++t) {
    workers.emplace_back([&] {
      void *x = nullptr, *z = nullptr;
      ASSERT_EQ(aclrtMalloc(&x, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMalloc(&z, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemset(x, kN * 4, 0, kN * 4), ACL_SUCCESS);
      const auto start = Clock::now();
      while (SecondsSince(start) < 1.0) {
        aclrtStream s = nullptr;
        ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
        ASSERT_EQ(ACLRT_LAUNCH_KERNEL(add_custom_float)(2, s, x, x, z, kN), ACL_SUCCESS);
        ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
      }
      EXPECT_EQ(aclrtFree(x), ACL_SUCCESS);
      EXPECT_EQ(aclrtFree(z), ACL_SUCCESS);
    });
  }
  for (auto& w : workers) w.join();
  stop = true;
  syncer.join();
}

// ---- scalar access is a cancellation point ------------------------------------------------------

TEST(LaunchRobustness, KernelsPollingWithScalarAccessObserveTheTimeout) {
  TimeoutScope timeout(0.2);
  DeviceBuffer flag(64);
  std::memset(flag.gm(), 0, 64);
  int32_t* gm = flag.as<int32_t>();
  const std::vector<std::pair<const char*, std::function<void()>>> kernels = {
      {"poll_gm_get",
       [gm] {
         AscendC::GlobalTensor<int32_t> g;
         g.SetGlobalBuffer(gm, 16);
         while (g.GetValue(0) == 0) {
         }
       }},
      {"poll_gm_set",
       [gm] {
         AscendC::GlobalTensor<int32_t> g;
         g.SetGlobalBuffer(gm, 16);
         for (;;) g.SetValue(1 + AscendC::GetBlockIdx(), 0);
       }},
      {"poll_ub_get",
       [] {
         AscendC::TPipe pipe;
         AscendC::TBuf<TPosition::VECCALC> buf;
         pipe.InitBuffer(buf, 64);
         LocalTensor<int32_t> t = buf.Get<int32_t>();
         t.SetValue(0, 0);
         while (t.GetValue(0) == 0) {
         }
       }},
      // One block polls a GM flag nobody sets while the others wait at SyncAll.
      {"poll_gm_sync_all",
       [gm] {
         AscendC::GlobalTensor<int32_t> g;
         g.SetGlobalBuffer(gm, 16);
         if (AscendC::GetBlockIdx() == 0) {
           while (g.GetValue(0) == 0) {
           }
         }
         AscendC::SyncAll();
       }},
  };
  for (const auto& [name, body] : kernels) {
    SCOPED_TRACE(name);
    const auto start = Clock::now();
    ErrorKind kind{};
    const std::string message = LaunchError(2, body, &kind, name);
    EXPECT_EQ(kind, ErrorKind::kTimeout);
    EXPECT_THAT(message, HasSubstr("launch timed out"));
    EXPECT_LT(SecondsSince(start), 5.0);
  }
  ExpectAddWorks();
}

// ---- a kernel throwing something that is not a std::exception -----------------------------------

extern "C" __global__ __aicore__ void throws_int_custom(GM_ADDR) {
  if (AscendC::GetBlockIdx() == 1) throw 42;
}

TEST(LaunchRobustness, NonStandardExceptionsFailTheLaunchInEveryMode) {
  for (bool serial : {false, true}) {
    SCOPED_TRACE(serial ? "serial" : "parallel");
    SerialScope mode(serial);
    ErrorKind kind{};
    const std::string message = LaunchError(
        8,
        [] {
          if (AscendC::GetBlockIdx() >= 1) throw 42;
        },
        &kind);
    EXPECT_THAT(message, HasSubstr("robustness: block 1/8: kernel threw an exception that is not a "
                                   "std::exception"));
    uint8_t* gm = static_cast<uint8_t*>(AscendC::GmAlloc(32));
    try {
      ICPU_RUN_KF(throws_int_custom, 4, gm);
      ADD_FAILURE() << "expected a KernelError";
    } catch (const ascsim::KernelError& e) {
      EXPECT_THAT(e.what(), HasSubstr("throws_int_custom: block 1/4: kernel threw"));
    }
    AscendC::GmFree(gm);
  }
  ExpectAddWorks();
}

// ---- a huge timeout is no timeout ---------------------------------------------------------------

TEST(LaunchRobustness, HugeTimeoutsDoNotOverflowIntoAnImmediateTimeout) {
  for (double seconds : {1e10, 1e12, 1e300}) {
    TimeoutScope timeout(seconds);
    EXPECT_EQ(ascsim::GetLaunchTimeout(), seconds);
    ExpectAddWorks();
    ascsim::Stream stream;
    ExpectAddWorks(&stream);
  }
}

// ---- a kernel launching a kernel ----------------------------------------------------------------

TEST(LaunchRobustness, AKernelLaunchingAKernelIsReported) {
  ErrorKind kind{};
  const std::string message = LaunchError(
      2, [] { ascsim::Launch("inner", 1, [] {}); }, &kind);
  EXPECT_THAT(message,
              HasSubstr("robustness: block 0/2: kernel launch of inner from inside a kernel"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  // Through ACL the inner launch returns an error code the kernel may ignore: the outer launch
  // still fails.
  void* x = nullptr;
  ASSERT_EQ(aclrtMalloc(&x, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclError inner_rc = ACL_SUCCESS;
  const std::string acl_message = LaunchError(
      1, [&] { inner_rc = ACLRT_LAUNCH_KERNEL(add_custom_float)(1, nullptr, x, x, x, 1024); });
  EXPECT_NE(inner_rc, ACL_SUCCESS);
  EXPECT_THAT(acl_message, HasSubstr("kernel launch of add_custom_float from inside a kernel"));
  EXPECT_EQ(aclrtFree(x), ACL_SUCCESS);
}

// ---- printf text of a faulting block ------------------------------------------------------------

TEST(LaunchRobustness, PartialPrintfLineOfAFaultingBlockKeepsItsOwnTag) {
  SerialScope serial(true);  // both launches run on this thread, one after the other
  testing::internal::CaptureStdout();
  LaunchError(2, [] {
    if (AscendC::GetBlockIdx() == 1) {
      AscendC::printf("partial");
      ASSERT(false);
    }
  });
  ascsim::Launch("next", 1, [] { AscendC::printf("hello\n"); });
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_THAT(out, HasSubstr("[block 1] partial\n"));
  EXPECT_THAT(out, HasSubstr("[block 0] hello\n"));
  EXPECT_THAT(out, Not(HasSubstr("partialhello")));
}

}  // namespace
