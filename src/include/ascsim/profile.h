// Seeing the device: a cost model that replays the per-core API call traces of a launch on the
// AI core's pipes (MTE2 GM->UB, V, MTE3 UB->GM, S) and estimates the kernel's device time, the
// busy time of each pipe, the bound and the waves; plus a Chrome trace (Perfetto,
// chrome://tracing) with one row per core and pipe.
//
//   ascsim::Profiler prof;                 // installs a launch observer until destroyed
//   ascsim::kernels::LaunchAddCustom(...);
//   std::cout << prof.ToTable();
//   prof.SaveTrace("trace.json");
//
// Without code changes: ASCSIM_TRACE=trace.json ./program writes the trace of every launch at
// exit. All cost figures come from the launch's SocProfile (ascsim/soc.h).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ascsim/trace.h"

namespace ascsim {

// One API call placed on its pipe by the replay (times from the kernel's start).
struct TimelineEvent {
  uint32_t block = 0;
  uint32_t core = 0;  // physical core: block % vector cores
  uint32_t wave = 0;
  trace::Pipe pipe = trace::Pipe::kNone;
  uint32_t call_index = 0;  // into the block's CoreTrace::calls
  double start_us = 0;
  double dur_us = 0;      // time the call holds its pipe
  double latency_us = 0;  // DMA latency after dur_us before the data is usable
};

struct CoreEstimate {
  uint32_t block = 0;
  uint32_t core = 0;
  uint32_t wave = 0;
  double end_us = 0;                          // when the block's last call completes
  std::map<std::string, double> busy_us;      // per pipe ("MTE2", "V", "MTE3", "S")
  std::map<std::string, double> utilisation;  // busy / duration of the block's wave
};

struct LaunchEstimate {
  std::string kernel;
  uint32_t block_dim = 0;
  std::string soc;
  double estimated_us = 0;        // device execution time of the kernel (as msprof reports it)
  double launch_overhead_us = 0;  // host->device launch cost on top, from the profile
  uint32_t waves = 0;
  std::string bound;                    // "GM bandwidth", "vector", "scalar", "cube" or "latency"
  std::map<std::string, double> pipes;  // busy us per pipe, summed over cores
  uint64_t gm_bytes = 0;                // bytes moved by MTE2 + MTE3
  double wall_us = 0;                   // the simulator's own run time
  bool failed = false;
  std::vector<CoreEstimate> cores;  // one per block
  std::vector<TimelineEvent> events;
  std::shared_ptr<const std::vector<trace::CoreTrace>> traces;  // what `events` index into
};

// Replays one launch record. Pure: the same record gives the same estimate.
LaunchEstimate EstimateLaunch(const LaunchRecord& record);

// One line per launch: kernel, blocks, soc, estimate, waves, bound, per-pipe busy time.
std::string FormatEstimateTable(const std::vector<LaunchEstimate>& launches);

// Chrome trace event JSON: pid = core, tid = pipe, one "X" event per call with its arguments;
// launches follow each other on the time axis, separated by their launch overhead.
std::string ChromeTraceJson(const std::vector<LaunchEstimate>& launches);
void WriteChromeTrace(const std::vector<LaunchEstimate>& launches, const std::string& path);

// ASCSIM_TRACE=path.json: when the variable names a file, traces every launch from now on and
// writes the Chrome trace there at exit (as msprof does for an unmodified program). The entry
// points call it (aclInit and ACL launches, ICPU_RUN_KF, importing the Python packages); calling
// it again does nothing.
void InstallTraceFromEnvironment();

// Collects every launch while alive (RAII); other observers keep working alongside.
class Profiler {
 public:
  Profiler();
  ~Profiler();
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  // Stops collecting (the destructor does it too); what was collected stays.
  void Stop();
  bool active() const { return observer_id_ != 0; }

  std::vector<LaunchEstimate> Summary() const;
  std::string ToTable() const;
  void SaveTrace(const std::string& path) const;

 private:
  struct State {
    std::mutex mu;
    std::vector<LaunchRecord> records;
    std::vector<std::shared_ptr<const LaunchEstimate>> estimates;  // cache, by record
  };
  std::shared_ptr<State> state_;
  int observer_id_ = 0;
};

}  // namespace ascsim
