// Out-of-line part of ascsim/aicore/basic_api_impl.h: resolving a raw UB address to its buffer.
#include "ascsim/aicore/basic_api_impl.h"

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/tpipe.h"

namespace ascsim::aicore {

BufferSlot* UbSlotAt(const char* call, const char* role, uint64_t ub_offset, uint32_t elem,
                     uint64_t* slot_offset) {
  CoreContext& core = CurrentCore();
  BufferSlot* slot = core.queues.pipe != nullptr ? FindUbSlot(*core.queues.pipe, ub_offset) : nullptr;
  if (slot == nullptr) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, ": ", role, " UB address ", Hex(ub_offset),
              " lies in no buffer of this core's TPipe (pass (__ubuf__ T*)tensor.GetPhyAddr() of "
              "an allocated LocalTensor)"));
  }
  if (slot->state == BufferState::kFree) {
    Fault(ErrorKind::kQueueMisuse,
          Str(call, ": ", role, " UB address ", Hex(ub_offset), " lies in ", DescribeSlot(*slot),
              ", which is not allocated (AllocTensor it first)"));
  }
  *slot_offset = static_cast<uint64_t>(slot->addr - core.ub);
  if ((ub_offset - *slot_offset) % elem != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", role, " UB address ", Hex(ub_offset), " is not a whole number of ", elem,
              "-byte elements into its buffer at ", Hex(*slot_offset)));
  }
  return slot;
}

bool OnCubeCore() { return CurrentCore().unit == CoreUnit::kAic; }

}  // namespace ascsim::aicore
