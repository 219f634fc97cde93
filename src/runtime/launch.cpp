// A launch: one LaunchShared, one block body per logical block on the worker pool, first fault
// wins (the lowest failing block, so serial and parallel runs report the same one).
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>

#include "aicore/checks.h"
#include "aicore/core_context.h"
#include "aicore/sync.h"
#include "ascsim/runtime.h"
#include "model/env_trace.h"
#include "runtime/device_memory_internal.h"
#include "runtime/launch_control.h"
#include "runtime/sync_all.h"
#include "runtime/worker_pool.h"

namespace ascsim {
namespace {

bool EnvFlag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

std::atomic<bool>& SerialFlag() {
  static std::atomic<bool> flag{EnvFlag("ASCSIM_SERIAL")};
  return flag;
}
std::atomic<bool>& StrictFlag() {
  static std::atomic<bool> flag{EnvFlag("ASCSIM_STRICT")};
  return flag;
}

std::mutex& HooksMutex() {
  static std::mutex mu;
  return mu;
}
WarningSink& Sink() {
  static WarningSink sink = [](const std::string& line) {
    std::cerr << "ascsim warning: " << line << std::endl;
  };
  return sink;
}
// Launch observers by id; id 0 is the slot of SetLaunchObserver, others come from
// AddLaunchObserver (the profiler and the ASCSIM_TRACE hook may both be active).
std::map<int, LaunchObserver>& Observers() {
  static std::map<int, LaunchObserver> observers;
  return observers;
}

// The per-worker Unified Buffer arena, sized for the largest profile, reused by every block the
// thread runs (the device's UB is not cleared between kernels either).
uint8_t* ThreadUbArena() {
  static const uint32_t kMaxUb = [] {
    uint32_t m = 0;
    for (const SocProfile& p : SocProfiles()) m = std::max(m, p.ub_bytes);
    return m;
  }();
  thread_local auto arena = aicore::AllocateUbArena(kMaxUb);
  return arena.get();
}

// The first fault of a launch, by block index.
class FaultSlot {
 public:
  void Record(uint32_t block, ErrorKind kind, const std::string& message) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!has_ || block < block_) {
      has_ = true;
      block_ = block;
      kind_ = kind;
      message_ = message;
    }
    stop_.store(true, std::memory_order_relaxed);
  }
  const std::atomic<bool>* stop() const { return &stop_; }
  bool has() const { return has_; }
  [[noreturn]] void Throw() const { throw KernelError(kind_, message_); }

 private:
  std::mutex mu_;
  std::atomic<bool> stop_{false};
  bool has_ = false;
  uint32_t block_ = 0;
  ErrorKind kind_ = ErrorKind::kKernel;
  std::string message_;
};

void RunLaunch(const std::string& kernel, uint32_t block_dim, const KernelBody& body,
               const SocProfile& soc, bool strict,
               std::shared_ptr<CancelToken::State> cancel_token) {
  aicore::LaunchShared shared;
  shared.kernel = kernel;
  shared.block_num = block_dim;
  shared.soc = &soc;
  shared.strict = strict;
  shared.find_gm = runtime::FindDeviceMemory;

  model::InstallEnvTraceOnce();  // ASCSIM_TRACE=path.json: trace every launch, msprof-style
  std::vector<LaunchObserver> observers;
  {
    std::lock_guard<std::mutex> lock(HooksMutex());
    for (const auto& entry : Observers()) observers.push_back(entry.second);
  }
  std::shared_ptr<std::vector<model::CoreTrace>> traces;
  if (!observers.empty()) {
    traces = std::make_shared<std::vector<model::CoreTrace>>(block_dim);
    shared.traces = traces.get();
  }

  FaultSlot fault;
  const std::function<void(uint32_t)> run_block = [&](uint32_t b) {
    aicore::CoreScope scope(&shared, b, ThreadUbArena());
    try {
      body();
      aicore::FinishBlock(scope.context());
    } catch (const Error& e) {
      fault.Record(b, e.kind(), e.what());
    } catch (const std::exception& e) {
      fault.Record(b, ErrorKind::kInvalidArgument,
                   aicore::WhereAmI() + "kernel threw " + e.what());
    } catch (const runtime::SyncAllStopped&) {
      throw;  // another block's fault broke the barrier: the barrier ends this block
    } catch (...) {
      // `throw 42;` and the like: on a pool thread it would reach std::terminate, and in serial
      // mode it would escape ICPU_RUN_KF as itself. It fails the launch like any fault.
      fault.Record(b, ErrorKind::kInvalidArgument,
                   aicore::WhereAmI() +
                       "kernel threw an exception that is not a std::exception (e.g. throw 42)");
    }
  };

  // SyncAll: blocks go through the barrier, which may move unstarted ones to their own threads.
  runtime::SyncAllBarrier barrier(shared, block_dim, run_block, fault.stop());
  shared.sync_all = [&barrier](uint32_t b) { barrier.Arrive(b); };
  const std::function<void(uint32_t)> run_or_skip = [&barrier](uint32_t b) { barrier.Run(b); };

  const auto start = std::chrono::steady_clock::now();
  {
    // The launch timeout (watchdog) and the cancel token cover the blocks' run.
    runtime::LaunchGuard guard(shared, std::move(cancel_token));
    if (IsSerial()) {
      for (uint32_t b = 0; b < block_dim && !fault.has(); ++b) run_or_skip(b);
    } else {
      runtime::WorkerPool::Get().RunGrid(block_dim, run_or_skip, fault.stop());
    }
    barrier.Join();
  }
  const double wall_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();

  if (!shared.warnings.empty()) {
    WarningSink sink;
    {
      std::lock_guard<std::mutex> lock(HooksMutex());
      sink = Sink();
    }
    if (sink) {
      for (const std::string& line : shared.warnings.Lines()) sink(line);
    }
  }
  if (!observers.empty()) {
    LaunchRecord record;
    record.kernel = kernel;
    record.block_dim = block_dim;
    record.soc = &soc;
    record.wall_us = wall_us;
    record.failed = fault.has();
    record.traces = traces;
    for (const LaunchObserver& observer : observers) observer(record);
  }
  if (fault.has()) fault.Throw();
}

}  // namespace

void SetSerial(bool serial) { SerialFlag().store(serial); }
bool IsSerial() { return SerialFlag().load(); }
void SetStrict(bool strict) { StrictFlag().store(strict); }
bool IsStrict() { return StrictFlag().load(); }
int WorkerCount() { return runtime::WorkerPool::Get().size() + 1; }

WarningSink SetWarningSink(WarningSink sink) {
  std::lock_guard<std::mutex> lock(HooksMutex());
  WarningSink previous = std::move(Sink());
  Sink() = std::move(sink);
  return previous;
}

void SetLaunchObserver(LaunchObserver observer) {
  std::lock_guard<std::mutex> lock(HooksMutex());
  if (observer) {
    Observers()[0] = std::move(observer);
  } else {
    Observers().erase(0);
  }
}

int AddLaunchObserver(LaunchObserver observer) {
  static int next_id = 1;
  std::lock_guard<std::mutex> lock(HooksMutex());
  const int id = next_id++;
  Observers()[id] = std::move(observer);
  return id;
}

void RemoveLaunchObserver(int id) {
  std::lock_guard<std::mutex> lock(HooksMutex());
  if (id != 0) Observers().erase(id);
}

void Launch(const std::string& kernel, uint32_t block_dim, KernelBody body, Stream* stream) {
  if (block_dim < 1 || block_dim > 65535) {
    throw InvalidArgument(kernel + ": blockDim " + std::to_string(block_dim) +
                          " is outside [1, 65535]");
  }
  if (!body) throw InvalidArgument(kernel + ": empty kernel body");
  if (aicore::CoreContext* core = aicore::TryCurrentCore()) {
    // Device code cannot launch kernels; here the inner launch would run on the outer block's
    // thread with the outer block's core context saved and restored around it. Through ACL the
    // fault becomes an aclError the kernel may ignore, so the block's end reports it again.
    const std::string detail = "kernel launch of " + kernel +
                               " from inside a kernel: kernels are launched by the host only";
    if (core->deferred_fault.empty()) core->deferred_fault = detail;
    aicore::Fault(ErrorKind::kInvalidArgument, detail);
  }
  // The SoC and strict mode are read when the launch is issued, not when a stream runs it.
  const SocProfile& soc = CurrentSoc();
  const bool strict = IsStrict();
  std::shared_ptr<CancelToken::State> token = runtime::CurrentCancelState();
  if (stream == nullptr) {
    RunLaunch(kernel, block_dim, body, soc, strict, std::move(token));
    return;
  }
  stream->Enqueue([kernel, block_dim, body = std::move(body), &soc, strict, token] {
    RunLaunch(kernel, block_dim, body, soc, strict, token);
  });
}

}  // namespace ascsim
