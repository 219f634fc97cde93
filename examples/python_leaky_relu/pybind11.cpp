// The official Ascend C pybind sample's shape, over NumPy instead of torch: a user's own
// pybind11 module that includes the kernel's launch header and launches it with
// ACLRT_LAUNCH_KERNEL on NumPy buffers. ascsim/pybind11.h registers the NumPy memory as device
// memory (no copy) and maps failures to ascsim's Python errors; linking ascsim::ascsim makes
// this module share libascsim.so (profiler, settings, warnings) with the `ascsim` package.
#include "ascsim/pybind11.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "aclrtlaunch_leaky_relu_custom.h"

namespace py = pybind11;

namespace my_ops {

py::array_t<float> run_leaky_relu_custom(py::array_t<float, py::array::c_style> x, float alpha,
                                         uint32_t blockDim) {
  py::array_t<float> y(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
  const auto totalLength = static_cast<uint32_t>(x.size());
  ascsim::python::DeviceArrays device({x, y});
  aclError ret;
  {
    py::gil_scoped_release release;  // other Python threads run while the kernel does
    ret = ACLRT_LAUNCH_KERNEL(leaky_relu_custom)(blockDim, nullptr, device.data(0), device.data(1),
                                                 totalLength, alpha);
  }
  ascsim::python::ThrowIfFailed(ret);
  return y;
}

}  // namespace my_ops

PYBIND11_MODULE(leaky_relu_ext, m) {
  ascsim::python::UseAscsim();
  m.doc() = "leaky_relu_custom through a user's own pybind11 module (the official sample's shape)";
  m.def("run_leaky_relu_custom", &my_ops::run_leaky_relu_custom, py::arg("x"),
        py::arg("alpha") = 0.01f, py::arg("block_dim") = 8);
}
