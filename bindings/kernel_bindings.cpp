// run_add_custom / run_gelu_custom: the shipped kernels over NumPy arrays.
#include "kernel_bindings.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <vector>

#include "device_arrays.h"
#include "kernel_launchers.h"
#include "stream.h"

namespace py = pybind11;
using ascsim::kernels::ElementType;

namespace add_custom_py {
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
  m.def("run_add_custom", &RunAdd, py::arg("x"), py::arg("y"), py::arg("block_dim") = 8,
        py::arg("stream") = py::none(), R"doc(
z = x + y element-wise on the simulated NPU (the add_custom Ascend C kernel).

x, y: NumPy arrays (or anything np.asarray turns into one) of dtype float16 or float32, of the
same shape and dtype; any shape, including 0-d and empty. Other dtypes raise
InvalidArgumentError (no implicit cast). Non-contiguous inputs are copied to contiguous ones.
block_dim: number of logical AI-core blocks, an int in [1, 65535].
stream: None runs synchronously and raises KernelError on a kernel fault; an add_custom.Stream
queues the launch and returns at once (the result is valid after stream.synchronize()).
Returns a new array of x's shape and dtype whose memory is the device output buffer.
)doc");
  m.def("run_gelu_custom", &RunGelu, py::arg("x"), py::arg("block_dim") = 8,
        py::arg("stream") = py::none(), R"doc(
y = gelu(x) element-wise (tanh approximation) on the simulated NPU (the gelu_custom kernel).

Same argument rules as run_add_custom; float16 inputs are computed in float32 inside the
kernel and rounded once on the way out.
)doc");
}

}  // namespace add_custom_py
