#include "device_arrays.h"

#include <algorithm>
#include <climits>
#include <map>
#include <mutex>
#include <utility>

#include "ascsim/error.h"

namespace py = pybind11;
using ascsim::InvalidArgument;
using ascsim::kernels::ElementType;

namespace ascsim_py {
namespace {

std::string Repr(py::handle obj) { return py::repr(obj).cast<std::string>(); }
std::string TypeNameOf(py::handle obj) {
  return py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>();
}
std::string ShapeOf(const py::array& a) { return py::str(a.attr("shape")).cast<std::string>(); }
std::string DtypeOf(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

}  // namespace

namespace {

// numpy.ndarray itself (not a subclass); NumPy stays loaded once imported.
bool IsExactNdarray(py::handle obj) {
  return Py_TYPE(obj.ptr()) ==
         reinterpret_cast<PyTypeObject*>(py::detail::npy_api::get().PyArray_Type_);
}

// dtype.isnative without the attribute lookup: no byte order ('|'), native ('='), or the
// machine's own.
bool IsNative(const py::dtype& dt) {
  const char order = dt.byteorder();
  constexpr char kMachine = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? '<' : '>';
  return order == '=' || order == '|' || order == kMachine;
}

}  // namespace

InputArray ToInput(py::handle obj, const std::string& func, const char* name) {
  if (IsExactNdarray(obj)) {
    // The common case, without NumPy calls: a plain ndarray (np.asarray would return it as is,
    // and it cannot be a MaskedArray) that is already float16/float32, native, C-contiguous and
    // aligned. Anything else takes the general path below, which says what is wrong.
    py::array a = py::reinterpret_borrow<py::array>(obj);
    const py::dtype dt = a.dtype();
    const int flags = a.flags();
    const bool ready = (flags & py::array::c_style) != 0 &&
                       (flags & py::detail::npy_api::NPY_ARRAY_ALIGNED_) != 0 && IsNative(dt);
    if (ready && dt.kind() == 'f' && (dt.itemsize() == 2 || dt.itemsize() == 4)) {
      InputArray in;
      in.type = dt.itemsize() == 2 ? ElementType::kFloat16 : ElementType::kFloat32;
      in.size = static_cast<uint64_t>(a.size());
      in.bytes = static_cast<size_t>(a.nbytes());
      in.data = a.data();
      OwnerBounds(a, &in.owner_begin, &in.owner_end);
      in.array = std::move(a);
      return in;
    }
  }
  py::module_ np = py::module_::import("numpy");
  if (py::isinstance(obj, np.attr("ma").attr("MaskedArray"))) {
    // np.asarray would drop the mask and compute over the masked-out values silently.
    throw InvalidArgument(func + ": " + name +
                          " is a numpy.ma.MaskedArray; its mask would be ignored (pass " + name +
                          ".filled(value) or " + name + ".data explicitly)");
  }
  py::array a;
  try {
    a = np.attr("asarray")(obj);
  } catch (py::error_already_set& e) {
    throw InvalidArgument(func + ": " + name + " (" + TypeNameOf(obj) +
                          ") is not convertible to a NumPy array: " + e.what());
  }
  const py::dtype dt = a.dtype();
  const bool native = dt.attr("isnative").cast<bool>();
  ElementType type;
  if (dt.kind() == 'f' && dt.itemsize() == 2 && native) {
    type = ElementType::kFloat16;
  } else if (dt.kind() == 'f' && dt.itemsize() == 4 && native) {
    type = ElementType::kFloat32;
  } else {
    std::string what = py::isinstance<py::array>(obj) ? "" : " (from " + TypeNameOf(obj) + ")";
    throw InvalidArgument(func + ": " + name + " has dtype " + DtypeOf(a) + what +
                          "; expected float16 or float32 (inputs are never cast implicitly)");
  }
  const bool contiguous = (a.flags() & py::array::c_style) != 0;
  const bool aligned = a.attr("flags").attr("aligned").cast<bool>();
  if (!contiguous || !aligned) {
    a = np.attr("array")(a, py::arg("dtype") = dt, py::arg("order") = "C", py::arg("copy") = true);
  }
  InputArray in;
  in.type = type;
  in.size = static_cast<uint64_t>(a.size());
  in.bytes = static_cast<size_t>(a.nbytes());
  in.data = a.data();
  OwnerBounds(a, &in.owner_begin, &in.owner_end);
  in.array = std::move(a);
  return in;
}

void OwnerBounds(const py::array& a, uintptr_t* begin, uintptr_t* end) {
  // The runtime's registry cannot hold overlapping registrations: registering each view's own
  // range would make a second view of the same buffer (on another stream) resolve to the first
  // view's range and fault. Register the owning buffer instead.
  py::array owner = a;
  for (py::object base = owner.base(); py::isinstance<py::array>(base); base = owner.base()) {
    owner = py::reinterpret_borrow<py::array>(base);
  }
  uintptr_t low, high;
  if ((owner.flags() & py::array::c_style) != 0) {
    // What np.byte_bounds gives a C-contiguous array, without its Python-level cost (several
    // microseconds, twice per launch).
    low = reinterpret_cast<uintptr_t>(owner.data());
    high = low + static_cast<uintptr_t>(owner.nbytes());
  } else {
    py::tuple bounds = py::module_::import("numpy").attr("byte_bounds")(owner);
    low = bounds[0].cast<uintptr_t>();
    high = bounds[1].cast<uintptr_t>();
  }
  const auto data = reinterpret_cast<uintptr_t>(a.data());
  *begin = std::min(low, data);
  *end = std::max(high, data + static_cast<uintptr_t>(a.nbytes()));
}

void CheckSameShapeAndDtype(const InputArray& a, const char* a_name, const InputArray& b,
                            const char* b_name, const std::string& func) {
  const bool same_dtype = a.type == b.type;
  const bool same_shape = a.array.ndim() == b.array.ndim() &&
                          std::equal(a.array.shape(), a.array.shape() + a.array.ndim(),
                                     b.array.shape());
  if (same_dtype && same_shape) return;
  throw InvalidArgument(func + ": " + a_name + " and " + b_name +
                        " must have the same shape and dtype; got " + a_name + " " +
                        DtypeOf(a.array) + " " + ShapeOf(a.array) + " and " + b_name + " " +
                        DtypeOf(b.array) + " " + ShapeOf(b.array));
}

bool IsNumpyBool(py::handle obj) {
  PyObject* numpy = PyImport_GetModule(py::str("numpy").ptr());  // new reference, or null
  if (numpy == nullptr) {
    PyErr_Clear();
    return false;
  }
  const py::object np = py::reinterpret_steal<py::object>(numpy);
  return py::isinstance(obj, np.attr("bool_"));
}

int64_t ToInt(py::handle obj, const std::string& func, const char* name, int64_t lo, int64_t hi) {
  if (PyLong_CheckExact(obj.ptr())) {  // a plain int (bool is a subclass: not this path)
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
    if (overflow == 0 && value >= lo && value <= hi) return value;
  }
  const std::string expected = std::string(name) + " must be an int in [" + std::to_string(lo) +
                               ", " + std::to_string(hi) + "]";
  // bool and numpy.bool_ are not counts, though both convert to 0/1.
  if (PyBool_Check(obj.ptr()) || IsNumpyBool(obj) || !PyIndex_Check(obj.ptr())) {
    throw InvalidArgument(func + ": " + expected + ", got " + TypeNameOf(obj) + " " + Repr(obj));
  }
  PyObject* index = PyNumber_Index(obj.ptr());
  if (index == nullptr) {
    PyErr_Clear();
    throw InvalidArgument(func + ": " + expected + ", got " + TypeNameOf(obj) + " " + Repr(obj));
  }
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (overflow != 0 || value < lo || value > hi) {
    throw InvalidArgument(func + ": " + expected + ", got " + Repr(obj));
  }
  return value;
}

uint32_t ToBlockDim(py::handle obj, const std::string& func) {
  return static_cast<uint32_t>(ToInt(obj, func, "block_dim", 1, 65535));
}

py::array NewDeviceArray(const py::dtype& dtype, const std::vector<py::ssize_t>& shape,
                         void** data) {
  size_t count = 1;
  for (py::ssize_t d : shape) count *= static_cast<size_t>(d);
  void* ptr = ascsim::DeviceMalloc(count * static_cast<size_t>(dtype.itemsize()));
  // The capsule owns the allocation from here on; a failing DeviceFree must not escape into a
  // NumPy deallocator.
  py::capsule owner(ptr, [](void* p) {
    try {
      ascsim::DeviceFree(p);
    } catch (...) {
    }
  });
  *data = ptr;
  return py::array(dtype, shape, ptr, owner);
}

Registrations RegisterInputs(const std::vector<const InputArray*>& inputs) {
  // Merge the inputs' byte ranges (sorted by start) into disjoint ranges.
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
  for (const InputArray* in : inputs) {
    if (in->bytes == 0) continue;
    ranges.emplace_back(in->owner_begin, in->owner_end);
  }
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<uintptr_t, uintptr_t>> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, r.second);
    } else {
      merged.push_back(r);
    }
  }

  // Live registrations by exact range, shared between launches in flight.
  static std::mutex mu;
  static auto* live =
      new std::map<std::pair<uintptr_t, uintptr_t>, std::weak_ptr<ascsim::ExternalMemory>>;
  Registrations out;
  std::lock_guard<std::mutex> lock(mu);
  for (const auto& r : merged) {
    std::shared_ptr<ascsim::ExternalMemory> reg = (*live)[r].lock();
    if (!reg) {
      reg = std::make_shared<ascsim::ExternalMemory>(reinterpret_cast<const void*>(r.first),
                                                     r.second - r.first);
      (*live)[r] = reg;
    }
    out.push_back(std::move(reg));
  }
  // Drop entries whose registration has ended, so the map does not grow without bound.
  for (auto it = live->begin(); it != live->end();) {
    it = it->second.expired() ? live->erase(it) : std::next(it);
  }
  return out;
}

}  // namespace ascsim_py
