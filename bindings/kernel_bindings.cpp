// run_add_custom / run_gelu_custom / run_matmul_custom: the shipped kernels over NumPy arrays (the public, typed
// functions are python/add_custom/__init__.py).
#include "kernel_bindings.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <vector>

#include "device_arrays.h"
#include "kernel_launchers.h"
#include "stream.h"

namespace py = pybind11;
using ascsim::kernels::ElementType;

namespace ascsim_py {
namespace {

std::vector<py::ssize_t> ShapeOf(const py::array& a) {
  return std::vector<py::ssize_t>(a.shape(), a.shape() + a.ndim());
}

py::array RunAdd(py::handle x_obj, py::handle y_obj, py::handle block_dim_obj, py::handle stream) {
  const std::string func = "run_add_custom";
  InputArray x = ToInput(x_obj, func, "x");
  InputArray y = ToInput(y_obj, func, "y");
  CheckSameShapeAndDtype(x, "x", y, "y", func);
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  CheckStreamArgument(stream, func);
  if (x.size == 0) return py::array(x.array.dtype(), ShapeOf(x.array));

  void* z_data = nullptr;
  py::array z = NewDeviceArray(x.array.dtype(), ShapeOf(x.array), &z_data);
  KeepAlive keep{{x.array, y.array, z}, RegisterInputs({&x, &y})};
  const ElementType type = x.type;
  const void* xd = x.data;
  const void* yd = y.data;
  const uint64_t n = x.size;
  Submit(
      stream, func,
      [=](ascsim::Stream* s) {
        ascsim::kernels::LaunchAddCustom(type, xd, yd, z_data, n, block_dim, s);
      },
      std::move(keep));
  return z;
}

py::array RunGelu(py::handle x_obj, py::handle block_dim_obj, py::handle stream) {
  const std::string func = "run_gelu_custom";
  InputArray x = ToInput(x_obj, func, "x");
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  CheckStreamArgument(stream, func);
  if (x.size == 0) return py::array(x.array.dtype(), ShapeOf(x.array));

  void* y_data = nullptr;
  py::array y = NewDeviceArray(x.array.dtype(), ShapeOf(x.array), &y_data);
  KeepAlive keep{{x.array, y}, RegisterInputs({&x})};
  const ElementType type = x.type;
  const void* xd = x.data;
  const uint64_t n = x.size;
  Submit(
      stream, func,
      [=](ascsim::Stream* s) {
        ascsim::kernels::LaunchGeluCustom(type, xd, y_data, n, block_dim, s);
      },
      std::move(keep));
  return y;
}

// C = A @ B (+ bias) through matmul_custom (a mix kernel with the Matmul API): A (m, k) and
// B (k, n) float16, bias (n,) float32 or None; C float32 or float16 (`out_dtype`).
py::array RunMatmul(py::handle a_obj, py::handle b_obj, py::handle bias_obj, py::handle out_obj,
                    py::handle block_dim_obj, py::handle stream) {
  const std::string func = "run_matmul_custom";
  InputArray a = ToInput(a_obj, func, "a");
  InputArray b = ToInput(b_obj, func, "b");
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) throw ascsim::InvalidArgument(func + ": " + what);
  };
  need(a.array.ndim() == 2 && b.array.ndim() == 2,
       "a and b must be 2-D (a is " + std::to_string(a.array.ndim()) + "-D, b is " +
           std::to_string(b.array.ndim()) + "-D)");
  need(a.type == ElementType::kFloat16 && b.type == ElementType::kFloat16,
       "a and b must be float16 (the Cube unit multiplies half; convert with .astype(np.float16))");
  const int64_t m = a.array.shape(0), k = a.array.shape(1), n = b.array.shape(1);
  need(b.array.shape(0) == k, "a is (" + std::to_string(m) + ", " + std::to_string(k) +
                                  ") but b is (" + std::to_string(b.array.shape(0)) + ", " +
                                  std::to_string(n) + "): a's columns must equal b's rows");
  for (const auto& [dim, name] : {std::pair{m, "m"}, std::pair{n, "n"}, std::pair{k, "k"}}) {
    need(dim >= 1 && dim <= 65535, std::string(name) + " = " + std::to_string(dim) +
                                       " is outside [1, 65535] (empty or too large a matrix)");
  }
  InputArray bias{};
  const bool has_bias = !bias_obj.is_none();
  if (has_bias) {
    bias = ToInput(bias_obj, func, "bias");
    need(bias.type == ElementType::kFloat32 && bias.array.ndim() == 1 &&
             bias.array.shape(0) == n,
         "bias must be a float32 array of shape (" + std::to_string(n) + ",)");
  }
  const py::dtype out_dtype = py::dtype::from_args(py::reinterpret_borrow<py::object>(out_obj));
  const bool out_half = out_dtype.kind() == 'f' && out_dtype.itemsize() == 2;
  need(out_half || (out_dtype.kind() == 'f' && out_dtype.itemsize() == 4),
       "out_dtype must be float32 or float16");
  // 0: every AIC of the active profile (the launcher's choice); else a count of AICs.
  const uint32_t block_dim =
      static_cast<uint32_t>(ToInt(block_dim_obj, func, "block_dim", 0, 65535));
  CheckStreamArgument(stream, func);

  void* c_data = nullptr;
  py::array c = NewDeviceArray(out_dtype, {static_cast<py::ssize_t>(m), static_cast<py::ssize_t>(n)},
                               &c_data);
  std::vector<const InputArray*> inputs{&a, &b};
  std::vector<py::object> arrays{a.array, b.array, c};
  if (has_bias) {
    inputs.push_back(&bias);
    arrays.push_back(bias.array);
  }
  KeepAlive keep{std::move(arrays), RegisterInputs(inputs)};
  const ElementType c_type = out_half ? ElementType::kFloat16 : ElementType::kFloat32;
  const void* ad = a.data;
  const void* bd = b.data;
  const void* biasd = has_bias ? bias.data : nullptr;
  Submit(
      stream, func,
      [=](ascsim::Stream* s) {
        ascsim::kernels::LaunchMatmulCustom(c_type, ad, bd, biasd, c_data, static_cast<uint32_t>(m),
                                            static_cast<uint32_t>(n), static_cast<uint32_t>(k),
                                            block_dim, s);
      },
      std::move(keep));
  return c;
}

}  // namespace

void RegisterKernels(py::module_& m) {
  // Python wrappers with signatures and docs: python/add_custom/__init__.py.
  m.def("run_add_custom", &RunAdd, py::arg("x"), py::arg("y"), py::arg("block_dim") = 8,
        py::arg("stream") = py::none());
  m.def("run_gelu_custom", &RunGelu, py::arg("x"), py::arg("block_dim") = 8,
        py::arg("stream") = py::none());
  m.def("run_matmul_custom", &RunMatmul, py::arg("a"), py::arg("b"), py::arg("bias") = py::none(),
        py::arg("out_dtype") = py::str("float32"), py::arg("block_dim") = 0,
        py::arg("stream") = py::none());
  // The checks of the functions above, for Python code that launches the same way (the
  // testing module): a float16/float32 C-contiguous array, and an int in a range.
  m.def(
      "as_input",
      [](py::handle obj, const std::string& func, const std::string& name) {
        return ToInput(obj, func, name.c_str()).array;
      },
      py::arg("obj"), py::arg("func"), py::arg("name"));
  m.def(
      "check_int",
      [](py::handle obj, const std::string& func, const std::string& name, int64_t lo, int64_t hi) {
        return ToInt(obj, func, name.c_str(), lo, hi);
      },
      py::arg("obj"), py::arg("func"), py::arg("name"), py::arg("lo"), py::arg("hi"));
}

}  // namespace ascsim_py
