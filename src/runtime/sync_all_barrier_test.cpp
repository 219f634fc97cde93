// SyncAll: a true barrier across every block of a launch, even with more blocks than worker
// threads; the physical-core limit; a fault while others wait breaks the barrier without a hang.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "ascsim/error.h"
#include "ascsim/runtime.h"
#include "ascsim/soc.h"
#include "kernel_operator.h"

namespace {

// Restores the SoC profile a test changed.
class SocGuard : ascsim::ScopedSettings {
 public:
  explicit SocGuard(const char* name) { ascsim::SetSoc(name); }
};

// Every block writes its slot, meets the others at SyncAll, then checks every slot is written:
// without a real barrier some block reads a slot before its owner wrote it.
void RunTwoPhase(uint32_t block_dim, int rounds) {
  std::vector<std::atomic<int>> slots(block_dim);
  for (auto& s : slots) s.store(-1);
  std::atomic<int> errors{0};
  ascsim::Launch("two_phase", block_dim, [&] {
    const auto b = static_cast<uint32_t>(AscendC::GetBlockIdx());
    for (int r = 0; r < rounds; ++r) {
      if (b == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a slow block
      slots[b].store(r);
      AscendC::SyncAll();
      for (uint32_t k = 0; k < block_dim; ++k) {
        if (slots[k].load() < r) errors.fetch_add(1);
      }
      AscendC::SyncAll();  // nobody starts the next round before all have checked this one
    }
  });
  EXPECT_EQ(errors.load(), 0);
}

TEST(SyncAllBarrier, BarrierWithEightBlocks) { RunTwoPhase(8, 3); }

TEST(SyncAllBarrier, BarrierWithAllFortyEightCoresOnFewThreads) {
  ASSERT_LT(ascsim::WorkerCount(), 48);  // more blocks than worker threads
  RunTwoPhase(48, 2);
}

TEST(SyncAllBarrier, BarrierInSerialMode) {
  ascsim::ScopedSettings settings;
  ascsim::SetSerial(true);
  RunTwoPhase(8, 2);
}

void ExpectTooManyBlocks(const char* soc, uint32_t block_dim, int cores) {
  SocGuard guard(soc);
  try {
    ascsim::Launch("sync_kernel", block_dim, [] { AscendC::SyncAll(); });
    FAIL() << "expected a SyncAll fault";
  } catch (const ascsim::KernelError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("sync_kernel: block 0/" + std::to_string(block_dim)), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("SyncAll with blockDim " + std::to_string(block_dim) + " exceeds the " +
                       std::to_string(cores) + " physical vector cores of " + soc),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("deadlock"), std::string::npos) << msg;
  }
}

TEST(SyncAllBarrier, BlockDimAboveCoresIsAnError910B1) {
  ExpectTooManyBlocks("Ascend910B1", 49, 48);
}
TEST(SyncAllBarrier, BlockDimAboveCoresIsAnError310P3) {
  ExpectTooManyBlocks("Ascend310P3", 9, 8);
}
TEST(SyncAllBarrier, FullCoreCountIsAllowedOn310P3) {
  SocGuard guard("Ascend310P3");
  RunTwoPhase(8, 1);
}

TEST(SyncAllBarrier, FaultWhileOthersWaitFailsWithThatBlocksMessage) {
  const auto start = std::chrono::steady_clock::now();
  std::atomic<int> passed{0};
  try {
    ascsim::Launch("faulty", 16, [&] {
      if (AscendC::GetBlockIdx() == 5) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // others are waiting
        AscendC::GlobalTensor<float> g;
        AscendC::DataCopy(g, AscendC::LocalTensor<float>(), 8);  // no buffer: a fault
      }
      AscendC::SyncAll();
      passed.fetch_add(1);
    });
    FAIL() << "expected the launch to fail";
  } catch (const ascsim::KernelError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("faulty: block 5/16: "), std::string::npos) << msg;
    EXPECT_EQ(msg.find("SyncAll"), std::string::npos) << msg;
  }
  EXPECT_EQ(passed.load(), 0);  // nobody got past the broken barrier
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(SyncAllBarrier, BlockReturningWithoutSyncAllIsAnError) {
  try {
    ascsim::Launch("skipper", 4, [&] {
      if (AscendC::GetBlockIdx() == 2) return;  // never reaches the barrier
      AscendC::SyncAll();
    });
    FAIL() << "expected the launch to fail";
  } catch (const ascsim::KernelError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("SyncAll #1: block 2 finished the kernel without reaching this SyncAll"),
              std::string::npos)
        << msg;
  }
}

TEST(SyncAllBarrier, LaunchAfterBrokenBarrierStillWorks) {
  EXPECT_THROW(ascsim::Launch("skipper", 4,
                              [&] {
                                if (AscendC::GetBlockIdx() == 1) return;
                                AscendC::SyncAll();
                              }),
               ascsim::KernelError);
  RunTwoPhase(8, 1);
}

}  // namespace
