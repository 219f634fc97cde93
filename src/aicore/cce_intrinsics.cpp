// The pipe-pair lookup of set_flag / wait_flag (ascsim/aicore/cce_intrinsics.h).
#include "ascsim/aicore/cce_intrinsics.h"

#include <cstring>
#include <string>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/tensor_access.h"

namespace ascsim::aicore {

namespace {
const char* PipeToken(pipe_t p) {
  switch (p) {
    case PIPE_S:
      return "S";
    case PIPE_V:
      return "V";
    case PIPE_M:
      return "M";
    case PIPE_MTE1:
      return "MTE1";
    case PIPE_MTE2:
      return "MTE2";
    case PIPE_MTE3:
      return "MTE3";
    case PIPE_FIX:
      return "FIX";
    default:
      return nullptr;
  }
}
}  // namespace

AscendC::HardEvent EventOfPipes(const char* call, pipe_t src, pipe_t dst) {
  CoreContext& core = CurrentCore();
  const char* a = PipeToken(src);
  const char* b = PipeToken(dst);
  if (a != nullptr && b != nullptr) {
    const std::string want = std::string(a) + "_" + b;
    for (int e = 0; e < static_cast<int>(AscendC::HardEvent::MAX); ++e) {
      const auto event = static_cast<AscendC::HardEvent>(e);
      if (want == AscendC::HardEventName(event)) return event;
    }
  }
  (void)core;
  Fault(ErrorKind::kSyncMisuse,
        Str(call, "(pipe ", static_cast<int>(src), ", pipe ", static_cast<int>(dst),
            "): no hardware event links these pipes (use a HardEvent pair such as PIPE_MTE2 -> "
            "PIPE_V, or pipe_barrier for one pipe)"));
}

namespace {
CoreContext& CoreWithUb(const char* call) {
  CoreContext& core = CurrentCore();
  if (core.ub == nullptr || core.ub_size == 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": this core (", CoreUnitName(core.unit), ") has no Unified Buffer"));
  }
  return core;
}
}  // namespace

uint64_t UbAddressValue(const void* ub_addr) {
  const auto value = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ub_addr));
  const CoreContext* core = TryCurrentCore();
  if (core != nullptr && core->ub != nullptr) {
    const auto base = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(core->ub));
    if (value >= base && value - base <= core->ub_size) return value - base;
  }
  return value;
}

uint64_t UbOffsetOf(const char* call, const char* role, const void* ub_addr) {
  CoreContext& core = CoreWithUb(call);
  const uint64_t offset = UbAddressValue(ub_addr);
  if (offset > core.ub_size) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, ": ", role, " ", Hex(offset),
              " is not a UB address: neither a UB offset below the UB size ", core.ub_size,
              " B of ", core.launch->soc->name,
              " nor a pointer into this core's UB (from get_imm)"));
  }
  return offset;
}

void* UbHostAddress(const char* call, uint64_t offset) {
  EnterApiCall(CurrentCore());
  CoreContext& core = CoreWithUb(call);
  if (offset > core.ub_size) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, "(", Hex(offset), ") as a UB address is past the end of the Unified Buffer (",
              core.ub_size, " B on ", core.launch->soc->name, ")"));
  }
  return core.ub + offset;
}

void FaultNegativeParamOffset(int64_t length) {
  Fault(ErrorKind::kInvalidArgument,
        Str("ParamOffset: the per-core length is ", length, ", which must not be negative"));
}

}  // namespace ascsim::aicore

int64_t get_para_base() {
  using namespace ascsim::aicore;
  EnterApiCall(CurrentCore());
  Fault(ascsim::ErrorKind::kInvalidArgument,
        "get_para_base: the kernel's parameter area (argument words and inline tiling, laid out by "
        "CANN's op compiler) is not simulated; take the arguments and tiling from the kernel's "
        "parameters");
}

void copy_gm_to_ubuf(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst,
                     uint16_t srcStride, uint16_t dstStride) {
  using namespace ascsim::aicore;
  using ascsim::ErrorKind;
  namespace trace = ascsim::trace;
  constexpr const char* kCall = "copy_gm_to_ubuf";
  (void)sid;  // the stream id of the transfer: no effect on the data
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint64_t offset = UbOffsetOf(kCall, "dst", dst);
  if (offset % AscendC::ONE_BLK_SIZE != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(kCall, ": dst UB address ", Hex(offset), " is not 32-byte aligned"));
  }
  CheckBlockCount(kCall, nBurst);
  if (nBurst == 0 || lenBurst == 0) return;
  const uint64_t len = uint64_t{lenBurst} * AscendC::ONE_BLK_SIZE;
  const uint64_t dst_pitch = len + uint64_t{dstStride} * AscendC::ONE_BLK_SIZE;
  const uint64_t src_pitch = len + uint64_t{srcStride} * AscendC::ONE_BLK_SIZE;
  const uint64_t dst_extent = (nBurst - 1) * dst_pitch + len;
  const uint64_t src_extent = (nBurst - 1) * src_pitch + len;
  if (offset + dst_extent > core.ub_size) {
    Fault(ErrorKind::kOutOfBounds,
          Str(kCall, ": writes UB bytes [", offset, ", ", offset + dst_extent, ") (nBurst ", nBurst,
              ", lenBurst ", lenBurst, ", dstStride ", dstStride,
              ", in 32 B blocks), past the end of the Unified Buffer (", core.ub_size, " B on ",
              core.launch->soc->name, ")"));
  }
  AscendC::GlobalTensor<uint8_t> gm;
  gm.SetGlobalBuffer(static_cast<__gm__ uint8_t*>(src));
  const Footprint rows = Footprint::Rows(nBurst, len, src_pitch);
  const uint8_t* s =
      TensorAccess::CheckedAddress(gm, kCall, "read", 0, src_extent, trace::Pipe::kMte2, &rows);
  uint8_t* d = core.ub + offset;
  for (uint32_t b = 0; b < nBurst; ++b) std::memcpy(d + b * dst_pitch, s + b * src_pitch, len);
  Record(core, [&] {
    return WithGm(CopyCall(kCall, trace::Pipe::kMte2, uint64_t{nBurst} * len, 1,
                           BufferRef(trace::kNoBuffer, offset), trace::kNoBuffer),
                  gm, s, nBurst, len, src_pitch);
  });
}
