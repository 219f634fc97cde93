// CrossCoreSetFlag / CrossCoreWaitFlag between the sub-cores of a mix block (kernel_type.h).
// The sub-cores run on their own threads; a wait blocks on the group's condition variable and is
// reported at once (instead of hanging) when no partner that could still set the flag is left.
#include <chrono>

#include "aicore/cross_core_launch.h"
#include "aicore/mix_group.h"
#include "aicore/sanitizer/core_sanitizer.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/kernel_type.h"

namespace ascsim::aicore {
namespace {

const char* SlotName(int slot) { return slot == 0 ? "the AIC" : slot == 1 ? "AIV0" : "AIV1"; }

// `wait`: CrossCoreWaitFlag, whose modeId and pipe the A2 hardware ignores ("CrossCoreWaitFlag
// (ISASI)": it blocks every pipe until its own counter of flagId is non-zero), so the defaults
// <0, PIPE_S> that kernels use are fine there.
uint16_t CheckFlag(const char* call, CoreContext& core, uint8_t mode, pipe_t pipe, uint16_t flag,
                   bool wait) {
  EnterApiCall(core);
  const SocProfile& soc = *core.launch->soc;
  if (!soc.split_cores) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": not available on ", soc.name, " (one AI core holds both units)"));
  }
  if (wait) {
    if (flag >= kCrossCoreFlags) {
      Warn(Str(call, ": flagId ", flag, " is outside 0..15; the device keeps its low 4 bits (",
               flag & 15, ")"),
           Str(call, "/flag/", flag));
      flag &= 15;
    }
    LaunchShared& launch = *core.launch;
    if (launch.layout != KernelLayout::kMix &&
        (!launch.cross_core_enabled || launch.cross_launch == nullptr)) {
      if (launch.probing) RevealCrossCore(core, call);
      Fault(ErrorKind::kSyncMisuse,
            Str(call,
                ": the kernel type does not start the cross-core scheduler (declare "
                "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)); the device would hang"));
    }
    return flag;
  }
  if (mode > 2) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, "<", static_cast<int>(mode), ">: ", soc.name,
              " supports modes 0 (all AICs or all AIVs), 1 (AIV<->AIV) and 2 (AIC<->AIV)"));
  }
  if (pipe == PIPE_S || pipe == PIPE_ALL) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": pipe ", pipe == PIPE_S ? "PIPE_S" : "PIPE_ALL",
              " is not allowed (use PIPE_V, PIPE_M, PIPE_MTE1/2/3 or PIPE_FIX)"));
  }
  if (flag >= kCrossCoreFlags) {
    Warn(Str(call, ": flagId ", flag, " is outside 0..15; the device keeps its low 4 bits (",
             flag & 15, ")"),
         Str(call, "/flag/", flag));
    flag &= 15;
  }
  LaunchShared& launch = *core.launch;
  if (launch.layout != KernelLayout::kMix) {
    if (launch.probing && mode != 0) RevealCrossCore(core, call);
    if (!launch.cross_core_enabled) {
      Fault(ErrorKind::kSyncMisuse,
            Str(call,
                ": the kernel type does not start the cross-core scheduler (declare "
                "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2) or a MIX_*_1_0 type); "
                "the device would hang"));
    }
    if (mode != 0) {
      Fault(ErrorKind::kSyncMisuse,
            Str(call, "<", static_cast<int>(mode), ">: mode ", static_cast<int>(mode),
                " needs a KERNEL_TYPE_MIX_AIC_1_1/1_2 kernel (an AIC with its AIVs)"));
    }
  }
  if (mode == 0 && launch.cross_launch == nullptr) {
    Fault(ErrorKind::kSyncMisuse, Str(call, "<0>: this launch has no cross-core scheduler"));
  }
  if (mode == 1 && core.unit != CoreUnit::kAiv) {
    Fault(ErrorKind::kSyncMisuse, Str(call, "<1>: mode 1 synchronises the AIVs; this is the AIC"));
  }
  if (mode == 1 && core.group != nullptr && core.group->aivs < 2) {
    Fault(ErrorKind::kSyncMisuse,
          Str(call, "<1>: mode 1 needs two AIVs per AIC (KERNEL_TYPE_MIX_AIC_1_2)"));
  }
  return flag;
}

// Called under g.mu. A sub-core that waits for `flag` can run now: the launch-wide state stops
// counting it as blocked at once (under g.mu, before it wakes), since another block judging
// whether the launch is stuck reads only that state.
void Bump(const char* call, MixGroup& g, int slot, uint16_t flag) {
  if (++g.counters[slot][flag] > kCrossCoreMaxCount) {
    Fault(ErrorKind::kSyncMisuse,
          Str(call, ": flag ", flag, " of ", SlotName(slot), " counts past ", kCrossCoreMaxCount,
              " unconsumed sets (each CrossCoreSetFlag needs its CrossCoreWaitFlag)"));
  }
  CrossCoreLaunch* L = g.launch->cross_launch;
  if (L == nullptr || !g.waiting[slot] || g.wait_flag[slot] != flag) return;
  std::lock_guard<std::mutex> lock(L->mu);
  L->wait_flag[CrossCoreLaunch::UnitOfSlot(slot)]
              [CrossCoreLaunch::IndexOfSlot(g.block, g.aivs, slot)] = -1;
  ++L->progress;
}

trace::ApiCall CrossCall(const char* name, trace::CallKind kind, pipe_t pipe, uint8_t mode,
                         uint16_t flag) {
  trace::ApiCall call{};
  call.name = name;
  call.kind = kind;
  call.pipe = trace::Pipe::kS;
  call.event = (static_cast<uint32_t>(mode) << 8) | flag;
  call.wait_src = pipe == PIPE_V      ? trace::Pipe::kV
                  : pipe == PIPE_M    ? trace::Pipe::kM
                  : pipe == PIPE_MTE1 ? trace::Pipe::kMte1
                  : pipe == PIPE_MTE2 ? trace::Pipe::kMte2
                  : pipe == PIPE_MTE3 ? trace::Pipe::kMte3
                  : pipe == PIPE_FIX  ? trace::Pipe::kFix
                                      : trace::Pipe::kNone;
  return call;
}

// Wakes the waiters of every running block's group; `lock` holds L.mu on entry and on return.
// A group's mutex is taken with L.mu released (its waiters take L.mu under it); L.waking keeps
// the groups of the copy alive meanwhile (CrossCoreBlockEnded waits for it), since a block that
// ends destroys its group.
void WakeGroups(CrossCoreLaunch& L, std::unique_lock<std::mutex>& lock) {
  const std::vector<MixGroup*> wake = L.groups;
  ++L.waking;
  lock.unlock();
  for (MixGroup* g : wake) {
    if (g == nullptr) continue;
    std::lock_guard<std::mutex> group_lock(g->mu);
    g->cv.notify_all();
  }
  lock.lock();
  if (--L.waking == 0) L.cv.notify_all();
}

// Mode 0: one set of this core's kind towards the launch-wide round of `flag`.
void SetMode0(CoreContext& core, uint16_t flag) {
  CrossCoreLaunch& L = *core.launch->cross_launch;
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(L.mu);
    first = !L.resident;
    L.resident = true;
  }
  // Every core of the kind must be running for the round to fill (as for SyncAll).
  if (first && core.launch->make_resident) core.launch->make_resident();
  const int u = CrossCoreLaunch::UnitOf(core);
  std::unique_lock<std::mutex> lock(L.mu);
  ++L.progress;
  if (++L.round_sets[u][flag] < L.cores[u]) return;
  L.round_sets[u][flag] = 0;
  for (uint32_t i = 0; i < L.cores[u]; ++i) {
    if (++L.credit[u][size_t{i} * kCrossCoreFlags + flag] > kCrossCoreMaxCount) {
      Fault(ErrorKind::kSyncMisuse,
            Str("CrossCoreSetFlag<0>: flag ", flag, " of ", u == 0 ? "AIC " : "AIV ", i,
                " counts past ", kCrossCoreMaxCount,
                " unconsumed mode-0 rounds (each CrossCoreSetFlag needs its CrossCoreWaitFlag)"));
    }
  }
  L.cv.notify_all();
  WakeGroups(L, lock);
}

// Takes one mode-0 credit of `flag` for `core` when it has one.
bool TakeMode0Credit(CrossCoreLaunch* L, const CoreContext& core, uint16_t flag) {
  if (L == nullptr) return false;
  std::lock_guard<std::mutex> lock(L->mu);
  const int u = CrossCoreLaunch::UnitOf(core);
  const uint32_t me = CrossCoreLaunch::IndexOf(core);
  uint8_t& c = L->credit[u][size_t{me} * kCrossCoreFlags + flag];
  if (c == 0) return false;
  --c;
  // Runnable from here on (the waiter's WaitingScope ends a little later).
  L->wait_flag[u][me] = -1;
  ++L->progress;
  // A completed round orders every set of it before this wait: for the GM race check it is a
  // launch-wide barrier of this core's kind, like SyncAll.
  if (core.sanitizer != nullptr) core.sanitizer->CrossCoreRound();
  return true;
}

// Whether the launch is stuck: no core of it can run (each one has left the kernel or waits for a
// flag it has no credit of) and nothing happened since the last look (`seen`, updated here).
// Called under L.mu. A waiter counts as blocked only while it has neither a mode-0 credit nor a
// set in its own group: both clear its wait_flag under L.mu the moment they make it runnable
// (TakeMode0Credit, Bump), and a waiter registers only after finding its group counter at 0. The
// judgement is therefore exact at any instant; the second look guards against a waiter woken
// between the two.
bool LaunchStuckLocked(CrossCoreLaunch& L, uint64_t* seen) {
  for (int u = 0; u < 2; ++u) {
    uint32_t blocked = 0;
    for (uint32_t i = 0; i < L.cores[u]; ++i) {
      const int f = L.wait_flag[u][i];
      if (f >= 0 && L.credit[u][size_t{i} * kCrossCoreFlags + f] == 0) ++blocked;
    }
    if (L.cores[u] > L.exited[u] + blocked) {
      *seen = ~uint64_t{0};
      return false;
    }
  }
  if (*seen == L.progress) return true;
  *seen = L.progress;
  return false;
}
bool LaunchStuck(CrossCoreLaunch* L, uint64_t* seen) {
  if (L == nullptr) return true;  // only the block's own sub-cores could set it
  std::lock_guard<std::mutex> lock(L->mu);
  return LaunchStuckLocked(*L, seen);
}
void NoteProgress(CrossCoreLaunch* L) {
  if (L == nullptr) return;
  std::lock_guard<std::mutex> lock(L->mu);
  ++L->progress;
}

// Marks the core as waiting for `flag` in the launch-wide state for the scope.
class WaitingScope {
 public:
  WaitingScope(CrossCoreLaunch* L, const CoreContext& core, uint16_t flag)
      : L_(L), unit_(CrossCoreLaunch::UnitOf(core)), index_(CrossCoreLaunch::IndexOf(core)) {
    if (L_ == nullptr) return;
    std::lock_guard<std::mutex> lock(L_->mu);
    ++L_->waiting[unit_];
    L_->wait_flag[unit_][index_] = static_cast<int16_t>(flag);
  }
  ~WaitingScope() {
    if (L_ == nullptr) return;
    std::lock_guard<std::mutex> lock(L_->mu);
    --L_->waiting[unit_];
    L_->wait_flag[unit_][index_] = -1;
    ++L_->progress;
  }
  WaitingScope(const WaitingScope&) = delete;
  WaitingScope& operator=(const WaitingScope&) = delete;

 private:
  CrossCoreLaunch* L_;
  int unit_;
  uint32_t index_;
};

std::string Mode0Note(CrossCoreLaunch* L, const CoreContext& core, uint16_t flag) {
  if (L == nullptr) return "";
  std::lock_guard<std::mutex> lock(L->mu);
  const int u = CrossCoreLaunch::UnitOf(core);
  if (L->round_sets[u][flag] == 0) return "";
  return Str("; its mode-0 round has ", L->round_sets[u][flag], " of the ", L->cores[u],
             u == 0 ? " AICs'" : " AIVs'", " sets (", L->finished[u], " left the kernel)");
}

// A MIX_*_1_0 launch: no block group, mode-0 credits only.
void WaitLaunchOnly(CoreContext& core, uint16_t flag) {
  CrossCoreLaunch& L = *core.launch->cross_launch;
  const int u = CrossCoreLaunch::UnitOf(core);
  const uint32_t me = CrossCoreLaunch::IndexOf(core);
  uint8_t& credit = L.credit[u][size_t{me} * kCrossCoreFlags + flag];
  std::unique_lock<std::mutex> lock(L.mu);
  ++L.waiting[u];
  L.wait_flag[u][me] = static_cast<int16_t>(flag);
  auto leave = [&] {
    --L.waiting[u];
    L.wait_flag[u][me] = -1;
    ++L.progress;
  };
  uint64_t seen = ~uint64_t{0};
  for (;;) {
    if (credit > 0) {
      --credit;
      leave();
      if (core.sanitizer != nullptr) core.sanitizer->CrossCoreRound();  // as TakeMode0Credit
      return;
    }
    if (L.stop != nullptr && L.stop->load(std::memory_order_acquire)) {
      leave();
      throw SubCoreStopped{};  // another core's fault is the launch's result
    }
    const bool cancelled = core.launch->cancelled.load(std::memory_order_acquire);
    if (cancelled || LaunchStuckLocked(L, &seen)) {
      leave();
      const uint32_t sets = L.round_sets[u][flag], exited = L.finished[u];
      lock.unlock();
      if (cancelled) {
        Fault(ErrorKind::kTimeout, core.launch->cancel_reason + " (waiting at CrossCoreWaitFlag)");
      }
      Fault(
          ErrorKind::kSyncMisuse,
          Str("CrossCoreWaitFlag(", flag, ") on ", u == 0 ? "AIC " : "AIV ", me,
              ": no core of the launch can set it any more (its mode-0 round has ", sets,
              " of the ", L.cores[u], " sets, ", exited,
              " cores left the kernel); the device would hang until the AI-core timeout (507014)"));
    }
    L.cv.wait_for(lock, std::chrono::milliseconds(50));
  }
}

}  // namespace

void CrossCoreBlockStarted(CrossCoreLaunch& L, uint32_t block, MixGroup* group) {
  std::lock_guard<std::mutex> lock(L.mu);
  L.groups[block] = group;
}

void CrossCoreBlockEnded(CrossCoreLaunch& L, uint32_t block) {
  std::unique_lock<std::mutex> lock(L.mu);
  L.groups[block] = nullptr;
  L.cv.wait(lock, [&] { return L.waking == 0; });
}

void CrossCoreExited(CrossCoreLaunch& L, CoreUnit unit, bool faulted) {
  std::unique_lock<std::mutex> lock(L.mu);
  const int u = unit == CoreUnit::kAic ? 0 : 1;
  ++L.exited[u];
  if (!faulted) ++L.finished[u];
  ++L.progress;
  L.cv.notify_all();
  WakeGroups(L, lock);
}

void CrossCoreSetImpl(uint8_t mode, pipe_t pipe, uint16_t flag) {
  CoreContext& core = CurrentCore();
  flag = CheckFlag("CrossCoreSetFlag", core, mode, pipe, flag, false);
  Record(core, [&] {
    return CrossCall("CrossCoreSetFlag", trace::CallKind::kCrossCoreSet, pipe, mode, flag);
  });
  if (mode == 0) {
    SetMode0(core, flag);
    return;
  }
  NoteProgress(core.launch->cross_launch);
  MixGroup& g = *core.group;
  std::lock_guard<std::mutex> lock(g.mu);
  // The sanitizer's happens-before edge: what this sub-core did so far is released to the
  // consumers of the set (an AIV's own clock; the AIC hands on what it acquired).
  if (mode == 2 && core.unit == CoreUnit::kAic) {
    for (uint32_t i = 0; i < g.aivs; ++i) {
      LaunchSanitizer::Join(g.released[1 + i][flag], g.aic_clock);
      Bump("CrossCoreSetFlag", g, 1 + static_cast<int>(i), flag);
    }
  } else if (mode == 2) {
    if (core.sanitizer != nullptr) core.sanitizer->CrossCoreRelease(g.round_clock[0][flag]);
    if (++g.aiv_to_aic[flag] == static_cast<int>(g.aivs)) {
      g.aiv_to_aic[flag] = 0;
      LaunchSanitizer::Join(g.released[0][flag], g.round_clock[0][flag]);
      g.round_clock[0][flag].clear();
      Bump("CrossCoreSetFlag", g, 0, flag);
    }
  } else {  // mode 1
    if (core.sanitizer != nullptr) core.sanitizer->CrossCoreRelease(g.round_clock[1][flag]);
    if (++g.aiv_to_aiv[flag] == static_cast<int>(g.aivs)) {
      g.aiv_to_aiv[flag] = 0;
      for (uint32_t i = 0; i < g.aivs; ++i) {
        LaunchSanitizer::Join(g.released[1 + i][flag], g.round_clock[1][flag]);
        Bump("CrossCoreSetFlag", g, 1 + static_cast<int>(i), flag);
      }
      g.round_clock[1][flag].clear();
    }
  }
  g.cv.notify_all();
}

namespace {

// Under g.mu: sub-core `me` consumed a set of `flag`. The sets' clocks stay joined in
// `released` (a later consumer also sees earlier rounds: the check may miss a race there, never
// report one that cannot happen).
void Consumed(CoreContext& core, MixGroup& g, int me, uint16_t flag) {
  --g.counters[me][flag];
  if (me == 0) {
    LaunchSanitizer::Join(g.aic_clock, g.released[0][flag]);
  } else if (core.sanitizer != nullptr) {
    core.sanitizer->CrossCoreAcquire(g.released[me][flag]);
  }
}

}  // namespace

void CrossCoreWaitImpl(uint8_t mode, pipe_t pipe, uint16_t flag) {
  CoreContext& core = CurrentCore();
  flag = CheckFlag("CrossCoreWaitFlag", core, mode, pipe, flag, true);
  Record(core, [&] {
    return CrossCall("CrossCoreWaitFlag", trace::CallKind::kCrossCoreWait, pipe, mode, flag);
  });
  CrossCoreLaunch* L = core.launch->cross_launch;
  if (core.group == nullptr) {
    WaitLaunchOnly(core, flag);
    return;
  }
  MixGroup& g = *core.group;
  const int me = MixGroup::Slot(core);
  uint64_t seen = ~uint64_t{0};
  std::unique_lock<std::mutex> lock(g.mu);
  if (g.counters[me][flag] > 0) {  // already set: never blocked, not registered anywhere
    Consumed(core, g, me, flag);
    return;
  }
  g.waiting[me] = true;
  g.wait_flag[me] = flag;
  // Registered under g.mu, so no Bump of this group falls between the check above and here.
  // Declared after `lock`: it ends (taking L.mu) while g.mu is still held, the usual order.
  WaitingScope counted(L, core, flag);
  g.cv.notify_all();  // partners re-check whether anyone can still make progress
  for (;;) {
    if (g.counters[me][flag] > 0) {
      Consumed(core, g, me, flag);
      g.waiting[me] = false;
      return;
    }
    if (TakeMode0Credit(L, core, flag)) {
      g.waiting[me] = false;
      return;
    }
    if (g.failed ||
        (L != nullptr && L->stop != nullptr && L->stop->load(std::memory_order_acquire))) {
      g.waiting[me] = false;
      throw SubCoreStopped{};
    }
    // Can anyone still set it? Partners: the AIC for an AIV, the other AIVs (mode 1), the AIVs
    // for the AIC. A partner that left the kernel or waits itself cannot.
    bool someone = false;
    for (int s = 0; s <= static_cast<int>(g.aivs); ++s) {
      if (s != me && g.Runnable(s)) someone = true;
    }
    // Other blocks may still complete a mode-0 round or release a partner.
    if (!someone && LaunchStuck(L, &seen)) {
      g.waiting[me] = false;
      lock.unlock();
      Fault(ErrorKind::kSyncMisuse,
            Str("CrossCoreWaitFlag(", flag, ") on ", SlotName(me),
                ": no sub-core of this block can set it any more (the others have left the "
                "kernel or wait themselves)",
                Mode0Note(L, core, flag),
                "; the device would hang until the AI-core timeout (507014)"));
    }
    g.cv.wait_for(lock, std::chrono::milliseconds(50));
    if (core.launch->cancelled.load(std::memory_order_acquire)) {
      g.waiting[me] = false;
      lock.unlock();
      Fault(ErrorKind::kTimeout, core.launch->cancel_reason + " (waiting at CrossCoreWaitFlag)");
    }
  }
}

}  // namespace ascsim::aicore
