// gert::TilingData (CANN metadef inc/external/exe_graph/runtime/tiling_data.h): the buffer a
// TilingFunc writes the kernel's tiling into: a capacity (2048 B for custom operators, the
// default of OpImplRegisterV2::Tiling), a data size (what the kernel gets) and the bytes.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_TILING_DATA_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_TILING_DATA_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "graph/error_codes.h"

namespace gert {

class RuntimeAttrs;

enum class AttrDataType : int32_t {
  kBool = 0,
  kString,
  kInt32,
  kInt64,
  kUint32,
  kFloat32,
  kFloat16,
  kListBool,
  kListString,
  kListInt32,
  kListInt64,
  kListUint32,
  kListFloat32,
  kListFloat16,
  kListListInt32,
  kListListInt64,
  kBfloat16,
  kInt8,
  kInt16,
  kListInt8,
  kListInt16,
  kListListBool,
  kListListFloat16,
  kListBfloat16,
  kListListBfloat16,
  kListListFloat32,
  kListListInt8,
  kListListInt16,
  kUint8,
  kListUint8,
  kListListUint8,
  kUint16,
  kListUint16,
  kListListUint16,
  kListListUint32,
  kUint64,
  kListUint64,
  kListListUint64,
  kTypeEnd
};

class TilingData {
 public:
  size_t GetCapacity() const { return capacity_; }
  size_t GetDataSize() const { return data_size_; }
  void SetDataSize(const size_t size) { data_size_ = size; }
  void* GetData() { return data_; }
  const void* GetData() const { return data_; }

  template <typename T, typename std::enable_if<std::is_standard_layout<T>::value, int>::type = 0>
  ge::graphStatus Append(const T& data) {
    void* p = Expand(sizeof(data));
    if (p == nullptr) return ge::GRAPH_FAILED;
    std::memcpy(p, &data, sizeof(data));
    return ge::GRAPH_SUCCESS;
  }
  template <typename T, typename std::enable_if<std::is_standard_layout<T>::value, int>::type = 0>
  ge::graphStatus Append(const T* data, size_t append_num) {
    size_t append_size = 0;
    if (__builtin_mul_overflow(sizeof(T), append_num, &append_size)) return ge::GRAPH_MUL_OVERFLOW;
    void* p = Expand(append_size);
    if (p == nullptr) return ge::GRAPH_ADD_OVERFLOW;
    std::memcpy(p, data, append_size);
    return ge::GRAPH_SUCCESS;
  }
  // Grows the data by `size` bytes and returns where they start; nullptr past the capacity.
  void* Expand(size_t size) {
    size_t after = 0;
    if (__builtin_add_overflow(data_size_, size, &after)) return nullptr;
    if (after > capacity_) return nullptr;
    void* ret = static_cast<uint8_t*>(data_) + data_size_;
    data_size_ = after;
    return ret;
  }
  // A TilingData header followed by `cap_size` bytes of data.
  static std::unique_ptr<uint8_t[]> CreateCap(const size_t cap_size) {
    size_t total = 0;
    if (CalcTotalSize(cap_size, total) != ge::GRAPH_SUCCESS) return nullptr;
    std::unique_ptr<uint8_t[]> holder(new (std::nothrow) uint8_t[total]);
    if (holder == nullptr) return nullptr;
    reinterpret_cast<TilingData*>(holder.get())->Init(cap_size, holder.get() + sizeof(TilingData));
    return holder;
  }
  static ge::graphStatus CalcTotalSize(const size_t cap_size, size_t& total_size) {
    if (__builtin_add_overflow(cap_size, sizeof(TilingData), &total_size)) {
      return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
  void Init(const size_t cap_size, void* const data) {
    capacity_ = cap_size;
    data_size_ = 0;
    data_ = data;
    std::memset(reserved_, 0, sizeof(reserved_));
  }

  TilingData(const TilingData&) = delete;
  TilingData(TilingData&&) = delete;
  TilingData operator=(const TilingData&) = delete;
  TilingData operator=(TilingData&&) = delete;
  TilingData() = default;

 private:
  size_t capacity_;
  size_t data_size_;
  void* data_;
  uint8_t reserved_[40];
};

template <typename T>
TilingData& operator<<(TilingData& out, const T& data) {
  out.Append(data);
  return out;
}
static_assert(std::is_standard_layout<TilingData>::value, "The class TilingData must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_TILING_DATA_H_
