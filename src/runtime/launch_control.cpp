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

#include "runtime/watchdog.h"

namespace ascsim {

namespace {

// Generous by default: long enough for any honest launch here (the biggest test launches take a
// few seconds even under the sanitizers), short enough that a stuck kernel fails a CI job
// instead of hanging it.
constexpr double kDefaultTimeoutSeconds = 300;

double TimeoutFromEnvironment() {
  const char* v = std::getenv("ASCSIM_TIMEOUT");
  if (v == nullptr || *v == '\0') return kDefaultTimeoutSeconds;
  char* end = nullptr;
  const double seconds = std::strtod(v, &end);
  if (end == v || *end != '\0' || !(seconds >= 0) || std::isinf(seconds)) {
    std::fprintf(stderr, "ascsim warning: ASCSIM_TIMEOUT=%s is not a number of seconds >= 0; "
                 "using %g\n", v, kDefaultTimeoutSeconds);
    return kDefaultTimeoutSeconds;
  }
  return seconds;
}

std::atomic<double>& TimeoutSeconds() {
  static std::atomic<double> seconds{TimeoutFromEnvironment()};
  return seconds;
}

thread_local std::shared_ptr<CancelToken::State> t_current_token;

std::string FormatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

}  // namespace

struct CancelToken::State {
  std::mutex mu;
  bool cancelled = false;
  std::string reason;
  std::vector<aicore::LaunchShared*> launches;  // running launches that carry this token
};

void SetLaunchTimeout(double seconds) {
  if (!(seconds >= 0) || std::isinf(seconds)) {
    throw InvalidArgument("launch timeout must be a finite number of seconds >= 0 (0 = off), got " +
                          FormatSeconds(seconds));
  }
  TimeoutSeconds().store(seconds);
}
double GetLaunchTimeout() { return TimeoutSeconds().load(); }

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

LaunchGuard::LaunchGuard(aicore::LaunchShared& launch, std::shared_ptr<CancelToken::State> token)
    : launch_(launch), token_(std::move(token)) {
  const double seconds = GetLaunchTimeout();
  if (seconds > 0) {
    // Clamped to 100 years: a nanosecond count of ~9.2e9 s or more overflows (and would put the
    // deadline in the past). Any timeout that long is no timeout.
    constexpr double kLongestTimeoutSeconds = 100.0 * 365 * 24 * 3600;
    const auto deadline =
        Watchdog::Clock::now() +
        std::chrono::duration_cast<Watchdog::Clock::duration>(
            std::chrono::duration<double>(std::min(seconds, kLongestTimeoutSeconds)));
    watchdog_id_ = Watchdog::Get().Arm(&launch_, deadline, seconds);
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
  if (watchdog_id_ != 0) Watchdog::Get().Disarm(watchdog_id_);
  if (token_) {
    std::lock_guard<std::mutex> lock(token_->mu);
    auto& v = token_->launches;
    v.erase(std::remove(v.begin(), v.end(), &launch_), v.end());
  }
}

}  // namespace runtime
}  // namespace ascsim
