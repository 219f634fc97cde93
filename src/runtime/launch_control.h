// Runtime-internal side of launch timeouts and cancellation (ascsim::CancelToken,
// ascsim::SetLaunchTimeout): what RunLaunch arms for every launch.
#pragma once

#include <cstdint>
#include <memory>

#include "ascsim/aicore/core_context.h"
#include "ascsim/runtime.h"

namespace ascsim::runtime {

// The token of the innermost CancelScope on this thread (null when none).
std::shared_ptr<CancelToken::State> CurrentCancelState();

// For one running launch: arms the watchdog with the launch's timeout (when > 0) and attaches
// the launch to its cancel token (when it has one); undoes both on destruction, which must
// happen before `launch` is destroyed.
class LaunchGuard {
 public:
  LaunchGuard(aicore::LaunchShared& launch, double timeout_seconds,
              std::shared_ptr<CancelToken::State> token);
  ~LaunchGuard();
  LaunchGuard(const LaunchGuard&) = delete;
  LaunchGuard& operator=(const LaunchGuard&) = delete;

 private:
  aicore::LaunchShared& launch_;
  std::shared_ptr<CancelToken::State> token_;
  uint64_t watchdog_id_ = 0;
};

}  // namespace ascsim::runtime
