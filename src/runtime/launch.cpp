// A launch: one LaunchShared, one block body per logical block on the worker pool, first fault
// wins (the lowest failing block, so serial and parallel runs report the same one).
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>

#include "aicore/sanitizer/launch_sanitizer.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/sync.h"
#include "ascsim/runtime.h"
#include "runtime/device_memory_internal.h"
#include "runtime/launch_control.h"
#include "runtime/process.h"
#include "runtime/sync_all.h"
#include "runtime/worker_pool.h"

namespace ascsim {
namespace {

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

// The first fault of a launch, by block index and, within a block, by API call number (a
// block's own fault and a cross-block sanitizer finding attributed to it).
class FaultSlot {
 public:
  void Record(uint32_t block, uint64_t call, ErrorKind kind, const std::string& message) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!has_ || block < block_ || (block == block_ && call < call_)) {
      has_ = true;
      block_ = block;
      call_ = call;
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
  uint64_t call_ = 0;
  ErrorKind kind_ = ErrorKind::kKernel;
  std::string message_;
};

// Warns once per kernel name when a kernel compiled for one __NPU_ARCH__ runs on a profile of
// another (the #if __NPU_ARCH__ branches it took may not match the device it runs as).
void CheckArch(const char* kernel, int compiled_arch, const SocProfile& soc,
               const WarningSink& sink) {
  if (compiled_arch == 0 || compiled_arch == soc.arch) return;
  if (!runtime::Process::Get().FirstTime(std::string("arch:") + kernel)) return;
  if (sink) {
    sink(std::string(kernel) + ": compiled for __NPU_ARCH__ " + std::to_string(compiled_arch) +
         " but launched on " + soc.name + " (arch " + std::to_string(soc.arch) +
         "); compile with -DASCSIM_SOC=" + soc.name + " to match");
  }
}

void RunLaunch(const std::string& kernel, uint32_t block_dim, const KernelBody& body,
               const runtime::LaunchSettings& settings,
               std::shared_ptr<CancelToken::State> cancel_token) {
  const SocProfile& soc = *settings.values.soc;
  aicore::LaunchShared shared;
  shared.kernel = kernel;
  shared.block_num = block_dim;
  shared.soc = &soc;
  shared.strict = settings.values.strict;
  shared.find_gm = runtime::FindDeviceMemory;
  shared.sanitize = settings.values.sanitize;
  shared.ub_fill = settings.values.ub_fill;
  std::unique_ptr<aicore::LaunchSanitizer> sanitizer;
  if (settings.values.sanitize != 0) {
    sanitizer = std::make_unique<aicore::LaunchSanitizer>(settings.values.sanitize, block_dim);
    shared.sanitizer = sanitizer.get();
  }

  const std::vector<LaunchObserver>& observers = *settings.observers;
  std::shared_ptr<std::vector<trace::CoreTrace>> traces;
  if (!observers.empty()) {
    traces = std::make_shared<std::vector<trace::CoreTrace>>(block_dim);
    shared.traces = traces.get();
  }

  FaultSlot fault;
  const std::function<void(uint32_t)> run_block = [&](uint32_t b) {
    aicore::CoreScope scope(&shared, b, ThreadUbArena());
    try {
      body();
      aicore::FinishBlock(scope.context());
    } catch (const Error& e) {
      fault.Record(b, scope.context().api_calls, e.kind(), e.what());
    } catch (const std::exception& e) {
      fault.Record(b, scope.context().api_calls, ErrorKind::kInvalidArgument,
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
    runtime::LaunchGuard guard(shared, settings.values.timeout_seconds, std::move(cancel_token));
    if (settings.values.serial) {
      for (uint32_t b = 0; b < block_dim && !fault.has(); ++b) run_or_skip(b);
    } else {
      runtime::Process::Get().pool().RunGrid(block_dim, run_or_skip, fault.stop());
    }
    barrier.Join();
  }
  // Cross-core races are judged once every block's GM log is in (a cancelled launch has none
  // worth judging).
  if (sanitizer != nullptr && !shared.cancelled.load(std::memory_order_acquire)) {
    if (auto finding = sanitizer->FindCrossBlockRace(kernel)) {
      fault.Record(finding->block, finding->call, ErrorKind::kRace, finding->message);
    }
  }
  const double wall_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();

  if (!shared.warnings.empty() && *settings.warning_sink) {
    for (const std::string& line : shared.warnings.Lines()) (*settings.warning_sink)(line);
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

void Launch(const char* kernel_name, uint32_t block_dim, KernelBody body, Stream* stream,
            int compiled_arch) {
  const std::string kernel = kernel_name != nullptr ? kernel_name : "kernel";
  if (block_dim < aicore::kMinBlockDim || block_dim > aicore::kMaxBlockDim) {
    throw InvalidArgument(kernel + ": blockDim " + std::to_string(block_dim) + " is outside [" +
                          std::to_string(aicore::kMinBlockDim) + ", " +
                          std::to_string(aicore::kMaxBlockDim) + "]");
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
  // Every setting is read now, once: a queued launch runs with the settings of this moment.
  runtime::LaunchSettings settings = runtime::Process::Get().Snapshot();
  CheckArch(kernel.c_str(), compiled_arch, *settings.values.soc, *settings.warning_sink);
  std::shared_ptr<CancelToken::State> token = runtime::CurrentCancelState();
  if (stream == nullptr) {
    RunLaunch(kernel, block_dim, body, settings, std::move(token));
    return;
  }
  stream->Enqueue([kernel, block_dim, body = std::move(body), settings = std::move(settings),
                   token] { RunLaunch(kernel, block_dim, body, settings, token); });
}

}  // namespace ascsim
