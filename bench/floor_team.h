// The floor's threads (bench_floor.cpp, bench_vs_floor.cpp): one std::thread per hardware thread
// (ASCSIM_WORKERS overrides, as for the simulator's pool), started once; each run hands every
// thread one contiguous slice and waits (the same fork/join a launch does, minus the checks).
#ifndef ASCSIM_BENCH_FLOOR_TEAM_H_
#define ASCSIM_BENCH_FLOOR_TEAM_H_

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace floor_kernels {

// Persistent threads; Run(f) calls f(t, threads) on every thread (the caller is thread 0).
class Team {
 public:
  static Team& Get() {
    // ASCSIM_WORKERS, as for the simulator's pool, overrides the thread count (for A/B runs).
    static Team* team = [] {
      unsigned n = std::thread::hardware_concurrency();
      if (const char* env = std::getenv("ASCSIM_WORKERS")) n = static_cast<unsigned>(std::atoi(env));
      return new Team(std::max(1u, n));
    }();
    return *team;
  }
  explicit Team(unsigned n) : n_(n) {
    for (unsigned t = 1; t < n; ++t) threads_.emplace_back([this, t] { Loop(t); });
  }
  unsigned size() const { return n_; }
  void Run(const std::function<void(unsigned, unsigned)>& f) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      job_ = &f;
      pending_ = n_ - 1;
      ++generation_;
    }
    cv_.notify_all();
    f(0, n_);
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [&] { return pending_ == 0; });
  }

 private:
  void Loop(unsigned t) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      const auto* job = job_;
      lock.unlock();
      (*job)(t, n_);
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }
  unsigned n_;
  std::mutex mu_;
  std::condition_variable cv_, done_;
  const std::function<void(unsigned, unsigned)>* job_ = nullptr;
  unsigned pending_ = 0;
  uint64_t generation_ = 0;
  std::vector<std::thread> threads_;
};

// Slice [begin, end) of n for thread t of k, in whole 64-element chunks.
void Slice(size_t n, unsigned t, unsigned k, size_t* begin, size_t* end) {
  const size_t chunks = (n + 63) / 64;
  *begin = std::min(n, chunks * t / k * 64);
  *end = std::min(n, chunks * (t + 1) / k * 64);
}

}  // namespace floor_kernels

#endif  // ASCSIM_BENCH_FLOOR_TEAM_H_
