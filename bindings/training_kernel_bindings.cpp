// run_gelu_custom_backward / run_rms_norm_custom over NumPy arrays, with the same argument rules
// as run_add_custom (kernel_bindings.cpp): float16/float32, never cast, inputs used in place.
#include "training_kernel_bindings.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <vector>

#include "ascsim/error.h"
#include "device_arrays.h"
#include "kernel_launchers.h"
#include "stream.h"

namespace py = pybind11;
using ascsim::InvalidArgument;
using ascsim::kernels::ElementType;

namespace ascsim_py {
namespace {

std::vector<py::ssize_t> ShapeOf(const py::array& a) {
  return std::vector<py::ssize_t>(a.shape(), a.shape() + a.ndim());
}

py::array RunGeluBackward(py::handle dy_obj, py::handle x_obj, py::handle block_dim_obj,
                          py::handle stream) {
  const std::string func = "run_gelu_custom_backward";
  InputArray dy = ToInput(dy_obj, func, "grad_y");
  InputArray x = ToInput(x_obj, func, "x");
  CheckSameShapeAndDtype(dy, "grad_y", x, "x", func);
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  CheckStreamArgument(stream, func);
  if (x.size == 0) return py::array(x.array.dtype(), ShapeOf(x.array));

  void* dx_data = nullptr;
  py::array dx = NewDeviceArray(x.array.dtype(), ShapeOf(x.array), &dx_data);
  KeepAlive keep{{dy.array, x.array, dx}, RegisterInputs({&dy, &x})};
  const ElementType type = x.type;
  const void* dyd = dy.data;
  const void* xd = x.data;
  const uint64_t n = x.size;
  Submit(
      stream, func,
      [=](ascsim::Stream* s) {
        ascsim::kernels::LaunchGeluCustomBackward(type, dyd, xd, dx_data, n, block_dim, s);
      },
      std::move(keep));
  return dx;
}

// Returns (y, rstd): y of x's shape and dtype, rstd float32 of x.shape[:-1].
py::tuple RunRmsNorm(py::handle x_obj, py::handle gamma_obj, double eps, py::handle block_dim_obj,
                     py::handle stream) {
  const std::string func = "run_rms_norm_custom";
  InputArray x = ToInput(x_obj, func, "x");
  InputArray gamma = ToInput(gamma_obj, func, "gamma");
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) throw InvalidArgument(func + ": " + what);
  };
  need(x.array.ndim() >= 1, "x must have at least one axis (RMSNorm normalises the last one)");
  const py::ssize_t cols = x.array.shape(x.array.ndim() - 1);
  const std::string x_desc = py::str(x.array.dtype()).cast<std::string>() + " " +
                             py::str(x.array.attr("shape")).cast<std::string>();
  need(gamma.type == x.type, "gamma must have x's dtype; got gamma " +
                                 py::str(gamma.array.dtype()).cast<std::string>() + " and x " +
                                 x_desc);
  need(gamma.array.ndim() == 1 && gamma.array.shape(0) == cols,
       "gamma must have shape (" + std::to_string(cols) + ",) (x's last axis); got " +
           py::str(gamma.array.attr("shape")).cast<std::string>());
  need(std::isfinite(eps) && eps >= 0 && eps <= 3.4e38,
       "eps must be a finite float >= 0, got " + py::repr(py::float_(eps)).cast<std::string>());
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  CheckStreamArgument(stream, func);
  std::vector<py::ssize_t> rstd_shape = ShapeOf(x.array);
  rstd_shape.pop_back();
  size_t rows = 1;
  for (py::ssize_t d : rstd_shape) rows *= static_cast<size_t>(d);
  need(cols > 0 || rows == 0, "x's last axis is empty: a row of 0 elements has no RMS");
  if (x.size == 0) {
    return py::make_tuple(py::array(x.array.dtype(), ShapeOf(x.array)),
                          py::array(py::dtype("float32"), rstd_shape));
  }
  const uint64_t max_cols = ascsim::kernels::RmsNormCustomMaxCols(x.type);
  need(static_cast<uint64_t>(cols) <= max_cols,
       "x's last axis has " + std::to_string(cols) +
           " elements; the kernel keeps a row in the "
           "Unified Buffer, which holds at most " +
           std::to_string(max_cols) + " of " +
           (x.type == ElementType::kFloat16 ? "float16" : "float32") + " on " + "this SoC");

  void* y_data = nullptr;
  py::array y = NewDeviceArray(x.array.dtype(), ShapeOf(x.array), &y_data);
  void* rstd_data = nullptr;
  py::array rstd = NewDeviceArray(py::dtype("float32"), rstd_shape, &rstd_data);
  KeepAlive keep{{x.array, gamma.array, y, rstd}, RegisterInputs({&x, &gamma})};
  const ElementType type = x.type;
  const void* xd = x.data;
  const void* gd = gamma.data;
  const auto c = static_cast<uint64_t>(cols);
  const auto e = static_cast<float>(eps);
  Submit(
      stream, func,
      [=](ascsim::Stream* s) {
        ascsim::kernels::LaunchRmsNormCustom(type, xd, gd, y_data, static_cast<float*>(rstd_data),
                                             rows, c, e, block_dim, s);
      },
      std::move(keep));
  return py::make_tuple(y, rstd);
}

// bfloat16 tensors arrive as their uint16 bits (NumPy has no bfloat16; ascsim.torch passes
// tensor.view(torch.uint16) memory): `inputs` are C-contiguous uint16 arrays of one shape, read as
// bfloat16 by `kernel` (add_custom: x, y; gelu_custom: x; gelu_custom_backward: grad_y, x). The
// result is a new uint16 array holding the bfloat16 bits.
py::array RunElementwiseBf16(const std::string& kernel, py::tuple inputs, py::handle block_dim_obj,
                             py::handle stream) {
  const std::string func = "run_" + kernel;
  const size_t want = kernel == "gelu_custom" ? 1 : 2;
  if ((kernel != "add_custom" && kernel != "gelu_custom" && kernel != "gelu_custom_backward") ||
      inputs.size() != want) {
    throw InvalidArgument("run_elementwise_bf16: no bfloat16 kernel " + kernel + " taking " +
                          std::to_string(inputs.size()) + " input(s)");
  }
  std::vector<InputArray> in(want);
  for (size_t i = 0; i < want; ++i) {
    const std::string name = "input " + std::to_string(i);
    if (!py::isinstance<py::array>(inputs[i])) {
      throw InvalidArgument(func + ": " + name + " must be a NumPy array of bfloat16 bits");
    }
    py::array a = py::reinterpret_borrow<py::array>(inputs[i]);
    const py::dtype dt = a.dtype();
    if (dt.kind() != 'u' || dt.itemsize() != 2 || (a.flags() & py::array::c_style) == 0 ||
        !a.attr("flags").attr("aligned").cast<bool>()) {
      throw InvalidArgument(func + ": " + name +
                            " must be a C-contiguous uint16 array of "
                            "bfloat16 bits, got " +
                            py::str(py::handle(dt)).cast<std::string>());
    }
    in[i].type = ElementType::kBFloat16;
    in[i].size = static_cast<uint64_t>(a.size());
    in[i].bytes = static_cast<size_t>(a.nbytes());
    in[i].data = a.data();
    OwnerBounds(a, &in[i].owner_begin, &in[i].owner_end);
    in[i].array = std::move(a);
  }
  if (want == 2 && !in[0].array.attr("shape").equal(in[1].array.attr("shape"))) {
    throw InvalidArgument(func + ": the inputs must have the same shape; got " +
                          py::str(in[0].array.attr("shape")).cast<std::string>() + " and " +
                          py::str(in[1].array.attr("shape")).cast<std::string>());
  }
  const uint32_t block_dim = ToBlockDim(block_dim_obj, func);
  CheckStreamArgument(stream, func);
  const py::array& x = in[want - 1].array;
  if (in[0].size == 0) return py::array(x.dtype(), ShapeOf(x));
  void* out_data = nullptr;
  py::array out = NewDeviceArray(x.dtype(), ShapeOf(x), &out_data);
  std::vector<py::object> keep_objects{out};
  std::vector<const InputArray*> regs;
  for (const InputArray& a : in) {
    keep_objects.push_back(a.array);
    regs.push_back(&a);
  }
  KeepAlive keep{std::move(keep_objects), RegisterInputs(regs)};
  const void* a0 = in[0].data;
  const void* a1 = want == 2 ? in[1].data : nullptr;
  const uint64_t n = in[0].size;
  Submit(
      stream, func,
      [=](ascsim::Stream* s) {
        if (kernel == "add_custom") {
          ascsim::kernels::LaunchAddCustom(ElementType::kBFloat16, a0, a1, out_data, n, block_dim,
                                           s);
        } else if (kernel == "gelu_custom") {
          ascsim::kernels::LaunchGeluCustom(ElementType::kBFloat16, a0, out_data, n, block_dim, s);
        } else {
          ascsim::kernels::LaunchGeluCustomBackward(ElementType::kBFloat16, a0, a1, out_data, n,
                                                    block_dim, s);
        }
      },
      std::move(keep));
  return out;
}

}  // namespace

void RegisterTrainingKernels(py::module_& m) {
  m.def("run_elementwise_bf16", &RunElementwiseBf16, py::arg("kernel"), py::arg("inputs"),
        py::arg("block_dim") = 8, py::arg("stream") = py::none());
  m.def("run_gelu_custom_backward", &RunGeluBackward, py::arg("grad_y"), py::arg("x"),
        py::arg("block_dim") = 8, py::arg("stream") = py::none());
  m.def("run_rms_norm_custom", &RunRmsNorm, py::arg("x"), py::arg("gamma"), py::arg("eps") = 1e-6,
        py::arg("block_dim") = 8, py::arg("stream") = py::none());
  m.def(
      "rms_norm_custom_max_cols",
      [](const std::string& dtype) {
        if (dtype != "float16" && dtype != "float32") {
          throw InvalidArgument("rms_norm_custom_max_cols: dtype must be 'float16' or 'float32'");
        }
        return ascsim::kernels::RmsNormCustomMaxCols(dtype == "float16" ? ElementType::kFloat16
                                                                        : ElementType::kFloat32);
      },
      py::arg("dtype"));
}

}  // namespace ascsim_py
