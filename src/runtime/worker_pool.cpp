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
  for (int i = 0; i < std::max(0, threads - 1); ++i)
    threads_.emplace_back([this] { WorkerLoop(); });
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

void WorkerPool::Share(Grid& grid) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    grids_.push_back(&grid);
  }
  work_cv_.notify_all();
}

void WorkerPool::RunGrid(uint32_t blocks, const std::function<void(uint32_t)>& run_block,
                         const std::atomic<bool>* stop) {
  using Clock = std::chrono::steady_clock;
  Grid grid;
  grid.blocks = blocks;
  grid.run_block = &run_block;
  grid.stop = stop;
  // The launching thread gets a head start before helpers may join: waking a helper and then
  // waiting for the block it took costs several microseconds, more than a small launch's whole
  // body (8 blocks of the [8, 2048] add: ~5 us alone, ~11 us shared). A launch that is done within
  // the head start never involves a helper; a longer one loses only the head start.
  constexpr auto kHelperHeadStart = std::chrono::microseconds(15);
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = start + kHelperHeadStart;
  const bool can_share = !threads_.empty() && blocks > 1;
  // Whether this thread's previous grid was long: its blocks, as timed on this thread, add up to
  // more than twice the head start. Such a launch (the same kernel and size again, as loops and
  // benchmarks run them) wakes the helpers at once, so that they are awake when the head start
  // ends. Any other launch wakes nobody: the helpers' wake-up (a futex wake, their own timed wait,
  // the context switches of both, and the wait for a helper's last block, on a machine where they
  // share the cores with the launcher) cost the seed's [8, 2048] add 12.5 -> ~30 us on this
  // loaded 2-core machine. Such a grid is handed to the helpers only once the head start is over
  // with blocks left (checked between blocks), so a mispredicted long launch loses at most one
  // block's time. The estimate counts this thread's own blocks only: a launch slowed by sharing
  // or by one preemption does not keep the next ones sharing.
  thread_local bool previous_was_long = false;
  bool shared = false;
  if (can_share && previous_was_long) {
    grid.share_from = deadline;
    Share(grid);
    shared = true;
  } else {
    grid.share_from = start;  // helpers join at once when it is handed over late
  }
  uint32_t ran = 0;
  Clock::time_point last_end = start;
  while (!(stop && stop->load(std::memory_order_relaxed))) {
    const uint32_t b = grid.next.fetch_add(1, std::memory_order_relaxed);
    if (b >= blocks) break;
    run_block(b);
    last_end = Clock::now();  // this thread runs its blocks back to back from `start`
    ++ran;
    if (can_share && !shared && b + 2 < blocks && last_end >= deadline) {
      // At least two blocks are left: one for a helper while this thread runs another.
      Share(grid);
      shared = true;
    }
  }
  if (shared) {
    // Every block is claimed; a helper still inside one usually finishes within microseconds.
    // Poll for that briefly before sleeping: a condition-variable sleep and wake costs more than
    // a small launch's whole body. Bounded, and only while a block is actually running.
    const auto spin_until = Clock::now() + std::chrono::microseconds(50);
    while (grid.helpers.load(std::memory_order_acquire) != 0 && Clock::now() < spin_until) {
      std::this_thread::yield();
    }
    std::unique_lock<std::mutex> lock(mu_);
    grids_.erase(std::find(grids_.begin(), grids_.end(), &grid));
    // Every block is claimed; wait for helpers still running one.
    done_cv_.wait(lock, [&] { return grid.helpers == 0; });
  }
  if (can_share && ran > 0) {
    previous_was_long = (last_end - start) * blocks / ran > 2 * kHelperHeadStart;
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
