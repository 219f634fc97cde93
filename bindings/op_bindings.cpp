#include "op_bindings.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "ascsim/aclnn_op.h"
#include "ascsim/error.h"
#include "ascsim/op_tools.h"
#include "ascsim/runtime.h"
#include "ascsim/soc.h"
#include "op/aclnn/executor.h"
#include "op/aclnn/op_package.h"
#include "op/op_resolve.h"
#include "stream.h"

namespace py = pybind11;

namespace ascsim_py {
namespace {

using ascsim::InvalidArgument;
using ascsim::op::AttrKind;
using ascsim::op::ParamKind;
using ascsim::op::ResolvedOp;

// The NumPy dtypes with a CANN data type of the same number (ge::DataType and aclDataType agree
// on these: graph/types.h, acl/acl_base.h).
struct DtypeEntry {
  const char* numpy;
  int acl;
};
constexpr DtypeEntry kDtypes[] = {
    {"float32", ACL_FLOAT}, {"float16", ACL_FLOAT16}, {"int8", ACL_INT8},
    {"int32", ACL_INT32},   {"uint8", ACL_UINT8},     {"int16", ACL_INT16},
    {"uint16", ACL_UINT16}, {"uint32", ACL_UINT32},   {"int64", ACL_INT64},
    {"uint64", ACL_UINT64}, {"float64", ACL_DOUBLE},  {"bool", ACL_BOOL},
};

int AclTypeOf(const py::dtype& dt, const std::string& what) {
  const std::string name = py::str(static_cast<const py::handle&>(dt));
  for (const DtypeEntry& e : kDtypes) {
    if (name == e.numpy) return e.acl;
  }
  throw InvalidArgument(what + " has dtype " + name + ", which no CANN data type matches");
}

// NumPy has no bfloat16: a "bfloat16" dtype (ml_dtypes) is one, and so are the uint16 bits of
// one given for a parameter that takes DT_BF16 and not DT_UINT16 (the convention of ascsim.load
// and ascsim.torch: bfloat16 travels as its bits).
int AclTypeFor(const py::dtype& dt, const std::vector<ge::DataType>& types,
               const std::string& what) {
  const std::string name = py::str(static_cast<const py::handle&>(dt));
  if (name == "bfloat16" && dt.itemsize() == 2) return ACL_BF16;
  if (name == "uint16") {
    const bool bf16 = std::find(types.begin(), types.end(), ge::DT_BF16) != types.end();
    const bool u16 = std::find(types.begin(), types.end(), ge::DT_UINT16) != types.end();
    if (bf16 && !u16) return ACL_BF16;
  }
  return AclTypeOf(dt, what);
}

// A bfloat16 output comes back as its uint16 bits.
py::dtype NumpyTypeOf(int acl, const std::string& what) {
  if (acl == ACL_BF16) return py::dtype("uint16");
  for (const DtypeEntry& e : kDtypes) {
    if (e.acl == acl) return py::dtype(e.numpy);
  }
  throw InvalidArgument(what + " has data type " + std::to_string(acl) +
                        ", which NumPy has no dtype for; pass out= arrays of a NumPy type or use "
                        "another data type combination");
}

const char* KindName(ParamKind k) {
  return k == ParamKind::kRequired   ? "required"
         : k == ParamKind::kOptional ? "optional"
                                     : "dynamic";
}

py::object AttrDefault(const ascsim::op::ResolvedAttr& a) {
  if (!a.has_default) return py::none();
  switch (a.kind) {
    case AttrKind::kBool:
      return py::bool_(a.bool_value);
    case AttrKind::kFloat:
      return py::float_(a.float_value);
    case AttrKind::kInt:
      return py::int_(a.int_value);
    case AttrKind::kString:
      return py::str(a.str_value);
    case AttrKind::kListBool:
      return py::cast(std::vector<bool>(a.list_bool.begin(), a.list_bool.end()));
    case AttrKind::kListFloat:
      return py::cast(a.list_float);
    case AttrKind::kListInt:
      return py::cast(a.list_int);
    case AttrKind::kListListInt:
      return py::cast(a.list_list_int);
  }
  return py::none();
}

ResolvedOp Resolve(const std::string& root, const std::string& op_type) {
  ascsim::op::OpPackage::At(root);  // loads the host library: registers the operators
  return ascsim::op::ResolveOp(op_type, ascsim::op::ShortSocName(ascsim::CurrentSoc().name));
}

py::dict Signature(const std::string& root, const std::string& op_type) {
  const ResolvedOp op = Resolve(root, op_type);
  py::dict d;
  d["op_type"] = op.op_type;
  d["soc"] = op.soc;
  auto params = [](const std::vector<ascsim::op::ResolvedParam>& ps) {
    py::list l;
    for (const auto& p : ps) {
      py::dict e;
      e["name"] = p.name;
      e["kind"] = KindName(p.kind);
      std::vector<int> types;
      for (ge::DataType t : p.types) types.push_back(static_cast<int>(t));
      e["types"] = types;
      l.append(e);
    }
    return l;
  };
  d["inputs"] = params(op.inputs);
  d["outputs"] = params(op.outputs);
  py::list attrs;
  for (const auto& a : op.attrs) {
    py::dict e;
    e["name"] = a.name;
    e["kind"] = ascsim::op::AttrKindName(a.kind);
    e["required"] = a.required;
    e["default"] = AttrDefault(a);
    attrs.append(e);
  }
  d["attrs"] = attrs;
  return d;
}

// Everything one call allocates, released whatever happens.
struct CallResources {
  std::vector<void*> device;
  std::vector<const aclTensor*> tensors;
  std::vector<const aclIntArray*> int_arrays;
  std::vector<const aclFloatArray*> float_arrays;
  std::vector<const aclBoolArray*> bool_arrays;
  std::vector<const aclTensorList*> tensor_lists;  // each owns its tensors
  ~CallResources() {
    for (const aclTensorList* l : tensor_lists) aclDestroyTensorList(l);
    for (const aclTensor* t : tensors) aclDestroyTensor(t);
    for (const aclIntArray* a : int_arrays) aclDestroyIntArray(a);
    for (const aclFloatArray* a : float_arrays) aclDestroyFloatArray(a);
    for (const aclBoolArray* a : bool_arrays) aclDestroyBoolArray(a);
    for (void* p : device) aclrtFree(p);
  }
  void* Malloc(size_t bytes) {
    void* p = nullptr;
    if (aclrtMalloc(&p, bytes == 0 ? 1 : bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      throw ascsim::OutOfDeviceMemory(aclGetRecentErrMsg());
    }
    device.push_back(p);
    return p;
  }
  // `acl`: the CANN data type (AclTypeFor); `owned`: false for a tensor a list will own.
  const aclTensor* Tensor(const py::array& a, const std::string& what, bool copy_in, int acl,
                          bool owned = true) {
    std::vector<int64_t> dims(a.shape(), a.shape() + a.ndim());
    void* dev = Malloc(static_cast<size_t>(a.nbytes()));
    if (copy_in && a.nbytes() > 0) {
      aclrtMemcpy(dev, a.nbytes(), a.data(), a.nbytes(), ACL_MEMCPY_HOST_TO_DEVICE);
    }
    const aclTensor* t = aclCreateTensor(dims.data(), dims.size(), static_cast<aclDataType>(acl),
                                         nullptr, 0, ACL_FORMAT_ND, dims.data(), dims.size(), dev);
    if (t == nullptr) throw InvalidArgument(what + ": " + aclGetRecentErrMsg());
    if (owned) tensors.push_back(t);
    return t;
  }
};

py::array Contiguous(py::handle obj, const std::string& what) {
  if (!py::isinstance<py::array>(obj)) {
    throw InvalidArgument(what + " must be a numpy.ndarray, not " +
                          std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  return py::array::ensure(obj, py::array::c_style);
}

AscsimAclnnArg AttrArg(const ascsim::op::ResolvedAttr& a, py::handle v, const std::string& what,
                       CallResources& res, std::vector<std::string>& strings) {
  AscsimAclnnArg arg{};
  arg.name = nullptr;
  try {
    switch (a.kind) {
      case AttrKind::kBool:
        arg.kind = ASCSIM_ACLNN_BOOL;
        arg.i = v.cast<bool>() ? 1 : 0;
        break;
      case AttrKind::kFloat:
        arg.kind = ASCSIM_ACLNN_FLOAT;
        arg.f = v.cast<double>();
        break;
      case AttrKind::kInt:
        arg.kind = ASCSIM_ACLNN_INT;
        arg.i = v.cast<int64_t>();
        break;
      case AttrKind::kString:
        arg.kind = ASCSIM_ACLNN_STRING;
        strings.push_back(v.cast<std::string>());
        arg.ptr = nullptr;  // set once `strings` stops growing
        arg.i = static_cast<int64_t>(strings.size() - 1);
        break;
      case AttrKind::kListInt: {
        arg.kind = ASCSIM_ACLNN_INT_ARRAY;
        const auto values = v.cast<std::vector<int64_t>>();
        const aclIntArray* p = aclCreateIntArray(values.data(), values.size());
        res.int_arrays.push_back(p);
        arg.ptr = p;
        break;
      }
      case AttrKind::kListFloat: {
        arg.kind = ASCSIM_ACLNN_FLOAT_ARRAY;
        const auto values = v.cast<std::vector<float>>();
        const aclFloatArray* p = aclCreateFloatArray(values.data(), values.size());
        res.float_arrays.push_back(p);
        arg.ptr = p;
        break;
      }
      case AttrKind::kListBool: {
        arg.kind = ASCSIM_ACLNN_BOOL_ARRAY;
        const auto values = v.cast<std::vector<bool>>();
        std::unique_ptr<bool[]> flat(new bool[values.size() + 1]);
        for (size_t i = 0; i < values.size(); ++i) flat[i] = values[i];
        const aclBoolArray* p = aclCreateBoolArray(flat.get(), values.size());
        res.bool_arrays.push_back(p);
        arg.ptr = p;
        break;
      }
      case AttrKind::kListListInt:
        throw InvalidArgument(what +
                              " is a ListListInt attribute, which the aclnn API has no "
                              "argument form for");
    }
  } catch (const py::cast_error&) {
    throw InvalidArgument(what + " must be " + ascsim::op::AttrKindName(a.kind) + ", not " +
                          std::string(py::str(py::type::of(v).attr("__name__"))));
  }
  return arg;
}

// One call of the operator: validation, InferShape, TilingFunc and the kernel through the same
// executor the generated aclnn<Op>GetWorkspaceSize / aclnn<Op> use.
py::list Call(const std::string& root, const std::string& op_type, const std::string& api,
              const py::list& inputs, const py::list& attrs, const py::object& outs,
              const py::object& stream) {
  CheckStreamArgument(stream, api);
  ascsim::op::OpPackage& package = ascsim::op::OpPackage::At(root);
  const ResolvedOp op = Resolve(root, op_type);
  if (inputs.size() != op.inputs.size() || attrs.size() != op.attrs.size()) {
    throw InvalidArgument(api + ": " + std::to_string(inputs.size()) + " inputs and " +
                          std::to_string(attrs.size()) + " attributes for " + op_type + "'s " +
                          std::to_string(op.inputs.size()) + " and " +
                          std::to_string(op.attrs.size()));
  }
  // Shared with a launch queued on a Stream, which may outlive this call.
  const auto res_owner = std::make_shared<CallResources>();
  CallResources& res = *res_owner;
  std::vector<AscsimAclnnArg> args;
  std::vector<std::string> strings;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const std::string what = api + ": input " + op.inputs[i].name;
    AscsimAclnnArg a{};
    a.kind = ASCSIM_ACLNN_TENSOR;
    if (op.inputs[i].kind == ParamKind::kDynamic) {
      // A tensor list: a list or tuple of arrays, one aclTensorList as aclCreateTensorList makes.
      if (!py::isinstance<py::list>(inputs[i]) && !py::isinstance<py::tuple>(inputs[i])) {
        throw InvalidArgument(what +
                              " is a dynamic input: pass a list or tuple of numpy.ndarray, "
                              "not " +
                              std::string(py::str(py::type::of(inputs[i]).attr("__name__"))));
      }
      const py::sequence items = inputs[i];
      if (items.size() == 0) throw InvalidArgument(what + " is an empty list");
      std::vector<const aclTensor*> members;
      std::vector<std::unique_ptr<const aclTensor, aclnnStatus (*)(const aclTensor*)>> pending;
      for (size_t j = 0; j < items.size(); ++j) {
        const std::string item = what + "[" + std::to_string(j) + "]";
        const py::array arr = Contiguous(items[j], item);
        const aclTensor* t =
            res.Tensor(arr, item, true, AclTypeFor(arr.dtype(), op.inputs[i].types, item), false);
        pending.emplace_back(t, &aclDestroyTensor);
        members.push_back(t);
      }
      const aclTensorList* list = aclCreateTensorList(members.data(), members.size());
      if (list == nullptr) throw InvalidArgument(what + ": " + aclGetRecentErrMsg());
      for (auto& p : pending) (void)p.release();  // the list owns them now
      res.tensor_lists.push_back(list);
      a.kind = ASCSIM_ACLNN_TENSOR_LIST;
      a.ptr = list;
      args.push_back(a);
      continue;
    }
    if (!inputs[i].is_none()) {
      const py::array arr = Contiguous(inputs[i], what);
      a.ptr = res.Tensor(arr, what, true, AclTypeFor(arr.dtype(), op.inputs[i].types, what));
    }
    args.push_back(a);
  }
  for (size_t i = 0; i < op.attrs.size(); ++i) {
    args.push_back(
        AttrArg(op.attrs[i], attrs[i], api + ": attribute " + op.attrs[i].name, res, strings));
  }
  for (AscsimAclnnArg& a : args) {
    if (a.kind == ASCSIM_ACLNN_STRING) a.ptr = strings[static_cast<size_t>(a.i)].c_str();
  }
  // The outputs: given, else shaped and typed by InferShape / InferDataType.
  std::vector<py::array> out_arrays;
  std::vector<int> out_types;
  if (!outs.is_none()) {
    const py::list given = outs;
    if (given.size() != op.outputs.size()) {
      throw InvalidArgument(api + ": out= has " + std::to_string(given.size()) + " arrays for " +
                            op_type + "'s " + std::to_string(op.outputs.size()) + " outputs");
    }
    for (size_t i = 0; i < given.size(); ++i) {
      const std::string what = api + ": out " + op.outputs[i].name;
      py::array a = Contiguous(given[i], what);
      if (!a.writeable() || a.ptr() != given[i].ptr()) {
        throw InvalidArgument(what + " must be a writeable C-contiguous numpy.ndarray");
      }
      out_types.push_back(AclTypeFor(a.dtype(), op.outputs[i].types, what));
      out_arrays.push_back(a);
    }
  } else {
    std::vector<AscsimAclnnArg> infer_args = args;
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      AscsimAclnnArg a{};
      a.kind = ASCSIM_ACLNN_TENSOR;
      infer_args.push_back(a);
    }
    const auto inferred = ascsim::op::InferOutputs(api.c_str(), op_type.c_str(), infer_args.data(),
                                                   infer_args.size());
    for (const auto& o : inferred) {
      out_arrays.push_back(
          py::array(NumpyTypeOf(static_cast<int>(o.data_type), api + ": output " + o.name),
                    std::vector<py::ssize_t>(o.shape.begin(), o.shape.end())));
      out_types.push_back(static_cast<int>(o.data_type));
    }
  }
  std::vector<const aclTensor*> out_tensors;
  for (size_t i = 0; i < out_arrays.size(); ++i) {
    AscsimAclnnArg a{};
    a.kind = ASCSIM_ACLNN_TENSOR;
    a.ptr = res.Tensor(out_arrays[i], api + ": output " + op.outputs[i].name, !outs.is_none(),
                       out_types[i]);
    out_tensors.push_back(static_cast<const aclTensor*>(a.ptr));
    args.push_back(a);
  }
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  if (ascsim::op::GetWorkspaceSize(api.c_str(), op_type.c_str(), package, args.data(), args.size(),
                                   &workspace_size, &executor) != 0) {
    throw InvalidArgument(aclGetRecentErrMsg());
  }
  void* workspace = workspace_size > 0 ? res.Malloc(workspace_size) : nullptr;
  struct CopyOut {
    void* host;
    const aclTensor* tensor;
    size_t bytes;
  };
  std::vector<CopyOut> copies;
  for (size_t i = 0; i < out_arrays.size(); ++i) {
    copies.push_back({out_arrays[i].mutable_data(), out_tensors[i],
                      static_cast<size_t>(out_arrays[i].nbytes())});
  }
  // The launch and the copy of the outputs back, as one task: run now (stream None), or queued
  // on the ascsim.Stream, in order with its other work, the outputs valid after synchronize().
  // The kernel runs on an ACL stream of its own, which the task waits for.
  auto body = [api, workspace, workspace_size, executor, copies, res_owner] {
    aclrtStream acl_stream = nullptr;
    if (aclrtCreateStream(&acl_stream) != ACL_SUCCESS) throw InvalidArgument(aclGetRecentErrMsg());
    struct Destroy {
      aclrtStream s;
      ~Destroy() { aclrtDestroyStream(s); }
    } destroy{acl_stream};
    if (ascsim::op::Run(api.c_str(), workspace, workspace_size, executor, acl_stream) != 0) {
      throw InvalidArgument(aclGetRecentErrMsg());
    }
    // A kernel fault is rethrown here as the error it is (OutOfBounds, a sanitizer report, ...).
    static_cast<ascsim::Stream*>(acl_stream)->Synchronize();
    for (const CopyOut& c : copies) {
      void* dev = nullptr;
      aclGetRawTensorAddr(c.tensor, &dev);
      if (c.bytes > 0) aclrtMemcpy(c.host, c.bytes, dev, c.bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    }
  };
  if (stream.is_none()) {
    py::gil_scoped_release release;
    body();
  } else {
    KeepAlive keep;
    for (py::array& a : out_arrays) keep.objects.push_back(a);
    // The device memory and tensors, released (GIL held) once a synchronize covers the task.
    keep.objects.push_back(py::capsule(new std::shared_ptr<CallResources>(res_owner), [](void* p) {
      delete static_cast<std::shared_ptr<CallResources>*>(p);
    }));
    Submit(
        stream, api, [body](ascsim::Stream* s) { s->Enqueue(body); }, std::move(keep));
  }
  py::list result;
  for (py::array& a : out_arrays) result.append(a);
  return result;
}

// Shapes and data types only, for ascsim.torch's fake (meta) implementations: InferShape /
// InferDataType on tensors that have no memory (InferOutputs takes inputs without data), with no
// TilingFunc, kernel or device memory. `inputs` holds, per input, None or (shape, CANN data type
// number); `attrs` as for Call. Returns (shape, data type number) per output.
py::list InferMeta(const std::string& root, const std::string& op_type, const std::string& api,
                   const py::list& inputs, const py::list& attrs) {
  const ResolvedOp op = Resolve(root, op_type);
  if (inputs.size() != op.inputs.size() || attrs.size() != op.attrs.size()) {
    throw InvalidArgument(api + ": " + std::to_string(inputs.size()) + " inputs and " +
                          std::to_string(attrs.size()) + " attributes for " + op_type + "'s " +
                          std::to_string(op.inputs.size()) + " and " +
                          std::to_string(op.attrs.size()));
  }
  CallResources res;
  std::vector<AscsimAclnnArg> args;
  std::vector<std::string> strings;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const std::string what = api + ": input " + op.inputs[i].name;
    if (op.inputs[i].kind == ParamKind::kDynamic) {
      throw InvalidArgument(what +
                            " is a dynamic input (a tensor list), which has no shape-only "
                            "inference here");
    }
    AscsimAclnnArg a{};
    a.kind = ASCSIM_ACLNN_TENSOR;
    if (!inputs[i].is_none()) {
      if (op.inputs[i].value_depend) {
        // Its host code reads the values (ValueDepend), which a shape-only call does not have.
        throw InvalidArgument(what +
                              " is ValueDepend (the operator's host code reads its "
                              "values), so its outputs cannot be inferred from shapes");
      }
      const py::tuple meta = inputs[i].cast<py::tuple>();
      std::vector<int64_t> dims = meta[0].cast<std::vector<int64_t>>();
      const aclTensor* t =
          aclCreateTensor(dims.data(), dims.size(), static_cast<aclDataType>(meta[1].cast<int>()),
                          nullptr, 0, ACL_FORMAT_ND, dims.data(), dims.size(), nullptr);
      if (t == nullptr) throw InvalidArgument(what + ": " + aclGetRecentErrMsg());
      res.tensors.push_back(t);
      a.ptr = t;
    }
    args.push_back(a);
  }
  for (size_t i = 0; i < op.attrs.size(); ++i) {
    args.push_back(
        AttrArg(op.attrs[i], attrs[i], api + ": attribute " + op.attrs[i].name, res, strings));
  }
  for (AscsimAclnnArg& a : args) {
    if (a.kind == ASCSIM_ACLNN_STRING) a.ptr = strings[static_cast<size_t>(a.i)].c_str();
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    AscsimAclnnArg a{};
    a.kind = ASCSIM_ACLNN_TENSOR;
    args.push_back(a);
  }
  py::list result;
  for (const auto& o :
       ascsim::op::InferOutputs(api.c_str(), op_type.c_str(), args.data(), args.size())) {
    result.append(py::make_tuple(py::cast(o.shape), static_cast<int>(o.data_type)));
  }
  return result;
}

int Tool(const std::string& name, const std::vector<std::string>& argv) {
  std::vector<std::string> storage = argv;
  storage.insert(storage.begin(), name);
  std::vector<char*> c;
  for (std::string& s : storage) c.push_back(&s[0]);
  c.push_back(nullptr);
  if (name == "op_build") return ascsim_op_build_main(static_cast<int>(c.size() - 1), c.data());
  if (name == "opc") return ascsim_opc_main(static_cast<int>(c.size() - 1), c.data());
  throw InvalidArgument("no tool " + name + " (op_build, opc)");
}

}  // namespace

void RegisterOps(py::module_& m) {
  m.def("_op_signature", &Signature, py::arg("root"), py::arg("op_type"));
  m.def("_op_call", &Call, py::arg("root"), py::arg("op_type"), py::arg("api"), py::arg("inputs"),
        py::arg("attrs"), py::arg("outs"), py::arg("stream") = py::none());
  m.def("_op_infer_meta", &InferMeta, py::arg("root"), py::arg("op_type"), py::arg("api"),
        py::arg("inputs"), py::arg("attrs"));
  m.def("_op_tool", &Tool, py::arg("name"), py::arg("argv"));
}

}  // namespace ascsim_py
