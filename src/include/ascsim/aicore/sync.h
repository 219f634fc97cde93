// Block identity, pipe synchronisation and cross-core sync. The simulator executes each core's
// calls in program order, so flags and barriers never change results here; they are checked
// (a WaitFlag with no SetFlag would hang the device) and recorded for the cost model.
#pragma once

#include <cstdint>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/types.h"

namespace ascsim::aicore {
void PipeBarrierImpl(pipe_t pipe);
void SetFlagImpl(AscendC::HardEvent event, int32_t event_id);
void WaitFlagImpl(AscendC::HardEvent event, int32_t event_id);
// `aiv_only`: SyncAll<true> (every AIV of a mix launch) or SyncAll<false> (its AICs too).
void SyncAllImpl(bool aiv_only = true);
// Mutex::Lock / Unlock (the get_buf / rls_buf instructions) and AllocMutexID / ReleaseMutexID.
void MutexLockImpl(pipe_t pipe, uint32_t id);
void MutexUnlockImpl(pipe_t pipe, uint32_t id);
uint8_t AllocMutexIdImpl();
void ReleaseMutexIdImpl(uint32_t id);
int64_t SystemCycle();
// End-of-block checks (unpaired SetFlag); called by the runtime after each block returns.
void FinishBlock(CoreContext& core);
[[noreturn]] void AssertFailed(const char* expr, const char* file, int line);
}  // namespace ascsim::aicore

namespace AscendC {

// In a MIX_AIC_1_2 launch the AIVs count twice as many: AIV idx = block * 2 + sub-block
// (GetBlockIdx doc: "AIV上取值范围为[0, 2 * numBlocks)"); GetBlockNum stays numBlocks.
inline int64_t GetBlockIdx() {
  const ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  return static_cast<int64_t>(core.block_idx) * core.sub_block_num + core.sub_block_idx;
}
inline int64_t GetBlockNum() { return ascsim::aicore::CurrentCore().launch->block_num; }

template <pipe_t pipe>
void PipeBarrier() {
  ascsim::aicore::PipeBarrierImpl(pipe);
}

template <HardEvent event>
void SetFlag(int32_t eventID) {
  ascsim::aicore::SetFlagImpl(event, eventID);
}
template <HardEvent event>
void WaitFlag(int32_t eventID) {
  ascsim::aicore::WaitFlagImpl(event, eventID);
}

// A barrier across every block of the launch (in a mix launch: every AIV, or with
// SyncAll<false> every AIC and AIV).
inline void SyncAll() { ascsim::aicore::SyncAllImpl(true); }
template <bool isAIVOnly = true>
void SyncAll() {
  ascsim::aicore::SyncAllImpl(isAIVOnly);
}

// Mutex (asc-devkit include/basic_api/kernel_common.h; docs 核内同步/Lock.md, Unlock.md): a
// pipe's Lock(id) holds its later instructions until the instructions another pipe issued
// before its Unlock(id) of the same id have finished; Lock and Unlock pair strictly, on one pipe.
// ids 0..27 are the kernel's (MAX_MUTEXID, impl/basic_api/kernel_event.h), 28..31 reserved.
// CANN compiles them for __NPU_ARCH__ 3510 / 5102 only (nothing elsewhere); ascsim runs them
// whatever the arch, since the one architecture that has them is simulated on the A2 profile
// (docs/architecture.md, "The tensor API").
using MutexID = uint8_t;
constexpr MutexID MAX_MUTEXID = 27;
class Mutex {
 public:
  template <pipe_t pipe>
  static void Lock(MutexID id) {
    ascsim::aicore::MutexLockImpl(pipe, id);
  }
  template <pipe_t pipe>
  static void Unlock(MutexID id) {
    ascsim::aicore::MutexUnlockImpl(pipe, id);
  }
};
// The lowest id no AllocMutexID has taken (sff0 over the kernel's id bits in CANN).
inline MutexID AllocMutexID() { return ascsim::aicore::AllocMutexIdImpl(); }
inline void ReleaseMutexID(MutexID id) { ascsim::aicore::ReleaseMutexIdImpl(id); }

inline int64_t GetSystemCycle() { return ascsim::aicore::SystemCycle(); }

// DataSyncBarrier<MemDsbT>: waits until the core's outstanding memory accesses of the kind named
// complete (asc-devkit include/basic_api/kernel_operator_block_sync_intf.h; MemDsbT from
// impl/basic_api/kernel_event.h; the impl issues `dsb`). The simulator completes every access
// within its call, so there is nothing left to wait for.
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
template <MemDsbT arg0>
void DataSyncBarrier() {}

// SetNextTaskStart / WaitPreTaskEnd order two operators fused into one SuperKernel
// (include/basic_api/kernel_operator_common_intf.h: "In SuperKernel fusion mode, set wait flag
// between two operators"). Outside that mode, CANN compiles them to nothing unless FORCE (impl:
// kernel_operator_common_intf_impl.h), and FORCE's early start configures the SuperKernel
// scheduler. ascsim launches each kernel as its own task, one after the other, so both are empty.
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
void SetNextTaskStart() {}
template <bool FORCE = false>
void WaitPreTaskEnd() {}

// A compiler barrier (asc-devkit impl/adv_api/detail/kfc/kfc_comm.h: an empty asm with a memory
// clobber in the CPU build): memory accesses are not moved across it. It orders no pipe.
inline void Barrier() { __asm__ __volatile__("" ::: "memory"); }

}  // namespace AscendC

// The device's builtins, as older kernels call them.
inline int64_t get_block_idx() { return AscendC::GetBlockIdx(); }
inline int64_t get_block_num() { return AscendC::GetBlockNum(); }
inline void pipe_barrier(pipe_t pipe) { ascsim::aicore::PipeBarrierImpl(pipe); }

#ifndef ASSERT
#define ASSERT(expr) \
  ((expr) ? static_cast<void>(0) : ascsim::aicore::AssertFailed(#expr, __FILE__, __LINE__))
#endif

// Kernel-type annotations (KERNEL_TASK_TYPE_DEFAULT) are in kernel_type.h.
#define TRACE_START(id)
#define TRACE_STOP(id)
