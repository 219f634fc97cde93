// The operator framework's process state, in one object: what operator code registered (tiling
// data classes and struct sizes, operator prototypes, host implementation functions). Operator
// libraries register into it from their static initialisers when they are loaded (dlopen of an
// op_host library, a custom-op package's op API library, a test binary), so it is made on first
// use and never destroyed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "register/op_def_factory.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"

namespace ascsim::op {

// The host functions of one operator type (IMPL_OP_* and OP_ADD's AICore().SetTiling(...)).
struct ImplFuncs {
  gert::OpImplRegisterV2::InferShapeKernelFunc infer_shape = nullptr;
  gert::OpImplRegisterV2::InferDataTypeKernelFunc infer_data_type = nullptr;
  bool data_type_same_as_first_input = false;
  gert::OpImplRegisterV2::TilingKernelFunc tiling = nullptr;
  size_t max_tiling_data_size = 2048;
  gert::OpImplRegisterV2::KernelFunc tiling_parse = nullptr;
  gert::OpImplRegisterV2::CompileInfoCreatorFunc compile_info_creator = nullptr;
  gert::OpImplRegisterV2::CompileInfoDeleterFunc compile_info_deleter = nullptr;
  std::vector<int32_t> tiling_depend_inputs;  // TilingInputsDataDependency / InputsDataDependency
};

class OpFramework {
 public:
  static OpFramework& Get();

  // ---- tiling data (register/tilingdata_base.h) ----
  void SetStructSize(const std::string& type, size_t size);
  // Throws InvalidArgument naming the struct when it was never defined.
  size_t StructSize(const std::string& type);
  void RegisterTilingData(const std::string& op_type, optiling::TilingDataConstructor ctor);
  optiling::TilingDataConstructor TilingDataOf(const std::string& op_type);
  std::vector<std::string> TilingDataTypes();

  // ---- operator prototypes (OP_ADD) ----
  void RegisterOpDef(const std::string& op_type, ops::OpDefCreator creator);
  bool HasOpDef(const std::string& op_type);
  // A fresh copy of the prototype; throws InvalidArgument when the type is unknown.
  ops::OpDef CreateOpDef(const std::string& op_type);
  // Registered types, in registration order.
  std::vector<std::string> OpTypes();

  // ---- host implementation functions (IMPL_OP_*) ----
  // Merges the non-null functions of `funcs` into the type's entry.
  void RegisterImpl(const std::string& op_type, const ImplFuncs& funcs, bool tiling_size_set);
  ImplFuncs ImplOf(const std::string& op_type);
  bool HasImpl(const std::string& op_type);

  // Errors raised while operator code ran at registration or in a TilingFunc's helpers (a
  // TILING_DATA_FIELD_DEF_ARR copy that does not fit): the next operator call reports them.
  void RecordError(const std::string& message);
  std::vector<std::string> TakeErrors();

 private:
  OpFramework() = default;

  std::mutex mu_;
  std::map<std::string, size_t> struct_sizes_;
  std::map<std::string, optiling::TilingDataConstructor> tiling_data_;
  std::map<std::string, ops::OpDefCreator> op_defs_;
  std::vector<std::string> op_order_;
  std::map<std::string, ImplFuncs> impls_;
  std::vector<std::string> errors_;
};

}  // namespace ascsim::op
