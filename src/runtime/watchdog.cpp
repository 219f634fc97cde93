#include "runtime/watchdog.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>
#include <thread>

#include "runtime/process.h"

namespace ascsim::runtime {

// Never destroyed (launches on streams may outlive static destructors); a fork child gets a
// fresh one (the process object's ForkSafeInstance), since the parent's thread does not exist
// there.
Watchdog* NewWatchdog() { return new Watchdog; }

Watchdog::Watchdog() = default;

uint64_t Watchdog::Arm(aicore::LaunchShared* launch, Clock::time_point deadline,
                       double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!started_) {
    started_ = true;
    std::thread([this] { Loop(); }).detach();  // lives as long as the (leaked) watchdog
  }
  const uint64_t id = next_id_++;
  armed_.emplace(id, Armed{launch, deadline, seconds});
  if (deadline < sleeping_until_) cv_.notify_one();
  return id;
}

void Watchdog::Disarm(uint64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  armed_.erase(id);
}

void Watchdog::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    const Clock::time_point now = Clock::now();
    Clock::time_point next = Clock::time_point::max();
    for (auto it = armed_.begin(); it != armed_.end();) {
      if (it->second.deadline <= now) {
        // Under mu_, so a concurrent Disarm waits and the launch is still alive here.
        char limit[32];
        std::snprintf(limit, sizeof limit, "%g", it->second.seconds);
        aicore::CancelLaunch(*it->second.launch,
                             std::string("launch timed out: still running after the launch "
                                         "timeout of ") +
                                 limit +
                                 " s (ASCSIM_TIMEOUT, ascsim::SetLaunchTimeout, "
                                 "add_custom.set_timeout)");
        it = armed_.erase(it);
      } else {
        next = std::min(next, it->second.deadline);
        ++it;
      }
    }
    sleeping_until_ = next;
    if (next == Clock::time_point::max()) {
      cv_.wait(lock);
    } else {
      cv_.wait_until(lock, next);
    }
  }
}

}  // namespace ascsim::runtime
