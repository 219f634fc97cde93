// SyncAll (the hard all-core barrier of Ascend C) for a launch whose blocks run as plain function
// calls on a small worker pool. A block waiting at the barrier occupies its thread, so with fewer
// threads than blocks the barrier could never fill. The first SyncAll of a launch therefore moves
// every block that has not started yet onto a dedicated thread of its own (at most the profile's
// physical core count, since a larger blockDim is rejected): then every block can reach the
// barrier, as every block of a SyncAll kernel is resident on its own core on the device. The
// dedicated threads are kept between launches and reused.
//
// A block that leaves the kernel (fault or return) while others wait breaks the barrier. Once
// every block has arrived or left, the waiters stop quietly when the blocks that left had faulted
// (so the failing block's message is the launch's), and each faults with a SyncMisuse naming the
// lowest block that returned normally (the device would hang); the launch then reports the
// lowest waiting block, whatever order the blocks ran in.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ascsim/aicore/core_context.h"

namespace ascsim::runtime {

// Runs `task` on one of the process's dedicated block threads (kept for reuse): for blocks or
// sub-cores that must run concurrently with the rest of their launch (SyncAll, mix blocks).
void RunOnBlockThread(std::function<void()> task);

// Thrown inside a block that waited at a broken barrier after another block faulted. It derives
// from nothing the launch records as a fault, and SyncAllBarrier::Run swallows it.
struct SyncAllStopped {};

class SyncAllBarrier {
 public:
  // `run_block` runs one block and records its fault; `launch_failed` is set once any block of
  // the launch has recorded a fault.
  SyncAllBarrier(aicore::LaunchShared& shared, uint32_t block_dim,
                 std::function<void(uint32_t)> run_block, const std::atomic<bool>* launch_failed);
  ~SyncAllBarrier();  // waits for the blocks on dedicated threads
  SyncAllBarrier(const SyncAllBarrier&) = delete;
  SyncAllBarrier& operator=(const SyncAllBarrier&) = delete;

  // Runs block `b` on the calling thread unless the barrier has already moved it to its own
  // thread. The worker pool (or the serial loop) calls this for every block.
  void Run(uint32_t b);
  // The kernel's SyncAll() on block `b`: returns once every block of the launch has arrived.
  void Arrive(uint32_t b);
  // Waits for every block on a dedicated thread; call before the launch reports its result.
  void Join();
  // Moves every block not started yet onto a dedicated thread (as the first Arrive does), for a
  // launch-wide cross-core round (mode 0); faults as Arrive does when blockDim exceeds the cores
  // that can all be resident.
  void MakeResident();
  // IBSet / IBWait on block `b` (blocks spinning on a GM flag word): makes every block resident
  // (as SyncAll does, faulting under the name `call` when blockDim exceeds the cores), then
  // waits until `poll(false)` holds and runs `poll(true)`, which takes the flag, under the
  // barrier's lock, and wakes the other spinners. When no block can change any spinner's flag
  // any more (every block has left the kernel, waits at SyncAll or spins on a flag that is not
  // ready) it faults with `hang()`, or stops quietly when another block's fault caused it.
  void SpinWait(uint32_t b, const char* call, const std::function<bool(bool take)>& poll,
                const std::function<std::string()>& hang);

 private:
  void RunClaimed(uint32_t b);
  void Exited(uint32_t b);
  void MoveUnstartedBlocksToThreads();  // mu_ held
  void CheckResidentCores(const char* call);

  aicore::LaunchShared& shared_;
  const uint32_t block_dim_;
  const std::function<void(uint32_t)> run_block_;
  const std::atomic<bool>* launch_failed_;
  std::unique_ptr<std::atomic<bool>[]> claimed_;  // per block: started by someone

  std::mutex mu_;
  std::condition_variable cv_;
  bool threads_started_ = false;
  uint64_t generation_ = 0;  // completed barriers
  uint32_t arrived_ = 0;     // blocks waiting in the current generation
  uint32_t exited_ = 0;      // blocks that have left the kernel
  int64_t lowest_clean_exit_ = -1;  // lowest block that finished without a fault, or -1
  uint32_t running_threads_ = 0;  // blocks handed to dedicated threads and not yet finished
  std::vector<const std::function<bool(bool)>*> spinners_;  // the polls of the blocks spinning
  int spin_verdict_ = 0;  // 0 running, 1 the spinners hang, 2 a fault stopped them
};

}  // namespace ascsim::runtime
