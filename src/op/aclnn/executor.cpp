// The aclnn runtime of custom operators (executor.h). The two phases are CANN's (opbase
// aclnn_base.h, the generated aclnn_<op>.cpp): GetWorkspaceSize does every check and the host
// work and keeps the result in an aclOpExecutor; the run phase only copies the tiling data to the
// device and launches. The kernel takes its inputs, outputs (IR order; nullptr for an absent
// optional input, a ListTensorDesc for a dynamic one), the workspace and the tiling data, as the
// kernel wrapper CANN generates does (asc-devkit compile_op.py).
#include "op/aclnn/executor.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_set>
#include <utility>

#include "ascsim/acl_launch.h"
#include "ascsim/error.h"
#include "ascsim/runtime.h"
#include "ascsim/soc.h"
#include "graph/utils/type_utils.h"
#include "host/acl_state.h"
#include "op/aclnn/aclnn_objects.h"
#include "op/exe_graph/op_call.h"
#include "op/op_resolve.h"
#include "runtime/process.h"
#include "opdev/op_errno.h"
#include "platform/platform_infos_def.h"

namespace {

// Where an input or output tensor's address goes: args[slot], or element `slot` of list `list`.
struct AddrRef {
  int list = -1;
  size_t slot = 0;
};

// A dynamic input or output: its ListTensorDesc is written at each run.
struct TensorListArg {
  size_t slot = 0;
  std::vector<std::vector<int64_t>> dims;
  std::vector<void*> data;
};

}  // namespace

struct aclOpExecutor {
  std::string op_type;
  ascsim::op::KernelVariant* variant = nullptr;
  std::vector<void*> args;  // the kernel's parameters; lists, workspace and tiling set at run
  std::vector<TensorListArg> lists;
  std::vector<AddrRef> inputs;   // per input tensor given (absent optional inputs have none)
  std::vector<AddrRef> outputs;  // per output tensor
  size_t workspace_slot = 0;
  size_t tiling_slot = 0;
  std::vector<uint8_t> tiling;
  uint32_t block_dim = 0;
  uint64_t tiling_key = 0;
  uint64_t workspace_size = 0;
  bool repeatable = false;

  // The executors alive now: aclnn<Op> frees a non-repeatable executor once it ran, so a second
  // call with it (a program that loops without aclSetAclOpExecutorRepeatable) is refused with a
  // message instead of using freed memory. One set lookup per call.
  static std::mutex& LiveMutex() {
    static std::mutex* mu = new std::mutex();
    return *mu;
  }
  static std::unordered_set<const aclOpExecutor*>& Live() {
    static auto* live = new std::unordered_set<const aclOpExecutor*>();
    return *live;
  }
  static bool IsLive(const aclOpExecutor* ex) {
    std::lock_guard<std::mutex> lock(LiveMutex());
    return Live().count(ex) != 0;
  }
  aclOpExecutor() {
    std::lock_guard<std::mutex> lock(LiveMutex());
    Live().insert(this);
  }
  ~aclOpExecutor() {
    std::lock_guard<std::mutex> lock(LiveMutex());
    Live().erase(this);
  }
  aclOpExecutor(const aclOpExecutor&) = delete;
  aclOpExecutor& operator=(const aclOpExecutor&) = delete;
};

namespace ascsim::op {
namespace {

struct AclnnError {
  aclnnStatus code;
  std::string message;
};

[[noreturn]] void Throw(aclnnStatus code, const std::string& message) {
  throw AclnnError{code, message};
}

std::string TypeName(ge::DataType t) { return ge::TypeUtils::DataTypeToSerialString(t); }

// The OpDef as the active SoC sees it, resolved once per type and SoC.
const ResolvedOp& Resolved(const char* api, const std::string& op_type) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<ResolvedOp>>* cache =
      new std::map<std::string, std::unique_ptr<ResolvedOp>>();
  const std::string soc = ShortSocName(CurrentSoc().name);
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<ResolvedOp>& slot = (*cache)[soc + "/" + op_type];
  if (!slot) {
    if (!OpFramework::Get().HasOpDef(op_type)) {
      cache->erase(soc + "/" + op_type);
      Throw(ACLNN_ERR_INNER_OPP_PATH_NOT_FOUND,
            std::string(api) + ": no operator " + op_type +
                " is registered (its package's op host library did not load, or has no "
                "OP_ADD(" +
                op_type + "))");
    }
    try {
      slot.reset(new ResolvedOp(ResolveOp(op_type, soc)));
    } catch (const std::exception& e) {
      cache->erase(soc + "/" + op_type);
      Throw(ACLNN_ERR_INNER_FIND_KERNEL_ERROR, std::string(api) + ": " + e.what());
    }
  }
  return *slot;
}

// ---------------------------------------------------------------- arguments

struct CallArgs {
  std::vector<std::vector<const aclTensor*>> inputs;  // per IR input; empty: absent
  std::vector<const AscsimAclnnArg*> attrs;
  std::vector<std::vector<const aclTensor*>> outputs;  // per IR output; empty: not given
};

const char* KindName(int32_t kind) {
  switch (kind) {
    case ASCSIM_ACLNN_TENSOR:
      return "an aclTensor";
    case ASCSIM_ACLNN_TENSOR_LIST:
      return "an aclTensorList";
    case ASCSIM_ACLNN_INT_ARRAY:
      return "an aclIntArray";
    case ASCSIM_ACLNN_FLOAT_ARRAY:
      return "an aclFloatArray";
    case ASCSIM_ACLNN_BOOL_ARRAY:
      return "an aclBoolArray";
    case ASCSIM_ACLNN_INT:
      return "an int64_t";
    case ASCSIM_ACLNN_FLOAT:
      return "a double";
    case ASCSIM_ACLNN_BOOL:
      return "a bool";
    case ASCSIM_ACLNN_STRING:
      return "a string";
    case ASCSIM_ACLNN_SCALAR:
      return "an aclScalar";
  }
  return "an unknown kind";
}

int32_t ArgKindOf(AttrKind kind) {
  switch (kind) {
    case AttrKind::kBool:
      return ASCSIM_ACLNN_BOOL;
    case AttrKind::kFloat:
      return ASCSIM_ACLNN_FLOAT;
    case AttrKind::kInt:
      return ASCSIM_ACLNN_INT;
    case AttrKind::kString:
      return ASCSIM_ACLNN_STRING;
    case AttrKind::kListBool:
      return ASCSIM_ACLNN_BOOL_ARRAY;
    case AttrKind::kListFloat:
      return ASCSIM_ACLNN_FLOAT_ARRAY;
    case AttrKind::kListInt:
      return ASCSIM_ACLNN_INT_ARRAY;
    case AttrKind::kListListInt:
      break;
  }
  return -1;
}

std::string ArgName(const AscsimAclnnArg& a, const std::string& fallback) {
  return a.name != nullptr ? a.name : fallback;
}

void CheckTensor(const char* api, const std::string& name, const aclTensor& t, bool need_data) {
  if (t.data_type == ACL_DT_UNDEFINED) {
    Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": " + name + " has no data type");
  }
  if (t.view_dims.size() > gert::Shape::kMaxDimNum) {
    Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": " + name + " has " +
                                       std::to_string(t.view_dims.size()) + " dims (at most " +
                                       std::to_string(gert::Shape::kMaxDimNum) + ")");
  }
  if (!IsContiguous(t)) {
    Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": " + name + " is not contiguous (view " +
                                       DimsText(t.view_dims) + ", strides " + DimsText(t.strides) +
                                       ", offset " + std::to_string(t.offset) +
                                       "); custom-operator kernels take contiguous tensors");
  }
  if (!need_data || ElementCount(t.view_dims) == 0) return;
  if (t.data == nullptr) {
    Throw(ACLNN_ERR_PARAM_NULLPTR,
          std::string(api) + ": " + name + "'s data is nullptr (aclCreateTensor's tensorData)");
  }
  if (!IsDeviceMemory(t.data)) {
    std::ostringstream s;
    s << api << ": " << name << "'s data " << t.data
      << " is not device memory (give the kernel memory from aclrtMalloc)";
    Throw(ACLNN_ERR_PARAM_INVALID, s.str());
  }
}

std::vector<const aclTensor*> TensorArg(const char* api, const AscsimAclnnArg& a,
                                        const std::string& param, ParamKind kind, bool optional,
                                        bool need_data) {
  const std::string name = ArgName(a, param);
  std::vector<const aclTensor*> out;
  if (kind == ParamKind::kDynamic) {
    if (a.kind != ASCSIM_ACLNN_TENSOR_LIST) {
      Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": " + name +
                                         " is a dynamic parameter (an aclTensorList), not " +
                                         KindName(a.kind) + "; regenerate the aclnn API");
    }
    if (a.ptr == nullptr) {
      if (optional) return out;
      Throw(ACLNN_ERR_PARAM_NULLPTR, std::string(api) + ": " + name + " is nullptr");
    }
    const aclTensorList& list = *static_cast<const aclTensorList*>(a.ptr);
    if (list.tensors.empty()) {
      Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": " + name + " is an empty list");
    }
    for (size_t i = 0; i < list.tensors.size(); ++i) {
      const std::string item = name + "[" + std::to_string(i) + "]";
      if (list.tensors[i] == nullptr) {
        Throw(ACLNN_ERR_PARAM_NULLPTR, std::string(api) + ": " + item + " is nullptr");
      }
      CheckTensor(api, item, *list.tensors[i], need_data);
      out.push_back(list.tensors[i]);
    }
    return out;
  }
  if (a.kind != ASCSIM_ACLNN_TENSOR) {
    Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": " + name + " is an aclTensor, not " +
                                       KindName(a.kind) + "; regenerate the aclnn API");
  }
  if (a.ptr == nullptr) {
    if (optional) return out;
    Throw(ACLNN_ERR_PARAM_NULLPTR, std::string(api) + ": " + name + " is nullptr");
  }
  const aclTensor* t = static_cast<const aclTensor*>(a.ptr);
  CheckTensor(api, name, *t, need_data);
  out.push_back(t);
  return out;
}

CallArgs Collect(const char* api, const ResolvedOp& op, const AscsimAclnnArg* args, size_t n,
                 bool infer_only) {
  const size_t expected = op.inputs.size() + op.attrs.size() + op.outputs.size();
  if (n != expected || (n != 0 && args == nullptr)) {
    Throw(ACLNN_ERR_PARAM_INVALID,
          std::string(api) + ": " + std::to_string(n) + " arguments for the " +
              std::to_string(expected) + " of " + op.op_type +
              "'s OpDef (inputs, attributes, outputs); rebuild the operator package");
  }
  CallArgs c;
  size_t at = 0;
  for (const ResolvedParam& p : op.inputs) {
    c.inputs.push_back(
        TensorArg(api, args[at++], p.name, p.kind, p.kind == ParamKind::kOptional, !infer_only));
  }
  for (const ResolvedAttr& attr : op.attrs) {
    const AscsimAclnnArg& a = args[at++];
    const int32_t want = ArgKindOf(attr.kind);
    if (want < 0) {
      Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": attribute " + attr.name + " of type " +
                                         AttrKindName(attr.kind) + " has no aclnn argument form");
    }
    if (a.kind != want) {
      Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": attribute " + attr.name + " is " +
                                         KindName(want) + ", the API passed " + KindName(a.kind) +
                                         "; regenerate the aclnn API");
    }
    const bool pointer = want == ASCSIM_ACLNN_STRING || want == ASCSIM_ACLNN_INT_ARRAY ||
                         want == ASCSIM_ACLNN_FLOAT_ARRAY || want == ASCSIM_ACLNN_BOOL_ARRAY;
    if (pointer && a.ptr == nullptr && attr.required) {
      Throw(ACLNN_ERR_PARAM_NULLPTR,
            std::string(api) + ": " + ArgName(a, attr.name) + " is nullptr (a required attribute)");
    }
    c.attrs.push_back(&a);
  }
  for (const ResolvedParam& p : op.outputs) {
    c.outputs.push_back(TensorArg(api, args[at++], p.name, p.kind, infer_only, !infer_only));
  }
  return c;
}

// ---------------------------------------------------------------- the combination

std::string CombinationText(const ResolvedOp& op, size_t c) {
  std::string s = "(";
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    s += (i ? ", " : "") + TypeName(op.inputs[i].types[c]);
  }
  s += " -> ";
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    s += (i ? ", " : "") + TypeName(op.outputs[i].types[c]);
  }
  return s + ")";
}

std::string ParamsText(const ResolvedOp& op) {
  std::string s = "(";
  for (size_t i = 0; i < op.inputs.size(); ++i) s += (i ? ", " : "") + op.inputs[i].name;
  s += " -> ";
  for (size_t i = 0; i < op.outputs.size(); ++i) s += (i ? ", " : "") + op.outputs[i].name;
  return s + ")";
}

std::string GivenText(const ResolvedOp& op, const CallArgs& a) {
  std::string s = "(";
  auto one = [](const std::vector<const aclTensor*>& ts) {
    return ts.empty() ? std::string("absent") : TypeName(ToGe(ts[0]->data_type));
  };
  for (size_t i = 0; i < op.inputs.size(); ++i) s += (i ? ", " : "") + one(a.inputs[i]);
  s += " -> ";
  for (size_t i = 0; i < op.outputs.size(); ++i) s += (i ? ", " : "") + one(a.outputs[i]);
  return s + ")";
}

size_t ChooseCombination(const char* api, const ResolvedOp& op, const CallArgs& a) {
  std::vector<size_t> matches;
  std::vector<size_t> format_matches;
  for (size_t c = 0; c < op.combinations; ++c) {
    bool types = true;
    bool formats = true;
    auto check = [&](const ResolvedParam& p, const std::vector<const aclTensor*>& ts) {
      for (const aclTensor* t : ts) {
        if (ToGe(t->data_type) != p.types[c]) types = false;
        if (ToGe(t->format) != p.formats[c]) formats = false;
      }
    };
    for (size_t i = 0; i < op.inputs.size(); ++i) check(op.inputs[i], a.inputs[i]);
    for (size_t i = 0; i < op.outputs.size(); ++i) check(op.outputs[i], a.outputs[i]);
    if (types) matches.push_back(c);
    if (types && formats) format_matches.push_back(c);
  }
  if (!format_matches.empty()) return format_matches[0];
  if (!matches.empty()) return matches[0];
  std::string supported;
  for (size_t c = 0; c < op.combinations && c < 8; ++c) {
    supported += (c ? ", " : "") + CombinationText(op, c);
  }
  if (op.combinations > 8) supported += ", ...";
  Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": " + op.op_type + " takes no " +
                                     ParamsText(op) + " = " + GivenText(op, a) + "; it takes " +
                                     supported);
}

// ---------------------------------------------------------------- the call

void FillTensor(gert::Tensor& t, gert::CompileTimeTensorDesc& desc, const aclTensor& src) {
  gert::Shape view;
  for (int64_t d : src.view_dims) view.AppendDim(d);
  gert::Shape storage;
  const bool nd =
      src.format == ACL_FORMAT_ND || src.format == ACL_FORMAT_UNDEFINED || src.storage_dims.empty();
  for (int64_t d : nd ? src.view_dims : src.storage_dims) storage.AppendDim(d);
  t.MutableOriginShape() = view;
  t.MutableStorageShape() = storage;
  t.SetDataType(ToGe(src.data_type));
  t.SetOriginFormat(ToGe(src.format));
  t.SetStorageFormat(ToGe(src.format));
  uint32_t elem = 0;
  ge::TypeUtils::GetDataTypeLength(ToGe(src.data_type), elem);
  t.MutableTensorData().SetAddr(src.data, nullptr);
  t.MutableTensorData().SetSize(static_cast<size_t>(ElementCount(src.view_dims)) * elem);
  t.SetPlacement(gert::kOnDeviceHbm);
  desc.SetDataType(ToGe(src.data_type));
  desc.SetOriginFormat(ToGe(src.format));
  desc.SetStorageFormat(ToGe(src.format));
}

void FillAttrs(RuntimeAttrsImpl& attrs, const ResolvedOp& op, const CallArgs& a) {
  for (size_t i = 0; i < op.attrs.size(); ++i) {
    const ResolvedAttr& d = op.attrs[i];
    const AscsimAclnnArg& v = *a.attrs[i];
    switch (d.kind) {
      case AttrKind::kBool:
        attrs.AddBool(v.i != 0);
        break;
      case AttrKind::kInt:
        attrs.AddInt(v.i);
        break;
      case AttrKind::kFloat:
        attrs.AddFloat(static_cast<float>(v.f));
        break;
      case AttrKind::kString:
        attrs.AddString(v.ptr != nullptr ? static_cast<const char*>(v.ptr) : d.str_value);
        break;
      case AttrKind::kListInt:
        attrs.AddListInt(v.ptr != nullptr ? static_cast<const aclIntArray*>(v.ptr)->values
                                          : d.list_int);
        break;
      case AttrKind::kListFloat:
        attrs.AddListFloat(v.ptr != nullptr ? static_cast<const aclFloatArray*>(v.ptr)->values
                                            : d.list_float);
        break;
      case AttrKind::kListBool:
        attrs.AddListBool(v.ptr != nullptr ? static_cast<const aclBoolArray*>(v.ptr)->values
                                           : d.list_bool);
        break;
      case AttrKind::kListListInt:
        attrs.AddListListInt(d.list_list_int);
        break;
    }
  }
}

void FillCall(OpCall& call, const ResolvedOp& op, const CallArgs& a, size_t combo) {
  call.op_type = op.op_type;
  call.node_name = op.op_type;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const uint32_t start = static_cast<uint32_t>(call.input_desc.size());
    call.AddIrInput(static_cast<uint32_t>(a.inputs[i].size()));
    for (size_t j = 0; j < a.inputs[i].size(); ++j) {
      FillTensor(call.input_tensors[start + j], call.input_desc[start + j], *a.inputs[i][j]);
    }
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const uint32_t start = static_cast<uint32_t>(call.output_desc.size());
    const size_t count = a.outputs[i].empty() ? 1 : a.outputs[i].size();
    call.AddIrOutput(static_cast<uint32_t>(count));
    for (size_t j = 0; j < a.outputs[i].size(); ++j) {
      FillTensor(call.output_tensors[start + j], call.output_desc[start + j], *a.outputs[i][j]);
    }
    if (a.outputs[i].empty()) {
      call.output_desc[start].SetDataType(op.outputs[i].types[combo]);
      call.output_desc[start].SetOriginFormat(op.outputs[i].formats[combo]);
      call.output_desc[start].SetStorageFormat(op.outputs[i].formats[combo]);
    }
  }
  FillAttrs(call.attrs, op, a);
  call.platform = fe::PlatFormInfos::ForSoc(CurrentSoc().name);
}

std::string Errors(const std::vector<std::string>& errors) {
  std::string s;
  for (const std::string& e : errors) s += (s.empty() ? "" : "; ") + e;
  return s;
}

template <class F>
uint32_t RunHostFunc(const char* api, const ResolvedOp& op, const char* what, aclnnStatus code,
                     F&& f) {
  uint32_t status = 0;
  try {
    status = f();
  } catch (const std::exception& e) {
    OpFramework::Get().TakeErrors();
    Throw(code, std::string(api) + ": " + op.op_type + "'s " + what + " threw: " + e.what());
  }
  const std::vector<std::string> errors = OpFramework::Get().TakeErrors();
  if (!errors.empty()) {
    Throw(code, std::string(api) + ": " + op.op_type + "'s " + what + ": " + Errors(errors));
  }
  if (status != ge::GRAPH_SUCCESS) {
    Throw(code,
          std::string(api) + ": " + op.op_type + "'s " + what + " failed (returned " +
              (status == ge::GRAPH_FAILED ? std::string("GRAPH_FAILED") : std::to_string(status)) +
              ")");
  }
  return status;
}

constexpr int64_t kShapeNotInferred = std::numeric_limits<int64_t>::min();
bool NotInferred(const gert::Shape& s) {
  return s.GetDimNum() == 1 && s.GetDim(0) == kShapeNotInferred;
}

// InferShape and InferDataType; with `check`, the given outputs must agree.
void Infer(const char* api, const ResolvedOp& op, OpCall& call, const CallArgs& a, size_t combo,
           bool check) {
  if (op.funcs.infer_shape != nullptr) {
    // An InferShape may leave an output alone (the official unaligned WholeReduceSum sample
    // returns GRAPH_SUCCESS having set nothing; an aclnn call on the device takes the output
    // tensor's shape as given): such an output keeps this mark and is not compared.
    for (gert::Shape& s : call.inferred_shapes) {
      s.SetDimNum(1);
      s.SetDim(0, kShapeNotInferred);
    }
    RunHostFunc(api, op, "InferShape", ACLNN_ERR_INNER_INFERSHAPE_ERROR,
                [&] { return op.funcs.infer_shape(&call.infer_shape_context); });
  }
  // Data types: InferDataType, the first input's, or the combination's.
  ge::DataType first = ge::DT_UNDEFINED;
  if (!call.input_tensors.empty()) first = call.input_tensors[0].GetDataType();
  size_t out = 0;
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const uint32_t n = call.ir_outputs[i].GetInstanceNum();
    for (uint32_t j = 0; j < n; ++j, ++out) {
      call.inferred_types[out] =
          op.funcs.data_type_same_as_first_input ? first : op.outputs[i].types[combo];
    }
  }
  if (op.funcs.infer_data_type != nullptr) {
    RunHostFunc(api, op, "InferDataType", ACLNN_ERR_INNER_INFERSHAPE_ERROR,
                [&] { return op.funcs.infer_data_type(&call.infer_data_type_context); });
  }
  if (!check) return;
  out = 0;
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    for (size_t j = 0; j < a.outputs[i].size(); ++j, ++out) {
      const aclTensor& t = *a.outputs[i][j];
      const std::string name = op.outputs[i].name + (op.outputs[i].kind == ParamKind::kDynamic
                                                         ? "[" + std::to_string(j) + "]"
                                                         : std::string());
      if (op.funcs.infer_shape != nullptr && !NotInferred(call.inferred_shapes[out])) {
        const gert::Shape& s = call.inferred_shapes[out];
        bool same = s.GetDimNum() == t.view_dims.size();
        for (size_t d = 0; same && d < t.view_dims.size(); ++d) {
          same = s.GetDim(d) < 0 || s.GetDim(d) == t.view_dims[d];
        }
        if (!same) {
          // The output tensor is the caller's: an aclnn call runs on the shapes it is given, and
          // official samples rely on it (operator_contrib MseLoss: InferShape copies the input
          // shape, the program passes [1] for reduction="mean"). A warning, an error under
          // ASCSIM_STRICT=1.
          std::vector<int64_t> dims;
          for (size_t d = 0; d < s.GetDimNum(); ++d) dims.push_back(s.GetDim(d));
          const std::string message = std::string(api) + ": " + name + " has shape " +
                                      DimsText(t.view_dims) + ", " + op.op_type +
                                      "'s InferShape gives " + DimsText(dims);
          const runtime::LaunchSettings settings = runtime::Process::Get().Snapshot();
          if (settings.values.strict) {
            Throw(ACLNN_ERR_PARAM_INVALID, message + " [strict mode]");
          }
          if (*settings.warning_sink && runtime::Process::Get().FirstTime("aclnn-shape/" + message)) {
            (*settings.warning_sink)(message + "; the kernel runs on the given shape");
          }
        }
      }
      if (op.funcs.infer_data_type != nullptr && call.inferred_types[out] != ToGe(t.data_type)) {
        Throw(ACLNN_ERR_PARAM_INVALID,
              std::string(api) + ": " + name + " is " + TypeName(ToGe(t.data_type)) + ", " +
                  op.op_type + "'s InferDataType gives " + TypeName(call.inferred_types[out]));
      }
    }
  }
}

void Tiling(const char* api, const ResolvedOp& op, OpCall& call) {
  if (op.funcs.tiling == nullptr) {
    Throw(ACLNN_ERR_INNER_TILING_ERROR,
          std::string(api) + ": " + op.op_type +
              " has no TilingFunc (this->AICore().SetTiling, or IMPL_OP_OPTILING(...).Tiling)");
  }
  call.ResetTiling(op.funcs.max_tiling_data_size);
  struct CompileInfo {
    const ImplFuncs& f;
    void* info;
    ~CompileInfo() {
      if (info != nullptr && f.compile_info_deleter != nullptr) f.compile_info_deleter(info);
    }
  } compile_info{op.funcs, op.funcs.compile_info_creator != nullptr
                               ? op.funcs.compile_info_creator()
                               : nullptr};
  call.compile_info = compile_info.info;
  if (op.funcs.tiling_parse != nullptr) {
    using ParseFunc = uint32_t (*)(gert::TilingParseContext*);
    const auto parse = reinterpret_cast<ParseFunc>(op.funcs.tiling_parse);
    RunHostFunc(api, op, "TilingParse", ACLNN_ERR_INNER_TILING_ERROR,
                [&] { return parse(&call.tiling_parse_context); });
  }
  RunHostFunc(api, op, "TilingFunc", ACLNN_ERR_INNER_TILING_ERROR,
              [&] { return op.funcs.tiling(&call.tiling_context); });
  call.compile_info = nullptr;
  if (call.block_dim == 0) {
    Throw(ACLNN_ERR_INNER_TILING_ERROR,
          std::string(api) + ": " + op.op_type +
              "'s TilingFunc set no block dim (context->SetBlockDim(n), n >= 1)");
  }
  const gert::TilingData& td = *call.tiling_data;
  if (td.GetDataSize() > td.GetCapacity()) {
    Throw(ACLNN_ERR_INNER_TILING_ERROR,
          std::string(api) + ": " + op.op_type + "'s TilingFunc set a tiling data size of " +
              std::to_string(td.GetDataSize()) + " B, over the capacity of " +
              std::to_string(td.GetCapacity()) + " B (IMPL_OP_OPTILING(" + op.op_type +
              ").Tiling(func, size) sets it)");
  }
}

KernelVariant& FindVariant(const char* api, const ResolvedOp& op, OpPackage& pkg, size_t combo) {
  const std::vector<KernelVariant*>* variants = nullptr;
  try {
    variants = &pkg.Variants(op.op_type, op.soc);
  } catch (const std::exception& e) {
    Throw(ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND, std::string(api) + ": " + e.what());
  }
  for (KernelVariant* v : *variants) {
    bool same =
        v->input_types.size() == op.inputs.size() && v->output_types.size() == op.outputs.size();
    for (size_t i = 0; same && i < op.inputs.size(); ++i) {
      same = v->input_types[i] == op.inputs[i].types[combo] &&
             v->input_formats[i] == op.inputs[i].formats[combo];
    }
    for (size_t i = 0; same && i < op.outputs.size(); ++i) {
      same = v->output_types[i] == op.outputs[i].types[combo] &&
             v->output_formats[i] == op.outputs[i].formats[combo];
    }
    if (same) return *v;
  }
  Throw(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
        std::string(api) + ": the operator package " +
            (pkg.root().empty() ? std::string("of this process") : pkg.root()) +
            " has no kernel of " + op.op_type + " for " + ParamsText(op) + " = " +
            CombinationText(op, combo) + " on " + op.soc + " (rebuild and reinstall it)");
}

void CheckTilingKey(const char* api, const ResolvedOp& op, const KernelVariant& v, uint64_t key) {
  if (v.any_tiling_key ||
      std::find(v.tiling_keys.begin(), v.tiling_keys.end(), key) != v.tiling_keys.end()) {
    return;
  }
  std::string keys;
  for (uint64_t k : v.tiling_keys) keys += (keys.empty() ? "" : ", ") + std::to_string(k);
  Throw(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
        std::string(api) + ": " + op.op_type + "'s TilingFunc chose tiling key " +
            std::to_string(key) + ", but the kernel " + v.kernel_name +
            " was built for the keys of its TILING_KEY_IS branches: " + keys);
}

// ---------------------------------------------------------------- entry points

template <class F>
aclnnStatus Boundary(const char* api, F&& f) {
  try {
    f();
    return ACLNN_SUCCESS;
  } catch (const AclnnError& e) {
    acl::RecordError(e.message, e.code);
    return e.code;
  } catch (const std::exception& e) {
    acl::RecordError(std::string(api != nullptr ? api : "aclnn") + ": " + e.what(),
                     ACLNN_ERR_INNER);
    return ACLNN_ERR_INNER;
  }
}

std::vector<uint64_t> ListDescriptor(const TensorListArg& list) {
  // ascsim/aicore/list_tensor.h: [offset][per tensor: dim | index << 32, dims...][pointers].
  const size_t dim = list.dims[0].size();
  const size_t per = dim == 0 ? 2 : 1 + dim;
  std::vector<uint64_t> w;
  w.push_back((1 + per * list.dims.size()) * sizeof(uint64_t));
  for (size_t i = 0; i < list.dims.size(); ++i) {
    w.push_back(static_cast<uint64_t>(dim) | (static_cast<uint64_t>(i) << 32));
    if (dim == 0) {
      w.push_back(0xffffffffu);
    } else {
      for (int64_t d : list.dims[i]) w.push_back(static_cast<uint64_t>(d));
    }
  }
  for (void* p : list.data) w.push_back(reinterpret_cast<uintptr_t>(p));
  return w;
}

}  // namespace

aclnnStatus GetWorkspaceSize(const char* api, const char* op_type, OpPackage& pkg,
                             const AscsimAclnnArg* args, size_t num_args, uint64_t* workspace_size,
                             aclOpExecutor** executor) {
  return Boundary(api, [&] {
    if (api == nullptr || op_type == nullptr) {
      Throw(ACLNN_ERR_PARAM_NULLPTR, "ascsim_aclnn_get_workspace_size: api or op_type is nullptr");
    }
    if (workspace_size == nullptr) {
      Throw(ACLNN_ERR_PARAM_NULLPTR, std::string(api) + ": workspaceSize is nullptr");
    }
    if (executor == nullptr) {
      Throw(ACLNN_ERR_PARAM_NULLPTR, std::string(api) + ": executor is nullptr");
    }
    const ResolvedOp& op = Resolved(api, op_type);
    const CallArgs a = Collect(api, op, args, num_args, false);
    const size_t combo = ChooseCombination(api, op, a);
    OpCall call;
    FillCall(call, op, a, combo);
    Infer(api, op, call, a, combo, true);
    Tiling(api, op, call);
    KernelVariant& variant = FindVariant(api, op, pkg, combo);
    CheckTilingKey(api, op, variant, call.tiling_key);
    const AscsimOpKernel* entry = nullptr;
    try {
      entry = pkg.Load(variant);
    } catch (const std::exception& e) {
      Throw(ACLNN_ERR_INNER_FIND_KERNEL_ERROR, std::string(api) + ": " + e.what());
    }

    std::unique_ptr<aclOpExecutor> ex(new aclOpExecutor());
    ex->op_type = op.op_type;
    ex->variant = &variant;
    auto add = [&](const ResolvedParam& p, const std::vector<const aclTensor*>& ts,
                   std::vector<AddrRef>& refs) {
      if (p.kind == ParamKind::kDynamic && !ts.empty()) {
        TensorListArg list;
        list.slot = ex->args.size();
        for (size_t j = 0; j < ts.size(); ++j) {
          if (ts[j]->view_dims.size() != ts[0]->view_dims.size()) {
            Throw(ACLNN_ERR_PARAM_INVALID,
                  std::string(api) + ": " + p.name + "[" + std::to_string(j) + "] has " +
                      std::to_string(ts[j]->view_dims.size()) + " dims and " + p.name + "[0] " +
                      std::to_string(ts[0]->view_dims.size()) +
                      " (the tensors of a list share their rank)");
          }
          list.dims.push_back(ts[j]->view_dims);
          list.data.push_back(ts[j]->data);
          refs.push_back(AddrRef{static_cast<int>(ex->lists.size()), j});
        }
        ex->lists.push_back(list);
        ex->args.push_back(nullptr);
        return;
      }
      if (!ts.empty()) refs.push_back(AddrRef{-1, ex->args.size()});
      ex->args.push_back(ts.empty() ? nullptr : ts[0]->data);
    };
    for (size_t i = 0; i < op.inputs.size(); ++i) add(op.inputs[i], a.inputs[i], ex->inputs);
    for (size_t i = 0; i < op.outputs.size(); ++i) add(op.outputs[i], a.outputs[i], ex->outputs);
    ex->workspace_slot = ex->args.size();
    ex->args.push_back(nullptr);
    ex->tiling_slot = ex->args.size();
    ex->args.push_back(nullptr);
    if (entry->num_params != ex->args.size()) {
      Throw(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
            std::string(api) + ": the kernel " + variant.kernel_name + " takes " +
                std::to_string(entry->num_params) + " parameters; " + op.op_type +
                "'s OpDef gives " + std::to_string(ex->args.size()) +
                " (its inputs and outputs, then workspace and tiling)");
    }
    const gert::TilingData& td = *call.tiling_data;
    const uint8_t* bytes = static_cast<const uint8_t*>(td.GetData());
    ex->tiling.assign(bytes, bytes + td.GetDataSize());
    ex->block_dim = call.block_dim;
    ex->tiling_key = call.tiling_key;
    uint64_t total = 0;
    for (size_t i = 0; i < call.workspace_num; ++i) total += call.workspace_sizes[i];
    ex->workspace_size = total;
    *workspace_size = total;
    *executor = ex.release();
  });
}

aclnnStatus Run(const char* api, void* workspace, uint64_t workspace_size, aclOpExecutor* ex,
                aclrtStream stream) {
  return Boundary(api, [&] {
    if (api == nullptr) Throw(ACLNN_ERR_PARAM_NULLPTR, "ascsim_aclnn_run: api is nullptr");
    if (ex == nullptr) Throw(ACLNN_ERR_PARAM_NULLPTR, std::string(api) + ": executor is nullptr");
    if (!aclOpExecutor::IsLive(ex)) {
      Throw(ACLNN_ERR_PARAM_INVALID,
            std::string(api) +
                ": the executor was already run or destroyed (an executor runs "
                "once unless aclSetAclOpExecutorRepeatable made it repeatable; "
                "call " +
                api + "GetWorkspaceSize again for each run)");
    }
    std::unique_ptr<aclOpExecutor> owned(ex->repeatable ? nullptr : ex);
    if (ex->workspace_size > 0 && workspace == nullptr) {
      Throw(ACLNN_ERR_PARAM_NULLPTR, std::string(api) + ": workspace is nullptr (" +
                                         std::to_string(ex->workspace_size) + " B were asked for)");
    }
    if (workspace_size < ex->workspace_size) {
      Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": workspaceSize " +
                                         std::to_string(workspace_size) + " is less than the " +
                                         std::to_string(ex->workspace_size) + " B that " + api +
                                         "GetWorkspaceSize returned");
    }
    struct Buffers {
      std::vector<void*> ptrs;
      bool keep = false;
      ~Buffers() {
        if (!keep) {
          for (void* p : ptrs) DeviceFree(p);
        }
      }
      void* Copy(const void* src, size_t bytes) {
        void* p = DeviceMalloc(bytes);
        ptrs.push_back(p);
        std::memcpy(p, src, bytes);
        return p;
      }
    } buffers;
    std::vector<void*> args = ex->args;
    for (const TensorListArg& list : ex->lists) {
      const std::vector<uint64_t> words = ListDescriptor(list);
      args[list.slot] = buffers.Copy(words.data(), words.size() * sizeof(uint64_t));
    }
    // With no workspace asked for, the pointer a program passes is not the kernel's to use (the
    // AclNN samples pass `&workspace`, a host address, with size 0; the device never touches it);
    // the kernel gets no workspace, so a kernel that does use one faults at its first access.
    args[ex->workspace_slot] = ex->workspace_size > 0 ? workspace : nullptr;
    if (!ex->tiling.empty()) {
      args[ex->tiling_slot] = buffers.Copy(ex->tiling.data(), ex->tiling.size());
    }
    const std::shared_ptr<Stream> s = acl::ToStream(stream);  // throws for an unknown stream
    const int err = ex->variant->entry->launch(args.data(), static_cast<uint32_t>(args.size()),
                                               ex->block_dim, ex->tiling_key, stream);
    if (err != 0) {
      Throw(ACLNN_ERR_RUNTIME_ERROR, std::string(api) + ": the kernel " + ex->variant->kernel_name +
                                         " failed: " + acl::RecentError());
    }
    if (s != nullptr && !buffers.ptrs.empty()) {
      // Freed once the kernel ran: the stream's next task.
      std::vector<void*> ptrs = buffers.ptrs;
      buffers.keep = true;
      s->Enqueue([ptrs] {
        for (void* p : ptrs) DeviceFree(p);
      });
    }
  });
}

std::vector<InferredOutput> InferOutputs(const char* api, const char* op_type,
                                         const AscsimAclnnArg* args, size_t num_args) {
  std::vector<InferredOutput> result;
  const aclnnStatus status = Boundary(api, [&] {
    const ResolvedOp& op = Resolved(api, op_type);
    const CallArgs a = Collect(api, op, args, num_args, true);
    // The combination from the inputs alone.
    CallArgs inputs_only = a;
    for (auto& o : inputs_only.outputs) o.clear();
    const size_t combo = ChooseCombination(api, op, inputs_only);
    OpCall call;
    FillCall(call, op, inputs_only, combo);
    if (op.funcs.infer_shape == nullptr) {
      Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": " + op.op_type +
                                         " has no InferShape, so its output shapes are unknown "
                                         "(IMPL_OP_INFERSHAPE or this->SetInferShape)");
    }
    Infer(api, op, call, inputs_only, combo, false);
    size_t out = 0;
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      InferredOutput o;
      o.name = op.outputs[i].name;
      const gert::Shape& s = call.inferred_shapes[out];
      if (NotInferred(s)) {
        Throw(ACLNN_ERR_PARAM_INVALID, std::string(api) + ": " + op.op_type +
                                           "'s InferShape sets no shape for output " + o.name +
                                           "; pass the outputs (out=)");
      }
      for (size_t d = 0; d < s.GetDimNum(); ++d) o.shape.push_back(s.GetDim(d));
      o.data_type = call.inferred_types[out];
      out += call.ir_outputs[i].GetInstanceNum();
      result.push_back(o);
    }
  });
  if (status != ACLNN_SUCCESS) throw InvalidArgument(acl::RecentError());
  return result;
}

}  // namespace ascsim::op

// ---------------------------------------------------------------- C entry points

aclnnStatus ascsim_aclnn_get_workspace_size(const char* api, const char* op_type,
                                            const void* locator, const AscsimAclnnArg* args,
                                            size_t num_args, uint64_t* workspace_size,
                                            aclOpExecutor** executor) {
  ascsim::op::OpPackage* pkg = nullptr;
  const aclnnStatus status = ascsim::op::Boundary(api, [&] {
    try {
      pkg = locator != nullptr ? &ascsim::op::OpPackage::Containing(locator)
                               : &ascsim::op::OpPackage::InProcess();
    } catch (const std::exception& e) {
      ascsim::op::Throw(ACLNN_ERR_INNER_OPP_PATH_NOT_FOUND,
                        std::string(api != nullptr ? api : "aclnn") + ": " + e.what());
    }
  });
  if (status != ACLNN_SUCCESS) return status;
  return ascsim::op::GetWorkspaceSize(api, op_type, *pkg, args, num_args, workspace_size, executor);
}

aclnnStatus ascsim_aclnn_run(const char* api, void* workspace, uint64_t workspace_size,
                             aclOpExecutor* executor, aclrtStream stream) {
  return ascsim::op::Run(api, workspace, workspace_size, executor, stream);
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  if (executor == nullptr) {
    ascsim::acl::RecordError("aclSetAclOpExecutorRepeatable: executor is nullptr",
                             ACLNN_ERR_PARAM_NULLPTR);
    return ACLNN_ERR_PARAM_NULLPTR;
  }
  executor->repeatable = true;
  return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  if (executor != nullptr && !aclOpExecutor::IsLive(executor)) {
    ascsim::acl::RecordError(
        "aclDestroyAclOpExecutor: the executor was already run (not repeatable) or destroyed",
        ACLNN_ERR_PARAM_INVALID);
    return ACLNN_ERR_PARAM_INVALID;
  }
  delete executor;
  return ACLNN_SUCCESS;
}

namespace {
aclnnStatus SetAddr(const char* api, aclOpExecutor* executor, size_t index, aclTensor* tensor,
                    void* addr, bool input) {
  if (executor == nullptr) {
    ascsim::acl::RecordError(std::string(api) + ": executor is nullptr", ACLNN_ERR_PARAM_NULLPTR);
    return ACLNN_ERR_PARAM_NULLPTR;
  }
  std::vector<AddrRef>& refs = input ? executor->inputs : executor->outputs;
  if (index >= refs.size()) {
    ascsim::acl::RecordError(std::string(api) + ": index " + std::to_string(index) +
                                 " is past the " + std::to_string(refs.size()) +
                                 (input ? " input" : " output") + " tensors of the executor",
                             ACLNN_ERR_PARAM_INVALID);
    return ACLNN_ERR_PARAM_INVALID;
  }
  if (tensor != nullptr) tensor->data = addr;
  const AddrRef& r = refs[index];
  if (r.list < 0) {
    executor->args[r.slot] = addr;
  } else {
    executor->lists[static_cast<size_t>(r.list)].data[r.slot] = addr;
  }
  return ACLNN_SUCCESS;
}
}  // namespace

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                  void* addr) {
  return SetAddr("aclSetInputTensorAddr", executor, index, tensor, addr, true);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                   void* addr) {
  return SetAddr("aclSetOutputTensorAddr", executor, index, tensor, addr, false);
}
