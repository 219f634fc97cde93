// gert::ContinuousVector and TypedContinuousVector<T> (CANN metadef inc/external/exe_graph/runtime/
// continuous_vector.h): a capacity, a size and the elements right after the header, in one
// block. List attributes (RuntimeAttrs::GetListInt) and the workspace sizes come in this form.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_CONTINUOUS_VECTOR_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_CONTINUOUS_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "graph/error_codes.h"

namespace gert {

class ContinuousVector {
 public:
  template <typename T>
  static std::unique_ptr<uint8_t[]> Create(size_t capacity, size_t& total_size) {
    if (__builtin_mul_overflow(capacity, sizeof(T), &total_size)) return nullptr;
    if (__builtin_add_overflow(total_size, sizeof(ContinuousVector), &total_size)) return nullptr;
    std::unique_ptr<uint8_t[]> holder(new (std::nothrow) uint8_t[total_size]);
    if (holder == nullptr) return nullptr;
    reinterpret_cast<ContinuousVector*>(holder.get())->Init(capacity);
    return holder;
  }
  template <typename T>
  static std::unique_ptr<uint8_t[]> Create(const size_t capacity) {
    size_t total_size = 0;
    return Create<T>(capacity, total_size);
  }
  void Init(const size_t capacity) {
    capacity_ = capacity;
    size_ = 0U;
    std::memset(reserved_, 0, sizeof(reserved_));
  }
  size_t GetSize() const { return size_; }
  ge::graphStatus SetSize(const size_t size) {
    if (size > capacity_) return ge::GRAPH_PARAM_OUT_OF_RANGE;
    size_ = size;
    return ge::GRAPH_SUCCESS;
  }
  size_t GetCapacity() const { return capacity_; }
  const void* GetData() const { return elements; }
  void* MutableData() { return elements; }

 private:
  size_t capacity_;
  size_t size_;
  uint8_t reserved_[40];
  uint8_t elements[8];
};
static_assert(std::is_standard_layout<ContinuousVector>::value,
              "The ContinuousVector must be a POD");

template <typename T>
class TypedContinuousVector : private ContinuousVector {
 public:
  using ContinuousVector::GetCapacity;
  using ContinuousVector::GetSize;
  using ContinuousVector::SetSize;
  T* MutableData() { return reinterpret_cast<T*>(ContinuousVector::MutableData()); }
  const T* GetData() const { return reinterpret_cast<const T*>(ContinuousVector::GetData()); }
};

// A list of ContinuousVectors in one block (ListListInt attributes): offsets from the start.
class ContinuousVectorVector {
 public:
  void Init(const size_t capacity) {
    capacity_ = capacity;
    size_ = 0U;
    std::memset(reserved_, 0, sizeof(reserved_));
    if (capacity_ > 0) offset_[0] = GetOverHeadLength(capacity_);
  }
  template <typename T>
  ContinuousVector* Add(size_t inner_vector_capacity) {
    if (size_ >= capacity_) return nullptr;
    ContinuousVector* inner =
        reinterpret_cast<ContinuousVector*>(reinterpret_cast<uint8_t*>(this) + GetOffset(size_));
    inner->Init(inner_vector_capacity);
    static_cast<void>(inner->SetSize(inner_vector_capacity));
    size_t length = 0U;
    if (__builtin_mul_overflow(inner_vector_capacity, sizeof(T), &length)) return nullptr;
    if (__builtin_add_overflow(length, sizeof(ContinuousVector), &length)) return nullptr;
    ++size_;
    if (size_ < capacity_) SetOffset(size_, GetOffset(size_ - 1U) + length);
    return inner;
  }
  const ContinuousVector* Get(const size_t index) const {
    if (index >= size_) return nullptr;
    return reinterpret_cast<const ContinuousVector*>(reinterpret_cast<const uint8_t*>(this) +
                                                     GetOffset(index));
  }
  size_t GetSize() const { return size_; }
  static size_t GetOverHeadLength(const size_t capacity) {
    if (capacity == 0U) return sizeof(ContinuousVectorVector);
    return sizeof(size_t) * 2 + 40 + sizeof(size_t) * capacity;
  }
  void SetOffset(const size_t index, const size_t offset) { offset_[index] = offset; }
  size_t GetOffset(const size_t index) const { return offset_[index]; }

 private:
  size_t capacity_ = 0U;
  size_t size_ = 0U;
  uint8_t reserved_[40];
  size_t offset_[1U];
};

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_CONTINUOUS_VECTOR_H_
