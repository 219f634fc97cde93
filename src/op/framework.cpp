// The operator framework's process state (framework.h).
#include "op/framework.h"

#include <utility>

#include "ascsim/error.h"

namespace ascsim::op {

namespace {
// Errors belong to the thread whose operator code raised them (a TilingFunc runs on the caller's
// thread), so two threads calling operators do not see each other's.
thread_local std::vector<std::string> t_errors;
}  // namespace

OpFramework& OpFramework::Get() {
  static OpFramework* framework = new OpFramework;  // never destroyed: libraries unload late
  return *framework;
}

void OpFramework::SetStructSize(const std::string& type, size_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  struct_sizes_.emplace(type, size);  // the first definition stays, as CANN's
}

size_t OpFramework::StructSize(const std::string& type) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = struct_sizes_.find(type);
  if (it == struct_sizes_.end()) {
    throw InvalidArgument("TILING_DATA_FIELD_DEF_STRUCT: the tiling struct " + type +
                          " is not defined (define it with BEGIN_TILING_DATA_DEF before the "
                          "struct that holds it)");
  }
  return it->second;
}

void OpFramework::RegisterTilingData(const std::string& op_type,
                                     optiling::TilingDataConstructor ctor) {
  std::lock_guard<std::mutex> lock(mu_);
  tiling_data_[op_type] = ctor;
}

optiling::TilingDataConstructor OpFramework::TilingDataOf(const std::string& op_type) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = tiling_data_.find(op_type);
  return it == tiling_data_.end() ? nullptr : it->second;
}

std::vector<std::string> OpFramework::TilingDataTypes() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> types;
  for (const auto& entry : tiling_data_) types.push_back(entry.first);
  return types;
}

void OpFramework::RegisterOpDef(const std::string& op_type, ops::OpDefCreator creator) {
  std::lock_guard<std::mutex> lock(mu_);
  if (op_defs_.find(op_type) == op_defs_.end()) op_order_.push_back(op_type);
  op_defs_[op_type] = std::move(creator);
}

bool OpFramework::HasOpDef(const std::string& op_type) {
  std::lock_guard<std::mutex> lock(mu_);
  return op_defs_.count(op_type) != 0;
}

ops::OpDef OpFramework::CreateOpDef(const std::string& op_type) {
  ops::OpDefCreator creator;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = op_defs_.find(op_type);
    if (it == op_defs_.end()) {
      std::string known;
      for (const std::string& t : op_order_) known += (known.empty() ? "" : ", ") + t;
      throw InvalidArgument("operator " + op_type + " is not registered (OP_ADD); registered: " +
                            (known.empty() ? "none" : known));
    }
    creator = it->second;
  }
  return creator(op_type.c_str());  // the definition's constructor runs outside the lock
}

std::vector<std::string> OpFramework::OpTypes() {
  std::lock_guard<std::mutex> lock(mu_);
  return op_order_;
}

void OpFramework::RegisterImpl(const std::string& op_type, const ImplFuncs& funcs,
                               bool tiling_size_set) {
  std::lock_guard<std::mutex> lock(mu_);
  ImplFuncs& f = impls_[op_type];
  if (funcs.infer_shape != nullptr) f.infer_shape = funcs.infer_shape;
  if (funcs.infer_data_type != nullptr) {
    f.infer_data_type = funcs.infer_data_type;
    f.data_type_same_as_first_input = false;
  }
  if (funcs.data_type_same_as_first_input) {
    f.data_type_same_as_first_input = true;
    f.infer_data_type = nullptr;
  }
  if (funcs.tiling != nullptr) f.tiling = funcs.tiling;
  if (tiling_size_set) f.max_tiling_data_size = funcs.max_tiling_data_size;
  if (funcs.tiling_parse != nullptr) {
    f.tiling_parse = funcs.tiling_parse;
    f.compile_info_creator = funcs.compile_info_creator;
    f.compile_info_deleter = funcs.compile_info_deleter;
  }
  if (!funcs.tiling_depend_inputs.empty()) f.tiling_depend_inputs = funcs.tiling_depend_inputs;
}

ImplFuncs OpFramework::ImplOf(const std::string& op_type) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = impls_.find(op_type);
  return it == impls_.end() ? ImplFuncs{} : it->second;
}

bool OpFramework::HasImpl(const std::string& op_type) {
  std::lock_guard<std::mutex> lock(mu_);
  return impls_.count(op_type) != 0;
}

void OpFramework::RecordError(const std::string& message) { t_errors.push_back(message); }

std::vector<std::string> OpFramework::TakeErrors() {
  std::vector<std::string> errors;
  errors.swap(t_errors);
  return errors;
}

}  // namespace ascsim::op
