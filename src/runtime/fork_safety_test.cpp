// AddForkHandlers and fork(): handlers run around a fork in the documented order, and registering
// a new subsystem's handlers never waits for a fork in progress (whose prepare handlers may be
// waiting for a lock the registering thread holds).
#include "runtime/fork_safety.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <thread>

namespace {

using ascsim::runtime::AddForkHandlers;

// Fails the whole test binary if a test body hangs (a deadlock would otherwise stall ctest until
// its own timeout, naming nothing).
class HangWatchdog {
 public:
  HangWatchdog(const char* what, std::chrono::seconds limit)
      : thread_([this, what, limit] {
          std::unique_lock<std::mutex> lock(mu_);
          if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
            std::fprintf(stderr, "HangWatchdog: %s did not finish in %lld s\n", what,
                         static_cast<long long>(limit.count()));
            std::_Exit(1);
          }
        }) {}
  ~HangWatchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// Forks a child that exits at once; returns its exit status.
int ForkAndReap() {
  const pid_t pid = fork();
  if (pid == 0) _exit(7);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Handlers stay registered for the life of the process, so their state is leaked and switched
// off when its test ends.
struct OrderState {
  std::atomic<bool> active{true};
  std::string log;
};

TEST(ForkSafety, PrepareRunsInReverseOrderParentInOrder) {
  auto* s = new OrderState;
  AddForkHandlers(
      [s] {
        if (s->active) s->log += "p1 ";
      },
      [s] {
        if (s->active) s->log += "a1 ";
      },
      nullptr);
  AddForkHandlers(
      [s] {
        if (s->active) s->log += "p2 ";
      },
      [s] {
        if (s->active) s->log += "a2 ";
      },
      nullptr);
  EXPECT_EQ(ForkAndReap(), 7);
  s->active = false;
  EXPECT_EQ(s->log, "p2 p1 a1 a2 ");
}

struct LockState {
  std::atomic<bool> active{true};
  std::mutex subsystem_mu;  // a subsystem's lock, taken by its prepare handler
  std::atomic<bool> prepare_waiting{false};
  bool locked_in_prepare = false;
};

// The hang AclState hit (aclrtCreateEvent made the runtime Process under the events lock while
// another thread forked): thread A holds a subsystem's lock and registers a new subsystem's
// handlers; the forking thread's prepare handler waits for A's lock. Registration must not wait
// for the fork.
TEST(ForkSafety, RegisteringWhileAForkWaitsForTheRegistrantsLockDoesNotHang) {
  HangWatchdog watchdog("ForkSafety.RegisteringWhileAForkWaitsForTheRegistrantsLockDoesNotHang",
                        std::chrono::seconds(60));
  auto* s = new LockState;
  AddForkHandlers(
      [s] {
        if (!s->active) return;
        s->prepare_waiting = true;
        s->subsystem_mu.lock();
        s->locked_in_prepare = true;
      },
      [s] {
        if (s->locked_in_prepare) s->subsystem_mu.unlock();
        s->locked_in_prepare = false;
      },
      [s] {
        new (&s->subsystem_mu) std::mutex;
        s->locked_in_prepare = false;
      });

  std::atomic<bool> holder_has_lock{false};
  std::atomic<bool> registered{false};
  std::thread holder([&] {
    std::lock_guard<std::mutex> lock(s->subsystem_mu);
    holder_has_lock = true;
    while (!s->prepare_waiting) std::this_thread::yield();
    // The fork is in progress and waits for this lock: a new subsystem registers now.
    AddForkHandlers(nullptr, nullptr, nullptr);
    registered = true;
  });
  while (!holder_has_lock) std::this_thread::yield();
  EXPECT_EQ(ForkAndReap(), 7);
  holder.join();
  s->active = false;
  EXPECT_TRUE(registered);
  // The handlers registered during that fork take part in the next one.
  EXPECT_EQ(ForkAndReap(), 7);
}

}  // namespace
