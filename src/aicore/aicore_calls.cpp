// Out-of-line pieces of the kernel API: call records, rounding modes, sync and small checks.
#include <chrono>

#include "aicore/sanitizer/core_sanitizer.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/kernel_print.h"
#include "ascsim/aicore/sync.h"
#include "ascsim/aicore/vector_ops.h"

namespace ascsim::aicore {

trace::ApiCall CopyCall(const char* name, trace::Pipe pipe, uint64_t bytes, uint8_t elem,
                        BufferRef dst_buffer, BufferRef src_buffer) {
  trace::ApiCall call{};
  call.name = name;
  call.kind = trace::CallKind::kCopy;
  call.pipe = pipe;
  call.dtype_bytes = elem;
  call.bytes = bytes;
  call.elements = elem ? bytes / elem : 0;
  call.dst_buffer = dst_buffer.id;
  call.src_buffers[0] = src_buffer.id;
  call.ub_addr[0] = dst_buffer.ub;
  call.ub_addr[1] = src_buffer.ub;
  return call;
}

trace::ApiCall VectorCall(const char* name, trace::VectorClass cls, uint8_t elem, uint64_t n,
                          BufferRef dst, BufferRef src0, BufferRef src1) {
  trace::ApiCall call{};
  call.name = name;
  call.kind = trace::CallKind::kVector;
  call.pipe = trace::Pipe::kV;
  call.vector_class = cls;
  call.dtype_bytes = elem;
  call.elements = n;
  call.bytes = n * elem;
  call.dst_buffer = dst.id;
  call.src_buffers[0] = src0.id;
  call.src_buffers[1] = src1.id;
  call.ub_addr[0] = dst.ub;
  call.ub_addr[1] = src0.ub;
  call.ub_addr[2] = src1.ub;
  return call;
}

simd::Rounding ToRounding(AscendC::RoundMode mode) {
  switch (mode) {
    case AscendC::RoundMode::CAST_NONE:
      return simd::Rounding::kNone;
    case AscendC::RoundMode::CAST_RINT:
      return simd::Rounding::kRint;
    case AscendC::RoundMode::CAST_FLOOR:
      return simd::Rounding::kFloor;
    case AscendC::RoundMode::CAST_CEIL:
      return simd::Rounding::kCeil;
    case AscendC::RoundMode::CAST_ROUND:
      return simd::Rounding::kRound;
    case AscendC::RoundMode::CAST_TRUNC:
      return simd::Rounding::kTrunc;
    case AscendC::RoundMode::CAST_ODD:
      return simd::Rounding::kOdd;
  }
  return simd::Rounding::kNone;
}

namespace {

constexpr uint8_t Bit(AscendC::RoundMode m) {
  return static_cast<uint8_t>(1u << static_cast<int>(m));
}
constexpr uint8_t kNone = Bit(AscendC::RoundMode::CAST_NONE);
constexpr uint8_t kOdd = Bit(AscendC::RoundMode::CAST_ODD);
constexpr uint8_t kRint = Bit(AscendC::RoundMode::CAST_RINT);
constexpr uint8_t kDirected =
    Bit(AscendC::RoundMode::CAST_FLOOR) | Bit(AscendC::RoundMode::CAST_CEIL) |
    Bit(AscendC::RoundMode::CAST_ROUND) | Bit(AscendC::RoundMode::CAST_TRUNC);
constexpr uint8_t kR5 = kRint | kDirected;  // RINT/FLOOR/CEIL/ROUND/TRUNC
constexpr uint8_t kAnyMode = 0x7f;          // "roundMode不生效" (int32 -> half)

constexpr int Pair(simd::DType src, simd::DType dst) {
  return static_cast<int>(src) * 16 + static_cast<int>(dst);
}

// The round modes Cast offers per (src, dst), from the asc-devkit Cast.md tables "Atlas A2
// 训练系列产品/Atlas A2 推理系列产品支持的数据类型组合情况" (arch 2201) and "Atlas 推理系列产品AI
// Core支持的数据类型组合情况" (310P, arch 2002), for the types the simulator has (no int4b_t).
// 0: the pair is not a conversion the profile offers.
uint8_t AllowedCastModes(int arch, simd::DType src, simd::DType dst) {
  using simd::DType;
  if (arch == 2002) {
    switch (Pair(src, dst)) {
      case Pair(DType::kI8, DType::kF16):
      case Pair(DType::kU8, DType::kF16):
      case Pair(DType::kI16, DType::kF16):
        return kNone;
      case Pair(DType::kF16, DType::kI8):
      case Pair(DType::kF16, DType::kU8):
        return kDirected | kNone;
      case Pair(DType::kF16, DType::kI16):
        return kRint;
      case Pair(DType::kF16, DType::kI32):
        return kR5;
      case Pair(DType::kF16, DType::kF32):
        return kNone;
      case Pair(DType::kI32, DType::kI16):
        return kNone;
      case Pair(DType::kI32, DType::kF16):
        return kAnyMode;
      case Pair(DType::kI32, DType::kF32):
        return kNone;
      case Pair(DType::kF32, DType::kF16):
        return kOdd | kNone;
      case Pair(DType::kF32, DType::kI64):
        return kR5;
      default:
        return 0;
    }
  }
  switch (Pair(src, dst)) {
    case Pair(DType::kI8, DType::kF16):
    case Pair(DType::kU8, DType::kF16):
      return kNone;
    case Pair(DType::kI16, DType::kF16):
      return kR5 | kNone;
    case Pair(DType::kI16, DType::kF32):
      return kNone;
    case Pair(DType::kF16, DType::kI8):
    case Pair(DType::kF16, DType::kU8):
      return kR5 | kNone;
    case Pair(DType::kF16, DType::kI16):
    case Pair(DType::kF16, DType::kI32):
      return kR5;
    case Pair(DType::kF16, DType::kF32):
      return kNone;
    case Pair(DType::kBF16, DType::kI32):
      return kR5;
    case Pair(DType::kBF16, DType::kF32):
      return kNone;
    case Pair(DType::kI32, DType::kI16):
      return kNone;
    case Pair(DType::kI32, DType::kF16):
      return kAnyMode;
    case Pair(DType::kI32, DType::kF32):
      return kR5 | kNone;
    case Pair(DType::kI32, DType::kI64):
      return kNone;
    case Pair(DType::kF32, DType::kI16):
      return kR5;
    case Pair(DType::kF32, DType::kF16):
      return kR5 | kOdd | kNone;
    case Pair(DType::kF32, DType::kBF16):
    case Pair(DType::kF32, DType::kI32):
    case Pair(DType::kF32, DType::kF32):
    case Pair(DType::kF32, DType::kI64):
      return kR5;
    case Pair(DType::kI64, DType::kI32):
      return kNone;
    case Pair(DType::kI64, DType::kF32):
      return kR5;
    default:
      return 0;
  }
}

const char* RoundModeName(AscendC::RoundMode mode) {
  static const char* const kNames[] = {"CAST_NONE",  "CAST_RINT",  "CAST_FLOOR", "CAST_CEIL",
                                       "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
  const auto i = static_cast<size_t>(mode);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "?";
}

}  // namespace

void CheckCastMode(simd::DType dst, simd::DType src, AscendC::RoundMode mode) {
  const SocProfile& soc = *CurrentCore().launch->soc;
  const uint8_t allowed = AllowedCastModes(soc.arch, src, dst);
  const auto bit = static_cast<unsigned>(mode) < 7 ? Bit(mode) : 0;
  if ((allowed & bit) != 0) [[likely]]
    return;
  if (allowed == 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Cast ", simd::DTypeName(src), " -> ", simd::DTypeName(dst), " is not a conversion ",
              soc.name, " offers (see the Cast data type table)"));
  }
  std::string modes;
  for (int m = 0; m < 7; ++m) {
    if (allowed & (1u << m)) {
      modes += (modes.empty() ? "" : ", ");
      modes += RoundModeName(static_cast<AscendC::RoundMode>(m));
    }
  }
  Fault(ErrorKind::kInvalidArgument,
        Str("Cast ", simd::DTypeName(src), " -> ", simd::DTypeName(dst), ": ", RoundModeName(mode),
            " is not supported on ", soc.name, " (supported: ", modes, ")"));
}

void CheckBlockCount(const char* call, uint32_t block_count) {
  if (block_count > kMaxDataCopyBlockCount) {
    Fault(ErrorKind::kInvalidArgument, Str(call, ": blockCount ", block_count,
                                           " exceeds the device limit ", kMaxDataCopyBlockCount));
  }
}

void RequireDataCopyPad(const char* call) {
  CoreContext& core = CurrentCore();
  if (!core.launch->soc->has_data_copy_pad) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": DataCopyPad is not available on ", core.launch->soc->name));
  }
}

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
  int& pending = core.pending_flags[FlagKey(event, id)];
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
  auto it = core.pending_flags.find(FlagKey(event, id));
  if (it == core.pending_flags.end() || it->second == 0) {
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

void SyncAllImpl() {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (!core.launch->sync_all) {
    Fault(ErrorKind::kSyncMisuse, "SyncAll: not available in this launch");
  }
  // In a mix kernel the device's SyncAll<true> gathers every AIV of the launch (and SyncAll<false>
  // the AICs too); the barrier here counts one arrival per block, so it would release early.
  // Refused rather than approximated (docs/cube.md, limits).
  if (core.launch->layout == KernelLayout::kMix) {
    Fault(ErrorKind::kSyncMisuse,
          "SyncAll in a mix (AIC + AIV) kernel is not simulated by ascsim; split the kernel or "
          "synchronise the AIVs with CrossCoreSetFlag/CrossCoreWaitFlag");
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
  for (const auto& [key, count] : core.pending_flags) {
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
