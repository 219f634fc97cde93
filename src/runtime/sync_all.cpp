#include "runtime/sync_all.h"

#include <chrono>
#include <algorithm>
#include <deque>

#include "ascsim/aicore/checks.h"
#include "runtime/process.h"

namespace ascsim::runtime {

// Threads for blocks that must run concurrently with the rest of their launch. They outlive a
// launch and wait for the next task, since starting 48 fresh threads per SyncAll launch costs
// about a millisecond. Leaked on purpose, like the worker pool: idle threads may still be
// waiting while static destructors run.
class BlockThreads {
 public:
  // Runs `task` on an idle thread, starting one when none is idle.
  void Run(std::function<void()> task) {
    std::lock_guard<std::mutex> lock(mu_);
    tasks_.push_back(std::move(task));
    if (idle_ >= tasks_.size()) {
      cv_.notify_one();
      return;
    }
    std::thread([this] { Loop(); }).detach();
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      ++idle_;
      cv_.wait(lock, [&] { return !tasks_.empty(); });
      --idle_;
      std::function<void()> task = std::move(tasks_.front());
      tasks_.pop_front();
      lock.unlock();
      task();
      lock.lock();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  size_t idle_ = 0;
};

// A fork child starts over (the process object's ForkSafeInstance): the parent's threads do not
// exist there.
BlockThreads* NewBlockThreads() { return new BlockThreads; }

void RunOnBlockThread(std::function<void()> task) {
  Process::Get().block_threads().Run(std::move(task));
}

SyncAllBarrier::SyncAllBarrier(aicore::LaunchShared& shared, uint32_t block_dim,
                               std::function<void(uint32_t)> run_block,
                               const std::atomic<bool>* launch_failed)
    : shared_(shared),
      block_dim_(block_dim),
      run_block_(std::move(run_block)),
      launch_failed_(launch_failed),
      claimed_(new std::atomic<bool>[block_dim]) {
  for (uint32_t b = 0; b < block_dim; ++b) claimed_[b].store(false, std::memory_order_relaxed);
}

SyncAllBarrier::~SyncAllBarrier() { Join(); }

void SyncAllBarrier::Run(uint32_t b) {
  // One claim per block: either the pool's thread runs it, or a dedicated thread does.
  if (claimed_[b].exchange(true, std::memory_order_acq_rel)) return;
  RunClaimed(b);
}

void SyncAllBarrier::RunClaimed(uint32_t b) {
  try {
    run_block_(b);
  } catch (const SyncAllStopped&) {
    // Another block's fault broke the barrier; that fault is the launch's result.
  }
  Exited(b);
}

void SyncAllBarrier::Exited(uint32_t b) {
  // A block that leaves while the launch has no fault finished the kernel normally (a block's
  // own fault is recorded before it exits): the barrier can never fill, the device would hang.
  const bool clean = launch_failed_ == nullptr || !launch_failed_->load(std::memory_order_acquire);
  std::lock_guard<std::mutex> lock(mu_);
  ++exited_;
  if (clean && (lowest_clean_exit_ < 0 || b < lowest_clean_exit_)) lowest_clean_exit_ = b;
  cv_.notify_all();
}

void SyncAllBarrier::MoveUnstartedBlocksToThreads() {
  threads_started_ = true;
  for (uint32_t b = 0; b < block_dim_; ++b) {
    if (claimed_[b].exchange(true, std::memory_order_acq_rel)) continue;
    ++running_threads_;
    Process::Get().block_threads().Run([this, b] {
      RunClaimed(b);
      std::lock_guard<std::mutex> lock(mu_);
      if (--running_threads_ == 0) cv_.notify_all();
    });
  }
}

void SyncAllBarrier::CheckResidentCores(const char* call) {
  using aicore::Str;
  // A mix block is a whole AI core (its AIC and AIVs): the AIC count bounds it.
  const bool aic = shared_.layout == aicore::KernelLayout::kAic ||
                   shared_.layout == aicore::KernelLayout::kMix;
  const int cores = aic ? shared_.soc->cube_cores : shared_.soc->vector_cores;
  if (block_dim_ > static_cast<uint32_t>(cores)) {
    aicore::Fault(
        ErrorKind::kSyncMisuse,
        Str(call, " with blockDim ", block_dim_, " exceeds the ", cores,
            aic ? " physical cube cores of " : " physical vector cores of ", shared_.soc->name,
            "; blocks beyond them run in a later wave, so the device would deadlock "
            "(use blockDim <= ",
            cores, ")"));
  }
}

void SyncAllBarrier::MakeResident() {
  CheckResidentCores(shared_.layout == aicore::KernelLayout::kMix ? "SyncAll / CrossCoreSetFlag<0>"
                                                                  : "CrossCoreSetFlag<0>");
  std::lock_guard<std::mutex> lock(mu_);
  if (!threads_started_) MoveUnstartedBlocksToThreads();
}

void SyncAllBarrier::Arrive(uint32_t /*block_idx*/) {
  using aicore::Str;
  CheckResidentCores("SyncAll");
  // A launch that already failed stops here rather than starting its unstarted blocks (unless a
  // block returned without SyncAll: then every block reaching it reports that, see below).
  if (launch_failed_ != nullptr && launch_failed_->load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(mu_);
    if (lowest_clean_exit_ < 0) throw SyncAllStopped{};
  }
  std::unique_lock<std::mutex> lock(mu_);
  if (!threads_started_) MoveUnstartedBlocksToThreads();
  const uint64_t my_generation = generation_;
  if (++arrived_ == block_dim_) {
    arrived_ = 0;
    ++generation_;
    cv_.notify_all();
    return;
  }
  cv_.notify_all();  // a waiter may be waiting for every block to arrive or exit
  for (;;) {
    if (generation_ != my_generation) return;
    // Broken: judged once every block has arrived or left, so that which block reports and
    // which block it names do not depend on timing. Every waiting block faults; the launch
    // reports the lowest, in serial and parallel runs alike.
    if (exited_ > 0 && arrived_ + exited_ >= block_dim_) {
      const int64_t missing = lowest_clean_exit_;
      lock.unlock();
      if (missing < 0) throw SyncAllStopped{};  // a block faulted: its fault is the result
      aicore::Fault(ErrorKind::kSyncMisuse,
                    Str("SyncAll #", my_generation + 1, ": block ", missing,
                        " finished the kernel without reaching this SyncAll, so the barrier can "
                        "never fill; the device would hang"));
    }
    if (shared_.cancelled.load(std::memory_order_acquire)) {
      --arrived_;
      lock.unlock();
      aicore::Fault(ErrorKind::kTimeout, shared_.cancel_reason + " (waiting at SyncAll)");
    }
    cv_.wait_for(lock, std::chrono::milliseconds(100));
  }
}

void SyncAllBarrier::SpinWait(uint32_t /*b*/, const char* call,
                              const std::function<bool(bool)>& poll,
                              const std::function<std::string()>& hang) {
  // The docs of IBSet / IBWait: the logical blockDim must not exceed the cores that run the
  // kernel, or the framework's later rounds hang the kernel.
  CheckResidentCores(call);
  std::unique_lock<std::mutex> lock(mu_);
  if (!threads_started_) MoveUnstartedBlocksToThreads();
  if (poll(true)) {
    cv_.notify_all();
    return;
  }
  spinners_.push_back(&poll);
  auto leave = [&] {
    spinners_.erase(std::find(spinners_.begin(), spinners_.end(), &poll));
    cv_.notify_all();
  };
  for (;;) {
    if (poll(true)) {
      leave();
      return;
    }
    if (shared_.cancelled.load(std::memory_order_acquire)) {
      leave();
      lock.unlock();
      aicore::Fault(ErrorKind::kTimeout, shared_.cancel_reason + " (spinning in " + call + ")");
    }
    // Exact under mu_: a block that is not counted here is running and may still write a flag;
    // the flags of the counted ones change only under mu_ (a spinner's take) or not at all.
    // The verdict is taken once, by the first spinner to find the launch stuck, for every
    // spinner then: each one that was stuck faults (the launch reports the lowest block, whatever
    // the timing), or all stop quietly when a block's fault had left them stuck.
    if (spin_verdict_ == 0) {
      bool stuck = exited_ + arrived_ + spinners_.size() >= block_dim_;
      for (size_t i = 0; stuck && i < spinners_.size(); ++i) stuck = !(*spinners_[i])(false);
      if (stuck) {
        const bool failed =
            launch_failed_ != nullptr && launch_failed_->load(std::memory_order_acquire);
        spin_verdict_ = failed ? 2 : 1;
        cv_.notify_all();
      }
    }
    if (spin_verdict_ != 0) {
      leave();
      const bool stopped = spin_verdict_ == 2;
      lock.unlock();
      if (stopped) throw SyncAllStopped{};  // a block's fault stopped the others: it is the result
      aicore::Fault(ErrorKind::kSyncMisuse, hang());
    }
    // A flag written by a plain DataCopy of a running block wakes nobody: look again soon.
    cv_.wait_for(lock, std::chrono::milliseconds(20));
  }
}

void SyncAllBarrier::Join() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return running_threads_ == 0; });
}

}  // namespace ascsim::runtime
