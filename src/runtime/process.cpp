#include "runtime/process.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace ascsim::runtime {
namespace {

// Generous by default: long enough for any honest launch here (the biggest test launches take a
// few seconds even under the sanitizers), short enough that a stuck kernel fails a CI job
// instead of hanging it.
constexpr double kDefaultTimeoutSeconds = 300;

bool EnvFlag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

double TimeoutFromEnvironment() {
  const char* v = std::getenv("ASCSIM_TIMEOUT");
  if (v == nullptr || *v == '\0') return kDefaultTimeoutSeconds;
  char* end = nullptr;
  const double seconds = std::strtod(v, &end);
  if (end == v || *end != '\0' || !(seconds >= 0) || std::isinf(seconds)) {
    std::fprintf(stderr,
                 "ascsim warning: ASCSIM_TIMEOUT=%s is not a number of seconds >= 0; using %g\n", v,
                 kDefaultTimeoutSeconds);
    return kDefaultTimeoutSeconds;
  }
  return seconds;
}

const SocProfile* SocFromEnvironment() {
  const char* env = std::getenv("ASCSIM_SOC");
  if (env == nullptr || *env == '\0') return &SocProfiles()[0];
  try {
    const SocProfile* profile = &FindSocProfile(env);
    const SocName* name = FindSocName(env);
    if (name != nullptr && *name->why != '\0') {  // said as the toolkit says it for SOC_VERSION
      std::fprintf(stderr, "ascsim: ASCSIM_SOC=%s is not modelled; simulating it as %s (%s)\n", env,
                   profile->name, name->why);
    }
    return profile;
  } catch (const Error& e) {
    std::fprintf(stderr, "ascsim warning: ASCSIM_SOC: %s; using %s\n", e.what(),
                 SocProfiles()[0].name);
    return &SocProfiles()[0];
  }
}

// Unset: race and init, the default (README, "Sanitizer": their cost is within 1.3x on the
// shipped kernels); set: exactly what it names ("0" turns the sanitizer off).
uint32_t SanitizeFromEnvironment() {
  const uint32_t kDefault = kSanitizeRace | kSanitizeInit;
  const char* env = std::getenv("ASCSIM_SANITIZE");
  if (env == nullptr) return kDefault;
  try {
    return ParseSanitizeFlags(env);
  } catch (const Error& e) {
    std::fprintf(stderr, "ascsim warning: ASCSIM_SANITIZE: %s; using race,init\n", e.what());
    return kDefault;
  }
}

// ASCSIM_UB_FILL: "nan" (0xFF: NaN in every float type), a byte ("0xA5", "165"), or off.
int UbFillFromEnvironment() {
  const char* env = std::getenv("ASCSIM_UB_FILL");
  if (env == nullptr || *env == '\0' || std::strcmp(env, "off") == 0) return -1;
  if (std::strcmp(env, "nan") == 0 || std::strcmp(env, "NaN") == 0 || std::strcmp(env, "NAN") == 0)
    return 0xFF;
  char* end = nullptr;
  const long value = std::strtol(env, &end, 0);
  if (end == env || *end != '\0' || value < 0 || value > 255) {
    std::fprintf(stderr,
                 "ascsim warning: ASCSIM_UB_FILL=%s is not nan or a byte (0..255, e.g. 0xA5); "
                 "UB fill off\n",
                 env);
    return -1;
  }
  return static_cast<int>(value);
}

}  // namespace

Process& Process::Get() {
  static Process* const process = new Process;  // never destroyed (see process.h)
  return *process;
}

Process::Process()
    : observer_list_(std::make_shared<const std::vector<LaunchObserver>>()),
      warning_sink_(std::make_shared<const WarningSink>(
          [](const std::string& line) { std::cerr << "ascsim warning: " << line << std::endl; })),
      pool_(NewWorkerPool),
      watchdog_(NewWatchdog),
      block_threads_(NewBlockThreads),
      memory_(NewDeviceMemory()) {
  settings_.soc = SocFromEnvironment();
  settings_.strict = EnvFlag("ASCSIM_STRICT");
  settings_.serial = EnvFlag("ASCSIM_SERIAL");
  settings_.timeout_seconds = TimeoutFromEnvironment();
  settings_.sanitize = SanitizeFromEnvironment();
  settings_.ub_fill = UbFillFromEnvironment();
}

LaunchSettings Process::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return LaunchSettings{settings_, observer_list_, warning_sink_};
}

Settings Process::GetSettings() const {
  std::lock_guard<std::mutex> lock(mu_);
  return settings_;
}

void Process::SetSettings(const Settings& settings) {
  ValidateSettings(settings);
  std::lock_guard<std::mutex> lock(mu_);
  settings_ = settings;
}

WarningSink Process::SwapWarningSink(WarningSink sink) {
  std::lock_guard<std::mutex> lock(mu_);
  WarningSink previous = *warning_sink_;
  warning_sink_ = std::make_shared<const WarningSink>(std::move(sink));
  return previous;
}

bool Process::KernelLayoutOf(const void* kernel_id, uint64_t tiling_key, int* encoded) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = kernel_layouts_.find({kernel_id, tiling_key});
  if (it == kernel_layouts_.end()) return false;
  *encoded = it->second;
  return true;
}

void Process::RememberKernelLayout(const void* kernel_id, uint64_t tiling_key, int encoded) {
  std::lock_guard<std::mutex> lock(mu_);
  kernel_layouts_[{kernel_id, tiling_key}] = encoded;
}

void Process::MarkAutoSync(const void* kernel_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto_sync_kernels_.insert(kernel_id);
}

bool Process::IsAutoSync(const void* kernel_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  return auto_sync_kernels_.count(kernel_id) != 0;
}

bool Process::FirstTime(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  return seen_keys_.insert(key).second;
}

int Process::AddObserver(LaunchObserver observer) {
  std::lock_guard<std::mutex> lock(mu_);
  const int id = next_observer_id_++;
  observers_[id] = std::move(observer);
  PublishObservers();
  return id;
}

void Process::RemoveObserver(int id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (observers_.erase(id) != 0) PublishObservers();
}

void Process::PublishObservers() {
  auto list = std::make_shared<std::vector<LaunchObserver>>();
  for (const auto& entry : observers_) list->push_back(entry.second);
  observer_list_ = std::move(list);
}

}  // namespace ascsim::runtime

namespace ascsim {

bool DeclareCompiledWithAutoSync(const void* kernel) {
  if (kernel != nullptr) runtime::Process::Get().MarkAutoSync(kernel);
  return true;
}

}  // namespace ascsim
