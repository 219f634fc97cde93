// ge::DataType, ge::Format and the helpers host operator code uses (CANN metadef
// inc/external/graph/types.h and c_types.h: the same names and numbers). Header-only, C++11.
#ifndef ASCSIM_GRAPH_TYPES_H_
#define ASCSIM_GRAPH_TYPES_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "graph/error_codes.h"

// Kernel code in the same file defines DT_* and FORMAT_* as numbers (CANN's kernel_type.h,
// ascsim/aicore/dtype_format.h); the enumerators below keep their names either way.
#pragma push_macro("DT_FLOAT")
#undef DT_FLOAT
#pragma push_macro("DT_FLOAT16")
#undef DT_FLOAT16
#pragma push_macro("DT_INT8")
#undef DT_INT8
#pragma push_macro("DT_INT32")
#undef DT_INT32
#pragma push_macro("DT_UINT8")
#undef DT_UINT8
#pragma push_macro("DT_INT16")
#undef DT_INT16
#pragma push_macro("DT_UINT16")
#undef DT_UINT16
#pragma push_macro("DT_UINT32")
#undef DT_UINT32
#pragma push_macro("DT_INT64")
#undef DT_INT64
#pragma push_macro("DT_UINT64")
#undef DT_UINT64
#pragma push_macro("DT_DOUBLE")
#undef DT_DOUBLE
#pragma push_macro("DT_BOOL")
#undef DT_BOOL
#pragma push_macro("DT_STRING")
#undef DT_STRING
#pragma push_macro("DT_DUAL_SUB_INT8")
#undef DT_DUAL_SUB_INT8
#pragma push_macro("DT_DUAL_SUB_UINT8")
#undef DT_DUAL_SUB_UINT8
#pragma push_macro("DT_COMPLEX64")
#undef DT_COMPLEX64
#pragma push_macro("DT_COMPLEX128")
#undef DT_COMPLEX128
#pragma push_macro("DT_QINT8")
#undef DT_QINT8
#pragma push_macro("DT_QINT16")
#undef DT_QINT16
#pragma push_macro("DT_QINT32")
#undef DT_QINT32
#pragma push_macro("DT_QUINT8")
#undef DT_QUINT8
#pragma push_macro("DT_QUINT16")
#undef DT_QUINT16
#pragma push_macro("DT_RESOURCE")
#undef DT_RESOURCE
#pragma push_macro("DT_STRING_REF")
#undef DT_STRING_REF
#pragma push_macro("DT_DUAL")
#undef DT_DUAL
#pragma push_macro("DT_VARIANT")
#undef DT_VARIANT
#pragma push_macro("DT_BF16")
#undef DT_BF16
#pragma push_macro("DT_UNDEFINED")
#undef DT_UNDEFINED
#pragma push_macro("DT_INT4")
#undef DT_INT4
#pragma push_macro("DT_UINT1")
#undef DT_UINT1
#pragma push_macro("DT_INT2")
#undef DT_INT2
#pragma push_macro("DT_UINT2")
#undef DT_UINT2
#pragma push_macro("DT_COMPLEX32")
#undef DT_COMPLEX32
#pragma push_macro("DT_HIFLOAT8")
#undef DT_HIFLOAT8
#pragma push_macro("DT_FLOAT8_E5M2")
#undef DT_FLOAT8_E5M2
#pragma push_macro("DT_FLOAT8_E4M3FN")
#undef DT_FLOAT8_E4M3FN
#pragma push_macro("DT_FLOAT8_E8M0")
#undef DT_FLOAT8_E8M0
#pragma push_macro("DT_FLOAT6_E3M2")
#undef DT_FLOAT6_E3M2
#pragma push_macro("DT_FLOAT6_E2M3")
#undef DT_FLOAT6_E2M3
#pragma push_macro("DT_FLOAT4_E2M1")
#undef DT_FLOAT4_E2M1
#pragma push_macro("DT_FLOAT4_E1M2")
#undef DT_FLOAT4_E1M2
#pragma push_macro("DT_HIFLOAT4")
#undef DT_HIFLOAT4
#pragma push_macro("DT_MAX")
#undef DT_MAX
#pragma push_macro("FORMAT_NCHW")
#undef FORMAT_NCHW
#pragma push_macro("FORMAT_NHWC")
#undef FORMAT_NHWC
#pragma push_macro("FORMAT_ND")
#undef FORMAT_ND
#pragma push_macro("FORMAT_NC1HWC0")
#undef FORMAT_NC1HWC0
#pragma push_macro("FORMAT_FRACTAL_Z")
#undef FORMAT_FRACTAL_Z
#pragma push_macro("FORMAT_NC1C0HWPAD")
#undef FORMAT_NC1C0HWPAD
#pragma push_macro("FORMAT_NHWC1C0")
#undef FORMAT_NHWC1C0
#pragma push_macro("FORMAT_FSR_NCHW")
#undef FORMAT_FSR_NCHW
#pragma push_macro("FORMAT_FRACTAL_DECONV")
#undef FORMAT_FRACTAL_DECONV
#pragma push_macro("FORMAT_C1HWNC0")
#undef FORMAT_C1HWNC0
#pragma push_macro("FORMAT_FRACTAL_DECONV_TRANSPOSE")
#undef FORMAT_FRACTAL_DECONV_TRANSPOSE
#pragma push_macro("FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS")
#undef FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS
#pragma push_macro("FORMAT_NC1HWC0_C04")
#undef FORMAT_NC1HWC0_C04
#pragma push_macro("FORMAT_FRACTAL_Z_C04")
#undef FORMAT_FRACTAL_Z_C04
#pragma push_macro("FORMAT_CHWN")
#undef FORMAT_CHWN
#pragma push_macro("FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS")
#undef FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS
#pragma push_macro("FORMAT_HWCN")
#undef FORMAT_HWCN
#pragma push_macro("FORMAT_NC1KHKWHWC0")
#undef FORMAT_NC1KHKWHWC0
#pragma push_macro("FORMAT_BN_WEIGHT")
#undef FORMAT_BN_WEIGHT
#pragma push_macro("FORMAT_FILTER_HWCK")
#undef FORMAT_FILTER_HWCK
#pragma push_macro("FORMAT_HASHTABLE_LOOKUP_LOOKUPS")
#undef FORMAT_HASHTABLE_LOOKUP_LOOKUPS
#pragma push_macro("FORMAT_HASHTABLE_LOOKUP_KEYS")
#undef FORMAT_HASHTABLE_LOOKUP_KEYS
#pragma push_macro("FORMAT_HASHTABLE_LOOKUP_VALUE")
#undef FORMAT_HASHTABLE_LOOKUP_VALUE
#pragma push_macro("FORMAT_HASHTABLE_LOOKUP_OUTPUT")
#undef FORMAT_HASHTABLE_LOOKUP_OUTPUT
#pragma push_macro("FORMAT_HASHTABLE_LOOKUP_HITS")
#undef FORMAT_HASHTABLE_LOOKUP_HITS
#pragma push_macro("FORMAT_C1HWNCoC0")
#undef FORMAT_C1HWNCoC0
#pragma push_macro("FORMAT_MD")
#undef FORMAT_MD
#pragma push_macro("FORMAT_NDHWC")
#undef FORMAT_NDHWC
#pragma push_macro("FORMAT_FRACTAL_ZZ")
#undef FORMAT_FRACTAL_ZZ
#pragma push_macro("FORMAT_FRACTAL_NZ")
#undef FORMAT_FRACTAL_NZ
#pragma push_macro("FORMAT_NCDHW")
#undef FORMAT_NCDHW
#pragma push_macro("FORMAT_DHWCN")
#undef FORMAT_DHWCN
#pragma push_macro("FORMAT_NDC1HWC0")
#undef FORMAT_NDC1HWC0
#pragma push_macro("FORMAT_FRACTAL_Z_3D")
#undef FORMAT_FRACTAL_Z_3D
#pragma push_macro("FORMAT_CN")
#undef FORMAT_CN
#pragma push_macro("FORMAT_NC")
#undef FORMAT_NC
#pragma push_macro("FORMAT_DHWNC")
#undef FORMAT_DHWNC
#pragma push_macro("FORMAT_FRACTAL_Z_3D_TRANSPOSE")
#undef FORMAT_FRACTAL_Z_3D_TRANSPOSE
#pragma push_macro("FORMAT_FRACTAL_ZN_LSTM")
#undef FORMAT_FRACTAL_ZN_LSTM
#pragma push_macro("FORMAT_FRACTAL_Z_G")
#undef FORMAT_FRACTAL_Z_G
#pragma push_macro("FORMAT_RESERVED")
#undef FORMAT_RESERVED
#pragma push_macro("FORMAT_ALL")
#undef FORMAT_ALL
#pragma push_macro("FORMAT_NULL")
#undef FORMAT_NULL
#pragma push_macro("FORMAT_ND_RNN_BIAS")
#undef FORMAT_ND_RNN_BIAS
#pragma push_macro("FORMAT_FRACTAL_ZN_RNN")
#undef FORMAT_FRACTAL_ZN_RNN
#pragma push_macro("FORMAT_NYUV")
#undef FORMAT_NYUV
#pragma push_macro("FORMAT_NYUV_A")
#undef FORMAT_NYUV_A
#pragma push_macro("FORMAT_NCL")
#undef FORMAT_NCL
#pragma push_macro("FORMAT_MAX")
#undef FORMAT_MAX

namespace ge {
using char_t = char;
using float32_t = float;
using float64_t = double;
using vector_bit_t = std::vector<bool>;

static const int64_t SHAPE_RANGE_LOWER_LIMIT = 0;
static const int64_t UNKNOWN_DIM = -1;
static const int64_t UNKNOWN_DIM_NUM = -2;
static const std::vector<int64_t> UNKNOWN_SHAPE = {-1};
static const std::vector<int64_t> UNKNOWN_RANK = {-2};
static const std::vector<int64_t> DUMMY_SHAPE = {-3};
// Sizes of sub-byte types are this offset + their bits (GetSizeByDataType).
static constexpr int32_t kDataTypeSizeBitOffset = 1000;
static constexpr uint32_t kBitNumOfOneByte = 8U;
static constexpr uint32_t kBitThreeBytes = 24U;

enum DataType {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_STRING = 13,
  DT_DUAL_SUB_INT8 = 14,
  DT_DUAL_SUB_UINT8 = 15,
  DT_COMPLEX64 = 16,
  DT_COMPLEX128 = 17,
  DT_QINT8 = 18,
  DT_QINT16 = 19,
  DT_QINT32 = 20,
  DT_QUINT8 = 21,
  DT_QUINT16 = 22,
  DT_RESOURCE = 23,
  DT_STRING_REF = 24,
  DT_DUAL = 25,
  DT_VARIANT = 26,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_UINT1 = 30,
  DT_INT2 = 31,
  DT_UINT2 = 32,
  DT_COMPLEX32 = 33,
  DT_HIFLOAT8 = 34,
  DT_FLOAT8_E5M2 = 35,
  DT_FLOAT8_E4M3FN = 36,
  DT_FLOAT8_E8M0 = 37,
  DT_FLOAT6_E3M2 = 38,
  DT_FLOAT6_E2M3 = 39,
  DT_FLOAT4_E2M1 = 40,
  DT_FLOAT4_E1M2 = 41,
  DT_HIFLOAT4 = 42,
  DT_MAX = 43,
};

struct StringHead {
  int64_t addr;
  int64_t len;
};

// Bytes per element; kDataTypeSizeBitOffset + bits for sub-byte types; -1 when unknown.
inline int GetSizeByDataType(DataType data_type) {
  static const int kSizes[DT_MAX] = {
      4,                           // DT_FLOAT
      2,                           // DT_FLOAT16
      1,                           // DT_INT8
      4,                           // DT_INT32
      1,                           // DT_UINT8
      -1,                          // 5: reserved
      2,                           // DT_INT16
      2,                           // DT_UINT16
      4,                           // DT_UINT32
      8,                           // DT_INT64
      8,                           // DT_UINT64
      8,                           // DT_DOUBLE
      1,                           // DT_BOOL
      -1,                          // DT_STRING
      1,                           // DT_DUAL_SUB_INT8
      1,                           // DT_DUAL_SUB_UINT8
      8,                           // DT_COMPLEX64
      16,                          // DT_COMPLEX128
      1,                           // DT_QINT8
      2,                           // DT_QINT16
      4,                           // DT_QINT32
      1,                           // DT_QUINT8
      2,                           // DT_QUINT16
      8,                           // DT_RESOURCE
      -1,                          // DT_STRING_REF
      5,                           // DT_DUAL
      8,                           // DT_VARIANT
      2,                           // DT_BF16
      -1,                          // DT_UNDEFINED
      kDataTypeSizeBitOffset + 4,  // DT_INT4
      kDataTypeSizeBitOffset + 1,  // DT_UINT1
      kDataTypeSizeBitOffset + 2,  // DT_INT2
      kDataTypeSizeBitOffset + 2,  // DT_UINT2
      4,                           // DT_COMPLEX32
      1,                           // DT_HIFLOAT8
      1,                           // DT_FLOAT8_E5M2
      1,                           // DT_FLOAT8_E4M3FN
      1,                           // DT_FLOAT8_E8M0
      kDataTypeSizeBitOffset + 6,  // DT_FLOAT6_E3M2
      kDataTypeSizeBitOffset + 6,  // DT_FLOAT6_E2M3
      kDataTypeSizeBitOffset + 4,  // DT_FLOAT4_E2M1
      kDataTypeSizeBitOffset + 4,  // DT_FLOAT4_E1M2
      kDataTypeSizeBitOffset + 4,  // DT_HIFLOAT4
  };
  if (static_cast<int>(data_type) < 0 || data_type >= DT_MAX) return -1;
  return kSizes[data_type];
}

// Bytes of `element_count` elements (sub-byte types round up to whole bytes); -1 when unknown.
inline int64_t GetSizeInBytes(int64_t element_count, DataType data_type) {
  const int size = GetSizeByDataType(data_type);
  if (element_count < 0 || size < 0) return -1;
  if (size > kDataTypeSizeBitOffset) {
    const int64_t bits = element_count * (size - kDataTypeSizeBitOffset);
    return (bits + 7) / 8;
  }
  return element_count * size;
}

enum Format {
  FORMAT_NCHW = 0,
  FORMAT_NHWC = 1,
  FORMAT_ND = 2,
  FORMAT_NC1HWC0 = 3,
  FORMAT_FRACTAL_Z = 4,
  FORMAT_NC1C0HWPAD = 5,
  FORMAT_NHWC1C0 = 6,
  FORMAT_FSR_NCHW = 7,
  FORMAT_FRACTAL_DECONV = 8,
  FORMAT_C1HWNC0 = 9,
  FORMAT_FRACTAL_DECONV_TRANSPOSE = 10,
  FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11,
  FORMAT_NC1HWC0_C04 = 12,
  FORMAT_FRACTAL_Z_C04 = 13,
  FORMAT_CHWN = 14,
  FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15,
  FORMAT_HWCN = 16,
  FORMAT_NC1KHKWHWC0 = 17,
  FORMAT_BN_WEIGHT = 18,
  FORMAT_FILTER_HWCK = 19,
  FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20,
  FORMAT_HASHTABLE_LOOKUP_KEYS = 21,
  FORMAT_HASHTABLE_LOOKUP_VALUE = 22,
  FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23,
  FORMAT_HASHTABLE_LOOKUP_HITS = 24,
  FORMAT_C1HWNCoC0 = 25,
  FORMAT_MD = 26,
  FORMAT_NDHWC = 27,
  FORMAT_FRACTAL_ZZ = 28,
  FORMAT_FRACTAL_NZ = 29,
  FORMAT_NCDHW = 30,
  FORMAT_DHWCN = 31,
  FORMAT_NDC1HWC0 = 32,
  FORMAT_FRACTAL_Z_3D = 33,
  FORMAT_CN = 34,
  FORMAT_NC = 35,
  FORMAT_DHWNC = 36,
  FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37,
  FORMAT_FRACTAL_ZN_LSTM = 38,
  FORMAT_FRACTAL_Z_G = 39,
  FORMAT_RESERVED = 40,
  FORMAT_ALL = 41,
  FORMAT_NULL = 42,
  FORMAT_ND_RNN_BIAS = 43,
  FORMAT_FRACTAL_ZN_RNN = 44,
  FORMAT_NYUV = 45,
  FORMAT_NYUV_A = 46,
  FORMAT_NCL = 47,
  FORMAT_MAX = 0xff,
};

inline int32_t GetPrimaryFormat(int32_t format) {
  return static_cast<int32_t>(static_cast<uint32_t>(format) & 0xffU);
}
inline int32_t GetSubFormat(int32_t format) {
  return static_cast<int32_t>((static_cast<uint32_t>(format) & 0xffff00U) >> kBitNumOfOneByte);
}
inline bool HasSubFormat(int32_t format) { return GetSubFormat(format) > 0; }
inline int32_t GetFormatFromSub(int32_t primary_format, int32_t sub_format) {
  return static_cast<int32_t>((static_cast<uint32_t>(primary_format) & 0xffU) |
                              ((static_cast<uint32_t>(sub_format) & 0xffffU) << kBitNumOfOneByte));
}

enum DeviceType { NPU = 0, CPU = 1 };
enum Placement { kPlacementHost = 0, kPlacementDevice = 1, kPlacementEnd };

struct TensorDescInfo {
  Format format_ = FORMAT_RESERVED;
  DataType dataType_ = DT_UNDEFINED;
};

}  // namespace ge

#pragma pop_macro("DT_FLOAT")
#pragma pop_macro("DT_FLOAT16")
#pragma pop_macro("DT_INT8")
#pragma pop_macro("DT_INT32")
#pragma pop_macro("DT_UINT8")
#pragma pop_macro("DT_INT16")
#pragma pop_macro("DT_UINT16")
#pragma pop_macro("DT_UINT32")
#pragma pop_macro("DT_INT64")
#pragma pop_macro("DT_UINT64")
#pragma pop_macro("DT_DOUBLE")
#pragma pop_macro("DT_BOOL")
#pragma pop_macro("DT_STRING")
#pragma pop_macro("DT_DUAL_SUB_INT8")
#pragma pop_macro("DT_DUAL_SUB_UINT8")
#pragma pop_macro("DT_COMPLEX64")
#pragma pop_macro("DT_COMPLEX128")
#pragma pop_macro("DT_QINT8")
#pragma pop_macro("DT_QINT16")
#pragma pop_macro("DT_QINT32")
#pragma pop_macro("DT_QUINT8")
#pragma pop_macro("DT_QUINT16")
#pragma pop_macro("DT_RESOURCE")
#pragma pop_macro("DT_STRING_REF")
#pragma pop_macro("DT_DUAL")
#pragma pop_macro("DT_VARIANT")
#pragma pop_macro("DT_BF16")
#pragma pop_macro("DT_UNDEFINED")
#pragma pop_macro("DT_INT4")
#pragma pop_macro("DT_UINT1")
#pragma pop_macro("DT_INT2")
#pragma pop_macro("DT_UINT2")
#pragma pop_macro("DT_COMPLEX32")
#pragma pop_macro("DT_HIFLOAT8")
#pragma pop_macro("DT_FLOAT8_E5M2")
#pragma pop_macro("DT_FLOAT8_E4M3FN")
#pragma pop_macro("DT_FLOAT8_E8M0")
#pragma pop_macro("DT_FLOAT6_E3M2")
#pragma pop_macro("DT_FLOAT6_E2M3")
#pragma pop_macro("DT_FLOAT4_E2M1")
#pragma pop_macro("DT_FLOAT4_E1M2")
#pragma pop_macro("DT_HIFLOAT4")
#pragma pop_macro("DT_MAX")
#pragma pop_macro("FORMAT_NCHW")
#pragma pop_macro("FORMAT_NHWC")
#pragma pop_macro("FORMAT_ND")
#pragma pop_macro("FORMAT_NC1HWC0")
#pragma pop_macro("FORMAT_FRACTAL_Z")
#pragma pop_macro("FORMAT_NC1C0HWPAD")
#pragma pop_macro("FORMAT_NHWC1C0")
#pragma pop_macro("FORMAT_FSR_NCHW")
#pragma pop_macro("FORMAT_FRACTAL_DECONV")
#pragma pop_macro("FORMAT_C1HWNC0")
#pragma pop_macro("FORMAT_FRACTAL_DECONV_TRANSPOSE")
#pragma pop_macro("FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS")
#pragma pop_macro("FORMAT_NC1HWC0_C04")
#pragma pop_macro("FORMAT_FRACTAL_Z_C04")
#pragma pop_macro("FORMAT_CHWN")
#pragma pop_macro("FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS")
#pragma pop_macro("FORMAT_HWCN")
#pragma pop_macro("FORMAT_NC1KHKWHWC0")
#pragma pop_macro("FORMAT_BN_WEIGHT")
#pragma pop_macro("FORMAT_FILTER_HWCK")
#pragma pop_macro("FORMAT_HASHTABLE_LOOKUP_LOOKUPS")
#pragma pop_macro("FORMAT_HASHTABLE_LOOKUP_KEYS")
#pragma pop_macro("FORMAT_HASHTABLE_LOOKUP_VALUE")
#pragma pop_macro("FORMAT_HASHTABLE_LOOKUP_OUTPUT")
#pragma pop_macro("FORMAT_HASHTABLE_LOOKUP_HITS")
#pragma pop_macro("FORMAT_C1HWNCoC0")
#pragma pop_macro("FORMAT_MD")
#pragma pop_macro("FORMAT_NDHWC")
#pragma pop_macro("FORMAT_FRACTAL_ZZ")
#pragma pop_macro("FORMAT_FRACTAL_NZ")
#pragma pop_macro("FORMAT_NCDHW")
#pragma pop_macro("FORMAT_DHWCN")
#pragma pop_macro("FORMAT_NDC1HWC0")
#pragma pop_macro("FORMAT_FRACTAL_Z_3D")
#pragma pop_macro("FORMAT_CN")
#pragma pop_macro("FORMAT_NC")
#pragma pop_macro("FORMAT_DHWNC")
#pragma pop_macro("FORMAT_FRACTAL_Z_3D_TRANSPOSE")
#pragma pop_macro("FORMAT_FRACTAL_ZN_LSTM")
#pragma pop_macro("FORMAT_FRACTAL_Z_G")
#pragma pop_macro("FORMAT_RESERVED")
#pragma pop_macro("FORMAT_ALL")
#pragma pop_macro("FORMAT_NULL")
#pragma pop_macro("FORMAT_ND_RNN_BIAS")
#pragma pop_macro("FORMAT_FRACTAL_ZN_RNN")
#pragma pop_macro("FORMAT_NYUV")
#pragma pop_macro("FORMAT_NYUV_A")
#pragma pop_macro("FORMAT_NCL")
#pragma pop_macro("FORMAT_MAX")

#endif  // ASCSIM_GRAPH_TYPES_H_
