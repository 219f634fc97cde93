// LocalTensor<T>: a typed view of a UB buffer. Copies are cheap; every use is validated against
// the buffer slot it came from (still allocated? inside the buffer?).
#pragma once

#include <cstdint>
#include <cstring>

#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/types.h"

namespace ascsim::aicore {
struct TensorAccess;  // the simulator's one way into tensor internals (tensor_access.h)
}  // namespace ascsim::aicore

namespace AscendC {

template <class T>
class LocalTensor {
 public:
  using PrimType = T;

  LocalTensor() = default;

  // A sub-view starting `offset` elements in (as `xLocal[64]` on the device).
  LocalTensor operator[](uint32_t offset) const {
    if (slot_ != nullptr && offset > size_) {
      ascsim::aicore::Fault(
          ascsim::ErrorKind::kOutOfBounds,
          ascsim::aicore::Str("LocalTensor::operator[] offset ", offset, " exceeds tensor size ",
                              size_, " of ", ascsim::aicore::TypeName<T>()));
    }
    LocalTensor view = *this;
    view.addr_ += offset;
    view.size_ -= offset;
    return view;
  }

  T GetValue(uint32_t index) const {
    T value;
    std::memcpy(&value, Checked("LocalTensor::GetValue", "index", index, 1), sizeof(T));
    RecordScalar("GetValue", false);
    return value;
  }
  void SetValue(uint32_t index, T value) const {
    std::memcpy(Checked("LocalTensor::SetValue", "index", index, 1), &value, sizeof(T));
    RecordScalar("SetValue", true);
  }
  T& operator()(uint32_t index) const {
    return *Checked("LocalTensor::operator()", "index", index, 1);
  }

  uint32_t GetSize() const { return size_; }
  uint32_t GetLength() const { return size_ * sizeof(T); }
  // Shrinks or regrows the view within its buffer (as the device's SetSize).
  void SetSize(uint32_t size) {
    const uint32_t capacity = Capacity();
    if (size > capacity) {
      ascsim::aicore::Fault(
          ascsim::ErrorKind::kOutOfBounds,
          ascsim::aicore::Str("LocalTensor::SetSize ", size, " exceeds the ", capacity, " ",
                              ascsim::aicore::TypeName<T>(), " elements left in its buffer"));
    }
    size_ = size;
  }
  // Byte offset of the first element in its local memory, as the device's physical address.
  uint64_t GetPhyAddr() const { return UbOffset(); }
  uint64_t GetPhyAddr(uint32_t offset) const { return UbOffset() + offset * sizeof(T); }
  TPosition GetPosition() const { return slot_ ? slot_->position : TPosition::VECCALC; }

  template <class U>
  LocalTensor<U> ReinterpretCast() const {
    LocalTensor<U> other;
    other.slot_ = slot_;
    other.generation_ = generation_;
    other.addr_ = reinterpret_cast<U*>(addr_);
    other.size_ = static_cast<uint32_t>(static_cast<uint64_t>(size_) * sizeof(T) / sizeof(U));
    return other;
  }

 private:
  friend struct ascsim::aicore::TensorAccess;
  template <class U>
  friend class LocalTensor;

  // A scalar access on pipe S for the cost model (one pointer test when profiling is off).
  void RecordScalar(const char* name, bool write) const {
    if (slot_->trace != nullptr) {  // Checked() has verified slot_
      slot_->trace->calls.push_back(
          ascsim::trace::ScalarCall(name, sizeof(T), write, false, slot_->id));
    }
  }
  // Validates that [index, index + count) is inside a live tensor; returns its host pointer.
  T* Checked(const char* call, const char* role, uint64_t index, uint64_t count) const {
    using ascsim::aicore::Str;
    CheckLive(call, role);
    if (index + count > size_) [[unlikely]] {
      ascsim::aicore::FaultTensorRange(call, role, index, index + count,
                                       ascsim::aicore::TypeName<T>(), size_);
    }
    return addr_ + index;
  }
  void CheckLive(const char* call, const char* role) const {
    if (slot_ == nullptr || slot_->generation != generation_) [[unlikely]] {
      ascsim::aicore::FaultDeadTensor(call, role, slot_);
    }
  }
  uint32_t Capacity() const {
    return slot_ ? static_cast<uint32_t>(
                       (slot_->addr + slot_->bytes - reinterpret_cast<uint8_t*>(addr_)) / sizeof(T))
                 : 0;
  }
  // Byte offset of the first element in the buffer's memory (UB, L1, L0A, ...; memory.h).
  uint64_t UbOffset() const {
    return slot_ ? slot_->mem_offset +
                       static_cast<uint64_t>(reinterpret_cast<uint8_t*>(addr_) - slot_->addr)
                 : 0;
  }
  ascsim::aicore::BufferSlot* slot() const { return slot_; }
  uint32_t generation() const { return generation_; }
  static LocalTensor Bind(ascsim::aicore::BufferSlot* slot, uint32_t size_elements) {
    LocalTensor t;
    t.slot_ = slot;
    t.generation_ = slot->generation;
    t.addr_ = reinterpret_cast<T*>(slot->addr);
    t.size_ = size_elements;
    return t;
  }

  ascsim::aicore::BufferSlot* slot_ = nullptr;
  uint32_t generation_ = 0;
  T* addr_ = nullptr;
  uint32_t size_ = 0;  // elements
};

}  // namespace AscendC
