#include "host/env_trace.h"

#include <cstdlib>
#include <iostream>
#include <mutex>

#include "ascsim/profile.h"
#include "ascsim/runtime.h"
#include "ascsim/toolkit.h"

namespace ascsim::host {
namespace {

// Never destroyed: the exit handler may run after other statics are gone.
struct EnvTrace {
  std::mutex mu;
  std::string path;
  Profiler* profiler = nullptr;
};
EnvTrace& State() {
  static EnvTrace* state = new EnvTrace;
  return *state;
}

void WriteAtExit() { FlushEnvTrace(); }

}  // namespace

void InstallEnvTrace(const std::string& path) {
  EnvTrace& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  state.path = path;
  if (state.profiler == nullptr) {
    state.profiler = new Profiler;  // lives until exit, like the process-wide trace it feeds
    std::atexit(WriteAtExit);
  }
}

bool FlushEnvTrace() {
  EnvTrace& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  if (state.profiler == nullptr) return false;
  try {
    state.profiler->SaveTrace(state.path);
  } catch (const std::exception& e) {
    std::cerr << "ascsim: ASCSIM_TRACE: " << e.what() << std::endl;
    return false;
  }
  return true;
}

}  // namespace ascsim::host

namespace ascsim {

void InstallTraceFromEnvironment() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* path = std::getenv("ASCSIM_TRACE");
    if (path != nullptr && *path != '\0') host::InstallEnvTrace(path);
    const char* dir = std::getenv("ASCSIM_PROFILE_DIR");
    if (dir != nullptr && *dir != '\0') toolkit::ProfileToDirectoryAtExit(dir, "profile");
  });
}

}  // namespace ascsim
