// gert::Tensor (CANN metadef inc/external/exe_graph/runtime/runtime_tensor.h): storage shape,
// storage format, data type and the data (TensorData). In a TilingContext the data of an input
// is device memory, which ascsim keeps in host memory: value-depend inputs can be read directly.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_RUNTIME_TENSOR_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_RUNTIME_TENSOR_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/storage_format.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tensor_data.h"
#include "graph/types.h"

namespace gert {

using ConstTensorAddress = void* const;

enum TensorVersion : uint8_t { kTensorV1 = 0, kTensorV2 = 1 };

class Tensor {
 public:
  Tensor() : version_(kTensorV1), data_type_(ge::DT_UNDEFINED) { ZeroReserved(); }
  Tensor(const StorageShape& storage_shape, const StorageFormat& storage_format,
         const TensorPlacement placement, const ge::DataType data_type, TensorAddress addr)
      : Tensor(storage_shape, storage_format, placement, data_type, addr, nullptr) {}
  Tensor(const StorageShape& storage_shape, const StorageFormat& storage_format,
         ge::DataType data_type)
      : storage_shape_(storage_shape),
        storage_format_(storage_format),
        version_(kTensorV1),
        data_type_(data_type) {
    ZeroReserved();
  }
  Tensor(const StorageShape& storage_shape, const StorageFormat& storage_format,
         const TensorPlacement placement, const ge::DataType data_type, TensorAddress addr,
         TensorAddrManager manager)
      : storage_shape_(storage_shape),
        storage_format_(storage_format),
        version_(kTensorV1),
        data_type_(data_type),
        tensor_data_(addr, manager,
                     static_cast<size_t>(ge::GetSizeInBytes(
                         storage_shape.GetStorageShape().GetShapeSize(), data_type)),
                     placement) {
    ZeroReserved();
  }

  int64_t GetShapeSize() const { return storage_shape_.GetStorageShape().GetShapeSize(); }
  template <class T>
  const T* GetData() const {
    return static_cast<const T*>(GetAddr());
  }
  template <class T>
  T* GetData() {
    return static_cast<T*>(GetAddr());
  }
  void SetData(TensorData&& data) { tensor_data_ = static_cast<TensorData&&>(data); }
  const void* GetAddr() const {
    if (tensor_data_.GetPlacement() == kFollowing) {
      return reinterpret_cast<const uint8_t*>(this) + sizeof(*this);
    }
    return tensor_data_.GetAddr();
  }
  void* GetAddr() {
    if (tensor_data_.GetPlacement() == kFollowing) {
      return reinterpret_cast<uint8_t*>(this) + sizeof(*this);
    }
    return tensor_data_.GetAddr();
  }
  size_t GetSize() const { return tensor_data_.GetSize(); }
  void SetSize(const size_t size) { tensor_data_.SetSize(size); }
  ge::DataType GetDataType() const { return data_type_; }
  void SetDataType(const ge::DataType data_type) { data_type_ = data_type; }

  const Shape& GetStorageShape() const { return storage_shape_.GetStorageShape(); }
  Shape& MutableStorageShape() { return storage_shape_.MutableStorageShape(); }
  const Shape& GetOriginShape() const { return storage_shape_.GetOriginShape(); }
  Shape& MutableOriginShape() { return storage_shape_.MutableOriginShape(); }
  const StorageShape& GetShape() const { return storage_shape_; }
  StorageShape& GetShape() { return storage_shape_; }

  ge::Format GetStorageFormat() const { return storage_format_.GetStorageFormat(); }
  void SetStorageFormat(const ge::Format storage_format) {
    storage_format_.SetStorageFormat(storage_format);
  }
  ge::Format GetOriginFormat() const { return storage_format_.GetOriginFormat(); }
  void SetOriginFormat(const ge::Format origin_format) {
    storage_format_.SetOriginFormat(origin_format);
  }
  const StorageFormat& GetFormat() const { return storage_format_; }
  StorageFormat& MutableFormat() { return storage_format_; }
  ExpandDimsType GetExpandDimsType() const { return storage_format_.GetExpandDimsType(); }
  void SetExpandDimsType(const ExpandDimsType& expand_dims_type) {
    storage_format_.SetExpandDimsType(expand_dims_type);
  }
  TensorPlacement GetPlacement() const { return tensor_data_.GetPlacement(); }
  void SetPlacement(const TensorPlacement placement) { tensor_data_.SetPlacement(placement); }
  const TensorData& GetTensorData() const { return tensor_data_; }
  TensorData& MutableTensorData() { return tensor_data_; }
  TensorVersion GetVersion() const { return version_; }
  void SetVersion(const TensorVersion version) { version_ = version; }

 private:
  void ZeroReserved() {
    std::memset(reserved_, 0, sizeof(reserved_));
    std::memset(reserved_field_, 0, sizeof(reserved_field_));
  }
  StorageShape storage_shape_;
  StorageFormat storage_format_;
  TensorVersion version_;
  uint8_t reserved_[3];
  ge::DataType data_type_;
  TensorData tensor_data_;
  uint8_t reserved_field_[40];
};
static_assert(std::is_standard_layout<Tensor>::value, "The class Tensor must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_RUNTIME_TENSOR_H_
