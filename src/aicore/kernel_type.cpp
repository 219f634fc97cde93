// Kernel types: how KERNEL_TASK_TYPE_DEFAULT, REGIST_MATMUL_OBJ, cube buffers and cross-core
// flags reveal the layout of a probing launch (kernel_type.h, docs/cube.md).
#include "ascsim/aicore/kernel_type.h"

#include <atomic>

#include "aicore/kernel_mode.h"
#include "ascsim/aicore/checks.h"

namespace ascsim::aicore {
namespace {

std::atomic<int> g_requested_mode{-1};
// The mode the launch running on this thread was issued with (kernel_mode.h); kNotIssued outside
// such a launch.
constexpr int kNotIssued = -2;
thread_local int t_issued_mode = kNotIssued;

constexpr int Encode(KernelLayout layout, int mix_aivs) {
  return static_cast<int>(layout) * 4 + mix_aivs;
}

// Reveal priorities (LaunchShared::revealed_layout).
constexpr int kInferred = 0;
constexpr int kDeclaredDefault = 1;
constexpr int kDeclaredForKey = 2;

// Stores the layout the kernel needs when it outranks what the launch has seen; when the launch
// is probing and the strongest layout seen differs from the one it runs with, stops this block so
// the runtime can start over with the right one.
void Reveal(CoreContext& core, KernelLayout layout, int mix_aivs, bool cross_core, int priority) {
  LaunchShared& launch = *core.launch;
  if (!launch.probing || priority <= launch.decided_priority) return;
  const int mine = priority << 8 | (cross_core ? 64 : 0) | Encode(layout, mix_aivs);
  int seen = launch.revealed_layout.load(std::memory_order_acquire);
  // The first reveal of the highest priority decides (a declared type outranks one a call shows;
  // among equals the first stays).
  while ((seen < 0 || (seen >> 8) < priority) &&
         !launch.revealed_layout.compare_exchange_weak(seen, mine, std::memory_order_acq_rel)) {
  }
  if (seen < 0 || (seen >> 8) < priority) seen = mine;
  const int enc = seen & 63;
  const KernelLayout decided = static_cast<KernelLayout>(enc / 4);
  // A MIX_*_1_0 type runs with the layout of the probe but needs the cross-core scheduler.
  const bool want_cross = (seen & 64) != 0;
  if (decided != launch.layout || (decided == KernelLayout::kMix && enc % 4 != launch.mix_aivs) ||
      (want_cross && !launch.cross_core_enabled)) {
    throw KernelTypeRevealed{};
  }
}

}  // namespace

void SetRequestedKernelMode(int mode) { g_requested_mode.store(mode, std::memory_order_release); }
int RequestedKernelMode() {
  if (t_issued_mode != kNotIssued) return t_issued_mode;
  return g_requested_mode.load(std::memory_order_acquire);
}

IssuedKernelModeScope::IssuedKernelModeScope(int mode) : saved_(t_issued_mode) {
  t_issued_mode = mode;
}
IssuedKernelModeScope::~IssuedKernelModeScope() { t_issued_mode = saved_; }

const char* KernelModeNote() {
  switch (RequestedKernelMode()) {
    case 0:
      return "; SetKernelMode(KernelMode::MIX_MODE) is in effect";
    case 1:
      return "; SetKernelMode(KernelMode::AIC_MODE) is in effect";
    case 2:
      return "; SetKernelMode(KernelMode::AIV_MODE) is in effect";
    case 3:
      return "; SetKernelMode(KernelMode::MIX_AIC_1_1) is in effect";
    default:
      return "";
  }
}

namespace {

void Declare(const char* macro, KernelMetaType type, int priority) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (!core.launch->soc->split_cores) return;  // one AI core: nothing to choose (310P)
  switch (type) {
    case KERNEL_TYPE_AIV_ONLY:
    case KERNEL_TYPE_VECTORCORE:
      Reveal(core, KernelLayout::kAiv, 0, false, priority);
      return;
    case KERNEL_TYPE_MIX_AIV_1_0:
    case KERNEL_TYPE_MIX_VECTOR_CORE:
      Reveal(core, KernelLayout::kAiv, 0, true, priority);
      return;
    case KERNEL_TYPE_AIC_ONLY:
      Reveal(core, KernelLayout::kAic, 0, false, priority);
      return;
    case KERNEL_TYPE_MIX_AIC_1_0:
      Reveal(core, KernelLayout::kAic, 0, true, priority);
      return;
    case KERNEL_TYPE_MIX_AIC_1_1:
      Reveal(core, KernelLayout::kMix, 1, true, priority);
      return;
    case KERNEL_TYPE_MIX_AIC_1_2:
      Reveal(core, KernelLayout::kMix, 2, true, priority);
      return;
    case KERNEL_TYPE_AICORE:
    case KERNEL_TYPE_MIX_AICORE:
    case KERNEL_TYPE_MAX:
      break;
  }
  Fault(ErrorKind::kInvalidArgument,
        Str(macro, ": kernel type ", static_cast<int>(type), " is not a type of ",
            core.launch->soc->name,
            " (use KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY or KERNEL_TYPE_MIX_AIC_1_1/1_2)"));
}

}  // namespace

void DeclareKernelType(KernelMetaType type) {
  Declare("KERNEL_TASK_TYPE_DEFAULT", type, kDeclaredDefault);
}

void DeclareKernelTypeForKey(uint64_t key, KernelMetaType type) {
  if (CurrentCore().launch->tiling_key != key) return;
  Declare("KERNEL_TASK_TYPE", type, kDeclaredForKey);
}

void RevealCubeUse(CoreContext& core, const char* /*call*/) {
  if (core.unit == CoreUnit::kAiv) Reveal(core, KernelLayout::kAic, 0, false, kInferred);
}

void RevealMatmul(bool cube_only) {
  CoreContext& core = CurrentCore();
  if (!core.launch->soc->split_cores) return;
  if (cube_only) {
    Reveal(core, KernelLayout::kAic, 0, false, kInferred);
  } else {
    Reveal(core, KernelLayout::kMix, 2, true, kInferred);
  }
}

void RevealCrossCore(CoreContext& core, const char* /*call*/) {
  Reveal(core, KernelLayout::kMix, 2, true, kInferred);
}

}  // namespace ascsim::aicore
