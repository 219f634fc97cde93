#include "stream.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <utility>

#include "ascsim/error.h"
#include "interrupt.h"
#include "warnings_queue.h"

namespace py = pybind11;

namespace ascsim_py {

namespace {

// Issues queued warnings, then raises `error` if there is one. A kernel error takes precedence
// over a warning that a "error" warnings filter turned into an exception.
void FinishCall(std::exception_ptr error, int stack_level = 1) {
  if (!error) {
    DrainWarnings(stack_level);
    return;
  }
  try {
    DrainWarnings(stack_level);
  } catch (py::error_already_set&) {
  }
  std::rethrow_exception(error);
}

// How often a waiting main thread takes the GIL back to run Python's signal handlers.
constexpr auto kSignalPollInterval = std::chrono::milliseconds(20);

// Completion of work handed to another thread.
struct Completion {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;

  void Finish(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mu);
    error = std::move(e);
    done = true;
    cv.notify_all();
  }
  // GIL released; true once done, false after `limit`.
  bool WaitFor(std::chrono::milliseconds limit) {
    py::gil_scoped_release release;
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, limit, [&] { return done; });
  }
  void Wait() {
    py::gil_scoped_release release;
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return done; });
  }
};

// Only the main thread runs Python's signal handlers, so only it needs interruptible waits.
// The main thread's ident is looked up once per process (again after fork, where the forking
// thread becomes the child's main thread).
bool OnMainThread() {
  static unsigned long main_ident = 0;
  static bool known = false;
  static uint64_t known_generation = 0;
  const uint64_t generation = ForkGeneration();
  if (!known || known_generation != generation) {
    main_ident = py::module_::import("threading")
                     .attr("main_thread")()
                     .attr("ident")
                     .cast<unsigned long>();
    known = true;
    known_generation = generation;
  }
  return main_ident == PyThread_get_thread_ident();
}

// Waits for `done` (GIL held on entry and exit). On the main thread it wakes every
// kSignalPollInterval to run Python's signal handlers: when one raises (Ctrl-C ->
// KeyboardInterrupt), `cancel` stops the work, which ends at its blocks' next API call, and the
// handler's exception is raised once the work has stopped.
void WaitInterruptibly(Completion& done, const std::function<void()>& cancel) {
  if (!OnMainThread()) {
    done.Wait();
    return;
  }
  while (!done.WaitFor(kSignalPollInterval)) {
    if (PyErr_CheckSignals() != 0) {
      py::error_already_set interrupt;  // fetched now: the wait below runs without the GIL
      cancel();
      done.Wait();
      throw interrupt;
    }
  }
}

// A reference to a stream held across a wait with the GIL released. It is dropped with the GIL
// released too: when it is the last one (close() ran on another thread meanwhile), dropping it
// joins the stream's worker thread.
class StreamRef {
 public:
  explicit StreamRef(std::shared_ptr<ascsim::Stream> stream) : stream_(std::move(stream)) {}
  ~StreamRef() {
    py::gil_scoped_release release;
    stream_.reset();
  }
  StreamRef(const StreamRef&) = delete;
  StreamRef& operator=(const StreamRef&) = delete;
  ascsim::Stream& operator*() const { return *stream_; }

 private:
  std::shared_ptr<ascsim::Stream> stream_;
};

bool IsFinalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

// Every PyStream alive in this process (touched with the GIL held).
std::set<PyStream*>& LiveStreams() {
  static auto* streams = new std::set<PyStream*>;
  return *streams;
}

}  // namespace

PyStream::PyStream()
    : stream_(std::make_shared<ascsim::Stream>()), token_(std::make_unique<ascsim::CancelToken>()) {
  LiveStreams().insert(this);
}

void PyStream::CancelAllAtExit() {
  for (PyStream* s : LiveStreams()) s->token_->Cancel("interpreter exit");
}

ascsim::Stream& PyStream::Open() const {
  if (!stream_) {
    throw ascsim::InvalidArgument("Stream: the stream is closed");
  }
  return *stream_;
}

void PyStream::Close() {
  if (!stream_) return;
  std::exception_ptr error = WaitAndRelease();
  if (!stream_) return;  // another thread closed it while this one waited
  {
    // Another thread may still be inside synchronize() on this stream (GIL released): it holds
    // its own reference and destroys the stream when it lets go. Work other threads queued
    // while this one waited finishes before the arrays it uses are released below.
    StreamRef last(std::move(stream_));
    py::gil_scoped_release release;
    (*last).Wait();
  }
  keep_.clear();
  FinishCall(error);
}

PyStream::~PyStream() {
  LiveStreams().erase(this);
  if (!stream_) return;
  // Wait for the queued work as synchronize() does, so that on the main thread Ctrl-C cancels a
  // launch that never ends instead of being ignored until the process is killed. A destructor
  // cannot raise: the interrupt is re-armed (PyErr_SetInterrupt) and Python raises
  // KeyboardInterrupt at its next check, right after the `del`.
  // Nothing to wait for when idle; at interpreter exit the atexit hook has cancelled the work
  // already and Python's signal machinery may be gone.
  bool must_wait = false;
  try {
    must_wait = !IsFinalizing() && !stream_->Idle();
  } catch (const ascsim::Error&) {  // a stream created before fork(), used in the child
  }
  if (must_wait) {
    try {
      auto marker = std::make_shared<Completion>();
      stream_->Enqueue([marker] { marker->Finish(nullptr); });
      WaitInterruptibly(*marker, [this] { token_->Cancel("interrupted (KeyboardInterrupt)"); });
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_KeyboardInterrupt)) {
        PyErr_SetInterrupt();
      } else {
        e.discard_as_unraisable("add_custom.Stream.__del__");
      }
    } catch (...) {
    }
  }
  {
    py::gil_scoped_release release;  // other Python threads run while the queue drains
    stream_.reset();
  }
  keep_.clear();  // Python objects: released with the GIL held
}

void PyStream::Enqueue(const std::function<void(ascsim::Stream*)>& launch, KeepAlive keep) {
  ascsim::Stream& stream = Open();
  ascsim::CancelScope scope(*token_);
  launch(&stream);  // throws before queueing on a bad argument; nothing to keep then
  keep.ticket = next_ticket_++;
  keep_.push_back(std::move(keep));
}

std::exception_ptr PyStream::WaitAndRelease() {
  // Only what was queued before the wait is known to be done: while the GIL is released another
  // Python thread may queue more, or synchronize too and release some of these first.
  const uint64_t last_done = next_ticket_ - 1;
  Open();  // raises once closed
  // Held across the waits: close() on another thread cannot destroy the stream under us.
  StreamRef stream(stream_);
  // A marker queued behind the launches: the wait for it can be interrupted (Ctrl-C cancels
  // every launch queued here, waits for the queue to drain, and raises KeyboardInterrupt).
  auto marker = std::make_shared<Completion>();
  (*stream).Enqueue([marker] { marker->Finish(nullptr); });
  try {
    WaitInterruptibly(*marker, [this] { token_->Cancel("interrupted (KeyboardInterrupt)"); });
  } catch (py::error_already_set&) {
    token_ = std::make_unique<ascsim::CancelToken>();  // later launches are not cancelled
    {
      py::gil_scoped_release release;
      (*stream).Wait();  // drop the cancelled launches' errors
    }
    while (!keep_.empty() && keep_.front().ticket <= last_done) keep_.pop_front();
    throw;
  }
  std::exception_ptr error;
  {
    py::gil_scoped_release release;
    error = (*stream).Wait();
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

void CheckStreamArgument(py::handle stream, const std::string& func) {
  if (stream.is_none()) return;
  if (!py::isinstance<PyStream>(stream)) {
    throw ascsim::InvalidArgument(
        func + ": stream must be an add_custom.Stream (ascsim.Stream) or None, got " +
        py::str(py::type::handle_of(stream).attr("__name__")).cast<std::string>());
  }
  if (stream.cast<PyStream&>().closed()) {
    throw ascsim::InvalidArgument(func + ": add_custom.Stream: the stream is closed");
  }
}

void Submit(py::handle stream, const std::string& func,
            const std::function<void(ascsim::Stream*)>& launch, KeepAlive keep) {
  if (!stream.is_none()) {
    CheckStreamArgument(stream, func);
    stream.cast<PyStream&>().Enqueue(launch, std::move(keep));
    return;
  }
  std::exception_ptr error;
  if (OnMainThread()) {
    // Run here, with SIGINT routed to cancel the launch (see interrupt.h): Ctrl-C stops a long
    // launch at its blocks' next API call and is raised as KeyboardInterrupt once it stopped.
    ascsim::CancelToken token;
    bool interrupted = false;
    {
      // The section's handler first, then Python's pending signals: a SIGINT that came before
      // the handler was in place (after the interpreter's last check) only set Python's flag,
      // which nothing would look at while the launch runs; with timeout 0 it never returned.
      InterruptibleSection section(token);
      if (PyErr_CheckSignals() != 0) {
        keep.registrations.clear();
        throw py::error_already_set();  // KeyboardInterrupt before the launch started
      }
      py::gil_scoped_release release;
      ascsim::CancelScope scope(token);
      try {
        launch(nullptr);
      } catch (...) {
        error = std::current_exception();
      }
      interrupted = section.interrupted();
    }
    if (interrupted && PyErr_CheckSignals() != 0) {
      keep.registrations.clear();
      throw py::error_already_set();  // KeyboardInterrupt (or whatever the handler raised)
    }
  } else {
    py::gil_scoped_release release;
    try {
      launch(nullptr);
    } catch (...) {
      error = std::current_exception();
    }
  }
  keep.registrations.clear();  // the launch is over: the inputs stop being device memory
  // Launching functions are called through the packages' Python wrappers: warn at their caller.
  FinishCall(error, 2);
}

void RegisterStream(py::module_& m) {
  // At interpreter exit nobody can read the results of launches still queued on streams: cancel
  // them, so a stuck kernel left on a stream cannot hang the exit (each stops at its next API
  // call; the streams' destructors then find their queues drained).
  py::module_::import("atexit").attr("register")(py::cpp_function(&PyStream::CancelAllAtExit));
  py::class_<PyStream>(m, "Stream", R"doc(
An in-order queue of launches with its own worker thread (like aclrtStream).

Functions given ``stream=s`` return at once; their results are valid after
``s.synchronize()``, which raises the first kernel error since the previous synchronize
(``ascsim.KernelError``). Inputs and outputs of queued launches are kept alive until then.
``with ascsim.Stream() as s:`` synchronizes on exit. Destroying a stream (``del``, garbage
collection) waits for its queued work like ``synchronize()`` and drops an unreported error;
Ctrl-C there cancels the queued launches and KeyboardInterrupt is raised right after.
Ctrl-C in ``synchronize()`` cancels the launches queued on the stream and raises
KeyboardInterrupt once they have stopped. ``close()`` frees the stream's thread; any use of a
closed stream raises InvalidArgumentError, as does a stream created before ``os.fork()`` used in
the child.
)doc")
      .def(py::init<>())
      .def("synchronize", &PyStream::Synchronize,
           "Wait for all queued launches; raise the first error since the last synchronize.")
      .def("idle", &PyStream::Idle, "True when nothing is queued or running.")
      .def("close", &PyStream::Close,
           "Synchronize (raising a pending error), then free the stream's thread; any later use "
           "of the stream raises InvalidArgumentError.")
      .def_property_readonly("pending", &PyStream::pending,
                             "Launches queued since the last synchronize.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyStream& s, py::handle exc_type, py::handle, py::handle) {
        if (s.closed()) return false;
        if (exc_type.is_none()) {
          s.Synchronize();
        } else {
          s.WaitQuietly();
        }
        return false;
      });
}

}  // namespace ascsim_py
