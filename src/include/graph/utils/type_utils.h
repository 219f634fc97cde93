// ge::TypeUtils (CANN metadef inc/external/graph/utils/type_utils.h): DataType and Format to and
// from their serial strings ("DT_FLOAT16", "ND"). Header-only, so the std::string forms are built
// with the caller's libstdc++ ABI.
#ifndef ASCSIM_GRAPH_UTILS_TYPE_UTILS_H_
#define ASCSIM_GRAPH_UTILS_TYPE_UTILS_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "graph/ascend_string.h"
#include "graph/types.h"

#include "ascsim/dtype_format_names.inc"

namespace ge {

class TypeUtils {
 public:
  static std::string DataTypeToSerialString(const DataType data_type) {
    return DataTypeName(data_type);
  }
  static DataType SerialStringToDataType(const std::string& str) {
    return ParseDataType(str.c_str());
  }
  static std::string FormatToSerialString(const Format format) { return FormatName(format); }
  static Format SerialStringToFormat(const std::string& str) { return ParseFormat(str.c_str()); }
  static Format DataFormatToFormat(const std::string& str) { return ParseFormat(str.c_str()); }
  // Bytes per element (sub-byte types: false, as they have none); false for unknown types.
  static bool GetDataTypeLength(const ge::DataType data_type, uint32_t& length) {
    const int size = GetSizeByDataType(data_type);
    if (size <= 0 || size > kDataTypeSizeBitOffset) return false;
    length = static_cast<uint32_t>(size);
    return true;
  }
  static AscendString DataTypeToAscendString(const DataType& data_type) {
    return AscendString(DataTypeName(data_type));
  }
  static DataType AscendStringToDataType(const AscendString& str) {
    return ParseDataType(str.GetString());
  }
  static AscendString FormatToAscendString(const Format& format) {
    return AscendString(FormatName(format));
  }
  static Format AscendStringToFormat(const AscendString& str) {
    return ParseFormat(str.GetString());
  }
  static Format DataFormatToFormat(const AscendString& str) { return ParseFormat(str.GetString()); }

 private:
  static const char_t* DataTypeName(DataType d) {
    switch (d) {
      case DT_FLOAT:
        return "DT_FLOAT";
      case DT_FLOAT16:
        return "DT_FLOAT16";
      case DT_INT8:
        return "DT_INT8";
      case DT_INT32:
        return "DT_INT32";
      case DT_UINT8:
        return "DT_UINT8";
      case DT_INT16:
        return "DT_INT16";
      case DT_UINT16:
        return "DT_UINT16";
      case DT_UINT32:
        return "DT_UINT32";
      case DT_INT64:
        return "DT_INT64";
      case DT_UINT64:
        return "DT_UINT64";
      case DT_DOUBLE:
        return "DT_DOUBLE";
      case DT_BOOL:
        return "DT_BOOL";
      case DT_STRING:
        return "DT_STRING";
      case DT_DUAL_SUB_INT8:
        return "DT_DUAL_SUB_INT8";
      case DT_DUAL_SUB_UINT8:
        return "DT_DUAL_SUB_UINT8";
      case DT_COMPLEX64:
        return "DT_COMPLEX64";
      case DT_COMPLEX128:
        return "DT_COMPLEX128";
      case DT_QINT8:
        return "DT_QINT8";
      case DT_QINT16:
        return "DT_QINT16";
      case DT_QINT32:
        return "DT_QINT32";
      case DT_QUINT8:
        return "DT_QUINT8";
      case DT_QUINT16:
        return "DT_QUINT16";
      case DT_RESOURCE:
        return "DT_RESOURCE";
      case DT_STRING_REF:
        return "DT_STRING_REF";
      case DT_DUAL:
        return "DT_DUAL";
      case DT_VARIANT:
        return "DT_VARIANT";
      case DT_BF16:
        return "DT_BF16";
      case DT_INT4:
        return "DT_INT4";
      case DT_UINT1:
        return "DT_UINT1";
      case DT_INT2:
        return "DT_INT2";
      case DT_UINT2:
        return "DT_UINT2";
      case DT_COMPLEX32:
        return "DT_COMPLEX32";
      case DT_HIFLOAT8:
        return "DT_HIFLOAT8";
      case DT_FLOAT8_E5M2:
        return "DT_FLOAT8_E5M2";
      case DT_FLOAT8_E4M3FN:
        return "DT_FLOAT8_E4M3FN";
      case DT_FLOAT8_E8M0:
        return "DT_FLOAT8_E8M0";
      case DT_FLOAT6_E3M2:
        return "DT_FLOAT6_E3M2";
      case DT_FLOAT6_E2M3:
        return "DT_FLOAT6_E2M3";
      case DT_FLOAT4_E2M1:
        return "DT_FLOAT4_E2M1";
      case DT_FLOAT4_E1M2:
        return "DT_FLOAT4_E1M2";
      case DT_HIFLOAT4:
        return "DT_HIFLOAT4";
      default:
        return "DT_UNDEFINED";
    }
  }
  static DataType ParseDataType(const char_t* s) {
    if (std::strcmp(s, "DT_FLOAT") == 0) return DT_FLOAT;
    if (std::strcmp(s, "DT_FLOAT16") == 0) return DT_FLOAT16;
    if (std::strcmp(s, "DT_INT8") == 0) return DT_INT8;
    if (std::strcmp(s, "DT_INT32") == 0) return DT_INT32;
    if (std::strcmp(s, "DT_UINT8") == 0) return DT_UINT8;
    if (std::strcmp(s, "DT_INT16") == 0) return DT_INT16;
    if (std::strcmp(s, "DT_UINT16") == 0) return DT_UINT16;
    if (std::strcmp(s, "DT_UINT32") == 0) return DT_UINT32;
    if (std::strcmp(s, "DT_INT64") == 0) return DT_INT64;
    if (std::strcmp(s, "DT_UINT64") == 0) return DT_UINT64;
    if (std::strcmp(s, "DT_DOUBLE") == 0) return DT_DOUBLE;
    if (std::strcmp(s, "DT_BOOL") == 0) return DT_BOOL;
    if (std::strcmp(s, "DT_STRING") == 0) return DT_STRING;
    if (std::strcmp(s, "DT_DUAL_SUB_INT8") == 0) return DT_DUAL_SUB_INT8;
    if (std::strcmp(s, "DT_DUAL_SUB_UINT8") == 0) return DT_DUAL_SUB_UINT8;
    if (std::strcmp(s, "DT_COMPLEX64") == 0) return DT_COMPLEX64;
    if (std::strcmp(s, "DT_COMPLEX128") == 0) return DT_COMPLEX128;
    if (std::strcmp(s, "DT_QINT8") == 0) return DT_QINT8;
    if (std::strcmp(s, "DT_QINT16") == 0) return DT_QINT16;
    if (std::strcmp(s, "DT_QINT32") == 0) return DT_QINT32;
    if (std::strcmp(s, "DT_QUINT8") == 0) return DT_QUINT8;
    if (std::strcmp(s, "DT_QUINT16") == 0) return DT_QUINT16;
    if (std::strcmp(s, "DT_RESOURCE") == 0) return DT_RESOURCE;
    if (std::strcmp(s, "DT_STRING_REF") == 0) return DT_STRING_REF;
    if (std::strcmp(s, "DT_DUAL") == 0) return DT_DUAL;
    if (std::strcmp(s, "DT_VARIANT") == 0) return DT_VARIANT;
    if (std::strcmp(s, "DT_BF16") == 0) return DT_BF16;
    if (std::strcmp(s, "DT_INT4") == 0) return DT_INT4;
    if (std::strcmp(s, "DT_UINT1") == 0) return DT_UINT1;
    if (std::strcmp(s, "DT_INT2") == 0) return DT_INT2;
    if (std::strcmp(s, "DT_UINT2") == 0) return DT_UINT2;
    if (std::strcmp(s, "DT_COMPLEX32") == 0) return DT_COMPLEX32;
    if (std::strcmp(s, "DT_HIFLOAT8") == 0) return DT_HIFLOAT8;
    if (std::strcmp(s, "DT_FLOAT8_E5M2") == 0) return DT_FLOAT8_E5M2;
    if (std::strcmp(s, "DT_FLOAT8_E4M3FN") == 0) return DT_FLOAT8_E4M3FN;
    if (std::strcmp(s, "DT_FLOAT8_E8M0") == 0) return DT_FLOAT8_E8M0;
    if (std::strcmp(s, "DT_FLOAT6_E3M2") == 0) return DT_FLOAT6_E3M2;
    if (std::strcmp(s, "DT_FLOAT6_E2M3") == 0) return DT_FLOAT6_E2M3;
    if (std::strcmp(s, "DT_FLOAT4_E2M1") == 0) return DT_FLOAT4_E2M1;
    if (std::strcmp(s, "DT_FLOAT4_E1M2") == 0) return DT_FLOAT4_E1M2;
    if (std::strcmp(s, "DT_HIFLOAT4") == 0) return DT_HIFLOAT4;
    return DT_UNDEFINED;
  }
  static const char_t* FormatName(Format f) {
    switch (f) {
      case FORMAT_NCHW:
        return "NCHW";
      case FORMAT_NHWC:
        return "NHWC";
      case FORMAT_ND:
        return "ND";
      case FORMAT_NC1HWC0:
        return "NC1HWC0";
      case FORMAT_FRACTAL_Z:
        return "FRACTAL_Z";
      case FORMAT_NC1C0HWPAD:
        return "NC1C0HWPAD";
      case FORMAT_NHWC1C0:
        return "NHWC1C0";
      case FORMAT_FSR_NCHW:
        return "FSR_NCHW";
      case FORMAT_FRACTAL_DECONV:
        return "FRACTAL_DECONV";
      case FORMAT_C1HWNC0:
        return "C1HWNC0";
      case FORMAT_FRACTAL_DECONV_TRANSPOSE:
        return "FRACTAL_DECONV_TRANSPOSE";
      case FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS:
        return "FRACTAL_DECONV_SP_STRIDE_TRANS";
      case FORMAT_NC1HWC0_C04:
        return "NC1HWC0_C04";
      case FORMAT_FRACTAL_Z_C04:
        return "FRACTAL_Z_C04";
      case FORMAT_CHWN:
        return "CHWN";
      case FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS:
        return "FRACTAL_DECONV_SP_STRIDE8_TRANS";
      case FORMAT_HWCN:
        return "HWCN";
      case FORMAT_NC1KHKWHWC0:
        return "NC1KHKWHWC0";
      case FORMAT_BN_WEIGHT:
        return "BN_WEIGHT";
      case FORMAT_FILTER_HWCK:
        return "FILTER_HWCK";
      case FORMAT_HASHTABLE_LOOKUP_LOOKUPS:
        return "HASHTABLE_LOOKUP_LOOKUPS";
      case FORMAT_HASHTABLE_LOOKUP_KEYS:
        return "HASHTABLE_LOOKUP_KEYS";
      case FORMAT_HASHTABLE_LOOKUP_VALUE:
        return "HASHTABLE_LOOKUP_VALUE";
      case FORMAT_HASHTABLE_LOOKUP_OUTPUT:
        return "HASHTABLE_LOOKUP_OUTPUT";
      case FORMAT_HASHTABLE_LOOKUP_HITS:
        return "HASHTABLE_LOOKUP_HITS";
      case FORMAT_C1HWNCoC0:
        return "C1HWNCoC0";
      case FORMAT_MD:
        return "MD";
      case FORMAT_NDHWC:
        return "NDHWC";
      case FORMAT_FRACTAL_ZZ:
        return "FRACTAL_ZZ";
      case FORMAT_FRACTAL_NZ:
        return "FRACTAL_NZ";
      case FORMAT_NCDHW:
        return "NCDHW";
      case FORMAT_DHWCN:
        return "DHWCN";
      case FORMAT_NDC1HWC0:
        return "NDC1HWC0";
      case FORMAT_FRACTAL_Z_3D:
        return "FRACTAL_Z_3D";
      case FORMAT_CN:
        return "CN";
      case FORMAT_NC:
        return "NC";
      case FORMAT_DHWNC:
        return "DHWNC";
      case FORMAT_FRACTAL_Z_3D_TRANSPOSE:
        return "FRACTAL_Z_3D_TRANSPOSE";
      case FORMAT_FRACTAL_ZN_LSTM:
        return "FRACTAL_ZN_LSTM";
      case FORMAT_FRACTAL_Z_G:
        return "FRACTAL_Z_G";
      case FORMAT_RESERVED:
        return "RESERVED";
      case FORMAT_ALL:
        return "ALL";
      case FORMAT_NULL:
        return "NULL";
      case FORMAT_ND_RNN_BIAS:
        return "ND_RNN_BIAS";
      case FORMAT_FRACTAL_ZN_RNN:
        return "FRACTAL_ZN_RNN";
      case FORMAT_NYUV:
        return "NYUV";
      case FORMAT_NYUV_A:
        return "NYUV_A";
      case FORMAT_NCL:
        return "NCL";
      default:
        return "RESERVED";
    }
  }
  static Format ParseFormat(const char_t* s) {
    if (std::strcmp(s, "NCHW") == 0) return FORMAT_NCHW;
    if (std::strcmp(s, "NHWC") == 0) return FORMAT_NHWC;
    if (std::strcmp(s, "ND") == 0) return FORMAT_ND;
    if (std::strcmp(s, "NC1HWC0") == 0) return FORMAT_NC1HWC0;
    if (std::strcmp(s, "FRACTAL_Z") == 0) return FORMAT_FRACTAL_Z;
    if (std::strcmp(s, "NC1C0HWPAD") == 0) return FORMAT_NC1C0HWPAD;
    if (std::strcmp(s, "NHWC1C0") == 0) return FORMAT_NHWC1C0;
    if (std::strcmp(s, "FSR_NCHW") == 0) return FORMAT_FSR_NCHW;
    if (std::strcmp(s, "FRACTAL_DECONV") == 0) return FORMAT_FRACTAL_DECONV;
    if (std::strcmp(s, "C1HWNC0") == 0) return FORMAT_C1HWNC0;
    if (std::strcmp(s, "FRACTAL_DECONV_TRANSPOSE") == 0) return FORMAT_FRACTAL_DECONV_TRANSPOSE;
    if (std::strcmp(s, "FRACTAL_DECONV_SP_STRIDE_TRANS") == 0)
      return FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS;
    if (std::strcmp(s, "NC1HWC0_C04") == 0) return FORMAT_NC1HWC0_C04;
    if (std::strcmp(s, "FRACTAL_Z_C04") == 0) return FORMAT_FRACTAL_Z_C04;
    if (std::strcmp(s, "CHWN") == 0) return FORMAT_CHWN;
    if (std::strcmp(s, "FRACTAL_DECONV_SP_STRIDE8_TRANS") == 0)
      return FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS;
    if (std::strcmp(s, "HWCN") == 0) return FORMAT_HWCN;
    if (std::strcmp(s, "NC1KHKWHWC0") == 0) return FORMAT_NC1KHKWHWC0;
    if (std::strcmp(s, "BN_WEIGHT") == 0) return FORMAT_BN_WEIGHT;
    if (std::strcmp(s, "FILTER_HWCK") == 0) return FORMAT_FILTER_HWCK;
    if (std::strcmp(s, "HASHTABLE_LOOKUP_LOOKUPS") == 0) return FORMAT_HASHTABLE_LOOKUP_LOOKUPS;
    if (std::strcmp(s, "HASHTABLE_LOOKUP_KEYS") == 0) return FORMAT_HASHTABLE_LOOKUP_KEYS;
    if (std::strcmp(s, "HASHTABLE_LOOKUP_VALUE") == 0) return FORMAT_HASHTABLE_LOOKUP_VALUE;
    if (std::strcmp(s, "HASHTABLE_LOOKUP_OUTPUT") == 0) return FORMAT_HASHTABLE_LOOKUP_OUTPUT;
    if (std::strcmp(s, "HASHTABLE_LOOKUP_HITS") == 0) return FORMAT_HASHTABLE_LOOKUP_HITS;
    if (std::strcmp(s, "C1HWNCoC0") == 0) return FORMAT_C1HWNCoC0;
    if (std::strcmp(s, "MD") == 0) return FORMAT_MD;
    if (std::strcmp(s, "NDHWC") == 0) return FORMAT_NDHWC;
    if (std::strcmp(s, "FRACTAL_ZZ") == 0) return FORMAT_FRACTAL_ZZ;
    if (std::strcmp(s, "FRACTAL_NZ") == 0) return FORMAT_FRACTAL_NZ;
    if (std::strcmp(s, "NCDHW") == 0) return FORMAT_NCDHW;
    if (std::strcmp(s, "DHWCN") == 0) return FORMAT_DHWCN;
    if (std::strcmp(s, "NDC1HWC0") == 0) return FORMAT_NDC1HWC0;
    if (std::strcmp(s, "FRACTAL_Z_3D") == 0) return FORMAT_FRACTAL_Z_3D;
    if (std::strcmp(s, "CN") == 0) return FORMAT_CN;
    if (std::strcmp(s, "NC") == 0) return FORMAT_NC;
    if (std::strcmp(s, "DHWNC") == 0) return FORMAT_DHWNC;
    if (std::strcmp(s, "FRACTAL_Z_3D_TRANSPOSE") == 0) return FORMAT_FRACTAL_Z_3D_TRANSPOSE;
    if (std::strcmp(s, "FRACTAL_ZN_LSTM") == 0) return FORMAT_FRACTAL_ZN_LSTM;
    if (std::strcmp(s, "FRACTAL_Z_G") == 0) return FORMAT_FRACTAL_Z_G;
    if (std::strcmp(s, "RESERVED") == 0) return FORMAT_RESERVED;
    if (std::strcmp(s, "ALL") == 0) return FORMAT_ALL;
    if (std::strcmp(s, "NULL") == 0) return FORMAT_NULL;
    if (std::strcmp(s, "ND_RNN_BIAS") == 0) return FORMAT_ND_RNN_BIAS;
    if (std::strcmp(s, "FRACTAL_ZN_RNN") == 0) return FORMAT_FRACTAL_ZN_RNN;
    if (std::strcmp(s, "NYUV") == 0) return FORMAT_NYUV;
    if (std::strcmp(s, "NYUV_A") == 0) return FORMAT_NYUV_A;
    if (std::strcmp(s, "NCL") == 0) return FORMAT_NCL;
    return FORMAT_RESERVED;
  }
};

}  // namespace ge

#define ASCSIM_DTYPE_FORMAT_RESTORE
#include "ascsim/dtype_format_names.inc"

#endif  // ASCSIM_GRAPH_UTILS_TYPE_UTILS_H_
