// The sanitizer of one launch: the cross-core half of the race check. Each block logs the GM
// bytes it read, wrote and accumulated (SetAtomicAdd/Max/Min) per SyncAll epoch; after the
// launch, accesses of two blocks in the same epoch that overlap, with at least one a write and not
// both accumulations of the same kind, are a race unless an IBSet / IBWait chain orders them
// (SyncAll orders everything; IBSet / IBWait order two blocks pairwise, tracked with vector
// clocks: see FlagTransition). The finding is attributed to the higher of the two blocks, at its
// access, and the lowest such (block, call) is reported, so serial and parallel runs report the
// same line.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ascsim/aicore/core_context.h"

namespace ascsim::aicore {

// GM bytes of one kind touched by one block in one SyncAll epoch (the first call that touched
// them names them in messages).
struct GmInterval {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint8_t kind = 0;  // kGmRead, kGmWrite, or kGmAtomic + AtomicOp
  uint8_t pipe = 0;
  uint32_t block = 0;
  // The block's segment: its IBSet / IBWait calls so far (0 in a launch without them).
  uint32_t segment = 0;
  uint64_t call = 0;
  const char* name = nullptr;
  GmRange alloc;
};
enum : uint8_t { kGmRead = 0, kGmWrite = 1, kGmAtomic = 2 };
// The "atomic" code of a write that fills with zeros (InitOutput(..., 0)), after AtomicOp's 1..3:
// such writes commute with each other, like accumulations of one kind.
constexpr uint8_t kGmZeroFillOp = 4;

// GM bytes a block's SetAtomicAdd copies added zero to (`zero`) or a value other than zero, in one
// SyncAll epoch. Adding zero leaves GM as it is whenever it happens, so those bytes take part in
// no race: Ascend's unaligned samples (Ascend/samples operator/ascendc/0_introduction/
// 16_unaligned_abs_kernellaunch, AbsPad) atomically add a 32-byte block whose zero-padded tail
// lies in the neighbour block's slice while the neighbour clears that slice with plain writes.
struct AddendRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint32_t epoch = 0;
  bool zero = false;
};

// What one block touched, per SyncAll epoch.
struct BlockGmLog {
  // Made on first use (a block that touches no GM has none): empty stands for one empty epoch.
  std::vector<std::vector<GmInterval>> epochs;
  // The addends of the block's SetAtomicAdd copies (empty unless it used SetAtomicAdd).
  std::vector<AddendRange> addends;
  // The block's vector clock at the start of each segment after the first (IBSet / IBWait):
  // clocks[s - 1][b] is how many of block b's segments happened before segment s of this block.
  // Empty in a launch without IBSet / IBWait (segment 0 knows nothing of other blocks).
  std::vector<std::vector<uint32_t>> clocks;
  uint32_t segment() const { return static_cast<uint32_t>(clocks.size()); }
  // Whether segment `seg` of block `block` happened before segment `mine` of this block.
  bool After(uint32_t mine, uint32_t block, uint32_t seg) const {
    return mine > 0 && clocks[mine - 1].size() > block && clocks[mine - 1][block] > seg;
  }
  // Appends to the current epoch, extending the last interval when it continues it.
  void Add(const GmInterval& interval);
  // Records that a SetAtomicAdd copy added zero (or not) to GM [begin, end) in this epoch.
  void AddAddend(uint64_t begin, uint64_t end, bool zero);
  void NextEpoch() {
    if (epochs.empty()) epochs.emplace_back();
    epochs.emplace_back();
  }
  // Removes from each epoch's SetAtomicAdd intervals the bytes only zero was added to, then sorts
  // and merges each epoch's intervals of the same kind.
  void Canonicalize();
  // Back to one empty epoch, keeping the capacity.
  void Clear();
};

// One call a block's sanitizer received, as its checks see it (CoreSanitizer "block reuse"):
// local addresses relative to their buffer, GM addresses relative to the first byte the block
// touched in that allocation, which is numbered in the order the block first touched it. 48
// bytes without padding; every field is set. A local operand by footprint (most calls of a vector
// kernel) holds its footprint inline, so it takes no runs: 48 B per call rather than 80, and one
// cache line to compare.
struct SanitizerEvent {
  uint8_t kind = 0;
  uint8_t pipe = 0;   // trace::Pipe (a queue's or flag's source pipe)
  uint8_t aux = 0;    // Access, a destination pipe, a MaskBits mode
  uint8_t aux2 = 0;   // a buffer's address mod 32 (local) or the AtomicOp of a GM write
  uint32_t id = 0;    // BufferSlot::id, a GM allocation's number, a flag or event-id key
  // CoreContext::api_calls when the call came (a block past 2^32 calls is not recorded).
  uint32_t calls = 0;
  uint32_t a = 0;            // a buffer's bytes, an event id, a mask's period
  const void* p1 = nullptr;  // the call's or event's name (string literals, by address)
  const void* p2 = nullptr;  // the operand's role
  // kEvLocalFootprint: the Footprint inline (its first byte relative to the buffer, run, pitch,
  // count; a footprint that does not fit 32 bits is not recorded). Every other kind: its byte
  // runs in SanitizerEvents::runs, from runs_at() on, runs_n() of them.
  uint32_t w[4] = {};
  uint32_t runs_at() const { return w[0]; }
  uint32_t runs_n() const { return w[1]; }
};
static_assert(sizeof(SanitizerEvent) == 48, "SanitizerEvent: 48 bytes, no padding");

// The kinds of SanitizerEvent: the CoreSanitizer calls that feed its checks.
enum SanitizerEventKind : uint8_t {
  kEvLocal = 1,   // runs given
  kEvLocalFootprint,  // the Footprint inline (SanitizerEvent::w)
  kEvScalar,
  kEvGmFootprint,
  kEvMaskBits,
  kEvCarved,
  kEvQueueAlloc,
  kEvQueueEnQue,
  kEvQueueDeQue,
  kEvQueueFree,
  kEvSetFlag,
  kEvWaitFlag,
  kEvPipeBarrier,
  kEvSyncAll,
  kEvPipeDestroyed,
  kEvEventIdAllocated,
  kEvEventIdReleased,
};

// The most memory one reference takes (its calls and runs), and all the references kept across
// launches together (the oldest is forgotten first). A call takes 48 B (and 16 B per byte run
// unless it is a local operand by footprint, as most are): 32 MiB hold ~700k calls. GELU in
// 512-element strips (bench/strip_bench_kernels.cc) on 8 cores takes ~5 MiB per reference at
// 2^24 elements and ~20 MiB at 2^26 (410k calls; a full check of such a block costs ~25 ms).
// The bound is on bytes rather than calls so that it says what a user pays: memory of the order
// of one of the kernel's own device tensors at such sizes (2^24 float16 = 32 MiB), never growing
// with the input beyond it; 128 MiB for every kernel of the process. A longer block is checked
// in full (as every block was before block reuse), at a cost per call that does not grow with
// the block (shadow.h).
constexpr size_t kMaxReferenceBytes = size_t{32} << 20;
constexpr size_t kMaxKeptReferenceBytes = size_t{128} << 20;

// The calls of one block, in order, with the relative byte runs of its operands.
struct SanitizerEvents {
  std::vector<SanitizerEvent> events;
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  void Clear() {
    events.clear();
    runs.clear();
  }
  size_t Bytes() const {
    return events.size() * sizeof(SanitizerEvent) + runs.size() * sizeof(runs[0]);
  }
};

// Blocks that reused a checked block's results (tests and benchmarks read these).
struct BlockReuseStats {
  uint64_t recorded = 0;  // blocks whose calls became a launch's reference
  uint64_t followed = 0;  // blocks whose calls all matched it: local checks skipped
  uint64_t diverged = 0;  // blocks that matched a prefix, then were checked as usual
};
BlockReuseStats GetBlockReuseStats();
enum class BlockReuse { kRecorded, kFollowed, kDiverged };
void CountBlockReuse(BlockReuse what);
// On by default; off, every block runs every check (tests compare the two).
void SetBlockReuse(bool on);

// What a block's calls and their verdicts depend on besides the calls themselves: a reference
// recorded in one launch is offered to the later launches with an equal key. `kernel` is the
// kernel function (null: the launch has no identity, nothing is kept across launches).
struct ReferenceKey {
  const void* kernel = nullptr;
  const void* soc = nullptr;  // its arch picks the queues' pipes
  uint64_t tiling_key = 0;
  uint32_t flags = 0;
  uint32_t layout = 0;  // the launch's sub-core layout (launch.cpp EncodeLayout) and cce_auto_sync
  // Set by Reset: how many shared objects the process had unloaded. A reference names string
  // literals by address, and the checks learn from their text (an operand role's direction);
  // once code may have been unloaded, another kernel's literals may sit at those addresses.
  uint64_t unloads = 0;
  bool operator==(const ReferenceKey& o) const {
    return kernel == o.kernel && soc == o.soc && tiling_key == o.tiling_key && flags == o.flags &&
           layout == o.layout && unloads == o.unloads;
  }
};
// How many kernels' references are kept across launches (bounded: kReferencesKept kernels and
// kMaxKeptReferenceBytes), their bytes, and forgetting them all (tests start from a process with
// none).
size_t ReferencesKept();
size_t ReferenceBytesKept();
void ForgetKeptReferences();

class LaunchSanitizer {
 public:
  LaunchSanitizer(uint32_t flags, uint32_t block_num);
  // Makes this the sanitizer of a new launch. The runtime keeps one per launching thread, so the
  // per-block logs keep their capacity and a small launch allocates nothing here. With a key,
  // the clean reference an earlier launch of the same kernel recorded is offered to this
  // launch's blocks from the start (see reference()).
  void Reset(uint32_t flags, uint32_t block_num, const ReferenceKey& key = {});
  // After every block of the launch has run: keeps the reference this launch published for the
  // next launch with the same key, or forgets the inherited one a block diverged from.
  void EndLaunch(bool completed);
  uint32_t flags() const { return flags_; }
  // The checked cores per block: a mix launch's AIVs (1 otherwise). Core i of the logs is
  // AIV i % n of block i / n.
  void SetSubCores(uint32_t n) { sub_cores_ = n == 0 ? 1 : n; }
  uint32_t sub_cores() const { return sub_cores_; }
  // "block 3/8", or "block 1/4 AIV1" in a mix launch (as WhereAmI names sub-cores).
  std::string CoreName(uint32_t index) const;
  // The other core of a report: "block b" (a mix launch's AIV: as CoreName).
  std::string OtherName(uint32_t index) const;
  // Unique per launch (per Reset), process-wide: what a block's sanitizer learnt about the
  // kernel's string literals (names, operand roles) holds for the other blocks of this launch
  // only, since a later launch may run code loaded at the same addresses.
  uint64_t serial() const { return serial_; }

  // Takes a block's log (any thread, once per block). `log` comes back empty, holding the
  // storage of an earlier launch's log for the block's thread to reuse.
  void AddBlockLog(uint32_t block, BlockGmLog& log);

  struct Finding {
    uint32_t block = 0;
    uint64_t call = 0;
    std::string message;  // "<kernel>: block i/n: race: ..."
  };
  // Block reuse: the first block that claims it records its calls; if its checks found nothing
  // (no fault, no warning), it publishes them, and blocks that start later compare their calls
  // against them instead of checking (CoreSanitizer). Published once per launch, read-only after.
  bool reuse() const { return reuse_; }
  bool ClaimRecording() {
    bool expected = false;
    return reuse_ && !claimed_.load(std::memory_order_relaxed) &&
           claimed_.compare_exchange_strong(expected, true, std::memory_order_acq_rel);
  }
  void AbandonRecording() { claimed_.store(false, std::memory_order_release); }
  // The claimant's buffer (its storage kept from launch to launch); Publish makes it the
  // launch's reference.
  SanitizerEvents* recording() { return &reference_; }
  void Publish();
  // The reference a starting block follows: this launch's, once published; before that, an
  // earlier launch's with the same key (inherited), until a block diverges from it. The checks
  // are a function of the calls (core_sanitizer.h), and each block starts from a fresh state, so
  // a reference checked clean in one launch is as good in the next: with it, the first blocks of
  // a repeated launch (which start before any block of the launch could publish) follow too.
  // The key holds the process's unload count (ReferenceKey::unloads), so the string literals a
  // kept reference names by address are the ones its blocks saw.
  const SanitizerEvents* reference() const {
    if (published_.load(std::memory_order_acquire)) return &reference_;
    return inherited_valid_.load(std::memory_order_acquire) ? inherited_.get() : nullptr;
  }
  // A block's calls differed from `ref`: when that is the inherited reference, later blocks
  // record afresh.
  void Diverged(const SanitizerEvents* ref) {
    if (ref != nullptr && ref == inherited_.get()) {
      inherited_valid_.store(false, std::memory_order_release);
    }
  }

  // A block used IBSet / IBWait: the cross-block check then orders accesses by the blocks'
  // vector clocks as well as by SyncAll epochs.
  void InterBlockFlagsUsed() { inter_block_flags_.store(true, std::memory_order_relaxed); }
  // Happens-before edges of a mix launch's cross-core flags (the caller holds the group's lock
  // and keeps the clocks): Release joins GM log `block`'s clock into `into` and starts its next
  // segment; Acquire starts the next segment with the clock joined with `from` (empty: nothing).
  void Release(uint32_t block, BlockGmLog& log, std::vector<uint32_t>& into);
  void Acquire(const std::vector<uint32_t>& from, uint32_t block, BlockGmLog& log);
  static void Join(std::vector<uint32_t>& into, const std::vector<uint32_t>& from);
  // Block `block` took the IBSet / IBWait flag at `flag` (it found the value it waited for and
  // wrote the other), which it does under the launch's spin lock, so the takes of one flag are in
  // the order the device would see them. Both calls spin on the flag and then write it, so a take
  // acquires and releases: the block's clock joins the flag's (what happened before the flag's
  // previous take), the block starts a new segment, and the flag keeps the new clock. The
  // protocol alternates IBSet (0 -> 1) and IBWait (1 -> 0), so an IBWait is ordered after the
  // IBSet it waited for, and the next IBSet of the flag after that IBWait.
  void FlagTransition(const void* flag, uint32_t block, BlockGmLog& log);

  // After every block has finished: the cross-block race to report, if any.
  std::optional<Finding> FindCrossBlockRace(const std::string& kernel) const;

 private:
  // Whether two blocks' intervals of some epoch overlap with at least one of them not a read:
  // false proves there is no cross-block race (the exact search runs only when true).
  bool MayConflict() const;
  // The most SyncAll epochs any block that ran has.
  size_t EpochCount() const;
  // The finding for `hit` racing with the lower block's `other`; `unordered` says what would
  // have ordered them.
  Finding RaceFinding(const std::string& kernel, const GmInterval& hit, const GmInterval& other,
                      const std::string& unordered) const;
  // The exact search of a launch that used IBSet / IBWait: every overlapping conflicting pair of
  // one epoch whose segments no clock orders.
  std::optional<Finding> FindUnorderedRace(const std::string& kernel) const;

  uint32_t flags_;
  uint32_t block_num_;
  uint32_t sub_cores_ = 1;
  uint64_t serial_ = 0;
  mutable std::mutex mu_;
  std::vector<BlockGmLog> logs_;  // by block (at least block_num_ entries)
  std::vector<uint8_t> ran_;      // by block: 1 once the block handed its log over
  struct Extent {
    uint64_t begin, end;
    uint32_t block;
    bool read;
  };
  mutable std::vector<Extent> extents_;  // MayConflict's scratch
  bool reuse_ = true;
  std::atomic<bool> claimed_{false};
  std::atomic<bool> published_{false};
  std::atomic<bool> inter_block_flags_{false};
  std::mutex flags_mu_;  // FlagTransition's (called under the launch's spin lock)
  std::map<const void*, std::vector<uint32_t>> flag_clocks_;
  SanitizerEvents reference_;  // written once before published_, read-only after
  ReferenceKey key_;
  std::shared_ptr<const SanitizerEvents> inherited_;  // set by Reset, read-only during the launch
  std::atomic<bool> inherited_valid_{false};  // false once a block diverged from it
};

// "MTE2", "V", ...: the pipe of an access by index (PipeIndex).
const char* PipeNameOf(int pipe);

}  // namespace ascsim::aicore
