// add_custom.testing: launchers of deliberately faulty kernels (kernel/testing), so that tests can
// drive every error path of the simulator from Python. Part of the test surface, not an API for
// operators.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <limits>
#include <vector>

#include "device_arrays.h"
#include "faulty_kernels.h"
#include "kernel_bindings.h"
#include "stream.h"

namespace py = pybind11;
using ascsim::kernels::ElementType;
namespace faulty = ascsim::kernels::testing;

namespace add_custom_py {
namespace {

std::vector<py::ssize_t> ShapeOf(const py::array& a) {
  return std::vector<py::ssize_t>(a.shape(), a.shape() + a.ndim());
}

py::array RunAddWithLength(py::handle x_obj, py::handle y_obj, py::handle total_length_obj,
                           py::handle block_dim_obj, py::handle stream) {
  const std::string func = "testing.run_add_with_length";
  InputArray x = ToInput(x_obj, func, "x");
  InputArray y = ToInput(y_obj, func, "y");
  CheckSameShapeAndDtype(x, "x", y, "y", func);
  const auto total = static_cast<uint32_t>(
      ToInt(total_length_obj, func, "total_length", 0, std::numeric_limits<uint32_t>::max()));
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  void* z_data = nullptr;
  py::array z = NewDeviceArray(x.array.dtype(), ShapeOf(x.array), &z_data);
  KeepAlive keep{{x.array, y.array, z}, RegisterInputs({&x, &y})};
  const ElementType type = x.type;
  const void* xd = x.data;
  const void* yd = y.data;
  Submit(
      stream, func,
      [=](ascsim::Stream* s) {
        faulty::LaunchAddWithLength(type, xd, yd, z_data, total, block_dim, s);
      },
      std::move(keep));
  return z;
}

void RunDequeueEmpty(py::handle block_dim_obj, py::handle stream) {
  const std::string func = "testing.run_dequeue_empty";
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  Submit(stream, func, [=](ascsim::Stream* s) { faulty::LaunchDequeueEmpty(block_dim, s); }, {});
}

void RunUbOverflow(py::handle block_dim_obj, py::handle stream) {
  const std::string func = "testing.run_ub_overflow";
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  Submit(stream, func, [=](ascsim::Stream* s) { faulty::LaunchUbOverflow(block_dim, s); }, {});
}

py::array RunUnalignedCopy(py::handle x_obj, py::handle count_obj, py::handle block_dim_obj,
                           py::handle stream) {
  const std::string func = "testing.run_unaligned_copy";
  InputArray x = ToInput(x_obj, func, "x");
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  const auto count = static_cast<uint32_t>(
      ToInt(count_obj, func, "count", 1, static_cast<int64_t>(x.size / block_dim)));
  // Zero-filled, so the elements the device drops are visible as zeros.
  void* z_data = nullptr;
  py::array z = NewDeviceArray(x.array.dtype(), {static_cast<py::ssize_t>(x.size)}, &z_data);
  std::memset(z_data, 0, x.bytes);
  KeepAlive keep{{x.array, z}, RegisterInputs({&x})};
  const ElementType type = x.type;
  const void* xd = x.data;
  Submit(
      stream, func,
      [=](ascsim::Stream* s) {
        faulty::LaunchUnalignedCopy(type, xd, z_data, count, block_dim, s);
      },
      std::move(keep));
  return z;
}

void RunSpinForever(py::handle block_dim_obj, py::handle stream) {
  const std::string func = "testing.run_spin_forever";
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  Submit(stream, func, [=](ascsim::Stream* s) { faulty::LaunchSpinForever(block_dim, s); }, {});
}

}  // namespace

void RegisterTesting(py::module_& m) {
  py::module_ t = m.def_submodule("testing", R"doc(
Deliberately faulty kernels (kernel/testing/faulty_kernels.cpp) for testing the simulator's error
paths end to end. Each carries a realistic kernel bug; none is a usable operator.
)doc");
  t.def("run_add_with_length", &RunAddWithLength, py::arg("x"), py::arg("y"),
        py::arg("total_length"), py::arg("block_dim") = 8, py::arg("stream") = py::none(),
        "The real add_custom kernel launched with a caller-given totalLength; a length larger "
        "than x.size reads past the arrays (KernelError, kind 'out of bounds').");
  t.def("run_dequeue_empty", &RunDequeueEmpty, py::arg("block_dim") = 1,
        py::arg("stream") = py::none(),
        "A kernel that DeQues a queue nothing was EnQued to (KernelError, kind 'queue misuse').");
  t.def("run_ub_overflow", &RunUbOverflow, py::arg("block_dim") = 1, py::arg("stream") = py::none(),
        "A kernel whose InitBuffer calls exceed the Unified Buffer (KernelError, kind "
        "'UB overflow').");
  t.def("run_spin_forever", &RunSpinForever, py::arg("block_dim") = 1,
        py::arg("stream") = py::none(),
        "A kernel whose cores wait forever for a GM flag nobody sets (calling GetValue and Adds "
        "in the loop): it ends only by the launch timeout (add_custom.set_timeout; "
        "TimeoutError, kind 'timeout') or by Ctrl-C (KeyboardInterrupt).");
  t.def("run_unaligned_copy", &RunUnalignedCopy, py::arg("x"), py::arg("count"),
        py::arg("block_dim") = 1, py::arg("stream") = py::none(),
        "Block b copies x.flat[b*count:(b+1)*count] with plain DataCopy into a zero-filled flat "
        "output. A count whose byte length is not a multiple of 32 B is rounded down as the "
        "device does (SimulatorWarning), or fails in strict mode (KernelError, kind "
        "'strict-mode warning').");
}

}  // namespace add_custom_py
