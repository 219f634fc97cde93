// The objects behind the aclnn handles (aclnn/acl_meta.h): what an aclTensor, a scalar, an array
// and a list hold. Kept apart from the executor so the ACL conversions can use them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "aclnn/acl_meta.h"
#include "graph/types.h"

struct aclTensor {
  std::vector<int64_t> view_dims;
  std::vector<int64_t> strides;  // elements, one per view dim
  int64_t offset = 0;            // elements
  aclDataType data_type = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> storage_dims;
  void* data = nullptr;
};

struct aclScalar {
  aclDataType data_type = ACL_DT_UNDEFINED;
  uint64_t bits[2] = {0, 0};  // the value's bytes (at most 16)
};

struct aclIntArray {
  std::vector<int64_t> values;
};
struct aclFloatArray {
  std::vector<float> values;
};
struct aclBoolArray {
  std::vector<bool> values;
};
struct aclTensorList {
  std::vector<aclTensor*> tensors;  // owned
};
struct aclScalarList {
  std::vector<aclScalar*> scalars;  // owned
};

namespace ascsim::op {

// ACL's data types and formats are ge's numbers (CANN keeps them equal).
inline ge::DataType ToGe(aclDataType t) { return static_cast<ge::DataType>(t); }
inline ge::Format ToGe(aclFormat f) {
  return f == ACL_FORMAT_UNDEFINED ? ge::FORMAT_ND : static_cast<ge::Format>(f);
}
// Elements of a view (1 for a scalar).
int64_t ElementCount(const std::vector<int64_t>& dims);
// True when the view is contiguous (strides of a row-major layout, offset 0).
bool IsContiguous(const aclTensor& t);
// "[8, 2048]".
std::string DimsText(const std::vector<int64_t>& dims);

}  // namespace ascsim::op
