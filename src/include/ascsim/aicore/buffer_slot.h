// One UB buffer handed out by a TPipe: the unit of the queue protocol and of use-after-free
// detection. A LocalTensor remembers its slot and the slot's generation when it was handed out;
// FreeTensor bumps the generation, so a stale tensor is caught in O(1) at its next use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/memory.h"
#include "ascsim/aicore/sanitizer_hooks.h"
#include "ascsim/aicore/types.h"
#include "ascsim/trace.h"

namespace ascsim::aicore {

enum class BufferState : uint8_t { kFree, kAllocated, kQueued, kDequeued, kFixed };
const char* BufferStateName(BufferState state);

struct BufferSlot {
  uint8_t* addr = nullptr;
  uint32_t bytes = 0;
  uint32_t id = 0;          // unique per core (cost-model dependencies)
  uint32_t generation = 0;  // bumped by FreeTensor
  BufferState state = BufferState::kFree;
  const void* owner = nullptr;  // the TQue / TBuf that InitBuffer gave it to
  AscendC::TPosition position = AscendC::TPosition::VECCALC;
  uint32_t index = 0;  // index within its owner
  bool is_queue = false;
  bool retired = false;    // released by TPipe::Reset: its owner may be given new buffers
  bool pipe_gone = false;  // its TPipe was destroyed (Destroy() or its destructor)
  trace::CoreTrace* trace = nullptr;  // the owning core's trace when profiling (scalar records)
  CoreSanitizer* sanitizer = nullptr;  // the owning core's sanitizer when ASCSIM_SANITIZE is on
  Memory memory = Memory::kUb;        // where the buffer lives (memory.h)
  uint32_t mem_offset = 0;            // byte offset of `addr` in that memory (GetPhyAddr)
  BufferSlot* next_queued = nullptr;  // the next tensor of its queue's FIFO while queued
};

// The buffer records of one block, at stable addresses until the block ends: every TPipe of the
// block carves from it, so a LocalTensor that outlives its TPipe (Reset, Destroy, destructor)
// still finds its record, now stale. A thread hands its store from block to block (CoreScope),
// so records cost no allocation after the first blocks.
class SlotStore {
 public:
  // A record in its initial state, except that a reused one keeps counting generations up, so a
  // LocalTensor kept from an earlier block is stale rather than current.
  BufferSlot* Take();
  void Reset() { used_ = 0; }

 private:
  std::deque<BufferSlot> records_;
  size_t used_ = 0;
};

// "buffer 1 of a VECIN queue" / "the VECCALC TBuf" for messages.
std::string DescribeSlot(const BufferSlot& slot);
// The fault for a LocalTensor that is unbound (`slot` null) or whose buffer was freed.
[[noreturn]] [[gnu::cold]] [[gnu::noinline]] void FaultDeadTensor(const char* call,
                                                                  const char* role,
                                                                  const BufferSlot* slot);

}  // namespace ascsim::aicore
