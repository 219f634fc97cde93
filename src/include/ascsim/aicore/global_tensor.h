// GlobalTensor<T>: a typed view of device (GM) memory. Every access is checked, in O(1), against
// the size given to SetGlobalBuffer and against the device allocation the address belongs to.
#pragma once

#include <cstdint>
#include <cstring>

#include "ascsim/aicore/cache_types.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/kernel_utils.h"
#include "ascsim/aicore/sanitizer_hooks.h"
#include "ascsim/aicore/shape_info.h"
#include "ascsim/aicore/types.h"

namespace ascsim::aicore {
struct TensorAccess;  // the simulator's one way into tensor internals (tensor_access.h)
// The warning of an access past a GlobalTensor's size that stays in its allocation (checks.cpp).
[[gnu::cold]] [[gnu::noinline]] void WarnPastGlobalSize(const char* call, const char* verb,
                                                        uint64_t first, uint64_t last,
                                                        const char* type, uint64_t size);
}  // namespace ascsim::aicore

namespace AscendC {

template <class T>
class GlobalTensor {
 public:
  using PrimType = T;

  GlobalTensor() = default;

  // `bufferSize` in elements. The address is resolved against device memory now; a pointer that
  // is not device memory is reported at its first access, as the device faults then.
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    if constexpr (std::is_same_v<T, AscendC::int4b_t>) ascsim::aicore::FaultInt4Tensor("GlobalTensor<int4b_t>");
    Bind(buffer, bufferSize, true);
  }
  void SetGlobalBuffer(__gm__ T* buffer) {
    if constexpr (std::is_same_v<T, AscendC::int4b_t>) ascsim::aicore::FaultInt4Tensor("GlobalTensor<int4b_t>");
    Bind(buffer, 0, false);
  }

  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor view = *this;
    view.offset_ += offset;
    view.address_ += offset;
    return view;
  }

  // Scalar accesses are API calls like any other: a kernel polling a GM flag with them sees a
  // timeout or a cancel at its next access.
  T GetValue(uint64_t offset) const {
    EnterScalarCall();
    const T* p =
        CheckedAddress("GlobalTensor::GetValue", "read", offset, 1, ascsim::trace::Pipe::kS);
    RecordScalar("GetValue", false);
    T value;
    std::memcpy(&value, p, sizeof(T));
    return value;
  }
  void SetValue(uint64_t offset, T value) {
    EnterScalarCall();
    T* p = CheckedAddress("GlobalTensor::SetValue", "write", offset, 1, ascsim::trace::Pipe::kS);
    RecordScalar("SetValue", true);
    std::memcpy(p, &value, sizeof(T));
  }
  // Reference access, as the real `operator()`.
  T& operator()(uint64_t offset) {
    EnterScalarCall();
    return *CheckedAddress("GlobalTensor::operator()", "access", offset, 1,
                           ascsim::trace::Pipe::kS);
  }

  // Elements from this view's offset to the end of the buffer given to SetGlobalBuffer.
  uint64_t GetSize() const {
    if (!sized_)
      return alloc_.end ? static_cast<uint64_t>(alloc_.end - Bytes(offset_)) / sizeof(T) : 0;
    return offset_ <= size_ ? size_ - offset_ : 0;
  }
  __gm__ T* GetPhyAddr() const { return base_ + offset_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return base_ + offset_ + offset; }
  // An L2 cache policy for this tensor's accesses: no effect on results, so only remembered.
  template <CacheRwMode rwMode = CacheRwMode::RW>
  void SetL2CacheHint(CacheMode mode) {
    cacheMode_ = mode;
  }

  // The shape this tensor carries (asc-devkit impl/basic_api/kernel_tensor_impl.h
  // GlobalTensor::SetShapeInfo / GetShapeInfo); views and copies keep it.
  void SetShapeInfo(const ShapeInfo& shapeInfo) { shapeInfo_ = shapeInfo; }
  ShapeInfo GetShapeInfo() const { return shapeInfo_; }

  CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;  // public, as in kernel_tensor.h
  // The address of this view's first element, public as in CANN (impl/basic_api/
  // kernel_tensor_base.h BaseGlobalTensor::address_). Accesses through it are raw, as on the
  // device: no checks, no sanitizer, no cost-model record.
  __gm__ T* address_ = nullptr;

 private:
  friend struct ascsim::aicore::TensorAccess;

  // Checks that [offset, offset + count) elements from this view lie inside the buffer and the
  // device allocation; returns the host pointer. `call`/`verb` name the operation in messages.
  // The sanitizer sees a GM access on `pipe` (kNone: MTE2 to read, MTE3 to write), "read" a
  // read, "write" a write and "access" (a reference) both, over the elements or `footprint`.
  T* CheckedAddress(const char* call, const char* verb, uint64_t offset, uint64_t count,
                    ascsim::trace::Pipe pipe = ascsim::trace::Pipe::kNone,
                    const ascsim::aicore::Footprint* footprint = nullptr) const {
    using ascsim::aicore::Str;
    const uint64_t first = offset_ + offset;
    const uint64_t last = first + count;  // exclusive, in elements from the SetGlobalBuffer base
    if (base_ == nullptr) {
      ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                            Str(call, ": GlobalTensor has no buffer (SetGlobalBuffer not called)"));
    }
    // A negative index (xGm[-8], GetValue(-1)) arrives as a huge unsigned one: `first` or
    // `last` wraps, or the byte offset does. Either would land before the buffer, e.g. in the
    // previous block's slice of the same allocation, and pass the checks below.
    if (first < offset_ || last < first || last > kMaxElements) [[unlikely]] {
      ascsim::aicore::Fault(ascsim::ErrorKind::kOutOfBounds,
                            Str(call, " ", verb, " of ", count, " ", ascsim::aicore::TypeName<T>(),
                                " at element offset ", static_cast<int64_t>(offset_), " + ",
                                static_cast<int64_t>(offset),
                                " is outside any buffer (a negative or overflowing index)"));
    }
    const uint8_t* lo = Bytes(first);
    const uint8_t* hi = Bytes(last);
    // Past the size given to SetGlobalBuffer: the device has no such bound and accesses the
    // neighbouring elements (Ascend's unaligned samples read and atomically write a 32-byte block
    // past their slice), so inside the device allocation it is a warning (an error in strict
    // mode); beyond the allocation it faults.
    if (sized_ && last > size_) [[unlikely]] {
      if (gm_state_ == ascsim::aicore::GmState::kOwn && lo >= alloc_.begin && hi <= alloc_.end) {
        ascsim::aicore::WarnPastGlobalSize(call, verb, first, last, ascsim::aicore::TypeName<T>(),
                                           size_);
      } else {
        ascsim::aicore::Fault(
            ascsim::ErrorKind::kOutOfBounds,
            Str(call, " ", verb, " [", first, ", ", last, ") of ", ascsim::aicore::TypeName<T>(),
                " exceeds GlobalTensor size ", size_));
      }
    }
    if (gm_state_ != ascsim::aicore::GmState::kOwn) [[unlikely]] {
      ascsim::aicore::FaultGmAddress(call, verb, lo, hi, alloc_, gm_state_);
    }
    if (lo < alloc_.begin || hi > alloc_.end) {
      ascsim::aicore::Fault(
          ascsim::ErrorKind::kOutOfBounds,
          Str(call, " ", verb, " [", first, ", ", last, ") of ", ascsim::aicore::TypeName<T>(),
              " runs outside its device allocation of ", alloc_.end - alloc_.begin, " B at ",
              ascsim::aicore::Hex(reinterpret_cast<uintptr_t>(alloc_.begin)), " (bytes [",
              lo - alloc_.begin, ", ", hi - alloc_.begin, "))"));
    }
    if (sanitizer_ != nullptr) [[unlikely]] {
      ascsim::aicore::SanitizeGmOperand(sanitizer_, pipe, verb, alloc_, lo, count * sizeof(T),
                                        footprint, call);
    }
    return base_ + first;
  }
  // Element offsets whose byte offset stays far from wrapping (2^62 bytes).
  static constexpr uint64_t kMaxElements = (uint64_t{1} << 62) / sizeof(T);

  static void EnterScalarCall() {
    if (ascsim::aicore::CoreContext* core = ascsim::aicore::TryCurrentCore()) {
      ascsim::aicore::EnterApiCall(*core);
    }
  }
  // A scalar access on pipe S for the cost model (one pointer test when profiling is off).
  void RecordScalar(const char* name, bool write) const {
    if (trace_ != nullptr) {
      trace_->calls.push_back(
          ascsim::trace::ScalarCall(name, sizeof(T), write, true, ascsim::trace::kNoBuffer));
    }
  }
  void Bind(T* buffer, uint64_t size, bool sized) {
    base_ = buffer;
    address_ = buffer;
    size_ = size;
    sized_ = sized;
    offset_ = 0;
    gm_state_ = ascsim::aicore::GmState::kNotDevice;
    ascsim::aicore::CoreContext* core = ascsim::aicore::TryCurrentCore();
    if (core != nullptr && core->launch->find_gm && core->launch->find_gm(buffer, &alloc_)) {
      gm_state_ = core->launch->gm_args == nullptr
                      ? ascsim::aicore::GmState::kOwn
                      : ascsim::aicore::GmProvenance(*core->launch, buffer, alloc_);
    }
    trace_ = core != nullptr ? core->trace : nullptr;
    sanitizer_ = core != nullptr ? core->sanitizer : nullptr;
  }
  const uint8_t* Bytes(uint64_t element) const {
    return reinterpret_cast<const uint8_t*>(base_) + element * sizeof(T);
  }

  T* base_ = nullptr;
  uint64_t offset_ = 0;  // elements from base_
  uint64_t size_ = 0;    // elements, when sized_
  bool sized_ = false;
  ascsim::aicore::GmState gm_state_ = ascsim::aicore::GmState::kNotDevice;
  ascsim::trace::CoreTrace* trace_ = nullptr;  // the binding core's trace when profiling
  ascsim::aicore::GmRange alloc_;
  ascsim::aicore::CoreSanitizer* sanitizer_ = nullptr;  // the binding core's, when sanitizing
  ShapeInfo shapeInfo_;
};

}  // namespace AscendC
