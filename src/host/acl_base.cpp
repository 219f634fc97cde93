// acl_base.h: half-precision conversions and data type sizes.
#include "acl/acl_base.h"

#include "ascsim/half.h"

float aclFloat16ToFloat(aclFloat16 value) { return ascsim::HalfBitsToFloat(value); }

aclFloat16 aclFloatToFloat16(float value) { return ascsim::FloatToHalfBits(value); }

// The sizes CANN reports (hicann/runtime src/acl/aclrt_impl/data_buffer.cpp).
size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
    case ACL_STRING:
    case ACL_DT_UNDEFINED:
      return 0;
    case ACL_UINT1:
    case ACL_INT4:
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
      return 1;
    case ACL_FLOAT16:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_BF16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_COMPLEX128:
      return 16;
    default:  // ACL_INT64, ACL_UINT64, ACL_DOUBLE, ACL_COMPLEX64 and values CANN does not know
      return 8;
  }
}
