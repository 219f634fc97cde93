// The host side of ascsim in C++: device memory, launches on the simulated grid, streams and
// settings. ACL (acl/acl.h) and the CPU twin (tikicpulib.h) are thin layers over this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ascsim/error.h"
#include "ascsim/soc.h"
#include "model/api_call.h"

namespace ascsim {

// ---- device memory ----
// Device memory is host memory known to the registry by base and size; kernels may only touch
// memory the registry knows. Allocations come from a caching pool (freed blocks are reused).
void* DeviceMalloc(size_t bytes);
void DeviceFree(void* ptr);  // throws InvalidArgument for a pointer DeviceMalloc did not return
bool IsDeviceMemory(const void* ptr);
// Size of the allocation starting exactly at `ptr`, 0 if none.
size_t DeviceAllocationSize(const void* ptr);
// Makes caller-owned memory (a NumPy array) device memory until the returned handle is dropped.
class ExternalMemory {
 public:
  ExternalMemory(const void* ptr, size_t bytes);
  ~ExternalMemory();
  ExternalMemory(const ExternalMemory&) = delete;
  ExternalMemory& operator=(const ExternalMemory&) = delete;

 private:
  const void* ptr_;
  size_t bytes_;
  bool registered_;
};
struct MemoryStats {
  size_t in_use_bytes = 0;   // handed out by DeviceMalloc and not freed
  size_t cached_bytes = 0;   // freed, kept for reuse
  size_t peak_bytes = 0;     // high-water mark of in_use_bytes
  size_t allocations = 0;    // live allocations
};
MemoryStats GetMemoryStats();
void ReleaseCachedMemory();

// ---- settings ----
// Serial mode runs the blocks of a launch in order on the calling thread (for debugging).
// Default: ASCSIM_SERIAL=1 in the environment, else off.
void SetSerial(bool serial);
bool IsSerial();
// Strict mode turns warnings into errors. Default: ASCSIM_STRICT=1, else off.
void SetStrict(bool strict);
bool IsStrict();
// Worker threads of the core pool (default: the machine's hardware threads).
int WorkerCount();

// Where warnings go. The default prints "ascsim warning: <line>" to stderr. Returns the previous.
using WarningSink = std::function<void(const std::string& line)>;
WarningSink SetWarningSink(WarningSink sink);

// ---- launches ----
// What every launch leaves behind for observers (the profiler): the per-block call traces when
// recording was requested, and the wall time of the functional run.
struct LaunchRecord {
  std::string kernel;
  uint32_t block_dim = 0;
  const SocProfile* soc = nullptr;
  double wall_us = 0;
  bool failed = false;
  std::shared_ptr<const std::vector<model::CoreTrace>> traces;  // one per block
};
// Installs an observer that sees every completed launch (success or failure), called on the
// launching thread or the stream's worker. While one is installed, launches record per-call
// traces for it; with none, nothing is recorded. An empty function removes it.
using LaunchObserver = std::function<void(const LaunchRecord&)>;
void SetLaunchObserver(LaunchObserver observer);
// Adds an observer next to the one of SetLaunchObserver (several may watch, e.g. a Profiler and
// the ASCSIM_TRACE hook); returns its id for RemoveLaunchObserver.
int AddLaunchObserver(LaunchObserver observer);
void RemoveLaunchObserver(int id);

// ---- timeouts and cancellation ----
// The launch timeout, like the device's AI-core timeout: a launch still running this many seconds
// after it started fails with ErrorKind::kTimeout at each block's next kernel API call (a block
// looping without any API call cannot be stopped). 0 turns it off. Default: ASCSIM_TIMEOUT
// (seconds, float) in the environment, else 300.
void SetLaunchTimeout(double seconds);  // throws InvalidArgument for a negative or NaN value
double GetLaunchTimeout();

// Cancels launches from another thread (e.g. on Ctrl-C). Launches issued on a thread while a
// CancelScope with this token is active (synchronous, or queued on a stream) carry the token;
// Cancel() makes every such launch, running or still queued, stop at its blocks' next API call
// with ErrorKind::kTimeout and "launch cancelled: <reason>".
class CancelToken {
 public:
  CancelToken();
  ~CancelToken();
  CancelToken(const CancelToken&) = delete;
  CancelToken& operator=(const CancelToken&) = delete;
  void Cancel(const std::string& reason);
  bool cancelled() const;

  struct State;  // runtime-internal

 private:
  friend class CancelScope;
  std::shared_ptr<State> state_;
};
// Makes `token` the current thread's token for the launches it issues, for the scope's lifetime.
class CancelScope {
 public:
  explicit CancelScope(const CancelToken& token);
  ~CancelScope();
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

 private:
  std::shared_ptr<CancelToken::State> previous_;
};

// The body of a launch: called once per block, with that block's core context installed.
using KernelBody = std::function<void()>;

class Stream;

// Runs `body` over `block_dim` blocks. With `stream` null it runs now and throws KernelError on a
// fault; with a stream it is queued and the error surfaces at Stream::Synchronize.
void Launch(const std::string& kernel, uint32_t block_dim, KernelBody body, Stream* stream = nullptr);

// An in-order queue of launches and copies with its own worker thread.
class Stream {
 public:
  Stream();
  ~Stream();  // waits for queued work; drops an unreported error
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  void Enqueue(std::function<void()> task);
  // Waits for all queued work; throws the first error raised since the last Synchronize.
  void Synchronize();
  // Waits like Synchronize but returns the error instead of throwing (nullptr when none).
  std::exception_ptr Wait();
  bool Idle() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ascsim
