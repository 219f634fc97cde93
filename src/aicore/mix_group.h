// The sub-cores of one block of a mix launch (KernelLayout::kMix): one AIC and one or two AIVs
// that run concurrently (each on its own thread, see runtime/launch.cpp) and meet through
// CrossCoreSetFlag/CrossCoreWaitFlag and the Matmul client/server hand-over. Private to the
// aicore layer and the runtime that creates it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/core_context.h"

namespace ascsim::aicore {

constexpr int kCrossCoreFlags = 16;     // flag ids 0..15 (modes 0, 1, 2 on A2)
constexpr int kCrossCoreMaxCount = 15;  // each flag's counter holds 0..15
constexpr int kMaxMixAivs = 2;

// Thrown in a sub-core that waits for a partner after another sub-core of the launch faulted;
// the runtime swallows it (the fault is the launch's result).
struct SubCoreStopped {};

struct MixGroup {
  MixGroup(LaunchShared* launch_in, uint32_t block_in, uint32_t aivs_in)
      : launch(launch_in), block(block_in), aivs(aivs_in) {}

  LaunchShared* launch;
  uint32_t block;
  uint32_t aivs;  // 1 or 2

  std::mutex mu;
  std::condition_variable cv;
  // Cross-core flag counters per sub-core: [0] the AIC, [1 + i] AIV i.
  int counters[1 + kMaxMixAivs][kCrossCoreFlags] = {};
  int aiv_to_aic[kCrossCoreFlags] = {};  // mode 2: AIV sets of the current round
  int aiv_to_aiv[kCrossCoreFlags] = {};  // mode 1: AIV sets of the current round
  bool exited[1 + kMaxMixAivs] = {};
  bool waiting[1 + kMaxMixAivs] = {};
  int wait_flag[1 + kMaxMixAivs] = {};  // the flag a waiting sub-core waits for
  bool failed = false;                  // a sub-core of this block faulted: waiters stop
  // The sanitizer's vector clocks (LaunchSanitizer, one entry per AIV GM log), empty when it is
  // off: what the sets of a flag release to whoever consumes it, per destination sub-core; the
  // AIV sets of a mode-2 / mode-1 round still incomplete; and what the AIC (which has no log)
  // has acquired, which it hands on with its own sets.
  std::vector<uint32_t> released[1 + kMaxMixAivs][kCrossCoreFlags];
  std::vector<uint32_t> round_clock[2][kCrossCoreFlags];
  std::vector<uint32_t> aic_clock;

  // Matmul (REGIST_MATMUL_OBJ without ASCENDC_CUBE_ONLY): the AIC serves its AIVs' requests.
  bool server_ready = false;  // the AIC reached REGIST_MATMUL_OBJ
  // The AIC takes one request at a time, polling its AIVs' message queues in turn (asc-devkit
  // impl/adv_api/detail/kfc/kernel_kfc.h, KfcServer::Run: one message of AIV i, then AIV i + 1;
  // an empty queue is passed over). The turn makes the order of the AIC's work, and so its
  // trace and estimate, the same on every run (matmul_server.cpp, MatmulServerScope).
  bool serving = false;                // a request runs on the AIC now
  int serve_turn = 0;                  // the AIV whose request the AIC takes next
  bool posted[kMaxMixAivs] = {};       // the AIV waits for the AIC to take its request
  bool parked[1 + kMaxMixAivs] = {};   // the sub-core spins on GM (IBWait, soft SyncAll) or
                                       // waits for a shared Matmul result
  // A and B both ibShare: the results of AIV 0's IterateAll, which AIV 1 shares, and (sanitizer)
  // what AIV 0 had done when the last of them was written.
  uint64_t shared_results = 0;
  std::vector<uint32_t> shared_clock;
  trace::CoreTrace* aic_trace = nullptr;
  // Per AIV: the buffer records of its server context's TPipes (declared first: they outlive
  // the context).
  std::unique_ptr<SlotStore> server_slots[kMaxMixAivs];
  // Per AIV: the AIC-side context its Matmul requests run in (own L1/L0 arenas, the AIC's
  // trace), made on first use.
  std::unique_ptr<CoreContext> server[kMaxMixAivs];
  std::shared_ptr<uint8_t> server_arena[kMaxMixAivs];

  // Index into counters/exited/waiting of `core` (0: AIC, 1 + sub_block_idx: an AIV).
  static int Slot(const CoreContext& core) {
    return core.unit == CoreUnit::kAic ? 0 : 1 + static_cast<int>(core.sub_block_idx);
  }
  // Whether sub-core `slot` may still act (set a flag, post a Matmul request): it has not left the
  // kernel and does not wait on a cross-core flag nobody has set. Under mu.
  bool Runnable(int slot) const {
    return !exited[slot] && (!waiting[slot] || counters[slot][wait_flag[slot]] > 0);
  }
  // Marks `slot` as out of the kernel and wakes every waiter.
  void Exit(int slot, bool fault) {
    std::lock_guard<std::mutex> lock(mu);
    exited[slot] = true;
    if (fault) failed = true;
    cv.notify_all();
  }
};

// Marks `core`, when it is a sub-core of a mix block, as spinning on GM for the scope.
class ParkedScope {
 public:
  explicit ParkedScope(const CoreContext& core)
      : group_(core.group), slot_(group_ != nullptr ? MixGroup::Slot(core) : 0) {
    Set(true);
  }
  ~ParkedScope() { Set(false); }
  ParkedScope(const ParkedScope&) = delete;
  ParkedScope& operator=(const ParkedScope&) = delete;

 private:
  void Set(bool parked) {
    if (group_ == nullptr) return;
    std::lock_guard<std::mutex> lock(group_->mu);
    group_->parked[slot_] = parked;
    group_->cv.notify_all();
  }
  MixGroup* group_;
  int slot_;
};

// Makes `core` the current core of this thread for the scope (the Matmul client running its
// request on the AIC side), restoring the previous one after.
class CurrentCoreSwitch {
 public:
  explicit CurrentCoreSwitch(CoreContext* core);
  ~CurrentCoreSwitch();
  CurrentCoreSwitch(const CurrentCoreSwitch&) = delete;
  CurrentCoreSwitch& operator=(const CurrentCoreSwitch&) = delete;

 private:
  CoreContext* previous_;
};

}  // namespace ascsim::aicore
