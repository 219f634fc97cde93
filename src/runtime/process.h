// The process object: every piece of process-wide runtime state in one place, as HIP-CPU keeps
// its single runtime. It holds the settings table and the services a launch uses (worker pool,
// watchdog, SyncAll block threads, device memory registry); there is one per process, made on
// first use and never destroyed (launches queued on streams may outlive static destructors).
//
// Settings are read once per launch: Snapshot() copies the whole table when the launch is issued,
// so a queued launch runs with the SoC, strict and serial modes, timeout, sanitizer flags,
// observers and warning sink of the moment it was issued, whatever changes afterwards.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ascsim/runtime.h"
#include "runtime/fork_safety.h"

namespace ascsim::runtime {

class WorkerPool;
class Watchdog;
class BlockThreads;
class DeviceMemory;

// What one launch runs with (a copy: later changes do not affect it).
struct LaunchSettings {
  Settings values;
  std::shared_ptr<const std::vector<LaunchObserver>> observers;  // never null; often empty
  std::shared_ptr<const WarningSink> warning_sink;               // never null
};

class Process {
 public:
  static Process& Get();

  LaunchSettings Snapshot() const;
  Settings GetSettings() const;
  // Validates and installs all values at once (InvalidArgument leaves the table unchanged).
  void SetSettings(const Settings& settings);
  // Changes one value under the lock: `edit` gets the current table and may throw.
  template <class Edit>
  void EditSettings(Edit&& edit) {
    std::lock_guard<std::mutex> lock(mu_);
    Settings next = settings_;
    edit(next);
    settings_ = next;
  }

  WarningSink SwapWarningSink(WarningSink sink);
  // True the first time it is called with `key` in this process (for warn-once messages).
  bool FirstTime(const std::string& key);
  // The sub-core layout a launch of the kernel function `kernel_id` with `tiling_key` revealed
  // (docs/cube.md): an encoded aicore::KernelLayout, remembered so later launches need not probe.
  bool KernelLayoutOf(const void* kernel_id, uint64_t tiling_key, int* encoded) const;
  void RememberKernelLayout(const void* kernel_id, uint64_t tiling_key, int encoded);
  // ICPU_SET_TILING_KEY's key (ascsim/runtime.h).
  void SetCpuDebugTilingKey(uint64_t key) { cpu_debug_tiling_key_.store(key); }
  uint64_t CpuDebugTilingKey() const { return cpu_debug_tiling_key_.load(); }
  // Kernel functions built with --cce-auto-sync (DeclareCompiledWithAutoSync).
  void MarkAutoSync(const void* kernel_id);
  bool IsAutoSync(const void* kernel_id) const;
  int AddObserver(LaunchObserver observer);
  void RemoveObserver(int id);

  WorkerPool& pool() { return pool_.Get(); }
  Watchdog& watchdog() { return watchdog_.Get(); }
  BlockThreads& block_threads() { return block_threads_.Get(); }
  DeviceMemory& memory() { return *memory_; }

 private:
  Process();
  void PublishObservers();  // mu_ held

  mutable std::mutex mu_;
  Settings settings_;
  std::map<int, LaunchObserver> observers_;
  int next_observer_id_ = 1;
  std::shared_ptr<const std::vector<LaunchObserver>> observer_list_;
  std::shared_ptr<const WarningSink> warning_sink_;
  std::set<std::string> seen_keys_;
  std::map<std::pair<const void*, uint64_t>, int> kernel_layouts_;
  std::atomic<uint64_t> cpu_debug_tiling_key_{0};
  std::set<const void*> auto_sync_kernels_;

  ForkSafeInstance<WorkerPool> pool_;
  ForkSafeInstance<Watchdog> watchdog_;
  ForkSafeInstance<BlockThreads> block_threads_;
  DeviceMemory* memory_;  // survives fork (the child's memory is a copy); see device_memory.cpp
};

// Factories of the services, defined beside each class.
WorkerPool* NewWorkerPool();
Watchdog* NewWatchdog();
BlockThreads* NewBlockThreads();
DeviceMemory* NewDeviceMemory();

}  // namespace ascsim::runtime
