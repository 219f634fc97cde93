// Ctrl-C during a synchronous launch that runs on Python's main thread.
#pragma once

#include <cstdint>

#include "ascsim/runtime.h"

namespace ascsim_py {

// How many fork()s separate this process from the one that imported the module (0 there): state
// cached per process compares it instead of calling getpid(), a system call, on every launch.
uint64_t ForkGeneration();

// For its lifetime (the span of one synchronous launch on the main thread; opened with the GIL
// held, so that the caller can look at signals that came before it):
// SIGINT is handled by a small handler that forwards the signal to the previous handler (Python's,
// which records it so that PyErr_CheckSignals raises KeyboardInterrupt afterwards) and pokes a
// watcher thread, which cancels `token` (Cancel takes a lock, which a signal handler may not).
// The launch then stops at its blocks' next API call. Running the launch on the calling thread
// instead of handing it to another one keeps a small launch at a few microseconds. The handler,
// installed by the first section, stays installed (between sections it only forwards, with the
// previous action's flags and mask), so a section costs one sigaction query, not an install and a
// restore. When Python is not handling SIGINT itself (SIG_DFL / SIG_IGN) nothing is installed.
class InterruptibleSection {
 public:
  explicit InterruptibleSection(ascsim::CancelToken& token);
  ~InterruptibleSection();
  InterruptibleSection(const InterruptibleSection&) = delete;
  InterruptibleSection& operator=(const InterruptibleSection&) = delete;

  // True when SIGINT arrived during the section.
  bool interrupted() const;

 private:
  uint64_t generation_ = 0;
};

}  // namespace ascsim_py
