// An operator's prototype (CANN metadef inc/external/asc/register/op_def.h): inputs and outputs
// with their parameter type, data types and formats, attributes with types and defaults, the
// host functions (InferShape, InferDataType, the AI-core Tiling) and the SoCs it is built for.
//
//   class AddCustom : public OpDef {
//    public:
//     explicit AddCustom(const char* name) : OpDef(name) {
//       this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
//           .Format({ge::FORMAT_ND, ge::FORMAT_ND});
//       ...
//       this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
//       this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
//     }
//   };
//   OP_ADD(AddCustom);
//
// The i-th data type (and format) of every input and output together make the i-th supported
// combination; the build compiles one kernel binary per combination. All members are out of line
// in libascsim (libregister) and pass only ABI-neutral types.
#ifndef ASCSIM_REGISTER_OP_DEF_H_
#define ASCSIM_REGISTER_OP_DEF_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/types.h"
#include "register/op_impl_registry.h"

namespace ge {
class Operator;  // the graph-mode operator (graph/operator.h); ascsim runs no graph
}  // namespace ge

namespace ascsim {
namespace op {
class OpDefAccess;  // the operator framework's view of a definition (src/op)
}  // namespace op
}  // namespace ascsim

namespace optiling {
#define FUNC_CHECK_SUPPORTED "check_supported"
#define FUNC_OP_SELECT_FORMAT "op_select_format"
#define FUNC_GET_OP_SUPPORT_INFO "get_op_support_info"
#define FUNC_GET_SPECIFIC_INFO "get_op_specific_info"

using OP_CHECK_FUNC = ge::graphStatus (*)(const ge::Operator& op, ge::AscendString& result);
using PARAM_GENERALIZE_FUNC = ge::graphStatus (*)(const ge::Operator& op,
                                                  const ge::AscendString& generalize_config,
                                                  ge::AscendString& generalized_op_params);

class OpCheckFuncHelper {
 public:
  OpCheckFuncHelper(const ge::AscendString& check_type, const ge::AscendString& op_type,
                    OP_CHECK_FUNC func);
  OpCheckFuncHelper(const ge::AscendString& op_type, PARAM_GENERALIZE_FUNC func);
};
}  // namespace optiling

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class FormatCheckOption : uint32_t { DEFAULT = 0, STRICT = 1, MAX };
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class FollowType : uint32_t { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
enum class AttrDataType {
  ATTR_DT_BOOL = 0,
  ATTR_DT_FLOAT = 1,
  ATTR_DT_INT = 2,
  ATTR_DT_STR = 3,
  ATTR_DT_LIST_BOOL = 4,
  ATTR_DT_LIST_FLOAT = 5,
  ATTR_DT_LIST_INT = 6,
  ATTR_DT_LIST_LIST_INT = 7,
  ATTR_DT_MAX
};
enum class InitValueType : uint32_t {
  INIT_VALUE_UINT64_T = 0,
  INIT_VALUE_DEFAULT = static_cast<uint32_t>(-1),
};
enum class CommentSection : uint32_t {
  CATEGORY = 0,
  BRIEF = 1,
  CONSTRAINTS = 2,
  RESTRICTIONS = 3,
  SEE = 4,
  THIRDPARTYFWKCOMPAT = 5,
  SECTION_MAX
};
enum class ScalarType : uint32_t {
  UINT64 = 0,
  INT64 = 1,
  UINT32 = 2,
  INT32 = 3,
  UINT16 = 4,
  INT16 = 5,
  UINT8 = 6,
  INT8 = 7,
  FLOAT32 = 8,
  FLOAT16 = 9,
  INVALID_DTYPE = static_cast<uint32_t>(-1),
};
enum class HcclServerType : uint32_t { AICPU = 0, AICORE = 1, CCU = 2, MAX };

union ScalarNum {
  uint64_t value_u64;
  int64_t value_i64;
  float value_f32;
  ScalarNum() : value_u64(0) {}
  explicit ScalarNum(uint64_t value) : value_u64(value) {}
  explicit ScalarNum(int64_t value) : value_i64(value) {}
  explicit ScalarNum(float value) : value_f32(value) {}
};
using InitValueNum = ScalarNum;

struct ScalarVar {
  ScalarType scalar_type;
  ScalarNum scalar_num;
  ScalarVar() : scalar_type(ScalarType::INVALID_DTYPE) {}
  ScalarVar(ScalarType type, uint64_t num) : scalar_type(type), scalar_num(num) { ToFloat(); }
  ScalarVar(ScalarType type, int64_t num) : scalar_type(type), scalar_num(num) { ToFloat(); }
  ScalarVar(ScalarType type, int num) : scalar_type(type), scalar_num(static_cast<int64_t>(num)) {
    ToFloat();
  }
  ScalarVar(ScalarType type, unsigned int num)
      : scalar_type(type), scalar_num(static_cast<uint64_t>(num)) {
    ToFloat();
  }
  ScalarVar(ScalarType type, float num) : scalar_type(type), scalar_num(num) { ToInt(num); }
  ScalarVar(ScalarType type, double num) : scalar_type(type), scalar_num(static_cast<float>(num)) {
    ToInt(static_cast<float>(num));
  }
  bool operator==(const ScalarVar& other) const {
    return scalar_type == other.scalar_type && scalar_num.value_u64 == other.scalar_num.value_u64;
  }

 private:
  void ToFloat() {
    if (scalar_type == ScalarType::FLOAT32 || scalar_type == ScalarType::FLOAT16) {
      scalar_num = ScalarNum(static_cast<float>(scalar_num.value_i64));
    }
  }
  void ToInt(float num) {
    if (scalar_type != ScalarType::FLOAT32 && scalar_type != ScalarType::FLOAT16) {
      scalar_num = ScalarNum(static_cast<int64_t>(num));
    }
  }
};

enum class ItemFindStatus { ITEM_FIND = 0, ITEM_NOEXIST = 1 };

class OpParamDefImpl;
class OpParamDef {
 public:
  explicit OpParamDef(const char* name);
  OpParamDef(const OpParamDef& def);
  ~OpParamDef();
  OpParamDef& operator=(const OpParamDef& def);
  OpParamDef& ParamType(Option param_type);
  OpParamDef& DataType(std::vector<ge::DataType> types);
  // Any of `types`, in every combination of the other parameters.
  OpParamDef& DataTypeList(std::vector<ge::DataType> types);
  OpParamDef& Format(std::vector<ge::Format> formats);
  OpParamDef& FormatList(std::vector<ge::Format> formats);
  OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType> types);
  OpParamDef& FormatForBinQuery(std::vector<ge::Format> formats);
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats);
  OpParamDef& ValueDepend(Option value_depend);
  OpParamDef& ValueDepend(Option value_depend, DependScope scope);
  OpParamDef& IgnoreContiguous(void);
  OpParamDef& AutoContiguous();
  OpParamDef& Scalar();
  OpParamDef& ScalarList();
  OpParamDef& To(const ge::DataType type);
  OpParamDef& To(const char* name);
  OpParamDef& Version(uint32_t version);
  OpParamDef& InitValue(uint64_t value);
  OpParamDef& InitValue(const ScalarVar& value);
  OpParamDef& InitValue(const std::vector<ScalarVar>& value);
  OpParamDef& OutputShapeDependOnCompute();
  // The data type (and format) of this output follows input `paramName`.
  OpParamDef& Follow(const char* paramName);
  OpParamDef& Follow(const char* paramName, FollowType ftype);
  OpParamDef& Comment(const char* comment);

 private:
  friend class ascsim::op::OpDefAccess;
  friend class OpDef;
  std::unique_ptr<OpParamDefImpl> impl_;
};

class OpAICPUDefImpl;
class OpAICPUDef {
 public:
  OpAICPUDef();
  OpAICPUDef(const OpAICPUDef& aicpu_def);
  ~OpAICPUDef();
  OpAICPUDef& operator=(const OpAICPUDef& aicpu_def);
  OpAICPUDef& Engine(const char* value);
  OpAICPUDef& FlagPartial(bool flag);
  OpAICPUDef& ComputeCost(const char* value);
  OpAICPUDef& FlagAsync(bool flag);
  OpAICPUDef& OpKernelLib(const char* value);
  OpAICPUDef& KernelSo(const char* value);
  OpAICPUDef& FunctionName(const char* value);
  OpAICPUDef& UserDefined(bool flag);
  OpAICPUDef& ExtendCfgInfo(const char* key, const char* value);

 private:
  friend class ascsim::op::OpDefAccess;
  std::unique_ptr<OpAICPUDefImpl> impl_;
};

class OpAttrDefImpl;
class OpAttrDef {
 public:
  explicit OpAttrDef(const char* name);
  OpAttrDef(const OpAttrDef& attr_def);
  ~OpAttrDef();
  OpAttrDef& operator=(const OpAttrDef& attr_def);
  // REQUIRED or OPTIONAL (the default value then applies when the caller gives none).
  OpAttrDef& AttrType(Option attr_type);
  OpAttrDef& Bool(void);
  OpAttrDef& Bool(bool value);
  OpAttrDef& Float(void);
  OpAttrDef& Float(float value);
  OpAttrDef& Int(void);
  OpAttrDef& Int(int64_t value);
  OpAttrDef& String(void);
  OpAttrDef& String(const char* value);
  OpAttrDef& ListBool(void);
  OpAttrDef& ListBool(std::vector<bool> value);
  OpAttrDef& ListFloat(void);
  OpAttrDef& ListFloat(std::vector<float> value);
  OpAttrDef& ListInt(void);
  OpAttrDef& ListInt(std::vector<int64_t> value);
  OpAttrDef& ListListInt(void);
  OpAttrDef& ListListInt(std::vector<std::vector<int64_t>> value);
  OpAttrDef& Version(uint32_t version);
  OpAttrDef& Comment(const char* comment);
  ge::AscendString& GetName(void) const;
  bool IsRequired(void);

 private:
  friend class ascsim::op::OpDefAccess;
  friend class OpDef;
  std::unique_ptr<OpAttrDefImpl> impl_;
};

class OpAICoreConfigImpl;
class OpAICoreConfig {
 public:
  OpAICoreConfig();
  OpAICoreConfig(const char* soc);  // NOLINT: implicit, as CANN's
  OpAICoreConfig(const OpAICoreConfig& aicore_config);
  ~OpAICoreConfig();
  OpAICoreConfig& operator=(const OpAICoreConfig& aicore_config);
  // Parameters of this SoC that differ from the OpDef's (the rest are the OpDef's).
  OpParamDef& Input(const char* name);
  OpParamDef& Output(const char* name);
  OpAICoreConfig& DynamicCompileStaticFlag(bool flag);
  OpAICoreConfig& DynamicFormatFlag(bool flag);
  OpAICoreConfig& DynamicRankSupportFlag(bool flag);
  OpAICoreConfig& DynamicShapeSupportFlag(bool flag);
  OpAICoreConfig& NeedCheckSupportFlag(bool flag);
  OpAICoreConfig& PrecisionReduceFlag(bool flag);
  OpAICoreConfig& ExtendCfgInfo(const char* key, const char* value);

 private:
  friend class ascsim::op::OpDefAccess;
  std::unique_ptr<OpAICoreConfigImpl> impl_;
};

class OpAICoreDefImpl;
class OpAICoreDef {
 public:
  OpAICoreDef();
  OpAICoreDef(const OpAICoreDef& aicore_def);
  ~OpAICoreDef();
  OpAICoreDef& operator=(const OpAICoreDef& aicore_def);
  OpAICoreDef& SetTiling(gert::OpImplRegisterV2::TilingKernelFunc func);
  OpAICoreDef& SetCheckSupport(optiling::OP_CHECK_FUNC func);
  OpAICoreDef& SetOpSelectFormat(optiling::OP_CHECK_FUNC func);
  OpAICoreDef& SetOpSupportInfo(optiling::OP_CHECK_FUNC func);
  OpAICoreDef& SetOpSpecInfo(optiling::OP_CHECK_FUNC func);
  OpAICoreDef& SetParamGeneralize(optiling::PARAM_GENERALIZE_FUNC func);
  OpAICoreDef& LaunchWithZeroEleOutputTensors(bool launchFlag);
  gert::OpImplRegisterV2::TilingKernelFunc& GetTiling(void);
  optiling::OP_CHECK_FUNC& GetCheckSupport(void);
  optiling::OP_CHECK_FUNC& GetOpSelectFormat(void);
  optiling::OP_CHECK_FUNC& GetOpSupportInfo(void);
  optiling::OP_CHECK_FUNC& GetOpSpecInfo(void);
  optiling::PARAM_GENERALIZE_FUNC& GetParamGeneralize(void);
  // The SoCs (short names: "ascend910b", "ascend310p", ...) the operator is built for.
  OpAICoreDef& AddConfig(const char* soc);
  OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& aicore_config);

 private:
  friend class ascsim::op::OpDefAccess;
  std::unique_ptr<OpAICoreDefImpl> impl_;
};

class OpMC2DefImpl;
class OpMC2Def {
 public:
  OpMC2Def();
  OpMC2Def(const OpMC2Def& mc2_def);
  ~OpMC2Def();
  OpMC2Def& operator=(const OpMC2Def& mc2_def);
  OpMC2Def& HcclGroup(const char* value);
  OpMC2Def& HcclGroup(std::vector<const char*> value);
  void HcclServerType(enum HcclServerType type, const char* soc = nullptr);

 private:
  friend class ascsim::op::OpDefAccess;
  std::unique_ptr<OpMC2DefImpl> impl_;
};

class OpDefImpl;
class OpDef {
 public:
  explicit OpDef(const char* type);
  OpDef(const OpDef& op_def);
  ~OpDef();
  OpDef& operator=(const OpDef& op_def);
  OpParamDef& Input(const char* name);
  OpParamDef& Output(const char* name);
  OpAttrDef& Attr(const char* name);
  OpDef& Comment(CommentSection section, const char* comment);
  OpDef& SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc func);
  OpDef& SetInferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc func);
  OpDef& SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc func);
  gert::OpImplRegisterV2::InferShapeKernelFunc& GetInferShape(void);
  gert::OpImplRegisterV2::InferShapeRangeKernelFunc& GetInferShapeRange(void);
  gert::OpImplRegisterV2::InferDataTypeKernelFunc& GetInferDataType(void);
  OpAICoreDef& AICore(void);
  OpAICPUDef& AICPU(void);
  OpMC2Def& MC2(void);
  OpDef& FormatMatchMode(FormatCheckOption option);
  OpDef& EnableFallBack(void);

 private:
  friend class ascsim::op::OpDefAccess;
  std::unique_ptr<OpDefImpl> impl_;
};

}  // namespace ops

#endif  // ASCSIM_REGISTER_OP_DEF_H_
