// For a user's own pybind11 module that launches kernels the ACL way, as the official Ascend C
// pybind sample does: `ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...)` on NumPy buffers.
// Header-only; include after <pybind11/numpy.h>. The recipe (examples/pybind11_leaky_relu):
//
//   #include <pybind11/numpy.h>
//   #include "aclrtlaunch_leaky_relu_custom.h"
//   #include "ascsim/pybind11.h"
//
//   py::array_t<float> run_leaky_relu(py::array_t<float, py::array::c_style> x, float alpha) {
//     py::array_t<float> y(x.request().shape);
//     ascsim::python::DeviceArrays device({x, y});  // NumPy memory -> device memory, no copy
//     aclError ret;
//     {
//       py::gil_scoped_release release;
//       ret = ACLRT_LAUNCH_KERNEL(leaky_relu_custom)(8, nullptr, device.data(0), device.data(1),
//                                                    n, alpha);
//     }
//     ascsim::python::ThrowIfFailed(ret);  // ascsim.KernelError with the kernel's one line
//     return y;
//   }
//   PYBIND11_MODULE(leaky_relu_ext, m) {
//     ascsim::python::UseAscsim();  // ascsim's errors, warnings, profiler for this module
//     m.def("run_leaky_relu", &run_leaky_relu);
//   }
//
// Link the module with ascsim::ascsim (find_package(ascsim)) so that it shares libascsim.so with
// the `ascsim` package: one profiler, settings table and device-memory registry.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <exception>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "ascsim/error.h"
#include "ascsim/runtime.h"

namespace ascsim::python {

// Registers the memory of C-contiguous NumPy arrays as device memory for the object's lifetime
// (a launch on the default stream, nullptr, has finished when ACLRT_LAUNCH_KERNEL returns).
// Arrays that overlap (x and y views of one buffer, the same array twice) are registered once.
class DeviceArrays {
 public:
  DeviceArrays(std::initializer_list<pybind11::array> arrays) : arrays_(arrays) {
    std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
    for (const pybind11::array& a : arrays_) {
      if ((a.flags() & pybind11::array::c_style) == 0) {
        throw InvalidArgument(
            "ascsim::python::DeviceArrays: an array is not C-contiguous "
            "(take py::array_t<T, py::array::c_style> arguments)");
      }
      if (a.nbytes() == 0) continue;
      const auto begin = reinterpret_cast<uintptr_t>(a.data());
      ranges.emplace_back(begin, begin + static_cast<uintptr_t>(a.nbytes()));
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
    for (const auto& r : merged) {
      registrations_.push_back(std::make_unique<ExternalMemory>(
          reinterpret_cast<const void*>(r.first), r.second - r.first));
    }
  }

  // The device address of array `i` (its data pointer, now device memory): a kernel argument.
  void* data(size_t i) const { return const_cast<void*>(arrays_.at(i).data()); }

 private:
  std::vector<pybind11::array> arrays_;
  std::vector<std::unique_ptr<ExternalMemory>> registrations_;
};

// Makes this module part of ascsim's Python world: imports the `ascsim` package, registers
// ascsim's exception translator for this module only (ascsim::Error thrown here becomes
// ascsim.KernelError & co.; other modules' exceptions are left alone, as ascsim's own translator
// is module-local too), and shares its warning sink and profiler. Call it first in
// PYBIND11_MODULE.
inline void UseAscsim() {
  pybind11::module_::import("ascsim");
  pybind11::capsule translator =
      pybind11::module_::import("ascsim._core").attr("_error_translator");
  pybind11::register_local_exception_translator(
      reinterpret_cast<void (*)(std::exception_ptr)>(translator.get_pointer()));
}

// After an ACLRT_LAUNCH_KERNEL(...) on the default stream (nullptr) or aclrtSynchronizeStream:
// issues the runtime's warnings as ascsim.SimulatorWarning and, when `ret` is an error, throws
// it as ascsim::KernelError (Python: ascsim.KernelError) with aclGetRecentErrMsg()'s one line.
inline void ThrowIfFailed(aclError ret) {
  pybind11::module_::import("ascsim._core").attr("drain_warnings")();
  if (ret == ACL_SUCCESS) return;
  ErrorKind kind = ErrorKind::kKernel;
  if (ret == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION) kind = ErrorKind::kOutOfBounds;
  if (ret == ACL_ERROR_RT_AICORE_TIMEOUT) kind = ErrorKind::kTimeout;
  throw KernelError(kind, aclGetRecentErrMsg());
}

}  // namespace ascsim::python
