// Kernel types and sub-cores: KERNEL_TASK_TYPE_DEFAULT, ASCEND_IS_AIC / ASCEND_IS_AIV,
// GetSubBlockIdx / GetSubBlockNum, and SetKernelMode of the CPU-debug API.
//
// On A2 (arch 2201) the AI core is split: an AIC (cube) and AIVs (vector). A kernel is launched
// as AIV-only, AIC-only or MIX (one AIC with one or two AIVs per block); on the device the
// compiler picks the type from the code and KERNEL_TASK_TYPE_DEFAULT states it. The simulator
// takes it, in this order, from SetKernelMode (when the program called it), from what an earlier
// launch of the same kernel function with the same tiling key revealed, or it probes: the first
// launch runs as AIV-only until a call reveals the type (KERNEL_TASK_TYPE for the launch's tiling
// key, KERNEL_TASK_TYPE_DEFAULT, REGIST_MATMUL_OBJ, a cube buffer or cube instruction, an
// AIC<->AIV CrossCoreSetFlag) and is then restarted with the right layout; a declaration of
// higher rank (per key > default > a call that shows it) restarts it again.
// docs/cube.md describes it in full.
//
// Sources (asc-devkit): impl/basic_api/utils/kernel_utils_macros.h (KernelMetaType),
// impl/utils/sys_macros.h (ASCEND_IS_AIC/AIV), docs "设置Kernel类型", "GetSubBlockIdx",
// "GetSubBlockNum", "GetBlockIdx", "SetKernelMode".
#pragma once

#include <cstdint>

#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/types.h"

namespace AscendC {
// The core types g_coreType takes (asc-devkit impl/utils/sys_constants.h).
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC

// The type of the core running this code: AscendC::AIC on a split architecture's cube core,
// AscendC::AIV on its vector cores, AscendC::MIX on a coupled AI core (310P). CANN's CPU-debug
// build declares it `extern int32_t g_coreType` (impl/utils/sys_macros.h); ascsim runs cores on
// threads, so it is per thread, set whenever a core starts running on one. Kernels test it as
// `g_coreType == AIC`; the ASCEND_IS_AIC / ASCEND_IS_AIV tests below are equivalent.
extern thread_local int32_t g_coreType;

// Kernel types of KERNEL_TASK_TYPE_DEFAULT (global, as CANN declares them).
enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX,
};

namespace ascsim::aicore {

// Thrown (not an ascsim::Error) by the call that reveals the type of a probing launch; the
// runtime restarts the launch with the revealed layout.
struct KernelTypeRevealed {};

// KERNEL_TASK_TYPE_DEFAULT(type) at run time.
void DeclareKernelType(KernelMetaType type);
// KERNEL_TASK_TYPE(key, type): the type of the launches whose tiling key is `key`; it wins over
// KERNEL_TASK_TYPE_DEFAULT (docs "设置Kernel类型":
// KERNEL_TASK_TYPE优先级高于KERNEL_TASK_TYPE_DEFAULT).
void DeclareKernelTypeForKey(uint64_t key, KernelMetaType type);
// A cube buffer or cube instruction on `core`: reveals an AIC kernel when probing.
void RevealCubeUse(CoreContext& core, const char* call);
// REGIST_MATMUL_OBJ: with ASCENDC_CUBE_ONLY the Matmul runs on the AIC alone, otherwise the AIV
// is the client of the AIC (a MIX_AIC_1_2 kernel).
void RevealMatmul(bool cube_only);
// AIC<->AIV cross-core synchronisation: reveals a MIX_AIC_1_2 kernel when probing.
void RevealCrossCore(CoreContext& core, const char* call);

// The CPU-debug kernel mode (SetKernelMode): -1 when the program never set one, else the
// AscendC::KernelMode value. Applies to every launch issued afterwards.
void SetRequestedKernelMode(int mode);
int RequestedKernelMode();
// "; SetKernelMode(KernelMode::AIV_MODE) is in effect" (or "") for messages about the core kind.
const char* KernelModeNote();

inline bool IsAic() {
  const CoreUnit unit = CurrentCore().unit;
  return unit != CoreUnit::kAiv;
}
inline bool IsAiv() {
  const CoreUnit unit = CurrentCore().unit;
  return unit != CoreUnit::kAic;
}

}  // namespace ascsim::aicore

// A coupled AI core (310P, the single-core fixtures) is both, as its code runs on both units.
#define ASCEND_IS_AIC (::ascsim::aicore::IsAic())
#define ASCEND_IS_AIV (::ascsim::aicore::IsAiv())
#define ASCEND_IS_NOT_AIC (!::ascsim::aicore::IsAic())
#define ASCEND_IS_NOT_AIV (!::ascsim::aicore::IsAiv())

#define KERNEL_TASK_TYPE_DEFAULT(type) ::ascsim::aicore::DeclareKernelType(type)
#define KERNEL_TASK_TYPE(key, type) ::ascsim::aicore::DeclareKernelTypeForKey((key), (type))

namespace AscendC {

// GetSubBlockIdx: which AIV of its AIC a vector core is (0 or 1 in a MIX_AIC_1_2 kernel); 0 on
// the AIC and in single-unit kernels. GetSubBlockNum: AIVs per AIC on an AIV (2 for 1:2), 1 on
// the AIC and in single-unit kernels.
inline int64_t GetSubBlockIdx() { return ascsim::aicore::CurrentCore().sub_block_idx; }
inline int64_t GetSubBlockNum() { return ascsim::aicore::CurrentCore().sub_block_num; }
// AIVs per AIC of the launch: 2 for MIX_AIC_1_2, else 1.
inline int64_t GetTaskRatio() {
  const ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  return core.unit == ascsim::aicore::CoreUnit::kAiv ? core.sub_block_num : 1;
}
inline int64_t GetTaskRation() { return GetTaskRatio(); }  // the older spelling

// CPU-debug kernel mode (tikicpulib): AIV_MODE, AIC_MODE or MIX_MODE for the launches that
// follow. Without a call the simulator finds the kernel's type itself (see the top of this file).
inline void SetKernelMode(KernelMode mode) {
  ascsim::aicore::SetRequestedKernelMode(static_cast<int>(mode));
}

}  // namespace AscendC

// ---- Cross-core synchronisation (CrossCoreSetFlag / CrossCoreWaitFlag) ----
// Sources: docs "CrossCoreSetFlag(ISASI)", "CrossCoreWaitFlag(ISASI)", "核间同步/关键特性说明";
// include/basic_api/kernel_operator_block_sync_intf.h (signatures).
//   mode 0: all AICs (or all AIVs) of the launch; mode 1: the two AIVs of one AI core;
//   mode 2: the AIC and its AIVs (an AIC set releases each AIV; all AIV sets release the AIC).
// Each AIC and AIV has 16 flags, each a counter of 0..15; a wait takes one count or blocks.
namespace ascsim::aicore {
void CrossCoreSetImpl(uint8_t mode, pipe_t pipe, uint16_t flag);
void CrossCoreWaitImpl(uint8_t mode, pipe_t pipe, uint16_t flag);
}  // namespace ascsim::aicore

namespace AscendC {
template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId) {
  ascsim::aicore::CrossCoreSetImpl(modeId, pipe, flagId);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId) {
  ascsim::aicore::CrossCoreWaitImpl(modeId, pipe, flagId);
}

// NotifyEvent / WaitEvent: the Atlas A2/A3 spellings of the AIC <-> AIV flags that the matmul
// kernels use (asc-devkit impl/basic_api/kernel_operator_block_sync_intf_impl.h: NotifyEvent<pipe>
// is NotifyEventImpl<0x02, pipe>, i.e. CrossCoreSetFlag mode 2; WaitEvent<pipe = PIPE_S> is
// WaitEventImpl<0, pipe>, a wait on the core's own flag, as CrossCoreWaitFlag).
template <pipe_t pipe>
void NotifyEvent(uint16_t flagId) {
  ascsim::aicore::CrossCoreSetImpl(0x02, pipe, flagId);
}
template <pipe_t pipe = PIPE_S>
void WaitEvent(uint16_t flagId) {
  ascsim::aicore::CrossCoreWaitImpl(0, pipe, flagId);
}

// The flag ids CANN's own synchronisation uses (asc-devkit
// impl/basic_api/dav_c220/kernel_operator_sync_impl.h); kernels name SYNC_AIC_FLAG for their
// CrossCoreSetFlag<0, ...> all-AIC barriers.
constexpr uint16_t SYNC_AIV_FLAG = 12;
constexpr uint16_t SYNC_AIC_FLAG = 11;
constexpr uint16_t SYNC_AIC_AIV_FLAG = 13;
constexpr uint16_t SYNC_AIV_ONLY_ALL = 14;
}  // namespace AscendC
