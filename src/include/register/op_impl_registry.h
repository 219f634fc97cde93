// gert::OpImplRegisterV2 and IMPL_OP / IMPL_OP_INFERSHAPE / IMPL_OP_OPTILING (CANN metadef
// inc/external/register/op_impl_registry.h): how an operator's host functions (InferShape,
// InferDataType, Tiling, TilingParse) are registered by type, as the open operator libraries do:
//
//   IMPL_OP_OPTILING(AddExample).Tiling(AddExampleTilingFunc).TilingParse<AddCompileInfo>(Parse);
//   IMPL_OP_INFERSHAPE(AddExample).InferShape(InferShapeAddExample);
//
// The registration happens when the static object is constructed from the chained temporary (its
// copy or move constructor), as in CANN; later registrations of the same type add to it.
#ifndef ASCSIM_REGISTER_OP_IMPL_REGISTRY_H_
#define ASCSIM_REGISTER_OP_IMPL_REGISTRY_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "exe_graph/runtime/base_type.h"
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/infer_shape_range_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "graph/ascend_string.h"
#include "graph/compiler_def.h"
#include "graph/types.h"

namespace gert {
class KernelContext;
class OpExecuteContext;
class OpExecutePrepareContext;
class OpExecuteLaunchContext;
class InferFormatContext;
class ExeResGenerationContext;
class OpCheckContext;

enum TilingPlacement {
  TILING_ON_HOST = 0,
  TILING_ON_AICPU = 1,
};

class OpImplRegisterV2Impl;
class OpImplRegisterV2 {
 public:
  explicit OpImplRegisterV2(const ge::char_t* op_type);
  OpImplRegisterV2(OpImplRegisterV2&& register_data) noexcept;
  OpImplRegisterV2(const OpImplRegisterV2& register_data);
  OpImplRegisterV2& operator=(const OpImplRegisterV2&) = delete;
  OpImplRegisterV2& operator=(OpImplRegisterV2&&) = delete;
  ~OpImplRegisterV2();

  using InferShapeKernelFunc = UINT32 (*)(InferShapeContext*);
  using InferShapeRangeKernelFunc = UINT32 (*)(InferShapeRangeContext*);
  using TilingKernelFunc = UINT32 (*)(TilingContext*);
  using InferDataTypeKernelFunc = UINT32 (*)(InferDataTypeContext*);
  using GenSimplifiedKeyKernelFunc = UINT32 (*)(TilingContext*, ge::char_t*);
  using OpExecFunc = UINT32 (*)(OpExecuteContext*);
  using OpType = ge::AscendString;
  using CompileInfoCreatorFunc = void* (*)();
  using CompileInfoDeleterFunc = void (*)(void*);
  using KernelFunc = UINT32 (*)(KernelContext* context);
  using TilingParseFunc = UINT32 (*)(TilingParseContext* context);
  using InferFormatFunc = UINT32 (*)(InferFormatContext* context);

 public:
  OpImplRegisterV2& InferShape(InferShapeKernelFunc infer_shape_func);
  OpImplRegisterV2& InferShapeRange(InferShapeRangeKernelFunc infer_shape_range_func);
  OpImplRegisterV2& InferDataType(InferDataTypeKernelFunc infer_datatype_func);
  // Every output gets the data type of the first input.
  OpImplRegisterV2& InferOutDataTypeSameWithFirstInput();
  // `max_tiling_data_size` is the capacity of the TilingContext's tiling data.
  OpImplRegisterV2& Tiling(TilingKernelFunc tiling_func, size_t max_tiling_data_size = 2048);
  OpImplRegisterV2& GenSimplifiedKey(GenSimplifiedKeyKernelFunc gen_simplifiedkey_func);
  OpImplRegisterV2& PrivateAttr(const ge::char_t* private_attr);
  OpImplRegisterV2& PrivateAttr(const ge::char_t* private_attr, int64_t private_attr_val);
  OpImplRegisterV2& PrivateAttr(const ge::char_t* private_attr,
                                const std::vector<int64_t>& private_attr_val);
  OpImplRegisterV2& PrivateAttr(const ge::char_t* private_attr, const ge::char_t* private_attr_val);
  OpImplRegisterV2& PrivateAttr(const ge::char_t* private_attr, ge::float32_t private_attr_val);
  OpImplRegisterV2& PrivateAttr(const ge::char_t* private_attr, bool private_attr_val);
  OpImplRegisterV2& PrivateAttr(const ge::char_t* private_attr,
                                const std::vector<ge::float32_t>& private_attr_val);
  template <typename T>
  OpImplRegisterV2& TilingParse(KernelFunc const tiling_parse_func) {
    return TilingParse(tiling_parse_func, CreateCompileInfo<T>, DeleteCompileInfo<T>);
  }
  template <typename T>
  OpImplRegisterV2& TilingParse(TilingParseFunc const tiling_parse_func) {
    return TilingParse(reinterpret_cast<KernelFunc>(tiling_parse_func), CreateCompileInfo<T>,
                       DeleteCompileInfo<T>);
  }
  OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t> inputs);
  OpImplRegisterV2& OpExecuteFunc(OpExecFunc op_execute_func);
  OpImplRegisterV2& HostInputs(std::initializer_list<int32_t> inputs);
  OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t> inputs);
  OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t> inputs,
                                               std::initializer_list<TilingPlacement> placements);
  OpImplRegisterV2& OutputShapeDependOnCompute(std::initializer_list<int32_t> outputs);
  OpImplRegisterV2& InferFormat(InferFormatFunc infer_format_func);
  OpImplRegisterV2& NullableOutputs(std::initializer_list<int32_t> outputs);

 private:
  OpImplRegisterV2& TilingParse(KernelFunc tiling_parse_func, CompileInfoCreatorFunc creator_func,
                                CompileInfoDeleterFunc deleter_func);
  template <typename T, typename std::enable_if<(!std::is_array<T>::value), int32_t>::type = 0>
  static void* CreateCompileInfo() {
    return new T();
  }
  template <typename T>
  static void DeleteCompileInfo(void* const obj) {
    delete reinterpret_cast<T*>(obj);
  }

  std::unique_ptr<OpImplRegisterV2Impl> impl_;
};
}  // namespace gert

#define IMPL_OP_COUNTER(op_type, name, counter) \
  static gert::OpImplRegisterV2 VAR_UNUSED name##counter = gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_COUNTER_NUMBER(op_type, name, counter) IMPL_OP_COUNTER(op_type, name, counter)
#define IMPL_OP(op_type) IMPL_OP_COUNTER_NUMBER(op_type, op_impl_register_##op_type, __COUNTER__)
#define IMPL_OP_DEFAULT() IMPL_OP(DefaultImpl)

#define IMPL_OP_INFERSHAPE(op_type)                                         \
  gert::OpImplRegisterV2 VAR_UNUSED op_impl_register_infershape_##op_type = \
      gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_OPTILING(op_type)                                         \
  gert::OpImplRegisterV2 VAR_UNUSED op_impl_register_optiling_##op_type = \
      gert::OpImplRegisterV2(#op_type)

#endif  // ASCSIM_REGISTER_OP_IMPL_REGISTRY_H_
