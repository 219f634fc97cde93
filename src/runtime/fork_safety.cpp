#include "runtime/fork_safety.h"

#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <new>

namespace ascsim::runtime {
namespace {

struct Handlers {
  std::function<void()> prepare, parent, child;
};

// Leaked: fork() may happen while static destructors run.
//
// fork() never waits for `add_mu`, and AddForkHandlers never waits for a fork: a subsystem is
// often first made while its maker holds another subsystem's lock (aclrtCreateEvent holds the
// events lock when it first makes the runtime Process), and a forking thread runs the prepare
// handlers, which take those locks. Were the registration to wait for the fork's end and the
// fork for that lock, both would hang. So the list is append-only in fixed slots: a fork runs the
// handlers registered before it began (`forking` of them, read once in Prepare), and one
// registered meanwhile takes part from the next fork on.
struct ForkRegistry {
  static constexpr int kMaxHandlers = 256;
  std::mutex add_mu;  // serialises appends only
  Handlers slots[kMaxHandlers];
  std::atomic<int> count{0};
  int forking = 0;  // the count Prepare saw; Parent/Child run the same handlers
  std::atomic<int> pid{static_cast<int>(getpid())};
};

void Prepare();
void Parent();
void Child();

ForkRegistry& Registry() {
  static ForkRegistry* registry = [] {
    auto* r = new ForkRegistry;
    pthread_atfork(Prepare, Parent, Child);
    return r;
  }();
  return *registry;
}

void Prepare() {
  ForkRegistry& r = Registry();
  r.forking = r.count.load(std::memory_order_acquire);
  for (int i = r.forking - 1; i >= 0; --i) {
    if (r.slots[i].prepare) r.slots[i].prepare();
  }
}

void Parent() {
  ForkRegistry& r = Registry();
  for (int i = 0; i < r.forking; ++i) {
    if (r.slots[i].parent) r.slots[i].parent();
  }
}

void Child() {
  ForkRegistry& r = Registry();
  r.pid.store(static_cast<int>(getpid()));
  // A thread of the parent may have been appending: its lock would stay held here forever.
  new (&r.add_mu) std::mutex;
  for (int i = 0; i < r.forking; ++i) {
    if (r.slots[i].child) r.slots[i].child();
  }
}

}  // namespace

void AddForkHandlers(std::function<void()> prepare, std::function<void()> parent,
                     std::function<void()> child) {
  ForkRegistry& r = Registry();
  std::lock_guard<std::mutex> lock(r.add_mu);
  const int n = r.count.load(std::memory_order_relaxed);
  if (n == ForkRegistry::kMaxHandlers) {
    std::fprintf(stderr, "ascsim: more than %d fork handlers registered\n",
                 ForkRegistry::kMaxHandlers);
    std::abort();
  }
  r.slots[n] = {std::move(prepare), std::move(parent), std::move(child)};
  r.count.store(n + 1, std::memory_order_release);
}

int CurrentPid() { return Registry().pid.load(std::memory_order_relaxed); }

}  // namespace ascsim::runtime
