// ACL base types and conversions, as CANN's acl/acl_base.h declares them (names, types and numbers
// from hicann/runtime include/external/acl/acl_base.h and acl_base_rt.h). The functions have C
// linkage, as in CANN, so C programs and dlsym() find them under their plain names.
#ifndef ASCSIM_ACL_ACL_BASE_H_
#define ASCSIM_ACL_ACL_BASE_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/error_codes/rt_error_codes.h"

#ifndef ACL_FUNC_VISIBILITY
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclrtStream;
typedef void* aclrtEvent;
typedef void* aclrtContext;
typedef int aclError;
typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclTensorDesc aclTensorDesc;
// IEEE 754 binary16 bits, as ACL passes half-precision data between host and device.
typedef uint16_t aclFloat16;

static const int ACL_ERROR_NONE = 0;
static const int ACL_SUCCESS = 0;

static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_STREAM_NOT_SUBSCRIBE = 100034;
static const int ACL_ERROR_THREAD_NOT_SUBSCRIBE = 100035;
static const int ACL_ERROR_WAIT_CALLBACK_TIMEOUT = 100036;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;

static const int ACL_ERROR_OP_TYPE_NOT_MATCH = 100020;
static const int ACL_ERROR_OP_INPUT_NOT_MATCH = 100021;
static const int ACL_ERROR_OP_OUTPUT_NOT_MATCH = 100022;
static const int ACL_ERROR_OP_ATTR_NOT_MATCH = 100023;
static const int ACL_ERROR_OP_NOT_FOUND = 100024;
static const int ACL_ERROR_OP_LOAD_FAILED = 100025;
static const int ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026;
static const int ACL_ERROR_FORMAT_NOT_MATCH = 100027;
static const int ACL_ERROR_KERNEL_NOT_FOUND = 100029;

static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_API_NOT_SUPPORT = 200001;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003;
static const int ACL_ERROR_RESOURCE_NOT_MATCH = 200004;
static const int ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;

static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500001;
static const int ACL_ERROR_RT_FAILURE = 500003;

typedef enum {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT = 0,
  ACL_FLOAT16 = 1,
  ACL_INT8 = 2,
  ACL_INT32 = 3,
  ACL_UINT8 = 4,
  ACL_INT16 = 6,
  ACL_UINT16 = 7,
  ACL_UINT32 = 8,
  ACL_INT64 = 9,
  ACL_UINT64 = 10,
  ACL_DOUBLE = 11,
  ACL_BOOL = 12,
  ACL_STRING = 13,
  ACL_COMPLEX64 = 16,
  ACL_COMPLEX128 = 17,
  ACL_BF16 = 27,
  ACL_INT4 = 29,
  ACL_UINT1 = 30,
  ACL_COMPLEX32 = 33,
} aclDataType;

#define ACL_TENSOR_SHAPE_RANGE_NUM 2
#define ACL_TENSOR_VALUE_RANGE_NUM 2
#define ACL_UNKNOWN_RANK 0xFFFFFFFFFFFFFFFE

typedef enum {
  ACL_FORMAT_UNDEFINED = -1,
  ACL_FORMAT_NCHW = 0,
  ACL_FORMAT_NHWC = 1,
  ACL_FORMAT_ND = 2,
  ACL_FORMAT_NC1HWC0 = 3,
  ACL_FORMAT_FRACTAL_Z = 4,
  ACL_FORMAT_NC1HWC0_C04 = 12,
  ACL_FORMAT_HWCN = 16,
  ACL_FORMAT_NDHWC = 27,
  ACL_FORMAT_FRACTAL_NZ = 29,
  ACL_FORMAT_NCDHW = 30,
  ACL_FORMAT_NDC1HWC0 = 32,
  ACL_FRACTAL_Z_3D = 33,
  ACL_FORMAT_NC = 35,
  ACL_FORMAT_NCL = 47,
} aclFormat;

typedef enum { ACL_DEBUG = 0, ACL_INFO = 1, ACL_WARNING = 2, ACL_ERROR = 3 } aclLogLevel;

typedef enum {
  ACL_MEMTYPE_DEVICE = 0,
  ACL_MEMTYPE_HOST = 1,
  ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT = 2
} aclMemType;

// binary16 <-> float with round-to-nearest-even (the device's default conversion); NaN stays NaN,
// values beyond the half range become infinity.
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

// Bytes per element of `dataType`, as CANN reports them: 0 for ACL_STRING and ACL_DT_UNDEFINED, 1
// for the sub-byte ACL_INT4 and ACL_UINT1, 8 for ACL_COMPLEX64 and for values it does not know.
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

// ---- data buffers and tensor descriptions (the operator calls of ACL programs) ----
// An aclDataBuffer wraps memory the caller owns (aclrtMalloc'd); destroying it frees nothing.
ACL_FUNC_VISIBILITY aclDataBuffer* aclCreateDataBuffer(void* data, size_t size);
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer);
ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data,
                                                 size_t size);
ACL_FUNC_VISIBILITY void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer);
ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer);
ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer);

// A tensor's data type, shape and format. numDims 0 is a scalar; a negative numDims or a null
// `dims` with numDims > 0 gives nullptr.
ACL_FUNC_VISIBILITY aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims,
                                                       const int64_t* dims, aclFormat format);
ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc);
// Element count x element size (0 for a null desc or an unknown dim).
ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY size_t aclGetTensorDescElementCount(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY int64_t aclGetTensorDescDim(const aclTensorDesc* desc, size_t index);
ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index,
                                                   int64_t* dimSize);
ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc* desc, const char* name);
ACL_FUNC_VISIBILITY const char* aclGetTensorDescName(aclTensorDesc* desc);
ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc* desc, aclFormat format);
ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc* desc, int numDims,
                                               const int64_t* dims);
ACL_FUNC_VISIBILITY aclError aclSetTensorOriginFormat(aclTensorDesc* desc, aclFormat format);
ACL_FUNC_VISIBILITY aclError aclSetTensorOriginShape(aclTensorDesc* desc, int numDims,
                                                     const int64_t* dims);
ACL_FUNC_VISIBILITY aclError aclSetTensorStorageFormat(aclTensorDesc* desc, aclFormat format);
ACL_FUNC_VISIBILITY aclError aclSetTensorStorageShape(aclTensorDesc* desc, int numDims,
                                                      const int64_t* dims);
ACL_FUNC_VISIBILITY aclError aclSetTensorShapeRange(
    aclTensorDesc* desc, size_t dimsCount, int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]);

// The SoC the program runs on: the name it was built for (-v / SOC_VERSION through the toolkit,
// e.g. "Ascend910B2"), else the simulated profile's name ("Ascend910B1").
ACL_FUNC_VISIBILITY const char* aclrtGetSocName(void);

#ifdef __cplusplus
}
#endif

#endif  // ASCSIM_ACL_ACL_BASE_H_
