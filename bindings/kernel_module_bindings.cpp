#include "kernel_module_bindings.h"

#include <dlfcn.h>
#include <pybind11/numpy.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ascsim/error.h"
#include "ascsim/half.h"
#include "ascsim/kernel_module.h"
#include "ascsim/version.h"
#include "device_arrays.h"
#include "stream.h"

namespace py = pybind11;
using ascsim::InvalidArgument;
using ascsim::module::KernelInfo;
using ascsim::module::ModuleTable;
using ascsim::module::ParamInfo;
using ascsim::module::ParamKind;

namespace ascsim_py {
namespace {

std::string TypeNameOf(py::handle obj) {
  return py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>();
}
std::string Repr(py::handle obj) { return py::repr(obj).cast<std::string>(); }

// An opened kernel module. The library is never closed: launches queued on streams, traces and
// warnings may still point into it, and dlclose would not unload a library that libascsim's
// thread-local state references anyway.
class KernelLibrary {
 public:
  explicit KernelLibrary(const std::string& path) : path_(path) {
    // RTLD_LOCAL: two modules may define kernels of the same name. libascsim.so is shared with
    // _core through its soname, so there is one runtime.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      throw InvalidArgument("cannot load kernel module " + path + ": " +
                            (why != nullptr ? why : "dlopen failed"));
    }
    using TableFn = const ModuleTable* (*)();
    auto fn = reinterpret_cast<TableFn>(dlsym(handle, ASCSIM_MODULE_TABLE_SYMBOL));
    if (fn == nullptr) {
      throw InvalidArgument(path + " is not an ascsim kernel module (no " +
                            ASCSIM_MODULE_TABLE_SYMBOL + " symbol)");
    }
    table_ = fn();
    if (table_ == nullptr || table_->abi_version != ascsim::module::kAbiVersion ||
        table_->kernel_info_size != sizeof(KernelInfo)) {
      throw InvalidArgument(path + " was built for another kernel-module ABI (module " +
                            std::to_string(table_ ? table_->abi_version : 0) + ", ascsim " +
                            (table_ && table_->ascsim_version ? table_->ascsim_version : "?") +
                            "; this is " + std::to_string(ascsim::module::kAbiVersion) +
                            ", ascsim " + ASCSIM_VERSION_STRING + "): rebuild it");
    }
  }

  const std::string& path() const { return path_; }
  std::string built_with() const {
    return table_->ascsim_version != nullptr ? table_->ascsim_version : "";
  }
  size_t size() const { return table_->num_kernels; }
  const KernelInfo& kernel(size_t i) const {
    if (i >= table_->num_kernels) throw InvalidArgument("kernel index out of range");
    return table_->kernels[i];
  }

 private:
  std::string path_;
  const ModuleTable* table_ = nullptr;
};

const char* KindName(ParamKind kind) {
  switch (kind) {
    case ParamKind::kPointer:
      return "pointer";
    case ParamKind::kSigned:
      return "int";
    case ParamKind::kUnsigned:
      return "uint";
    case ParamKind::kBool:
      return "bool";
    case ParamKind::kFloat:
      return "float";
    case ParamKind::kHalf:
      return "half";
    case ParamKind::kBFloat16:
      return "bfloat16";
    case ParamKind::kStruct:
      return "struct";
  }
  return "?";
}

py::list Describe(const KernelLibrary& lib) {
  py::list out;
  for (size_t i = 0; i < lib.size(); ++i) {
    const KernelInfo& k = lib.kernel(i);
    py::list params;
    for (uint32_t p = 0; p < k.num_params; ++p) {
      const ParamInfo& info = k.params[p];
      py::dict d;
      d["name"] = info.name;
      d["type"] = info.type;
      d["kind"] = KindName(info.kind);
      d["size"] = info.size;
      if (info.kind == ParamKind::kPointer) {
        d["pointee_kind"] = KindName(info.pointee_kind);
        d["pointee_size"] = info.pointee_size;
        d["const"] = (info.flags & ascsim::module::kPointeeConst) != 0;
      }
      params.append(d);
    }
    py::dict kd;
    kd["name"] = k.name;
    kd["params"] = params;
    kd["compiled_arch"] = k.compiled_arch;
    out.append(kd);
  }
  return out;
}

// Where an argument goes in error messages: "my_kernel: argument 'x' (GM_ADDR)".
std::string Where(const KernelInfo& k, const ParamInfo& p) {
  return std::string(k.name) + ": argument '" + p.name + "' (" + p.type + ")";
}

// True when an array of `dtype` may back a `__gm__ T*` of this pointee: byte pointers
// (GM_ADDR, int8_t*, void*) and structs take any dtype; typed pointers need the same size and
// a matching kind.
bool DtypeFits(const ParamInfo& p, const py::dtype& dtype) {
  if (p.pointee_size <= 1 || p.pointee_kind == ParamKind::kStruct) return true;
  if (static_cast<uint32_t>(dtype.itemsize()) != p.pointee_size) return false;
  const char kind = dtype.kind();
  switch (p.pointee_kind) {
    case ParamKind::kFloat:
    case ParamKind::kHalf:
      return kind == 'f';
    case ParamKind::kBFloat16:
      return true;  // NumPy has no bfloat16: any 2-byte dtype (uint16 bits, ml_dtypes.bfloat16)
    case ParamKind::kSigned:
    case ParamKind::kUnsigned:
      return kind == 'i' || kind == 'u';
    case ParamKind::kBool:
      return kind == 'b' || kind == 'u' || kind == 'i';
    default:
      return true;
  }
}

std::string PointeeName(const ParamInfo& p) {
  switch (p.pointee_kind) {
    case ParamKind::kFloat:
      return p.pointee_size == 4 ? "float32" : "float64";
    case ParamKind::kHalf:
      return "float16";
    case ParamKind::kBFloat16:
      return "a 2-byte dtype (bfloat16 bits)";
    case ParamKind::kSigned:
      return "int" + std::to_string(p.pointee_size * 8);
    case ParamKind::kUnsigned:
      return "uint" + std::to_string(p.pointee_size * 8);
    case ParamKind::kBool:
      return "bool";
    default:
      return "any dtype";
  }
}

// A GM argument: a C-contiguous NumPy array (the kernel reads and writes it in place; no copy),
// or None for a null pointer (an unused workspace).
void ConvertPointer(const KernelInfo& k, const ParamInfo& p, py::handle obj,
                    std::vector<unsigned char>& out, std::vector<InputArray>& arrays) {
  void* ptr = nullptr;
  if (!obj.is_none()) {
    if (!py::isinstance<py::array>(obj)) {
      throw InvalidArgument(Where(k, p) +
                            ": expected a NumPy array (GM memory the kernel reads "
                            "and writes in place) or None, got " +
                            TypeNameOf(obj));
    }
    py::array a = py::reinterpret_borrow<py::array>(obj);
    if (a.dtype().attr("hasobject").cast<bool>()) {
      // The kernel would read and write PyObject pointers: the interpreter crashes.
      throw InvalidArgument(Where(k, p) + ": dtype " + py::str(a.dtype()).cast<std::string>() +
                            " holds Python objects, which are not device data");
    }
    if ((a.flags() & py::array::c_style) == 0 || !a.attr("flags").attr("aligned").cast<bool>()) {
      throw InvalidArgument(Where(k, p) +
                            ": the array must be C-contiguous and aligned (the "
                            "kernel's writes must land in it): pass np.ascontiguousarray(...)");
    }
    if (!a.dtype().attr("isnative").cast<bool>() || !DtypeFits(p, a.dtype())) {
      throw InvalidArgument(Where(k, p) + ": dtype " + py::str(a.dtype()).cast<std::string>() +
                            " does not match the kernel's element type; expected " +
                            PointeeName(p));
    }
    if (!a.writeable()) {
      // A kernel may write through every GM pointer that is not const; a read-only array
      // (np.frombuffer of bytes, a read-only mmap) would be corrupted or fault the process.
      if ((p.flags & ascsim::module::kPointeeConst) == 0) {
        throw InvalidArgument(Where(k, p) +
                              ": the array is read-only (flags.writeable is False) and the "
                              "kernel may write through this parameter; pass a writable copy "
                              "(np.array(x)) or declare the parameter const");
      }
      // Read through a const pointer: the kernel gets a private copy, as the device gets the
      // host's bytes, so even a kernel that casts const away cannot reach the read-only memory.
      a = py::array(a.dtype(), std::vector<py::ssize_t>(a.shape(), a.shape() + a.ndim()),
                    a.data());  // no base: pybind11 copies
    }
    ptr = const_cast<void*>(a.data());
    if (a.nbytes() > 0) {
      InputArray in;
      in.type = ascsim::kernels::ElementType::kFloat32;  // unused here
      in.data = ptr;
      in.bytes = static_cast<size_t>(a.nbytes());
      in.size = static_cast<uint64_t>(a.size());
      OwnerBounds(a, &in.owner_begin, &in.owner_end);
      in.array = std::move(a);
      arrays.push_back(std::move(in));
    }
  }
  out.resize(sizeof(void*));
  std::memcpy(out.data(), &ptr, sizeof(void*));
}

template <class T>
void Store(std::vector<unsigned char>& out, T value) {
  out.resize(sizeof(T));
  std::memcpy(out.data(), &value, sizeof(T));
}

void ConvertInteger(const KernelInfo& k, const ParamInfo& p, py::handle obj,
                    std::vector<unsigned char>& out) {
  const bool is_signed = p.kind == ParamKind::kSigned;
  const unsigned bits = p.size * 8;
  const std::string range =
      is_signed
          ? "[" + std::to_string(bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1))) + ", " +
                std::to_string(bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1) + "]"
          : "[0, " + std::to_string(bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1) + "]";
  auto bad = [&](const std::string& what) {
    return InvalidArgument(Where(k, p) + ": expected an int in " + range + ", got " + what);
  };
  if (PyBool_Check(obj.ptr()) || !PyIndex_Check(obj.ptr())) {
    throw bad(TypeNameOf(obj) + " " + Repr(obj));
  }
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()));
  if (!index) throw py::error_already_set();
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow < 0 || (overflow == 0 && value < 0 && !is_signed)) throw bad(Repr(obj));
  uint64_t u = 0;
  if (overflow > 0) {
    if (is_signed || bits != 64) throw bad(Repr(obj));
    u = PyLong_AsUnsignedLongLong(index.ptr());
    if (PyErr_Occurred()) {
      PyErr_Clear();
      throw bad(Repr(obj));
    }
  } else {
    u = static_cast<uint64_t>(value);
  }
  if (bits < 64) {
    if (is_signed) {
      const int64_t lo = -(int64_t{1} << (bits - 1));
      const int64_t hi = (int64_t{1} << (bits - 1)) - 1;
      if (value < lo || value > hi) throw bad(Repr(obj));
    } else if (u > (uint64_t{1} << bits) - 1) {
      throw bad(Repr(obj));
    }
  }
  // Little-endian: the low `size` bytes of the 64-bit value are the parameter's bytes.
  out.resize(p.size);
  std::memcpy(out.data(), &u, p.size);
}

void ConvertFloat(const KernelInfo& k, const ParamInfo& p, py::handle obj,
                  std::vector<unsigned char>& out) {
  if (PyBool_Check(obj.ptr()) ||
      !(PyFloat_Check(obj.ptr()) || PyIndex_Check(obj.ptr()) ||
        py::isinstance(obj, py::module_::import("numpy").attr("floating")))) {
    throw InvalidArgument(Where(k, p) + ": expected a float, got " + TypeNameOf(obj) + " " +
                          Repr(obj));
  }
  // The largest finite value of the parameter's type: beyond it the conversion gives inf.
  double max = DBL_MAX;
  if (p.kind == ParamKind::kHalf) {
    max = 65504.0;
  } else if (p.kind == ParamKind::kBFloat16) {
    max = 3.3895313892515355e38;  // (2 - 2^-7) * 2^127
  } else if (p.size == 4) {
    max = FLT_MAX;
  }
  auto out_of_range = [&] {
    std::string shown = Repr(obj);
    if (shown.size() > 40) {
      shown = shown.substr(0, 20) + "... (" + std::to_string(shown.size()) + " digits)";
    }
    return InvalidArgument(Where(k, p) + ": " + shown + " is out of range (largest finite " +
                           KindName(p.kind) +
                           (p.kind == ParamKind::kFloat && p.size == 4 ? "32" : "") +
                           " magnitude is " + py::repr(py::float_(max)).cast<std::string>() + ")");
  };
  const double v = PyFloat_AsDouble(obj.ptr());
  if (v == -1.0 && PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) throw py::error_already_set();
    PyErr_Clear();  // an int beyond a double's range
    throw out_of_range();
  }
  if (std::isfinite(v) && std::fabs(v) > max) throw out_of_range();
  if (p.kind == ParamKind::kHalf) {
    Store(out, ascsim::FloatToHalfBits(static_cast<float>(v)));
  } else if (p.kind == ParamKind::kBFloat16) {
    Store(out, ascsim::FloatToBf16Bits(static_cast<float>(v)));
  } else if (p.size == 4) {
    Store(out, static_cast<float>(v));
  } else {
    Store(out, v);
  }
}

// Tiling data by value: a bytes-like object (bytes, bytearray, memoryview, a NumPy structured
// scalar or array) of exactly sizeof(struct) bytes.
void ConvertStruct(const KernelInfo& k, const ParamInfo& p, py::handle obj,
                   std::vector<unsigned char>& out) {
  if (!PyObject_CheckBuffer(obj.ptr())) {
    throw InvalidArgument(Where(k, p) + ": expected " + std::to_string(p.size) +
                          " bytes (sizeof the struct) as a bytes-like object or a NumPy "
                          "structured scalar/array, got " +
                          TypeNameOf(obj));
  }
  Py_buffer view;
  if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) {
    PyErr_Clear();
    throw InvalidArgument(Where(k, p) + ": the buffer must be C-contiguous");
  }
  const size_t len = static_cast<size_t>(view.len);
  if (len == p.size) {
    out.assign(static_cast<const unsigned char*>(view.buf),
               static_cast<const unsigned char*>(view.buf) + len);
  }
  PyBuffer_Release(&view);
  if (len != p.size) {
    throw InvalidArgument(Where(k, p) + ": expected exactly " + std::to_string(p.size) +
                          " bytes (sizeof the struct), got " + std::to_string(len) + " (" +
                          TypeNameOf(obj) + ")");
  }
}

void ConvertBool(const KernelInfo& k, const ParamInfo& p, py::handle obj,
                 std::vector<unsigned char>& out) {
  const bool ok =
      PyBool_Check(obj.ptr()) || py::isinstance(obj, py::module_::import("numpy").attr("bool_"));
  if (!ok) {
    throw InvalidArgument(Where(k, p) + ": expected a bool, got " + TypeNameOf(obj) + " " +
                          Repr(obj));
  }
  out.assign(p.size, 0);
  out[0] = obj.cast<bool>() ? 1 : 0;
}

std::string ParamList(const KernelInfo& k) {
  std::string names;
  for (uint32_t i = 0; i < k.num_params; ++i) {
    names += (i ? ", " : "") + std::string(k.params[i].name);
  }
  return names;
}

// Converts `args` by the kernel's parameter descriptions and launches it (now, or queued on
// `stream`), keeping the arrays alive and registered as device memory until the launch is over.
void LaunchKernel(std::shared_ptr<KernelLibrary> lib, size_t index, py::tuple args,
                  py::handle block_dim_obj, py::handle stream) {
  const KernelInfo& k = lib->kernel(index);
  const std::string func = k.name;
  if (args.size() != k.num_params) {
    throw InvalidArgument(func + ": takes " + std::to_string(k.num_params) + " argument" +
                          (k.num_params == 1 ? "" : "s") + " (" + ParamList(k) + "), got " +
                          std::to_string(args.size()));
  }
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  auto storage = std::make_shared<std::vector<std::vector<unsigned char>>>(k.num_params);
  std::vector<InputArray> arrays;
  for (uint32_t i = 0; i < k.num_params; ++i) {
    const ParamInfo& p = k.params[i];
    py::handle arg = args[i];
    std::vector<unsigned char>& out = (*storage)[i];
    switch (p.kind) {
      case ParamKind::kPointer:
        ConvertPointer(k, p, arg, out, arrays);
        break;
      case ParamKind::kSigned:
      case ParamKind::kUnsigned:
        ConvertInteger(k, p, arg, out);
        break;
      case ParamKind::kBool:
        ConvertBool(k, p, arg, out);
        break;
      case ParamKind::kFloat:
      case ParamKind::kHalf:
      case ParamKind::kBFloat16:
        ConvertFloat(k, p, arg, out);
        break;
      case ParamKind::kStruct:
        ConvertStruct(k, p, arg, out);
        break;
    }
  }
  std::vector<const InputArray*> inputs;
  KeepAlive keep;
  for (const InputArray& a : arrays) {
    inputs.push_back(&a);
    keep.objects.push_back(a.array);
  }
  keep.registrations = RegisterInputs(inputs);
  keep.objects.push_back(py::cast(lib));  // the table outlives queued launches (never closed)
  const KernelInfo* kernel = &k;
  Submit(
      stream, func,
      [kernel, storage, block_dim](ascsim::Stream* s) {
        std::vector<const void*> ptrs;
        ptrs.reserve(storage->size());
        for (const auto& bytes : *storage) ptrs.push_back(bytes.data());
        kernel->launch(kernel, ptrs.data(), block_dim, s);
      },
      std::move(keep));
}

}  // namespace

void RegisterKernelModules(py::module_& m) {
  py::class_<KernelLibrary, std::shared_ptr<KernelLibrary>>(
      m, "KernelLibrary",
      "A kernel module's shared library (ascsim/kernel_module.h), opened with dlopen.")
      .def(py::init<const std::string&>(), py::arg("path"))
      .def_property_readonly("path", &KernelLibrary::path)
      .def_property_readonly("built_with", &KernelLibrary::built_with)
      .def("kernels", &Describe,
           "One dict per kernel: name, params (name, type, kind, size, pointee_kind, "
           "pointee_size), compiled_arch.")
      .def(
          "launch",
          [](std::shared_ptr<KernelLibrary> self, size_t index, py::tuple args,
             py::handle block_dim, py::handle stream) {
            LaunchKernel(std::move(self), index, std::move(args), block_dim, stream);
          },
          py::arg("index"), py::arg("args"), py::arg("block_dim"), py::arg("stream") = py::none());
}

}  // namespace ascsim_py
