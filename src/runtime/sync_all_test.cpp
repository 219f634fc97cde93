// A SyncAll barrier that can never fill (a block returned without reaching it) is reported the
// same way every run: at the lowest block left waiting, naming the lowest block that returned,
// in parallel and in serial runs, whatever order the blocks happen to run in.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "ascsim/error.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace {

// Blocks in `skippers` return without SyncAll; the others wait at it. `jitter` shuffles who gets
// there first from one run to the next.
std::string BrokenBarrierMessage(uint32_t block_dim, std::initializer_list<uint32_t> skippers,
                                 uint32_t jitter) {
  try {
    ascsim::Launch("skipper", block_dim, [&] {
      const auto b = static_cast<uint32_t>(AscendC::GetBlockIdx());
      std::this_thread::sleep_for(
          std::chrono::microseconds(((b * 7919 + jitter * 104729) % 13) * 150));
      for (uint32_t s : skippers) {
        if (s == b) return;
      }
      AscendC::SyncAll();
    });
  } catch (const ascsim::KernelError& e) {
    EXPECT_EQ(e.fault_kind(), ascsim::ErrorKind::kSyncMisuse) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "the launch did not fail";
  return "";
}

TEST(SyncAllBrokenBarrier, TheLowestWaitingBlockReportsEveryRun) {
  for (uint32_t run = 0; run < 25; ++run) {
    const std::string msg = BrokenBarrierMessage(12, {0}, run);
    EXPECT_EQ(msg.rfind("skipper: block 1/12: ", 0), 0u) << "run " << run << ": " << msg;
    EXPECT_NE(msg.find("SyncAll #1: block 0 finished the kernel without reaching this SyncAll"),
              std::string::npos)
        << msg;
  }
}

TEST(SyncAllBrokenBarrier, TwoBlocksSkippingNameTheLowest) {
  for (uint32_t run = 0; run < 15; ++run) {
    const std::string msg = BrokenBarrierMessage(8, {5, 2}, run);
    EXPECT_EQ(msg.rfind("skipper: block 0/8: ", 0), 0u) << "run " << run << ": " << msg;
    EXPECT_NE(msg.find("block 2 finished the kernel without reaching"), std::string::npos) << msg;
  }
}

TEST(SyncAllBrokenBarrier, SerialRunsReportTheSame) {
  ascsim::ScopedSettings settings;
  ascsim::SetSerial(true);
  for (uint32_t run = 0; run < 5; ++run) {
    const std::string msg = BrokenBarrierMessage(12, {0}, run);
    EXPECT_EQ(msg.rfind("skipper: block 1/12: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("block 0 finished the kernel"), std::string::npos) << msg;
  }
}

}  // namespace
