// Run mode `sim` (ascsim/toolkit.h EnableSimMode): CANN runs `run.sh -r sim` on its CAModel
// simulator, which dumps its logs into $CAMODEL_LOG_PATH; here the npu path runs on the simulated
// grid with the cost model on, and the estimate lands in the same directory at exit
// (ProfileToDirectoryAtExit, also behind ASCSIM_PROFILE_DIR and msprof stand-ins):
//   op_summary.csv       msprof's op_summary: Task Duration(us), Block Dim, aiv_* / aic_* pipes
//   ascsim_trace.json    Chrome trace (chrome://tracing, Perfetto): one row per core and pipe
//   ascsim_summary.txt   one line per launch: estimated device time, waves, bound, pipe busy time
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>

#include "ascsim/profile.h"
#include "ascsim/toolkit.h"

namespace ascsim::toolkit {
namespace {

struct SimLog {
  std::mutex mu;
  std::string dir;
  std::string label = "sim";     // names the mode in messages
  Profiler* profiler = nullptr;  // lives until exit, like the device log it stands for
};
SimLog& State() {
  static SimLog* state = new SimLog;  // never destroyed: the exit handler runs after statics
  return *state;
}

// mkdir -p
bool MakeDirs(const std::string& path) {
  std::string partial;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = path.find('/', pos + 1);
    partial = path.substr(0, pos);
    if (partial.empty()) continue;
    if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

std::string Absolute(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof cwd) == nullptr) return path;
  std::string rel = path;
  while (rel.rfind("./", 0) == 0) rel.erase(0, 2);
  return std::string(cwd) + "/" + rel;
}

void WriteAtExit() {
  SimLog& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  if (state.profiler == nullptr) return;
  state.profiler->Stop();
  try {
    const std::vector<LaunchEstimate> launches = state.profiler->Summary();
    if (!MakeDirs(state.dir)) {
      std::fprintf(stderr, "ascsim %s: cannot create %s: %s\n", state.label.c_str(),
                   state.dir.c_str(), std::strerror(errno));
      return;
    }
    WriteChromeTrace(launches, state.dir + "/ascsim_trace.json");
    WriteOpSummary(launches, state.dir + "/op_summary.csv");
    std::ofstream summary(state.dir + "/ascsim_summary.txt");
    summary << FormatEstimateTable(launches);
    double device_us = 0;
    for (const LaunchEstimate& e : launches) device_us += e.task_duration_us;
    std::fprintf(stderr,
                 "ascsim %s: %zu launch%s, estimated Task Duration %.2f us; %s/op_summary.csv, "
                 "trace %s/ascsim_trace.json, summary %s/ascsim_summary.txt\n",
                 state.label.c_str(), launches.size(), launches.size() == 1 ? "" : "es", device_us,
                 state.dir.c_str(), state.dir.c_str(), state.dir.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ascsim %s: writing %s failed: %s\n", state.label.c_str(),
                 state.dir.c_str(), e.what());
  }
}

}  // namespace

bool ProfileToDirectoryAtExit(const std::string& dir, const char* label) {
  SimLog& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  if (state.profiler != nullptr || dir.empty()) return false;
  state.dir = Absolute(dir);
  while (state.dir.size() > 1 && state.dir.back() == '/') state.dir.pop_back();
  state.label = label != nullptr ? label : "profile";
  state.profiler = new Profiler;
  std::atexit(WriteAtExit);
  return true;
}

void EnableSimMode() {
  const char* env = std::getenv("CAMODEL_LOG_PATH");
  ProfileToDirectoryAtExit(env != nullptr && *env != '\0' ? env : "./sim_log", "sim");
}

}  // namespace ascsim::toolkit
