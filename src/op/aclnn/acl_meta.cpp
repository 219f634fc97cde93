// The aclnn tensor objects (aclnn/acl_meta.h) and the ACL tensor descriptions and data buffers
// (acl/acl_base.h) operator programs build their calls from. Semantics from CANN's headers: a
// null argument gives nullptr / ACLNN_ERR_PARAM_NULLPTR; a tensor list owns its tensors.
#include "aclnn/acl_meta.h"

#include <cstring>
#include <string>

#include "host/acl_state.h"
#include "op/aclnn/aclnn_objects.h"
#include "opdev/op_errno.h"

namespace ascsim::op {

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

bool IsContiguous(const aclTensor& t) {
  if (t.offset != 0) return false;
  int64_t expect = 1;
  for (size_t i = t.view_dims.size(); i-- > 0;) {
    if (t.view_dims[i] != 1 && t.strides[i] != expect) return false;
    expect *= t.view_dims[i];
  }
  return true;
}

std::string DimsText(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

namespace {

aclnnStatus Null(const char* api, const char* what) {
  acl::RecordError(std::string(api) + ": " + what + " is nullptr", ACLNN_ERR_PARAM_NULLPTR);
  return ACLNN_ERR_PARAM_NULLPTR;
}

bool FillTensor(const char* api, aclTensor& t, const int64_t* viewDims, uint64_t viewDimsNum,
                aclDataType dataType, const int64_t* stride, int64_t offset, aclFormat format,
                const int64_t* storageDims, uint64_t storageDimsNum, void* data) {
  if (viewDimsNum > 0 && viewDims == nullptr) {
    acl::RecordError(
        std::string(api) + ": viewDims is nullptr with viewDimsNum " + std::to_string(viewDimsNum),
        ACLNN_ERR_PARAM_NULLPTR);
    return false;
  }
  if (storageDimsNum > 0 && storageDims == nullptr) {
    acl::RecordError(std::string(api) + ": storageDims is nullptr with storageDimsNum " +
                         std::to_string(storageDimsNum),
                     ACLNN_ERR_PARAM_NULLPTR);
    return false;
  }
  for (uint64_t i = 0; i < viewDimsNum; ++i) {
    if (viewDims[i] < 0) {
      acl::RecordError(std::string(api) + ": viewDims[" + std::to_string(i) + "] is " +
                           std::to_string(viewDims[i]) + " (a dim is at least 0)",
                       ACLNN_ERR_PARAM_INVALID);
      return false;
    }
  }
  if (offset < 0) {
    acl::RecordError(std::string(api) + ": offset " + std::to_string(offset) + " is negative",
                     ACLNN_ERR_PARAM_INVALID);
    return false;
  }
  t.view_dims.assign(viewDims, viewDims + viewDimsNum);
  if (stride != nullptr) {
    t.strides.assign(stride, stride + viewDimsNum);
  } else {
    t.strides.assign(viewDimsNum, 1);
    for (size_t i = viewDimsNum; i-- > 1;) t.strides[i - 1] = t.strides[i] * t.view_dims[i];
  }
  t.offset = offset;
  t.data_type = dataType;
  t.format = format;
  if (storageDimsNum > 0) {
    t.storage_dims.assign(storageDims, storageDims + storageDimsNum);
  } else {
    t.storage_dims = t.view_dims;
  }
  t.data = data;
  return true;
}

}  // namespace
}  // namespace ascsim::op

using ascsim::op::FillTensor;
using ascsim::op::Null;

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
  aclTensor* t = new aclTensor;
  if (!FillTensor("aclCreateTensor", *t, viewDims, viewDimsNum, dataType, stride, offset, format,
                  storageDims, storageDimsNum, tensorData)) {
    delete t;
    return nullptr;
  }
  return t;
}

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum,
                          aclDataType dataType, const int64_t* stride, int64_t offset,
                          aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                          void* tensorDataAddr) {
  if (tensor == nullptr) return Null("aclInitTensor", "tensor");
  return FillTensor("aclInitTensor", *tensor, viewDims, viewDimsNum, dataType, stride, offset,
                    format, storageDims, storageDimsNum, tensorDataAddr)
             ? ACLNN_SUCCESS
             : ACLNN_ERR_PARAM_INVALID;
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  if (value == nullptr) {
    Null("aclCreateScalar", "value");
    return nullptr;
  }
  const size_t size = aclDataTypeSize(dataType);
  if (size == 0 || size > 16) {
    ascsim::acl::RecordError(
        "aclCreateScalar: data type " + std::to_string(dataType) + " has no scalar size",
        ACLNN_ERR_PARAM_INVALID);
    return nullptr;
  }
  aclScalar* s = new aclScalar;
  s->data_type = dataType;
  std::memcpy(s->bits, value, size);
  return s;
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Null("aclCreateIntArray", "value");
    return nullptr;
  }
  aclIntArray* a = new aclIntArray;
  if (size > 0) a->values.assign(value, value + size);
  return a;
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Null("aclCreateFloatArray", "value");
    return nullptr;
  }
  aclFloatArray* a = new aclFloatArray;
  if (size > 0) a->values.assign(value, value + size);
  return a;
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Null("aclCreateBoolArray", "value");
    return nullptr;
  }
  aclBoolArray* a = new aclBoolArray;
  if (size > 0) a->values.assign(value, value + size);
  return a;
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Null("aclCreateTensorList", "value");
    return nullptr;
  }
  aclTensorList* l = new aclTensorList;
  for (uint64_t i = 0; i < size; ++i) l->tensors.push_back(const_cast<aclTensor*>(value[i]));
  return l;
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Null("aclCreateScalarList", "value");
    return nullptr;
  }
  aclScalarList* l = new aclScalarList;
  for (uint64_t i = 0; i < size; ++i) l->scalars.push_back(const_cast<aclScalar*>(value[i]));
  return l;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  delete tensor;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  delete scalar;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  if (array != nullptr) {
    for (aclTensor* t : array->tensors) delete t;
  }
  delete array;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
  if (array != nullptr) {
    for (aclScalar* s : array->scalars) delete s;
  }
  delete array;
  return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  if (tensor == nullptr) return Null("aclGetViewShape", "tensor");
  if (viewDims == nullptr || viewDimsNum == nullptr) return Null("aclGetViewShape", "an output");
  // The caller frees the array with delete[] (as CANN's documentation says).
  *viewDimsNum = tensor->view_dims.size();
  *viewDims = new int64_t[tensor->view_dims.size() + 1];
  for (size_t i = 0; i < tensor->view_dims.size(); ++i) (*viewDims)[i] = tensor->view_dims[i];
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                               uint64_t* storageDimsNum) {
  if (tensor == nullptr) return Null("aclGetStorageShape", "tensor");
  if (storageDims == nullptr || storageDimsNum == nullptr) {
    return Null("aclGetStorageShape", "an output");
  }
  *storageDimsNum = tensor->storage_dims.size();
  *storageDims = new int64_t[tensor->storage_dims.size() + 1];
  for (size_t i = 0; i < tensor->storage_dims.size(); ++i) {
    (*storageDims)[i] = tensor->storage_dims[i];
  }
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                              uint64_t* stridesNum) {
  if (tensor == nullptr) return Null("aclGetViewStrides", "tensor");
  if (stridesValue == nullptr || stridesNum == nullptr) {
    return Null("aclGetViewStrides", "an output");
  }
  *stridesNum = tensor->strides.size();
  *stridesValue = new int64_t[tensor->strides.size() + 1];
  for (size_t i = 0; i < tensor->strides.size(); ++i) (*stridesValue)[i] = tensor->strides[i];
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  if (tensor == nullptr || offset == nullptr) return Null("aclGetViewOffset", "an argument");
  *offset = tensor->offset;
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  if (tensor == nullptr || format == nullptr) return Null("aclGetFormat", "an argument");
  *format = tensor->format;
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  if (tensor == nullptr || dataType == nullptr) return Null("aclGetDataType", "an argument");
  *dataType = tensor->data_type;
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  if (array == nullptr || size == nullptr) return Null("aclGetIntArraySize", "an argument");
  *size = array->values.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  if (array == nullptr || size == nullptr) return Null("aclGetFloatArraySize", "an argument");
  *size = array->values.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  if (array == nullptr || size == nullptr) return Null("aclGetBoolArraySize", "an argument");
  *size = array->values.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
  if (tensorList == nullptr || size == nullptr) return Null("aclGetTensorListSize", "an argument");
  *size = tensorList->tensors.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) {
  if (scalarList == nullptr || size == nullptr) return Null("aclGetScalarListSize", "an argument");
  *size = scalarList->scalars.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
  if (tensor == nullptr) return Null("aclSetRawTensorAddr", "tensor");
  tensor->data = addr;
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) {
  if (tensor == nullptr || addr == nullptr) return Null("aclGetRawTensorAddr", "an argument");
  *addr = tensor->data;
  return ACLNN_SUCCESS;
}

}  // extern "C"
