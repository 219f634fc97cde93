// Stream (ascsim.Stream, also add_custom.Stream) and the one path every launching function takes
// (synchronous or queued).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ascsim/runtime.h"
#include "device_arrays.h"

namespace ascsim_py {

// What a queued launch needs alive until it has run: the arrays it reads and writes (Python
// objects) and the device-memory registrations of its inputs.
struct KeepAlive {
  std::vector<pybind11::object> objects;
  Registrations registrations;
  uint64_t ticket = 0;  // order of queueing on its stream (set by PyStream::Enqueue)
};

// An in-order queue of launches (ascsim::Stream). Calls given a Stream return at once; their
// results are valid after synchronize(), which raises the first kernel error since the last
// synchronize. Everything a launch uses is kept alive until then.
class PyStream {
 public:
  PyStream();
  // Waits for queued work (GIL released; on the main thread Ctrl-C cancels it and
  // KeyboardInterrupt follows right after), drops an unreported error.
  ~PyStream();
  PyStream(const PyStream&) = delete;
  PyStream& operator=(const PyStream&) = delete;

  // Queues `launch` on this stream; `keep` is held until a synchronize that covers it.
  void Enqueue(const std::function<void(ascsim::Stream*)>& launch, KeepAlive keep);
  // Waits for every queued launch (GIL released), releases what they held, issues their
  // warnings and raises the first error.
  void Synchronize();
  // Like Synchronize but never raises a kernel error (used when an exception is already
  // propagating out of a `with` block).
  void WaitQuietly();
  bool Idle() const { return Open().Idle(); }
  size_t pending() const { return keep_.size(); }
  // Synchronizes (raising a pending error), then frees the worker thread. Later use of the
  // stream raises InvalidArgumentError. Closing twice is fine.
  void Close();
  bool closed() const { return !stream_; }
  // Cancels the launches queued on every stream (registered with atexit).
  static void CancelAllAtExit();

 private:
  std::exception_ptr WaitAndRelease();
  ascsim::Stream& Open() const;  // throws InvalidArgument once closed

  // Shared with the threads waiting in synchronize() (GIL released): close() on another thread
  // drops this reference, and the last waiter to let go destroys the stream.
  std::shared_ptr<ascsim::Stream> stream_;
  // Carried by every launch queued here, so Ctrl-C in synchronize() can stop them.
  std::unique_ptr<ascsim::CancelToken> token_;
  std::deque<KeepAlive> keep_;  // in ticket order
  uint64_t next_ticket_ = 1;
};

// Raises InvalidArgumentError unless `stream` is None or an open add_custom.Stream (checked
// before anything else, so that an empty input does not hide a bad stream argument).
void CheckStreamArgument(pybind11::handle stream, const std::string& func);

// Runs `launch` now (stream is None: GIL released, warnings issued, error raised) or queues it
// on the given Stream. `func` names the calling function in error messages.
void Submit(pybind11::handle stream, const std::string& func,
            const std::function<void(ascsim::Stream*)>& launch, KeepAlive keep);

void RegisterStream(pybind11::module_& m);

}  // namespace ascsim_py
