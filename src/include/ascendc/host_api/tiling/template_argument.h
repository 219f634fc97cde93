// Tiling template programming (Tiling模板编程): ASCENDC_TPL_ARGS_DECL declares a kernel's template
// parameters, ASCENDC_TPL_SEL the combinations that are built, GET_TPL_TILING_KEY turns the
// parameter values chosen by the host tiling into the tiling key.
//
// Sources (asc-devkit): include/utils/tiling/template_argument.h (macros, ParamStruct, the release
// encoder), impl/utils/tiling/template_argument.cpp (EncodeTilingKey and its checks),
// tools/build/asc_op_compile_base/asc_op_compiler/template_tiling.py (how the op compiler expands
// the selections into tiling keys: get_concated_tiling_key; docs
// "Tiling模板编程", "模板参数定义", "GET_TPL_TILING_KEY", "ASCENDC_TPL_SEL_PARAM".
//
// The encoding, bit for bit as CANN's: the declared parameters are packed from bit 0 upwards in
// declaration order; a DTYPE / FORMAT (8 bits), BOOL (1 bit) or KERNEL_TYPE (8 bits) parameter
// stores its value, a UINT parameter (its declared bit width) stores the index of its value in the
// declared value list (UI_LIST values as written; UI_RANGE {n, lo1, hi1, ...} expanded range by
// range; UI_MIX ranges then list).
//
// Two modes, as in CANN: with ASCENDC_TPL_KERNEL (the device compile) the declarations expand to
// nothing and TypeFromId<DT_...>::type maps a DATATYPE id to its C++ type; otherwise (host tiling
// code, and CPU-debug builds, where the kernel and its UT share one compile) they define
// g_tilingDeclareParams and g_tilingSelectParams.
//
// ascsim keeps the selection in every host build (CANN's release header drops it), so that
// GET_TPL_TILING_KEY checks the values against ASCENDC_TPL_SEL as the documented EncodeTilingKey
// does, and so that ascsim::tpl::EnumerateTilingKeys can list every tiling key the op compiler
// would build, with the template arguments of each (what a CPU-mode build instantiates).
#ifndef TEMPLATE_ARGUMENT_H
#define TEMPLATE_ARGUMENT_H

#include <cstdint>
#include <cstddef>

// Kernel types of ASCENDC_TPL_KERNEL_TYPE_SEL.
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11
#define ASCENDC_TPL_MAX 12
// Bit widths.
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
// Parameter kinds.
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
constexpr uint32_t ASCENDC_TPL_KERNEL_TYPE = 4;
constexpr uint32_t ASCENDC_TPL_DETERMINISTIC = 5;
constexpr uint32_t ASCENDC_TPL_SHARED_KERNEL_TYPE = 6;
// A DATATYPE / FORMAT declared as "the dtype of input / output x".
#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))
// UINT value-list forms.
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
constexpr uint8_t MAX_BITS_NUM = 64;
constexpr size_t VAL_PAIR = 2;
constexpr size_t VAL_START = 2;
constexpr uint64_t INVALID_TILING_KEY = 0XFFFFFFFFFFFFFFFF;

// The native data types and formats of ASCENDC_TPL_DATATYPE_* / ASCENDC_TPL_FORMAT_* (C_DT_FLOAT16,
// C_FORMAT_ND, ...): ge's C enums, which production tiling-key headers include themselves.
#include "graph/c_types.h"

#if defined(ASCENDC_TPL_KERNEL)
// ---- device compile: declarations vanish; DATATYPE ids map to types ----
#include "kernel_operator.h"

template <int dataTypeId>
struct TypeFromId {
  using type = void;
};
#define ASCENDC_TPL_TYPE_TRANS_DEFINE(id, r_type) \
  template <>                                     \
  struct TypeFromId<id> {                         \
    using type = r_type;                          \
  }
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_FLOAT, float);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_FLOAT16, half);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_INT8, int8_t);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_INT32, int32_t);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_UINT8, uint8_t);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_INT16, int16_t);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_UINT16, uint16_t);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_INT64, int64_t);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_UINT32, uint32_t);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_UINT64, uint64_t);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_DOUBLE, double);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_BOOL, bool);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_BF16, bfloat16_t);
ASCENDC_TPL_TYPE_TRANS_DEFINE(DT_INT4, AscendC::int4b_t);

#define ASCENDC_TPL_DTYPE_DECL(...)
#define ASCENDC_TPL_DATATYPE_DECL(...)
#define ASCENDC_TPL_FORMAT_DECL(...)
#define ASCENDC_TPL_UINT_DECL(...)
#define ASCENDC_TPL_BOOL_DECL(...)
#define ASCENDC_TPL_KERNEL_TYPE_DECL(...)
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_TILING_STRUCT_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_ARGS_DECL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_SEL(...)

#else
// ---- host (and CPU-debug) compile ----
#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace ascsim::tpl {
const char* const kTypeNames[] = {"DTYPE", "FORMAT", "UINT", "BOOL", "KERNEL_TYPE", "DETERMINISTIC",
                                  "SHARED_KERNEL_TYPE"};
inline const char* TypeName(uint32_t t) { return t < 7 ? kTypeNames[t] : "?"; }
}  // namespace ascsim::tpl

// One ASCENDC_TPL_*_DECL or _SEL. A UINT's value list is expanded at construction (CANN's release
// header does the same); a malformed list leaves `error` set, reported by every use.
struct ParamStruct {
  const char* name;
  uint32_t paramType;
  uint8_t bitWidth;
  std::vector<uint64_t> vals;
  const char* macroType;
  std::string error;
  ParamStruct(const char* inName, uint32_t inParamType, uint8_t inBitWidth,
              std::vector<uint64_t> inVals, const char* inMacroType)
      : name(inName), paramType(inParamType), bitWidth(inBitWidth), vals(std::move(inVals)),
        macroType(inMacroType) {
    if (paramType == ASCENDC_TPL_UINT) ParseTplUintValue();
    if (error.empty()) CheckValues();
  }

  void ParseTplUintValue() {
    if (vals.size() < 2) {
      error = "needs a value-list form and at least one value";
      return;
    }
    const uint64_t flag = vals[0];
    if (flag == ASCENDC_TPL_UI_LIST) {
      vals.erase(vals.begin());
      return;
    }
    if (flag != ASCENDC_TPL_UI_RANGE && flag != ASCENDC_TPL_UI_MIX) {
      error = "value-list form " + std::to_string(flag) +
              " is not ASCENDC_TPL_UI_RANGE, ASCENDC_TPL_UI_LIST or ASCENDC_TPL_UI_MIX";
      return;
    }
    const uint64_t ranges = vals[1];
    if (ranges * VAL_PAIR > vals.size() - VAL_START) {
      error = "declares " + std::to_string(ranges) + " ranges but gives " +
              std::to_string((vals.size() - VAL_START) / VAL_PAIR);
      return;
    }
    std::vector<uint64_t> out;
    for (uint64_t i = 1; i <= ranges; ++i) {
      const uint64_t lo = vals[VAL_PAIR * i], hi = vals[VAL_PAIR * i + 1];
      if (hi < lo || hi - lo > (1u << 20)) {
        error = "range [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is empty or huge";
        return;
      }
      for (uint64_t v = lo; v <= hi; ++v) out.push_back(v);
    }
    if (flag == ASCENDC_TPL_UI_MIX) {
      out.insert(out.end(), vals.begin() + VAL_START + ranges * VAL_PAIR, vals.end());
    }
    vals = std::move(out);
  }

  void CheckValues() {
    if (vals.empty()) {
      error = "has no values";
      return;
    }
    std::vector<uint64_t> sorted = vals;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      error = "lists a value twice";
      return;
    }
    if (paramType == ASCENDC_TPL_BOOL && sorted.back() > 1) {
      error = "has a value other than 0 and 1";
    }
  }

  // "ASCENDC_TPL_UINT_DECL tileNum"
  std::string Describe() const {
    return std::string("ASCENDC_TPL_") + ascsim::tpl::TypeName(paramType) + "_" + macroType + " " +
           name;
  }
};
using TilingDeclareParams = std::vector<ParamStruct>;
using TilingSelectParams = std::vector<std::vector<ParamStruct>>;

#define ASCENDC_TPL_DTYPE_DECL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL" }
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL" }
#define ASCENDC_TPL_FORMAT_DECL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL" }
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) \
  ParamStruct { #x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__}, "DECL" }
#define ASCENDC_TPL_BOOL_DECL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "DECL" }
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL" }
#define ASCENDC_TPL_ARGS_DECL(x, ...) static TilingDeclareParams g_tilingDeclareParams{__VA_ARGS__}

#define ASCENDC_TPL_DTYPE_SEL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL" }
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL" }
#define ASCENDC_TPL_FORMAT_SEL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL" }
#define ASCENDC_TPL_UINT_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_UINT, 0, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_BOOL_SEL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "SEL" }
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...) \
  ParamStruct { "kernel_type", ASCENDC_TPL_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL" }
#define ASCENDC_TPL_DETERMINISTIC_SEL(...) \
  ParamStruct { "deterministic", ASCENDC_TPL_DETERMINISTIC, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "SEL" }
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL" }
#define ASCENDC_TPL_ARGS_SEL(...) \
  { __VA_ARGS__ }
#define ASCENDC_TPL_SEL(...) static TilingSelectParams g_tilingSelectParams{__VA_ARGS__}

namespace ascsim::tpl {

// One tiling key the op compiler builds: the key, the template arguments in declaration order
// (DTYPE / FORMAT / BOOL / KERNEL_TYPE values, UINT values, not indexes) and the kernel type its
// ASCENDC_TPL_KERNEL_TYPE_SEL names (-1 when none does).
struct TilingKeyCombo {
  uint64_t tilingKey;
  std::vector<uint64_t> args;
  int kernelType;
};

inline bool IsEncoded(const ParamStruct& p) {
  return p.paramType != ASCENDC_TPL_KERNEL_TYPE && p.paramType != ASCENDC_TPL_DETERMINISTIC;
}

// Empty when the declarations and selections are well formed (EncodeTilingKey's checks), else the
// reason in one line.
inline std::string CheckParams(const TilingDeclareParams& decl, const TilingSelectParams& sel) {
  if (decl.empty()) return "ASCENDC_TPL_ARGS_DECL declares no parameter";
  unsigned bits = 0;
  for (const ParamStruct& d : decl) {
    if (!d.error.empty()) return d.Describe() + " " + d.error;
    if (d.bitWidth == 0 || d.bitWidth > 64) {
      return d.Describe() + " has bit width " + std::to_string(d.bitWidth);
    }
    const uint64_t room = d.bitWidth >= 64 ? ~0ull : (1ull << d.bitWidth);
    if (d.paramType == ASCENDC_TPL_UINT) {
      if (d.vals.size() > room) {
        return d.Describe() + " has " + std::to_string(d.vals.size()) + " values, more than its " +
               std::to_string(d.bitWidth) + " bits can index";
      }
    } else {
      for (uint64_t v : d.vals) {
        if (v >= ASCENDC_TPL_INPUT_BIAS) continue;  // "the dtype of input x": resolved by the op
        if (v >= room) {
          return d.Describe() + " value " + std::to_string(v) + " does not fit its " +
                 std::to_string(d.bitWidth) + " bits";
        }
      }
    }
    for (const ParamStruct& o : decl) {
      if (&o != &d && std::string(o.name) == d.name) return d.Describe() + " is declared twice";
    }
    bits += d.bitWidth;
  }
  if (bits > MAX_BITS_NUM) {
    return "ASCENDC_TPL_ARGS_DECL needs " + std::to_string(bits) + " bits, more than the 64 of a "
           "tiling key";
  }
  for (size_t g = 0; g < sel.size(); ++g) {
    size_t encoded = 0;
    for (const ParamStruct& s : sel[g]) {
      if (!IsEncoded(s)) continue;
      if (!s.error.empty()) return s.Describe() + " " + s.error;
      const ParamStruct* d = nullptr;
      for (const ParamStruct& x : decl) {
        if (std::string(x.name) == s.name) d = &x;
      }
      if (d == nullptr) {
        return s.Describe() + " (ASCENDC_TPL_ARGS_SEL " + std::to_string(g) +
               ") names no parameter of ASCENDC_TPL_ARGS_DECL";
      }
      if (d->paramType != s.paramType) {
        return s.Describe() + " selects an ASCENDC_TPL_" + TypeName(d->paramType) + " parameter";
      }
      for (uint64_t v : s.vals) {
        if (std::find(d->vals.begin(), d->vals.end(), v) == d->vals.end()) {
          return s.Describe() + " value " + std::to_string(v) + " is not in its ASCENDC_TPL_" +
                 TypeName(d->paramType) + "_DECL";
        }
      }
      ++encoded;
    }
    if (encoded != decl.size()) {
      return "ASCENDC_TPL_ARGS_SEL " + std::to_string(g) + " selects " + std::to_string(encoded) +
             " of the " + std::to_string(decl.size()) + " declared parameters (each once)";
    }
  }
  return {};
}

// The bits of `value` for declared parameter `d`, or INVALID_TILING_KEY when a UINT value is not
// declared.
inline uint64_t EncodeParam(const ParamStruct& d, uint64_t value) {
  if (d.paramType != ASCENDC_TPL_UINT) return value;
  auto it = std::find(d.vals.begin(), d.vals.end(), value);
  return it == d.vals.end() ? INVALID_TILING_KEY : static_cast<uint64_t>(it - d.vals.begin());
}

inline uint64_t Pack(const TilingDeclareParams& decl, const std::vector<uint64_t>& args) {
  uint64_t key = 0;
  unsigned shift = 0;
  for (size_t i = 0; i < decl.size(); ++i) {
    key |= EncodeParam(decl[i], args[i]) << shift;
    shift += decl[i].bitWidth;
  }
  return key;
}

// Every tiling key of the selections, in the op compiler's order (each ASCENDC_TPL_ARGS_SEL in
// turn, the first declared parameter varying slowest), each key once.
inline std::vector<TilingKeyCombo> EnumerateTilingKeys(const TilingDeclareParams& decl,
                                                       const TilingSelectParams& sel,
                                                       std::string* error = nullptr) {
  std::vector<TilingKeyCombo> out;
  const std::string why = CheckParams(decl, sel);
  if (!why.empty()) {
    if (error) *error = why;
    return out;
  }
  for (const auto& group : sel) {
    std::vector<const std::vector<uint64_t>*> choices(decl.size());
    int kernel_type = -1;
    for (const ParamStruct& s : group) {
      if (s.paramType == ASCENDC_TPL_KERNEL_TYPE && !s.vals.empty()) {
        kernel_type = static_cast<int>(s.vals[0]);
      }
      if (!IsEncoded(s)) continue;
      for (size_t i = 0; i < decl.size(); ++i) {
        if (std::string(decl[i].name) == s.name) choices[i] = &s.vals;
      }
    }
    std::vector<size_t> at(decl.size(), 0);
    std::vector<uint64_t> args(decl.size());
    for (;;) {
      for (size_t i = 0; i < decl.size(); ++i) {
        args[i] = (*choices[i])[at[i]];
        // A KERNEL_TYPE parameter states the kernel type of its own combinations.
        if (decl[i].paramType == ASCENDC_TPL_SHARED_KERNEL_TYPE) {
          kernel_type = static_cast<int>(args[i]);
        }
      }
      const uint64_t key = Pack(decl, args);
      auto same = std::find_if(out.begin(), out.end(),
                               [&](const TilingKeyCombo& c) { return c.tilingKey == key; });
      if (same == out.end()) {
        out.push_back({key, args, kernel_type});
      } else {
        *same = {key, args, kernel_type};  // a later selection of the same key wins, as in CANN
      }
      size_t i = decl.size();
      while (i > 0) {
        --i;
        if (++at[i] < choices[i]->size()) break;
        at[i] = 0;
        if (i == 0) goto next_group;
      }
    }
  next_group:;
  }
  return out;
}

// The template arguments a tiling key stands for (declaration order), or false when no selection
// builds it.
inline bool DecodeTilingKey(const TilingDeclareParams& decl, const TilingSelectParams& sel,
                            uint64_t key, std::vector<uint64_t>* args) {
  for (const TilingKeyCombo& c : EnumerateTilingKeys(decl, sel)) {
    if (c.tilingKey == key) {
      *args = c.args;
      return true;
    }
  }
  return false;
}

inline std::string JoinValues(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace ascsim::tpl

namespace AscendC {
// GET_TPL_TILING_KEY's encoder (impl/utils/tiling/template_argument.cpp): the declarations and
// selections must be well formed, one value per declared parameter, and some ASCENDC_TPL_ARGS_SEL
// must select every value; otherwise it prints why ("[ERROR] ...") and returns INVALID_TILING_KEY.
inline uint64_t EncodeTilingKey(TilingDeclareParams declareParams,
                                TilingSelectParams selectParamsVec,
                                std::vector<uint64_t> tilingParams) {
  using namespace ascsim::tpl;
  std::string why = CheckParams(declareParams, selectParamsVec);
  if (why.empty() && selectParamsVec.empty()) why = "ASCENDC_TPL_SEL selects nothing";
  if (why.empty() && tilingParams.size() != declareParams.size()) {
    why = "GET_TPL_TILING_KEY has " + std::to_string(tilingParams.size()) +
          " arguments, ASCENDC_TPL_ARGS_DECL declares " + std::to_string(declareParams.size());
  }
  if (why.empty()) {
    bool selected = false;
    for (const auto& group : selectParamsVec) {
      bool all = true;
      for (const ParamStruct& s : group) {
        if (!IsEncoded(s)) continue;
        for (size_t i = 0; i < declareParams.size(); ++i) {
          if (std::string(declareParams[i].name) == s.name &&
              std::find(s.vals.begin(), s.vals.end(), tilingParams[i]) == s.vals.end()) {
            all = false;
          }
        }
      }
      selected = selected || all;
    }
    if (!selected) {
      why = "GET_TPL_TILING_KEY args " + JoinValues(tilingParams) +
            " are not selected by any ASCENDC_TPL_ARGS_SEL";
    }
  }
  if (!why.empty()) {
    std::fprintf(stderr, "[ERROR] %s\n", why.c_str());
    return INVALID_TILING_KEY;
  }
  return Pack(declareParams, tilingParams);
}
}  // namespace AscendC

namespace AscendC {
// The encoder of CANN's release header: packs `args` by the declarations only (no check against
// ASCENDC_TPL_SEL); a UINT value that is not declared, or more than 64 bits, gives
// INVALID_TILING_KEY with a message.
inline uint64_t FastEncodeTilingKeyDirect(const TilingDeclareParams& declareParams,
                                          std::initializer_list<uint64_t> args) {
  uint64_t key = 0;
  unsigned bits = 0;
  const size_t n = std::min(declareParams.size(), args.size());
  auto arg = args.begin();
  for (size_t i = 0; i < n; ++i, ++arg) {
    const uint64_t v = ascsim::tpl::EncodeParam(declareParams[i], *arg);
    if (v == INVALID_TILING_KEY) {
      std::fprintf(stderr, "[ERROR] %s value %llu is not declared\n",
                   declareParams[i].Describe().c_str(), static_cast<unsigned long long>(*arg));
      return INVALID_TILING_KEY;
    }
    if (bits < 64) key |= v << bits;
    bits += declareParams[i].bitWidth;
  }
  if (bits > MAX_BITS_NUM) {
    std::fprintf(stderr, "[ERROR] the tiling key needs %u bits, more than 64\n", bits);
    return INVALID_TILING_KEY;
  }
  return key;
}
}  // namespace AscendC

#define GET_TPL_TILING_KEY(...) \
  AscendC::EncodeTilingKey(g_tilingDeclareParams, g_tilingSelectParams, {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)         \
  do {                                              \
    uint64_t key = GET_TPL_TILING_KEY(__VA_ARGS__); \
    context->SetTilingKey(key);                     \
  } while (0)

// Every tiling key of this file's ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL (ascsim).
#define ASCSIM_TPL_TILING_KEYS() \
  ascsim::tpl::EnumerateTilingKeys(g_tilingDeclareParams, g_tilingSelectParams)

#endif  // ASCENDC_TPL_KERNEL
#endif  // TEMPLATE_ARGUMENT_H
