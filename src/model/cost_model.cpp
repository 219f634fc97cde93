// The replay: each block's calls, in program order, go onto its core's in-order pipes.
//
// Costs (all figures from the launch's SocProfile):
//   - vector op: elements / rate cycles, rate = vector_bytes_per_cycle / element size for simple
//     ops, reductions and casts (128 fp16 / 64 fp32), vector_complex_per_cycle for Exp/Ln/Sqrt/Div
//     and the sort/merge instructions, one 32 B block per cycle for Gather.
//   - MTE2/MTE3 transfer: holds its pipe for bytes / (GM bandwidth / active cores of its wave);
//     MTE2 and MTE3 of a core share that slice (PortCalendar), and the data is usable
//     dma_latency_us after the transfer (DMA requests are pipelined, so back-to-back transfers on
//     a pipe pay the latency once per dependency, not once per transfer).
//   - scalar GetValue/SetValue: scalar_ub_cycles or scalar_gm_cycles on pipe S; the scalar unit
//     issues every call, so nothing after a scalar access is issued before it completes.
// Dependencies:
//   - EnQue/DeQue: the consumer's first use waits until the ops that wrote the buffer before
//     EnQue completed; AllocTensor: the next producer waits until the ops that used the buffer
//     before FreeTensor completed (and, as the flag sits in those pipes' streams, everything
//     issued to those pipes before the EnQue/FreeTensor).
//   - SetFlag/WaitFlag: the wait_dst pipe waits until the wait_src pipe finished the calls before
//     the SetFlag; PipeBarrier(PIPE_ALL) drains every pipe; SyncAll is a barrier across the wave.
//   - CrossCoreSetFlag/CrossCoreWaitFlag (mix launches): a set posts the time its pipe has
//     finished the calls before it to the waiting sub-core(s) of the block (AIC -> each AIV,
//     both AIVs -> the AIC, AIVs <-> AIVs in mode 1); a wait blocks every pipe of its sub-core
//     until then (on A2 the wait ignores its mode and pipe).
// Blocks beyond the core count run in waves; a wave ends when its slowest block ends. The cores
// are the AIVs (vector launches, and the AI cores of a coupled arch), the AICs (cube launches),
// or AIC + AIV groups (mix launches: blockDim counts AICs, each block is one AIC and its AIVs).
//
// Cube figures (src/base/soc.cpp): Mmad does 16 x 16 x 16 fp16 MACs per cycle per AIC (int8:
// twice that, fp32: a quarter), plus mmad_head_cycles per instruction; MTE1 moves 256 B/cycle
// into L0A and 128 B/cycle into L0B; FIX drains fix_elements_per_cycle elements per cycle.
#include <algorithm>
#include <array>
#include <deque>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "ascsim/profile.h"

namespace ascsim {
namespace {

using trace::ApiCall;
using trace::CallKind;
using trace::Pipe;

constexpr size_t kPipes = static_cast<size_t>(Pipe::kNone) + 1;
size_t Idx(Pipe p) { return static_cast<size_t>(p); }

// The pipes the summary always shows, in timeline order (the cube's MTE1, M and FIX after the
// vector core's).
constexpr Pipe kShownPipes[] = {Pipe::kMte2, Pipe::kV, Pipe::kMte3, Pipe::kS,
                                Pipe::kMte1, Pipe::kM, Pipe::kFix};

// Mmad's MACs per cycle: 16 x 16 x cube_k, cube_k = 16 (half/bfloat16_t), 32 (int8_t), 4 (float)
// ("Cube指令理论性能汇总", table 1, arch 2201).
double CubeMacsPerCycle(uint8_t input_bytes) {
  const double cube_k = input_bytes == 1 ? 32 : input_bytes == 4 ? 4 : 16;
  return 16.0 * 16.0 * cube_k;
}

// A core's slice of GM bandwidth over time, shared by its MTE2 and MTE3. A transfer ready at
// time t streams its bytes through every free stretch of the port from t on (DMA bursts of
// different transfers interleave), so the port never idles while a transfer is ready, whatever
// the program order in which the replay meets them.
class PortCalendar {
 public:
  // Reserves `work` us of port time from `ready` on; returns [first use, last use).
  std::pair<double, double> Reserve(double ready, double work) {
    if (work <= 0) return {ready, ready};
    // Spans are sorted and disjoint; skip those ending before `ready`.
    auto it = std::lower_bound(busy_.begin(), busy_.end(), ready,
                               [](const Span& s, double t) { return s.end <= t; });
    double t = std::max(ready, it != busy_.end() && it->start <= ready ? it->end : ready);
    if (it != busy_.end() && it->start <= ready) ++it;
    const double first = t;
    double left = work;
    std::vector<Span> taken;
    while (left > 0) {
      const double use = it == busy_.end() ? left : std::min(left, it->start - t);
      if (use > 0) {
        taken.push_back({t, t + use});
        left = use == left ? 0 : left - use;
        t += use;
      }
      if (left > 0) {
        t = it->end;
        ++it;
      }
    }
    for (const Span& span : taken) Insert(span);
    return {first, t};
  }

 private:
  struct Span {
    double start, end;
  };
  void Insert(Span span) {
    auto it = std::lower_bound(busy_.begin(), busy_.end(), span.start,
                               [](const Span& s, double t) { return s.start < t; });
    it = busy_.insert(it, span);
    // Merge with touching neighbours (keeps the calendar short).
    if (it != busy_.begin() && std::prev(it)->end >= it->start) {
      std::prev(it)->end = std::max(std::prev(it)->end, it->end);
      it = std::prev(busy_.erase(it));
    }
    if (std::next(it) != busy_.end() && std::next(it)->start <= it->end) {
      it->end = std::max(it->end, std::next(it)->end);
      busy_.erase(std::next(it));
    }
  }
  std::vector<Span> busy_;
};

// The cross-core flags of one mix block in the replay: per sub-core (0: AIC, 1 + i: AIV i) and
// flag, the times at which posted sets became visible; and the AIV sets of the current round.
struct FlagBoard {
  static constexpr int kSlots = 3, kFlags = 16;
  uint32_t aivs = 2;
  std::deque<double> posted[kSlots][kFlags];
  int round_count[2][kFlags] = {};  // [0]: AIV -> AIC (mode 2), [1]: AIV <-> AIV (mode 1)
  double round_time[2][kFlags] = {};

  // A set by `slot` in `mode` at time `t`.
  void Set(int slot, int mode, int flag, double t) {
    if (mode == 2 && slot == 0) {
      for (uint32_t i = 0; i < aivs; ++i) posted[1 + i][flag].push_back(t);
      return;
    }
    const int r = mode == 2 ? 0 : 1;
    round_time[r][flag] = std::max(round_time[r][flag], t);
    if (++round_count[r][flag] < static_cast<int>(aivs)) return;
    if (r == 0) {
      posted[0][flag].push_back(round_time[r][flag]);
    } else {
      for (uint32_t i = 0; i < aivs; ++i) posted[1 + i][flag].push_back(round_time[r][flag]);
    }
    round_count[r][flag] = 0;
    round_time[r][flag] = 0;
  }
};

enum class Stop { kEnd, kSyncAll, kBlocked };

struct BufferTimes {
  double gate = 0;        // ops touching the buffer start no earlier than this
  double touch_end = 0;   // completion of the latest op that touched it
  double enq_ready = 0;   // touch_end at its EnQue
  double free_ready = 0;  // touch_end at its FreeTensor
  uint32_t pipes = 0;     // pipes that touched it since its last queue call (bit per Pipe)
};

// One block's replay state, resumable across SyncAll barriers.
class CoreReplay {
 public:
  // `board`: the cross-core flags of its mix block (null outside mix launches).
  CoreReplay(const SocProfile& soc, const trace::CoreTrace& trace, uint32_t block, uint32_t core,
             uint32_t wave, double gm_bytes_per_us, FlagBoard* board)
      : soc_(soc),
        trace_(trace),
        block_(block),
        core_(core),
        wave_(wave),
        gm_bytes_per_us_(gm_bytes_per_us),
        board_(board),
        slot_(trace.unit == 2 ? 1 + trace.sub_block : 0) {
    pipe_free_.fill(0);
    pipe_done_.fill(0);
    busy_.fill(0);
  }

  // Replays up to and including the next SyncAll, up to a CrossCoreWaitFlag whose flag no set
  // has posted yet (kBlocked: call again once a partner has moved), or to the end.
  Stop RunSegment(std::vector<TimelineEvent>& events) {
    const auto& calls = trace_.calls;
    while (next_ < calls.size()) {
      const uint32_t index = static_cast<uint32_t>(next_);
      const ApiCall& call = calls[index];
      if (call.kind == CallKind::kCrossCoreWait && board_ != nullptr &&
          board_->posted[slot_][call.event & 15].empty()) {
        return Stop::kBlocked;
      }
      ++next_;
      if (call.kind == CallKind::kSyncAll) return Stop::kSyncAll;
      Step(call, index, events);
    }
    return Stop::kEnd;
  }
  size_t progress() const { return next_; }

  // The time every pipe of this core is idle.
  double Finish() const {
    double t = std::max(issue_, finish_);
    for (size_t p = 0; p < kPipes; ++p) t = std::max({t, pipe_free_[p], pipe_done_[p]});
    return t;
  }
  // Resumes after a SyncAll released at `t`.
  void Release(double t) {
    issue_ = std::max(issue_, t);
    for (size_t p = 0; p < kPipes; ++p) pipe_free_[p] = std::max(pipe_free_[p], t);
  }

  double finish() const { return finish_; }
  uint32_t core() const { return core_; }
  double busy(Pipe p) const { return busy_[Idx(p)]; }
  uint64_t gm_bytes() const { return gm_bytes_; }

 private:
  double Cycles(double cycles) const { return cycles / (soc_.clock_ghz * 1e3); }

  // Time the call holds its pipe, and the latency before its result is usable.
  void Cost(const ApiCall& call, double& dur, double& latency) const {
    latency = 0;
    const double elem = std::max<double>(1, call.dtype_bytes);
    switch (call.kind) {
      case CallKind::kVector: {
        // Gather reads one 32 B block per cycle (its indexed loads do not use the full vector
        // width); the sort/merge instructions run at the complex-op rate. Both are estimates: the
        // profile table has no measured figure for them.
        double rate = soc_.vector_bytes_per_cycle / elem;
        if (call.vector_class == trace::VectorClass::kTranscendental ||
            call.vector_class == trace::VectorClass::kSort) {
          rate = soc_.vector_complex_per_cycle;
        } else if (call.vector_class == trace::VectorClass::kGather) {
          rate = 32.0 / elem;
        }
        dur = Cycles(static_cast<double>(call.elements) / rate);
        return;
      }
      case CallKind::kCopy:
        switch (call.cube_path) {
          case trace::CubePath::kL1ToL0A:
            dur = Cycles(static_cast<double>(call.bytes) / soc_.mte1_l0a_bytes_per_cycle);
            return;
          case trace::CubePath::kL1ToL0B:
            dur = Cycles(static_cast<double>(call.bytes) / soc_.mte1_l0b_bytes_per_cycle);
            return;
          case trace::CubePath::kL1ToBt:
            dur = Cycles(static_cast<double>(call.bytes) / soc_.mte1_bt_bytes_per_cycle);
            return;
          case trace::CubePath::kL0cOut: {
            // The FIX pipe drains fix_elements_per_cycle; into GM it also needs its bandwidth.
            dur = Cycles(static_cast<double>(call.elements) / soc_.fix_elements_per_cycle);
            if (call.on_gm) {
              dur = std::max(dur, static_cast<double>(call.bytes) / gm_bytes_per_us_);
              latency = soc_.dma_latency_us;
            }
            return;
          }
          case trace::CubePath::kLocal:  // between local memories of one core
            dur = Cycles(static_cast<double>(call.bytes) / soc_.vector_bytes_per_cycle);
            return;
          case trace::CubePath::kNone:
            break;
        }
        if (call.pipe == Pipe::kMte2 || call.pipe == Pipe::kMte3) {
          dur = static_cast<double>(call.bytes) / gm_bytes_per_us_;
          latency = soc_.dma_latency_us;
        } else {  // UB->UB on the vector pipe
          dur = Cycles(static_cast<double>(call.bytes) / soc_.vector_bytes_per_cycle);
        }
        return;
      case CallKind::kMmad:
        dur = Cycles(soc_.mmad_head_cycles +
                     static_cast<double>(call.elements) / CubeMacsPerCycle(call.dtype_bytes));
        return;
      case CallKind::kScalar:
        dur = Cycles(call.on_gm ? soc_.scalar_gm_cycles : soc_.scalar_ub_cycles);
        return;
      default:
        dur = 0;
        return;
    }
  }

  BufferTimes* Buffer(uint32_t id) { return id == trace::kNoBuffer ? nullptr : &buffers_[id]; }

  void Step(const ApiCall& call, uint32_t index, std::vector<TimelineEvent>& events) {
    switch (call.kind) {
      case CallKind::kVector:
      case CallKind::kCopy:
      case CallKind::kScalar:
      case CallKind::kMmad:
        Execute(call, index, events);
        return;
      case CallKind::kCrossCoreSet: {
        if (board_ == nullptr) return;
        const size_t src = Idx(call.wait_src);
        const double t = std::max({issue_, pipe_free_[src], pipe_done_[src]});
        board_->Set(slot_, static_cast<int>(call.event >> 8), static_cast<int>(call.event & 15), t);
        return;
      }
      case CallKind::kCrossCoreWait: {
        if (board_ == nullptr) return;
        auto& posted = board_->posted[slot_][call.event & 15];
        const double t = posted.front();
        posted.pop_front();
        Release(t);  // A2: the wait holds back every pipe of this sub-core
        return;
      }
      case CallKind::kAllocTensor:
        if (BufferTimes* b = Buffer(call.dst_buffer)) b->gate = std::max(b->gate, b->free_ready);
        return;
      case CallKind::kEnQue:
        if (BufferTimes* b = Buffer(call.dst_buffer)) b->enq_ready = QueueFlagTime(*b);
        return;
      case CallKind::kDeQue:
        if (BufferTimes* b = Buffer(call.dst_buffer)) b->gate = std::max(b->gate, b->enq_ready);
        return;
      case CallKind::kFreeTensor:
        if (BufferTimes* b = Buffer(call.dst_buffer)) b->free_ready = QueueFlagTime(*b);
        return;
      case CallKind::kSetFlag: {
        const size_t src = Idx(call.wait_src);
        flags_[call.event].push_back(std::max({issue_, pipe_free_[src], pipe_done_[src]}));
        return;
      }
      case CallKind::kWaitFlag: {
        auto& pending = flags_[call.event];
        double t = 0;
        if (!pending.empty()) {
          t = pending.front();
          pending.pop_front();
        }
        const size_t dst = Idx(call.wait_dst);
        pipe_free_[dst] = std::max(pipe_free_[dst], t);
        if (call.wait_dst == Pipe::kS) issue_ = std::max(issue_, t);
        return;
      }
      case CallKind::kPipeBarrier:
        if (call.pipe == Pipe::kNone) {  // PIPE_ALL
          Release(Finish());
        } else {
          const size_t p = Idx(call.pipe);
          pipe_free_[p] = std::max(pipe_free_[p], pipe_done_[p]);
          if (call.pipe == Pipe::kS) issue_ = std::max(issue_, pipe_done_[p]);
        }
        return;
      case CallKind::kSyncAll:
        return;
    }
  }

  // EnQue and FreeTensor set a hardware flag in the stream of the pipes that used the buffer, so
  // it fires when everything those pipes were given so far has completed, not only the calls on
  // this buffer (e.g. FreeTensor of an input after a whole Compute releases it after the last
  // vector op of that Compute).
  double QueueFlagTime(BufferTimes& b) {
    double t = b.touch_end;
    for (size_t p = 0; p < kPipes; ++p) {
      if (b.pipes & (1u << p)) t = std::max(t, pipe_done_[p]);
    }
    b.pipes = 0;
    return t;
  }

  void Execute(const ApiCall& call, uint32_t index, std::vector<TimelineEvent>& events) {
    const size_t p = Idx(call.pipe);
    const bool gm = call.kind == CallKind::kCopy &&
                    (call.cube_path == trace::CubePath::kNone
                         ? call.pipe == Pipe::kMte2 || call.pipe == Pipe::kMte3
                         : call.cube_path == trace::CubePath::kL0cOut && call.on_gm);
    BufferTimes* touched[3] = {Buffer(call.dst_buffer), Buffer(call.src_buffers[0]),
                               Buffer(call.src_buffers[1])};
    double start = std::max(issue_, pipe_free_[p]);
    for (BufferTimes* b : touched) {
      if (b != nullptr) start = std::max(start, b->gate);
    }
    double dur = 0, latency = 0;
    Cost(call, dur, latency);
    double end = start + dur;
    if (gm) std::tie(start, end) = port_.Reserve(start, dur);
    dur = end - start;  // the pipe is held while the transfer's bursts are spread out
    const double done = end + latency;
    pipe_free_[p] = end;
    pipe_done_[p] = std::max(pipe_done_[p], done);
    if (gm) gm_bytes_ += call.bytes;
    if (call.pipe == Pipe::kS) issue_ = done;
    for (BufferTimes* b : touched) {
      if (b != nullptr) {
        b->touch_end = std::max(b->touch_end, done);
        b->pipes |= 1u << p;
      }
    }
    busy_[p] += dur;
    finish_ = std::max(finish_, done);
    TimelineEvent e;
    e.block = block_;
    e.core = core_;
    e.wave = wave_;
    e.pipe = call.pipe;
    e.call_index = index;
    e.start_us = start;
    e.dur_us = dur;
    e.latency_us = latency;
    events.push_back(e);
  }

  const SocProfile& soc_;
  const trace::CoreTrace& trace_;
  uint32_t block_, core_, wave_;
  double gm_bytes_per_us_;
  FlagBoard* board_;
  int slot_;
  size_t next_ = 0;
  double issue_ = 0;   // the scalar unit has issued everything before this time
  PortCalendar port_;  // this core's slice of GM bandwidth
  double finish_ = 0;
  uint64_t gm_bytes_ = 0;
  std::array<double, kPipes> pipe_free_;  // the pipe can start its next call
  std::array<double, kPipes> pipe_done_;  // the pipe's calls so far have completed (+latency)
  std::array<double, kPipes> busy_;
  std::unordered_map<uint32_t, BufferTimes> buffers_;
  std::unordered_map<uint32_t, std::deque<double>> flags_;
};

}  // namespace

LaunchEstimate EstimateLaunch(const LaunchRecord& record) {
  const SocProfile& soc = record.soc != nullptr ? *record.soc : CurrentSoc();
  LaunchEstimate est;
  est.kernel = record.kernel;
  est.block_dim = record.block_dim;
  est.soc = soc.name;
  est.launch_overhead_us = soc.launch_overhead_us;
  est.wall_us = record.wall_us;
  est.failed = record.failed;
  est.traces = record.traces;
  for (Pipe p : kShownPipes) est.pipes[trace::PipeName(p)] = 0;

  static const std::vector<trace::CoreTrace> kNoTraces;
  const std::vector<trace::CoreTrace>& traces = record.traces ? *record.traces : kNoTraces;

  // Blocks: the traces of one block_idx (a mix block records its AIC and each AIV).
  struct Group {
    uint32_t first, count;
  };
  std::vector<Group> groups;
  bool has_aic = false, has_aiv = false;
  for (uint32_t i = 0; i < traces.size(); ++i) {
    has_aic = has_aic || traces[i].unit == 1;
    has_aiv = has_aiv || traces[i].unit == 2;
    if (!groups.empty() && traces[groups.back().first].block_idx == traces[i].block_idx) {
      ++groups.back().count;
    } else {
      groups.push_back({i, 1});
    }
  }
  const bool mix = has_aic && has_aiv;
  const int core_count = has_aic && soc.cube_cores > 0 ? soc.cube_cores : soc.vector_cores;
  const uint32_t cores = static_cast<uint32_t>(std::max(1, core_count));
  const uint32_t blocks = static_cast<uint32_t>(groups.size());
  est.waves = (std::max<uint32_t>(blocks, 1) + cores - 1) / cores;

  // Critical busy time per resource, summed over waves, for the bound.
  double gm_time = 0, vector_time = 0, scalar_time = 0, cube_time = 0;
  double wave_start = 0;
  for (uint32_t wave = 0; wave * cores < blocks; ++wave) {
    const uint32_t first_group = wave * cores;
    const uint32_t active = std::min(cores, blocks - first_group);
    const uint32_t first = groups[first_group].first;
    const uint32_t end_trace =
        groups[first_group + active - 1].first + groups[first_group + active - 1].count;
    const double share = soc.gm_bandwidth_gbps * 1e3 / (end_trace - first);  // bytes/us per core
    std::vector<FlagBoard> boards(mix ? active : 0);
    std::vector<CoreReplay> replays;
    replays.reserve(end_trace - first);
    for (uint32_t gi = 0; gi < active; ++gi) {
      const Group& g = groups[first_group + gi];
      if (mix) boards[gi].aivs = g.count - 1;
      for (uint32_t t = g.first; t < g.first + g.count; ++t) {
        // Timeline rows: AI cores / AICs by their index in the wave, AIVs after the AICs.
        const uint32_t core =
            traces[t].unit == 2 && mix ? cores + gi * (g.count - 1) + traces[t].sub_block : gi;
        replays.emplace_back(soc, traces[t], t, core, wave, share, mix ? &boards[gi] : nullptr);
      }
    }
    std::vector<TimelineEvent> wave_events;
    // Every sub-core runs until it ends, reaches a SyncAll (all resume together at the latest
    // arrival) or waits for a cross-core flag not yet set (it resumes once a partner moved).
    std::vector<Stop> state(replays.size(), Stop::kBlocked);
    for (;;) {
      bool progressed = false, all_ended = true, at_barrier = false;
      for (size_t i = 0; i < replays.size(); ++i) {
        if (state[i] == Stop::kEnd) continue;
        if (state[i] != Stop::kSyncAll) {
          const size_t before = replays[i].progress();
          state[i] = replays[i].RunSegment(wave_events);
          progressed = progressed || replays[i].progress() != before;
        }
        all_ended = all_ended && state[i] == Stop::kEnd;
        at_barrier = at_barrier || state[i] == Stop::kSyncAll;
      }
      if (all_ended) break;
      if (progressed) continue;
      if (!at_barrier) break;  // every sub-core waits for another: the run itself faulted
      double release = 0;
      for (const CoreReplay& r : replays) release = std::max(release, r.Finish());
      for (size_t i = 0; i < replays.size(); ++i) {
        replays[i].Release(release);
        if (state[i] == Stop::kSyncAll) state[i] = Stop::kBlocked;
      }
    }
    double wave_len = 0, wave_v = 0, wave_s = 0, wave_m = 0;
    uint64_t wave_gm = 0;
    for (const CoreReplay& r : replays) {
      wave_len = std::max(wave_len, r.finish());
      wave_v = std::max(wave_v, r.busy(Pipe::kV));
      wave_s = std::max(wave_s, r.busy(Pipe::kS));
      wave_m = std::max(wave_m, r.busy(Pipe::kM));
      wave_gm += r.gm_bytes();
    }
    for (size_t i = 0; i < replays.size(); ++i) {
      const CoreReplay& r = replays[i];
      CoreEstimate c;
      c.block = first + static_cast<uint32_t>(i);
      c.core = r.core();
      c.wave = wave;
      c.end_us = wave_start + r.finish();
      for (Pipe p : kShownPipes) {
        const std::string name = trace::PipeName(p);
        c.busy_us[name] = r.busy(p);
        c.utilisation[name] = wave_len > 0 ? r.busy(p) / wave_len : 0;
        est.pipes[name] += r.busy(p);
      }
      est.cores.push_back(std::move(c));
    }
    for (TimelineEvent& e : wave_events) e.start_us += wave_start;
    est.events.insert(est.events.end(), wave_events.begin(), wave_events.end());
    gm_time += static_cast<double>(wave_gm) / (soc.gm_bandwidth_gbps * 1e3);
    vector_time += wave_v;
    scalar_time += wave_s;
    cube_time += wave_m;
    est.gm_bytes += wave_gm;
    wave_start += wave_len;
  }
  est.estimated_us = wave_start;

  // The bound: the resource busiest over the kernel's time; when none is busy for at least half
  // of it, the time goes to waiting (DMA latency, dependencies): "latency".
  const double t = est.estimated_us > 0 ? est.estimated_us : 1;
  struct Candidate {
    const char* name;
    double share;
  } candidates[] = {{"GM bandwidth", gm_time / t},
                    {"vector", vector_time / t},
                    {"scalar", scalar_time / t},
                    {"cube", cube_time / t}};
  const Candidate* best = &candidates[0];
  for (const Candidate& c : candidates) {
    if (c.share > best->share) best = &c;
  }
  est.bound = best->share >= 0.5 ? best->name : "latency";
  return est;
}

}  // namespace ascsim
