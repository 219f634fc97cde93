// A kernel array in a local memory of the AI core: what ascsim-launch-transform makes of
//
//   __cbuf__ half l1Buf[N];   (also __ca__ L0A, __cb__ L0B, __cc__ L0C)
//
// The device's compiler places such arrays in that memory; g++ has no address-space qualifiers,
// so the declaration becomes
//
//   ::ascsim::tensor_api::LocalArray<half, ::ascsim::tensor_api::Loc::kL1, (N)> l1Buf{"l1Buf"};
//
// N elements of T at the next free offset of the memory on the current core (aligned as the
// memory needs), given back at the end of the scope. MakeMemPtr(l1Buf) tags it with its memory
// (tensor_api/tensor.h). Neutral: includable before any other ascsim header.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ascsim::tensor_api {

// Where a tensor's memory is: the Location tag of its pointer.
enum class Loc : uint8_t { kGm, kUb, kL1, kL0A, kL0B, kL0C };

// `bytes` at the next offset of `loc` aligned for that memory; `*mark` gets what PopLocalArray
// restores. Faults when the kernel's arrays exceed the memory (src/tensor_api/tensor_api.cpp).
uint8_t* PushLocalArray(Loc loc, uint64_t bytes, const char* name, uint64_t* mark);
void PopLocalArray(Loc loc, uint64_t mark);

template <typename T, Loc L, size_t N>
class LocalArray {
 public:
  static constexpr Loc kLoc = L;
  explicit LocalArray(const char* name)
      : data_(reinterpret_cast<T*>(PushLocalArray(L, N * sizeof(T), name, &mark_))) {}
  ~LocalArray() { PopLocalArray(L, mark_); }
  LocalArray(const LocalArray&) = delete;
  LocalArray& operator=(const LocalArray&) = delete;
  operator T*() const { return data_; }
  T& operator[](size_t i) const { return data_[i]; }
  T* data() const { return data_; }
  static constexpr size_t size() { return N; }

 private:
  uint64_t mark_ = 0;
  T* data_;
};

}  // namespace ascsim::tensor_api
