// What an ops::OpDef holds (register/op_def.h keeps it behind impl_ pointers), and the operator
// framework's read access to it. The fields and their defaults follow CANN's OpParamDefImpl /
// OpAttrDefImpl / OpAICoreDefImpl (metadef pkg_inc/base/asc/opdef/op_def_impl.h): a parameter is
// REQUIRED, an attribute required and of type Bool, until the definition says otherwise.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "register/op_def.h"
#include "register/op_def_factory.h"

namespace ops {

class OpParamDefImpl {
 public:
  ge::AscendString name;
  Option param_type = Option::REQUIRED;
  std::vector<ge::DataType> types;
  bool types_set = false;
  bool types_list = false;  // DataTypeList: any of them, in every combination
  std::vector<ge::Format> formats;
  bool formats_set = false;
  bool formats_list = false;
  std::vector<ge::Format> unknown_shape_formats;
  std::vector<ge::DataType> types_for_bin;
  std::vector<ge::Format> formats_for_bin;
  Option value_depend = Option::IGNORE;
  DependScope depend_scope = DependScope::ALL;
  bool ignore_contiguous = false;
  bool auto_contiguous = false;
  bool is_scalar = false;
  bool is_scalar_list = false;
  ge::DataType scalar_type = ge::DT_UNDEFINED;
  ge::AscendString scalar_name;
  uint32_t version = 0;
  InitValueType init_value_type = InitValueType::INIT_VALUE_DEFAULT;
  InitValueNum init_value;
  std::vector<ScalarVar> init_value_list;
  bool output_shape_depend_on_compute = false;
  ge::AscendString follow_name;
  FollowType follow_type = FollowType::INVALID_TYPE;
  ge::AscendString comment;
};

// The inputs and outputs of an OpDef or of one SoC's OpAICoreConfig, in declaration order.
class OpParamList {
 public:
  OpParamDef& GetOrCreate(const char* name, bool is_output);
  std::vector<OpParamDef> inputs;
  std::vector<OpParamDef> outputs;
};

class OpAttrDefImpl {
 public:
  ge::AscendString name;
  AttrDataType data_type = AttrDataType::ATTR_DT_BOOL;
  bool required = true;
  bool value_set = false;  // a default was given (Int(3), not Int())
  bool bool_value = false;
  float float_value = 0;
  int64_t int_value = 0;
  ge::AscendString str_value;
  std::vector<bool> list_bool;
  std::vector<float> list_float;
  std::vector<int64_t> list_int;
  std::vector<std::vector<int64_t>> list_list_int;
  uint32_t version = 0;
  ge::AscendString comment;
};

class OpAICPUDefImpl {
 public:
  std::map<std::string, std::string> cfg;
};

class OpAICoreConfigImpl {
 public:
  OpParamList params;
  std::vector<std::string> cfg_keys;
  std::map<std::string, std::string> cfg_info;
  void Set(const char* key, const char* value);
};

class OpAICoreDefImpl {
 public:
  gert::OpImplRegisterV2::TilingKernelFunc tiling_func = nullptr;
  optiling::OP_CHECK_FUNC check_support = nullptr;
  optiling::OP_CHECK_FUNC select_format = nullptr;
  optiling::OP_CHECK_FUNC support_info = nullptr;
  optiling::OP_CHECK_FUNC spec_info = nullptr;
  optiling::PARAM_GENERALIZE_FUNC generalize = nullptr;
  bool zero_ele_output_launch = false;
  std::vector<std::string> soc_order;  // AddConfig order
  std::map<std::string, OpAICoreConfig> configs;
};

class OpMC2DefImpl {
 public:
  std::vector<ge::AscendString> groups;
};

class OpDefImpl {
 public:
  ge::AscendString op_type;
  OpParamList params;
  std::vector<OpAttrDef> attrs;
  gert::OpImplRegisterV2::InferShapeKernelFunc infer_shape = nullptr;
  gert::OpImplRegisterV2::InferShapeRangeKernelFunc infer_shape_range = nullptr;
  gert::OpImplRegisterV2::InferDataTypeKernelFunc infer_data_type = nullptr;
  OpAICoreDef aicore;
  OpAICPUDef aicpu;
  OpMC2Def mc2;
  FormatCheckOption format_match = FormatCheckOption::DEFAULT;
  bool fallback = false;
  std::map<uint32_t, std::vector<std::string>> comments;
};

}  // namespace ops

namespace ascsim::op {

// The framework's (friend) access to the parts of a definition.
class OpDefAccess {
 public:
  static const ops::OpDefImpl& Of(const ops::OpDef& def) { return *def.impl_; }
  static const ops::OpParamDefImpl& Of(const ops::OpParamDef& def) { return *def.impl_; }
  static const ops::OpAttrDefImpl& Of(const ops::OpAttrDef& def) { return *def.impl_; }
  static const ops::OpAICoreDefImpl& Of(const ops::OpAICoreDef& def) { return *def.impl_; }
  static const ops::OpAICoreConfigImpl& Of(const ops::OpAICoreConfig& def) { return *def.impl_; }
  static const ops::OpAICPUDefImpl& Of(const ops::OpAICPUDef& def) { return *def.impl_; }
};

}  // namespace ascsim::op
