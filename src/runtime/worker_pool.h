// A fixed pool of worker threads that runs the blocks of a grid. Blocks are plain function calls
// claimed through an atomic counter; the launching thread claims blocks too, and runs a small
// launch alone without waking anyone (RunGrid). Idle workers sleep on a condition variable.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ascsim::runtime {

class WorkerPool {
 public:
  explicit WorkerPool(int threads);
  ~WorkerPool();

  // Runs run_block(b) for every b in [0, blocks) across the pool and the calling thread, and
  // returns when all have finished. `stop` (optional) is polled before each claim: once true,
  // unclaimed blocks are skipped.
  void RunGrid(uint32_t blocks, const std::function<void(uint32_t)>& run_block,
               const std::atomic<bool>* stop = nullptr);

  int size() const { return static_cast<int>(threads_.size()); }

 private:
  struct Grid {
    uint32_t blocks;
    const std::function<void(uint32_t)>* run_block;
    const std::atomic<bool>* stop;
    std::atomic<uint32_t> next{0};
    std::atomic<uint32_t> finished{0};
    // Workers currently inside this grid: changed under mu_, read without it by the launcher's
    // short wait for the last blocks (see RunGrid).
    std::atomic<int> helpers{0};
    // Helpers may claim blocks from this moment on (see kHelperHeadStart in RunGrid).
    std::chrono::steady_clock::time_point share_from;
  };

  void WorkerLoop();
  // Hands `grid` to the helpers and wakes them.
  void Share(Grid& grid);
  // Claims and runs blocks of `grid` until none is left; returns how many it ran.
  static uint32_t Drain(Grid& grid);

  std::mutex mu_;
  std::condition_variable work_cv_;  // workers wait for a grid with unclaimed blocks
  std::condition_variable done_cv_;  // launchers wait for their grid's helpers to leave
  std::vector<Grid*> grids_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace ascsim::runtime
