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
#include "ascsim/trace.h"

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
// Sanitizer checks (ASCSIM_SANITIZE): bits of Settings::sanitize.
enum SanitizeFlag : uint32_t {
  kSanitizeRace = 1u << 0,  // accesses of two pipes or two cores with no sync between them
  kSanitizeInit = 1u << 1,  // reads of UB bytes nothing wrote
  kSanitizeSync = 1u << 2,  // unpaired SetFlag/WaitFlag, unreleased event ids, extra barriers
  kSanitizeAll = kSanitizeRace | kSanitizeInit | kSanitizeSync,
};
// "race,init,sync" (any subset, comma-separated), "all" or "1" (all), "0", "none" or "" (off).
// Throws InvalidArgument naming the unknown word.
uint32_t ParseSanitizeFlags(const std::string& spec);

// Every setting a launch reads. A launch takes one copy of all of them when it is issued (a launch
// queued on a stream runs with the settings of the moment it was queued).
struct Settings {
  // The SoC profile (ascsim/soc.h). Default: ASCSIM_SOC, else Ascend910B1.
  const SocProfile* soc = nullptr;
  // Strict mode turns warnings into errors. Default: ASCSIM_STRICT=1, else off.
  bool strict = false;
  // Serial mode runs the blocks of a launch in order on the launching thread (for debugging).
  // Default: ASCSIM_SERIAL=1, else off.
  bool serial = false;
  // The launch timeout, like the device's AI-core timeout: a launch still running this many
  // seconds after it started fails with ErrorKind::kTimeout at each block's next kernel API call
  // (a block looping without any API call cannot be stopped). 0 = off. Default: ASCSIM_TIMEOUT
  // (seconds), else 300.
  double timeout_seconds = 300;
  // SanitizeFlag bits. Default: ASCSIM_SANITIZE, else race and init (README, "Sanitizer").
  uint32_t sanitize = kSanitizeRace | kSanitizeInit;
  // Fresh Unified Buffer (InitBuffer, AllocTensor) is filled with this byte, so results that
  // depend on garbage show up even with the sanitizer off: -1 = off (the last kernel's bytes
  // stay), 0..255 = the byte; ASCSIM_UB_FILL=nan is 0xFF (NaN in half, bfloat16_t and float).
  // Default: ASCSIM_UB_FILL (nan or a byte such as 0xA5), else off.
  int ub_fill = -1;
};
Settings GetSettings();
// Installs all values at once; throws InvalidArgument (and changes nothing) for a null SoC, a
// negative, NaN, infinite or too large timeout, or unknown sanitize bits.
void SetSettings(const Settings& settings);
void ValidateSettings(const Settings& settings);

// Restores every setting on destruction: for tests and for code that changes settings for a while.
class ScopedSettings {
 public:
  ScopedSettings() : saved_(GetSettings()) {}
  ~ScopedSettings() { SetSettings(saved_); }
  ScopedSettings(const ScopedSettings&) = delete;
  ScopedSettings& operator=(const ScopedSettings&) = delete;

 private:
  Settings saved_;
};

// One setting at a time (each is GetSettings / SetSettings of one field).
void SetSerial(bool serial);
bool IsSerial();
void SetStrict(bool strict);
bool IsStrict();
void SetSanitize(uint32_t flags);
uint32_t GetSanitize();
// Worker threads of the core pool (default: the machine's hardware threads).
int WorkerCount();

// Where warnings go. The default prints "ascsim warning: <line>" to stderr. Returns the previous.
using WarningSink = std::function<void(const std::string& line)>;
WarningSink SetWarningSink(WarningSink sink);

// ---- launches ----
// Adds an observer that sees every completed launch (success or failure) issued from now on,
// called on the launching thread or the stream's worker; several may watch (a Profiler, the
// ASCSIM_TRACE hook). While one is installed, launches record per-call traces; with none,
// nothing is recorded. Returns its id for RemoveLaunchObserver.
using LaunchObserver = std::function<void(const LaunchRecord&)>;
int AddLaunchObserver(LaunchObserver observer);
void RemoveLaunchObserver(int id);

// ---- timeouts and cancellation ----
// Settings::timeout_seconds; throws InvalidArgument for a negative, NaN or too large value.
void SetLaunchTimeout(double seconds);
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

// The GM addresses a launch was handed, so that a block reaching into a device allocation the
// launch was never given (`z + blockLength * GetBlockIdx()` one block too far, landing in another
// stream's buffer) is reported instead of corrupting that buffer. `pointers` are the pointer
// arguments (`param` their parameter indices); `words` are the 8-byte words of the integer and
// by-value struct arguments, which may carry addresses (tiling structs, uint64_t addresses); they
// are only read when a block reaches a foreign allocation. KernelLauncher fills it.
struct LaunchGmArgs {
  std::vector<const void*> pointers;
  std::vector<uint16_t> param;
  std::vector<uint64_t> words;
};

// Runs `body` over `block_dim` blocks. With `stream` null it runs now and throws KernelError on a
// fault; with a stream it is queued and the error surfaces at Stream::Synchronize. The settings
// are read now, once. `compiled_arch` is the __NPU_ARCH__ the kernel was compiled for (0:
// unknown); a launch on a profile of another arch warns once per kernel. `kernel` is copied.
// `kernel_id` (optional) identifies the kernel function, so that the sub-core layout a launch
// reveals (AIV, AIC or mix; docs/cube.md) is remembered for its later launches. `gm_args`
// (optional, moved from) are the addresses the launch was given; without them a block may reach
// any device allocation. `tiling_key` is what TILING_KEY_VAR / TILING_KEY_IS read in the kernel
// (the sub-core layout is remembered per kernel function and tiling key).
void Launch(const char* kernel, uint32_t block_dim, KernelBody body, Stream* stream = nullptr,
            int compiled_arch = 0, const void* kernel_id = nullptr,
            LaunchGmArgs* gm_args = nullptr, uint64_t tiling_key = 0);

// The tiling key of the CPU-debug launches that follow (tikicpulib's ICPU_SET_TILING_KEY; one
// value per process, as CANN's g_tilingKey): ICPU_RUN_KF launches with it. A key of 0 or a
// negative one (as int64_t) is taken with a warning, as CANN does. Default 0.
void SetCpuDebugTilingKey(uint64_t key);
uint64_t CpuDebugTilingKey();

// Says that kernel function `kernel` was built with bisheng's --cce-auto-sync: the compiler inserts
// the SetFlag/WaitFlag pairs scalar accesses need (S <-> V/MTE2/MTE3), so the sanitizer's `sync`
// check does not require them in its source. The toolkit's compilers declare their kernels this
// way when given the flag (ascsim-launch-transform, AutoSyncDeclarations). Returns true (for a
// static initializer).
bool DeclareCompiledWithAutoSync(const void* kernel);

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
