// Kernel types: how KERNEL_TASK_TYPE_DEFAULT, REGIST_MATMUL_OBJ, cube buffers and cross-core
// flags reveal the layout of a probing launch (kernel_type.h, docs/cube.md).
#include "ascsim/aicore/kernel_type.h"

#include <atomic>

#include "ascsim/aicore/checks.h"

namespace ascsim::aicore {
namespace {

std::atomic<int> g_requested_mode{-1};

constexpr int Encode(KernelLayout layout, int mix_aivs) {
  return static_cast<int>(layout) * 4 + mix_aivs;
}

// Stores the layout the kernel needs; when the launch is probing and it differs from the one the
// launch runs with, stops this block so the runtime can start over with the right one.
void Reveal(CoreContext& core, KernelLayout layout, int mix_aivs, bool cross_core) {
  LaunchShared& launch = *core.launch;
  if (!launch.probing) return;
  int expected = -1;
  const bool first = launch.revealed_layout.compare_exchange_strong(
      expected, Encode(layout, mix_aivs), std::memory_order_acq_rel);
  // The first reveal decides (a declared KERNEL_TASK_TYPE_DEFAULT comes first); a later call
  // of another kind does not change the kernel's type.
  if (cross_core && (first || expected == Encode(layout, mix_aivs))) {
    launch.revealed_cross_core.store(true, std::memory_order_release);
  }
  if (layout != launch.layout || (layout == KernelLayout::kMix && mix_aivs != launch.mix_aivs)) {
    throw KernelTypeRevealed{};
  }
}

}  // namespace

void SetRequestedKernelMode(int mode) { g_requested_mode.store(mode, std::memory_order_release); }
int RequestedKernelMode() { return g_requested_mode.load(std::memory_order_acquire); }

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

void DeclareKernelType(KernelMetaType type) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (!core.launch->soc->split_cores) return;  // one AI core: nothing to choose (310P)
  switch (type) {
    case KERNEL_TYPE_AIV_ONLY:
    case KERNEL_TYPE_VECTORCORE:
      Reveal(core, KernelLayout::kAiv, 0, false);
      return;
    case KERNEL_TYPE_MIX_AIV_1_0:
    case KERNEL_TYPE_MIX_VECTOR_CORE:
      Reveal(core, KernelLayout::kAiv, 0, true);
      return;
    case KERNEL_TYPE_AIC_ONLY:
      Reveal(core, KernelLayout::kAic, 0, false);
      return;
    case KERNEL_TYPE_MIX_AIC_1_0:
      Reveal(core, KernelLayout::kAic, 0, true);
      return;
    case KERNEL_TYPE_MIX_AIC_1_1:
      Reveal(core, KernelLayout::kMix, 1, true);
      return;
    case KERNEL_TYPE_MIX_AIC_1_2:
      Reveal(core, KernelLayout::kMix, 2, true);
      return;
    case KERNEL_TYPE_AICORE:
    case KERNEL_TYPE_MIX_AICORE:
    case KERNEL_TYPE_MAX:
      break;
  }
  Fault(ErrorKind::kInvalidArgument,
        Str("KERNEL_TASK_TYPE_DEFAULT: kernel type ", static_cast<int>(type), " is not a type of ",
            core.launch->soc->name,
            " (use KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY or KERNEL_TYPE_MIX_AIC_1_1/1_2)"));
}

void RevealCubeUse(CoreContext& core, const char* /*call*/) {
  if (core.unit == CoreUnit::kAiv) Reveal(core, KernelLayout::kAic, 0, false);
}

void RevealMatmul(bool cube_only) {
  CoreContext& core = CurrentCore();
  if (!core.launch->soc->split_cores) return;
  if (cube_only) {
    Reveal(core, KernelLayout::kAic, 0, false);
  } else {
    Reveal(core, KernelLayout::kMix, 2, true);
  }
}

void RevealCrossCore(CoreContext& core, const char* /*call*/) {
  Reveal(core, KernelLayout::kMix, 2, true);
}

}  // namespace ascsim::aicore
