#include "aicore/sanitizer/core_sanitizer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <new>

#include "ascsim/aicore/atomic.h"
#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/soc.h"

namespace ascsim::aicore {
namespace {

constexpr int kS = static_cast<int>(trace::Pipe::kS);
constexpr int kMte2 = static_cast<int>(trace::Pipe::kMte2);
constexpr int kMte3 = static_cast<int>(trace::Pipe::kMte3);

// Pipes that finish their instructions in program order. Copies on MTE2 / MTE3 may overlap in
// flight ("PIPE_MTE2/PIPE_MTE3在搬运地址有重叠的情况下需要开发者插入同步", PipeBarrier docs).
bool InOrder(int pipe) { return pipe != kMte2 && pipe != kMte3; }

// The hardware a queue's event is chosen by (kernel_event.h GetPhyType): the memory the
// position lives in (PositionMemory, the one TPosition -> memory map), with GetPhyType's UB
// default for C2PIPE2LOCAL and for a position without memory on the architecture. SPM and TSCM
// stay on UB here too; asc-devkit's GetPhyType of 2026-07 gives both (SPM as SHM) L1, which
// these queue pipes do not follow yet.
Memory PhysOf(AscendC::TPosition pos, int arch) {
  using P = AscendC::TPosition;
  if (pos == P::MAX) return Memory::kNone;
  if (pos == P::SPM || pos == P::C2PIPE2LOCAL || pos == P::TSCM) return Memory::kUb;
  const Memory memory = PositionMemory(pos, arch);
  return memory == Memory::kNone ? Memory::kUb : memory;
}

// The source and destination logical positions of TQue<pos> (kernel_event.h GetBufferLogicPos).
std::pair<AscendC::TPosition, AscendC::TPosition> LogicPositions(AscendC::TPosition pos) {
  using P = AscendC::TPosition;
  switch (pos) {
    case P::A1:
    case P::B1:
    case P::C1:
    case P::VECIN:
      return {P::GM, pos};
    case P::A2:
      return {P::A1, pos};
    case P::B2:
      return {P::B1, pos};
    case P::C2:
      return {P::C1, pos};
    case P::CO1:
      return {P::CO1, P::CO2};
    case P::CO2:
    case P::VECOUT:
      return {pos, P::GM};
    case P::SPM:
      return {P::VECOUT, P::GM};
    case P::C2PIPE2GM:
      return {P::B1, pos};
    default:
      return {pos, pos};
  }
}

constexpr size_t kPositions = kQueuePositions;
using QueuePipesTable = std::array<QueuePipes, kPositions * kPositions>;  // [src * n + dst]

}  // namespace

// One table per architecture of the SoC profiles, built on first use.
const QueuePipes* QueueEventPipesTable(int arch) {
  static const std::vector<std::pair<int, QueuePipesTable>> tables = [] {
    std::vector<std::pair<int, QueuePipesTable>> built;
    for (const SocProfile& profile : SocProfiles()) {
      const int a = profile.arch;
      if (std::any_of(built.begin(), built.end(), [&](const auto& t) { return t.first == a; })) {
        continue;
      }
      QueuePipesTable table{};
      for (size_t i = 0; i < kPositions; ++i) {
        for (size_t j = 0; j < kPositions; ++j) {
          table[i * kPositions + j] = QueueEventPipes(static_cast<AscendC::TPosition>(i),
                                                      static_cast<AscendC::TPosition>(j), a);
        }
      }
      built.emplace_back(a, table);
    }
    return built;
  }();
  for (const auto& [a, table] : tables) {
    if (a == arch) return table.data();
  }
  return nullptr;
}

// The forward event's pipes from the positions' memories; QueueEventPipesTable holds them per
// architecture.
QueuePipes QueueEventPipes(AscendC::TPosition src, AscendC::TPosition dst, int arch) {
  using trace::Pipe;
  if (src == dst) std::tie(src, dst) = LogicPositions(src);
  const Memory s = PhysOf(src, arch), d = PhysOf(dst, arch);
  // The forward event of GetQueEvt(srcHardType, dstHardType, fwdDirect = true).
  if (s == Memory::kGm) {
    if (d == Memory::kUb) return {Pipe::kMte2, Pipe::kV};
    if (d == Memory::kL1) return {Pipe::kMte2, Pipe::kMte1};
    if (d == Memory::kL0A || d == Memory::kL0B) return {Pipe::kMte2, Pipe::kM};
  } else if (s == Memory::kUb) {
    if (d == Memory::kGm) return {Pipe::kV, Pipe::kMte3};
    if (d == Memory::kL1) return {Pipe::kMte3, Pipe::kMte1};
    if (d == Memory::kL0C) return {Pipe::kV, Pipe::kV};
    // VECIN->VECOUT (MTE2 in, MTE3 out); a VECCALC TQue (not a device queue) orders V with V.
    if (d == Memory::kUb) {
      if (src == AscendC::TPosition::VECCALC && dst == AscendC::TPosition::VECCALC) {
        return {Pipe::kV, Pipe::kV};
      }
      return {Pipe::kMte2, Pipe::kMte3};
    }
  } else if (s == Memory::kL1) {
    if (d == Memory::kUb) return {Pipe::kMte1, Pipe::kV};
    if (d == Memory::kL0A || d == Memory::kL0B || d == Memory::kBt) return {Pipe::kMte1, Pipe::kM};
    if (d == Memory::kFb) return {Pipe::kMte1, Pipe::kFix};
  } else if (s == Memory::kL0A || s == Memory::kL0B) {
    return {Pipe::kM, Pipe::kV};
  } else if (s == Memory::kL0C) {
    if (d == Memory::kUb) return {Pipe::kM, Pipe::kV};
    return {Pipe::kM, Pipe::kFix};
  }
  return {};
}

CoreSanitizer::CoreSanitizer(CoreContext& core, LaunchSanitizer& launch)
    : core_(core),
      launch_(launch),
      flags_(launch.flags()),
      strict_scalar_((launch.flags() & kRace) != 0 && (launch.flags() & kSync) != 0 &&
                     !core.launch->cce_auto_sync),
      arch_(core.launch->soc->arch),
      pipes_table_(QueueEventPipesTable(arch_)) {
  if (launch_.reuse()) {
    ref_ = launch_.reference();
    if (ref_ != nullptr) {
      mode_ = Mode::kFollow;
      first_ = next_ = ref_->events.data();
      end_ = first_ + ref_->events.size();
      ref_runs_ = ref_->runs.data();
    } else if (launch_.ClaimRecording()) {
      mode_ = Mode::kRecord;
      record_ = launch_.recording();
      record_->Clear();
    }
  }
  TakeStorage();
}

CoreSanitizer::~CoreSanitizer() {
  HandOver();
  if (mode_ == Mode::kRecord) launch_.AbandonRecording();  // faulted before FinishBlock
  ReturnStorage();
}

// ---- storage kept between blocks ----

namespace {
// The memory of a finished block's sanitizer, for the next block on this thread.
struct SpareSanitizer {
  void* memory = nullptr;
  ~SpareSanitizer() { ::operator delete(memory); }
};
// initial-exec, as g_current_core: every block takes and returns these, and the general-dynamic
// model would cost a __tls_get_addr call each time (libascsim is a shared library).
thread_local SpareSanitizer t_spare __attribute__((tls_model("initial-exec")));
}  // namespace

CoreSanitizer* CoreSanitizer::Create(CoreContext& core, LaunchSanitizer& launch) {
  void* memory = t_spare.memory != nullptr ? t_spare.memory : ::operator new(sizeof(CoreSanitizer));
  t_spare.memory = nullptr;
  try {
    return new (memory) CoreSanitizer(core, launch);
  } catch (...) {
    ::operator delete(memory);
    throw;
  }
}

void CoreSanitizer::Destroy(CoreSanitizer* sanitizer) {
  if (sanitizer == nullptr) return;
  sanitizer->~CoreSanitizer();
  if (t_spare.memory == nullptr) {
    t_spare.memory = sanitizer;
  } else {
    ::operator delete(static_cast<void*>(sanitizer));
  }
}

struct CoreSanitizer::Storage {
  // The launch (LaunchSanitizer::serial) whose string literals `names` and `caches`
  // describe: a block of the same launch keeps them, any other starts afresh.
  uint64_t serial = 0;
  LiteralCaches caches;
  std::vector<SlotInfo> slots;
  std::map<const uint8_t*, Shadow> gm;
  std::vector<PendingWrite> pending;
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  std::vector<const char*> names;
  std::vector<Barrier> barriers;
  BlockGmLog gm_log;
  std::vector<SeenSlot> seen;
  uint64_t seen_generation = 0;
  std::vector<SeenGm> seen_gm;
  Runs replay_runs;
};

std::unique_ptr<CoreSanitizer::Storage>& CoreSanitizer::ThreadStorage() {
  thread_local std::unique_ptr<Storage> storage __attribute__((tls_model("initial-exec")));
  return storage;
}

namespace {
// Above these, a block's containers are freed rather than kept for the next block.
constexpr size_t kKeptSlots = 256;
constexpr size_t kKeptGmShadows = 32;
}  // namespace

void CoreSanitizer::TakeStorage() {
  storage_ = std::move(ThreadStorage());
  if (storage_ != nullptr) {
    // Every kept container is empty or in its fresh state (ReturnStorage).
    runs_.swap(storage_->runs);
    std::swap(gm_log_, storage_->gm_log);
    seen_.swap(storage_->seen);
    seen_generation_ = ++storage_->seen_generation;
    seen_gm_.swap(storage_->seen_gm);
  } else {
    // The first block of this thread, or one nested in another's scope: fresh containers.
    storage_ = std::make_unique<Storage>();
    seen_generation_ = 1;  // seen_ is empty
  }
  // A following block needs the rest only if it diverges.
  if (mode_ != Mode::kFollow) TakeCheckStorage();
}

void CoreSanitizer::TakeCheckStorage() {
  checks_taken_ = true;
  slots_.swap(storage_->slots);
  gm_.swap(storage_->gm);
  pending_.swap(storage_->pending);
  names_.swap(storage_->names);
  barriers_.swap(storage_->barriers);
  replay_runs_.swap(storage_->replay_runs);
  if (storage_->serial != launch_.serial()) {  // learnt during another launch
    names_.clear();
    storage_->caches = LiteralCaches{};
    storage_->serial = launch_.serial();
  }
  caches_ = &storage_->caches;  // used in place: kept for the launch's next block
  if (names_.empty()) names_.push_back("?");
}

void CoreSanitizer::ReturnStorage() {
  Storage& s = *storage_;
  if (checks_taken_) {
    if (slots_.size() > kKeptSlots) slots_.clear();
    for (SlotInfo& info : slots_) {
      info.shadow.Clear();
      info.slot = nullptr;
      info.fresh_call = 0;
      info.has_enque = info.has_free = false;
      info.enque = Clock{};
      info.free = Clock{};
    }
    if (gm_.size() > kKeptGmShadows) gm_.clear();
    for (auto& entry : gm_) entry.second.Clear();  // an emptied shadow is a fresh one
    pending_.clear();
    // names_ stays: the launch's next block on this thread keeps it (TakeCheckStorage).
    barriers_.clear();
    replay_runs_.clear();
    s.slots.swap(slots_);
    s.gm.swap(gm_);
    s.pending.swap(pending_);
    s.names.swap(names_);
    s.barriers.swap(barriers_);
    s.replay_runs.swap(replay_runs_);
  }
  runs_.clear();
  gm_log_.Clear();
  // seen_ stays: its entries of another block have another generation.
  seen_gm_.clear();
  s.runs.swap(runs_);
  std::swap(s.gm_log, gm_log_);
  s.seen.swap(seen_);
  s.seen_generation = std::max(s.seen_generation, seen_generation_);
  s.seen_gm.swap(seen_gm_);
  std::unique_ptr<Storage>& kept = ThreadStorage();
  if (kept == nullptr) kept = std::move(storage_);  // else a nested block's: freed
}

// ---- block reuse: record, compare, replay ----

namespace {
// Buffer ids above this are not followed (the table of seen buffers is indexed by id).
constexpr uint32_t kMaxSeenId = 4096;
// A reference is kept while its calls and runs take at most kMaxReferenceBytes
// (launch_sanitizer.h): a longer block is checked in full, as is every block that would follow it.

// The fields of two calls, their place in the run list aside.
bool SameCall(const SanitizerEvent& a, const SanitizerEvent& b) {
  return a.kind == b.kind && a.pipe == b.pipe && a.aux == b.aux && a.aux2 == b.aux2 &&
         a.id == b.id && a.calls == b.calls && a.p1 == b.p1 && a.p2 == b.p2 && a.a == b.a &&
         a.runs_n() == b.runs_n();
}
}  // namespace

bool CoreSanitizer::SeeSlot(const BufferSlot& slot) {
  if (slot.id >= kMaxSeenId) return false;
  if (slot.id >= seen_.size()) seen_.resize(slot.id + 1);
  SeenSlot& seen = seen_[slot.id];
  if (seen.generation != seen_generation_) {
    seen.copy = slot;
    seen.copy.next_queued = nullptr;
    seen.generation = seen_generation_;
    return true;
  }
  return seen.copy.addr == slot.addr && seen.copy.bytes == slot.bytes;
}

uint32_t CoreSanitizer::SeeGm(const GmRange& alloc, uint64_t first, uint64_t* base) {
  const size_t n = seen_gm_.size();
  for (size_t i = 0; i < n; ++i) {
    if (seen_gm_[i].range.begin == alloc.begin) {
      *base = seen_gm_[i].base;
      return static_cast<uint32_t>(i);
    }
  }
  seen_gm_.push_back(SeenGm{alloc, first});
  *base = first;
  return static_cast<uint32_t>(n);
}

void CoreSanitizer::StopRecording() {
  mode_ = Mode::kCheck;
  record_->Clear();
  launch_.AbandonRecording();
}

void CoreSanitizer::Record(SanitizerEvent& ev, const Run* runs, uint32_t n, uint64_t base,
                           bool consistent) {
  SanitizerEvents& rec = *record_;
  if (!consistent || core_.api_calls > 0xFFFFFFFFull ||
      (rec.events.size() + 1) * sizeof(SanitizerEvent) + (rec.runs.size() + n) * sizeof(Run) >
          kMaxReferenceBytes) {
    StopRecording();
    return;
  }
  if (ev.kind != kEvLocalFootprint) {  // else its footprint is inline (w) and n is 0
    ev.w[0] = static_cast<uint32_t>(rec.runs.size());
    ev.w[1] = n;
  }
  rec.events.push_back(ev);
  for (uint32_t i = 0; i < n; ++i) {
    rec.runs.emplace_back(runs[i].first - base, runs[i].second - base);
  }
}

bool CoreSanitizer::Follow(const SanitizerEvent& ev, const Run* runs, uint32_t n, uint64_t base) {
  // ev.calls holds the call number's low 32 bits: past 2^32 calls nothing matches (Record keeps
  // no call there).
  if (next_ != end_ && core_.api_calls <= 0xFFFFFFFFull && SameCall(ev, *next_)) {
    const Run* want = ref_runs_ + next_->runs_at();
    uint32_t i = 0;
    while (i < n && runs[i].first - base == want[i].first &&
           runs[i].second - base == want[i].second) {
      ++i;
    }
    if (i == n) {
      ++next_;
      return true;
    }
  }
  Diverge();
  return false;
}

bool CoreSanitizer::Step(SanitizerEvent& ev) {
  if (mode_ == Mode::kRecord) {
    Record(ev, nullptr, 0, 0, true);
    return false;
  }
  return Follow(ev, nullptr, 0, 0);
}

void CoreSanitizer::SlotCall(uint8_t kind, const BufferSlot& slot, QueuePipes pipes) {
  if (mode_ == Mode::kFollow) {
    Diverge();
  } else if (mode_ == Mode::kRecord) {
    SanitizerEvent ev;
    ev.kind = kind;
    ev.pipe = static_cast<uint8_t>(pipes.src);
    ev.aux = static_cast<uint8_t>(pipes.dst);
    ev.aux2 = Low5(slot.addr);
    ev.id = slot.id;
    ev.calls = core_.api_calls;
    ev.a = slot.bytes;
    Record(ev, nullptr, 0, 0, SeeSlot(slot));
  }
  switch (kind) {
    case kEvCarved:
      CarvedChecked(slot);
      break;
    case kEvQueueAlloc:
      QueueAllocChecked(slot, pipes);
      break;
    case kEvQueueEnQue:
      QueueEnQueChecked(slot, pipes);
      break;
    case kEvQueueDeQue:
      QueueDeQueChecked(slot, pipes);
      break;
    default:
      QueueFreeChecked(slot, pipes);
      break;
  }
}

void CoreSanitizer::Diverge() {
  mode_ = Mode::kCheck;
  launch_.Diverged(ref_);
  TakeCheckStorage();
  CountBlockReuse(BlockReuse::kDiverged);
  // The checks read the call number from the core: each replayed call gets its own back.
  struct CallsRestore {
    uint64_t& calls;
    uint64_t saved;
    ~CallsRestore() { calls = saved; }
  } restore{core_.api_calls, core_.api_calls};
  // seen_ holds every buffer the matched calls used and grows no more (kCheck): the copies'
  // addresses stay valid for the SlotInfo that names them.
  Footprint fp;
  for (const SanitizerEvent* ev = first_; ev != next_; ++ev) {
    core_.api_calls = ev->calls;
    const bool gm = ev->kind == kEvGmFootprint;
    const BufferSlot* slot = !gm && ev->id < seen_.size() ? &seen_[ev->id].copy : nullptr;
    uint64_t base = 0;
    if (gm) {
      base = seen_gm_[ev->id].base;
    } else if (slot != nullptr) {
      base = reinterpret_cast<uint64_t>(slot->addr);
    }
    const Run* runs = ref_runs_ + ev->runs_at();
    replay_runs_.clear();
    if (ev->kind == kEvLocalFootprint) {
      fp.run = ev->w[1];
      fp.pitch = ev->w[2];
      fp.count = ev->w[3];
      FootprintRuns(base + ev->w[0], fp, replay_runs_);
    } else if (gm) {
      fp.run = runs[0].second;
      fp.pitch = runs[1].first;
      fp.count = runs[1].second;
      FootprintRuns(base + runs[0].first, fp, replay_runs_);
    } else {
      for (uint32_t k = 0; k < ev->runs_n(); ++k) {
        replay_runs_.emplace_back(runs[k].first + base, runs[k].second + base);
      }
    }
    const auto pipe = static_cast<trace::Pipe>(ev->pipe);
    const auto access = static_cast<Access>(ev->aux);
    const QueuePipes pipes{pipe, static_cast<trace::Pipe>(ev->aux)};
    const auto* p1 = static_cast<const char*>(ev->p1);
    switch (ev->kind) {
      case kEvLocal:
      case kEvLocalFootprint:
        LocalChecked(pipe, access, slot, replay_runs_, p1, static_cast<const char*>(ev->p2));
        break;
      case kEvScalar:
        ScalarChecked(access, slot, replay_runs_[0].first, replay_runs_[0].second, p1);
        break;
      case kEvGmFootprint:
        GmChecked(pipe, access == Access::kRead || access == Access::kReadWrite,
                  access == Access::kWrite || access == Access::kReadWrite, ev->aux2,
                  seen_gm_[ev->id].range, replay_runs_, p1, /*log=*/false);
        break;
      case kEvMaskBits:
        mask_mode_ = static_cast<MaskBits>(ev->aux);
        mask_elem_ = ev->id;
        mask_period_ = static_cast<uint32_t>(ev->a);
        break;
      case kEvCarved:
        CarvedChecked(*slot);
        break;
      case kEvQueueAlloc:
        QueueAllocChecked(*slot, pipes);
        break;
      case kEvQueueEnQue:
        QueueEnQueChecked(*slot, pipes);
        break;
      case kEvQueueDeQue:
        QueueDeQueChecked(*slot, pipes);
        break;
      case kEvQueueFree:
        QueueFreeChecked(*slot, pipes);
        break;
      case kEvSetFlag:
        SetFlagChecked(ev->id, p1, static_cast<int32_t>(ev->a), pipe);
        break;
      case kEvWaitFlag:
        WaitFlagChecked(ev->id, static_cast<trace::Pipe>(ev->aux));
        break;
      case kEvPipeBarrier:
        PipeBarrierChecked(pipe, p1);
        break;
      case kEvSyncAll:
        FullBarrier("SyncAll", false);
        break;
      case kEvPipeDestroyed:
        FullBarrier("TPipe::Destroy", false);
        break;
      case kEvEventIdAllocated:
        EventIdAllocatedChecked(p1, ev->id, static_cast<int32_t>(ev->a));
        break;
      case kEvEventIdReleased:
        EventIdReleasedChecked(p1, ev->id, static_cast<int32_t>(ev->a));
        break;
      default:
        break;
    }
  }
  // A block that went on after its FinishBlock matched the reference's: that FinishBlock's flush
  // happened (its end checks found nothing, as the reference's did).
  if (finished_) {
    finished_ = false;
    Flush();
  }
}

void CoreSanitizer::LogGmRun(trace::Pipe pipe, bool read, bool write, uint8_t atomic,
                             const GmRange& alloc, uint64_t begin, uint64_t end,
                             const char* call) {
  GmInterval iv;
  iv.begin = begin;
  iv.end = end;
  iv.pipe = static_cast<uint8_t>(PipeIndex(pipe));
  iv.call = core_.api_calls;  // cur_.call of a check: the call, or the scalar access's number
  iv.name = call;
  iv.alloc = alloc;
  iv.block = LogIndex();
  if (read) {
    iv.kind = kGmRead;
    gm_log_.Add(iv);
  }
  if (write) {
    iv.kind = static_cast<uint8_t>(atomic != 0 ? kGmAtomic + atomic : kGmWrite);
    gm_log_.Add(iv);
  }
}

// ---- the calls: record or compare, then check ----

void CoreSanitizer::Local(trace::Pipe pipe, Access access, const BufferSlot* slot,
                          const Runs& runs, const char* call, const char* role) {
  if (runs.empty()) return;
  if (mode_ != Mode::kCheck) {
    SanitizerEvent ev;
    ev.kind = kEvLocal;
    ev.pipe = static_cast<uint8_t>(pipe);
    ev.aux = static_cast<uint8_t>(access);
    ev.aux2 = Low5(slot->addr);
    ev.id = slot->id;
    ev.calls = core_.api_calls;
    ev.p1 = call;
    ev.p2 = role;
    ev.a = slot->bytes;
    const auto n = static_cast<uint32_t>(runs.size());
    ev.w[1] = n;  // Follow compares the count (SameCall)
    const auto base = reinterpret_cast<uint64_t>(slot->addr);
    if (mode_ == Mode::kRecord) {
      Record(ev, runs.data(), n, base, SeeSlot(*slot));
    } else if (!Seen(*slot)) {
      Diverge();  // the buffer moved
    } else if (Follow(ev, runs.data(), n, base)) {
      return;
    }
  }
  LocalChecked(pipe, access, slot, runs, call, role);
}

void CoreSanitizer::LocalFootprintCall(trace::Pipe pipe, Access access, const BufferSlot* slot,
                                       const void* first, const Footprint& fp, const char* call,
                                       const char* role) {
  if (fp.count == 0 || fp.run == 0) return;  // no runs
  const auto base = reinterpret_cast<uint64_t>(slot->addr);
  const auto at = reinterpret_cast<uint64_t>(first);
  if (mode_ == Mode::kFollow) {
    Diverge();  // LocalFootprint passes the calls that match
  } else if (mode_ == Mode::kRecord) {
    SanitizerEvent ev;
    ev.kind = kEvLocalFootprint;
    ev.pipe = static_cast<uint8_t>(pipe);
    ev.aux = static_cast<uint8_t>(access);
    ev.aux2 = Low5(slot->addr);
    ev.id = slot->id;
    ev.calls = core_.api_calls;
    ev.p1 = call;
    ev.p2 = role;
    ev.a = slot->bytes;
    const uint64_t shape[4] = {at - base, fp.run, fp.pitch, fp.count};
    bool fits = true;
    for (int i = 0; i < 4; ++i) {
      fits = fits && shape[i] <= 0xFFFFFFFFull;
      ev.w[i] = static_cast<uint32_t>(shape[i]);
    }
    Record(ev, nullptr, 0, 0, SeeSlot(*slot) && fits);
  }
  FootprintRuns(at, fp, runs_);
  LocalChecked(pipe, access, slot, runs_, call, role);
}

void CoreSanitizer::Scalar(Access access, const BufferSlot* slot, uint64_t begin, uint64_t end,
                           const char* call) {
  const auto base = reinterpret_cast<uint64_t>(slot->addr);
  if (mode_ == Mode::kFollow) {
    const SanitizerEvent* r = Expect(kEvScalar);
    if (r != nullptr && r->p1 == call && r->aux == static_cast<uint8_t>(access)) {
      const Run& want = ref_runs_[r->runs_at()];
      if (want.first == begin - base && want.second == end - base && SameSlot(*r, *slot)) {
        ++next_;
        ++core_.api_calls;  // as BeginOp numbers a scalar access
        return;
      }
    }
    Diverge();
  } else if (mode_ == Mode::kRecord) {
    SanitizerEvent ev;
    ev.kind = kEvScalar;
    ev.pipe = static_cast<uint8_t>(trace::Pipe::kS);
    ev.aux = static_cast<uint8_t>(access);
    ev.aux2 = Low5(slot->addr);
    ev.id = slot->id;
    ev.calls = core_.api_calls;
    ev.p1 = call;
    ev.a = slot->bytes;
    const Run run{begin, end};
    Record(ev, &run, 1, base, SeeSlot(*slot));
  }
  ScalarChecked(access, slot, begin, end, call);
}

void CoreSanitizer::Gm(trace::Pipe pipe, Access access, const GmRange& alloc, const void* first,
                       const Footprint& fp, const char* call) {
  if (fp.count == 0 || fp.run == 0) return;  // no runs
  const bool write = access == Access::kWrite || access == Access::kReadWrite;
  const bool read = access == Access::kRead || access == Access::kReadWrite;
  if (pipe == trace::Pipe::kNone) pipe = write ? trace::Pipe::kMte3 : trace::Pipe::kMte2;
  // SetAtomicAdd/Max/Min turn the DMA writes out of the core (MTE3, FIX) into accumulations.
  uint8_t atomic =
      write && (pipe == trace::Pipe::kMte3 || pipe == trace::Pipe::kFix) ? core_.sys.atomic_op : 0;
  if (write && atomic == 0 && core_.sys.gm_zero_fill) atomic = kGmZeroFillOp;
  const auto at = reinterpret_cast<uint64_t>(first);
  if (mode_ == Mode::kFollow) {
    const SanitizerEvent* r = Expect(kEvGmFootprint);
    if (r != nullptr && r->p1 == call && r->pipe == static_cast<uint8_t>(pipe) &&
        r->aux == static_cast<uint8_t>(access) && r->aux2 == atomic) {
      uint64_t base = 0;
      uint32_t id = r->id;
      if (id < seen_gm_.size() && seen_gm_[id].range.begin == alloc.begin) {
        base = seen_gm_[id].base;
      } else {
        id = SeeGm(alloc, at, &base);
      }
      const Run* want = ref_runs_ + r->runs_at();
      if (id == r->id && want[0].first == at - base && want[0].second == fp.run &&
          want[1].first == fp.pitch && want[1].second == fp.count) {
        ++next_;
        if (pipe == trace::Pipe::kS) ++core_.api_calls;  // as BeginOp numbers a scalar access
        if (fp.count == 1 || fp.pitch == fp.run) {  // one run
          LogGmRun(pipe, read, write, atomic, alloc, at, at + fp.Extent(), call);
        } else {
          FootprintRuns(at, fp, runs_);
          for (const auto& [b, e] : runs_) LogGmRun(pipe, read, write, atomic, alloc, b, e, call);
        }
        return;
      }
    }
    Diverge();
  } else if (mode_ == Mode::kRecord) {
    SanitizerEvent ev;
    ev.kind = kEvGmFootprint;
    ev.pipe = static_cast<uint8_t>(pipe);
    ev.aux = static_cast<uint8_t>(access);
    ev.aux2 = atomic;
    uint64_t base = 0;
    ev.id = SeeGm(alloc, at, &base);
    ev.calls = core_.api_calls;
    ev.p1 = call;
    const Run shape[2] = {{at, base + fp.run}, {base + fp.pitch, base + fp.count}};
    Record(ev, shape, 2, base, true);
  }
  FootprintRuns(at, fp, runs_);
  GmChecked(pipe, read, write, atomic, alloc, runs_, call, /*log=*/true);
}

void CoreSanitizer::SetFlag(uint32_t key, const char* event_name, int32_t id, trace::Pipe src,
                            trace::Pipe dst) {
  if (mode_ != Mode::kCheck) {
    SanitizerEvent ev;
    ev.kind = kEvSetFlag;
    ev.pipe = static_cast<uint8_t>(src);
    ev.aux = static_cast<uint8_t>(dst);
    ev.id = key;
    ev.calls = core_.api_calls;
    ev.p1 = event_name;
    ev.a = static_cast<uint32_t>(id);
    if (Step(ev)) return;
  }
  SetFlagChecked(key, event_name, id, src);
}

void CoreSanitizer::WaitFlag(uint32_t key, trace::Pipe src, trace::Pipe dst) {
  if (mode_ != Mode::kCheck) {
    SanitizerEvent ev;
    ev.kind = kEvWaitFlag;
    ev.pipe = static_cast<uint8_t>(src);
    ev.aux = static_cast<uint8_t>(dst);
    ev.id = key;
    ev.calls = core_.api_calls;
    if (Step(ev)) return;
  }
  WaitFlagChecked(key, dst);
}

void CoreSanitizer::PipeBarrier(trace::Pipe pipe, const char* what) {
  if (mode_ != Mode::kCheck) {
    SanitizerEvent ev;
    ev.kind = kEvPipeBarrier;
    ev.pipe = static_cast<uint8_t>(pipe);
    ev.calls = core_.api_calls;
    ev.p1 = what;
    if (Step(ev)) return;
  }
  PipeBarrierChecked(pipe, what);
}

void CoreSanitizer::SyncAll() {
  SanitizerEvent ev;
  ev.kind = kEvSyncAll;
  ev.calls = core_.api_calls;
  if (mode_ == Mode::kCheck || !Step(ev)) {
    FullBarrier("SyncAll", false);  // SyncAll starts with PipeBarrier<PIPE_ALL> (dav_c220)
  }
  gm_log_.NextEpoch();
}

void CoreSanitizer::PipeDestroyed() {
  SanitizerEvent ev;
  ev.kind = kEvPipeDestroyed;
  ev.calls = core_.api_calls;
  if (mode_ == Mode::kCheck || !Step(ev)) FullBarrier("TPipe::Destroy", false);
}

bool CoreSanitizer::StepEventId(uint8_t kind, const char* event_name, uint32_t key, int32_t id) {
  if (mode_ == Mode::kCheck) return false;
  SanitizerEvent ev;
  ev.kind = kind;
  ev.id = key;
  ev.calls = core_.api_calls;
  ev.p1 = event_name;
  ev.a = static_cast<uint32_t>(id);
  return Step(ev);
}

void CoreSanitizer::EventIdAllocated(const char* event_name, uint32_t key, int32_t id) {
  if (!StepEventId(kEvEventIdAllocated, event_name, key, id))
    EventIdAllocatedChecked(event_name, key, id);
}

void CoreSanitizer::EventIdReleased(const char* event_name, uint32_t key, int32_t id) {
  if (!StepEventId(kEvEventIdReleased, event_name, key, id))
    EventIdReleasedChecked(event_name, key, id);
}

void CoreSanitizer::FinishBlock() {
  if (mode_ == Mode::kFollow) {
    if (next_ == end_) {
      // The reference's end checks found nothing from the same state.
      finished_ = true;
      CountBlockReuse(BlockReuse::kFollowed);
      HandOver();
      return;
    }
    Diverge();
  }
  FinishBlockChecked();
  if (mode_ == Mode::kRecord) {
    mode_ = Mode::kCheck;
    if (clean_) {
      launch_.Publish();
    } else {
      record_->Clear();
      launch_.AbandonRecording();
    }
  }
}

// ---- epochs and clocks ----

// Every export is a set_flag (or barrier) instruction on `pipe`: it starts only once every
// earlier instruction of the pipe has finished, and the pipe starts its instructions in order,
// so it also orders the pipe's own earlier and later instructions.
Clock CoreSanitizer::Export(int pipe) {
  if (open_[pipe]) {
    ++closed_[pipe];
    open_[pipe] = false;
  }
  vc_[pipe][pipe] = closed_[pipe];
  return vc_[pipe];
}

void CoreSanitizer::Import(int pipe, const Clock& token) {
  for (int q = 0; q < kPipeCount; ++q) vc_[pipe][q] = std::max(vc_[pipe][q], token[q]);
}

void CoreSanitizer::BeginOp(trace::Pipe pipe, const char* name, bool scalar) {
  if (!scalar && has_cur_ && cur_.call == core_.api_calls && cur_.pipe == pipe) return;
  Flush();
  // Scalar accesses are not API calls of their own; number them as if they were, so each one
  // has a call number of its own in messages.
  if (scalar) ++core_.api_calls;
  const int p = PipeIndex(pipe);
  open_[p] = true;
  cur_ = Op{core_.api_calls, pipe, closed_[p] + 1, name};
  cur_name_ = Intern(name);
  has_cur_ = true;
}

uint16_t CoreSanitizer::Intern(const char* name) {
  auto& cached = caches_->names[LiteralSlot(name)];
  if (cached.key == name) return cached.id;
  // A block uses a few dozen names at most, and the cache above answers nearly every call.
  size_t id = 1;
  while (id < names_.size() && names_[id] != name) ++id;
  if (id == names_.size()) {
    if (names_.size() > 0xFFFF) return 0;  // "?" (never: names are the API's string literals)
    names_.push_back(name);
  }
  cached.key = name;
  cached.id = static_cast<uint16_t>(id);
  return cached.id;
}

void CoreSanitizer::FlushPending() {
  if (dead_deferred_ && has_dead_block_) JudgeDeferredDeadBlock();
  dead_deferred_ = false;
  op_live_out_ = false;
  for (const PendingWrite& w : pending_) {
    if (undefined_.empty()) {
      w.shadow->Apply(w.begin, w.end, [&](ShadowState& s) {
        s.has_write = true;
        s.write = w.ref;
        s.read_mask = 0;
        s.init = true;
        s.tainted = false;
      });
    } else {
      ApplyWrite(w);
    }
  }
  pending_.clear();
  undefined_.clear();
  op_writes_gm_ = false;
  mask_mode_ = MaskBits::kNone;
  has_dead_block_ = false;
}

void CoreSanitizer::ApplyWrite(const PendingWrite& w) {
  // The pieces of this write that came from undefined bytes, in its own operand's order.
  std::vector<std::pair<uint64_t, uint64_t>> bad;
  const uint64_t span_begin = w.logical, span_end = w.logical + (w.end - w.begin);
  std::vector<std::pair<uint64_t, uint64_t>> mapped;
  for (const UndefinedRead& u : undefined_) {
    mapped.clear();
    if (MaskBitsPieces(u, w, mapped)) {
      for (auto [b, e] : mapped) {
        b = std::max(b, span_begin);
        e = std::min(e, span_end);
        if (b < e) bad.emplace_back(w.begin + (b - span_begin), w.begin + (e - span_begin));
      }
      continue;
    }
    uint64_t b = 0, e = w.total;
    if (w.total * 4 >= u.total && u.total != 0) {  // same place, scaled (a reduction: all of it)
      using Wide = unsigned __int128;
      b = static_cast<uint64_t>(Wide(u.begin) * w.total / u.total);
      e = static_cast<uint64_t>((Wide(u.end) * w.total + u.total - 1) / u.total);
    }
    b = std::max(b, span_begin);
    e = std::min(e, span_end);
    if (b < e) bad.emplace_back(w.begin + (b - span_begin), w.begin + (e - span_begin));
  }
  std::sort(bad.begin(), bad.end());
  auto write = [&](uint64_t b, uint64_t e, bool defined) {
    w.shadow->Apply(b, e, [&](ShadowState& s) {
      s.has_write = true;
      s.write = w.ref;
      s.read_mask = 0;
      s.init = defined;
      s.tainted = !defined;
    });
  };
  uint64_t at = w.begin;
  for (const auto& [b, e] : bad) {
    if (e <= at) continue;
    if (b > at) write(at, b, true);
    write(std::max(b, at), e, false);
    at = e;
  }
  if (at < w.end) write(at, w.end, true);
}

bool CoreSanitizer::MaskBitsPieces(const UndefinedRead& u, const PendingWrite& w,
                                   std::vector<std::pair<uint64_t, uint64_t>>& out) const {
  const uint64_t s = mask_elem_;
  if (mask_mode_ == MaskBits::kNone || s == 0) return false;
  if (mask_mode_ == MaskBits::kCompareToBits) {
    // An element with an undefined byte gives an undefined bit. The shadow knows bytes, so a mask
    // byte is undefined only when all eight of its bits are: a byte holding one defined bit
    // counts as defined, as a copied-out block holding one result does (CopiedOutBlocks).
    const uint64_t first = u.begin / s, last = (u.end + s - 1) / s, n = (u.total + s - 1) / s;
    const uint64_t b = (first + 7) / 8, e = last >= n ? (last + 7) / 8 : last / 8;
    if (b < e) out.emplace_back(b, e);
    return true;
  }
  if (!u.bits) return false;  // Select's src0 / src1: element for element, as usual
  // Bit i of selMask picks element i (of every repeat, when the same bits serve each one).
  const uint64_t first = u.begin * 8, last = u.end * 8;
  if (mask_period_ == 0) {
    out.emplace_back(first * s, last * s);
    return true;
  }
  const uint64_t period = mask_period_;
  if (first >= period) return true;
  for (uint64_t base = 0; base < w.total; base += period * s) {
    out.emplace_back(base + first * s, base + std::min(last, period) * s);
  }
  return true;
}

AccessRef CoreSanitizer::Ref() const {
  AccessRef r;
  r.call = CallNumber(cur_.call);
  r.name = cur_name_;
  r.epoch = cur_.epoch;
  r.pipe = static_cast<uint8_t>(PipeIndex(cur_.pipe));
  return r;
}

bool CoreSanitizer::Ordered(const AccessRef& a) {
  if (a.call == CallNumber(cur_.call)) return true;  // operands of one instruction
  const int p = PipeIndex(cur_.pipe);
  if ((a.pipe == p && InOrder(p)) || vc_[p][a.pipe] >= a.epoch) {
    NoteOrderedBy(a);
    return true;
  }
  if (!strict_scalar_ && (p == kS || a.pipe == kS)) {
    // bisheng's --cce-auto-sync puts SetFlag/WaitFlag<a.pipe -> p> right here.
    Import(p, Export(a.pipe));
    return true;
  }
  return false;
}

// ---- operand accesses ----

namespace {
// The direction an operand's role names: destinations ("dst", "dst0", "dstLocal", "out...")
// and scratch space ("workLocal", "sharedTmpBuffer", "tmpBuf", "stackBuffer", ...) are written,
// every other role is read. Scratch counts as written so that an instruction's own scratch is
// never an uninitialised read.
Access AccessOfRole(const char* role) {
  if (role == nullptr) return Access::kRead;
  if (std::strncmp(role, "dst", 3) == 0 || std::strncmp(role, "out", 3) == 0) {
    return Access::kWrite;
  }
  // Lowered into a stack buffer (roles are short ASCII identifiers), not a heap string: this
  // runs once per role and block.
  char lower[64];
  size_t n = 0;
  for (; role[n] != '\0' && n + 1 < sizeof(lower); ++n) {
    const char c = role[n];
    lower[n] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  lower[n] = '\0';
  if (role[n] != '\0') {  // longer than the buffer: the general way
    std::string all(role);
    for (char& c : all) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* scratch : {"tmp", "work", "stack", "scratch"}) {
      if (all.find(scratch) != std::string::npos) return Access::kWrite;
    }
    return Access::kRead;
  }
  // One pass for the four words.
  for (size_t i = 0; i < n; ++i) {
    const char* at = lower + i;
    if ((at[0] == 't' && std::strncmp(at, "tmp", 3) == 0) ||
        (at[0] == 'w' && std::strncmp(at, "work", 4) == 0) ||
        (at[0] == 's' &&
         (std::strncmp(at, "stack", 5) == 0 || std::strncmp(at, "scratch", 7) == 0))) {
      return Access::kWrite;
    }
  }
  return Access::kRead;
}
}  // namespace

CoreSanitizer::SlotInfo& CoreSanitizer::NewInfo(const BufferSlot& slot) {
  slots_.resize(slot.id + 1);
  SlotInfo& info = slots_[slot.id];
  info.slot = &slot;
  return info;
}

void CoreSanitizer::CheckAndRecord(Shadow& shadow, bool local, bool write, bool read,
                                   uint64_t begin, uint64_t end, const char* role, uint8_t atomic,
                                   const SlotInfo* info, const GmRange* alloc, uint64_t logical,
                                   uint64_t total) {
  const bool check_init = read && init();
  if (total == 0) total = end - begin;
  out_pieces_.clear();
  if (race() || check_init) {
    shadow.ForEach(begin, end, [&](uint64_t b, uint64_t e, const ShadowState& s) {
      if (read) {
        if (check_init && !s.init) {
          UndefinedPiece(b, e, s, local, role, info, alloc, logical + (b - begin), total);
        }
        if (race() && s.has_write && !Ordered(s.write)) {
          ReportRace(s.write, true, false, 0, b, e, role, local, info, alloc);
        }
      }
      if (write && race()) {
        // Of the earlier accesses this write is not ordered after, name the latest: the sync
        // that orders it usually orders the others too (they precede it on their pipes).
        const AccessRef* worst = nullptr;
        bool worst_is_write = false;
        const bool both_accumulate = atomic != 0 && s.write.atomic == atomic;
        if (s.has_write && !both_accumulate && !Ordered(s.write)) {
          worst = &s.write;
          worst_is_write = true;
        }
        for (int p = 0; p < kPipeCount; ++p) {
          if (((s.read_mask >> p) & 1) && !Ordered(s.reads[p]) &&
              (worst == nullptr || s.reads[p].call > worst->call)) {
            worst = &s.reads[p];
            worst_is_write = false;
          }
        }
        if (worst != nullptr) {
          ReportRace(*worst, worst_is_write, true, atomic, b, e, role, local, info, alloc);
        }
      }
      return true;
    });
  }
  if (!out_pieces_.empty()) {
    CopiedOutBlocks(begin, end, role, info);
  } else if (local && read && (PipeIndex(cur_.pipe) == kMte3 || cur_.pipe == trace::Pipe::kFix)) {
    op_live_out_ = true;  // a run of a copy out with every byte defined
  }
  AccessRef ref = Ref();
  ref.atomic = atomic;
  if (read) {
    const int p = ref.pipe;
    shadow.Apply(begin, end, [&](ShadowState& s) {
      s.reads[p] = ref;
      s.read_mask = static_cast<uint8_t>(s.read_mask | (1u << p));
    });
  }
  // Writes land after the instruction's reads (an in-place op reads its old bytes first).
  if (write) pending_.push_back(PendingWrite{&shadow, begin, end, ref, local, logical, total});
}

namespace {
// Roles whose bytes decide something (which elements, where from): an undefined one is used,
// not just moved.
bool Decides(const char* role) {
  if (role == nullptr) return false;
  std::string lower(role);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* word : {"mask", "offset", "pattern", "index"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}
}  // namespace

void CoreSanitizer::UndefinedPiece(uint64_t begin, uint64_t end, const ShadowState& s, bool local,
                                   const char* role, const SlotInfo* info, const GmRange* alloc,
                                   uint64_t logical, uint64_t total) {
  // A scalar read takes the value into a register, where it decides a branch or an address; so
  // do masks and offsets. Everything else (copies, vector and cube arithmetic) only moves or
  // combines the bytes: their undefinedness goes on to what the op writes.
  // Select's selMask only picks, element by element, which source goes to dst: its undefined bits
  // go on to those elements of dst (MaskBits), judged where they end up. A kernel that compares
  // a tile's unwritten tail and never copies that part of the result out is correct.
  const bool mask_bits =
      cur_.pipe == trace::Pipe::kV && role != nullptr && std::strcmp(role, "selMask") == 0;
  if (cur_.pipe == trace::Pipe::kS || (!mask_bits && Decides(role))) {
    ReportUndefined(begin, end, s, local, role, info, alloc, "reads");
  }
  undefined_.push_back(UndefinedRead{logical, logical + (end - begin), total, mask_bits});
  const int p = PipeIndex(cur_.pipe);
  if (local && (p == kMte3 || cur_.pipe == trace::Pipe::kFix)) out_pieces_.emplace_back(begin, end);
}

// A copy out of local memory moves whole 32-byte blocks: the bytes of a block the kernel did not
// compute go along with the ones it did (ReduceSum's one element, then DataCopy of the block), so
// a block with a defined byte is a partial result, not a bug. A block with none was never
// computed: if the op writes GM, that garbage reaches the result.
void CoreSanitizer::CopiedOutBlocks(uint64_t begin, uint64_t end, const char* role,
                                    const SlotInfo* info) {
  constexpr uint64_t kBlock = 32;
  size_t i = 0;
  for (uint64_t block = begin & ~(kBlock - 1); block < end; block += kBlock) {
    const uint64_t b = std::max(block, begin), e = std::min(block + kBlock, end);
    uint64_t at = b;
    while (i < out_pieces_.size() && out_pieces_[i].second <= at) ++i;
    for (size_t j = i; j < out_pieces_.size() && out_pieces_[j].first <= at && at < e; ++j) {
      at = std::max(at, out_pieces_[j].second);
    }
    if (at < e) {
      op_live_out_ = true;
      if (has_dead_block_) break;   // both known: nothing more to learn from this run
    } else if (!has_dead_block_) {  // every copied byte of the block undefined
      has_dead_block_ = true;
      dead_begin_ = b;
      dead_end_ = e;
      dead_role_ = role;
      dead_info_ = info;
      info->shadow.ForEach(b, b + 1, [&](uint64_t, uint64_t, const ShadowState& s) {
        dead_state_ = s;
        return false;
      });
    }
  }
  out_pieces_.clear();
  if (has_dead_block_ && op_writes_gm_) DeadBlockGoesOut();
}

void CoreSanitizer::DeadBlockGoesOut() {
  if (dead_state_.tainted) {
    ReportUndefined(dead_begin_, dead_end_, dead_state_, true, dead_role_, dead_info_, nullptr,
                    "copies out");
  }
  dead_deferred_ = true;
}

void CoreSanitizer::LocalChecked(trace::Pipe pipe, Access access, const BufferSlot* slot,
                                 const Runs& runs, const char* call, const char* role) {
  Access a = access;
  if (a == Access::kAuto) {
    auto& cached = caches_->roles[LiteralSlot(role)];
    if (cached.key != role || role == nullptr) {
      cached.key = role;
      cached.access = AccessOfRole(role);
    }
    a = cached.access;
  }
  const bool write = a == Access::kWrite || a == Access::kReadWrite;
  const bool read = a == Access::kRead || a == Access::kReadWrite;
  BeginOp(pipe, call, false);
  SlotInfo& info = Info(*slot);
  uint64_t total = 0, logical = 0;
  for (const auto& [b, e] : runs) total += e - b;
  for (const auto& [b, e] : runs) {
    CheckAndRecord(info.shadow, true, write, read, b, e, role, 0, &info, nullptr, logical, total);
    logical += e - b;
  }
}

void CoreSanitizer::ScalarChecked(Access access, const BufferSlot* slot, uint64_t begin,
                                  uint64_t end, const char* call) {
  const bool write = access == Access::kWrite || access == Access::kReadWrite;
  const bool read = access == Access::kRead || access == Access::kReadWrite;
  BeginOp(trace::Pipe::kS, call, true);
  SlotInfo& info = Info(*slot);
  CheckAndRecord(info.shadow, true, write, read, begin, end, nullptr, 0, &info, nullptr);
}

void CoreSanitizer::GmChecked(trace::Pipe pipe, bool read, bool write, uint8_t atomic,
                              const GmRange& alloc, const Runs& runs, const char* call, bool log) {
  BeginOp(pipe, call, pipe == trace::Pipe::kS);
  if (gm_last_ == nullptr || gm_last_alloc_ != alloc.begin) {
    gm_last_ = &gm_.try_emplace(alloc.begin, /*untouched_init=*/true).first->second;
    gm_last_alloc_ = alloc.begin;
  }
  if (write) {
    op_writes_gm_ = true;
    if (has_dead_block_) DeadBlockGoesOut();  // a block nothing computed goes out
  }
  uint64_t total = 0, logical = 0;
  for (const auto& [b, e] : runs) total += e - b;
  for (const auto& [b, e] : runs) {
    CheckAndRecord(*gm_last_, false, write, read, b, e, nullptr, atomic, nullptr, &alloc, logical,
                   total);
    logical += e - b;
    if (!log) continue;  // a replay: the block logged these GM bytes when they came
    GmInterval iv;
    iv.begin = b;
    iv.end = e;
    iv.pipe = static_cast<uint8_t>(PipeIndex(pipe));
    iv.call = cur_.call;
    iv.name = call;
    iv.alloc = alloc;
    iv.block = LogIndex();
    if (read) {
      iv.kind = kGmRead;
      gm_log_.Add(iv);
    }
    if (write) {
      iv.kind = static_cast<uint8_t>(atomic != 0 ? kGmAtomic + atomic : kGmWrite);
      gm_log_.Add(iv);
    }
  }
}

// ---- buffers and ordering ----

void CoreSanitizer::CarvedChecked(const BufferSlot& slot) {
  Flush();
  SlotInfo& info = Info(slot);
  info.shadow.Clear();
  info.fresh_call = 0;
  info.has_enque = info.has_free = false;
}

void CoreSanitizer::QueueAllocChecked(const BufferSlot& slot, QueuePipes pipes) {
  Flush();
  has_cur_ = false;
  SlotInfo& info = Info(slot);
  if (info.has_free && pipes.src != trace::Pipe::kNone) {
    Import(PipeIndex(pipes.src), info.free);  // WaitFlag<dst_src> of FreeTensor's SetFlag
  }
  info.has_free = false;
  // The buffer's bytes are garbage again for whoever gets it (ordering history stays).
  const auto first = reinterpret_cast<uint64_t>(slot.addr);
  info.shadow.Apply(first, first + slot.bytes, [](ShadowState& s) { s.init = false; });
  info.fresh_call = core_.api_calls;
}

void CoreSanitizer::QueueEnQueChecked(const BufferSlot& slot, QueuePipes pipes) {
  Flush();
  has_cur_ = false;
  if (pipes.src == trace::Pipe::kNone) return;
  SlotInfo& info = Info(slot);
  info.enque = Export(PipeIndex(pipes.src));  // SetFlag<src_dst>
  info.has_enque = true;
}

void CoreSanitizer::QueueDeQueChecked(const BufferSlot& slot, QueuePipes pipes) {
  Flush();
  has_cur_ = false;
  SlotInfo& info = Info(slot);
  if (info.has_enque && pipes.dst != trace::Pipe::kNone) {
    Import(PipeIndex(pipes.dst), info.enque);  // WaitFlag<src_dst>
  }
  info.has_enque = false;
}

void CoreSanitizer::QueueFreeChecked(const BufferSlot& slot, QueuePipes pipes) {
  Flush();
  has_cur_ = false;
  if (pipes.dst == trace::Pipe::kNone) return;
  SlotInfo& info = Info(slot);
  info.free = Export(PipeIndex(pipes.dst));  // SetFlag<dst_src>
  info.has_free = true;
}

void CoreSanitizer::SetFlagChecked(uint32_t key, const char* event_name, int32_t id,
                                   trace::Pipe src) {
  Flush();
  has_cur_ = false;
  if (src == trace::Pipe::kNone) return;
  PendingFlag& f = flags_set_[key];
  f.token = Export(PipeIndex(src));
  f.call = core_.api_calls;
  f.event = event_name;
  f.id = id;
}

void CoreSanitizer::WaitFlagChecked(uint32_t key, trace::Pipe dst) {
  Flush();
  has_cur_ = false;
  auto it = flags_set_.find(key);
  if (it == flags_set_.end()) return;
  if (dst != trace::Pipe::kNone) Import(PipeIndex(dst), it->second.token);
  flags_set_.erase(it);
}

void CoreSanitizer::PipeBarrierChecked(trace::Pipe pipe, const char* what) {
  Flush();
  has_cur_ = false;
  if (pipe == trace::Pipe::kNone) {
    FullBarrier(what, true);
    return;
  }
  const int p = PipeIndex(pipe);
  if (!sync()) {
    Export(p);  // the pipe's later instructions wait for its earlier ones
    return;
  }
  Barrier b;  // kept to tell whether a later access relies on it (PIPE_S: never)
  b.pipe = p;
  b.call = core_.api_calls;
  b.what = what;
  b.before = vc_;
  Export(p);
  b.closed_at = closed_;
  barriers_.push_back(b);
}

void CoreSanitizer::FullBarrier(const char* what, bool report) {
  Flush();
  has_cur_ = false;
  Barrier b;
  if (sync()) b.before = vc_;
  Clock all{};
  for (int p = 0; p < kPipeCount; ++p) Export(p);
  for (int p = 0; p < kPipeCount; ++p) {
    for (int q = 0; q < kPipeCount; ++q) all[q] = std::max(all[q], vc_[p][q]);
  }
  for (int q = 0; q < kPipeCount; ++q) all[q] = std::max(all[q], closed_[q]);
  for (int p = 0; p < kPipeCount; ++p) vc_[p] = all;
  if (sync()) {
    b.pipe = -1;
    b.call = core_.api_calls;
    b.what = what;
    b.closed_at = closed_;
    b.report = report;
    barriers_.push_back(b);
  }
}

void CoreSanitizer::NoteOrderedBy(const AccessRef& a) {
  if (!sync() || barriers_.empty()) return;
  const int p = PipeIndex(cur_.pipe);
  // The latest barrier after `a` that orders a's pipe before p gets the credit.
  for (size_t i = barriers_.size(); i-- > 0;) {
    Barrier& b = barriers_[i];
    if (b.closed_at[a.pipe] < a.epoch) return;  // this barrier and every earlier one precede `a`
    const bool covers = b.pipe < 0 || (b.pipe == p && a.pipe == p && p != kS);
    if (!covers) continue;
    // A dependent pair on an in-order pipe (V) relies on the barrier when built without
    // bisheng's auto-sync; any other pair only when nothing ordered it before the barrier.
    if ((a.pipe == p && InOrder(p)) || b.before[p][a.pipe] < a.epoch) b.needed = true;
    return;
  }
}

void CoreSanitizer::CrossCoreRound() { gm_log_.NextEpoch(); }

void CoreSanitizer::EventIdAllocatedChecked(const char* event_name, uint32_t key, int32_t id) {
  event_ids_[key] = {core_.api_calls, id};
  event_names_[key] = event_name;
}

void CoreSanitizer::EventIdReleasedChecked(const char* event_name, uint32_t key, int32_t id) {
  auto it = event_ids_.find(key);
  if (it == event_ids_.end()) {
    if (sync()) {
      clean_ = false;
      Fault(ErrorKind::kSyncMisuse,
            Str("ReleaseEventID<", event_name, ">(", id,
                "): the id was not taken by AllocEventID (release only what AllocEventID "
                "returned)"));
    }
    return;
  }
  event_ids_.erase(it);
}

void CoreSanitizer::FinishBlockChecked() {
  Flush();
  if (sync()) {
    const PendingFlag* first = nullptr;
    for (const auto& [key, f] : flags_set_) {
      if (key >= kMutexKeyBase) continue;
      if (first == nullptr || f.call < first->call) first = &f;
    }
    if (first != nullptr) {
      clean_ = false;
      Fault(ErrorKind::kSyncMisuse,
            Str("SetFlag<", first->event, ">(EVENT_ID", first->id, ") (call ", first->call,
                ") was never waited for by the end of the kernel; every SetFlag needs its "
                "WaitFlag"));
    }
    const std::pair<const uint32_t, std::pair<uint64_t, int32_t>>* leak = nullptr;
    for (const auto& entry : event_ids_) {
      if (leak == nullptr || entry.second.first < leak->second.first) leak = &entry;
    }
    if (leak != nullptr) {
      clean_ = false;
      Fault(ErrorKind::kSyncMisuse,
            Str("AllocEventID<", event_names_[leak->first], ">() (call ", leak->second.first,
                ") took EVENT_ID", leak->second.second,
                ", never given back with ReleaseEventID; the device has 8 ids per event"));
    }
    for (const Barrier& b : barriers_) {
      if (!b.report || b.needed) continue;
      clean_ = false;
      if (b.pipe == kS) {
        Warn(Str("PipeBarrier<PIPE_S> (call ", b.call,
                 ") does nothing: the hardware keeps the scalar pipe in order and PipeBarrier "
                 "does not take PIPE_S"),
             "redundant PipeBarrier<PIPE_S>");
        continue;
      }
      Warn(Str("PipeBarrier<", b.what, "> (call ", b.call,
               ") is redundant: no later access depends on one it waits for, so it only costs "
               "time on the device"),
           Str("redundant PipeBarrier<", b.what, ">"));
    }
  }
  HandOver();
}

void CoreSanitizer::HandOver() {
  if (handed_over_) return;
  // A following block that stops early (a fault of another check) ends as a full check would:
  // its pending op flushed from the state the matched calls give.
  if (mode_ == Mode::kFollow && !finished_) Diverge();
  handed_over_ = true;
  if (!finished_) Flush();
  launch_.AddBlockLog(LogIndex(), gm_log_);
}

// ---- messages ----

namespace {

bool HardEventExists(const std::string& name) {
  for (int e = 0; e < static_cast<int>(AscendC::HardEvent::MAX); ++e) {
    if (name == AscendC::HardEventName(static_cast<AscendC::HardEvent>(e))) return true;
  }
  return false;
}

// What would have ordered an access on `from` before one on `to`, in words.
std::string MissingSync(int from, int to) {
  if (from == to) {
    return Str("PipeBarrier<PIPE_", PipeNameOf(from),
               "> between them (copies on one MTE pipe may be in flight together)");
  }
  const std::string event = Str(PipeNameOf(from), "_", PipeNameOf(to));
  if (!HardEventExists(event)) return "PipeBarrier<PIPE_ALL> between them";
  std::string fix = Str("SetFlag/WaitFlag<HardEvent::", event, ">");
  static const char* const kForward[] = {"MTE2_V",    "V_MTE3", "MTE2_MTE3",
                                         "MTE2_MTE1", "MTE1_M", "M_FIX"};
  static const char* const kReverse[] = {"V_MTE2",    "MTE3_V", "MTE3_MTE2",
                                         "MTE1_MTE2", "M_MTE1", "FIX_M"};
  for (const char* f : kForward) {
    if (event == f) fix += " or queue (EnQue/DeQue)";
  }
  for (const char* r : kReverse) {
    if (event == r) fix += " or FreeTensor/AllocTensor";
  }
  fix += " between them";
  if (from == kS || to == kS) {
    fix +=
        " (the kernel was built without --cce-auto-sync; bisheng's --cce-auto-sync would "
        "insert it)";
  }
  return fix;
}

std::string Describe(const char* pipe_name, const char* name, uint64_t call) {
  return Str(pipe_name, " ", name != nullptr ? name : "?", " (call ", call, ")");
}

}  // namespace

std::string CoreSanitizer::Region(bool local, uint64_t begin, uint64_t end, const SlotInfo* info,
                                  const GmRange* alloc) const {
  if (local) {
    const BufferSlot& slot = *info->slot;
    const Memory memory = PositionMemory(slot.position, core_.launch->soc->arch);
    if (memory == Memory::kUb) {
      const auto ub = reinterpret_cast<uint64_t>(core_.ub);
      return Str("UB [", Hex(begin - ub), ", ", Hex(end - ub), ") of ", DescribeSlot(slot));
    }
    const auto base = reinterpret_cast<uint64_t>(slot.addr);
    return Str(MemoryName(memory), " bytes [", begin - base, ", ", end - base, ") of ",
               DescribeSlot(slot));
  }
  const auto base = reinterpret_cast<uint64_t>(alloc->begin);
  const auto size = static_cast<uint64_t>(alloc->end - alloc->begin);
  if (begin < base || end > base + size) {
    return Str("GM [", Hex(begin), ", ", Hex(end), ")");
  }
  return Str("GM bytes [", begin - base, ", ", end - base, ") of the ", size, " B allocation at ",
             Hex(base));
}

void CoreSanitizer::ReportRace(const AccessRef& earlier, bool earlier_write, bool now_write,
                               uint8_t now_atomic, uint64_t begin, uint64_t end, const char* role,
                               bool local, const SlotInfo* info, const GmRange* alloc) {
  clean_ = false;
  const int now_pipe = PipeIndex(cur_.pipe);
  std::string now_verb = now_write ? "writes" : "reads";
  if (now_write && now_atomic == kGmZeroFillOp) {
    now_verb = "fills with zeros (InitOutput)";
  } else if (now_write && now_atomic != 0) {
    now_verb =
        Str("accumulates (SetAtomic", AtomicOpName(static_cast<AtomicOp>(now_atomic)), ") into");
  }
  std::string then_verb = earlier_write ? "wrote" : "read";
  if (earlier_write && earlier.atomic == kGmZeroFillOp) {
    then_verb = "filled with zeros (InitOutput)";
  } else if (earlier_write && earlier.atomic != 0) {
    then_verb = Str("accumulated into (SetAtomic",
                    AtomicOpName(static_cast<AtomicOp>(earlier.atomic)), ")");
  }
  Fault(ErrorKind::kRace, Str("race: ", Describe(PipeNameOf(now_pipe), cur_.name, cur_.call), " ",
                              now_verb, " ", role != nullptr ? Str(role, " ") : std::string(),
                              Region(local, begin, end, info, alloc), ", which ",
                              Describe(PipeNameOf(earlier.pipe), NameOf(earlier), earlier.call),
                              " ", then_verb, ", with no ", MissingSync(earlier.pipe, now_pipe)));
}

void CoreSanitizer::ReportUndefined(uint64_t begin, uint64_t end, const ShadowState& s, bool local,
                                    const char* role, const SlotInfo* info, const GmRange* alloc,
                                    const char* what) {
  clean_ = false;
  std::string origin;
  if (s.tainted) {  // written, from undefined bytes
    const bool copy = s.write.pipe == kMte2 || s.write.pipe == kMte3;
    origin = Str("which ", Describe(PipeNameOf(s.write.pipe), NameOf(s.write), s.write.call),
                 copy ? " copied from bytes nothing wrote" : " computed from bytes nothing wrote");
  } else {
    const std::string since = info == nullptr || info->fresh_call == 0
                                  ? std::string("InitBuffer")
                                  : Str("AllocTensor (call ", info->fresh_call, ")");
    origin = Str("which nothing wrote since ", since);
  }
  std::string detail;
  if (std::strcmp(what, "copies out") == 0) {
    detail = s.tainted ? "; every byte of that 32-byte block is undefined, and the copy takes it "
                         "to GM (a block holding some result goes out whole without a report)"
                       : "; no block of the copy holds a result, and it takes them to GM (blocks "
                         "nothing wrote beside results only warn, as output padding)";
  }
  Fault(
      ErrorKind::kUninitializedRead,
      Str("uninitialized read: ", Describe(PipeNameOf(PipeIndex(cur_.pipe)), cur_.name, cur_.call),
          " ", what, " ", role != nullptr ? Str(role, " ") : std::string(),
          Region(local, begin, end, info, alloc), ", ", origin, detail));
}

void CoreSanitizer::JudgeDeferredDeadBlock() {
  dead_deferred_ = false;
  clean_ = false;  // a fault or a warning below
  if (!op_live_out_) {
    ReportUndefined(dead_begin_, dead_end_, dead_state_, true, dead_role_, dead_info_, nullptr,
                    "copies out");
  }
  const SlotInfo& info = *dead_info_;
  const std::string since = info.fresh_call == 0 ? std::string("InitBuffer")
                                                 : Str("AllocTensor (call ", info.fresh_call, ")");
  Warn(Str(Describe(PipeNameOf(PipeIndex(cur_.pipe)), cur_.name, cur_.call), " copies out ",
           Region(true, dead_begin_, dead_end_, dead_info_, nullptr),
           ", which nothing wrote since ", since,
           ", beside blocks holding results: output padding the host may not read (the device "
           "copies whatever the buffer holds; ASCSIM_STRICT=1 makes this an error)"),
       Str("copies-out-unwritten/", cur_.name));
}

}  // namespace ascsim::aicore
