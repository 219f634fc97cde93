// ops::OpDef and its parts (register/op_def.h): builders that fill the Impl structs of
// op_def_impl.h; OpDefFactory registers prototypes with the framework.
#include "register/op_def.h"

#include <cstring>
#include <string>
#include <utility>

#include "op/framework.h"
#include "op/register/op_def_impl.h"

namespace ops {

namespace {
ge::AscendString Str(const char* s) { return ge::AscendString(s == nullptr ? "" : s); }
}  // namespace

// ---------------------------------------------------------------- OpParamDef

OpParamDef::OpParamDef(const char* name) : impl_(new OpParamDefImpl) { impl_->name = Str(name); }
OpParamDef::OpParamDef(const OpParamDef& def) : impl_(new OpParamDefImpl(*def.impl_)) {}
OpParamDef::~OpParamDef() = default;
OpParamDef& OpParamDef::operator=(const OpParamDef& def) {
  if (this != &def) *impl_ = *def.impl_;
  return *this;
}
OpParamDef& OpParamDef::ParamType(Option param_type) {
  impl_->param_type = param_type;
  return *this;
}
OpParamDef& OpParamDef::DataType(std::vector<ge::DataType> types) {
  impl_->types = std::move(types);
  impl_->types_set = true;
  impl_->types_list = false;
  return *this;
}
OpParamDef& OpParamDef::DataTypeList(std::vector<ge::DataType> types) {
  impl_->types = std::move(types);
  impl_->types_set = true;
  impl_->types_list = true;
  return *this;
}
OpParamDef& OpParamDef::Format(std::vector<ge::Format> formats) {
  impl_->formats = std::move(formats);
  impl_->formats_set = true;
  impl_->formats_list = false;
  return *this;
}
OpParamDef& OpParamDef::FormatList(std::vector<ge::Format> formats) {
  impl_->formats = std::move(formats);
  impl_->formats_set = true;
  impl_->formats_list = true;
  return *this;
}
OpParamDef& OpParamDef::DataTypeForBinQuery(std::vector<ge::DataType> types) {
  impl_->types_for_bin = std::move(types);
  return *this;
}
OpParamDef& OpParamDef::FormatForBinQuery(std::vector<ge::Format> formats) {
  impl_->formats_for_bin = std::move(formats);
  return *this;
}
OpParamDef& OpParamDef::UnknownShapeFormat(std::vector<ge::Format> formats) {
  impl_->unknown_shape_formats = std::move(formats);
  // CANN takes the unknown-shape formats as the formats when none were given.
  if (!impl_->formats_set) {
    impl_->formats = impl_->unknown_shape_formats;
    impl_->formats_set = true;
  }
  return *this;
}
OpParamDef& OpParamDef::ValueDepend(Option value_depend) {
  impl_->value_depend = value_depend;
  return *this;
}
OpParamDef& OpParamDef::ValueDepend(Option value_depend, DependScope scope) {
  impl_->value_depend = value_depend;
  impl_->depend_scope = scope;
  return *this;
}
OpParamDef& OpParamDef::IgnoreContiguous(void) {
  impl_->ignore_contiguous = true;
  return *this;
}
OpParamDef& OpParamDef::AutoContiguous() {
  impl_->auto_contiguous = true;
  return *this;
}
OpParamDef& OpParamDef::Scalar() {
  impl_->is_scalar = true;
  return *this;
}
OpParamDef& OpParamDef::ScalarList() {
  impl_->is_scalar_list = true;
  return *this;
}
OpParamDef& OpParamDef::To(const ge::DataType type) {
  impl_->scalar_type = type;
  return *this;
}
OpParamDef& OpParamDef::To(const char* name) {
  impl_->scalar_name = Str(name);
  return *this;
}
OpParamDef& OpParamDef::Version(uint32_t version) {
  impl_->version = version;
  return *this;
}
OpParamDef& OpParamDef::InitValue(uint64_t value) {
  impl_->init_value_type = InitValueType::INIT_VALUE_UINT64_T;
  impl_->init_value = InitValueNum(value);
  return *this;
}
OpParamDef& OpParamDef::InitValue(const ScalarVar& value) {
  impl_->init_value_list.assign(1, value);
  return *this;
}
OpParamDef& OpParamDef::InitValue(const std::vector<ScalarVar>& value) {
  impl_->init_value_list = value;
  return *this;
}
OpParamDef& OpParamDef::OutputShapeDependOnCompute() {
  impl_->output_shape_depend_on_compute = true;
  return *this;
}
OpParamDef& OpParamDef::Follow(const char* paramName) { return Follow(paramName, FollowType::ALL); }
OpParamDef& OpParamDef::Follow(const char* paramName, FollowType ftype) {
  impl_->follow_name = Str(paramName);
  impl_->follow_type = ftype;
  return *this;
}
OpParamDef& OpParamDef::Comment(const char* comment) {
  impl_->comment = Str(comment);
  return *this;
}

OpParamDef& OpParamList::GetOrCreate(const char* name, bool is_output) {
  std::vector<OpParamDef>& list = is_output ? outputs : inputs;
  for (OpParamDef& p : list) {
    if (ascsim::op::OpDefAccess::Of(p).name == Str(name)) return p;
  }
  list.emplace_back(name);
  return list.back();
}

// ---------------------------------------------------------------- OpAICPUDef

OpAICPUDef::OpAICPUDef() : impl_(new OpAICPUDefImpl) {}
OpAICPUDef::OpAICPUDef(const OpAICPUDef& other) : impl_(new OpAICPUDefImpl(*other.impl_)) {}
OpAICPUDef::~OpAICPUDef() = default;
OpAICPUDef& OpAICPUDef::operator=(const OpAICPUDef& other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
#define ASCSIM_AICPU_CFG(Method, Key, Type, Conv) \
  OpAICPUDef& OpAICPUDef::Method(Type value) {    \
    impl_->cfg[Key] = Conv;                       \
    return *this;                                 \
  }
ASCSIM_AICPU_CFG(Engine, "opInfo.engine", const char*, value == nullptr ? "" : value)
ASCSIM_AICPU_CFG(FlagPartial, "opInfo.flagPartial", bool, value ? "True" : "False")
ASCSIM_AICPU_CFG(ComputeCost, "opInfo.computeCost", const char*, value == nullptr ? "" : value)
ASCSIM_AICPU_CFG(FlagAsync, "opInfo.flagAsync", bool, value ? "True" : "False")
ASCSIM_AICPU_CFG(OpKernelLib, "opInfo.opKernelLib", const char*, value == nullptr ? "" : value)
ASCSIM_AICPU_CFG(KernelSo, "opInfo.kernelSo", const char*, value == nullptr ? "" : value)
ASCSIM_AICPU_CFG(FunctionName, "opInfo.functionName", const char*, value == nullptr ? "" : value)
ASCSIM_AICPU_CFG(UserDefined, "opInfo.userDefined", bool, value ? "True" : "False")
#undef ASCSIM_AICPU_CFG
OpAICPUDef& OpAICPUDef::ExtendCfgInfo(const char* key, const char* value) {
  impl_->cfg[key == nullptr ? "" : key] = value == nullptr ? "" : value;
  return *this;
}

// ---------------------------------------------------------------- OpAttrDef

OpAttrDef::OpAttrDef(const char* name) : impl_(new OpAttrDefImpl) { impl_->name = Str(name); }
OpAttrDef::OpAttrDef(const OpAttrDef& other) : impl_(new OpAttrDefImpl(*other.impl_)) {}
OpAttrDef::~OpAttrDef() = default;
OpAttrDef& OpAttrDef::operator=(const OpAttrDef& other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
OpAttrDef& OpAttrDef::AttrType(Option attr_type) {
  impl_->required = attr_type != Option::OPTIONAL;
  return *this;
}
#define ASCSIM_ATTR_TYPE(Method, Kind)     \
  OpAttrDef& OpAttrDef::Method(void) {     \
    impl_->data_type = AttrDataType::Kind; \
    return *this;                          \
  }
ASCSIM_ATTR_TYPE(Bool, ATTR_DT_BOOL)
ASCSIM_ATTR_TYPE(Float, ATTR_DT_FLOAT)
ASCSIM_ATTR_TYPE(Int, ATTR_DT_INT)
ASCSIM_ATTR_TYPE(String, ATTR_DT_STR)
ASCSIM_ATTR_TYPE(ListBool, ATTR_DT_LIST_BOOL)
ASCSIM_ATTR_TYPE(ListFloat, ATTR_DT_LIST_FLOAT)
ASCSIM_ATTR_TYPE(ListInt, ATTR_DT_LIST_INT)
ASCSIM_ATTR_TYPE(ListListInt, ATTR_DT_LIST_LIST_INT)
#undef ASCSIM_ATTR_TYPE
OpAttrDef& OpAttrDef::Bool(bool value) {
  Bool();
  impl_->bool_value = value;
  impl_->value_set = true;
  return *this;
}
OpAttrDef& OpAttrDef::Float(float value) {
  Float();
  impl_->float_value = value;
  impl_->value_set = true;
  return *this;
}
OpAttrDef& OpAttrDef::Int(int64_t value) {
  Int();
  impl_->int_value = value;
  impl_->value_set = true;
  return *this;
}
OpAttrDef& OpAttrDef::String(const char* value) {
  String();
  impl_->str_value = Str(value);
  impl_->value_set = true;
  return *this;
}
OpAttrDef& OpAttrDef::ListBool(std::vector<bool> value) {
  ListBool();
  impl_->list_bool = std::move(value);
  impl_->value_set = true;
  return *this;
}
OpAttrDef& OpAttrDef::ListFloat(std::vector<float> value) {
  ListFloat();
  impl_->list_float = std::move(value);
  impl_->value_set = true;
  return *this;
}
OpAttrDef& OpAttrDef::ListInt(std::vector<int64_t> value) {
  ListInt();
  impl_->list_int = std::move(value);
  impl_->value_set = true;
  return *this;
}
OpAttrDef& OpAttrDef::ListListInt(std::vector<std::vector<int64_t>> value) {
  ListListInt();
  impl_->list_list_int = std::move(value);
  impl_->value_set = true;
  return *this;
}
OpAttrDef& OpAttrDef::Version(uint32_t version) {
  impl_->version = version;
  return *this;
}
OpAttrDef& OpAttrDef::Comment(const char* comment) {
  impl_->comment = Str(comment);
  return *this;
}
ge::AscendString& OpAttrDef::GetName(void) const { return impl_->name; }
bool OpAttrDef::IsRequired(void) { return impl_->required; }

// ---------------------------------------------------------------- OpAICoreConfig

void OpAICoreConfigImpl::Set(const char* key, const char* value) {
  const std::string k = key == nullptr ? "" : key;
  if (cfg_info.find(k) == cfg_info.end()) cfg_keys.push_back(k);
  cfg_info[k] = value == nullptr ? "" : value;
}

OpAICoreConfig::OpAICoreConfig() : impl_(new OpAICoreConfigImpl) {
  // CANN's defaults (OpAICoreConfigImpl::Construct): dynamic shape, no static compile.
  impl_->Set("dynamicCompileStatic.flag", "true");
  impl_->Set("dynamicFormat.flag", "true");
  impl_->Set("dynamicRankSupport.flag", "true");
  impl_->Set("dynamicShapeSupport.flag", "true");
  impl_->Set("needCheckSupport.flag", "false");
  impl_->Set("precision_reduce.flag", "true");
}
OpAICoreConfig::OpAICoreConfig(const char*) : OpAICoreConfig() {}
OpAICoreConfig::OpAICoreConfig(const OpAICoreConfig& other)
    : impl_(new OpAICoreConfigImpl(*other.impl_)) {}
OpAICoreConfig::~OpAICoreConfig() = default;
OpAICoreConfig& OpAICoreConfig::operator=(const OpAICoreConfig& other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
OpParamDef& OpAICoreConfig::Input(const char* name) {
  return impl_->params.GetOrCreate(name, false);
}
OpParamDef& OpAICoreConfig::Output(const char* name) {
  return impl_->params.GetOrCreate(name, true);
}
#define ASCSIM_CORE_FLAG(Method, Key)                 \
  OpAICoreConfig& OpAICoreConfig::Method(bool flag) { \
    impl_->Set(Key, flag ? "true" : "false");         \
    return *this;                                     \
  }
ASCSIM_CORE_FLAG(DynamicCompileStaticFlag, "dynamicCompileStatic.flag")
ASCSIM_CORE_FLAG(DynamicFormatFlag, "dynamicFormat.flag")
ASCSIM_CORE_FLAG(DynamicRankSupportFlag, "dynamicRankSupport.flag")
ASCSIM_CORE_FLAG(DynamicShapeSupportFlag, "dynamicShapeSupport.flag")
ASCSIM_CORE_FLAG(NeedCheckSupportFlag, "needCheckSupport.flag")
ASCSIM_CORE_FLAG(PrecisionReduceFlag, "precision_reduce.flag")
#undef ASCSIM_CORE_FLAG
OpAICoreConfig& OpAICoreConfig::ExtendCfgInfo(const char* key, const char* value) {
  impl_->Set(key, value);
  return *this;
}

// ---------------------------------------------------------------- OpAICoreDef

OpAICoreDef::OpAICoreDef() : impl_(new OpAICoreDefImpl) {}
OpAICoreDef::OpAICoreDef(const OpAICoreDef& other) : impl_(new OpAICoreDefImpl(*other.impl_)) {}
OpAICoreDef::~OpAICoreDef() = default;
OpAICoreDef& OpAICoreDef::operator=(const OpAICoreDef& other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
OpAICoreDef& OpAICoreDef::SetTiling(gert::OpImplRegisterV2::TilingKernelFunc func) {
  impl_->tiling_func = func;
  return *this;
}
OpAICoreDef& OpAICoreDef::SetCheckSupport(optiling::OP_CHECK_FUNC func) {
  impl_->check_support = func;
  return *this;
}
OpAICoreDef& OpAICoreDef::SetOpSelectFormat(optiling::OP_CHECK_FUNC func) {
  impl_->select_format = func;
  return *this;
}
OpAICoreDef& OpAICoreDef::SetOpSupportInfo(optiling::OP_CHECK_FUNC func) {
  impl_->support_info = func;
  return *this;
}
OpAICoreDef& OpAICoreDef::SetOpSpecInfo(optiling::OP_CHECK_FUNC func) {
  impl_->spec_info = func;
  return *this;
}
OpAICoreDef& OpAICoreDef::SetParamGeneralize(optiling::PARAM_GENERALIZE_FUNC func) {
  impl_->generalize = func;
  return *this;
}
OpAICoreDef& OpAICoreDef::LaunchWithZeroEleOutputTensors(bool launchFlag) {
  impl_->zero_ele_output_launch = launchFlag;
  return *this;
}
gert::OpImplRegisterV2::TilingKernelFunc& OpAICoreDef::GetTiling(void) {
  return impl_->tiling_func;
}
optiling::OP_CHECK_FUNC& OpAICoreDef::GetCheckSupport(void) { return impl_->check_support; }
optiling::OP_CHECK_FUNC& OpAICoreDef::GetOpSelectFormat(void) { return impl_->select_format; }
optiling::OP_CHECK_FUNC& OpAICoreDef::GetOpSupportInfo(void) { return impl_->support_info; }
optiling::OP_CHECK_FUNC& OpAICoreDef::GetOpSpecInfo(void) { return impl_->spec_info; }
optiling::PARAM_GENERALIZE_FUNC& OpAICoreDef::GetParamGeneralize(void) { return impl_->generalize; }
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc) {
  OpAICoreConfig config(soc);
  return AddConfig(soc, config);
}
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc, OpAICoreConfig& aicore_config) {
  const std::string name = soc == nullptr ? "" : soc;
  if (impl_->configs.find(name) == impl_->configs.end()) impl_->soc_order.push_back(name);
  impl_->configs[name] = aicore_config;
  return *this;
}

// ---------------------------------------------------------------- OpMC2Def

OpMC2Def::OpMC2Def() : impl_(new OpMC2DefImpl) {}
OpMC2Def::OpMC2Def(const OpMC2Def& other) : impl_(new OpMC2DefImpl(*other.impl_)) {}
OpMC2Def::~OpMC2Def() = default;
OpMC2Def& OpMC2Def::operator=(const OpMC2Def& other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
OpMC2Def& OpMC2Def::HcclGroup(const char* value) {
  impl_->groups.push_back(Str(value));
  return *this;
}
OpMC2Def& OpMC2Def::HcclGroup(std::vector<const char*> value) {
  for (const char* v : value) impl_->groups.push_back(Str(v));
  return *this;
}
void OpMC2Def::HcclServerType(enum HcclServerType, const char*) {}

// ---------------------------------------------------------------- OpDef

OpDef::OpDef(const char* type) : impl_(new OpDefImpl) { impl_->op_type = Str(type); }
OpDef::OpDef(const OpDef& other) : impl_(new OpDefImpl(*other.impl_)) {}
OpDef::~OpDef() = default;
OpDef& OpDef::operator=(const OpDef& other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
OpParamDef& OpDef::Input(const char* name) { return impl_->params.GetOrCreate(name, false); }
OpParamDef& OpDef::Output(const char* name) { return impl_->params.GetOrCreate(name, true); }
OpAttrDef& OpDef::Attr(const char* name) {
  for (OpAttrDef& a : impl_->attrs) {
    if (a.GetName() == Str(name)) return a;
  }
  impl_->attrs.emplace_back(name);
  return impl_->attrs.back();
}
OpDef& OpDef::Comment(CommentSection section, const char* comment) {
  impl_->comments[static_cast<uint32_t>(section)].push_back(comment == nullptr ? "" : comment);
  return *this;
}
OpDef& OpDef::SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc func) {
  impl_->infer_shape = func;
  return *this;
}
OpDef& OpDef::SetInferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc func) {
  impl_->infer_shape_range = func;
  return *this;
}
OpDef& OpDef::SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc func) {
  impl_->infer_data_type = func;
  return *this;
}
gert::OpImplRegisterV2::InferShapeKernelFunc& OpDef::GetInferShape(void) {
  return impl_->infer_shape;
}
gert::OpImplRegisterV2::InferShapeRangeKernelFunc& OpDef::GetInferShapeRange(void) {
  return impl_->infer_shape_range;
}
gert::OpImplRegisterV2::InferDataTypeKernelFunc& OpDef::GetInferDataType(void) {
  return impl_->infer_data_type;
}
OpAICoreDef& OpDef::AICore(void) { return impl_->aicore; }
OpAICPUDef& OpDef::AICPU(void) { return impl_->aicpu; }
OpMC2Def& OpDef::MC2(void) { return impl_->mc2; }
OpDef& OpDef::FormatMatchMode(FormatCheckOption option) {
  impl_->format_match = option;
  return *this;
}
OpDef& OpDef::EnableFallBack(void) {
  impl_->fallback = true;
  return *this;
}

// ---------------------------------------------------------------- OpDefFactory

int OpDefFactory::OpDefRegister(const char* name, OpDefCreator creator) {
  ascsim::op::OpFramework::Get().RegisterOpDef(name == nullptr ? "" : name, std::move(creator));
  return 0;
}

int OpDefFactory::OpDefRegisterV2(const char* name, OpDefFuncPtr ptr) {
  return OpDefRegister(name, OpDefCreator(ptr));
}

}  // namespace ops

namespace optiling {
OpCheckFuncHelper::OpCheckFuncHelper(const ge::AscendString&, const ge::AscendString&,
                                     OP_CHECK_FUNC) {}
OpCheckFuncHelper::OpCheckFuncHelper(const ge::AscendString&, PARAM_GENERALIZE_FUNC) {}
}  // namespace optiling
