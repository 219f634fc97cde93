// ACL's tensor descriptions and data buffers (acl/acl_base.h), the compile switches
// (acl/acl_op_compiler.h) and aclnnInit / aclnnFinalize: the ACL calls the AclNNInvocation programs
// make around an aclnn call. Semantics from CANN's header comments (hicann/runtime
// include/external/acl): a null description gives 0 / nullptr / ACL_DT_UNDEFINED /
// ACL_FORMAT_UNDEFINED.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "aclnn/aclnn_base.h"
#include "ascsim/acl_launch.h"
#include "ascsim/runtime.h"
#include "host/acl_state.h"
#include "opdev/op_errno.h"

struct aclDataBuffer {
  void* data = nullptr;
  size_t size = 0;
};

struct aclTensorDesc {
  aclDataType type = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> dims;
  aclFormat origin_format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> origin_dims;
  std::string name;
};

namespace {
bool ValidDims(const char* api, int numDims, const int64_t* dims) {
  if (numDims < 0 || (numDims > 0 && dims == nullptr)) {
    ascsim::acl::RecordError(std::string(api) + ": numDims " + std::to_string(numDims) +
                             (dims == nullptr ? " with dims nullptr" : " is negative"));
    return false;
  }
  return true;
}
}  // namespace

extern "C" {

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  aclDataBuffer* b = new aclDataBuffer;
  b->data = data;
  b->size = size;
  return b;
}
aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  if (dataBuffer == nullptr) {
    return ascsim::acl::RecordError("aclDestroyDataBuffer: dataBuffer is nullptr");
  }
  delete dataBuffer;
  return ACL_SUCCESS;
}
aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  if (dataBuffer == nullptr) {
    return ascsim::acl::RecordError("aclUpdateDataBuffer: dataBuffer is nullptr");
  }
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}
void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  return dataBuffer == nullptr ? nullptr : dataBuffer->data;
}
uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  return dataBuffer == nullptr ? 0 : static_cast<uint32_t>(dataBuffer->size);
}
size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  return dataBuffer == nullptr ? 0 : dataBuffer->size;
}

aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims,
                                   aclFormat format) {
  if (!ValidDims("aclCreateTensorDesc", numDims, dims)) return nullptr;
  aclTensorDesc* d = new aclTensorDesc;
  d->type = dataType;
  d->format = format;
  d->origin_format = format;
  if (numDims > 0) d->dims.assign(dims, dims + numDims);
  d->origin_dims = d->dims;
  return d;
}
void aclDestroyTensorDesc(const aclTensorDesc* desc) { delete desc; }
aclDataType aclGetTensorDescType(const aclTensorDesc* desc) {
  return desc == nullptr ? ACL_DT_UNDEFINED : desc->type;
}
aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc) {
  return desc == nullptr ? ACL_FORMAT_UNDEFINED : desc->format;
}
size_t aclGetTensorDescElementCount(const aclTensorDesc* desc) {
  if (desc == nullptr) return 0;
  size_t n = 1;
  for (int64_t d : desc->dims) {
    if (d < 0) return 0;  // an unknown dim
    n *= static_cast<size_t>(d);
  }
  return n;
}
size_t aclGetTensorDescSize(const aclTensorDesc* desc) {
  if (desc == nullptr) return 0;
  return aclGetTensorDescElementCount(desc) * aclDataTypeSize(desc->type);
}
size_t aclGetTensorDescNumDims(const aclTensorDesc* desc) {
  if (desc == nullptr) return 0;
  if (desc->dims.size() == 1 && desc->dims[0] == -2) return ACL_UNKNOWN_RANK;
  return desc->dims.size();
}
int64_t aclGetTensorDescDim(const aclTensorDesc* desc, size_t index) {
  if (desc == nullptr || index >= desc->dims.size()) return -1;
  return desc->dims[index];
}
aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) {
  if (desc == nullptr || dimSize == nullptr) {
    return ascsim::acl::RecordError("aclGetTensorDescDimV2: desc or dimSize is nullptr");
  }
  if (index >= desc->dims.size()) {
    return ascsim::acl::RecordError("aclGetTensorDescDimV2: index " + std::to_string(index) +
                                    " is past the last of " + std::to_string(desc->dims.size()) +
                                    " dims");
  }
  *dimSize = desc->dims[index];
  return ACL_SUCCESS;
}
void aclSetTensorDescName(aclTensorDesc* desc, const char* name) {
  if (desc != nullptr) desc->name = name == nullptr ? "" : name;
}
const char* aclGetTensorDescName(aclTensorDesc* desc) {
  return desc == nullptr ? "" : desc->name.c_str();
}
aclError aclSetTensorFormat(aclTensorDesc* desc, aclFormat format) {
  if (desc == nullptr) return ascsim::acl::RecordError("aclSetTensorFormat: desc is nullptr");
  desc->format = format;
  return ACL_SUCCESS;
}
aclError aclSetTensorShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
  if (desc == nullptr) return ascsim::acl::RecordError("aclSetTensorShape: desc is nullptr");
  if (!ValidDims("aclSetTensorShape", numDims, dims)) return ACL_ERROR_INVALID_PARAM;
  desc->dims.assign(dims, dims + numDims);
  return ACL_SUCCESS;
}
aclError aclSetTensorOriginFormat(aclTensorDesc* desc, aclFormat format) {
  if (desc == nullptr) return ascsim::acl::RecordError("aclSetTensorOriginFormat: desc is nullptr");
  desc->origin_format = format;
  return ACL_SUCCESS;
}
aclError aclSetTensorOriginShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
  if (desc == nullptr) return ascsim::acl::RecordError("aclSetTensorOriginShape: desc is nullptr");
  if (!ValidDims("aclSetTensorOriginShape", numDims, dims)) return ACL_ERROR_INVALID_PARAM;
  desc->origin_dims.assign(dims, dims + numDims);
  return ACL_SUCCESS;
}
aclError aclSetTensorStorageFormat(aclTensorDesc* desc, aclFormat format) {
  return aclSetTensorFormat(desc, format);
}
aclError aclSetTensorStorageShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
  return aclSetTensorShape(desc, numDims, dims);
}
aclError aclSetTensorShapeRange(aclTensorDesc* desc, size_t,
                                int64_t[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
  if (desc == nullptr) return ascsim::acl::RecordError("aclSetTensorShapeRange: desc is nullptr");
  return ACL_SUCCESS;  // shapes are always known here
}

aclError aclopSetCompileFlag(aclOpCompileFlag flag) {
  if (flag != ACL_OP_COMPILE_DEFAULT && flag != ACL_OP_COMPILE_FUZZ) {
    return ascsim::acl::RecordError("aclopSetCompileFlag: unknown flag " + std::to_string(flag));
  }
  return ACL_SUCCESS;
}
aclError aclSetCompileopt(aclCompileOpt, const char* value) {
  if (value == nullptr) return ascsim::acl::RecordError("aclSetCompileopt: value is nullptr");
  return ACL_SUCCESS;
}
aclError aclopSetModelDir(const char* modelDir) {
  if (modelDir == nullptr) return ascsim::acl::RecordError("aclopSetModelDir: modelDir is nullptr");
  return ACL_SUCCESS;
}

aclnnStatus aclnnInit(const char*) { return ACLNN_SUCCESS; }
aclnnStatus aclnnFinalize() { return ACLNN_SUCCESS; }

}  // extern "C"
