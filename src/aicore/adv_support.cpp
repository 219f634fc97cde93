// The out-of-line parts of ascsim/adv/adv_support.h.
#include "ascsim/adv/adv_support.h"

namespace ascsim::aicore {

BufferSlot* StackSlot(AscendC::TPipe& pipe, const char* call) {
  CoreContext& core = *pipe.core_;
  const uint32_t used = pipe.used_bytes();  // UB bytes carved
  if (used >= core.ub_size) {
    Fault(ErrorKind::kUbOverflow,
          Str(call, ": no UB is left above the TPipe's buffers (", used, " of ", core.ub_size,
              " B in use) for the temporary space; pass a sharedTmpBuffer or leave UB free"));
  }
  BufferSlot& s = pipe.stack_slot_;
  uint8_t* addr = core.ub + used;
  const uint32_t bytes = core.ub_size - used;
  if (!pipe.stack_slot_valid_ || s.addr != addr || s.bytes != bytes) {
    const uint32_t generation = s.generation + 1;  // tensors of an older stack become stale
    s = BufferSlot{};
    s.addr = addr;
    s.mem_offset = used;  // GetPhyAddr of a stack tensor is its UB offset (TransDataTo5HD lists)
    s.bytes = bytes;
    s.id = core.queues.next_buffer_id++;
    s.generation = generation;
    s.state = BufferState::kFixed;
    s.owner = &pipe;
    s.position = AscendC::TPosition::LCM;
    s.trace = core.trace;
    pipe.stack_slot_valid_ = true;
  }
  return &s;
}

void FaultTmpTooSmall(const char* api, uint64_t have_bytes, uint64_t need_bytes, const char* what) {
  Fault(ErrorKind::kInvalidArgument,
        Str(api, ": sharedTmpBuffer holds ", have_bytes, " B, less than the ", need_bytes, " B ",
            what, " (see its Get...MaxMinTmpSize)"));
}

void FaultTmpOverlap(const char* api, const char* role, uint64_t tmp_lo, uint64_t tmp_hi,
                     uint64_t op_lo, uint64_t op_hi) {
  Fault(ErrorKind::kInvalidArgument,
        Str(api, ": sharedTmpBuffer UB [", Hex(tmp_lo), ", ", Hex(tmp_hi), ") overlaps ", role,
            " UB [", Hex(op_lo), ", ", Hex(op_hi), "); the temporary buffer must be separate"));
}

void FaultOperandOverlap(const char* api, const char* a_role, uint64_t a_lo, uint64_t a_hi,
                         const char* b_role, uint64_t b_lo, uint64_t b_hi) {
  Fault(ErrorKind::kInvalidArgument,
        Str(api, ": ", a_role, " UB [", Hex(a_lo), ", ", Hex(a_hi), ") overlaps ", b_role, " UB [",
            Hex(b_lo), ", ", Hex(b_hi), "); the API does not support overlapping operands"));
}

void CheckCalCount(const char* api, uint64_t cal_count, uint64_t src_size, uint64_t dst_size) {
  if (cal_count > src_size || cal_count > dst_size) {
    Fault(ErrorKind::kOutOfBounds, Str(api, ": calCount ", cal_count, " exceeds the src (",
                                       src_size, ") or dst (", dst_size, ") tensor size"));
  }
}

}  // namespace ascsim::aicore
