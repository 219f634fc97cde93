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

// binary16 <-> float with round-to-nearest-even (the device's default conversion); NaN stays NaN,
// values beyond the half range become infinity.
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

// Bytes per element of `dataType`, as CANN reports them: 0 for ACL_STRING and ACL_DT_UNDEFINED, 1
// for the sub-byte ACL_INT4 and ACL_UINT1, 8 for ACL_COMPLEX64 and for values it does not know.
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

// The SoC the program runs on: the name it was built for (-v / SOC_VERSION through the toolkit,
// e.g. "Ascend910B2"), else the simulated profile's name ("Ascend910B1").
ACL_FUNC_VISIBILITY const char* aclrtGetSocName(void);

#ifdef __cplusplus
}
#endif

#endif  // ASCSIM_ACL_ACL_BASE_H_
