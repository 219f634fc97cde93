// The sanitizer of one block (ASCSIM_SANITIZE=race,init,sync): happens-before between the pipes
// of one AI core, checked online at every operand access, so a finding fails the call that races.
//
// Model (docs: "核内同步能力概述", "关键特性说明", PipeBarrier, SetFlag/WaitFlag, TQueBind in
// asc-devkit; kernel_tquebind_impl.h / kernel_event.h GetQueEvt for the queue events):
//  - Each pipe (S, V, MTE1, MTE2, MTE3, M, FIX) runs its instructions in order. S, V, M, MTE1 and
//    FIX finish them in order too (the hardware orders scalar accesses; bisheng inserts the
//    PipeBarrier<PIPE_V> between dependent vector instructions). Copies on MTE2 or MTE3 may
//    overlap in flight: two of them touching the same bytes need PipeBarrier<PIPE_MTE2/MTE3>.
//  - SetFlag<X_Y>(id) waits for every earlier X instruction (so it orders X's own earlier and
//    later instructions too); the WaitFlag<X_Y>(id) that consumes it holds back every later Y
//    instruction. A queue is the same pair of events per buffer:
//    EnQue/DeQue use the queue's forward event (VECIN: MTE2_V, VECOUT: V_MTE3, VECIN->VECOUT:
//    MTE2_MTE3), FreeTensor and the buffer's next AllocTensor the reverse one.
//  - PipeBarrier<PIPE_X> waits for every earlier X instruction before later X ones;
//    PipeBarrier<PIPE_ALL>, SyncAll (which starts with one) and TPipe::Destroy order everything.
//  - Scalar accesses: bisheng's --cce-auto-sync (the default of kernel projects) inserts the
//    S<->V/MTE2/MTE3 flags where a scalar access depends on another pipe. With `race` alone the
//    sanitizer does the same (an S dependency adds the flag the compiler would); with `race,sync`
//    (and `all`) they must be in the source, as they must without auto-sync.
//
// Vector clocks count sync epochs rather than instructions: a pipe's epoch closes whenever its
// progress is exported (SetFlag, EnQue, FreeTensor, a barrier), so accesses between two exports
// are indistinguishable to every other pipe and share one shadow segment. Everything is O(1)
// per call plus the shadow segments an access overlaps.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "aicore/sanitizer/launch_sanitizer.h"
#include "aicore/sanitizer/shadow.h"
#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/sanitizer_hooks.h"
#include "ascsim/aicore/types.h"
#include "ascsim/trace.h"

namespace ascsim::aicore {

// Per pipe: the epochs of every pipe known to have finished before its next instruction starts.
using Clock = std::array<uint32_t, kPipeCount>;

// The flag keys of Mutex::Unlock -> Mutex::Lock orderings (sync.cpp), above every SetFlag key: an
// Unlock no Lock waits for is no finding (Lock.md needs none).
constexpr uint32_t kMutexKeyBase = 0x10000;

// The events a queue between two positions sets and waits (kernel_event.h GetQueEvt): EnQue sets
// `src`->`dst`, DeQue waits for it; FreeTensor sets `dst`->`src`, the next AllocTensor waits.
struct QueuePipes {
  trace::Pipe src = trace::Pipe::kNone;
  trace::Pipe dst = trace::Pipe::kNone;
};
QueuePipes QueueEventPipes(AscendC::TPosition src, AscendC::TPosition dst, int arch);
constexpr size_t kQueuePositions = static_cast<size_t>(AscendC::TPosition::MAX) + 1;
// QueueEventPipes of every pair of positions for `arch` ([src * kQueuePositions + dst]), built
// once per architecture of the SoC profiles; null for an architecture no profile has.
const QueuePipes* QueueEventPipesTable(int arch);

// The runs of `footprint` from `first`, ascending and merged (sanitizer_hooks.cpp).
void FootprintRuns(uint64_t first, const Footprint& footprint,
                   std::vector<std::pair<uint64_t, uint64_t>>& runs);

class CoreSanitizer {
 public:
  CoreSanitizer(CoreContext& core, LaunchSanitizer& launch);
  ~CoreSanitizer();
  // A block's sanitizer in memory kept per thread: blocks after the first allocate none.
  static CoreSanitizer* Create(CoreContext& core, LaunchSanitizer& launch);
  static void Destroy(CoreSanitizer* sanitizer);
  CoreSanitizer(const CoreSanitizer&) = delete;
  CoreSanitizer& operator=(const CoreSanitizer&) = delete;

  bool race() const { return (flags_ & kRace) != 0; }
  bool init() const { return (flags_ & kInit) != 0; }
  bool sync() const { return (flags_ & kSync) != 0; }

  // ---- operand accesses ----
  // `runs` are [begin, end) host-address ranges of one operand, ascending.
  void Local(trace::Pipe pipe, Access access, const BufferSlot* slot,
             const std::vector<std::pair<uint64_t, uint64_t>>& runs, const char* call,
             const char* role);
  // The same for the bytes of `footprint` from `first` (FootprintRuns).
  void LocalFootprint(trace::Pipe pipe, Access access, const BufferSlot* slot, const void* first,
                      const Footprint& footprint, const char* call, const char* role) {
    if (mode_ == Mode::kFollow) {
      const SanitizerEvent* r = Expect(kEvLocalFootprint);
      if (r != nullptr && r->p1 == call && r->p2 == role && r->pipe == static_cast<uint8_t>(pipe) &&
          r->aux == static_cast<uint8_t>(access)) {
        if (r->w[0] == reinterpret_cast<uint64_t>(first) - reinterpret_cast<uint64_t>(slot->addr) &&
            r->w[1] == footprint.run && r->w[2] == footprint.pitch &&
            r->w[3] == footprint.count && SameSlot(*r, *slot)) {
          ++next_;
          return;
        }
      }
    }
    LocalFootprintCall(pipe, access, slot, first, footprint, call, role);
  }
  // A SetAtomicAdd copy added zero (`zero`) or other values to GM [begin, end) (empty: none).
  void GmAddend(uint64_t begin, uint64_t end, bool zero) { gm_log_.AddAddend(begin, end, zero); }
  void Gm(trace::Pipe pipe, Access access, const GmRange& alloc, const void* first,
          const Footprint& footprint, const char* call);
  void Scalar(Access access, const BufferSlot* slot, uint64_t begin, uint64_t end,
              const char* call);
  // The current instruction's bit-mask mapping (sanitizer_hooks.h SanitizeMaskBits).
  void MaskBitsOp(MaskBits mode, uint32_t elem_bytes, uint32_t period) {
    if (mode_ != Mode::kCheck) {
      SanitizerEvent ev;
      ev.kind = kEvMaskBits;
      ev.aux = static_cast<uint8_t>(mode);
      ev.id = elem_bytes;
      ev.calls = core_.api_calls;
      ev.a = period;
      if (Step(ev)) return;
    }
    mask_mode_ = mode;
    mask_elem_ = elem_bytes;
    mask_period_ = period;
  }
  // Scratch space for hooks that build runs (reused, no allocation per call).
  std::vector<std::pair<uint64_t, uint64_t>>& runs_scratch() { return runs_; }

  // ---- buffers and ordering ----
  // InitBuffer: the buffer's bytes are fresh.
  void Carved(const BufferSlot& slot) {
    if (!Followed(kEvCarved, slot, QueuePipes{})) SlotCall(kEvCarved, slot, QueuePipes{});
  }
  // QueueEventPipes for this launch's architecture: every queue operation asks, so the table is
  // looked up once per block rather than per call.
  QueuePipes EventPipes(AscendC::TPosition src, AscendC::TPosition dst) const {
    const auto i = static_cast<size_t>(src), j = static_cast<size_t>(dst);
    if (pipes_table_ != nullptr && i < kQueuePositions && j < kQueuePositions) {
      return pipes_table_[i * kQueuePositions + j];
    }
    return QueueEventPipes(src, dst, arch_);
  }
  // AllocTensor waits for FreeTensor's event; the buffer's bytes are fresh again.
  void QueueAlloc(const BufferSlot& slot, QueuePipes pipes) {
    if (!Followed(kEvQueueAlloc, slot, pipes)) SlotCall(kEvQueueAlloc, slot, pipes);
  }
  void QueueEnQue(const BufferSlot& slot, QueuePipes pipes) {
    if (!Followed(kEvQueueEnQue, slot, pipes)) SlotCall(kEvQueueEnQue, slot, pipes);
  }
  void QueueDeQue(const BufferSlot& slot, QueuePipes pipes) {
    if (!Followed(kEvQueueDeQue, slot, pipes)) SlotCall(kEvQueueDeQue, slot, pipes);
  }
  void QueueFree(const BufferSlot& slot, QueuePipes pipes) {
    if (!Followed(kEvQueueFree, slot, pipes)) SlotCall(kEvQueueFree, slot, pipes);
  }
  void SetFlag(uint32_t key, const char* event_name, int32_t id, trace::Pipe src, trace::Pipe dst);
  void WaitFlag(uint32_t key, trace::Pipe src, trace::Pipe dst);
  void PipeBarrier(trace::Pipe pipe, const char* what);  // kNone: PIPE_ALL
  void SyncAll();
  void CrossCoreRound();  // a mode-0 CrossCoreWaitFlag returned: a new GM epoch, no pipe barrier
  // IBSet / IBWait took their flag at `flag`: a new GM segment, ordered after the flag's previous
  // take (LaunchSanitizer::FlagTransition).
  // This core's GM log in the launch: its block, or in a mix launch block x AIVs + its AIV.
  uint32_t LogIndex() const {
    const uint32_t subs = launch_.sub_cores();
    return core_.block_idx * subs + (subs > 1 ? core_.sub_block_idx : 0);
  }
  void InterBlockFlagTaken(const void* flag) {
    launch_.FlagTransition(flag, LogIndex(), gm_log_);
  }
  // A CrossCoreSetFlag (mode 1 / 2) of this AIV: its GM accesses so far happen before whatever
  // consumes the set; joins its clock into `into` and starts a new GM segment.
  void CrossCoreRelease(std::vector<uint32_t>& into) {
    launch_.Release(LogIndex(), gm_log_, into);
  }
  // A CrossCoreWaitFlag (mode 1 / 2) of this AIV consumed a set: its accesses from here on happen
  // after everything `from` holds.
  void CrossCoreAcquire(const std::vector<uint32_t>& from) {
    launch_.Acquire(from, LogIndex(), gm_log_);
  }
  void PipeDestroyed();   // TPipe::Reset/Destroy: PipeBarrier<PIPE_ALL> first, as the device does
  void EventIdAllocated(const char* event_name, uint32_t key, int32_t id);
  void EventIdReleased(const char* event_name, uint32_t key, int32_t id);

  // End of the block's kernel: pending flags and event ids, redundant barriers (sync).
  void FinishBlock();
  // Hands the block's GM log to the launch for the cross-block check (once; also on a fault).
  void HandOver();

 private:
  enum : uint32_t { kRace = 1, kInit = 2, kSync = 4 };  // = ascsim::kSanitizeRace/Init/Sync
  using Runs = std::vector<std::pair<uint64_t, uint64_t>>;

  // ---- block reuse ----
  // The checks are a function of the calls they receive: with the same calls (local addresses
  // relative to their buffer, GM addresses relative to where the block started in each
  // allocation, the same call numbers, names and roles) from the same fresh state, a block's
  // checks reach the same verdicts as another's. The launch's first block to claim it records
  // its calls (kRecord); when its checks found nothing, the launch's later blocks compare their
  // calls with that record instead of checking (kFollow), keeping only their GM log for the
  // cross-block check. At the first call that differs, the calls matched so far are replayed
  // through the checks (the record translated by this block's buffers and GM bases: the state a
  // full check would have), and the block is checked as usual from there (kCheck).
  enum class Mode : uint8_t { kCheck, kRecord, kFollow };
  using Run = std::pair<uint64_t, uint64_t>;
  // kRecord: appends the call (its runs relative to `base`). `consistent` false: the call's
  // buffer moved since this block first used its id; the record is dropped.
  void Record(SanitizerEvent& ev, const Run* runs, uint32_t n, uint64_t base, bool consistent);
  // kFollow: true when `ev` is the reference's next call (then it is passed); else the block
  // diverges (Diverge) and the call is checked.
  bool Follow(const SanitizerEvent& ev, const Run* runs, uint32_t n, uint64_t base);
  // Either of the two for a call with no runs (false in kRecord: check it too).
  bool Step(SanitizerEvent& ev);
  // Step for AllocEventID / ReleaseEventID (`kind`); false in kCheck.
  bool StepEventId(uint8_t kind, const char* event_name, uint32_t key, int32_t id);
  // kFollow: true when the reference's next call is this buffer call (then it is passed).
  [[gnu::always_inline]] bool Followed(uint8_t kind, const BufferSlot& slot, QueuePipes pipes) {
    if (mode_ != Mode::kFollow) return false;
    const SanitizerEvent* r = Expect(kind);
    if (r == nullptr || r->pipe != static_cast<uint8_t>(pipes.src) ||
        r->aux != static_cast<uint8_t>(pipes.dst) || !SameSlot(*r, slot)) {
      return false;
    }
    ++next_;
    return true;
  }
  // A buffer call not passed: diverges (kFollow) or records (kRecord), then checks it.
  void SlotCall(uint8_t kind, const BufferSlot& slot, QueuePipes pipes);
  void LocalFootprintCall(trace::Pipe pipe, Access access, const BufferSlot* slot,
                          const void* first, const Footprint& footprint, const char* call,
                          const char* role);
  static uint8_t Low5(const void* p) {
    return static_cast<uint8_t>(reinterpret_cast<uintptr_t>(p) & 31);
  }
  // kFollow: the reference's next call when it is a `kind` call at this call number.
  [[gnu::always_inline]] const SanitizerEvent* Expect(uint8_t kind) const {
    const SanitizerEvent* r = next_;
    return r != end_ && r->kind == kind && r->calls == core_.api_calls ? r : nullptr;
  }
  // A buffer call of the reference matches `slot` (the runs aside).
  [[gnu::always_inline]] bool SameSlot(const SanitizerEvent& r, const BufferSlot& slot) {
    return r.id == slot.id && r.a == slot.bytes && r.aux2 == Low5(slot.addr) && Seen(slot);
  }
  // Whether this block used the buffer's id with the same address and size before; on first use
  // a copy is kept (SeeSlot: replay names it in messages, the original may be gone by then).
  [[gnu::always_inline]] bool Seen(const BufferSlot& slot) {
    if (slot.id < seen_.size() && seen_[slot.id].generation == seen_generation_) {
      return seen_[slot.id].copy.addr == slot.addr && seen_[slot.id].copy.bytes == slot.bytes;
    }
    return SeeSlot(slot);
  }
  bool SeeSlot(const BufferSlot& slot);
  // The allocation's number in this block and the GM address its relative runs start from.
  uint32_t SeeGm(const GmRange& alloc, uint64_t first, uint64_t* base);
  // kFollow -> kCheck: replays the matched calls through the checks.
  void Diverge();
  void StopRecording();
  // A passed GM call's bytes in the block's GM log, as GmChecked logs them.
  void LogGmRun(trace::Pipe pipe, bool read, bool write, uint8_t atomic, const GmRange& alloc,
                uint64_t begin, uint64_t end, const char* call);

  // The checks themselves (the public calls above record or compare first).
  void LocalChecked(trace::Pipe pipe, Access access, const BufferSlot* slot, const Runs& runs,
                    const char* call, const char* role);
  void GmChecked(trace::Pipe pipe, bool read, bool write, uint8_t atomic, const GmRange& alloc,
                 const Runs& runs, const char* call, bool log);
  void ScalarChecked(Access access, const BufferSlot* slot, uint64_t begin, uint64_t end,
                     const char* call);
  void CarvedChecked(const BufferSlot& slot);
  void QueueAllocChecked(const BufferSlot& slot, QueuePipes pipes);
  void QueueEnQueChecked(const BufferSlot& slot, QueuePipes pipes);
  void QueueDeQueChecked(const BufferSlot& slot, QueuePipes pipes);
  void QueueFreeChecked(const BufferSlot& slot, QueuePipes pipes);
  void SetFlagChecked(uint32_t key, const char* event_name, int32_t id, trace::Pipe src);
  void WaitFlagChecked(uint32_t key, trace::Pipe dst);
  void PipeBarrierChecked(trace::Pipe pipe, const char* what);
  void EventIdAllocatedChecked(const char* event_name, uint32_t key, int32_t id);
  void EventIdReleasedChecked(const char* event_name, uint32_t key, int32_t id);
  void FinishBlockChecked();

  struct SeenSlot {
    BufferSlot copy;
    uint64_t generation = 0;  // the block (seen_generation_) that saw it; other: not seen
  };
  struct SeenGm {
    GmRange range;
    uint64_t base = 0;
  };
  Mode mode_ = Mode::kCheck;
  bool clean_ = true;      // no check of this block reported anything (a reference must be)
  bool finished_ = false;  // kFollow reached FinishBlock with every call matched
  const SanitizerEvents* ref_ = nullptr;
  // kFollow: the reference's calls, the next one to match, and its runs.
  const SanitizerEvent* first_ = nullptr;
  const SanitizerEvent* next_ = nullptr;
  const SanitizerEvent* end_ = nullptr;
  const Run* ref_runs_ = nullptr;
  SanitizerEvents* record_ = nullptr;  // kRecord: the launch's (LaunchSanitizer::recording)
  std::vector<SeenSlot> seen_;         // by BufferSlot::id
  uint64_t seen_generation_ = 0;
  std::vector<SeenGm> seen_gm_;    // by the order of first touch
  Runs replay_runs_;

  struct Op {
    uint64_t call = 0;
    trace::Pipe pipe = trace::Pipe::kNone;
    uint32_t epoch = 0;
    const char* name = nullptr;
  };
  struct PendingWrite {
    Shadow* shadow;
    uint64_t begin, end;
    AccessRef ref;
    bool local;
    uint64_t logical, total;  // where [begin, end) lies in its operand's bytes, and their count
  };
  // Bytes [begin, end) of a read operand of `total` bytes (in operand order) that were undefined:
  // the current op's writes get them at the same place of their own operand (scaled when the
  // sizes differ, everything when the write is a reduction of the read).
  struct UndefinedRead {
    uint64_t begin, end, total;
    bool bits = false;  // of a "selMask" operand: bit i picks element i (MaskBits)
  };
  struct SlotInfo {
    Shadow shadow;
    const BufferSlot* slot = nullptr;
    uint64_t fresh_call = 0;  // 0: since InitBuffer; else the AllocTensor call that handed it out
    bool has_enque = false, has_free = false;
    Clock enque{}, free{};
  };
  struct PendingFlag {
    Clock token{};
    uint64_t call = 0;
    const char* event = nullptr;
    int32_t id = 0;
  };
  // A barrier, for the redundant-barrier warnings: which pipes it orders, the epochs it closed,
  // the clocks before it, and whether a later access relied on it.
  struct Barrier {
    int pipe = -1;  // -1: every pipe (PIPE_ALL, SyncAll, TPipe::Destroy)
    uint64_t call = 0;
    const char* what = nullptr;
    Clock closed_at{};
    std::array<Clock, kPipeCount> before{};
    bool needed = false;
    bool report = true;  // false for SyncAll / Destroy (not a PipeBarrier the user wrote)
  };

  void BeginOp(trace::Pipe pipe, const char* name, bool scalar);
  // Ends the current op: its writes land in the shadow. Every queue, flag and barrier call ends
  // one, and most find nothing pending: that case stays inline.
  void Flush() {
    if (pending_.empty() && undefined_.empty() && !dead_deferred_) {
      op_live_out_ = false;
      op_writes_gm_ = false;
      mask_mode_ = MaskBits::kNone;
      has_dead_block_ = false;
      return;
    }
    FlushPending();
  }
  void FlushPending();
  Clock Export(int pipe);
  void Import(int pipe, const Clock& token);
  void FullBarrier(const char* what, bool report);
  // True when access `a` finished before the current op starts (may add the flag bisheng's
  // auto-sync would, for scalar dependencies when `sync` is off).
  bool Ordered(const AccessRef& a);
  void NoteOrderedBy(const AccessRef& a);
  SlotInfo& Info(const BufferSlot& slot) {
    if (slot.id >= slots_.size()) return NewInfo(slot);
    SlotInfo& info = slots_[slot.id];
    info.slot = &slot;
    return info;
  }
  SlotInfo& NewInfo(const BufferSlot& slot);
  AccessRef Ref() const;
  uint16_t Intern(const char* name);
  const char* NameOf(const AccessRef& a) const { return names_[a.name]; }
  static uint32_t CallNumber(uint64_t call) {
    return call > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<uint32_t>(call);
  }

  void CheckAndRecord(Shadow& shadow, bool local, bool write, bool read, uint64_t begin,
                      uint64_t end, const char* role, uint8_t atomic, const SlotInfo* info,
                      const GmRange* alloc, uint64_t logical = 0, uint64_t total = 0);
  // An undefined read [begin, end) in state `s`: reported when the bytes decide something,
  // else passed on to the op's writes; a copy out of local memory (MTE3, FIX) checks whole
  // 32-byte blocks (CopiedOutBlocks).
  void UndefinedPiece(uint64_t begin, uint64_t end, const ShadowState& s, bool local,
                      const char* role, const SlotInfo* info, const GmRange* alloc,
                      uint64_t logical, uint64_t total);
  void CopiedOutBlocks(uint64_t begin, uint64_t end, const char* role, const SlotInfo* info);
  // A copy out takes the dead block found to GM: a fault when its bytes were computed from garbage,
  // else judged at the op's end (dead_deferred_).
  void DeadBlockGoesOut();
  void JudgeDeferredDeadBlock();
  // The op's bytes to write, split into defined and undefined pieces (Flush).
  void ApplyWrite(const PendingWrite& w);
  // Where an undefined read lands in a write of a bit-mask instruction (MaskBits), appended to
  // `bad` in the write's own operand bytes [0, w.total); false when the usual mapping applies.
  bool MaskBitsPieces(const UndefinedRead& u, const PendingWrite& w,
                      std::vector<std::pair<uint64_t, uint64_t>>& bad) const;
  [[noreturn]] void ReportUndefined(uint64_t begin, uint64_t end, const ShadowState& s, bool local,
                                    const char* role, const SlotInfo* info, const GmRange* alloc,
                                    const char* what);
  [[noreturn]] void ReportRace(const AccessRef& earlier, bool earlier_write, bool now_write,
                               uint8_t now_atomic, uint64_t begin, uint64_t end, const char* role,
                               bool local, const SlotInfo* info, const GmRange* alloc);
  std::string Region(bool local, uint64_t begin, uint64_t end, const SlotInfo* info,
                     const GmRange* alloc) const;

  CoreContext& core_;
  LaunchSanitizer& launch_;
  uint32_t flags_;
  bool strict_scalar_;  // race and sync: scalar dependencies need flags in the source
  int arch_;
  const QueuePipes* pipes_table_;  // QueueEventPipesTable(arch_)

  std::array<Clock, kPipeCount> vc_{};   // vc_[p][q]: q's epochs finished before p's next op
  Clock closed_{};                       // epochs each pipe has closed
  std::array<bool, kPipeCount> open_{};  // the current epoch of a pipe has instructions

  Op cur_;
  uint16_t cur_name_ = 0;
  bool has_cur_ = false;
  std::vector<const char*> names_;  // interned call names ([0] = "?"); AccessRef::name indexes it
  // By the string literal's address: a call name's index in names_, an operand role's direction.
  // Plain structs (not std::pair) so that the whole cache copies as bytes (Take/ReturnStorage).
  // Literals sit a few bytes apart, so the slot is a multiplicative hash of the whole address
  // (with the address's bits 3-6 alone, neighbouring literals such as "src0" and "src1" can share
  // a slot, and a kernel alternating between such calls re-parses a role at every call).
  static constexpr size_t kLiteralCacheSize = 64;
  static size_t LiteralSlot(const void* p) {
    return static_cast<size_t>((reinterpret_cast<uintptr_t>(p) * 0x9E3779B97F4A7C15ull) >> 58);
  }
  struct LiteralCaches {
    struct Name {
      const char* key = nullptr;
      uint16_t id = 0;
    } names[kLiteralCacheSize];
    struct Role {
      const char* key = nullptr;
      Access access = Access::kRead;
    } roles[kLiteralCacheSize];
  };
  LiteralCaches* caches_ = nullptr;  // in storage_, kept from block to block of a launch
  std::vector<PendingWrite> pending_;
  std::vector<std::pair<uint64_t, uint64_t>> runs_;
  // The current op's undefined reads, and for a copy out of local memory the undefined pieces of
  // the run being read and the first whole 32-byte block of nothing defined.
  std::vector<UndefinedRead> undefined_;
  std::vector<std::pair<uint64_t, uint64_t>> out_pieces_;
  bool op_writes_gm_ = false;
  MaskBits mask_mode_ = MaskBits::kNone;  // the current instruction's (MaskBitsOp)
  uint32_t mask_elem_ = 0, mask_period_ = 0;
  bool has_dead_block_ = false;
  // A dead block nothing wrote at all (not computed from garbage) is judged at the op's end: in a
  // copy that also carries a block holding results it is output padding (ReduceSum's one element
  // copied out as 32, the official Reduce samples), which only warns; alone it faults.
  bool dead_deferred_ = false;
  bool op_live_out_ = false;
  uint64_t dead_begin_ = 0, dead_end_ = 0;
  ShadowState dead_state_;
  const SlotInfo* dead_info_ = nullptr;
  const char* dead_role_ = nullptr;

  std::vector<SlotInfo> slots_;  // by BufferSlot::id
  // GM, one shadow per device allocation (tiles stream through each one in address order).
  std::map<const uint8_t*, Shadow> gm_;
  const uint8_t* gm_last_alloc_ = nullptr;
  Shadow* gm_last_ = nullptr;
  std::map<uint32_t, PendingFlag> flags_set_;
  std::map<uint32_t, std::pair<uint64_t, int32_t>> event_ids_;  // key -> (call, id)
  std::map<uint32_t, const char*> event_names_;
  std::vector<Barrier> barriers_;

  BlockGmLog gm_log_;
  bool handed_over_ = false;

  // The containers above that grow (slots_, gm_, pending_, runs_, names_, barriers_, gm_log_,
  // and block reuse's seen_, seen_gm_, replay_runs_)
  // pass from one block's sanitizer to the next on the same thread, emptied but with their
  // capacity: a block then allocates nothing for them (they were most of a small launch's cost).
  struct Storage;
  std::unique_ptr<Storage> storage_;  // the husk: holds the containers this block has not taken
  static std::unique_ptr<Storage>& ThreadStorage();  // one per thread; null while held
  void TakeStorage();
  void TakeCheckStorage();  // the containers only the checks use (a following block: on Diverge)
  void ReturnStorage();
  bool checks_taken_ = false;
};

}  // namespace ascsim::aicore
