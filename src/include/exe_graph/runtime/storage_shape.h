// gert::StorageShape (CANN metadef inc/external/exe_graph/runtime/storage_shape.h): the origin
// shape (what the user sees) and the storage shape (after format conversion); GetShape() is the
// storage shape.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_STORAGE_SHAPE_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_STORAGE_SHAPE_H_

#include <cstring>
#include <initializer_list>
#include <type_traits>

#include "exe_graph/runtime/shape.h"

namespace gert {

struct StorageShape {
  StorageShape() { std::memset(reserved_, 0, sizeof(reserved_)); }
  StorageShape(const std::initializer_list<int64_t>& origin_shape,
               const std::initializer_list<int64_t>& storage_shape)
      : origin_shape_(origin_shape), storage_shape_(storage_shape) {
    std::memset(reserved_, 0, sizeof(reserved_));
  }
  const Shape& GetOriginShape() const { return origin_shape_; }
  const Shape& GetShape() const { return storage_shape_; }
  const Shape& GetStorageShape() const { return storage_shape_; }
  Shape& MutableShape() { return storage_shape_; }
  Shape& MutableOriginShape() { return origin_shape_; }
  Shape& MutableStorageShape() { return storage_shape_; }
  bool operator==(const StorageShape& other) const {
    return origin_shape_ == other.origin_shape_ && storage_shape_ == other.storage_shape_;
  }
  bool operator!=(const StorageShape& other) const { return !(*this == other); }

 private:
  Shape origin_shape_;
  Shape storage_shape_;
  uint8_t reserved_[40];
};
static_assert(std::is_standard_layout<StorageShape>::value, "The class must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_STORAGE_SHAPE_H_
