#include "stream.h"

#include <utility>

#include "ascsim/error.h"
#include "warnings_queue.h"

namespace py = pybind11;

namespace add_custom_py {

namespace {

// Issues queued warnings, then raises `error` if there is one. A kernel error takes precedence
// over a warning that a "error" warnings filter turned into an exception.
void FinishCall(std::exception_ptr error) {
  if (!error) {
    DrainWarnings();
    return;
  }
  try {
    DrainWarnings();
  } catch (py::error_already_set&) {
  }
  std::rethrow_exception(error);
}

}  // namespace

PyStream::PyStream() : stream_(std::make_unique<ascsim::Stream>()) {}

PyStream::~PyStream() {
  {
    py::gil_scoped_release release;  // other Python threads run while the queue drains
    stream_.reset();
  }
  keep_.clear();  // Python objects: released with the GIL held
}

void PyStream::Enqueue(const std::function<void(ascsim::Stream*)>& launch, KeepAlive keep) {
  launch(stream_.get());  // throws before queueing on a bad argument; nothing to keep then
  keep.ticket = next_ticket_++;
  keep_.push_back(std::move(keep));
}

std::exception_ptr PyStream::WaitAndRelease() {
  // Only what was queued before the wait is known to be done: while the GIL is released another
  // Python thread may queue more, or synchronize too and release some of these first.
  const uint64_t last_done = next_ticket_ - 1;
  std::exception_ptr error;
  {
    py::gil_scoped_release release;
    error = stream_->Wait();
  }
  while (!keep_.empty() && keep_.front().ticket <= last_done) keep_.pop_front();
  return error;
}

void PyStream::Synchronize() { FinishCall(WaitAndRelease()); }

void PyStream::WaitQuietly() {
  WaitAndRelease();
  try {
    DrainWarnings();
  } catch (py::error_already_set&) {
    // A warning filter set to "error": the exception already propagating takes precedence.
  }
}

void Submit(py::handle stream, const std::string& func,
            const std::function<void(ascsim::Stream*)>& launch, KeepAlive keep) {
  if (!stream.is_none()) {
    if (!py::isinstance<PyStream>(stream)) {
      throw ascsim::InvalidArgument(
          func + ": stream must be an add_custom.Stream or None, got " +
          py::str(py::type::handle_of(stream).attr("__name__")).cast<std::string>());
    }
    stream.cast<PyStream&>().Enqueue(launch, std::move(keep));
    return;
  }
  std::exception_ptr error;
  {
    py::gil_scoped_release release;
    try {
      launch(nullptr);
    } catch (...) {
      error = std::current_exception();
    }
  }
  keep.registrations.clear();  // the launch is over: the inputs stop being device memory
  FinishCall(error);
}

void RegisterStream(py::module_& m) {
  py::class_<PyStream>(m, "Stream", R"doc(
An in-order queue of launches with its own worker thread (like aclrtStream).

Functions given ``stream=s`` return at once; their results are valid after
``s.synchronize()``, which raises the first kernel error since the previous synchronize
(``add_custom.KernelError``). Inputs and outputs of queued launches are kept alive until then.
``with add_custom.Stream() as s:`` synchronizes on exit. Destroying a stream waits for its
queued work and drops an unreported error.
)doc")
      .def(py::init<>())
      .def("synchronize", &PyStream::Synchronize,
           "Wait for all queued launches; raise the first error since the last synchronize.")
      .def("idle", &PyStream::Idle, "True when nothing is queued or running.")
      .def_property_readonly("pending", &PyStream::pending,
                             "Launches queued since the last synchronize.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyStream& s, py::handle exc_type, py::handle, py::handle) {
        if (exc_type.is_none()) {
          s.Synchronize();
        } else {
          s.WaitQuietly();
        }
        return false;
      });
}

}  // namespace add_custom_py
