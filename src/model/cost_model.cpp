// The replay: each block's calls, in program order, go onto its core's in-order pipes; the GM
// transfers of all the cores of a wave go through one shared memory system, in time order.
//
// Costs (all figures from the launch's SocProfile; docs/calibration.md says where each comes
// from and which published measurements it reproduces):
//   - vector op: vector_head_cycles + repeats x beats. A repeat is 256 B of each operand (8 blocks
//     of 32 B); it takes one beat unless its blocks collide in the UB banks (asc-devkit
//     "避免bank冲突 (NPU架构版本2201)": 48 banks of 4 KB in 16 groups; the group of an address is
//     bits 8..5, the bank within the group bits 17..16; one row per bank group per beat for the
//     reads and one for the writes; the delayed write of the previous repeat costs a beat more
//     when every beat of the repeat reads its bank). Exp/Ln/Sqrt/Div and sort run at
//     vector_complex_per_cycle, Gather one block per cycle, casts and reductions at 256 B per
//     cycle, all plus the head.
//     The head is the instruction's latency, not issue time: the pipe issues the next vector
//     instruction once this one's repeats have gone in, and the result is usable the head later
//     (a reduction's head is vector_reduce_head_cycles: asc-devkit's low-latency-instruction
//     guide puts a reduction's latency at 2-5x an Add's). A vector instruction that reads a
//     buffer an earlier vector instruction writes waits for that result; PipeBarrier<PIPE_V>
//     waits for every result. The pipe is busy while any of its instructions is in flight.
//   - GM transfer (MTE2 GM->local, MTE3 local->GM): no fixed set-up on the pipe except a cube
//     ND2NZ copy's miss head (below); its bytes flow at up to the engine rate
//     (mte2/mte3_core_gbps; L2 hits at mte2_l2_hit_core_gbps, a cube ND2NZ copy's hit rows after
//     cube_hit_row_ns each; Fixpipe into GM at
//     fix_elements_per_cycle) through the memory system of the wave: HBM (gm_bandwidth_gbps, with
//     hbm_run_overhead_bytes lost per copy and hbm_row_overhead_bytes per further row of a
//     vector-side copy) carries L2 misses and write-backs; a cube ND2NZ copy's misses wait
//     cube_miss_head_us (by its miss fraction) on MTE2 before they flow at cube_miss_core_gbps;
//     the port (port_bandwidth_gbps) carries every transfer but the bytes L2 serves, which L2
//     reads at l2_read_gbps (all of them share it). All are shared, fluidly, by the
//     transfers in flight at each moment, whichever cores issued them: an idle core takes no
//     share. The data is usable dma_latency_us after the last byte. The pipe is busy from the
//     moment the transfer could start until its last byte (waiting for bandwidth is busy time,
//     as msprof counts it).
//   - L2 (l2_bytes): a read of a 512 B line touched within the last l2_bytes of allocations hits
//     (port only); a miss fills the whole line from HBM. L2 is looked up when a transfer starts,
//     in the order the data moves across the cores. SetL2CacheHint(CACHE_MODE_DISABLE) reads
//     neither allocate nor count, and fetch only their own bytes. A read row that starts inside a
//     512 B line and runs past it fetches that head line from HBM in full, even if L2 holds it.
//     Bypassed reads starting in the line another bypassed read in flight starts in are served
//     in turn: together at same_address_gbps. When the launch's cacheable
//     traffic exceeds L2, the cacheable writes evict dirty lines, as many as the excess (at most
//     all of them): those cost HBM as well ("设置合理的L2 CacheMode").
//   - scalar GetValue/SetValue: scalar_ub_cycles or scalar_gm_cycles on pipe S; the scalar unit
//     issues every call, so nothing after a scalar access is issued before it completes.
//   - the Matmul API's own scalar work (ScalarWorkCall): its tiling set-up per object and address
//     work per base block run on pipe S beside the other pipes; a mix kernel's message from an
//     AIV client holds the AIC's issue until the server has taken it (matmul_*_scalar_cycles).
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
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <queue>
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
constexpr double kInf = std::numeric_limits<double>::infinity();

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

// A GM copy (MTE2 in, MTE3 out, or Fixpipe into GM): the transfers that go through the memory
// system.
bool IsGmTransfer(const ApiCall& call) {
  if (call.kind != CallKind::kCopy) return false;
  if (call.cube_path == trace::CubePath::kNone)
    return call.pipe == Pipe::kMte2 || call.pipe == Pipe::kMte3;
  return call.cube_path == trace::CubePath::kL0cOut && call.on_gm;
}

// ---- UB banks (arch 2201) ----

// Beats one repeat of a vector instruction takes: its reads and writes land on
// 16 bank groups, one row per group per beat each way (asc-devkit bank_conflict_ub README: a
// read-read conflict is two reads in one bank group, a write-write conflict two writes in one
// group, a read-write conflict a read and a write in one bank). The hardware delays a repeat's
// writes by one repeat (the README's scenario 4), so the write that meets this repeat's reads is
// the previous repeat's. It costs a beat more only if every beat of the repeat reads its bank in
// its group: when a read-read conflict already spreads the reads over two beats, the write takes
// the beat in which its bank is free. That is what the README's scenarios 3 and 5 measure:
// scenario 5 (one-beat reads, the delayed write in src0's bank) costs 1.57x, scenario 3 (two-beat
// reads, the delayed write in src1's bank) 1.74x, the same as the read-read conflict of scenario 2.
// `call.ub_addr`: byte offsets of dst, src0, src1 (kNoUbAddr: absent). A repeat's eight blocks
// of each operand lie where its block and repeat strides put them (ApiCall::ub_block_stride,
// ub_repeat_stride; contiguous by default): a mask/repeat instruction whose block stride sends
// several blocks of one repeat to one bank group waits a beat for each (asc-devkit
// bank_conflict_nd2nz README: a Copy whose eight written blocks lie 144 blocks apart, all in
// bank group 0, takes 8 beats a repeat; 145 apart, one; "避免bank冲突（NPU架构版本2201）"
// tables 2 and 4: blocks 16 apart take 8 beats, 8 apart 4). Blocks of one operand at the same
// address (block stride 0, a broadcast) are one row, read or written once. Contiguous operands
// repeat their pattern every two repeats, so two are evaluated; strided ones over 16 repeats (a
// repeat stride of one block, as the ND2NZ scatter uses, walks the 16 groups), averaged.
double BeatsPerRepeat(const ApiCall& call) {
  const uint32_t* ub = call.ub_addr;
  if (ub[0] == trace::kNoUbAddr && ub[1] == trace::kNoUbAddr) return 1;
  const auto bank = [](uint64_t a) {
    return static_cast<int>(((a >> 16) % 3) * 16 + ((a >> 5) & 15));
  };
  // Byte address of block b of repeat r of operand k.
  const auto at = [&](int k, int r, int b) {
    return uint64_t{ub[k]} + uint64_t(r) * call.ub_repeat_stride[k] * 32 +
           uint64_t(b) * call.ub_block_stride[k] * 32;
  };
  // The blocks of a repeat that are distinct rows: with block stride 0 all eight are one.
  const auto blocks = [&](int k) { return call.ub_block_stride[k] == 0 ? 1 : 8; };
  bool strided = false;
  for (int k = 0; k < 3; ++k) {
    strided |= call.ub_block_stride[k] != 1 || call.ub_repeat_stride[k] != 8;
  }
  const int evaluated = strided ? 16 : 2;
  double beats_total = 0;
  for (int r = 1; r <= evaluated; ++r) {
    int reads[16] = {}, writes[16] = {};
    int bank_reads[48] = {};  // reads of this repeat per bank
    for (int k = 1; k <= 2; ++k) {
      if (ub[k] == trace::kNoUbAddr) continue;
      for (int b = 0; b < blocks(k); ++b) {
        const uint64_t a = at(k, r, b);
        ++reads[(a >> 5) & 15];
        ++bank_reads[bank(a)];
      }
    }
    if (ub[0] != trace::kNoUbAddr) {
      for (int b = 0; b < blocks(0); ++b) ++writes[(at(0, r, b) >> 5) & 15];
    }
    int beats = 1;
    for (int g = 0; g < 16; ++g) beats = std::max({beats, reads[g], writes[g]});
    bool rw = false;
    if (ub[0] != trace::kNoUbAddr) {
      for (int b = 0; b < blocks(0); ++b) {
        // The previous repeat's write, delayed into this repeat.
        if (bank_reads[bank(at(0, r - 1, b))] >= beats) rw = true;
      }
    }
    beats_total += beats + (rw ? 1 : 0);
  }
  return beats_total / evaluated;
}

// ---- L2 ----

// Which 512 B lines were touched recently, by the allocation count at their last touch (a
// stack-distance estimate of LRU: a line is still cached if fewer than l2_bytes were allocated
// since). Lines are kept in 4 KB groups (one table entry: a stamp and which of its eight lines
// are present), which keeps the table and the look-ups eight times smaller; open addressing.
class L2Lines {
 public:
  static constexpr uint64_t kLine = 512;
  explicit L2Lines(uint64_t capacity) : capacity_(capacity) {}

  // A read of [addr, addr + bytes): returns the bytes that hit; allocates the misses unless
  // `bypass`, adding the bytes of the lines it fills to `*filled`.
  uint64_t Read(uint64_t addr, uint64_t bytes, bool bypass, uint64_t* filled) {
    uint64_t hit = 0;
    ForGroups(addr, bytes, [&](uint64_t group, uint64_t lo, uint64_t hi) {
      const uint8_t range = Range(lo, hi);
      Entry* e = Find(group, !bypass);
      const bool recent = e != nullptr && e->stamp != 0 && clock_ + 1 - e->stamp <= capacity_;
      const uint8_t present = recent ? static_cast<uint8_t>(e->lines & range) : 0;
      for (uint64_t line = lo / kLine; present != 0 && line <= (hi - 1) / kLine; ++line) {
        if (present & (1u << line)) {
          hit += std::min(hi, (line + 1) * kLine) - std::max(lo, line * kLine);
        }
      }
      if (bypass || e == nullptr) return;
      *filled += Allocate(e, range, recent);
    });
    return hit;
  }
  // A read of [addr, addr + bytes) that L2 does not serve even where it holds the lines (the
  // head of a row that starts off a line boundary, below): allocates the lines unless `bypass`;
  // returns the bytes of the whole lines, which HBM delivers.
  uint64_t Refetch(uint64_t addr, uint64_t bytes, bool bypass) {
    uint64_t lines = 0;
    ForGroups(addr, bytes, [&](uint64_t group, uint64_t lo, uint64_t hi) {
      const uint8_t range = Range(lo, hi);
      lines += kLine * static_cast<uint64_t>(__builtin_popcount(range));
      if (bypass) return;
      Entry* e = Find(group, true);
      Allocate(e, range, e->stamp != 0 && clock_ + 1 - e->stamp <= capacity_);
    });
    return lines;
  }
  void Write(uint64_t addr, uint64_t bytes) {
    ForGroups(addr, bytes, [&](uint64_t group, uint64_t lo, uint64_t hi) {
      Entry* e = Find(group, true);
      Allocate(e, Range(lo, hi), e->stamp != 0 && clock_ + 1 - e->stamp <= capacity_);
    });
  }

 private:
  static constexpr uint64_t kGroup = 4096;
  struct Entry {
    uint64_t key = ~uint64_t{0};
    uint64_t stamp = 0;
    uint8_t lines = 0;
  };
  // Makes `range` of group `e` present (its other lines only if `recent`): the lines it fills
  // advance the allocation clock; returns their bytes.
  uint64_t Allocate(Entry* e, uint8_t range, bool recent) {
    if (!recent) e->lines = 0;
    const uint64_t fill =
        kLine * static_cast<uint64_t>(__builtin_popcount(range & ~e->lines & 0xFF));
    clock_ += fill;
    e->lines |= range;
    e->stamp = clock_ + 1;
    return fill;
  }
  // The lines of a group that [lo, hi) (offsets in the group) touches.
  static uint8_t Range(uint64_t lo, uint64_t hi) {
    const unsigned first = static_cast<unsigned>(lo / kLine),
                   last = static_cast<unsigned>((hi - 1) / kLine);
    return static_cast<uint8_t>(((1u << (last + 1)) - 1) & ~((1u << first) - 1));
  }
  template <class F>
  void ForGroups(uint64_t addr, uint64_t bytes, F&& f) {
    if (bytes == 0) return;
    const uint64_t first = addr / kGroup, last = (addr + bytes - 1) / kGroup;
    for (uint64_t g = first; g <= last; ++g) {
      const uint64_t lo = std::max(addr, g * kGroup) - g * kGroup;
      const uint64_t hi = std::min(addr + bytes, (g + 1) * kGroup) - g * kGroup;
      f(g, lo, hi);
    }
  }
  Entry* Find(uint64_t key, bool insert) {
    if (table_.empty()) {
      if (!insert) return nullptr;
      table_.resize(1 << 14);
    }
    size_t mask = table_.size() - 1;
    size_t i = (key * 0x9E3779B97F4A7C15ull) >> 20 & mask;
    while (table_[i].key != kEmpty) {
      if (table_[i].key == key) return &table_[i];
      i = (i + 1) & mask;
    }
    if (!insert) return nullptr;
    if ((used_ + 1) * 2 > table_.size()) {
      Grow();
      return Find(key, true);
    }
    table_[i].key = key;
    ++used_;
    return &table_[i];
  }
  void Grow() {
    std::vector<Entry> table(table_.size() * 2);
    const size_t mask = table.size() - 1;
    for (const Entry& e : table_) {
      if (e.key == kEmpty) continue;
      size_t i = (e.key * 0x9E3779B97F4A7C15ull) >> 20 & mask;
      while (table[i].key != kEmpty) i = (i + 1) & mask;
      table[i] = e;
    }
    table_.swap(table);
  }
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  uint64_t capacity_;
  uint64_t clock_ = 0;  // bytes allocated so far
  size_t used_ = 0;
  std::vector<Entry> table_;
};

// ---- Times that may wait for transfers in flight ----

// The GM pipes, whose transfers run in the wave's memory system: MTE2, MTE3, FIX (into GM).
int GmSlot(Pipe p) { return p == Pipe::kMte2 ? 0 : p == Pipe::kMte3 ? 1 : 2; }

// A time that may depend on transfers still in flight: the latest of `t` and the end of the
// transfer in each GM pipe slot (encoded flow id * 2 + 1 when the DMA latency is added; -1:
// none). A core's transfers on one pipe end in the order they were issued, so the latest one
// stands for all of that pipe.
struct When {
  double t = 0;
  int64_t flow[3] = {-1, -1, -1};
  When() = default;
  explicit When(double time) : t(time) {}
  static When Of(Pipe pipe, int64_t id, bool latency) {
    When w;
    w.flow[GmSlot(pipe)] = id * 2 + (latency ? 1 : 0);
    return w;
  }
  bool pending() const { return flow[0] >= 0 || flow[1] >= 0 || flow[2] >= 0; }
};
When Later(const When& a, const When& b) {
  When w(std::max(a.t, b.t));
  for (int k = 0; k < 3; ++k) w.flow[k] = std::max(a.flow[k], b.flow[k]);
  return w;
}

// ---- The memory system of a wave ----

// One GM transfer.
struct Flow {
  int core = -1;
  uint32_t call_index = 0;
  const ApiCall* call = nullptr;  // its record (the traces outlive the replay)
  When ready;              // when it may start
  double left = 0;         // bytes still to move
  double cap = kInf;       // its engine's rate, bytes/us
  double hbm = 0;          // HBM bytes per byte moved (misses with run overhead; write-back 1)
  bool port = true;        // uses the L2 / interconnect port
  double hbm_weight = 1;   // share of contended HBM against others' weights
  double port_weight = 1;  // share of the contended port
  double port_share = 1;   // port bytes per byte moved (a read's L2 hits: none, with l2_read_gbps)
  double l2_share = 0;     // L2-read bytes per byte moved (a read's hit fraction)
  double rate = 0;         // bytes/us now
  double head = 0;         // start-up before its bytes flow (the pipe is busy meanwhile)
  double start = 0, end = 0;
  bool started = false;
  bool done = false;
  uint64_t first_line = 0;  // a bypassed read: 1 + the 512 B line of its first byte (0: none)
  bool in_turn = false;     // another bypassed read in flight starts in that line too, now
};

// HBM and the port shared by every transfer in flight, fairly (weighted max-min: each transfer
// gets an equal share unless its engine or the other resource holds it below), from event to
// event: a transfer starting or ending changes every other's rate. Cores that move nothing take
// no share.
class MemorySystem {
 public:
  MemorySystem(const SocProfile& soc, L2Lines* l2, double write_back, TransferStats* stats)
      : soc_(soc),
        l2_(l2),
        write_back_(write_back),
        stats_(stats),
        hbm_(soc.gm_bandwidth_gbps * 1e3),
        port_(soc.port_bandwidth_gbps > 0 ? soc.port_bandwidth_gbps * 1e3 : kInf),
        l2_read_(soc.l2_read_gbps * 1e3),
        same_address_(soc.same_address_gbps * 1e3) {}
  void Reserve(size_t flows) { flows_.reserve(flows); }

  // Registers core `core`'s transfer `call`, to start at `ready`; returns its id. What L2 holds
  // is looked up when the transfer starts (Begin), not here: a core's replay runs ahead of its
  // transfers (a kernel without syncs between its copies registers all of them at once), and L2
  // sees the cores' accesses in the order the data moves.
  int64_t Add(int core, uint32_t index, const ApiCall& call, const When& ready) {
    Flow f;
    f.core = core;
    f.call_index = index;
    f.call = &call;
    f.ready = ready;
    f.left = static_cast<double>(call.bytes);
    return Push(f);
  }

  const Flow& flow(int64_t id) const { return flows_[static_cast<size_t>(id)]; }

  // Resolves `w` if every transfer it waits for has ended; false otherwise.
  bool Resolve(When& w) const {
    for (int k = 0; k < 3; ++k) {
      if (w.flow[k] < 0) continue;
      const Flow& f = flows_[static_cast<size_t>(w.flow[k] >> 1)];
      if (!f.done) return false;
      w.t = std::max(w.t, f.end + ((w.flow[k] & 1) ? soc_.dma_latency_us : 0.0));
      w.flow[k] = -1;
    }
    return true;
  }

  bool idle() const { return active_.empty() && arrivals_.empty() && waiters_.empty(); }
  double now() const { return now_; }

  // Advances to the next start or end of a transfer; returns the transfers that ended (their
  // ids), empty when nothing is in flight or waiting to start.
  const std::vector<int64_t>& Step() {
    ended_before_.swap(ended_);
    ended_.clear();
    Unblock();
    if (active_.empty()) {
      if (arrivals_.empty()) return ended_;
      now_ = std::max(now_, arrivals_.top().first);
    }
    Activate();
    Rates();
    double next = arrivals_.empty() ? kInf : arrivals_.top().first;
    for (int64_t id : active_) {
      const Flow& f = flows_[static_cast<size_t>(id)];
      if (f.rate > 0) next = std::min(next, now_ + f.left / f.rate);
    }
    if (next == kInf) next = now_;  // no progress possible: cannot happen with capacities > 0
    const double dt = next - now_;
    size_t kept = 0;
    for (int64_t id : active_) {
      Flow& f = flows_[static_cast<size_t>(id)];
      const bool ends = f.rate > 0 && now_ + f.left / f.rate <= next + 1e-12 * std::max(1.0, next);
      if (f.in_turn) stats_->same_address_bytes += std::min(f.left, f.rate * dt);
      f.left -= f.rate * dt;
      if (ends) {
        f.left = 0;
        f.done = true;
        f.end = next;
        ended_.push_back(id);
        if (f.first_line != 0 && --readers_[f.first_line] == 0) readers_.erase(f.first_line);
      } else {
        active_[kept++] = id;
      }
    }
    active_.resize(kept);
    now_ = next;
    return ended_;
  }

 private:
  // A transfer starts: L2 is looked up (and, for a write, updated) now, and what depends on the
  // hits is set: its HBM bytes, its shares of the port and L2, its engine rate and start-up.
  void Begin(Flow& f) {
    const ApiCall& call = *f.call;
    const double bytes = static_cast<double>(call.bytes);
    const bool read = call.pipe == Pipe::kMte2;
    double hit_fraction = 0;
    // HBM loses hbm_run_overhead_bytes once per copy instruction and, for a vector-side copy,
    // hbm_row_overhead_bytes per row after the first. The first is calibrated on the Add versions
    // (8 KB against 32 KB copies, one row each), the second on the data_copy README's sc.8 (rows
    // of 128 B with L2 bypassed: the one published pattern where nothing but the rows' own bytes
    // and the per-row loss reach HBM). The cube's GM -> L1 copies (ND2NZ, on_gm)
    // lose it once per instruction, however many rows they gather: the published Norm-template
    // Matmul (B read once from HBM as 64 rows of 512 B per copy, 75.64 us of aic_mte2_time)
    // leaves no room for a loss per row (docs/calibration.md).
    const bool cube_gather = read && call.on_gm;
    const uint64_t extra_rows = cube_gather ? 0 : std::max<uint64_t>(1, call.gm_rows) - 1;
    const double run_overhead =
        soc_.hbm_run_overhead_bytes + soc_.hbm_row_overhead_bytes * static_cast<double>(extra_rows);
    if (read) {
      ++stats_->mte2_transfers;
      stats_->mte2_bytes += call.bytes;
      const bool bypass = call.l2_mode == trace::L2Mode::kDisable;
      if (bypass) stats_->bypass_bytes += call.bytes;
      if (bypass && call.gm_addr != 0 && same_address_ > 0) {
        f.first_line = 1 + call.gm_addr / L2Lines::kLine;
      }
      uint64_t filled = 0, head_extra = 0;
      const uint64_t hit = call.gm_addr != 0 ? ReadLines(call, bypass, &filled, &head_extra) : 0;
      stats_->l2_hit_bytes += hit;
      const double miss = bytes - static_cast<double>(hit);
      if (bytes > 0) hit_fraction = static_cast<double>(hit) / bytes;
      // A miss fills whole 512 B lines of L2 from HBM (the rest of a line serves later reads as
      // hits); a read that bypasses L2 fetches its own bytes only.
      const double fetched = bypass || call.gm_addr == 0 ? miss + static_cast<double>(head_extra)
                                                         : static_cast<double>(filled);
      if (miss > 0 && bytes > 0) f.hbm = (fetched + run_overhead * (miss / bytes)) / bytes;
      f.port_weight = soc_.mte2_port_weight > 0 ? soc_.mte2_port_weight : 1;
      // The bytes L2 serves are read at L2's own bandwidth, not through the port the misses and
      // the writes share (held-out set N, CFG_MDL cases: 3.4 TB/s of L2 hits in all, where the
      // port's 2.2 TB/s made them 18-43% slow; docs/calibration.md).
      if (l2_read_ > 0) {
        f.port_share = 1 - hit_fraction;
        f.l2_share = hit_fraction;
      }
    } else {
      ++stats_->mte3_transfers;
      stats_->mte3_bytes += call.bytes;
      const bool cached = call.l2_mode != trace::L2Mode::kDisable;
      if (cached && call.gm_addr != 0) WriteLines(call);
      // A write lands in L2. When it pushes a dirty line out (write_back_: the share of the
      // launch's cacheable writes that do, WriteBackShare) or bypasses L2, HBM carries it too,
      // while it is written: the line it replaces leaves first. HBM serves those write-backs
      // ahead of reads.
      const double share = cached ? write_back_ : 1.0;
      if (share > 0) {
        f.hbm = share * (bytes + run_overhead) / std::max(1.0, bytes);
        f.hbm_weight = soc_.write_back_hbm_weight > 0 ? soc_.write_back_hbm_weight : 1;
        stats_->write_back_bytes += static_cast<uint64_t>(share * static_cast<double>(call.bytes));
      }
    }
    stats_->hbm_busy_us += f.hbm * bytes / hbm_;
    if (port_ < kInf) stats_->port_busy_us += f.port_share * bytes / port_;
    // Fixpipe into GM is not MTE3: it drains L0C at its own rate (fix_elements_per_cycle of the
    // destination type), far above one MTE3 engine. The published pure-Cube Matmul (M=128,
    // N=30720, K=64 on 24 AICs: 11.21 us in all, 655 KB of float C per AIC) needs more than
    // 80 GB/s per AIC, where MTE3's 51.3 GB/s would take 12.8 us for C alone
    // (docs/calibration.md, "Matmul").
    double engine = (read ? soc_.mte2_core_gbps : soc_.mte3_core_gbps) * 1e3;
    // The cube's ND2NZ copies: the bytes L2 misses stream at cube_miss_core_gbps after a
    // start-up of cube_miss_head_us (scaled by the miss fraction), fitted on the published MDL
    // document's pair (CFG_NORM: 160 copies per AIC, 75.64 us of aic_mte2_time; CFG_MDL: 40
    // copies of four times the size, 46.24 us): 120 copies fewer save 29.4 us, 0.245 us each,
    // i.e. 0.49 us per miss-only copy (B; A hits L2); the rest is bytes (docs/calibration.md).
    if (cube_gather && soc_.cube_miss_core_gbps > 0) engine = soc_.cube_miss_core_gbps * 1e3;
    if (cube_gather) f.head = soc_.cube_miss_head_us * (1 - hit_fraction);
    // The rows L2 serves cost the ND2NZ engine cube_hit_row_ns each before their bytes flow,
    // fitted on the published tiling-strategy Matmul (base 64/64/256: 2452 us of aic_mte2_time,
    // 128/256/64: 808 us, CFG_MDL with CANN's L1 factors: 591 us; the same bytes in 2.4x fewer
    // rows), where a cost per copy fits none of the three (docs/calibration.md, "Matmul").
    if (cube_gather) {
      const double rows = static_cast<double>(std::max<uint32_t>(1, call.gm_rows));
      f.head += soc_.cube_hit_row_ns * 1e-3 * rows * hit_fraction;
    }
    // L2 hits stream at the engine's hit rate (mte2_l2_hit_core_gbps), misses at
    // mte2_core_gbps: a read's cap is their byte-weighted harmonic mix.
    if (read && hit_fraction > 0 && soc_.mte2_l2_hit_core_gbps > 0 && engine > 0) {
      engine =
          1.0 / (hit_fraction / (soc_.mte2_l2_hit_core_gbps * 1e3) + (1 - hit_fraction) / engine);
    }
    if (call.cube_path == trace::CubePath::kL0cOut && call.elements > 0) {
      engine = soc_.fix_elements_per_cycle * bytes / static_cast<double>(call.elements) *
               soc_.clock_ghz * 1e3;
    }
    f.cap = engine > 0 ? engine : kInf;
  }


  int64_t Push(const Flow& f) {
    const int64_t id = static_cast<int64_t>(flows_.size());
    flows_.push_back(f);
    Flow& g = flows_.back();
    if (g.ready.pending() && !Resolve(g.ready)) {
      Park(id);
    } else {
      arrivals_.push({g.ready.t, id});
    }
    return id;
  }
  // Transfers whose start waited for ones that have now ended: each waits under one transfer it
  // still needs (`waiters_`), and is looked at again when that one ends.
  void Park(int64_t id) {
    const Flow& f = flows_[static_cast<size_t>(id)];
    for (int k = 0; k < 3; ++k) {
      if (f.ready.flow[k] >= 0) {
        waiters_.emplace(f.ready.flow[k] >> 1, id);
        return;
      }
    }
  }
  void Unblock() {
    for (int64_t ended : ended_before_) {
      auto range = waiters_.equal_range(ended);
      std::vector<int64_t> woken;
      for (auto it = range.first; it != range.second; ++it) woken.push_back(it->second);
      waiters_.erase(range.first, range.second);
      for (int64_t id : woken) {
        Flow& f = flows_[static_cast<size_t>(id)];
        if (Resolve(f.ready)) {
          arrivals_.push({f.ready.t, id});
        } else {
          Park(id);
        }
      }
    }
    ended_before_.clear();
  }
  void Activate() {
    while (!arrivals_.empty() && arrivals_.top().first <= now_) {
      const int64_t id = arrivals_.top().second;
      Flow& f = flows_[static_cast<size_t>(id)];
      arrivals_.pop();
      if (!f.started) {
        f.start = now_;  // a transfer registered late starts now (its core was held up)
        f.started = true;
        Begin(f);
        if (f.head > 0) {  // its bytes flow after the start-up
          arrivals_.push({now_ + f.head, id});
          continue;
        }
      }
      if (f.first_line != 0) ++readers_[f.first_line];
      active_.push_back(id);
    }
  }

  // Weighted water-filling of `capacity` over the flows' demands (`demand` per flow, units of
  // the resource); writes each flow's share into `share`.
  struct Claim {
    double demand, weight;
    size_t index;
  };
  void WaterFill(double capacity, std::vector<Claim>& claims, std::vector<double>& share) {
    // Raise a common level (share per unit of weight) until the capacity is used; claims below
    // it get their demand. The claims fall into a few classes, so few rounds are needed.
    double left = capacity, weight = 0;
    for (Claim& c : claims) {
      weight += c.weight;
      share[c.index] = -1;  // not settled
    }
    for (bool settled = true; settled && weight > 0;) {
      settled = false;
      const double level = std::max(0.0, left) / weight;
      for (Claim& c : claims) {
        if (share[c.index] < 0 && c.demand <= c.weight * level) {
          share[c.index] = c.demand;
          left -= c.demand;
          weight -= c.weight;
          settled = true;
        }
      }
    }
    const double level = weight > 0 ? std::max(0.0, left) / weight : 0;
    for (Claim& c : claims) {
      if (share[c.index] < 0) share[c.index] = c.weight * level;
    }
  }
  void Rates() {
    const size_t n = active_.size();
    rate_.assign(n, 0);
    claims_.clear();
    for (size_t i = 0; i < n; ++i) {
      const Flow& f = flows_[static_cast<size_t>(active_[i])];
      rate_[i] = f.cap;
      if (f.hbm > 0) claims_.push_back({f.cap == kInf ? hbm_ : f.cap * f.hbm, f.hbm_weight, i});
    }
    if (!claims_.empty()) {
      share_.assign(n, 0);
      WaterFill(hbm_, claims_, share_);
      for (const Claim& c : claims_) {
        rate_[c.index] = share_[c.index] / flows_[static_cast<size_t>(active_[c.index])].hbm;
      }
    }
    // The port carries each transfer's port_share of its bytes, L2 a read's hit fraction (when
    // it has its own read bandwidth); a transfer moves at the rate both leave it.
    claims_.clear();
    for (size_t i = 0; i < n; ++i) {
      const Flow& f = flows_[static_cast<size_t>(active_[i])];
      if (f.port && f.port_share > 0)
        claims_.push_back({std::min(rate_[i] * f.port_share, port_), f.port_weight, i});
    }
    if (!claims_.empty() && port_ < kInf) {
      share_.assign(n, 0);
      WaterFill(port_, claims_, share_);
      for (const Claim& c : claims_)
        rate_[c.index] = share_[c.index] / flows_[static_cast<size_t>(active_[c.index])].port_share;
    }
    claims_.clear();
    for (size_t i = 0; i < n; ++i) {
      const Flow& f = flows_[static_cast<size_t>(active_[i])];
      if (f.l2_share > 0) claims_.push_back({rate_[i] * f.l2_share, f.port_weight, i});
    }
    if (!claims_.empty() && l2_read_ > 0) {
      share_.assign(n, 0);
      WaterFill(l2_read_, claims_, share_);
      for (const Claim& c : claims_) {
        const double r = share_[c.index] / flows_[static_cast<size_t>(active_[c.index])].l2_share;
        rate_[c.index] = std::min(rate_[c.index], r);
      }
    }
    // Bypassed reads that start in the line another bypassed read in flight starts in (the cores
    // reading the same tile at once) are served in turn: together they get same_address_gbps,
    // whatever HBM and the port leave them.
    // The data_copy README's scenarios where every core reads the same [6144, 512] matrix in the
    // same order with L2 disabled (UB sc.7 on 48 AIVs, L1 sc.6 on 24 AICs) read 0.636 and
    // 0.628 TB/s in all, against 0.98 and 0.72 TB/s with the cores' orders staggered
    // (docs/calibration.md, "Reads of the same lines at once").
    if (same_address_ > 0 && !readers_.empty()) {
      claims_.clear();
      for (size_t i = 0; i < n; ++i) {
        Flow& f = flows_[static_cast<size_t>(active_[i])];
        if (f.first_line == 0) continue;
        auto it = readers_.find(f.first_line);
        f.in_turn = it != readers_.end() && it->second > 1;
        if (f.in_turn) claims_.push_back({rate_[i], 1, i});
      }
      if (!claims_.empty()) {
        share_.assign(n, 0);
        WaterFill(same_address_, claims_, share_);
        for (const Claim& c : claims_) rate_[c.index] = std::min(rate_[c.index], share_[c.index]);
      }
    }
    for (size_t i = 0; i < n; ++i) flows_[static_cast<size_t>(active_[i])].rate = rate_[i];
  }

  // Looks up the rows of a read in L2: returns the bytes that hit, adds the bytes of the lines
  // the misses fill to `*filled` and, for a bypassed read, the bytes HBM delivers for the head
  // lines of its unaligned rows beyond the rows' own to `*head_extra`. A row that starts off a
  // 512 B line boundary and runs on past it has its head line fetched from HBM in full, whether
  // or not L2 holds it: the data_copy README's rows at 2 B alignment (N = 12287 half) take,
  // against the aligned matrix, 1.28x the MTE2 time with 2 KB rows on 48 AIVs and 1.97x with
  // 512 B rows on 24 AICs, i.e. one more line per row (2 KB: 5 lines for 4, 512 B: 2 for 1)
  // while the bytes and their L2 lines are the same ("GM地址尽量512B对齐": 32 B-aligned copies
  // reach ~70% of 512 B-aligned ones). Rows within one line (128 B pieces at 128 B steps) pay
  // nothing more: the README's 128 B tiles cost what their lines do.
  uint64_t ReadLines(const ApiCall& call, bool bypass, uint64_t* filled, uint64_t* head_extra) {
    const uint64_t rows = std::max<uint32_t>(1, call.gm_rows);
    const uint64_t run = rows > 1 ? call.gm_run : call.bytes;
    const uint64_t line = L2Lines::kLine;
    uint64_t hit = 0;
    for (uint64_t r = 0; r < rows; ++r) {
      uint64_t addr = call.gm_addr + r * call.gm_pitch, left = run;
      const uint64_t head = (line - addr % line) % line;
      if (head != 0 && left > head) {
        const uint64_t lines = l2_->Refetch(addr, head, bypass);
        ++stats_->unaligned_rows;
        stats_->unaligned_head_bytes += lines;
        if (bypass) {
          *head_extra += lines - head;
        } else {
          *filled += lines;
        }
        addr += head;
        left -= head;
      }
      hit += l2_->Read(addr, left, bypass, filled);
    }
    return std::min<uint64_t>(hit, call.bytes);
  }
  void WriteLines(const ApiCall& call) {
    const uint64_t rows = std::max<uint32_t>(1, call.gm_rows);
    const uint64_t run = rows > 1 ? call.gm_run : call.bytes;
    for (uint64_t r = 0; r < rows; ++r) l2_->Write(call.gm_addr + r * call.gm_pitch, run);
  }

  const SocProfile& soc_;
  L2Lines* l2_;
  double write_back_;  // share of cacheable writes that push a dirty line out (WriteBackShare)
  TransferStats* stats_;
  double hbm_, port_, l2_read_;  // capacities, bytes/us (l2_read_ 0: hits use the port)
  double same_address_;  // bytes/us for bypassed reads in turn on one line (0: no limit)
  std::unordered_map<uint64_t, int> readers_;  // bypassed reads in flight per first line
  double now_ = 0;
  std::vector<Flow> flows_;
  std::vector<int64_t> active_, ended_, ended_before_;
  std::unordered_multimap<int64_t, int64_t> waiters_;  // transfer -> transfers waiting for it
  using Arrival = std::pair<double, int64_t>;
  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> arrivals_;
  std::vector<double> rate_, share_;
  std::vector<Claim> claims_;
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

enum class Stop { kEnd, kSyncAll, kBlocked, kWait };

struct BufferTimes {
  When gate;                  // ops touching the buffer start no earlier than this
  When touch_end;             // completion of the latest op that touched it
  When enq_ready;             // touch_end at its EnQue
  When free_ready;            // touch_end at its FreeTensor
  uint32_t pipes = 0;         // pipes that touched it since its last queue call (bit per Pipe)
  double vector_written = 0;  // the latest vector instruction writing it has its result then
};

// One block's replay state. It runs ahead of its transfers: a GM transfer is handed to the
// memory system with the time it may start, and the replay goes on until a call needs a time that
// depends on a transfer still in flight (kWait: run it again once one of its transfers ended).
class CoreReplay {
 public:
  // `board`: the cross-core flags of its mix block (null outside mix launches).
  CoreReplay(const SocProfile& soc, const trace::CoreTrace& trace, uint32_t block, uint32_t core,
             uint32_t wave, int index, MemorySystem* memory, FlagBoard* board, TransferStats* stats)
      : soc_(soc),
        trace_(trace),
        block_(block),
        core_(core),
        wave_(wave),
        index_(index),
        memory_(memory),
        board_(board),
        stats_(stats),
        slot_(trace.unit == 2 ? 1 + trace.sub_block : 0) {
    busy_.fill(0);
  }

  // Replays up to and including the next SyncAll (once every transfer before it ended), up to a
  // CrossCoreWaitFlag whose flag no set has posted yet (kBlocked), up to a call that needs a
  // transfer in flight (kWait), or to the end.
  Stop RunSegment(std::vector<TimelineEvent>& events) {
    const auto& calls = trace_.calls;
    while (next_ < calls.size()) {
      const uint32_t index = static_cast<uint32_t>(next_);
      const ApiCall& call = calls[index];
      if (call.kind == CallKind::kCrossCoreWait && board_ != nullptr &&
          board_->posted[slot_][call.event & 15].empty()) {
        return Stop::kBlocked;
      }
      if (call.kind == CallKind::kSyncAll) {
        if (!AllKnown()) return Stop::kWait;
        ++next_;
        return Stop::kSyncAll;
      }
      if (!Step(call, index, events)) return Stop::kWait;
      ++next_;
    }
    return AllKnown() ? Stop::kEnd : Stop::kWait;
  }
  size_t progress() const { return next_; }

  // A transfer of this core ended: its pipe time and timeline event.
  void Ended(const Flow& f, std::vector<TimelineEvent>& events) {
    const ApiCall& call = trace_.calls[f.call_index];
    double end = f.end;
    if (call.cube_path == trace::CubePath::kL0cOut)  // FIX drains at its own rate too
      end = std::max(
          end, f.start + Cycles(static_cast<double>(call.elements) / soc_.fix_elements_per_cycle));
    busy_[Idx(call.pipe)] += end - f.start;
    finish_ = std::max(finish_, end + soc_.dma_latency_us);
    TimelineEvent e;
    e.block = block_;
    e.core = core_;
    e.wave = wave_;
    e.pipe = call.pipe;
    e.call_index = f.call_index;
    e.start_us = f.start;
    e.dur_us = end - f.start;
    e.latency_us = soc_.dma_latency_us;
    events.push_back(e);
  }

  // The time every pipe of this core is idle (every transfer has ended: AllKnown()).
  double Finish() {
    double t = std::max(issue_, finish_);
    for (size_t p = 0; p < kPipes; ++p) {
      memory_->Resolve(pipe_free_[p]);
      memory_->Resolve(pipe_done_[p]);
      t = std::max({t, pipe_free_[p].t, pipe_done_[p].t});
    }
    return t;
  }
  // Resumes after a SyncAll released at `t`.
  void Release(double t) {
    issue_ = std::max(issue_, t);
    for (size_t p = 0; p < kPipes; ++p) pipe_free_[p] = Later(pipe_free_[p], When(t));
  }

  double finish() const { return finish_; }
  uint32_t core() const { return core_; }
  double busy(Pipe p) const { return busy_[Idx(p)]; }

 private:
  double Cycles(double cycles) const { return cycles / (soc_.clock_ghz * 1e3); }

  bool AllKnown() {
    for (size_t p = 0; p < kPipes; ++p) {
      if (!memory_->Resolve(pipe_free_[p]) || !memory_->Resolve(pipe_done_[p])) return false;
    }
    return true;
  }

  // Time a non-GM call holds its pipe, and the latency before its result is usable.
  void Cost(const ApiCall& call, double& dur, double& latency) {
    latency = 0;
    const double elem = std::max<double>(1, call.dtype_bytes);
    const double head = soc_.vector_head_cycles;
    switch (call.kind) {
      case CallKind::kVector: {
        // Gather reads one 32 B block per cycle (its indexed loads do not use the full vector
        // width); the sort/merge instructions run at the complex-op rate. Both are estimates: the
        // profile table has no measured figure for them.
        const double n = static_cast<double>(call.elements);
        double cycles;
        if (call.vector_class == trace::VectorClass::kTranscendental ||
            call.vector_class == trace::VectorClass::kSort) {
          cycles = n / soc_.vector_complex_per_cycle;
        } else if (call.vector_class == trace::VectorClass::kGather) {
          cycles = n / (32.0 / elem);
        } else {
          const double repeats = std::ceil(n * elem / soc_.vector_bytes_per_cycle);
          const double beats =
              call.vector_class == trace::VectorClass::kSimple ? BeatsPerRepeat(call) : 1;
          cycles = repeats * beats;
          stats_->vector_conflict_us += Cycles(repeats * (beats - 1));
        }
        // A reduction into one value per repeat (WholeReduce*, RepeatReduceSum, ReduceSum/Max/
        // Min) waits vector_reduce_head_cycles for its result; a block reduction (BlockReduce*,
        // ReduceDataBlock: 8 or 16 elements per result) keeps the ordinary head, as the guide
        // names it faster than ReduceRepeat without a figure.
        const bool repeat_reduce = call.vector_class == trace::VectorClass::kReduce &&
                                   std::strncmp(call.name, "Block", 5) != 0;
        const double lat = repeat_reduce && soc_.vector_reduce_head_cycles > 0
                               ? soc_.vector_reduce_head_cycles
                               : head;
        stats_->vector_head_us += Cycles(lat);
        dur = Cycles(std::max(1.0, cycles));
        latency = Cycles(lat);
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
          case trace::CubePath::kL0cOut:  // into a local memory (into GM: the memory system)
            dur = Cycles(static_cast<double>(call.elements) / soc_.fix_elements_per_cycle);
            return;
          case trace::CubePath::kLocal:  // between local memories of one core
            dur = Cycles(static_cast<double>(call.bytes) / soc_.vector_bytes_per_cycle);
            return;
          case trace::CubePath::kNone:
            break;
        }
        // UB->UB on the vector pipe
        dur = Cycles(std::max(
            1.0, std::ceil(static_cast<double>(call.bytes) / soc_.vector_bytes_per_cycle)));
        latency = Cycles(head);
        return;
      case CallKind::kMmad:
        dur = Cycles(soc_.mmad_head_cycles +
                     static_cast<double>(call.elements) / CubeMacsPerCycle(call.dtype_bytes));
        return;
      case CallKind::kScalar:
        if (call.work_cycles > 0) {
          dur = Cycles(call.work_cycles);
          return;
        }
        dur = Cycles(call.on_gm ? soc_.scalar_gm_cycles : soc_.scalar_ub_cycles);
        return;
      default:
        dur = 0;
        return;
    }
  }

  BufferTimes* Buffer(uint32_t id) { return id == trace::kNoBuffer ? nullptr : &buffers_[id]; }

  // The earliest start of a call: its pipe is free, it is issued, its buffers are ready.
  When StartTime(const ApiCall& call) {
    When start = Later(When(issue_), pipe_free_[Idx(call.pipe)]);
    for (uint32_t id : {call.dst_buffer, call.src_buffers[0], call.src_buffers[1]}) {
      if (BufferTimes* b = Buffer(id)) start = Later(start, b->gate);
    }
    return start;
  }

  // One call; false (nothing done) when it needs a transfer still in flight.
  bool Step(const ApiCall& call, uint32_t index, std::vector<TimelineEvent>& events) {
    switch (call.kind) {
      case CallKind::kVector:
      case CallKind::kCopy:
      case CallKind::kScalar:
      case CallKind::kMmad:
        return Execute(call, index, events);
      case CallKind::kCrossCoreSet: {
        if (board_ == nullptr) return true;
        const size_t src = Idx(call.wait_src);
        When t = Later(Later(When(issue_), pipe_free_[src]), pipe_done_[src]);
        if (!memory_->Resolve(t)) return false;
        board_->Set(slot_, static_cast<int>(call.event >> 8), static_cast<int>(call.event & 15),
                    t.t);
        return true;
      }
      case CallKind::kCrossCoreWait: {
        if (board_ == nullptr) return true;
        auto& posted = board_->posted[slot_][call.event & 15];
        const double t = posted.front();
        posted.pop_front();
        Release(t);  // A2: the wait holds back every pipe of this sub-core
        return true;
      }
      case CallKind::kAllocTensor:
        if (BufferTimes* b = Buffer(call.dst_buffer)) b->gate = Later(b->gate, b->free_ready);
        return true;
      case CallKind::kEnQue:
        if (BufferTimes* b = Buffer(call.dst_buffer)) b->enq_ready = QueueFlagTime(*b);
        return true;
      case CallKind::kDeQue:
        if (BufferTimes* b = Buffer(call.dst_buffer)) b->gate = Later(b->gate, b->enq_ready);
        return true;
      case CallKind::kFreeTensor:
        if (BufferTimes* b = Buffer(call.dst_buffer)) b->free_ready = QueueFlagTime(*b);
        return true;
      case CallKind::kSetFlag: {
        const size_t src = Idx(call.wait_src);
        flags_[call.event].push_back(Later(Later(When(issue_), pipe_free_[src]), pipe_done_[src]));
        return true;
      }
      case CallKind::kWaitFlag: {
        auto& pending = flags_[call.event];
        When t;
        if (!pending.empty()) t = pending.front();
        if (call.wait_dst == Pipe::kS && !memory_->Resolve(t)) return false;
        if (!pending.empty()) pending.pop_front();
        const size_t dst = Idx(call.wait_dst);
        pipe_free_[dst] = Later(pipe_free_[dst], t);
        if (call.wait_dst == Pipe::kS) issue_ = std::max(issue_, t.t);
        return true;
      }
      case CallKind::kPipeBarrier:
        if (call.pipe == Pipe::kNone) {  // PIPE_ALL
          if (!AllKnown()) return false;
          Release(Finish());
        } else {
          const size_t p = Idx(call.pipe);
          if (call.pipe == Pipe::kS) {
            When done = pipe_done_[p];
            if (!memory_->Resolve(done)) return false;
            issue_ = std::max(issue_, done.t);
          }
          pipe_free_[p] = Later(pipe_free_[p], pipe_done_[p]);
        }
        return true;
      case CallKind::kSyncAll:
        return true;
    }
    return true;
  }

  // EnQue and FreeTensor set a hardware flag in the stream of the pipes that used the buffer, so
  // it fires when everything those pipes were given so far has completed, not only the calls on
  // this buffer (e.g. FreeTensor of an input after a whole Compute releases it after the last
  // vector op of that Compute).
  When QueueFlagTime(BufferTimes& b) {
    When t = b.touch_end;
    for (size_t p = 0; p < kPipes; ++p) {
      if (b.pipes & (1u << p)) t = Later(t, pipe_done_[p]);
    }
    b.pipes = 0;
    return t;
  }

  bool Execute(const ApiCall& call, uint32_t index, std::vector<TimelineEvent>& events) {
    const size_t p = Idx(call.pipe);
    BufferTimes* touched[3] = {Buffer(call.dst_buffer), Buffer(call.src_buffers[0]),
                               Buffer(call.src_buffers[1])};
    When start = StartTime(call);
    When free, done;
    if (IsGmTransfer(call)) {
      // Handed to the memory system; its end is known once it has moved its bytes.
      const int64_t id = memory_->Add(index_, index, call, start);
      free = When::Of(call.pipe, id, false);
      done = When::Of(call.pipe, id, true);
    } else {
      if (!memory_->Resolve(start)) return false;
      if (call.pipe == Pipe::kV) {  // read after a vector write still in flight
        for (BufferTimes* b : {touched[1], touched[2]}) {
          if (b != nullptr) start.t = std::max(start.t, b->vector_written);
        }
      }
      double dur, latency;
      Cost(call, dur, latency);
      const double end = start.t + dur;
      free = When(end);
      done = When(end + latency);
      // Scalar work that runs beside the other pipes (ScalarWorkCall, not blocking) holds only
      // pipe S; every other scalar call holds the issue of what follows it.
      const bool beside = call.kind == CallKind::kScalar && call.work_cycles > 0 && !call.on_gm;
      if (call.pipe == Pipe::kS && !beside) issue_ = end + latency;
      // Busy while any of the pipe's instructions is in flight (they overlap when pipelined).
      busy_[p] += std::max(0.0, end + latency - std::max(start.t, busy_until_[p]));
      busy_until_[p] = std::max(busy_until_[p], end + latency);
      if (call.pipe == Pipe::kV && touched[0] != nullptr) {
        touched[0]->vector_written = std::max(touched[0]->vector_written, end + latency);
      }
      finish_ = std::max(finish_, end + latency);
      TimelineEvent e;
      e.block = block_;
      e.core = core_;
      e.wave = wave_;
      e.pipe = call.pipe;
      e.call_index = index;
      e.start_us = start.t;
      e.dur_us = end + latency - start.t;  // in flight (a vector instruction's head is its latency)
      e.latency_us = 0;
      events.push_back(e);
    }
    pipe_free_[p] = free;
    pipe_done_[p] = Later(pipe_done_[p], done);
    for (BufferTimes* b : touched) {
      if (b != nullptr) {
        b->touch_end = Later(b->touch_end, done);
        b->pipes |= 1u << p;
      }
    }
    return true;
  }

  const SocProfile& soc_;
  const trace::CoreTrace& trace_;
  uint32_t block_, core_, wave_;
  int index_;  // in the wave
  MemorySystem* memory_;
  FlagBoard* board_;
  TransferStats* stats_;
  int slot_;
  size_t next_ = 0;
  double issue_ = 0;  // the scalar unit has issued everything before this time
  double finish_ = 0;
  std::array<When, kPipes> pipe_free_;  // the pipe can start its next call
  std::array<When, kPipes> pipe_done_;  // the pipe's calls so far have completed (+latency)
  std::array<double, kPipes> busy_;
  std::array<double, kPipes> busy_until_{};  // the pipe's last instruction so far is done then
  std::unordered_map<uint32_t, BufferTimes> buffers_;
  std::unordered_map<uint32_t, std::deque<When>> flags_;
};

// The share of the launch's cacheable writes that push a dirty line out of L2 while it runs.
// The launch's cacheable traffic beyond L2's capacity has to leave L2; the model takes what
// leaves to be written lines, as far as the launch writes that much: every cacheable write
// when the excess is at least the written bytes (the Add versions: 384 MB through 192 MB of L2,
// 128 MB written, where every write pays its write-back, docs/calibration.md), excess / written
// when the excess is less (held-out set Q: 256 MB through L2, 128 MB written: half), none when
// the traffic fits.
// `exceeds`: whether the cacheable traffic exceeds L2 at all (TransferStats::l2_thrashing).
double WriteBackShare(const std::vector<trace::CoreTrace>& traces, uint64_t l2_bytes,
                      bool* exceeds) {
  uint64_t cacheable = 0, written = 0;
  for (const trace::CoreTrace& t : traces) {
    for (const ApiCall& c : t.calls) {
      if (!IsGmTransfer(c) || c.l2_mode == trace::L2Mode::kDisable) continue;
      cacheable += c.bytes;
      if (c.pipe != Pipe::kMte2) written += c.bytes;
    }
  }
  *exceeds = cacheable > l2_bytes;
  if (cacheable <= l2_bytes || written == 0) return 0;
  return std::min(1.0, static_cast<double>(cacheable - l2_bytes) / static_cast<double>(written));
}

}  // namespace

LaunchEstimate EstimateLaunch(const LaunchRecord& record) {
  // Launches always record their SoC; a record made by hand without one is estimated for the
  // default profile, not the process's current one, so that the estimate stays a function of the
  // record alone (and the model never reads the runtime's settings).
  const SocProfile& soc = record.soc != nullptr ? *record.soc : FindSocProfile("Ascend910B1");
  LaunchEstimate est;
  est.kernel = record.kernel;
  est.block_dim = record.block_dim;
  est.soc = soc.name;
  est.clock_ghz = soc.clock_ghz;
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
  const bool cube_launch = has_aic && !has_aiv;
  const int core_count = has_aic && soc.cube_cores > 0 ? soc.cube_cores : soc.vector_cores;
  const uint32_t cores = static_cast<uint32_t>(std::max(1, core_count));
  const uint32_t blocks = static_cast<uint32_t>(groups.size());
  est.waves = (std::max<uint32_t>(blocks, 1) + cores - 1) / cores;

  L2Lines l2(soc.l2_bytes > 0 ? soc.l2_bytes : uint64_t{1} << 62);
  const double write_back =
      soc.l2_bytes > 0 ? WriteBackShare(traces, soc.l2_bytes, &est.memory.l2_thrashing) : 0;

  // Critical busy time per resource, summed over waves, for the bound.
  double vector_time = 0, scalar_time = 0, cube_time = 0, transfer_time = 0;
  double wave_start = 0;
  for (uint32_t wave = 0; wave * cores < blocks; ++wave) {
    const uint32_t first_group = wave * cores;
    const uint32_t active = std::min(cores, blocks - first_group);
    const uint32_t first = groups[first_group].first;
    const uint32_t end_trace =
        groups[first_group + active - 1].first + groups[first_group + active - 1].count;
    MemorySystem memory(soc, &l2, write_back, &est.memory);
    size_t transfers = 0;
    for (uint32_t t = first; t < end_trace; ++t) {
      for (const ApiCall& c : traces[t].calls) transfers += IsGmTransfer(c) ? 1 : 0;
    }
    memory.Reserve(transfers);
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
        replays.emplace_back(soc, traces[t], t, core, wave, static_cast<int>(replays.size()),
                             &memory, mix ? &boards[gi] : nullptr, &est.memory);
        // The task scheduler starts the blocks one after another.
        replays.back().Release(gi * soc.block_dispatch_us);
      }
    }
    std::vector<TimelineEvent> wave_events;
    // Every sub-core runs until it ends, reaches a SyncAll (all resume together at the latest
    // arrival), waits for a cross-core flag not yet set (it resumes once a partner moved) or
    // needs a transfer in flight (it resumes when one of its transfers ends). Between those, the
    // memory system moves the transfers in flight from event to event.
    std::vector<Stop> state(replays.size(), Stop::kWait);
    std::vector<char> runnable(replays.size(), 1);
    for (;;) {
      bool progressed = false;
      for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < replays.size(); ++i) {
          if (!runnable[i] || state[i] == Stop::kEnd || state[i] == Stop::kSyncAll) continue;
          const size_t before = replays[i].progress();
          state[i] = replays[i].RunSegment(wave_events);
          runnable[i] = 0;
          if (replays[i].progress() != before) {
            progressed = true;
            // A cross-core set may unblock the sub-cores waiting for it.
            if (mix) {
              for (size_t j = 0; j < replays.size(); ++j) {
                if (state[j] == Stop::kBlocked && !runnable[j]) {
                  runnable[j] = 1;
                  again = true;
                }
              }
            }
          }
        }
      }
      if (!memory.idle()) {
        for (int64_t id : memory.Step()) {
          const Flow& f = memory.flow(id);
          if (f.core < 0) continue;
          replays[static_cast<size_t>(f.core)].Ended(f, wave_events);
          runnable[static_cast<size_t>(f.core)] = 1;
        }
        continue;
      }
      bool all_ended = true, at_barrier = false;
      for (size_t i = 0; i < replays.size(); ++i) {
        all_ended = all_ended && state[i] == Stop::kEnd;
        at_barrier = at_barrier || state[i] == Stop::kSyncAll;
      }
      if (all_ended) break;
      if (progressed) continue;
      if (!at_barrier) break;  // every sub-core waits for another: the run itself faulted
      double release = 0;
      for (CoreReplay& r : replays) release = std::max(release, r.Finish());
      for (size_t i = 0; i < replays.size(); ++i) {
        replays[i].Release(release);
        if (state[i] == Stop::kSyncAll) {
          state[i] = Stop::kWait;
          runnable[i] = 1;
        }
      }
    }
    double wave_len = 0, wave_v = 0, wave_s = 0, wave_m = 0, wave_t = 0;
    for (const CoreReplay& r : replays) {
      wave_len = std::max(wave_len, r.finish());
      wave_t = std::max({wave_t, r.busy(Pipe::kMte2), r.busy(Pipe::kMte3)});
      wave_v = std::max(wave_v, r.busy(Pipe::kV));
      wave_s = std::max(wave_s, r.busy(Pipe::kS));
      wave_m = std::max(wave_m, r.busy(Pipe::kM));
    }
    for (size_t i = 0; i < replays.size(); ++i) {
      const CoreReplay& r = replays[i];
      CoreEstimate c;
      c.block = first + static_cast<uint32_t>(i);
      c.core = r.core();
      c.wave = wave;
      c.unit = traces[c.block].unit;
      c.cube = c.unit == 1 || cube_launch;
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
    vector_time += wave_v;
    transfer_time += wave_t;
    scalar_time += wave_s;
    cube_time += wave_m;
    wave_start += wave_len;
  }
  est.gm_bytes = est.memory.mte2_bytes + est.memory.mte3_bytes;
  est.estimated_us = wave_start;
  est.task_duration_us = est.estimated_us + (blocks > 0 ? soc.task_overhead_us : 0);

  // The bound: the resource busiest over the kernel's time; when none is busy for at least half
  // of it, the time goes to waiting (DMA latency, dependencies): "latency". GM bandwidth is
  // HBM's or the port's (L2 hits use only the port), or a core's MTE engine moving data nearly
  // all the time (>= 75%: one core cannot fill HBM).
  const double t = est.estimated_us > 0 ? est.estimated_us : 1;
  if (transfer_time < 0.75 * t) transfer_time = 0;
  struct Candidate {
    const char* name;
    double share;
  } candidates[] = {
      {"GM bandwidth",
       std::max({est.memory.hbm_busy_us, est.memory.port_busy_us, transfer_time}) / t},
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
