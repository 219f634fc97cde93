// The failure paths of the per-call operand checks (checks.h, operand_checks.h, local_tensor.h).
// They live here, out of line and marked cold, so that the checks inlined into every API call
// are a few compares: building a message costs nothing until a kernel actually faults.
#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/checks.h"

namespace ascsim::aicore {

void FaultNegativeCount(const char* call, int64_t count) {
  Fault(ErrorKind::kInvalidArgument, Str(call, ": count ", count, " is negative"));
}

void FaultUnalignedUb(const char* call, const char* role, uint64_t offset) {
  Fault(ErrorKind::kInvalidArgument,
        Str(call, ": ", role, " UB address ", Hex(offset), " is not 32-byte aligned"));
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
           size, "; it stays in its device allocation, where the device uses the neighbouring "
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
