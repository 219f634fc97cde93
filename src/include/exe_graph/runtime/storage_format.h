// gert::StorageFormat (CANN metadef inc/external/exe_graph/runtime/storage_format.h): the origin
// format, the storage format and the dims-expansion rule between them.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_STORAGE_FORMAT_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_STORAGE_FORMAT_H_

#include <cstring>
#include <type_traits>

#include "exe_graph/runtime/expand_dims_type.h"
#include "graph/types.h"

namespace gert {

struct StorageFormat {
 public:
  StorageFormat() : origin_format_(ge::FORMAT_ND), storage_format_(ge::FORMAT_ND) {
    std::memset(reserved_, 0, sizeof(reserved_));
  }
  StorageFormat(const ge::Format origin_format, const ge::Format storage_format,
                const ExpandDimsType& expand_dims_type)
      : origin_format_(origin_format),
        storage_format_(storage_format),
        expand_dims_type_(expand_dims_type) {
    std::memset(reserved_, 0, sizeof(reserved_));
  }
  ge::Format GetOriginFormat() const { return origin_format_; }
  void SetOriginFormat(const ge::Format origin_format) { origin_format_ = origin_format; }
  ge::Format GetStorageFormat() const { return storage_format_; }
  void SetStorageFormat(const ge::Format storage_format) { storage_format_ = storage_format; }
  ExpandDimsType GetExpandDimsType() const { return expand_dims_type_; }
  void SetExpandDimsType(const ExpandDimsType& expand_dims_type) {
    expand_dims_type_ = expand_dims_type;
  }
  ExpandDimsType& MutableExpandDimsType() { return expand_dims_type_; }
  bool operator==(const StorageFormat& other) const {
    return origin_format_ == other.origin_format_ && storage_format_ == other.storage_format_ &&
           expand_dims_type_ == other.expand_dims_type_;
  }
  bool operator!=(const StorageFormat& other) const { return !(*this == other); }

 private:
  ge::Format origin_format_;
  ge::Format storage_format_;
  ExpandDimsType expand_dims_type_;
  uint8_t reserved_[40];
};
static_assert(std::is_standard_layout<StorageFormat>::value,
              "The class StorageFormat must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_STORAGE_FORMAT_H_
