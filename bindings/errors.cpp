#include "errors.h"

#include <new>
#include <string>

#include "ascsim/error.h"

namespace py = pybind11;

namespace ascsim_py {
namespace {

// The exception classes, created once at import. Kept as leaked handles: they must outlive any
// C++ static that could still translate an error during interpreter shutdown.
struct ErrorClasses {
  PyObject* error = nullptr;
  PyObject* invalid_argument = nullptr;
  PyObject* out_of_bounds = nullptr;
  PyObject* device_memory = nullptr;
  PyObject* ub_overflow = nullptr;
  PyObject* queue_misuse = nullptr;
  PyObject* sync_misuse = nullptr;
  PyObject* strict_warning = nullptr;
  PyObject* timeout = nullptr;
  PyObject* kernel = nullptr;
};
ErrorClasses& Classes() {
  static ErrorClasses classes;
  return classes;
}

// class <name>(*bases) on `m`, shown as ascsim.<name> (the public package re-exports it).
PyObject* MakeClass(py::module_& m, const char* name, py::tuple bases, const char* doc) {
  py::dict ns;
  ns["__module__"] = "ascsim";
  ns["__doc__"] = py::str(doc);
  py::object cls = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyType_Type))(
      name, bases, ns);
  m.attr(name) = cls;
  return cls.release().ptr();  // leaked on purpose, see ErrorClasses
}

PyObject* ClassFor(ascsim::ErrorKind kind) {
  const ErrorClasses& c = Classes();
  switch (kind) {
    case ascsim::ErrorKind::kInvalidArgument:
      return c.invalid_argument;
    case ascsim::ErrorKind::kOutOfBounds:
      return c.out_of_bounds;
    case ascsim::ErrorKind::kOutOfDeviceMemory:
      return c.device_memory;
    case ascsim::ErrorKind::kUbOverflow:
      return c.ub_overflow;
    case ascsim::ErrorKind::kQueueMisuse:
      return c.queue_misuse;
    case ascsim::ErrorKind::kSyncMisuse:
      return c.sync_misuse;
    case ascsim::ErrorKind::kStrictWarning:
      return c.strict_warning;
    case ascsim::ErrorKind::kTimeout:
      return c.timeout;
    case ascsim::ErrorKind::kKernel:
    case ascsim::ErrorKind::kRace:  // sanitizer findings arise only inside kernels
    case ascsim::ErrorKind::kUninitializedRead:
      return c.kernel;
  }
  return c.error;
}

// Raises `cls(message)` with `kind` set to the ascsim kind name (the fault's kind for a
// KernelError), so handlers can tell "out of bounds" from "queue misuse" without parsing text.
void Raise(PyObject* cls, const char* message, ascsim::ErrorKind kind) {
  PyObject* exc = PyObject_CallFunction(cls, "s", message);
  if (exc == nullptr) return;  // the call itself raised; that error stays set
  PyObject* name = PyUnicode_FromString(ascsim::ErrorKindName(kind));
  if (name != nullptr) {
    PyObject_SetAttrString(exc, "kind", name);
    Py_DECREF(name);
  }
  PyErr_SetObject(cls, exc);
  Py_DECREF(exc);
}

}  // namespace

void TranslateAscsimError(std::exception_ptr p) {
  if (!p) return;
  try {
    std::rethrow_exception(p);
  } catch (const ascsim::KernelError& e) {
    // A launch stopped by the launch timeout (or a cancel) is a TimeoutError, not a bug in
    // the kernel's arguments: callers catch it as the built-in TimeoutError too.
    const bool timed_out = e.fault_kind() == ascsim::ErrorKind::kTimeout;
    Raise(timed_out ? Classes().timeout : Classes().kernel, e.what(), e.fault_kind());
  } catch (const ascsim::Error& e) {
    Raise(ClassFor(e.kind()), e.what(), e.kind());
  }
}

void RegisterErrors(py::module_& m) {
  py::module_ builtins = py::module_::import("builtins");
  auto b = [&](const char* name) { return builtins.attr(name); };
  ErrorClasses& c = Classes();
  c.error = MakeClass(m, "Error", py::make_tuple(b("RuntimeError")),
                      "Base class of every error raised by ascsim (and add_custom).");
  py::handle error(c.error);
  c.invalid_argument = MakeClass(m, "InvalidArgumentError", py::make_tuple(error, b("ValueError")),
                                 "A bad argument (dtype, shape, block_dim, SoC name, ...).");
  c.out_of_bounds = MakeClass(m, "OutOfBoundsError", py::make_tuple(error, b("IndexError")),
                              "An access outside a tensor or an allocation.");
  c.device_memory = MakeClass(m, "DeviceMemoryError", py::make_tuple(error, b("MemoryError")),
                              "Simulated device memory is exhausted.");
  c.ub_overflow = MakeClass(m, "UbOverflowError", py::make_tuple(error),
                            "Unified Buffer capacity or buffer-count limit exceeded.");
  c.queue_misuse = MakeClass(m, "QueueMisuseError", py::make_tuple(error),
                             "TQue protocol broken (would hang or corrupt on the device).");
  c.sync_misuse =
      MakeClass(m, "SyncMisuseError", py::make_tuple(error), "SetFlag/WaitFlag/SyncAll misuse.");
  c.strict_warning = MakeClass(m, "StrictWarningError", py::make_tuple(error),
                               "A device trap reported as an error because strict mode is on.");
  c.timeout = MakeClass(m, "TimeoutError", py::make_tuple(error, b("TimeoutError")),
                        "A launch ran past the configured AI-core timeout.");
  c.kernel = MakeClass(m, "KernelError", py::make_tuple(error),
                       "A fault inside a kernel. The message is the runtime's one line "
                       "('<kernel>: block i/n: <call> <numbers>'); .kind names the fault's kind "
                       "('out of bounds', 'queue misuse', 'UB overflow', ...).");
  MakeClass(m, "BuildError", py::make_tuple(error),
            "Compiling a kernel module failed (ascsim.load): the message has the compiler's first "
            "error lines; .command and .output hold the full command and compiler output.");

  // Module-local: pybind11's global translators are shared by every module of the same
  // pybind11 ABI (torch's, a user's own), and a global one here would turn their exceptions into
  // ascsim.Error. A user's module opts in with ascsim::python::UseAscsim(), which registers
  // TranslateAscsimError (from the capsule below) as that module's own local translator.
  py::register_local_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      TranslateAscsimError(p);
    } catch (const std::bad_alloc&) {
      PyErr_SetString(Classes().device_memory, "host memory exhausted (std::bad_alloc)");
    } catch (const py::builtin_exception&) {
      throw;  // pybind11's own (value_error, type_error, ...): its translator knows them
    } catch (const py::error_already_set&) {
      throw;  // a Python exception passing through C++
    } catch (const std::exception& e) {
      PyErr_SetString(Classes().error, e.what());
    }
  });
  m.attr("_error_translator") =
      py::capsule(reinterpret_cast<void*>(&TranslateAscsimError), "ascsim._core._error_translator");
}

}  // namespace ascsim_py
