// gert::OpImplRegisterV2 (register/op_impl_registry.h): collects an operator's host functions
// and hands them to the framework when the registering object is copied or moved into its static
// variable, as CANN registers them.
#include "register/op_impl_registry.h"

#include <string>
#include <utility>
#include <vector>

#include "op/framework.h"

namespace gert {

class OpImplRegisterV2Impl {
 public:
  std::string op_type;
  ascsim::op::ImplFuncs funcs;
  bool tiling_size_set = false;
};

OpImplRegisterV2::OpImplRegisterV2(const ge::char_t* op_type) : impl_(new OpImplRegisterV2Impl) {
  impl_->op_type = op_type == nullptr ? "" : op_type;
}

OpImplRegisterV2::OpImplRegisterV2(OpImplRegisterV2&& register_data) noexcept
    : impl_(std::move(register_data.impl_)) {
  if (impl_) {
    ascsim::op::OpFramework::Get().RegisterImpl(impl_->op_type, impl_->funcs,
                                                impl_->tiling_size_set);
  }
}

OpImplRegisterV2::OpImplRegisterV2(const OpImplRegisterV2& register_data)
    : impl_(new OpImplRegisterV2Impl(*register_data.impl_)) {
  ascsim::op::OpFramework::Get().RegisterImpl(impl_->op_type, impl_->funcs, impl_->tiling_size_set);
}

OpImplRegisterV2::~OpImplRegisterV2() = default;

OpImplRegisterV2& OpImplRegisterV2::InferShape(InferShapeKernelFunc f) {
  impl_->funcs.infer_shape = f;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferShapeRange(InferShapeRangeKernelFunc) { return *this; }
OpImplRegisterV2& OpImplRegisterV2::InferDataType(InferDataTypeKernelFunc f) {
  impl_->funcs.infer_data_type = f;
  impl_->funcs.data_type_same_as_first_input = false;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferOutDataTypeSameWithFirstInput() {
  impl_->funcs.data_type_same_as_first_input = true;
  impl_->funcs.infer_data_type = nullptr;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::Tiling(TilingKernelFunc f, size_t max_tiling_data_size) {
  impl_->funcs.tiling = f;
  impl_->funcs.max_tiling_data_size = max_tiling_data_size;
  impl_->tiling_size_set = true;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::GenSimplifiedKey(GenSimplifiedKeyKernelFunc) { return *this; }
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const ge::char_t*) { return *this; }
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const ge::char_t*, int64_t) { return *this; }
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const ge::char_t*, const std::vector<int64_t>&) {
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const ge::char_t*, const ge::char_t*) {
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const ge::char_t*, ge::float32_t) { return *this; }
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const ge::char_t*, bool) { return *this; }
OpImplRegisterV2& OpImplRegisterV2::PrivateAttr(const ge::char_t*,
                                                const std::vector<ge::float32_t>&) {
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::TilingParse(KernelFunc tiling_parse_func,
                                                CompileInfoCreatorFunc creator_func,
                                                CompileInfoDeleterFunc deleter_func) {
  impl_->funcs.tiling_parse = tiling_parse_func;
  impl_->funcs.compile_info_creator = creator_func;
  impl_->funcs.compile_info_deleter = deleter_func;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InputsDataDependency(std::initializer_list<int32_t> inputs) {
  impl_->funcs.tiling_depend_inputs.assign(inputs.begin(), inputs.end());
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::OpExecuteFunc(OpExecFunc) { return *this; }
OpImplRegisterV2& OpImplRegisterV2::HostInputs(std::initializer_list<int32_t>) { return *this; }
OpImplRegisterV2& OpImplRegisterV2::TilingInputsDataDependency(
    std::initializer_list<int32_t> inputs) {
  impl_->funcs.tiling_depend_inputs.assign(inputs.begin(), inputs.end());
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::TilingInputsDataDependency(
    std::initializer_list<int32_t> inputs, std::initializer_list<TilingPlacement>) {
  impl_->funcs.tiling_depend_inputs.assign(inputs.begin(), inputs.end());
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::OutputShapeDependOnCompute(std::initializer_list<int32_t>) {
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferFormat(InferFormatFunc) { return *this; }
OpImplRegisterV2& OpImplRegisterV2::NullableOutputs(std::initializer_list<int32_t>) {
  return *this;
}

}  // namespace gert
