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
  uint8_t unit = 0;   // 0: a core of a single-unit launch (AIV or AIC), 1: an AIC, 2: an AIV (mix)
  bool cube = false;  // an AIC (cube core): msprof's aic_* columns, else aiv_*
  double end_us = 0;  // when the block's last call completes
  std::map<std::string, double> busy_us;      // per pipe ("MTE2", "V", "MTE3", "S")
  std::map<std::string, double> utilisation;  // busy / duration of the block's wave
};

// What the memory system and the vector unit did in a launch (explain(), the op summary).
struct TransferStats {
  uint64_t mte2_transfers = 0, mte3_transfers = 0;  // GM transfers
  uint64_t mte2_bytes = 0, mte3_bytes = 0;
  uint64_t l2_hit_bytes = 0;      // MTE2 bytes served by L2
  uint64_t bypass_bytes = 0;      // MTE2 bytes of tensors with SetL2CacheHint(CACHE_MODE_DISABLE)
  uint64_t write_back_bytes = 0;  // MTE3 bytes that push dirty L2 lines out to HBM
  // MTE2 rows that start inside a 512 B line and run past it, and the bytes of those head lines,
  // which come from HBM in full whatever L2 holds.
  uint64_t unaligned_rows = 0, unaligned_head_bytes = 0;
  // MTE2 bytes read around L2 while another core's bypassed read was on the same lines (HBM
  // serves them in turn: SocProfile::same_address_gbps).
  double same_address_bytes = 0;
  bool l2_thrashing = false;      // the launch's cacheable footprint exceeds L2
  double hbm_busy_us = 0;         // HBM time used (bytes and run overhead at full bandwidth)
  double port_busy_us = 0;        // L2 / interconnect port time used (every byte moved)
  double vector_conflict_us = 0;  // vector time lost to UB bank conflicts, summed over cores
  double vector_head_us = 0;      // vector instruction start-up time, summed over cores
};

struct LaunchEstimate {
  std::string kernel;
  uint32_t block_dim = 0;
  std::string soc;
  double clock_ghz = 0;           // the profile's clock (cycles in the op summary)
  double estimated_us = 0;        // device execution time of the kernel (the cores' run)
  double task_duration_us = 0;    // msprof's Task Duration: the run plus dispatch and end
  double launch_overhead_us = 0;  // host->device launch cost on top, from the profile
  uint32_t waves = 0;
  std::string bound;                    // "GM bandwidth", "vector", "scalar", "cube" or "latency"
  std::map<std::string, double> pipes;  // busy us per pipe, summed over cores
  uint64_t gm_bytes = 0;                // bytes moved by MTE2 + MTE3
  TransferStats memory;
  double wall_us = 0;  // the simulator's own run time
  bool failed = false;
  std::vector<CoreEstimate> cores;  // one per block
  std::vector<TimelineEvent> events;
  std::shared_ptr<const std::vector<trace::CoreTrace>> traces;  // what `events` index into
};

// Replays one launch record. Pure: the same record gives the same estimate (a record without a
// `soc` is estimated for Ascend910B1, the default profile; launches always record theirs).
LaunchEstimate EstimateLaunch(const LaunchRecord& record);

// One line per launch: kernel, blocks, soc, estimate, waves, bound, per-pipe busy time.
std::string FormatEstimateTable(const std::vector<LaunchEstimate>& launches);

// Chrome trace event JSON: pid = core, tid = pipe (its lanes named as msprof op simulator's
// trace.json names them: VECTOR, SCALAR, CUBE, MTE1, MTE2, MTE3, FIXP), one "X" event per call;
// launches follow each other on the time axis, separated by their launch overhead.
std::string ChromeTraceJson(const std::vector<LaunchEstimate>& launches);
void WriteChromeTrace(const std::vector<LaunchEstimate>& launches, const std::string& path);

// msprof's op_summary_*.csv for the launches, one row per launch, with msprof's column names
// ("Op Name", "Task Duration(us)", "Block Dim", then aic_* for the cube cores and aiv_* for the
// vector cores: time, total cycles, per-pipe time and ratio; "N/A" where a launch has no such
// core). Per-core figures are the mean over the launch's cores of that kind, as msprof reports
// them; ratios are pipe time over that mean core time.
std::string OpSummaryCsv(const std::vector<LaunchEstimate>& launches);

// What limits the launch, in msprof's terms (Task Duration, aiv_/aic_ pipe times and ratios)
// and the effects the model found: transfer size against bandwidth, L2 write-backs and
// SetL2CacheHint, UB bank conflicts, vector instruction heads, a single core, and what to try.
std::string ExplainEstimate(const LaunchEstimate& e);
void WriteOpSummary(const std::vector<LaunchEstimate>& launches, const std::string& path);

// ASCSIM_TRACE=path.json: when the variable names a file, traces every launch from now on and
// writes the Chrome trace there at exit (as msprof does for an unmodified program).
// ASCSIM_PROFILE_DIR=dir: the same, writing msprof's files into dir at exit (op_summary.csv,
// trace.json; ascsim::toolkit::ProfileToDirectoryAtExit). The entry points call it (aclInit and
// ACL launches, ICPU_RUN_KF, importing the Python packages); calling it again does nothing.
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
  void SaveOpSummary(const std::string& path) const;  // msprof's op_summary CSV

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
