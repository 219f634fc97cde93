// fork() support. After fork() the child has only the thread that called fork: the worker pool's
// threads, stream threads, SyncAll block threads and the watchdog thread are gone, and a mutex one
// of them held stays locked forever. The runtime's process-wide objects therefore either start
// over in the child (ForkSafeInstance: a fresh object; the parent's copy is leaked, since neither
// its threads nor its locks can be used or destroyed safely there) or hold their locks across
// fork() (AddForkHandlers: prepare locks, parent and child unlock) when their state must survive,
// as the device memory registry's does.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>

namespace ascsim::runtime {

// Adds handlers run around every fork() of the process: `prepare` in the forking thread before
// fork (in reverse order of registration), `parent` / `child` after it (in order). Any may be
// empty.
void AddForkHandlers(std::function<void()> prepare, std::function<void()> parent,
                     std::function<void()> child);

// The process id as of the last fork (getpid() without a system call per use).
int CurrentPid();

// A process-wide object made on first use by `make`, never destroyed, and made anew on first use
// in a fork child.
template <typename T>
class ForkSafeInstance {
 public:
  explicit ForkSafeInstance(std::function<T*()> make) : make_(std::move(make)) {
    AddForkHandlers(nullptr, nullptr, [this] {
      instance_.store(nullptr, std::memory_order_relaxed);
      new (&create_mu_) std::mutex;  // the parent's may have been held by a thread now gone
    });
  }
  T& Get() {
    T* p = instance_.load(std::memory_order_acquire);
    if (p != nullptr) return *p;
    std::lock_guard<std::mutex> lock(create_mu_);
    p = instance_.load(std::memory_order_relaxed);
    if (p == nullptr) {
      p = make_();
      instance_.store(p, std::memory_order_release);
    }
    return *p;
  }
  // The instance if one exists in this process, else null (fork handlers use it).
  T* Peek() const { return instance_.load(std::memory_order_acquire); }

 private:
  std::function<T*()> make_;
  std::atomic<T*> instance_{nullptr};
  std::mutex create_mu_;
};

}  // namespace ascsim::runtime
