#include "runtime/launch_control.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/process.h"
#include "runtime/watchdog.h"

namespace ascsim {

namespace {

thread_local std::shared_ptr<CancelToken::State> t_current_token;

}  // namespace

struct CancelToken::State {
  std::mutex mu;
  bool cancelled = false;
  std::string reason;
  std::vector<aicore::LaunchShared*> launches;  // running launches that carry this token
};

CancelToken::CancelToken() : state_(std::make_shared<State>()) {}
CancelToken::~CancelToken() = default;

void CancelToken::Cancel(const std::string& reason) {
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->cancelled) return;
  state_->cancelled = true;
  state_->reason = "launch cancelled: " + reason;
  for (aicore::LaunchShared* launch : state_->launches) {
    aicore::CancelLaunch(*launch, state_->reason);
  }
}

bool CancelToken::cancelled() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->cancelled;
}

CancelScope::CancelScope(const CancelToken& token) : previous_(std::move(t_current_token)) {
  t_current_token = token.state_;
}
CancelScope::~CancelScope() { t_current_token = std::move(previous_); }

namespace runtime {

std::shared_ptr<CancelToken::State> CurrentCancelState() { return t_current_token; }

LaunchGuard::LaunchGuard(aicore::LaunchShared& launch, double timeout_seconds,
                         std::shared_ptr<CancelToken::State> token)
    : launch_(launch), token_(std::move(token)) {
  const double seconds = timeout_seconds;
  if (seconds > 0) {
    // Clamped to 100 years: a nanosecond count of ~9.2e9 s or more overflows (and would put the
    // deadline in the past). Any timeout that long is no timeout.
    constexpr double kLongestTimeoutSeconds = 100.0 * 365 * 24 * 3600;
    const auto deadline =
        Watchdog::Clock::now() +
        std::chrono::duration_cast<Watchdog::Clock::duration>(
            std::chrono::duration<double>(std::min(seconds, kLongestTimeoutSeconds)));
    watchdog_id_ = Process::Get().watchdog().Arm(&launch_, deadline, seconds);
  }
  if (token_) {
    std::lock_guard<std::mutex> lock(token_->mu);
    if (token_->cancelled) {
      aicore::CancelLaunch(launch_, token_->reason);
    } else {
      token_->launches.push_back(&launch_);
    }
  }
}

LaunchGuard::~LaunchGuard() {
  if (watchdog_id_ != 0) Process::Get().watchdog().Disarm(watchdog_id_);
  if (token_) {
    std::lock_guard<std::mutex> lock(token_->mu);
    auto& v = token_->launches;
    v.erase(std::remove(v.begin(), v.end(), &launch_), v.end());
  }
}

}  // namespace runtime
}  // namespace ascsim
