// The launch watchdog: one background thread for all launches, sleeping on a condition variable
// until the nearest armed deadline (no polling). When a deadline passes it cancels that launch
// (aicore::CancelLaunch), so each of its blocks faults with kTimeout at its next API call, as the
// device's AI-core timeout fails a kernel that runs too long.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>

#include "ascsim/aicore/core_context.h"

namespace ascsim::runtime {

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;

  // Cancels `launch` once `deadline` (`seconds` from now) passes, unless disarmed first, with a
  // reason naming the timeout (made only then: arming costs no string). Returns the id for
  // Disarm.
  uint64_t Arm(aicore::LaunchShared* launch, Clock::time_point deadline, double seconds);
  // After Disarm returns the watchdog no longer touches the launch.
  void Disarm(uint64_t id);

 private:
  friend Watchdog* NewWatchdog();
  Watchdog();
  void Loop();

  struct Armed {
    aicore::LaunchShared* launch;
    Clock::time_point deadline;
    double seconds;
  };

  std::mutex mu_;
  std::condition_variable cv_;
  std::map<uint64_t, Armed> armed_;  // by id
  uint64_t next_id_ = 1;
  bool started_ = false;
  // What the thread sleeps until (max() when nothing is armed): Arm wakes it only for an earlier
  // deadline, so the common case (equal timeouts, later deadlines) costs no wake-up.
  Clock::time_point sleeping_until_ = Clock::time_point::max();
};

}  // namespace ascsim::runtime
