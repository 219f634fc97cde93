// ge::DataType, ge::Format and the helpers host operator code uses (CANN metadef
// inc/external/graph/types.h and c_types.h: the same names and numbers). Header-only, C++11.
#ifndef ASCSIM_GRAPH_TYPES_H_
#define ASCSIM_GRAPH_TYPES_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "ascsim/data_type_list.h"
#include "graph/error_codes.h"

// Kernel code in the same file defines DT_* and FORMAT_* as numbers (CANN's kernel_type.h,
// ascsim/aicore/dtype_format.h); the enumerators below keep their names either way.
#include "ascsim/dtype_format_names.inc"

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

// DT_FLOAT = 0 ... DT_FLOAT4_E1M2 = 41 are the kernel's AscendC::DataType too (one list:
// ascsim/data_type_list.h); metadef adds DT_HIFLOAT4 after them.
// clang-format off
enum DataType {
  ASCSIM_DATA_TYPE_LIST(ASCSIM_DATA_TYPE_ENUMERATOR)
  DT_HIFLOAT4 = 42,
  DT_MAX = 43,
};
// clang-format on

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

#define ASCSIM_DTYPE_FORMAT_RESTORE
#include "ascsim/dtype_format_names.inc"

#endif  // ASCSIM_GRAPH_TYPES_H_
