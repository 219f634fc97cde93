// The public settings API (ascsim/runtime.h, ascsim/soc.h) over the process object's table.
#include <cmath>
#include <cstdio>
#include <sstream>

#include "runtime/process.h"
#include "runtime/worker_pool.h"

namespace ascsim {
namespace {

std::string FormatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

runtime::Process& P() { return runtime::Process::Get(); }

}  // namespace

uint32_t ParseSanitizeFlags(const std::string& spec) {
  uint32_t flags = 0;
  std::stringstream in(spec);
  std::string word;
  while (std::getline(in, word, ',')) {
    while (!word.empty() && word.front() == ' ') word.erase(word.begin());
    while (!word.empty() && word.back() == ' ') word.pop_back();
    if (word.empty() || word == "0" || word == "none" || word == "off") continue;
    if (word == "1" || word == "all") {
      flags |= kSanitizeAll;
    } else if (word == "race") {
      flags |= kSanitizeRace;
    } else if (word == "init") {
      flags |= kSanitizeInit;
    } else if (word == "sync") {
      flags |= kSanitizeSync;
    } else {
      throw InvalidArgument("unknown sanitizer check '" + word +
                            "'; use race, init, sync (comma-separated), all, 1 or 0");
    }
  }
  return flags;
}

void ValidateSettings(const Settings& s) {
  if (s.soc == nullptr) throw InvalidArgument("settings: soc is null (use FindSocProfile)");
  // Any finite length is allowed; one longer than the watchdog's clock can count is no timeout
  // (runtime::LaunchGuard clamps it).
  if (!(s.timeout_seconds >= 0) || std::isinf(s.timeout_seconds)) {
    throw InvalidArgument(
        "launch timeout must be a finite number of seconds >= 0 (0 = off), got " +
        FormatSeconds(s.timeout_seconds));
  }
  if ((s.sanitize & ~static_cast<uint32_t>(kSanitizeAll)) != 0) {
    throw InvalidArgument("settings: unknown sanitize bits " + std::to_string(s.sanitize));
  }
  if (s.ub_fill < -1 || s.ub_fill > 255) {
    throw InvalidArgument("settings: ub_fill must be -1 (off) or a byte 0..255, got " +
                          std::to_string(s.ub_fill));
  }
}

Settings GetSettings() { return P().GetSettings(); }
void SetSettings(const Settings& settings) { P().SetSettings(settings); }

void SetSerial(bool serial) {
  P().EditSettings([&](Settings& s) { s.serial = serial; });
}
bool IsSerial() { return GetSettings().serial; }
void SetStrict(bool strict) {
  P().EditSettings([&](Settings& s) { s.strict = strict; });
}
bool IsStrict() { return GetSettings().strict; }
void SetSanitize(uint32_t flags) {
  P().EditSettings([&](Settings& s) {
    s.sanitize = flags;
    ValidateSettings(s);
  });
}
uint32_t GetSanitize() { return GetSettings().sanitize; }
void SetLaunchTimeout(double seconds) {
  P().EditSettings([&](Settings& s) {
    s.timeout_seconds = seconds;
    ValidateSettings(s);
  });
}
double GetLaunchTimeout() { return GetSettings().timeout_seconds; }

const SocProfile& CurrentSoc() { return *GetSettings().soc; }
void SetSoc(const std::string& name) {
  const SocProfile* soc = &FindSocProfile(name);
  P().EditSettings([&](Settings& s) { s.soc = soc; });
}

int WorkerCount() { return P().pool().size() + 1; }

WarningSink SetWarningSink(WarningSink sink) { return P().SwapWarningSink(std::move(sink)); }
int AddLaunchObserver(LaunchObserver observer) { return P().AddObserver(std::move(observer)); }
void RemoveLaunchObserver(int id) { P().RemoveObserver(id); }

}  // namespace ascsim
