#include "runtime/worker_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "runtime/process.h"

namespace ascsim::runtime {

// Leaked on purpose (the process object keeps it): work queued on streams may still run while
// static destructors do. A fork child gets a fresh pool (the parent's threads do not exist there).
WorkerPool* NewWorkerPool() {
  int n = static_cast<int>(std::thread::hardware_concurrency());
  if (const char* env = std::getenv("ASCSIM_WORKERS")) n = std::atoi(env);
  return new WorkerPool(std::max(1, n));
}

WorkerPool::WorkerPool(int threads) {
  // The launching thread works too, so threads - 1 helpers fill the machine.
  for (int i = 0; i < std::max(0, threads - 1); ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) t.join();
}

uint32_t WorkerPool::Drain(Grid& grid) {
  uint32_t ran = 0;
  while (!(grid.stop && grid.stop->load(std::memory_order_relaxed))) {
    const uint32_t b = grid.next.fetch_add(1, std::memory_order_relaxed);
    if (b >= grid.blocks) break;
    (*grid.run_block)(b);
    ++ran;
  }
  return ran;
}

void WorkerPool::RunGrid(uint32_t blocks, const std::function<void(uint32_t)>& run_block,
                         const std::atomic<bool>* stop) {
  Grid grid;
  grid.blocks = blocks;
  grid.run_block = &run_block;
  grid.stop = stop;
  // The launching thread gets a head start before helpers may join: waking a helper and then
  // waiting for the block it took costs several microseconds, more than a small launch's whole
  // body (8 blocks of the [8, 2048] add: ~5 us alone, ~11 us shared). A launch that is done within
  // the head start never involves a helper; a longer one loses only the head start.
  constexpr auto kHelperHeadStart = std::chrono::microseconds(15);
  grid.share_from = std::chrono::steady_clock::now() + kHelperHeadStart;
  const bool share = !threads_.empty() && blocks > 1;
  if (share) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      grids_.push_back(&grid);
    }
    work_cv_.notify_all();
  }
  Drain(grid);
  if (share) {
    // Every block is claimed; a helper still inside one usually finishes within microseconds.
    // Poll for that briefly before sleeping: a condition-variable sleep and wake costs more than
    // a small launch's whole body. Bounded, and only while a block is actually running.
    const auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
    while (grid.helpers.load(std::memory_order_acquire) != 0 &&
           std::chrono::steady_clock::now() < spin_until) {
      std::this_thread::yield();
    }
    std::unique_lock<std::mutex> lock(mu_);
    grids_.erase(std::find(grids_.begin(), grids_.end(), &grid));
    // Every block is claimed; wait for helpers still running one.
    done_cv_.wait(lock, [&] { return grid.helpers == 0; });
  }
}

void WorkerPool::WorkerLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    // A grid with unclaimed blocks whose head start is over; while only grids still in their
    // head start have work, sleep until the earliest of them opens (or a new grid arrives).
    Grid* grid = nullptr;
    for (;;) {
      if (stopping_) return;
      const auto now = std::chrono::steady_clock::now();
      auto earliest = std::chrono::steady_clock::time_point::max();
      for (Grid* g : grids_) {
        const bool stopped = g->stop && g->stop->load(std::memory_order_relaxed);
        if (stopped || g->next.load(std::memory_order_relaxed) >= g->blocks) continue;
        if (g->share_from <= now) {
          grid = g;
          break;
        }
        earliest = std::min(earliest, g->share_from);
      }
      if (grid != nullptr) break;
      if (earliest == std::chrono::steady_clock::time_point::max()) {
        work_cv_.wait(lock);
      } else {
        work_cv_.wait_until(lock, earliest);
      }
    }
    ++grid->helpers;
    lock.unlock();
    Drain(*grid);
    lock.lock();
    if (--grid->helpers == 0) done_cv_.notify_all();
  }
}

}  // namespace ascsim::runtime
