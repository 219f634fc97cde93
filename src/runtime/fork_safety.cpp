#include "runtime/fork_safety.h"

#include <pthread.h>
#include <unistd.h>

#include <vector>

namespace ascsim::runtime {
namespace {

struct Handlers {
  std::function<void()> prepare, parent, child;
};

// Leaked: fork() may happen while static destructors run.
struct ForkRegistry {
  std::mutex mu;  // held from prepare to parent/child, so the list does not change across fork
  std::vector<Handlers> handlers;
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
  r.mu.lock();
  for (auto it = r.handlers.rbegin(); it != r.handlers.rend(); ++it) {
    if (it->prepare) it->prepare();
  }
}

void Parent() {
  ForkRegistry& r = Registry();
  for (Handlers& h : r.handlers) {
    if (h.parent) h.parent();
  }
  r.mu.unlock();
}

void Child() {
  ForkRegistry& r = Registry();
  r.pid.store(static_cast<int>(getpid()));
  for (Handlers& h : r.handlers) {
    if (h.child) h.child();
  }
  r.mu.unlock();  // the forking thread locked it in Prepare and is this thread in the child
}

}  // namespace

void AddForkHandlers(std::function<void()> prepare, std::function<void()> parent,
                     std::function<void()> child) {
  ForkRegistry& r = Registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.handlers.push_back({std::move(prepare), std::move(parent), std::move(child)});
}

int CurrentPid() { return Registry().pid.load(std::memory_order_relaxed); }

}  // namespace ascsim::runtime
