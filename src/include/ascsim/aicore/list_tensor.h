// ListTensorDesc / TensorDesc: the GM descriptor of a dynamic list of tensors (a TensorList input),
// decoded as the device does (asc-devkit include/basic_api/kernel_operator_list_tensor_intf.h,
// impl/basic_api/dav_c220/kernel_operator_list_tensor_impl.h). Layout, in uint64_t words:
//   [0]                 byte offset from the head to the data-pointer array
//   [1 ...]             per tensor: dim (low 32 bits) | count or index (high 32 bits), then dim
//                       shape words (one reserved word when dim is 0)
//   [offset / 8 ...]    one GM data pointer per tensor
// Every word is read through a GlobalTensor, so a descriptor outside device memory, or one whose
// pointer array runs past its allocation, faults with the numbers.
#pragma once

#include <cstdint>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/internal.h"

namespace AscendC {

class ListTensorDesc;

template <class T>
class TensorDesc {
 public:
  TensorDesc() {}
  ~TensorDesc() {}
  // The caller's buffer the shape words are copied into (at least GetDim() of them).
  void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
  uint64_t GetDim() { return dim_; }
  uint64_t GetIndex() { return index_; }
  uint64_t GetShape(uint32_t offset) {
    if (offset >= dim_) {
      ascsim::aicore::Fault(ascsim::ErrorKind::kOutOfBounds,
                            ascsim::aicore::Str("TensorDesc::GetShape(", offset,
                                                "): the tensor has ", dim_, " dims"));
    }
    return shape_[offset];
  }
  __gm__ T* GetDataPtr() { return ptr_; }
  // A GlobalTensor over the data. Its size is sizeof(T) * the element count, as the device's
  // TensorDescImpl::GetDataObj computes it (a byte count used as an element count); the device
  // allocation still bounds every access.
  GlobalTensor<T> GetDataObj() {
    uint64_t size = sizeof(T);
    for (uint32_t i = 0; i < dim_; ++i) size *= shape_[i];
    GlobalTensor<T> obj;
    obj.SetGlobalBuffer(ptr_, size);
    return obj;
  }

 private:
  friend class ListTensorDesc;
  uint32_t dim_ = 0;
  uint32_t index_ = 0;
  uint64_t* shape_ = nullptr;
  __gm__ T* ptr_ = nullptr;
};

class ListTensorDesc {
 public:
  ListTensorDesc() {}
  ~ListTensorDesc() {}
  explicit ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff,
                          uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }
  // `length` (bytes of the descriptor) and `shapeSize` (the tensor count), when given, are checked
  // against the descriptor, as the CPU-debug assertions do.
  void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff);

  template <class T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    CheckIndex("ListTensorDesc::GetDesc", index);
    if (dim_ == 0) {
      Fail("ListTensorDesc::GetDesc: the list holds data pointers only (dim 0), no shapes");
    }
    if (desc.shape_ == nullptr) {
      Fail(
          "ListTensorDesc::GetDesc: call TensorDesc::SetShapeAddr first (the shape is copied "
          "there)");
    }
    desc.dim_ = dim_;
    desc.index_ = index;
    desc.ptr_ = reinterpret_cast<__gm__ T*>(Word(data_word_ + index));
    const uint64_t at = 1 + uint64_t{index} * desc_words_;
    for (uint32_t i = 0; i < dim_; ++i) desc.shape_[i] = Word(at + 1 + i);
  }
  template <class T>
  __gm__ T* GetDataPtr(uint32_t index) {
    CheckIndex("ListTensorDesc::GetDataPtr", index);
    return reinterpret_cast<__gm__ T*>(Word(data_word_ + index));
  }
  uint32_t GetSize() { return count_; }

 private:
  uint64_t Word(uint64_t i) const { return head_.GetValue(i); }
  void CheckIndex(const char* call, uint32_t index) const;
  [[noreturn]] static void Fail(const char* what);

  GlobalTensor<uint64_t> head_;
  uint64_t data_word_ = 0;  // index of the data-pointer array in words
  uint32_t dim_ = 0;
  uint32_t desc_words_ = 0;
  uint32_t count_ = 0;
};

inline void ListTensorDesc::CheckIndex(const char* call, uint32_t index) const {
  if (index >= count_) {
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kOutOfBounds,
        ascsim::aicore::Str(call, "(", index, "): the list holds ", count_, " tensors"));
  }
}
inline void ListTensorDesc::Fail(const char* what) {
  ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument, what);
}

inline void ListTensorDesc::Init(__gm__ void* data, uint32_t length, uint32_t shapeSize) {
  using ascsim::aicore::Str;
  if (data == nullptr) Fail("ListTensorDesc: data is nullptr");
  head_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(data));
  const uint64_t data_offset = Word(0);
  if (data_offset % sizeof(uint64_t) != 0 || data_offset < 3 * sizeof(uint64_t)) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str("ListTensorDesc: the data-pointer offset ", data_offset,
                              " B is not a whole number of words after the first shape"));
  }
  data_word_ = data_offset / sizeof(uint64_t);
  const uint64_t first = Word(1);
  dim_ = static_cast<uint32_t>(first & 0xffffffffu);
  const uint32_t count_field = static_cast<uint32_t>(first >> 32);
  desc_words_ = dim_ == 0 ? 2 : 1 + dim_;
  count_ = count_field != 0 ? count_field
                            : static_cast<uint32_t>(Word(data_word_ - desc_words_) >> 32) + 1;
  const bool consistent =
      dim_ != 0 ? count_ == (data_offset - sizeof(uint64_t)) / (desc_words_ * sizeof(uint64_t))
                : (Word(2) == 0xffffffffu && data_offset == 24);
  if (!consistent) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str("ListTensorDesc: descriptor of ", count_, " tensors with dim ", dim_,
                              " does not match its data-pointer offset ", data_offset, " B"));
  }
  if (length != 0xffffffffu && shapeSize != 0xffffffffu &&
      (count_ != shapeSize || length != data_offset + uint64_t{count_} * sizeof(uint64_t))) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          Str("ListTensorDesc: length ", length, " / shapeSize ", shapeSize,
                              " do not match the descriptor (", count_, " tensors, ",
                              data_offset + uint64_t{count_} * sizeof(uint64_t), " B)"));
  }
  (void)Word(data_word_ + count_ - 1);  // the whole pointer array lies in device memory
}

}  // namespace AscendC
