// The data types ge::DataType (graph/types.h; CANN metadef inc/external/graph/types.h) and the
// kernel's AscendC::DataType (ascsim/aicore/dtype_format.h; asc-devkit
// include/basic_api/kernel_type.h) share: the same names with the same numbers, 0 to 41 (5 is
// unused). Each enum adds its own end after them, as CANN's differ there: ge::DataType has
// DT_HIFLOAT4 = 42 and DT_MAX = 43, AscendC::DataType has DT_MAX = 42. matmul_tiling::DataType
// (tiling/tiling_api.h) numbers its types differently and is written out there.
//
// ASCSIM_DATA_TYPE_LIST(X) calls X(name, value) once per type, in order. Header-only, C++11.
#ifndef ASCSIM_DATA_TYPE_LIST_H_
#define ASCSIM_DATA_TYPE_LIST_H_

#define ASCSIM_DATA_TYPE_LIST(X) \
  X(DT_FLOAT, 0)                 \
  X(DT_FLOAT16, 1)               \
  X(DT_INT8, 2)                  \
  X(DT_INT32, 3)                 \
  X(DT_UINT8, 4)                 \
  X(DT_INT16, 6)                 \
  X(DT_UINT16, 7)                \
  X(DT_UINT32, 8)                \
  X(DT_INT64, 9)                 \
  X(DT_UINT64, 10)               \
  X(DT_DOUBLE, 11)               \
  X(DT_BOOL, 12)                 \
  X(DT_STRING, 13)               \
  X(DT_DUAL_SUB_INT8, 14)        \
  X(DT_DUAL_SUB_UINT8, 15)       \
  X(DT_COMPLEX64, 16)            \
  X(DT_COMPLEX128, 17)           \
  X(DT_QINT8, 18)                \
  X(DT_QINT16, 19)               \
  X(DT_QINT32, 20)               \
  X(DT_QUINT8, 21)               \
  X(DT_QUINT16, 22)              \
  X(DT_RESOURCE, 23)             \
  X(DT_STRING_REF, 24)           \
  X(DT_DUAL, 25)                 \
  X(DT_VARIANT, 26)              \
  X(DT_BF16, 27)                 \
  X(DT_UNDEFINED, 28)            \
  X(DT_INT4, 29)                 \
  X(DT_UINT1, 30)                \
  X(DT_INT2, 31)                 \
  X(DT_UINT2, 32)                \
  X(DT_COMPLEX32, 33)            \
  X(DT_HIFLOAT8, 34)             \
  X(DT_FLOAT8_E5M2, 35)          \
  X(DT_FLOAT8_E4M3FN, 36)        \
  X(DT_FLOAT8_E8M0, 37)          \
  X(DT_FLOAT6_E3M2, 38)          \
  X(DT_FLOAT6_E2M3, 39)          \
  X(DT_FLOAT4_E2M1, 40)          \
  X(DT_FLOAT4_E1M2, 41)

// X for an enumerator list: `DT_FLOAT = 0,`.
#define ASCSIM_DATA_TYPE_ENUMERATOR(name, value) name = value,

#endif  // ASCSIM_DATA_TYPE_LIST_H_
