// Launch control in the runtime: the launch timeout (watchdog), cancellation from another thread,
// SyncAll waiters stopped by a cancel, and launches in a fork() child.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/kernel_launcher.h"
#include "ascsim/runtime.h"
#include "kernel_launchers.h"
#include "kernel_operator.h"

// kernel/testing/faulty_kernels.cpp: every core waits for a GM flag nobody sets.
extern "C" __global__ __aicore__ void spin_forever_custom(GM_ADDR flag);

namespace {

using ::testing::HasSubstr;

void LaunchSpinForever(uint32_t block_dim, ascsim::Stream* stream) {
  static void* const flag = [] {
    void* p = ascsim::DeviceMalloc(32);
    std::memset(p, 0, 32);
    return p;
  }();
  ascsim::MakeKernelLauncher("spin_forever_custom", &spin_forever_custom)
      .Run(block_dim, stream, flag);
}
using Clock = std::chrono::steady_clock;
using ascsim_test::SecondsSince;
using ascsim_test::TimeoutScope;

// z = x + y on the real add kernel; checks every element.
void ExpectAddWorks(ascsim::Stream* stream = nullptr) {
  constexpr uint64_t kN = 4096;
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

TEST(LaunchTimeout, StuckKernelFailsWithTimeoutNamingKernelBlockAndLimit) {
  TimeoutScope timeout(0.2);
  const auto start = Clock::now();
  try {
    LaunchSpinForever(4, nullptr);
    FAIL() << "expected a timeout";
  } catch (const ascsim::KernelError& e) {
    EXPECT_EQ(e.fault_kind(), ascsim::ErrorKind::kTimeout);
    EXPECT_THAT(e.what(), HasSubstr("spin_forever_custom: block 0/4: launch timed out"));
    EXPECT_THAT(e.what(), HasSubstr("launch timeout of 0.2 s"));
  }
  const double took = SecondsSince(start);
  EXPECT_GE(took, 0.19);
  EXPECT_LT(took, 5.0);
  ExpectAddWorks();  // the next launch works
}

TEST(LaunchTimeout, OnAStreamTheErrorSurfacesAtSynchronizeAndTheStreamStaysUsable) {
  TimeoutScope timeout(0.1);
  ascsim::Stream stream;
  LaunchSpinForever(2, &stream);
  try {
    stream.Synchronize();
    FAIL() << "expected a timeout";
  } catch (const ascsim::KernelError& e) {
    EXPECT_EQ(e.fault_kind(), ascsim::ErrorKind::kTimeout);
  }
  ExpectAddWorks(&stream);
}

TEST(LaunchTimeout, ZeroTurnsItOffAndBadValuesAreRefused) {
  TimeoutScope timeout(0);
  EXPECT_EQ(ascsim::GetLaunchTimeout(), 0.0);
  ExpectAddWorks();
  EXPECT_THROW(ascsim::SetLaunchTimeout(-1), ascsim::InvalidArgument);
  EXPECT_THROW(ascsim::SetLaunchTimeout(std::nan("")), ascsim::InvalidArgument);
  EXPECT_THROW(ascsim::SetLaunchTimeout(std::numeric_limits<double>::infinity()),
               ascsim::InvalidArgument);
  EXPECT_EQ(ascsim::GetLaunchTimeout(), 0.0);
}

TEST(LaunchTimeout, AnEarlierDeadlineWakesTheWatchdogEarly) {
  // A long timeout is armed first; a later launch with a short one must not wait for it.
  ascsim::CancelToken token;
  ascsim::Stream slow;
  {
    TimeoutScope timeout(60);
    ascsim::CancelScope scope(token);
    LaunchSpinForever(1, &slow);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // let the slow launch arm first
  {
    TimeoutScope timeout(0.2);
    const auto start = Clock::now();
    EXPECT_THROW(LaunchSpinForever(1, nullptr), ascsim::KernelError);
    EXPECT_LT(SecondsSince(start), 5.0);
  }
  token.Cancel("test over");
  try {
    slow.Synchronize();
    FAIL() << "expected the cancel";
  } catch (const ascsim::KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("launch cancelled: test over"));
  }
}

TEST(LaunchCancel, CancelFromAnotherThreadStopsARunningLaunch) {
  TimeoutScope timeout(0);
  ascsim::CancelToken token;
  std::thread canceller([&token] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    token.Cancel("interrupted");
  });
  try {
    ascsim::CancelScope scope(token);
    LaunchSpinForever(3, nullptr);
    ADD_FAILURE() << "expected a cancel";
  } catch (const ascsim::KernelError& e) {
    EXPECT_EQ(e.fault_kind(), ascsim::ErrorKind::kTimeout);
    EXPECT_THAT(e.what(),
                HasSubstr("spin_forever_custom: block 0/3: launch cancelled: interrupted"));
  }
  canceller.join();
  EXPECT_TRUE(token.cancelled());
  ExpectAddWorks();  // launches without the token are unaffected
}

TEST(LaunchCancel, LaunchesQueuedWithACancelledTokenFailFastAndOthersRun) {
  TimeoutScope timeout(0);
  ascsim::CancelToken token;
  ascsim::Stream stream;
  {
    ascsim::CancelScope scope(token);
    for (int i = 0; i < 3; ++i) LaunchSpinForever(2, &stream);
  }
  token.Cancel("gave up");
  EXPECT_THROW(stream.Synchronize(), ascsim::KernelError);
  ExpectAddWorks(&stream);
}

// Block 0 never reaches SyncAll but keeps calling the API; the others wait at the barrier. The
// timeout must stop both kinds of block.
extern "C" __global__ __aicore__ void reliability_sync_all_stuck(GM_ADDR flag) {
  AscendC::GlobalTensor<int32_t> flagGm;
  flagGm.SetGlobalBuffer((__gm__ int32_t*)flag, 8);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  AscendC::LocalTensor<float> work = buf.Get<float>();
  AscendC::Duplicate(work, 0.0f, 64);
  if (AscendC::GetBlockIdx() == 0) {
    while (flagGm.GetValue(0) == 0) AscendC::Adds(work, work, 1.0f, 64);
  }
  AscendC::SyncAll();
}

TEST(SyncAllTimeout, WaitersAtTheBarrierObserveTheTimeout) {
  TimeoutScope timeout(0.3);
  std::vector<int32_t> flag(8, 0);
  ascsim::ExternalMemory fm(flag.data(), flag.size() * 4);
  GM_ADDR f = reinterpret_cast<GM_ADDR>(flag.data());
  const auto start = Clock::now();
  try {
    ascsim::Launch("reliability_sync_all_stuck", 4, [f] { reliability_sync_all_stuck(f); });
    FAIL() << "expected a timeout";
  } catch (const ascsim::KernelError& e) {
    EXPECT_EQ(e.fault_kind(), ascsim::ErrorKind::kTimeout);
    EXPECT_THAT(e.what(), HasSubstr("block 0/4: launch timed out"));
  }
  EXPECT_LT(SecondsSince(start), 5.0);
  ExpectAddWorks();
}

// fork(): the child has none of the parent's runtime threads. It must still launch (fresh pool),
// and a stream made before fork must fail with an error instead of hanging.
TEST(LaunchInForkChild, ChildLaunchesAndPreForkStreamFailsCleanly) {
  ExpectAddWorks();  // the pool and watchdog exist before fork
  ascsim::Stream before;
  ExpectAddWorks(&before);
  const pid_t pid = fork();
  ASSERT_NE(pid, -1);
  if (pid == 0) {
    int code = 0;
    try {
      ExpectAddWorks();
      if (::testing::Test::HasFailure()) code = 2;
      try {
        before.Synchronize();
        code = 3;
      } catch (const ascsim::InvalidArgument&) {
      }
      ascsim::Stream after;
      ExpectAddWorks(&after);
      TimeoutScope timeout(0.1);
      try {
        LaunchSpinForever(2, nullptr);
        code = 4;
      } catch (const ascsim::KernelError&) {
      }
    } catch (...) {
      code = 5;
    }
    _exit(code);  // skips the parent's atexit handlers and gtest's report
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  ExpectAddWorks(&before);  // the parent is unaffected
}

}  // namespace
