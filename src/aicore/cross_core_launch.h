// Launch-wide state of the cross-core flags in mode 0 ("CrossCoreSetFlag(ISASI)": every AIC, or
// every AIV, of the launch sets flagId; once all of them have, each of them may pass its
// CrossCoreWaitFlag(flagId)). Mode 1 and 2 stay in the block's MixGroup. Made by the runtime for a
// launch whose kernel type starts the cross-core scheduler; private to aicore and the runtime.
//
// A round of flag f for unit u counts the sets; when it reaches the number of u cores in the
// launch, every u core gets one credit of f (as its own flag counter on the device) and the round
// starts over. SyncAll in a mix kernel is built from these rounds as CANN builds it
// (impl/basic_api/dav_c220/kernel_operator_sync_impl.h: flags 11..14).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "aicore/mix_group.h"
#include "ascsim/aicore/core_context.h"

namespace ascsim::aicore {

struct CrossCoreLaunch {
  // `aics` / `aivs`: the cores of each kind in the launch (0 when it has none).
  CrossCoreLaunch(uint32_t aics, uint32_t aivs) {
    cores[0] = aics;
    cores[1] = aivs;
    for (int u = 0; u < 2; ++u) {
      credit[u].assign(size_t{cores[u]} * kCrossCoreFlags, 0);
      wait_flag[u].assign(cores[u], -1);
    }
  }

  // 0 for an AIC, 1 for an AIV (a whole AI core counts as an AIV here: mode 0 needs split cores).
  static int UnitOf(const CoreContext& c) { return c.unit == CoreUnit::kAic ? 0 : 1; }
  // The core's index among the launch's cores of its kind: an AIC is its block, an AIV of a mix
  // launch block * aivs + sub-block.
  static uint32_t IndexOf(const CoreContext& c) {
    return c.unit == CoreUnit::kAic ? c.block_idx : c.block_idx * c.sub_block_num + c.sub_block_idx;
  }
  // The same for slot `slot` of block `block`'s MixGroup (0: the AIC, 1 + i: AIV i of `aivs`).
  static int UnitOfSlot(int slot) { return slot == 0 ? 0 : 1; }
  static uint32_t IndexOfSlot(uint32_t block, uint32_t aivs, int slot) {
    return slot == 0 ? block : block * aivs + static_cast<uint32_t>(slot - 1);
  }

  std::mutex mu;
  std::condition_variable cv;  // waiters outside a MixGroup (a MIX_AIV_1_0 launch's AIVs)
  uint32_t cores[2] = {};
  uint32_t round_sets[2][kCrossCoreFlags] = {};
  std::vector<uint8_t> credit[2];     // [index * 16 + flag]: completed rounds not yet waited for
  uint32_t exited[2] = {};            // cores of each kind that left the kernel
  uint32_t finished[2] = {};          // of them, those that ran it to its end (no fault): what a
                                      // report names, the same whichever waiter reports first
  uint32_t waiting[2] = {};           // cores of each kind blocked in CrossCoreWaitFlag
  std::vector<int16_t> wait_flag[2];  // per core: the flag it waits for, -1 when not waiting
  uint64_t progress = 0;              // counts sets, finished waits and exits: a launch that waits
                                      // with none between two looks is stuck
  bool resident = false;              // every block runs on its own thread (make_resident called)
  const std::atomic<bool>* stop = nullptr;  // set once the launch has a fault: waiters give up
  std::vector<MixGroup*> groups;  // the running blocks' groups, woken when a round completes
  // Threads waking a copy of `groups` outside `mu` (a waiter holds its group's mutex while it
  // takes `mu`, so the wake cannot hold `mu`). A block keeps its group alive until this is 0.
  uint32_t waking = 0;
};

// A mix block's group takes part in the launch-wide rounds from BlockStarted until BlockEnded;
// BlockEnded returns once no thread is still waking the group, so the caller may destroy it.
void CrossCoreBlockStarted(CrossCoreLaunch& launch, uint32_t block, MixGroup* group);
void CrossCoreBlockEnded(CrossCoreLaunch& launch, uint32_t block);

// The runtime reports each (sub-)core leaving the kernel, so that waits that can no longer be
// satisfied fail instead of hanging; `faulted` when it left through a fault (or a broken barrier).
void CrossCoreExited(CrossCoreLaunch& launch, CoreUnit unit, bool faulted);

}  // namespace ascsim::aicore
