#include "ascsim/aicore/tpipe.h"

#include <cstring>

#include "aicore/sanitizer/core_sanitizer.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/kernel_type.h"

namespace AscendC {

const char* PositionName(TPosition pos) {
  switch (pos) {
    case TPosition::GM:
      return "GM";
    case TPosition::A1:
      return "A1";
    case TPosition::A2:
      return "A2";
    case TPosition::B1:
      return "B1";
    case TPosition::B2:
      return "B2";
    case TPosition::C1:
      return "C1";
    case TPosition::C2:
      return "C2";
    case TPosition::CO1:
      return "CO1";
    case TPosition::CO2:
      return "CO2";
    case TPosition::VECIN:
      return "VECIN";
    case TPosition::VECOUT:
      return "VECOUT";
    case TPosition::VECCALC:
      return "VECCALC";
    case TPosition::SPM:
      return "SPM";
    case TPosition::TSCM:
      return "TSCM";
    case TPosition::C2PIPE2GM:
      return "C2PIPE2GM";
    case TPosition::C2PIPE2LOCAL:
      return "C2PIPE2LOCAL";
    case TPosition::MAX:
      break;
  }
  return "?";
}

const char* HardEventName(HardEvent event) {
  static const char* const kNames[] = {
      "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1",    "MTE2_V",    "V_MTE2", "MTE3_V", "V_MTE3",
      "M_V",       "V_M",       "V_V",    "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2",
      "V_MTE1",    "M_FIX",     "FIX_M",  "MTE3_MTE2", "MTE2_MTE3", "S_V",    "V_S",    "S_MTE2",
      "MTE2_S",    "S_MTE3",    "MTE3_S", "MTE2_FIX",  "FIX_MTE2",  "FIX_S",  "M_S",    "FIX_MTE3"};
  const auto i = static_cast<size_t>(event);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "?";
}

// One TPipe per kernel at a time. asc-devkit docs, TPipe构造函数.md: "TPipe对象同一时刻全局只能存在
// 一份，同时定义多个TPipe对象，会出现卡死等随机行为。如果需要使用多个TPipe时，请先调用Destroy接口释放前
// 一个TPipe" (and TPipe简介.md: a kernel initialises exactly one TPipe; the tpipe_reuse sample
// calls pipe1.Destroy() before constructing pipe2). So a second TPipe while the first is alive
// and not Destroy()ed is an error here, not a second allocator over the same UB.
TPipe::TPipe() : core_(&ascsim::aicore::CurrentCore()), previous_(core_->queues.pipe) {
  ascsim::aicore::EnterApiCall(*core_);
  if (core_->queues.active_pipe != nullptr) {
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kInvalidArgument,
        ascsim::aicore::Str("TPipe: another TPipe is still alive on this core (",
                            core_->queues.active_pipe->used_bytes(), " B of UB from offset 0 in ",
                            core_->queues.active_pipe->buffer_count(),
                            " buffers); one TPipe manages UB per kernel and two would alias it "
                            "(the device may hang): call Destroy() on the first before "
                            "constructing the next"));
  }
  core_->queues.pipe = this;
  core_->queues.active_pipe = this;
}

namespace {
// Tensors of this pipe still allocated stop counting towards the per-position limit.
void ReleaseLiveAllocs(ascsim::aicore::CoreContext& core, ascsim::aicore::BufferSlot* const* slots,
                       uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    const ascsim::aicore::BufferSlot& slot = *slots[i];
    const auto pos = static_cast<size_t>(slot.position);
    if (slot.is_queue && slot.state != ascsim::aicore::BufferState::kFree &&
        pos < ascsim::aicore::kPositionSlots && core.queues.live_allocs_per_position[pos] > 0) {
      --core.queues.live_allocs_per_position[pos];
    }
  }
}
}  // namespace

TPipe::~TPipe() {
  ReleaseLiveAllocs(*core_, slots_, slot_count_);
  RetireForGood();
  if (core_->queues.pipe == this) core_->queues.pipe = previous_;
  if (core_->queues.active_pipe == this) core_->queues.active_pipe = nullptr;
}

TPipe& TPipe::operator=(const TPipe& other) {
  ascsim::aicore::EnterApiCall(*core_);
  ascsim::aicore::Fault(
      ascsim::ErrorKind::kInvalidArgument,
      ascsim::aicore::Str("TPipe::operator=: copying a TPipe (", other.used_bytes(), " B of UB in ",
                          other.buffer_count(),
                          " buffers) into another is not simulated; ascsim keeps one TPipe per "
                          "kernel: pass the kernel's TPipe by pointer or reference instead"));
}

void TPipe::Destroy() {
  Reset();
  RetireForGood();
  if (core_->queues.active_pipe == this) core_->queues.active_pipe = nullptr;
}

void TPipe::RetireForGood() {
  // The records stay in the block's SlotStore, so LocalTensors still point at them.
  for (uint32_t i = 0; i < slot_count_; ++i) {
    ++slots_[i]->generation;  // every outstanding tensor becomes stale
    slots_[i]->pipe_gone = true;
  }
  for (ascsim::aicore::BufferSlot* slot : retired_) slot->pipe_gone = true;
  slot_count_ = 0;
  retired_.clear();
  for (uint32_t& used : used_) used = 0;
}

void TPipe::Reset() {
  // The device's TPipe::Destroy waits for every pipe first (DestroyWithoutPipeAll does not).
  if (core_->sanitizer != nullptr) core_->sanitizer->PipeDestroyed();
  ReleaseLiveAllocs(*core_, slots_, slot_count_);
  for (uint32_t i = 0; i < slot_count_; ++i) {
    ++slots_[i]->generation;  // every outstanding tensor becomes stale
    slots_[i]->retired = true;
    retired_.push_back(slots_[i]);
  }
  slot_count_ = 0;
  for (uint32_t& used : used_) used = 0;
}

ascsim::aicore::BufferSlot* TPipe::Carve(uint32_t len, TPosition pos,
                                         ascsim::aicore::Memory memory) {
  const uint32_t rounded = static_cast<uint32_t>(ascsim::aicore::RoundUpToBlock(len));
  const int m = static_cast<int>(memory);
  ascsim::aicore::BufferSlot& slot = *core_->queues.slot_store->Take();
  // A buffer in a memory this sub-core lacks (booked only, see MemoryFor) has no address.
  slot.addr = core_->mem_base[m] != nullptr ? core_->mem_base[m] + used_[m] : nullptr;
  slot.bytes = rounded;
  slot.id = core_->queues.next_buffer_id++;
  slot.trace = core_->trace;
  slot.sanitizer = core_->sanitizer;
  slot.position = pos;
  slot.memory = memory;
  slot.mem_offset = used_[m];
  used_[m] += rounded;
  // ASCSIM_UB_FILL: fresh local memory holds a known pattern (NaN: 0xFF) instead of the last
  // kernel's data.
  if (core_->launch->ub_fill >= 0 && slot.addr != nullptr) {
    std::memset(slot.addr, core_->launch->ub_fill, rounded);
  }
  slots_[slot_count_++] = &slot;  // InitQueue / InitTBuf checked the count against the limit
  if (core_->sanitizer != nullptr) core_->sanitizer->Carved(slot);
  return &slot;
}

ascsim::aicore::Memory TPipe::MemoryFor(TPosition pos, const std::string& what) {
  using ascsim::aicore::Memory;
  using ascsim::aicore::Str;
  const ascsim::SocProfile& soc = *core_->launch->soc;
  const Memory memory = ascsim::aicore::PositionMemory(pos, soc.arch);
  if (memory == Memory::kGm || memory == Memory::kNone) {
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kInvalidArgument,
        Str("InitBuffer: ", what, ": TPosition::", PositionName(pos),
            memory == Memory::kGm ? " is Global Memory on " : " has no local memory on ", soc.name,
            ", not a local buffer",
            pos == TPosition::CO2 ? " (L0C results leave through Fixpipe on this arch)" : ""));
  }
  if (memory != Memory::kUb) {
    // The runtime's probe of an undeclared kernel: a cube buffer means a cube kernel.
    ascsim::aicore::RevealCubeUse(*core_, "InitBuffer");
    ascsim::aicore::EnsureCubeMemories(*core_);
  }
  const int m = static_cast<int>(memory);
  if (!ascsim::aicore::UnitHasMemory(core_->unit, memory) || core_->mem_base[m] == nullptr) {
    // A mix kernel's code runs on the AIC and on the AIVs, and the official samples set up
    // both sides' buffers before ASCEND_IS_AIC/AIV branches: the device's TPipe only keeps the
    // books then. The buffer is booked here too; using it on this sub-core faults (AllocTensor,
    // TBuf::Get).
    if (core_->launch->layout == ascsim::aicore::KernelLayout::kMix) return memory;
    const bool aic = core_->unit == ascsim::aicore::CoreUnit::kAic;
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kInvalidArgument,
        Str("InitBuffer: ", what, ": TPosition::", PositionName(pos), " is ",
            ascsim::aicore::MemoryLongName(memory), ", which the ",
            ascsim::aicore::CoreUnitName(core_->unit), " of ", soc.name, " does not have",
            aic ? " (vector work runs on the AIV: guard it with ASCEND_IS_AIV and declare a mix "
                  "kernel type, e.g. KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2))"
            : core_->unit == ascsim::aicore::CoreUnit::kAiv
                ? " (cube work runs on the AIC: guard it with ASCEND_IS_AIC and declare a mix "
                  "kernel type, e.g. KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2))"
                : "",
            ascsim::aicore::KernelModeNote()));
  }
  return memory;
}

uint32_t TPipe::MemoryCapacity(ascsim::aicore::Memory memory) const {
  using ascsim::aicore::Memory;
  if (pool_ != nullptr && pool_->memory == memory) return pool_->base + pool_->size;
  const int m = static_cast<int>(memory);
  if (core_->mem_size[m] != 0) return core_->mem_size[m];
  return ascsim::MemoryBytes(*core_->launch->soc, memory);  // a booked-only memory: the profile's
}

void TPipe::CheckCapacity(ascsim::aicore::Memory memory, const std::string& what, uint64_t num,
                          uint64_t rounded, bool tbuf) {
  using ascsim::aicore::Str;
  const int m = static_cast<int>(memory);
  const uint32_t capacity = MemoryCapacity(memory);
  if (used_[m] + rounded * num <= capacity) return;
  const char* soc = core_->launch->soc->name;
  if (pool_ != nullptr && pool_->memory == memory) {
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kUbOverflow,
        Str("InitBuffer: ", what, " needs ", num, " x ", rounded, " B at ",
            ascsim::aicore::MemoryName(memory), " offset ", used_[m], ", exceeding its TBufPool [",
            pool_->base, ", ", pool_->base + pool_->size, ")"));
  }
  if (memory == ascsim::aicore::Memory::kUb) {  // the message the vector side always gave
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kUbOverflow,
        Str("InitBuffer: ", what, " needs ", num, " x ", rounded, " B at UB offset ", used_[m],
            ", exceeding the Unified Buffer (", capacity, " B on ", soc, ")"));
  }
  ascsim::aicore::Fault(
      ascsim::ErrorKind::kUbOverflow,
      Str("InitBuffer: ", what, " needs ", tbuf ? "" : Str(num, " x "), rounded, " B at ",
          ascsim::aicore::MemoryName(memory), " offset ", used_[m], ", exceeding ",
          ascsim::aicore::MemoryLongName(memory), " (", capacity, " B on ", soc, ")"));
}

bool TPipe::InitQueue(ascsim::aicore::QueueBase& que, uint32_t num, uint32_t len) {
  using ascsim::aicore::Str;
  ascsim::aicore::EnterApiCall(*core_);
  // The queue's name is built only when a check fails (a string stream per call is most of a
  // small launch's cost otherwise).
  const auto what = [&que] { return que.Describe(); };
  if (num == 0 || len == 0) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str("InitBuffer: ", what(), " needs num >= 1 and len >= 1 (got num ", num,
                              ", len ", len, ")"));
  }
  if (!que.slots_.empty() && (que.slots_[0]->pipe_gone || que.slots_[0]->retired)) {
    // The queue's buffers came from a TPipe since destroyed, or were released by Reset (the
    // documented InitBuffer -> process -> Reset loop, asc-devkit docs TPipe/Reset.md): it starts
    // over with new buffers.
    que.slots_.clear();
    que.FifoClear();
    que.next_alloc_ = 0;
  }
  if (!que.slots_.empty()) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str("InitBuffer: ", what(), " already has buffers"));
  }
  // After Reset/Destroy the queue starts over with new buffers (the documented
  // InitBuffer -> process -> Reset loop, asc-devkit docs TPipe/Reset.md).
  que.slots_.clear();
  que.FifoClear();
  que.next_alloc_ = 0;
  const uint64_t rounded = ascsim::aicore::RoundUpToBlock(len);
  if (slot_count_ + num > ascsim::aicore::kMaxBuffersPerTPipe) {
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kUbOverflow,
        Str("InitBuffer: ", what(), " asks for ", num, " buffers; one TPipe holds at most ",
            ascsim::aicore::kMaxBuffersPerTPipe, " (", slot_count_, " in use)"));
  }
  if (que.dst_ == TPosition::TSCM) {
    // CANN carves these in the L1 Buffer (TscmInitBuffer, asc-devkit
    // impl/basic_api/kernel_tpipe_impl.h) and an AIV fills them through a GM staging copy;
    // neither is modelled, and a UB buffer in their place would give the Cube wrong memory.
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str("InitBuffer: ", what(),
                              ": a TSCM queue (L1 Buffer written from VECIN or GM for the Cube) "
                              "is not simulated; use TQue<TPosition::A1/B1> on the AIC"));
  }
  const ascsim::aicore::Memory memory = que.src_ == TPosition::VECIN ||
                                                que.src_ == TPosition::VECOUT ||
                                                que.src_ == TPosition::VECCALC
                                            ? ascsim::aicore::Memory::kUb
                                            : MemoryFor(que.src_, what());
  if (memory == ascsim::aicore::Memory::kUb && core_->ub == nullptr) MemoryFor(que.src_, what());
  if (used_[static_cast<int>(memory)] + rounded * num > MemoryCapacity(memory)) {
    CheckCapacity(memory, what(), num, rounded);
  }
  que.slots_.reserve(num);
  for (uint32_t i = 0; i < num; ++i) {
    ascsim::aicore::BufferSlot* slot = Carve(len, que.src_, memory);
    slot->owner = que.identity_;
    slot->index = i;
    slot->is_queue = true;
    que.slots_.push_back(slot);
  }
  return true;
}

bool TPipe::InitTBuf(ascsim::aicore::TBufBase& buf, uint32_t len) {
  using ascsim::aicore::Str;
  ascsim::aicore::EnterApiCall(*core_);
  const uint64_t rounded = ascsim::aicore::RoundUpToBlock(len);
  const auto what = [&buf] { return Str(PositionName(buf.pos_), " TBuf"); };
  if (len == 0) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str("InitBuffer: ", PositionName(buf.pos_), " TBuf needs len >= 1"));
  }
  if (slot_count_ + 1 > ascsim::aicore::kMaxBuffersPerTPipe) {
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kUbOverflow,
        Str("InitBuffer: ", PositionName(buf.pos_), " TBuf: one TPipe holds at most ",
            ascsim::aicore::kMaxBuffersPerTPipe, " buffers"));
  }
  const ascsim::aicore::Memory memory = buf.pos_ == TPosition::VECCALC ||
                                                buf.pos_ == TPosition::VECIN ||
                                                buf.pos_ == TPosition::VECOUT
                                            ? ascsim::aicore::Memory::kUb
                                            : MemoryFor(buf.pos_, what());
  if (memory == ascsim::aicore::Memory::kUb && core_->ub == nullptr) MemoryFor(buf.pos_, what());
  const int m = static_cast<int>(memory);
  if (used_[m] + rounded > core_->mem_size[m] || (pool_ != nullptr && pool_->memory == memory &&
                                                  used_[m] + rounded > MemoryCapacity(memory))) {
    if (memory == ascsim::aicore::Memory::kUb && (pool_ == nullptr || pool_->memory != memory)) {
      ascsim::aicore::Fault(ascsim::ErrorKind::kUbOverflow,
                            Str("InitBuffer: ", PositionName(buf.pos_), " TBuf needs ", rounded,
                                " B at UB offset ", used_[m], ", exceeding the Unified Buffer (",
                                core_->ub_size, " B on ", core_->launch->soc->name, ")"));
    }
    CheckCapacity(memory, what(), 1, rounded, /*tbuf=*/true);
  }
  ascsim::aicore::BufferSlot* slot = Carve(len, buf.pos_, memory);
  slot->owner = &buf;
  slot->state = ascsim::aicore::BufferState::kFixed;
  buf.slot_ = slot;
  return true;
}

void TPipe::Init() {
  ascsim::aicore::EnterApiCall(*core_);
  if (core_->queues.active_pipe == this) return;  // the constructor has done it
  if (core_->queues.active_pipe != nullptr) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          "TPipe::Init: another TPipe is alive on this core; Destroy() it first");
  }
  core_->queues.pipe = this;
  core_->queues.active_pipe = this;
}

void TPipe::CarvePool(ascsim::aicore::PoolRegion& pool, TPosition pos, uint32_t len,
                      uint32_t max_buffers, ascsim::aicore::PoolRegion* parent,
                      const ascsim::aicore::PoolRegion* share, const char* what) {
  using ascsim::aicore::Memory;
  using ascsim::aicore::Str;
  ascsim::aicore::EnterApiCall(*core_);
  const Memory memory = MemoryFor(pos, what);
  if (memory != Memory::kUb && memory != Memory::kL1) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str(what, ": TPosition::", PositionName(pos),
                              " is not UB or L1; a TBufPool lives in one of them"));
  }
  if (len == 0) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument, Str(what, ": len must be > 0"));
  }
  if (max_buffers > 16) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str(what, ": bufIDSize ", max_buffers, " exceeds 16"));
  }
  const uint32_t rounded = static_cast<uint32_t>(ascsim::aicore::RoundUpToBlock(len));
  pool = ascsim::aicore::PoolRegion{};
  pool.pipe = this;
  pool.memory = memory;
  pool.max_buffers = max_buffers;
  pool.ready = true;
  if (share != nullptr) {
    if (!share->ready || share->pipe != this) {
      ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                            Str(what, ": the shared TBufPool was not initialised by this TPipe"));
    }
    if (share->memory != memory || rounded > share->size) {
      ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                            Str(what, ": ", rounded, " B of ", ascsim::aicore::MemoryName(memory),
                                " cannot share a TBufPool of ", share->size, " B of ",
                                ascsim::aicore::MemoryName(share->memory),
                                " (same memory, no longer than the shared pool)"));
    }
    pool.base = share->base;
    pool.size = share->size;  // CANN: maxLen_ of the shared pool
    pool.cursor = pool.base;
    return;
  }
  if (parent != nullptr) {
    if (parent->memory != memory) {
      ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                            Str(what, ": a TBufPool of ", ascsim::aicore::MemoryName(memory),
                                " inside one of ", ascsim::aicore::MemoryName(parent->memory)));
    }
    if (parent->cursor + rounded > parent->base + parent->size) {
      ascsim::aicore::Fault(
          ascsim::ErrorKind::kUbOverflow,
          Str(what, ": ", rounded, " B at offset ", parent->cursor, " exceed the parent TBufPool [",
              parent->base, ", ", parent->base + parent->size, ")"));
    }
    pool.base = parent->cursor;
    parent->cursor += rounded;
  } else {
    const int m = static_cast<int>(memory);
    if (used_[m] + rounded > MemoryCapacity(memory)) {
      ascsim::aicore::Fault(
          ascsim::ErrorKind::kUbOverflow,
          Str(what, ": ", rounded, " B at ", ascsim::aicore::MemoryName(memory), " offset ",
              used_[m], " exceed ", ascsim::aicore::MemoryLongName(memory), " (",
              MemoryCapacity(memory), " B)"));
    }
    pool.base = used_[m];
    used_[m] += rounded;
  }
  pool.size = rounded;
  pool.cursor = pool.base;
}

void TPipe::EnterPool(ascsim::aicore::PoolRegion& pool, uint32_t buffers, const char* what) {
  using ascsim::aicore::Str;
  ascsim::aicore::EnterApiCall(*core_);
  if (!pool.ready || pool.pipe != this) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str(what, ": the TBufPool was not initialised (InitBufPool)"));
  }
  // impl/basic_api/kernel_tbufpool_impl.h: a pool holds at most QBUFPOOL_MAX_LEN (16) buffers.
  if (pool.buffers + buffers > 16) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str(what, ": ", buffers, " more buffers exceed the 16 a TBufPool holds (",
                              pool.buffers, " in use)"));
  }
  const int m = static_cast<int>(pool.memory);
  pool_ = &pool;
  pool_saved_used_ = used_[m];
  used_[m] = pool.cursor;
}

void TPipe::LeavePool(ascsim::aicore::PoolRegion& pool) {
  const int m = static_cast<int>(pool.memory);
  pool.cursor = used_[m];
  used_[m] = pool_saved_used_;
  pool_ = nullptr;
}

namespace {
uint32_t EventKey(HardEvent evt, int32_t id) {
  return static_cast<uint32_t>(evt) * ascsim::aicore::kEventIdCount + static_cast<uint32_t>(id);
}
}  // namespace

TEventID TPipe::FetchEventID(HardEvent evt) {
  const uint8_t taken = taken_event_ids_[static_cast<int>(evt)];
  for (uint32_t id = 0; id < ascsim::aicore::kEventIdCount; ++id) {
    if (((taken >> id) & 1u) == 0) return static_cast<TEventID>(id);
  }
  ascsim::aicore::Fault(ascsim::ErrorKind::kSyncMisuse,
                        ascsim::aicore::Str("FetchEventID<", HardEventName(evt),
                                            ">: all 8 event ids are taken by AllocEventID "
                                            "(missing ReleaseEventID?)"));
}

TEventID TPipe::TakeEventId(HardEvent evt) {
  ascsim::aicore::EnterApiCall(*core_);
  const TEventID id = FetchEventID(evt);
  taken_event_ids_[static_cast<int>(evt)] |= static_cast<uint8_t>(1u << id);
  if (core_->sanitizer != nullptr) {
    core_->sanitizer->EventIdAllocated(HardEventName(evt), EventKey(evt, id), id);
  }
  return id;
}

void TPipe::GiveBackEventId(HardEvent evt, TEventID id) {
  ascsim::aicore::EnterApiCall(*core_);
  if (id < 0 || id >= static_cast<TEventID>(ascsim::aicore::kEventIdCount)) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kSyncMisuse,
                          ascsim::aicore::Str("ReleaseEventID<", HardEventName(evt), ">(", int(id),
                                              "): event id must be in 0..7"));
  }
  if (core_->sanitizer != nullptr) {
    core_->sanitizer->EventIdReleased(HardEventName(evt), EventKey(evt, id), id);
  }
  taken_event_ids_[static_cast<int>(evt)] &= static_cast<uint8_t>(~(1u << id));
}

TPipe* GetTPipePtr() {
  TPipe* pipe = ascsim::aicore::CurrentCore().queues.pipe;
  if (pipe == nullptr) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          "GetTPipePtr: no TPipe has been constructed in this kernel");
  }
  return pipe;
}

}  // namespace AscendC

namespace ascsim::aicore {

const char* BufferStateName(BufferState state) {
  switch (state) {
    case BufferState::kFree:
      return "free";
    case BufferState::kAllocated:
      return "allocated";
    case BufferState::kQueued:
      return "queued";
    case BufferState::kDequeued:
      return "dequeued";
    case BufferState::kFixed:
      return "TBuf";
  }
  return "?";
}

std::string DescribeSlot(const BufferSlot& slot) {
  if (!slot.is_queue) return Str("the ", AscendC::PositionName(slot.position), " TBuf");
  return Str("buffer ", slot.index, " of ", static_cast<const QueueBase*>(slot.owner)->Describe());
}

std::string QueueBase::Describe() const {
  if (src_ == dst_) return Str(AscendC::PositionName(src_), " queue");
  return Str(AscendC::PositionName(src_), "->", AscendC::PositionName(dst_), " queue");
}

void QueueBase::FifoPush(BufferSlot* slot) {
  slot->next_queued = nullptr;
  if (fifo_tail_ != nullptr) {
    fifo_tail_->next_queued = slot;
  } else {
    fifo_head_ = slot;
  }
  fifo_tail_ = slot;
  ++fifo_count_;
}

BufferSlot* QueueBase::FifoPop() {
  BufferSlot* slot = fifo_head_;
  fifo_head_ = slot->next_queued;
  if (fifo_head_ == nullptr) fifo_tail_ = nullptr;
  slot->next_queued = nullptr;
  --fifo_count_;
  return slot;
}

BufferSlot* SlotStore::Take() {
  if (used_ == records_.size()) {
    records_.emplace_back();
    return &records_[used_++];
  }
  BufferSlot& record = records_[used_++];
  const uint32_t generation = record.generation + 1;
  record = BufferSlot{};
  record.generation = generation;
  return &record;
}

uint32_t QueueBase::idle() const {
  uint32_t n = 0;
  for (const BufferSlot* s : slots_) n += s->state == BufferState::kFree;
  return n;
}

namespace {
void RecordQueueCall(const char* name, trace::CallKind kind, const BufferSlot* slot) {
  Record(CurrentCore(), [&] {
    trace::ApiCall call{};
    call.name = name;
    call.kind = kind;
    call.pipe = trace::Pipe::kNone;
    call.dst_buffer = slot->id;
    return call;
  });
}
}  // namespace

namespace {
// "同一个TPosition上的所有Queue，连续调用AllocTensor接口申请的Tensor数量" is limited (8 on 910B):
// the limit counts tensors allocated and not yet freed across every queue of one position, not the
// buffers InitBuffer carves. Past it the device fails to allocate (CPU debug reports an error).
void CheckPositionLimit(CoreContext& core, const QueueBase& que, AscendC::TPosition position) {
  const auto pos = static_cast<size_t>(position);
  if (pos >= ascsim::aicore::kPositionSlots) return;
  const int limit = core.launch->soc->max_buffers_per_position;
  if (core.queues.live_allocs_per_position[pos] >= limit) {
    Fault(ErrorKind::kQueueMisuse,
          Str("AllocTensor on ", que.Describe(), ": ",
              core.queues.live_allocs_per_position[pos] + 1, " tensors allocated at once on ",
              AscendC::PositionName(position), " (across all its queues) exceeds the limit of ",
              limit, " on ", core.launch->soc->name, "; FreeTensor one first or use fewer queues"));
  }
  ++core.queues.live_allocs_per_position[pos];
}
}  // namespace

namespace {
[[noreturn]] void FaultPipeGone(const char* call, const std::string& what) {
  Fault(ErrorKind::kQueueMisuse,
        Str(call, " on ", what, ": its TPipe was destroyed (InitBuffer it on the new TPipe)"));
}
}  // namespace

QueueBase::QueueBase(const QueueBase& other)
    : src_(other.src_),
      dst_(other.dst_),
      depth_(other.depth_),
      identity_(other.identity_),
      slots_(other.slots_),
      next_alloc_(other.next_alloc_) {
  if (other.fifo_count_ > 0) {
    Fault(ErrorKind::kQueueMisuse,
          Str("copy of ", Describe(), ": it holds ", other.fifo_count_,
              " enqueued tensor(s); two queues sharing enqueued buffers are not simulated (pass "
              "the TQue by reference)"));
  }
}

QueueBase& QueueBase::operator=(const QueueBase& other) {
  if (this == &other) return *this;
  if (other.fifo_count_ > 0) {
    Fault(ErrorKind::kQueueMisuse,
          Str("assignment from ", other.Describe(), ": it holds ", other.fifo_count_,
              " enqueued tensor(s); two queues sharing enqueued buffers are not simulated (keep "
              "a reference to the TQue)"));
  }
  if (fifo_count_ > 0) {
    Fault(ErrorKind::kQueueMisuse,
          Str("assignment to ", Describe(), ": it holds ", fifo_count_,
              " enqueued tensor(s), which would never be dequeued (DeQue them first)"));
  }
  src_ = other.src_;
  dst_ = other.dst_;
  depth_ = other.depth_;
  identity_ = other.identity_;
  slots_ = other.slots_;
  next_alloc_ = other.next_alloc_;
  FifoClear();
  return *this;
}

BufferSlot* QueueBase::AllocSlot() {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (!slots_.empty() && slots_[0]->pipe_gone) FaultPipeGone("AllocTensor", Describe());
  if (slots_.empty()) {
    Fault(ErrorKind::kQueueMisuse, Str("AllocTensor on ", Describe(),
                                       ": the queue has no buffers (call pipe.InitBuffer first)"));
  }
  if (slots_[0]->addr == nullptr) FaultAbsentMemory(core, "AllocTensor", *slots_[0], Describe());
  // Buffers are handed out in turn, as the device's queue does.
  for (uint32_t k = 0; k < slots_.size(); ++k) {
    BufferSlot* slot = slots_[(next_alloc_ + k) % slots_.size()];
    if (slot->state == BufferState::kFree) {
      CheckPositionLimit(core, *this, slot->position);
      next_alloc_ = (next_alloc_ + k + 1) % slots_.size();
      slot->state = BufferState::kAllocated;
      if (core.launch->ub_fill >= 0) std::memset(slot->addr, core.launch->ub_fill, slot->bytes);
      if (core.sanitizer != nullptr) {
        core.sanitizer->QueueAlloc(*slot, core.sanitizer->EventPipes(src_, dst_));
      }
      RecordQueueCall("AllocTensor", trace::CallKind::kAllocTensor, slot);
      return slot;
    }
  }
  uint32_t allocated = 0, queued = 0, dequeued = 0;
  for (const BufferSlot* s : slots_) {
    allocated += s->state == BufferState::kAllocated;
    queued += s->state == BufferState::kQueued;
    dequeued += s->state == BufferState::kDequeued;
  }
  Fault(ErrorKind::kQueueMisuse,
        Str("AllocTensor on ", Describe(), ": all ", slots_.size(), " buffers are in use (",
            allocated, " allocated, ", queued, " queued, ", dequeued,
            " dequeued; missing FreeTensor?); the device would hang until the AI-core timeout "
            "(507014)"));
}

void QueueBase::EnQueSlot(BufferSlot* slot, uint32_t generation, bool fifo,
                          AscendC::TPosition user_src, AscendC::TPosition user_dst) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  CheckOwnTensor("EnQue", slot, generation);
  if (slot->state != BufferState::kAllocated && slot->state != BufferState::kDequeued) {
    Fault(ErrorKind::kQueueMisuse, Str("EnQue on ", Describe(), ": ", DescribeSlot(*slot), " is ",
                                       BufferStateName(slot->state),
                                       "; only an allocated or dequeued tensor can be enqueued"));
  }
  slot->state = BufferState::kQueued;
  if (fifo) FifoPush(slot);
  if (core.sanitizer != nullptr) {
    core.sanitizer->QueueEnQue(*slot, core.sanitizer->EventPipes(
                                             user_src == AscendC::TPosition::MAX ? src_ : user_src,
                                             user_dst == AscendC::TPosition::MAX ? dst_ : user_dst));
  }
  RecordQueueCall("EnQue", trace::CallKind::kEnQue, slot);
}

BufferSlot* QueueBase::DeQueSlot(AscendC::TPosition user_src, AscendC::TPosition user_dst) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (fifo_count_ == 0) {
    Fault(
        ErrorKind::kQueueMisuse,
        Str("DeQue on ", Describe(), ": the queue is empty (", slots_.size(),
            " buffers, none enqueued); the device would hang until the AI-core timeout (507014)"));
  }
  BufferSlot* slot = FifoPop();
  slot->state = BufferState::kDequeued;
  if (core.sanitizer != nullptr) {
    core.sanitizer->QueueDeQue(*slot, core.sanitizer->EventPipes(
                                             user_src == AscendC::TPosition::MAX ? src_ : user_src,
                                             user_dst == AscendC::TPosition::MAX ? dst_ : user_dst));
  }
  RecordQueueCall("DeQue", trace::CallKind::kDeQue, slot);
  return slot;
}

void QueueBase::DeQueInPlace(BufferSlot* slot, uint32_t generation) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  CheckOwnTensor("DeQue", slot, generation);
  if (slot->state != BufferState::kQueued) {
    // The device waits for the enqueue event of this buffer, which nothing will set.
    Fault(ErrorKind::kQueueMisuse,
          Str("DeQue(tensor) on ", Describe(), ": ", DescribeSlot(*slot), " is ",
              BufferStateName(slot->state),
              ", not enqueued; the device would hang until the AI-core timeout (507014)"));
  }
  slot->state = BufferState::kDequeued;
  if (core.sanitizer != nullptr) {
    core.sanitizer->QueueDeQue(*slot, core.sanitizer->EventPipes(src_, dst_));
  }
  RecordQueueCall("DeQue", trace::CallKind::kDeQue, slot);
}

void QueueBase::CheckOwnTensor(const char* call, BufferSlot* slot, uint32_t generation) const {
  if (slot == nullptr) {
    Fault(ErrorKind::kQueueMisuse,
          Str(call, " on ", Describe(), ": the LocalTensor is not bound to a buffer"));
  }
  if (slot->owner != identity_) {
    Fault(ErrorKind::kQueueMisuse,
          Str(call, " on ", Describe(), ": the tensor belongs to ", DescribeSlot(*slot)));
  }
  if (slot->generation != generation) {
    Fault(ErrorKind::kQueueMisuse,
          Str(call, " on ", Describe(), ": LocalTensor used after FreeTensor (",
              DescribeSlot(*slot), ")"));
  }
}

void QueueBase::FreeAllEvents() {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (!slots_.empty() && slots_[0]->pipe_gone) FaultPipeGone("FreeAllEvent", Describe());
  for (const BufferSlot* slot : slots_) {
    if (slot->state == BufferState::kQueued) {
      Fault(ErrorKind::kQueueMisuse,
            Str("FreeAllEvent on ", Describe(), ": ", DescribeSlot(*slot),
                " is still enqueued (DeQue it first: FreeAllEvent expects every buffer dequeued, "
                "and CANN's CPU-debug build asserts it)"));
    }
  }
}

void QueueBase::FreeSlot(BufferSlot* slot, uint32_t generation) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (slot == nullptr) {
    Fault(ErrorKind::kQueueMisuse,
          Str("FreeTensor on ", Describe(), ": the LocalTensor is not bound to a buffer"));
  }
  if (slot->owner != identity_) {
    Fault(ErrorKind::kQueueMisuse,
          Str("FreeTensor on ", Describe(), ": the tensor belongs to ", DescribeSlot(*slot)));
  }
  if (slot->generation != generation || slot->state == BufferState::kFree) {
    Fault(ErrorKind::kQueueMisuse, Str("FreeTensor on ", Describe(), ": ", DescribeSlot(*slot),
                                       " is already free (double FreeTensor)"));
  }
  if (slot->state == BufferState::kQueued) {
    Fault(ErrorKind::kQueueMisuse, Str("FreeTensor on ", Describe(), ": ", DescribeSlot(*slot),
                                       " is still in the queue (DeQue it first)"));
  }
  slot->state = BufferState::kFree;
  ++slot->generation;
  if (core.sanitizer != nullptr) {
    core.sanitizer->QueueFree(*slot, core.sanitizer->EventPipes(src_, dst_));
  }
  const auto pos = static_cast<size_t>(slot->position);
  if (pos < ascsim::aicore::kPositionSlots && core.queues.live_allocs_per_position[pos] > 0)
    --core.queues.live_allocs_per_position[pos];
  RecordQueueCall("FreeTensor", trace::CallKind::kFreeTensor, slot);
}

BufferSlot* TBufBase::slot(const char* call) const {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (slot_ == nullptr) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": TBuf has no buffer (call pipe.InitBuffer first)"));
  }
  if (slot_->pipe_gone) FaultPipeGone(call, Str("the ", AscendC::PositionName(pos_), " TBuf"));
  if (slot_->addr == nullptr) FaultAbsentMemory(core, call, *slot_, DescribeSlot(*slot_));
  return slot_;
}

void FaultAbsentMemory(const CoreContext& core, const char* call, const BufferSlot& slot,
                       const std::string& what) {
  const bool aic = core.unit == CoreUnit::kAic;
  Fault(ErrorKind::kInvalidArgument,
        Str(call, " on ", what, ": ", MemoryLongName(slot.memory), " is not on the ",
            CoreUnitName(core.unit), " (in a mix kernel ",
            aic ? "vector work runs on the AIVs: guard it with ASCEND_IS_AIV"
                : "cube work runs on the AIC: guard it with ASCEND_IS_AIC",
            ")"));
}

}  // namespace ascsim::aicore

namespace ascsim::aicore {

void ResetPool(PoolRegion& pool) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (!pool.ready) {
    Fault(ErrorKind::kInvalidArgument,
          "TBufPool::Reset: the TBufPool was not initialised (InitBufPool)");
  }
  // CANN waits for the free event of each of the pool's buffers: every pipe's work on them has
  // ended before the next pool reuses the bytes.
  if (core.sanitizer != nullptr) core.sanitizer->PipeBarrier(trace::Pipe::kNone, "TBufPool::Reset");
}

}  // namespace ascsim::aicore
