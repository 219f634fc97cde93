// A launch: one LaunchShared, one block body per logical block on the worker pool, first fault
// wins (the lowest failing block, so serial and parallel runs report the same one).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>

#include "aicore/sanitizer/launch_sanitizer.h"
#include "aicore/mix_group.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/aicore/sync.h"
#include "ascsim/runtime.h"
#include "runtime/device_memory_internal.h"
#include "runtime/launch_control.h"
#include "runtime/process.h"
#include "runtime/sync_all.h"
#include "aicore/cross_core_launch.h"
#include "aicore/cube_arena.h"
#include "runtime/worker_pool.h"

namespace ascsim {
namespace {

// The per-worker Unified Buffer arena, sized for the largest profile, reused by every block the
// thread runs (the device's UB is not cleared between kernels either).
uint8_t* ThreadUbArena() {
  thread_local auto arena =
      aicore::AllocateUbArena(aicore::LargestMemoryBytes()[static_cast<int>(Memory::kUb)]);
  return arena.get();
}

// The per-thread cube memories (L1, L0A, L0B, L0C, BiasTable, Fixpipe buffer), sized for the
// largest profile and allocated on the first cube block a thread runs.
const aicore::CubeArena& ThreadCubeArena() {
  thread_local const aicore::CubeArena arena =
      aicore::AllocateCubeArena(aicore::LargestMemoryBytes());
  return arena;
}

// The memories a core of `unit` gets on this thread.
void ThreadMemories(aicore::CoreUnit unit, uint8_t* out[aicore::kLocalMemoryCount]) {
  for (int m = 0; m < aicore::kLocalMemoryCount; ++m) out[m] = nullptr;
  if (unit != aicore::CoreUnit::kAic) out[0] = ThreadUbArena();
  if (unit != aicore::CoreUnit::kAiv) {
    const aicore::CubeArena& cube = ThreadCubeArena();
    for (int m = 1; m < aicore::kLocalMemoryCount; ++m) out[m] = cube.base[m];
  }
}

// How a launch maps its blocks onto cores (docs/cube.md, "Sub-cores").
struct LayoutChoice {
  aicore::KernelLayout layout = aicore::KernelLayout::kAiv;
  uint8_t mix_aivs = 2;
  bool cross_core = false;
  bool probing = false;
  // While probing: the priority of the reveal that chose this layout (LaunchShared::
  // revealed_layout), -1 for the first attempt.
  int decided_priority = -1;
};

int EncodeLayout(const LayoutChoice& c) {
  return static_cast<int>(c.layout) * 4 + c.mix_aivs + (c.cross_core ? 64 : 0);
}
LayoutChoice DecodeLayout(int e) {
  LayoutChoice c;
  c.cross_core = (e & 64) != 0;
  e &= 63;
  c.layout = static_cast<aicore::KernelLayout>(e / 4);
  c.mix_aivs = static_cast<uint8_t>(e % 4);
  if (c.mix_aivs == 0) c.mix_aivs = 2;
  return c;
}

// Coupled archs: one AI core per block. Split archs: the program's SetKernelMode, else what an
// earlier launch of this kernel function revealed, else probe (run as AIV until the kernel shows
// its type; kernel_type.h).
LayoutChoice ChooseLayout(const SocProfile& soc, const void* kernel_id, uint64_t tiling_key) {
  LayoutChoice c;
  if (!soc.split_cores) {
    c.layout = aicore::KernelLayout::kAiCore;
    return c;
  }
  const int mode = aicore::RequestedKernelMode();
  if (mode >= 0) {
    c.cross_core = true;
    switch (static_cast<AscendC::KernelMode>(mode)) {
      case AscendC::KernelMode::AIV_MODE:
        c.layout = aicore::KernelLayout::kAiv;
        break;
      case AscendC::KernelMode::AIC_MODE:
        c.layout = aicore::KernelLayout::kAic;
        break;
      case AscendC::KernelMode::MIX_AIC_1_1:
        c.layout = aicore::KernelLayout::kMix;
        c.mix_aivs = 1;
        break;
      default:
        c.layout = aicore::KernelLayout::kMix;
        break;  // MIX_MODE: 1:2 as CANN
    }
    return c;
  }
  int encoded = 0;
  if (kernel_id != nullptr &&
      runtime::Process::Get().KernelLayoutOf(kernel_id, tiling_key, &encoded)) {
    return DecodeLayout(encoded);
  }
  c.probing = true;
  return c;
}

// The launch sanitizer of a launch on this thread: kept from one launch to the next (a thread
// runs one launch at a time; a nested attempt would get its own), so its per-block logs keep
// their storage.
class LaunchSanitizerLease {
 public:
  LaunchSanitizerLease(uint32_t flags, uint32_t block_num, const aicore::ReferenceKey& key)
      : held_(std::move(Cached())) {
    if (held_ == nullptr) held_ = std::make_unique<aicore::LaunchSanitizer>(flags, block_num);
    held_->Reset(flags, block_num, key);
  }
  ~LaunchSanitizerLease() {
    if (Cached() == nullptr) Cached() = std::move(held_);
  }
  LaunchSanitizerLease(const LaunchSanitizerLease&) = delete;
  LaunchSanitizerLease& operator=(const LaunchSanitizerLease&) = delete;
  aicore::LaunchSanitizer* get() const { return held_.get(); }

 private:
  static std::unique_ptr<aicore::LaunchSanitizer>& Cached() {
    thread_local std::unique_ptr<aicore::LaunchSanitizer> cached;
    return cached;
  }
  std::unique_ptr<aicore::LaunchSanitizer> held_;
};

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
  void Stop() { stop_.store(true, std::memory_order_relaxed); }
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

// Runs one attempt of a launch with `choice`; returns true when the launch probed and must start
// over with the layout the kernel revealed (stored in `choice`).
bool RunAttempt(const std::string& kernel, uint32_t block_dim, const KernelBody& body,
                const runtime::LaunchSettings& settings,
                const std::shared_ptr<CancelToken::State>& cancel_token, const void* kernel_id,
                const LaunchGmArgs* gm_args, uint64_t tiling_key, LayoutChoice& choice) {
  const SocProfile& soc = *settings.values.soc;
  aicore::LaunchShared shared;
  shared.kernel = kernel;
  shared.block_num = block_dim;
  shared.soc = &soc;
  shared.strict = settings.values.strict;
  shared.find_gm = runtime::FindDeviceMemory;
  shared.alloc_gm = DeviceMalloc;
  shared.free_gm = DeviceFree;
  shared.gm_args = gm_args;
  shared.sanitize = settings.values.sanitize;
  shared.ub_fill = settings.values.ub_fill;
  shared.tiling_key = tiling_key;
  shared.cce_auto_sync = settings.values.sanitize != 0 && kernel_id != nullptr &&
                         runtime::Process::Get().IsAutoSync(kernel_id);
  std::optional<LaunchSanitizerLease> sanitizer_lease;
  aicore::LaunchSanitizer* sanitizer = nullptr;
  if (settings.values.sanitize != 0) {
    // Repeated launches of a kernel follow the clean reference an earlier one recorded.
    aicore::ReferenceKey key;
    key.kernel = kernel_id;
    key.soc = &soc;
    key.tiling_key = tiling_key;
    key.flags = settings.values.sanitize;
    key.layout = static_cast<uint32_t>(EncodeLayout(choice)) * 2 + (shared.cce_auto_sync ? 1 : 0);
    // A mix launch's AIVs are checked one by one: each has its own GM log (the AIC is not).
    const uint32_t sub_cores =
        choice.layout == aicore::KernelLayout::kMix ? std::max<uint32_t>(1, choice.mix_aivs) : 1;
    sanitizer = sanitizer_lease.emplace(settings.values.sanitize, block_dim * sub_cores, key).get();
    sanitizer->SetSubCores(sub_cores);
    shared.sanitizer = sanitizer;
  }
  shared.layout = choice.layout;
  shared.mix_aivs = choice.mix_aivs;
  shared.cross_core_enabled = choice.cross_core;
  shared.probing = choice.probing;
  shared.decided_priority = choice.decided_priority;
  const bool mix = choice.layout == aicore::KernelLayout::kMix;
  const uint32_t per_block = mix ? 1u + choice.mix_aivs : 1u;
  // Launch-wide cross-core flags (mode 0, and SyncAll in a mix launch) when the kernel type starts
  // the cross-core scheduler.
  std::unique_ptr<aicore::CrossCoreLaunch> cross;
  if (mix || choice.cross_core) {
    const bool has_aic = mix || choice.layout == aicore::KernelLayout::kAic;
    const uint32_t aivs = mix ? block_dim * choice.mix_aivs
                              : (choice.layout == aicore::KernelLayout::kAic ? 0 : block_dim);
    cross = std::make_unique<aicore::CrossCoreLaunch>(has_aic ? block_dim : 0, aivs);
    cross->groups.assign(block_dim, nullptr);
    shared.cross_launch = cross.get();
  }
  // Reports a (sub-)core leaving the kernel to the launch-wide cross-core state, however it leaves.
  struct ExitReport {
    aicore::CrossCoreLaunch* cross;
    aicore::CoreUnit unit;
    bool faulted = true;  // until the body returns normally
    ~ExitReport() {
      if (cross != nullptr) aicore::CrossCoreExited(*cross, unit, faulted);
    }
  };

  const std::vector<LaunchObserver>& observers = *settings.observers;
  std::shared_ptr<std::vector<trace::CoreTrace>> traces;
  if (!observers.empty()) {
    traces = std::make_shared<std::vector<trace::CoreTrace>>(size_t{block_dim} * per_block);
    shared.traces = traces.get();
  }
  // Trace of block b's sub-core `slot` (0: the AIC of a mix block, 1 + i: AIV i).
  auto trace_of = [&](uint32_t b, uint32_t slot) -> trace::CoreTrace* {
    if (!traces) return nullptr;
    trace::CoreTrace* t = &(*traces)[size_t{b} * per_block + slot];
    t->block_idx = b;
    if (mix) {
      t->unit = slot == 0 ? 1 : 2;
      t->sub_block = static_cast<uint8_t>(slot == 0 ? 0 : slot - 1);
    } else if (choice.layout == aicore::KernelLayout::kAic) {
      t->unit = 1;
    }
    return t;
  };

  FaultSlot fault;
  if (cross) cross->stop = fault.stop();
  std::atomic<bool> revealed{false};
  // Runs one (sub-)core's body and records how it ended; true when it faulted.
  auto run_core = [&](uint32_t b, aicore::CoreContext& ctx) -> bool {
    try {
      body();
      aicore::FinishBlock(ctx);
      return false;
    } catch (const aicore::KernelTypeRevealed&) {
      revealed.store(true, std::memory_order_relaxed);
      fault.Stop();
      return true;
    } catch (const aicore::SubCoreStopped&) {
      return true;
    } catch (const Error& e) {
      fault.Record(b, ctx.api_calls, e.kind(), e.what());
      return true;
    } catch (const std::exception& e) {
      fault.Record(b, ctx.api_calls, ErrorKind::kInvalidArgument,
                   aicore::WhereAmI() + "kernel threw " + e.what());
      return true;
    } catch (const runtime::SyncAllStopped&) {
      throw;  // another block's fault broke the barrier: the barrier ends this block
    } catch (...) {
      // `throw 42;` and the like: on a pool thread it would reach std::terminate, and in serial
      // mode it would escape ICPU_RUN_KF as itself. It fails the launch like any fault.
      fault.Record(b, ctx.api_calls, ErrorKind::kInvalidArgument,
                   aicore::WhereAmI() +
                       "kernel threw an exception that is not a std::exception (e.g. throw 42)");
      return true;
    }
  };
  // A mix block: the AIC here, each AIV on a block thread, all at once (they wait for each other
  // through cross-core flags and the Matmul server).
  auto run_mix_block = [&](uint32_t b) {
    aicore::MixGroup group(&shared, b, choice.mix_aivs);
    group.aic_trace = trace_of(b, 0);
    if (cross) aicore::CrossCoreBlockStarted(*cross, b, &group);
    std::mutex done_mu;
    std::condition_variable done_cv;
    uint32_t running = choice.mix_aivs;
    auto run_sub = [&](uint32_t slot) {
      const aicore::CoreUnit unit = slot == 0 ? aicore::CoreUnit::kAic : aicore::CoreUnit::kAiv;
      ExitReport report{cross.get(), unit};
      uint8_t* mems[aicore::kLocalMemoryCount];
      ThreadMemories(unit, mems);
      aicore::CoreScope scope(&shared, b, unit, mems, trace_of(b, slot));
      aicore::CoreContext& ctx = scope.context();
      ctx.group = &group;
      ctx.sub_block_idx = slot == 0 ? 0 : slot - 1;
      ctx.sub_block_num = slot == 0 ? 1 : choice.mix_aivs;
      // A broken SyncAll barrier (another block faulted) ends this sub-core like a fault; the
      // AIC's thread, which the barrier runs, passes it on once the AIVs are done.
      bool stopped = false;
      bool failed = true;
      try {
        failed = run_core(b, ctx);
        report.faulted = failed;
      } catch (const runtime::SyncAllStopped&) {
        stopped = true;
      }
      group.Exit(static_cast<int>(slot), failed);
      return stopped;
    };
    for (uint32_t i = 1; i <= choice.mix_aivs; ++i) {
      runtime::RunOnBlockThread([&, i] {
        run_sub(i);
        std::lock_guard<std::mutex> lock(done_mu);
        if (--running == 0) done_cv.notify_all();
      });
    }
    const bool stopped = run_sub(0);
    {
      std::unique_lock<std::mutex> lock(done_mu);
      done_cv.wait(lock, [&] { return running == 0; });
    }
    if (cross) aicore::CrossCoreBlockEnded(*cross, b);  // other blocks may still be waking it
    if (stopped) throw runtime::SyncAllStopped{};
  };
  const std::function<void(uint32_t)> run_block = [&](uint32_t b) {
    switch (choice.layout) {
      case aicore::KernelLayout::kAiv: {
        ExitReport report{cross.get(), aicore::CoreUnit::kAiv};
        aicore::CoreScope scope(&shared, b, ThreadUbArena());
        report.faulted = run_core(b, scope.context());
        return;
      }
      case aicore::KernelLayout::kMix:
        run_mix_block(b);
        return;
      default: {
        const aicore::CoreUnit unit = choice.layout == aicore::KernelLayout::kAic
                                          ? aicore::CoreUnit::kAic
                                          : aicore::CoreUnit::kAiCore;
        ExitReport report{cross.get(), unit};
        uint8_t* mems[aicore::kLocalMemoryCount];
        ThreadMemories(unit, mems);
        aicore::CoreScope scope(&shared, b, unit, mems, trace_of(b, 0));
        report.faulted = run_core(b, scope.context());
        return;
      }
    }
  };

  // SyncAll: blocks go through the barrier, which may move unstarted ones to their own threads.
  runtime::SyncAllBarrier barrier(shared, block_dim, run_block, fault.stop());
  shared.sync_all = [&barrier](uint32_t b) { barrier.Arrive(b); };
  shared.make_resident = [&barrier] { barrier.MakeResident(); };
  shared.spin_wait = [&barrier](uint32_t b, const char* call, const std::function<bool(bool)>& poll,
                                const std::function<std::string()>& hang) {
    barrier.SpinWait(b, call, poll, hang);
  };
  const std::function<void(uint32_t)> run_or_skip = [&barrier](uint32_t b) { barrier.Run(b); };

  const auto start = std::chrono::steady_clock::now();
  {
    // The launch timeout (watchdog) and the cancel token cover the blocks' run.
    runtime::LaunchGuard guard(shared, settings.values.timeout_seconds, cancel_token);
    if (settings.values.serial) {
      for (uint32_t b = 0; b < block_dim && !fault.stop()->load(); ++b) run_or_skip(b);
    } else {
      runtime::Process::Get().pool().RunGrid(block_dim, run_or_skip, fault.stop());
    }
    barrier.Join();
  }
  // Cross-core races are judged once every block's GM log is in (a cancelled launch has none
  // worth judging).
  if (sanitizer != nullptr && !shared.cancelled.load(std::memory_order_acquire)) {
    if (auto finding = sanitizer->FindCrossBlockRace(kernel)) {
      fault.Record(finding->block / sanitizer->sub_cores(), finding->call, ErrorKind::kRace,
                   finding->message);
    }
  }
  const double wall_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();

  // The probe's outcome: remember the kernel's layout; start over when it needs another one.
  if (choice.probing) {
    LayoutChoice found = choice;
    found.probing = false;
    const int r = shared.revealed_layout.load(std::memory_order_acquire);
    if (r >= 0) {
      const int enc = r & 63;
      found.layout = static_cast<aicore::KernelLayout>(enc / 4);
      found.mix_aivs = static_cast<uint8_t>(enc % 4 == 0 ? 2 : enc % 4);
      found.cross_core = (r & 64) != 0;
    }
    if (revealed.load()) {
      // Start over with the revealed layout, still probing: a declaration of higher rank (a
      // KERNEL_TASK_TYPE for this key after the default) may come later in the kernel. Each
      // restart needs a reveal of higher priority than the last, so there are at most three.
      choice = found;
      choice.probing = true;
      choice.decided_priority = r >> 8;
      return true;  // nothing of this attempt is reported: the launch starts over
    }
    if (r >= 0 || !fault.has()) {
      if (kernel_id != nullptr) {
        runtime::Process::Get().RememberKernelLayout(kernel_id, tiling_key, EncodeLayout(found));
      }
    }
  }
  // Not reached by an attempt that starts over: its blocks may have stopped early.
  if (sanitizer != nullptr) {
    sanitizer->EndLaunch(!shared.cancelled.load(std::memory_order_acquire));
  }

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
  return false;
}

void RunLaunch(const std::string& kernel, uint32_t block_dim, const KernelBody& body,
               const runtime::LaunchSettings& settings,
               std::shared_ptr<CancelToken::State> cancel_token, const void* kernel_id,
               const LaunchGmArgs* gm_args, uint64_t tiling_key) {
  LayoutChoice choice = ChooseLayout(*settings.values.soc, kernel_id, tiling_key);
  // A probing attempt restarts when a call reveals another layout (rarely more than once).
  while (RunAttempt(kernel, block_dim, body, settings, cancel_token, kernel_id, gm_args, tiling_key,
                    choice)) {
  }
}

}  // namespace

void SetCpuDebugTilingKey(uint64_t key) {
  // CANN warns and goes on for 0 and for negative keys (docs: ICPU_SET_TILING_KEY).
  if (key == 0 || key > static_cast<uint64_t>(INT64_MAX)) {
    const runtime::LaunchSettings settings = runtime::Process::Get().Snapshot();
    if (*settings.warning_sink) {
      (*settings.warning_sink)(
          "ICPU_SET_TILING_KEY(" + std::to_string(static_cast<int64_t>(key)) +
          "): a tiling key should be a positive integer; " +
          (key == 0 ? "the branches for key 0 run" : "a negative key is undefined behaviour"));
    }
  }
  runtime::Process::Get().SetCpuDebugTilingKey(key);
}

uint64_t CpuDebugTilingKey() { return runtime::Process::Get().CpuDebugTilingKey(); }

void Launch(const char* kernel_name, uint32_t block_dim, KernelBody body, Stream* stream,
            int compiled_arch, const void* kernel_id, LaunchGmArgs* gm_args, uint64_t tiling_key) {
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
    RunLaunch(kernel, block_dim, body, settings, std::move(token), kernel_id, gm_args, tiling_key);
    return;
  }
  std::shared_ptr<const LaunchGmArgs> args;
  if (gm_args != nullptr) args = std::make_shared<const LaunchGmArgs>(std::move(*gm_args));
  stream->Enqueue([kernel, block_dim, body = std::move(body), settings = std::move(settings), token,
                   kernel_id, args = std::move(args), tiling_key] {
    RunLaunch(kernel, block_dim, body, settings, token, kernel_id, args.get(), tiling_key);
  });
}

}  // namespace ascsim
