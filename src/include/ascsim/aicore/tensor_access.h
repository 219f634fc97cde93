// The simulator's one way into the internals of the kernel-facing types. LocalTensor,
// GlobalTensor, TQueBind and TBuf expose only the real Ascend C API to kernel code; the
// implementation of that API (DataCopy, the vector ops, TPipe, the checks) reaches what it needs
// through this accessor, which each of those types befriends.
#pragma once

#include <cstdint>

#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/kernel_utils.h"
#include "ascsim/aicore/local_tensor.h"

namespace ascsim::aicore {

struct TensorAccess {
  // ---- LocalTensor ----
  // Validates that [index, index + count) is inside a live tensor; returns its host pointer.
  template <class T>
  static T* Checked(const AscendC::LocalTensor<T>& t, const char* call, const char* role,
                    uint64_t index, uint64_t count) {
    return t.Checked(call, role, index, count);
  }
  // Faults when the tensor is unbound or its buffer was freed.
  template <class T>
  static void CheckLive(const AscendC::LocalTensor<T>& t, const char* call, const char* role) {
    t.CheckLive(call, role);
  }
  template <class T>
  static T* Data(const AscendC::LocalTensor<T>& t) {
    return t.addr_;
  }
  // UB byte offset of the first element (0 outside a kernel).
  template <class T>
  static uint64_t UbOffset(const AscendC::LocalTensor<T>& t) {
    return t.UbOffset();
  }
  template <class T>
  static BufferSlot* Slot(const AscendC::LocalTensor<T>& t) {
    return t.slot_;
  }
  template <class T>
  static uint32_t Generation(const AscendC::LocalTensor<T>& t) {
    return t.generation_;
  }
  // The memory the tensor's buffer lives in; kUb for an unbound tensor (whose first use reports
  // it as unbound).
  template <class T>
  static Memory MemoryOf(const AscendC::LocalTensor<T>& t) {
    return t.slot_ != nullptr ? t.slot_->memory : Memory::kUb;
  }
  // A tensor of `size_elements` over the whole of `slot`, at its current generation.
  template <class T>
  static AscendC::LocalTensor<T> Bind(BufferSlot* slot, uint32_t size_elements) {
    if constexpr (std::is_same_v<T, AscendC::int4b_t>) FaultInt4Tensor("LocalTensor<int4b_t>");
    AscendC::LocalTensor<T> t;
    t.slot_ = slot;
    t.generation_ = slot->generation;
    t.addr_ = reinterpret_cast<T*>(slot->addr);
    t.size_ = size_elements;
    return t;
  }

  // ---- GlobalTensor ----
  // Checks that [offset, offset + count) elements from this view lie inside the buffer and the
  // device allocation; returns the host pointer. `call`/`verb` name the operation in messages.
  template <class T>
  static T* CheckedAddress(const AscendC::GlobalTensor<T>& t, const char* call, const char* verb,
                           uint64_t offset, uint64_t count, trace::Pipe pipe = trace::Pipe::kNone,
                           const Footprint* footprint = nullptr) {
    return t.CheckedAddress(call, verb, offset, count, pipe, footprint);
  }
  // The start of the device allocation the tensor lies in (found when its buffer was set;
  // nullptr: not device memory).
  template <class T>
  static const uint8_t* AllocBegin(const AscendC::GlobalTensor<T>& t) {
    return t.alloc_.begin;
  }
};

}  // namespace ascsim::aicore
