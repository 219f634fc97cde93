// run_add_custom / run_gelu_custom: the shipped kernels over NumPy arrays (the public, typed
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

}  // namespace

void RegisterKernels(py::module_& m) {
  // Python wrappers with signatures and docs: python/add_custom/__init__.py.
  m.def("run_add_custom", &RunAdd, py::arg("x"), py::arg("y"), py::arg("block_dim") = 8,
        py::arg("stream") = py::none());
  m.def("run_gelu_custom", &RunGelu, py::arg("x"), py::arg("block_dim") = 8,
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
