// LocalTensor<T>: a typed view of a UB buffer. Copies are cheap; every use is validated against
// the buffer slot it came from (still allocated? inside the buffer?).
#pragma once

#include <cstdint>
#include <cstring>

#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/shape_info.h"
#include "ascsim/aicore/types.h"

namespace ascsim::aicore {
struct TensorAccess;  // the simulator's one way into tensor internals (tensor_access.h)
// The buffer record spanning the whole memory `pos` maps to, made on first use (kFixed): what
// static tensors and the tensor API's local tensors (src/tensor_api) are views of.
BufferSlot* WholeMemorySlot(CoreContext& core, AscendC::TPosition pos);
// The buffer record of this core's static tensors at `pos` (the whole memory `pos` maps to), after
// checking [addr, addr + bytes) as CANN's CreateTensor does; static_tensor.cpp.
BufferSlot* StaticTensorSlot(AscendC::TPosition pos, uint32_t addr, uint64_t elements,
                             uint32_t element_bytes, const char* type_name);
}  // namespace ascsim::aicore

namespace AscendC {

// A buffer's handle and its address record (asc-devkit impl/basic_api/kernel_tensor_base.h
// TBuffAddr, the CPU-debug layout with absAddr): TBuf::GetBufferAddr fills one from a tensor's
// GetBufferHandle(), LocalTensor::SetAddr binds a tensor to it (ops-transformer mla_prolog keeps
// its L1/L0 buffers this way). Here the handle is the buffer's record.
using TBufHandle = uint8_t*;
struct TBuffAddr {
  uint32_t dataLen;
  uint32_t bufferAddr;
  TBufHandle bufferHandle;
  uint8_t logicPos;
  uint8_t* absAddr;
};

template <class T>
class LocalTensor {
 public:
  using PrimType = T;

  LocalTensor() = default;
  // Static tensor programming (asc-devkit "LocalTensor构造函数"): `tileSize` elements at byte
  // offset `addr` of the memory `pos` maps to, with no TPipe. addr 32-byte aligned, the length a
  // multiple of 32 bytes, inside the memory (kernel_tensor_impl.h CreateTensor's checks).
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) {
    ascsim::aicore::BufferSlot* slot = ascsim::aicore::StaticTensorSlot(
        pos, addr, tileSize, sizeof(T), ascsim::aicore::TypeName<T>());
    slot_ = slot;
    generation_ = slot->generation;
    addr_ = reinterpret_cast<T*>(slot->addr + addr);
    size_ = tileSize;
  }

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

  // Scalar accesses are API calls: a kernel polling UB with them sees a timeout or a cancel.
  T GetValue(uint32_t index) const {
    EnterScalarCall();
    T value;
    const T* p = Checked("LocalTensor::GetValue", "index", index, 1);
    SanitizeScalar(p, ascsim::aicore::Access::kRead, "LocalTensor::GetValue");
    std::memcpy(&value, p, sizeof(T));
    RecordScalar("GetValue", false);
    return value;
  }
  void SetValue(uint32_t index, T value) const {
    EnterScalarCall();
    T* p = Checked("LocalTensor::SetValue", "index", index, 1);
    SanitizeScalar(p, ascsim::aicore::Access::kWrite, "LocalTensor::SetValue");
    std::memcpy(p, &value, sizeof(T));
    RecordScalar("SetValue", true);
  }
  // The sanitizer counts a reference access as a write (it cannot tell a read through it).
  T& operator()(uint32_t index) const {
    EnterScalarCall();
    T* p = Checked("LocalTensor::operator()", "index", index, 1);
    SanitizeScalar(p, ascsim::aicore::Access::kWrite, "LocalTensor::operator()");
    return *p;
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
  // The handle of the buffer this tensor views (null when unbound).
  TBufHandle GetBufferHandle() const { return reinterpret_cast<TBufHandle>(slot_); }
  // This tensor becomes the dataLen bytes at bufferAddr of the buffer `address` names, as
  // BaseLocalTensor::SetAddr copies the record on the device.
  void SetAddr(const TBuffAddr& address) {
    auto* slot = reinterpret_cast<ascsim::aicore::BufferSlot*>(address.bufferHandle);
    if (slot == nullptr || address.bufferAddr < slot->mem_offset ||
        uint64_t{address.bufferAddr} + address.dataLen > uint64_t{slot->mem_offset} + slot->bytes) {
      ascsim::aicore::Fault(
          ascsim::ErrorKind::kInvalidArgument,
          slot == nullptr
              ? std::string("LocalTensor::SetAddr: the TBuffAddr names no buffer (bufferHandle "
                            "is null)")
              : ascsim::aicore::Str("LocalTensor::SetAddr: bytes [", address.bufferAddr, ", ",
                                    uint64_t{address.bufferAddr} + address.dataLen,
                                    ") are not inside the buffer at [", slot->mem_offset, ", ",
                                    uint64_t{slot->mem_offset} + slot->bytes, ")"));
    }
    slot_ = slot;
    generation_ = slot->generation;
    addr_ = reinterpret_cast<T*>(slot->addr + (address.bufferAddr - slot->mem_offset));
    size_ = static_cast<uint32_t>(address.dataLen / sizeof(T));
  }
  // Byte offset of the first element in its local memory, as the device's physical address.
  uint64_t GetPhyAddr() const { return UbOffset(); }
  uint64_t GetPhyAddr(uint32_t offset) const { return UbOffset() + offset * sizeof(T); }
  // int32_t as in kernel_tensor.h (static_cast<TPosition>(t.GetPosition()) to compare).
  int32_t GetPosition() const {
    return static_cast<int32_t>(slot_ ? slot_->position : TPosition::VECCALC);
  }

  // Whole-tensor expressions, `dst = a + b;`: the SymbolOverride* types (symbol_override.h) run the
  // count-form op into this tensor.
  template <class Expr, class = typename Expr::ascsim_symbol_override>
  void operator=(const Expr& expr) const {
    expr.Process(*this);
  }

  // The shape this tensor carries for the APIs that read it (SoftMax and its family take m and k
  // from it when their SoftMaxShapeInfo is zero). A copy or a sub-view keeps it, ReinterpretCast
  // does not (asc-devkit impl/basic_api/kernel_tensor_impl.h: the copy constructor copies
  // shapeInfo_, ReinterpretCast builds a new tensor); a tensor never given one has no dims.
  void SetShapeInfo(const ShapeInfo& shapeInfo) { shapeInfo_ = shapeInfo; }
  ShapeInfo GetShapeInfo() const { return shapeInfo_; }

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

  static void EnterScalarCall() {
    if (ascsim::aicore::CoreContext* core = ascsim::aicore::TryCurrentCore()) {
      ascsim::aicore::EnterApiCall(*core);
    }
  }
  // A scalar access on pipe S for the cost model (one pointer test when profiling is off).
  void RecordScalar(const char* name, bool write) const {
    if (slot_->trace != nullptr) {  // Checked() has verified slot_
      slot_->trace->calls.push_back(
          ascsim::trace::ScalarCall(name, sizeof(T), write, false, slot_->id));
    }
  }
  // A scalar access on pipe S for the sanitizer (one pointer test when it is off).
  void SanitizeScalar(const T* p, ascsim::aicore::Access access, const char* call) const {
    if (slot_->sanitizer != nullptr) [[unlikely]] {  // Checked() has verified slot_
      ascsim::aicore::SanitizeScalar(slot_->sanitizer, access, slot_, p, sizeof(T), call);
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
  ShapeInfo shapeInfo_;
};

}  // namespace AscendC
