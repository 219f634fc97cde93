// Out-of-line parts of ascsim/aicore/sync.h: PipeBarrier, SetFlag/WaitFlag pairing, SyncAll,
// the end-of-block checks and ASSERT.
#include "ascsim/aicore/sync.h"

#include <chrono>

#include "aicore/sanitizer/core_sanitizer.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/kernel_print.h"
#include "ascsim/aicore/kernel_type.h"

namespace ascsim::aicore {

namespace {
trace::Pipe ToModelPipe(pipe_t pipe) {
  switch (pipe) {
    case PIPE_S:
      return trace::Pipe::kS;
    case PIPE_V:
      return trace::Pipe::kV;
    case PIPE_M:
      return trace::Pipe::kM;
    case PIPE_MTE1:
      return trace::Pipe::kMte1;
    case PIPE_MTE2:
      return trace::Pipe::kMte2;
    case PIPE_MTE3:
      return trace::Pipe::kMte3;
    case PIPE_FIX:
      return trace::Pipe::kFix;
    default:
      return trace::Pipe::kNone;  // PIPE_ALL and the rest
  }
}

// Source and destination pipes of a HardEvent, from its name ("MTE2_V").
std::pair<trace::Pipe, trace::Pipe> ParseEventPipes(AscendC::HardEvent event) {
  const std::string name = AscendC::HardEventName(event);
  const size_t sep = name.find('_');
  auto pipe_of = [](const std::string& p) {
    if (p == "S") return trace::Pipe::kS;
    if (p == "V") return trace::Pipe::kV;
    if (p == "M") return trace::Pipe::kM;
    if (p == "MTE1") return trace::Pipe::kMte1;
    if (p == "MTE2") return trace::Pipe::kMte2;
    if (p == "MTE3") return trace::Pipe::kMte3;
    if (p == "FIX") return trace::Pipe::kFix;
    return trace::Pipe::kNone;
  };
  return {pipe_of(name.substr(0, sep)), pipe_of(name.substr(sep + 1))};
}

// The same, parsed once per event (SetFlag/WaitFlag ask for it on every call).
std::pair<trace::Pipe, trace::Pipe> EventPipes(AscendC::HardEvent event) {
  static const auto* const kTable = [] {
    constexpr int kEvents = static_cast<int>(AscendC::HardEvent::MAX);
    auto* table = new std::pair<trace::Pipe, trace::Pipe>[kEvents];
    for (int e = 0; e < kEvents; ++e)
      table[e] = ParseEventPipes(static_cast<AscendC::HardEvent>(e));
    return table;
  }();
  const auto i = static_cast<size_t>(event);
  return i < static_cast<size_t>(AscendC::HardEvent::MAX) ? kTable[i] : ParseEventPipes(event);
}

uint32_t FlagKey(AscendC::HardEvent event, int32_t id) {
  return static_cast<uint32_t>(event) * kEventIdCount + static_cast<uint32_t>(id);
}

void CheckEventId(const char* call, AscendC::HardEvent event, int32_t id) {
  if (static_cast<int>(event) >= static_cast<int>(AscendC::HardEvent::MAX)) {
    Fault(ErrorKind::kSyncMisuse,
          Str(call,
              "<MAX>: HardEvent::MAX is not an event (it counts the events; use one of "
              "MTE2_V, V_MTE3, ...)"));
  }
  if (id < 0 || id >= static_cast<int32_t>(kEventIdCount)) {
    Fault(ErrorKind::kSyncMisuse, Str(call, "<", AscendC::HardEventName(event), ">(", id,
                                      "): event id must be in EVENT_ID0..EVENT_ID7"));
  }
}

trace::ApiCall FlagCall(const char* name, trace::CallKind kind, AscendC::HardEvent event,
                        int32_t id) {
  trace::ApiCall call{};
  call.name = name;
  call.kind = kind;
  auto [src, dst] = EventPipes(event);
  call.pipe = kind == trace::CallKind::kSetFlag ? src : dst;
  call.wait_src = src;
  call.wait_dst = dst;
  call.event = FlagKey(event, id);
  return call;
}
}  // namespace

void PipeBarrierImpl(pipe_t pipe) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (core.sanitizer != nullptr) {
    static const char* const kNames[] = {"PIPE_S",    "PIPE_V",    "PIPE_M",   "PIPE_MTE1",
                                         "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_MTE4",
                                         "PIPE_MTE5", "PIPE_V2",   "PIPE_FIX"};
    const auto i = static_cast<size_t>(pipe);
    const char* name = i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "PIPE_?";
    const trace::Pipe p = ToModelPipe(pipe);
    if (pipe == PIPE_ALL) {
      core.sanitizer->PipeBarrier(trace::Pipe::kNone, name);
    } else if (p != trace::Pipe::kNone) {
      core.sanitizer->PipeBarrier(p, name);
    }
  }
  Record(core, [&] {
    trace::ApiCall call{};
    call.name = "PipeBarrier";
    call.kind = trace::CallKind::kPipeBarrier;
    call.pipe = ToModelPipe(pipe);
    call.event = static_cast<uint32_t>(pipe);
    return call;
  });
}

void SetFlagImpl(AscendC::HardEvent event, int32_t id) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  CheckEventId("SetFlag", event, id);
  int& pending = core.queues.pending_flags[FlagKey(event, id)];
  if (pending > 0) {
    // The ISA forbids a second set_flag on one (pipe pair, id) before its wait_flag.
    Fault(ErrorKind::kSyncMisuse,
          Str("SetFlag<", AscendC::HardEventName(event), ">(EVENT_ID", id,
              ") set again before its WaitFlag; a flag holds one event, so the first is lost"));
  }
  ++pending;
  if (core.sanitizer != nullptr) {
    auto [src, dst] = EventPipes(event);
    core.sanitizer->SetFlag(FlagKey(event, id), AscendC::HardEventName(event), id, src, dst);
  }
  Record(core, [&] { return FlagCall("SetFlag", trace::CallKind::kSetFlag, event, id); });
}

void WaitFlagImpl(AscendC::HardEvent event, int32_t id) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  CheckEventId("WaitFlag", event, id);
  auto it = core.queues.pending_flags.find(FlagKey(event, id));
  if (it == core.queues.pending_flags.end() || it->second == 0) {
    Fault(
        ErrorKind::kSyncMisuse,
        Str("WaitFlag<", AscendC::HardEventName(event), ">(EVENT_ID", id,
            ") has no matching SetFlag; the device would hang until the AI-core timeout (507014)"));
  }
  --it->second;
  if (core.sanitizer != nullptr) {
    auto [src, dst] = EventPipes(event);
    core.sanitizer->WaitFlag(FlagKey(event, id), src, dst);
  }
  Record(core, [&] { return FlagCall("WaitFlag", trace::CallKind::kWaitFlag, event, id); });
}

namespace {
const char* PipeName(pipe_t pipe) {
  static const char* const kNames[] = {"PIPE_S",    "PIPE_V",    "PIPE_M",   "PIPE_MTE1",
                                       "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_MTE4",
                                       "PIPE_MTE5", "PIPE_V2",   "PIPE_FIX"};
  const auto i = static_cast<size_t>(pipe);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "PIPE_?";
}

// The pipes Lock/Unlock accept (Lock.md: PIPE_S/M/V/MTE1/MTE2/MTE3/FIX) and the MutexID range
// (CANN's ASCENDC_ASSERT: id <= MAX_MUTEXID).
void CheckMutex(const char* call, pipe_t pipe, uint32_t id) {
  if (ToModelPipe(pipe) == trace::Pipe::kNone) {
    Fault(ErrorKind::kSyncMisuse,
          Str(call, "<", PipeName(pipe), ">(", id,
              "): the pipe must be one of PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, "
              "PIPE_MTE3, PIPE_FIX"));
  }
  if (id > AscendC::MAX_MUTEXID) {
    Fault(ErrorKind::kSyncMisuse,
          Str(call, "<", PipeName(pipe), ">(", id, "): the MutexID must be in [0, ",
              static_cast<int>(AscendC::MAX_MUTEXID), "]"));
  }
}

trace::ApiCall MutexCall(const char* name, trace::CallKind kind, trace::Pipe src, trace::Pipe dst,
                         uint32_t id) {
  trace::ApiCall call{};
  call.name = name;
  call.kind = kind;
  call.pipe = kind == trace::CallKind::kSetFlag ? src : dst;
  call.wait_src = src;
  call.wait_dst = dst;
  call.event = kMutexKeyBase + id;
  return call;
}
}  // namespace

// A pipe's Lock(id) orders its later instructions after what the pipe that last unlocked `id`
// issued before that Unlock: a SetFlag at the Unlock and a WaitFlag at the next Lock, for the
// sanitizer and the cost model alike. Lock while another pipe holds the id would make the device
// hold the locking pipe until an Unlock later in program order; ascsim runs each call when it is
// made, so it cannot reorder that, and says so.
void MutexLockImpl(pipe_t pipe, uint32_t id) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  CheckMutex("Mutex::Lock", pipe, id);
  QueueState& q = core.queues;
  const uint8_t holder = q.mutex_holder[id];
  if (holder != 0) {
    const auto held = static_cast<pipe_t>(holder - 1);
    Fault(ErrorKind::kSyncMisuse,
          held == pipe
              ? Str("Mutex::Lock<", PipeName(pipe), ">(", id, "): ", PipeName(pipe),
                    " holds this MutexID already; Lock and Unlock must alternate (Lock.md: a "
                    "second Lock before the Unlock makes the hardware unpredictable)")
              : Str("Mutex::Lock<", PipeName(pipe), ">(", id, "): ", PipeName(held),
                    " still holds this MutexID (its Unlock comes later in program order); the "
                    "device would hold ",
                    PipeName(pipe), " until then, which ascsim does not simulate: unlock first"));
  }
  q.mutex_holder[id] = static_cast<uint8_t>(pipe + 1);
  const trace::Pipe dst = ToModelPipe(pipe);
  if ((q.mutex_pending & (1u << id)) != 0) {
    q.mutex_pending &= ~(1u << id);
    if (core.sanitizer != nullptr) {
      core.sanitizer->WaitFlag(kMutexKeyBase + id, trace::Pipe::kNone, dst);
    }
    Record(core, [&] {
      return MutexCall("Mutex::Lock", trace::CallKind::kWaitFlag, trace::Pipe::kNone, dst, id);
    });
  }
}

void MutexUnlockImpl(pipe_t pipe, uint32_t id) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  CheckMutex("Mutex::Unlock", pipe, id);
  QueueState& q = core.queues;
  const uint8_t holder = q.mutex_holder[id];
  if (holder != static_cast<uint8_t>(pipe + 1)) {
    Fault(ErrorKind::kSyncMisuse,
          holder == 0
              ? Str("Mutex::Unlock<", PipeName(pipe), ">(", id,
                    "): the MutexID is not locked; Lock must come first (Lock.md)")
              : Str("Mutex::Unlock<", PipeName(pipe), ">(", id, "): the MutexID is held by ",
                    PipeName(static_cast<pipe_t>(holder - 1)),
                    "; Lock and Unlock of one id must name the same pipe (Lock.md)"));
  }
  q.mutex_holder[id] = 0;
  q.mutex_pending |= 1u << id;
  const trace::Pipe src = ToModelPipe(pipe);
  if (core.sanitizer != nullptr) {
    core.sanitizer->SetFlag(kMutexKeyBase + id, "Mutex", static_cast<int32_t>(id), src,
                            trace::Pipe::kNone);
  }
  Record(core, [&] {
    return MutexCall("Mutex::Unlock", trace::CallKind::kSetFlag, src, trace::Pipe::kNone, id);
  });
}

uint8_t AllocMutexIdImpl() {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  for (uint32_t id = 0; id <= AscendC::MAX_MUTEXID; ++id) {
    if ((core.queues.mutex_ids & (1u << id)) == 0) {
      core.queues.mutex_ids |= 1u << id;
      return static_cast<uint8_t>(id);
    }
  }
  Fault(ErrorKind::kSyncMisuse,
        Str("AllocMutexID: all ", static_cast<int>(AscendC::MAX_MUTEXID) + 1,
            " MutexIDs are taken; give one back with ReleaseMutexID"));
}

void ReleaseMutexIdImpl(uint32_t id) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (id >= AscendC::MAX_MUTEXID) {  // CANN's check: id < MAX_MUTEXID
    Fault(ErrorKind::kSyncMisuse, Str("ReleaseMutexID(", id, "): the id must be in [0, ",
                                      static_cast<int>(AscendC::MAX_MUTEXID), ")"));
  }
  core.queues.mutex_ids &= ~(1u << id);
}

void SyncAllImpl(bool aiv_only) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (!core.launch->sync_all) {
    Fault(ErrorKind::kSyncMisuse, "SyncAll: not available in this launch");
  }
  // In a mix kernel the hardware SyncAll is built from cross-core flags, as CANN's A2 code does
  // (impl/basic_api/dav_c220/kernel_operator_sync_impl.h, SyncAllImpl): SyncAll<true> is a
  // mode-0 round of flag 14 among the cores of the caller's kind (every AIV); SyncAll<false> has
  // each AIC wait for its AIVs (mode 2, flag 12), meet the other AICs (mode 0, flag 11) and release
  // its AIVs (mode 2, flag 13). Those flag ids are reserved (the CrossCoreSetFlag docs).
  if (core.launch->layout == KernelLayout::kMix) {
    // Every path of CANN's SyncAllImpl (dav_c220) starts with PipeBarrier<PIPE_ALL>: what the
    // sub-core issued before is done when its flag goes out (the sanitizer's per-core order).
    if (core.sanitizer != nullptr) core.sanitizer->PipeBarrier(trace::Pipe::kNone, "SyncAll");
    constexpr uint16_t kSyncAicFlag = 11, kSyncAivFlag = 12, kSyncAicAivFlag = 13,
                       kSyncAivOnlyAll = 14;
    if (aiv_only) {
      CrossCoreSetImpl(0, PIPE_MTE3, kSyncAivOnlyAll);
      CrossCoreWaitImpl(0, PIPE_S, kSyncAivOnlyAll);
    } else if (core.unit == CoreUnit::kAic) {
      CrossCoreWaitImpl(0, PIPE_S, kSyncAivFlag);
      CrossCoreSetImpl(0, PIPE_FIX, kSyncAicFlag);
      CrossCoreWaitImpl(0, PIPE_S, kSyncAicFlag);
      CrossCoreSetImpl(2, PIPE_MTE3, kSyncAicAivFlag);
    } else {
      CrossCoreSetImpl(2, PIPE_MTE3, kSyncAivFlag);
      CrossCoreWaitImpl(0, PIPE_S, kSyncAicAivFlag);
      // The AIC released this AIV after its mode-0 round with every core: a new GM epoch here
      // too (the AIV's own wait is on its AIC, not a mode-0 round).
      if (core.sanitizer != nullptr) core.sanitizer->CrossCoreRound();
    }
    return;
  }
  Record(core, [] {
    trace::ApiCall call{};
    call.name = "SyncAll";
    call.kind = trace::CallKind::kSyncAll;
    call.pipe = trace::Pipe::kNone;
    return call;
  });
  if (core.sanitizer != nullptr) core.sanitizer->SyncAll();
  core.launch->sync_all(core.block_idx);
}

int64_t SystemCycle() {
  const CoreContext& core = CurrentCore();
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count();
  return static_cast<int64_t>(static_cast<double>(ns) * core.launch->soc->clock_ghz);
}

void FinishBlock(CoreContext& core) {
  FlushKernelPrint(core);
  if (!core.deferred_fault.empty()) Fault(ErrorKind::kInvalidArgument, core.deferred_fault);
  // With ASCSIM_SANITIZE=sync an unwaited SetFlag fails the launch instead of the warning below.
  if (core.sanitizer != nullptr) core.sanitizer->FinishBlock();
  for (uint32_t id = 0; id < 32; ++id) {
    if (core.queues.mutex_holder[id] != 0) {
      const uint8_t holder = core.queues.mutex_holder[id];
      core.queues.mutex_holder[id] = 0;
      Fault(ErrorKind::kSyncMisuse,
            Str("Mutex::Lock<", PipeName(static_cast<pipe_t>(holder - 1)), ">(", id,
                ") was never unlocked by the end of the kernel; Lock and Unlock must pair "
                "(Lock.md)"));
    }
  }
  for (const auto& [key, count] : core.queues.pending_flags) {
    if (count > 0) {
      const auto event = static_cast<AscendC::HardEvent>(key / 8);
      Warn(Str("SetFlag<", AscendC::HardEventName(event), ">(EVENT_ID", key % 8,
               ") was never waited for (", count,
               " pending at kernel end); every SetFlag needs its WaitFlag"));
    }
  }
}

[[noreturn]] void AssertFailed(const char* expr, const char* file, int line) {
  Fault(ErrorKind::kInvalidArgument, Str("ASSERT(", expr, ") failed at ", file, ":", line));
}

}  // namespace ascsim::aicore
