// The failure paths of the per-call operand checks (checks.h, operand_checks.h, local_tensor.h).
// They live here, out of line and marked cold, so that the checks inlined into every API call
// are a few compares: building a message costs nothing until a kernel actually faults.
#include <algorithm>

#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/limits.h"
#include "ascsim/aicore/operand_checks.h"

namespace ascsim::aicore {

void FaultNegativeCount(const char* call, int64_t count) {
  Fault(ErrorKind::kInvalidArgument, Str(call, ": count ", count, " is negative"));
}

void FaultUnalignedUb(const char* call, const char* role, uint64_t offset, uint32_t align) {
  Fault(ErrorKind::kInvalidArgument,
        Str(call, ": ", role, " UB address ", Hex(offset), " is not ", align, "-byte aligned"));
}

void FaultNotUb(const char* call, const char* role, const BufferSlot* slot) {
  Fault(ErrorKind::kInvalidArgument,
        Str(call, ": ", role, " is ", DescribeSlot(*slot), " in ", MemoryLongName(slot->memory),
            " (TPosition::", AscendC::PositionName(slot->position),
            "); this operation works on Unified Buffer tensors (VECIN/VECOUT/VECCALC)"));
}

void FaultTensorRange(const char* call, const char* role, uint64_t begin, uint64_t end,
                      const char* type, uint64_t size) {
  Fault(ErrorKind::kOutOfBounds, Str(call, ": ", role, " [", begin, ", ", end, ") of ", type,
                                     " exceeds LocalTensor size ", size));
}

void FaultDeadTensor(const char* call, const char* role, const BufferSlot* slot) {
  if (slot == nullptr) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", role,
              " LocalTensor is not bound to a buffer (use AllocTensor, DeQue or TBuf::Get)"));
  }
  if (slot->pipe_gone) {
    // The owning queue may be gone too: name the buffer by position only.
    Fault(ErrorKind::kQueueMisuse,
          Str(call, ": ", role, " LocalTensor used after its TPipe was destroyed (a ",
              AscendC::PositionName(slot->position), " buffer of ", slot->bytes,
              " B; Destroy() or the TPipe's end invalidates every tensor it handed out)"));
  }
  Fault(ErrorKind::kQueueMisuse,
        Str(call, ": ", role, " LocalTensor used after FreeTensor (", DescribeSlot(*slot), ")"));
}

}  // namespace ascsim::aicore

namespace ascsim::aicore {

void WarnPastGlobalSize(const char* call, const char* verb, uint64_t first, uint64_t last,
                        const char* type, uint64_t size) {
  Warn(Str(call, " ", verb, " [", first, ", ", last, ") of ", type, " passes GlobalTensor size ",
           size,
           "; it stays in its device allocation, where the device uses the neighbouring "
           "elements"),
       Str(call, "/", verb, "/past-size/", size));
}

void RequireArch(const char* call, int arch, const char* what) {
  CoreContext& core = CurrentCore();
  if (core.launch->soc->arch != arch) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", what, " is not available on ", core.launch->soc->name, " (arch ",
              core.launch->soc->arch, "); it exists on arch ", arch, " (Atlas A2/A3)"));
  }
}

}  // namespace ascsim::aicore

namespace ascsim::aicore {

bool CastOverlapSlow(const CastOperand& dst, const CastOperand& src, uint64_t repeats, uint64_t per,
                     const char* file, int line) {
  const CoreContext& core = CurrentCore();
  auto off = [&](const uint8_t* p) { return static_cast<int64_t>(p - core.ub); };
  const std::string ranges =
      Str("dst UB [", Hex(off(dst.p)), ", ", Hex(off(dst.p + dst.bytes)), ") overlaps src UB [",
          Hex(off(src.p)), ", ", Hex(off(src.p + src.bytes)), ")");
  // Repeat r' reads [s0 + r' * rs, + span) (clipped to src): the later repeats that reach the
  // bytes repeat r writes form one index range, found by division: O(1) per repeat, and only
  // for overlapping operands.
  const int64_t s0 = off(src.p), s_end = off(src.p + src.bytes);
  const auto rs = static_cast<int64_t>(src.repeat_stride);
  const auto sspan = static_cast<int64_t>(src.span);
  const auto last = static_cast<int64_t>(repeats) - 1;
  for (int64_t r = 0; r < last; ++r) {
    const int64_t wb = off(dst.p) + r * static_cast<int64_t>(dst.repeat_stride);
    const int64_t we = std::min(wb + static_cast<int64_t>(dst.span), off(dst.p + dst.bytes));
    if (wb >= we || wb >= s_end || we <= s0) continue;
    int64_t lo = r + 1, hi = last;  // candidates r' in [lo, hi]
    if (rs > 0) {
      // s0 + r' * rs < we  and  s0 + r' * rs + sspan > wb
      hi = std::min(hi, (we - s0 - 1) / rs);
      const int64_t need = wb - s0 - sspan;  // r' * rs > need
      if (need >= 0) lo = std::max(lo, need / rs + 1);
    } else if (!(s0 < we && s0 + sspan > wb)) {
      continue;  // every repeat reads the same bytes, none of them here
    }
    if (lo > hi) continue;
    Fault(ErrorKind::kInvalidArgument,
          Str("Cast: ", ranges, ": repeat ", r, " (of ", repeats, ", ", per,
              " elements each) writes UB [", Hex(wb), ", ", Hex(we), "), which repeat ", lo,
              " reads as its source, so the result depends on the device's pipeline (the SIMD "
              "API's address-overlap rule: an earlier repeat's dst must not overlap a later "
              "repeat's src; asc-devkit SIMD-API/通用说明和约束.md)"));
  }
  Warn(Str("Cast ", src.type, " -> ", dst.type, " at ", file, ":", line, ": ", ranges,
           " without being the same range; the SIMD API's address-overlap rule asks for a 100% "
           "overlap within a repeat (asc-devkit SIMD-API/通用说明和约束.md, 通用地址重叠约束; "
           "Cast.md: widening in place may give wrong results). No repeat writes bytes a later "
           "repeat reads, so ascsim computes it repeat by repeat (",
           repeats, " of ", per,
           " elements, each reading its source before writing) as the device's pipeline does "
           "(ASCSIM_STRICT=1 makes this an error)"),
       Str("Cast/overlap/", file, ":", line));
  return true;
}

}  // namespace ascsim::aicore
