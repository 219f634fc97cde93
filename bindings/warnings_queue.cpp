#include "warnings_queue.h"

#include <deque>
#include <mutex>
#include <string>

#include "ascsim/runtime.h"

namespace py = pybind11;

namespace ascsim_py {
namespace {

struct WarningQueue {
  std::mutex mu;
  std::deque<std::string> lines;
};
// Leaked: a stream thread may still report a warning while the interpreter shuts down.
WarningQueue& Queue() {
  static WarningQueue* queue = new WarningQueue;
  return *queue;
}
PyObject* warning_class = nullptr;  // ascsim.SimulatorWarning, leaked like the error classes

}  // namespace

void RegisterWarnings(py::module_& m) {
  py::dict ns;
  ns["__module__"] = "ascsim";
  ns["__doc__"] = py::str(
      "Device behaviour that is wrong but not fatal on hardware (for example a DataCopy length "
      "that is not a multiple of 32 B). ascsim.set_strict(True) makes these errors.");
  py::object cls = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyType_Type))(
      "SimulatorWarning", py::make_tuple(py::module_::import("builtins").attr("UserWarning")), ns);
  m.attr("SimulatorWarning") = cls;
  warning_class = cls.release().ptr();

  // For users' own pybind11 modules (ascsim/pybind11.h, ThrowIfFailed): issue what their
  // launches warned, at the line that called their module.
  m.def("drain_warnings", [] { DrainWarnings(1); });

  // Runs on any thread, without the GIL: must not touch Python objects.
  ascsim::SetWarningSink([](const std::string& line) {
    WarningQueue& q = Queue();
    std::lock_guard<std::mutex> lock(q.mu);
    q.lines.push_back(line);
  });
}

void DrainWarnings(int stack_level) {
  std::deque<std::string> lines;
  {
    WarningQueue& q = Queue();
    std::lock_guard<std::mutex> lock(q.mu);
    lines.swap(q.lines);
  }
  for (const std::string& line : lines) {
    if (PyErr_WarnEx(warning_class, line.c_str(), stack_level) != 0) throw py::error_already_set();
  }
}

}  // namespace ascsim_py
