// An operator prototype as one SoC sees it: the OpDef merged with that SoC's AddConfig, its data
// type and format lists expanded into the supported combinations, attributes with their types
// and defaults, and the host functions to call. The aclnn runtime, op_build and ascsim.load_op all
// work from this view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "op/framework.h"
#include "register/op_def.h"

namespace ascsim::op {

enum class ParamKind { kRequired, kOptional, kDynamic };

struct ResolvedParam {
  std::string name;
  ParamKind kind = ParamKind::kRequired;
  // Per combination (the same length for every parameter of the operator).
  std::vector<ge::DataType> types;
  std::vector<ge::Format> formats;
  bool value_depend = false;  // the TilingFunc reads its values (ValueDepend)
  std::string follow;         // an output whose type/format/shape follows this input
};

enum class AttrKind { kBool, kFloat, kInt, kString, kListBool, kListFloat, kListInt, kListListInt };

struct ResolvedAttr {
  std::string name;
  AttrKind kind = AttrKind::kBool;
  bool required = true;
  bool has_default = false;
  bool bool_value = false;
  float float_value = 0;
  int64_t int_value = 0;
  std::string str_value;
  std::vector<bool> list_bool;
  std::vector<float> list_float;
  std::vector<int64_t> list_int;
  std::vector<std::vector<int64_t>> list_list_int;
};

struct ResolvedOp {
  std::string op_type;
  std::string soc;  // the short SoC name of the AddConfig that applies ("ascend910b")
  std::vector<ResolvedParam> inputs;
  std::vector<ResolvedParam> outputs;
  std::vector<ResolvedAttr> attrs;
  size_t combinations = 0;
  std::vector<std::string> config_keys;  // ExtendCfgInfo and flags of the SoC's config
  std::vector<std::string> config_values;
  ImplFuncs funcs;  // the OpDef's InferShape / InferDataType / Tiling, else IMPL_OP_*'s
};

// "ascend910b" for the 910B and 910_93 families, "ascend310p" for the 310P, ... (the names
// AddConfig takes and CMakePresets' ASCEND_COMPUTE_UNIT lists).
std::string ShortSocName(const std::string& soc_name);

// The prototype of `op_type` for SoC `soc_short` (e.g. "ascend910b"). Throws InvalidArgument
// when the type is unknown, the OpDef has no AddConfig for that SoC (naming those it has), or its
// lists are inconsistent (lengths that differ, naming the parameter).
ResolvedOp ResolveOp(const std::string& op_type, const std::string& soc_short);
// The same, from a definition in hand (the OpDef object need not be registered).
ResolvedOp ResolveOp(const ops::OpDef& def, const std::string& soc_short);

// The SoCs an OpDef names in AddConfig, in order.
std::vector<std::string> ConfiguredSocs(const std::string& op_type);

// "lower_snake" of an operator type: AddCustom -> add_custom, MatMulV2 -> mat_mul_v2 (the
// kernel function and file name the build expects, as CANN's op_build derives it).
std::string SnakeCase(const std::string& op_type);

const char* AttrKindName(AttrKind kind);

}  // namespace ascsim::op
