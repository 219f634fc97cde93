// The software SyncAll(gmWorkspace, ubWorkspace, usedCores) of pure vector kernels (asc-devkit
// docs 同步控制/核间同步/SyncAll, impl/basic_api/dav_c220/kernel_operator_sync_impl.h
// SoftSyncAllImpl): every block adds 1 to its flag at gmWorkspace[block * 8] (one 32-byte block
// per core), then waits until the flags of all blocks sum to blocks x its own new value, using
// ubWorkspace as its copy of them. Here the waiting is the launch's barrier (every block reaches
// it, as the device needs every block resident), and the flags and the UB copy end as the
// device's polling leaves them. The workspaces must hold GetBlockNum() * 32 bytes and the GM one
// must be zero before the first SyncAll; flags that cannot reach the sum would make the device
// spin forever and fault here.
#pragma once

#include <cstdint>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/operand_checks.h"
#include "ascsim/aicore/tensor_access.h"

namespace ascsim::aicore {
// gm: the GM flags (already checked to hold `gm_elements`), ub: the UB copy (`ub_elements`).
void SoftSyncAllImpl(int32_t* gm, uint64_t gm_elements, int32_t* ub, uint64_t ub_elements,
                     int32_t used_cores);
// IBSet (set true) / IBWait of the flag (block_idx, event_id) in gm, with ub as the UB copy.
void InterBlockSyncImpl(bool set, int32_t* gm, uint64_t gm_elements, int32_t* ub,
                        uint64_t ub_elements, int32_t block_idx, int32_t event_id, bool aiv_only);
// The PipeBarrier<PIPE_ALL> IBSet / IBWait start and end with, for the sanitizer.
void InterBlockBarrier(const char* call);

// IBSet / IBWait: the barrier, the MTE2 copy of the flag block into ubWorkspace (for the
// sanitizer), the wait, the barrier.
template <bool isAIVOnly>
void InterBlockSync(bool set, const AscendC::GlobalTensor<int32_t>& gm,
                    const AscendC::LocalTensor<int32_t>& ub, int32_t block_idx, int32_t event_id) {
  const char* call = set ? "IBSet" : "IBWait";
  InterBlockBarrier(call);
  int32_t* u = TensorAccess::Checked(ub, call, "ubWorkspace", 0, ub.GetSize());
  if (ub.GetSize() >= 8) {
    CheckUbOperand(call, "ubWorkspace", ub, 8,
                   OperandUse{trace::Pipe::kMte2, nullptr, Access::kWrite});
  }
  InterBlockSyncImpl(set, gm.GetPhyAddr(), gm.GetSize(), u, ub.GetSize(), block_idx, event_id,
                     isAIVOnly);
  InterBlockBarrier(call);
}
}  // namespace ascsim::aicore

namespace AscendC {

template <bool isAIVOnly = true>
void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
             const int32_t usedCores = 0) {
  static_assert(isAIVOnly, "the software SyncAll supports pure vector kernels only (isAIVOnly)");
  namespace ai = ascsim::aicore;
  int32_t* ub = ai::TensorAccess::Checked(ubWorkspace, "SyncAll", "ubWorkspace", 0,
                                          ubWorkspace.GetSize());
  ai::SoftSyncAllImpl(gmWorkspace.GetPhyAddr(), gmWorkspace.GetSize(), ub, ubWorkspace.GetSize(),
                      usedCores);
}

// IBSet / IBWait (docs 同步控制/核间同步/IBSet.md, IBWait.md; asc-devkit
// impl/basic_api/kernel_operator_block_sync_intf_impl.h): the flag of (blockIdx, eventID) is the
// int32 at gmWorkspace[blockNum * 8 * eventID + blockIdx * 8] (one 32-byte block each; blockNum
// doubled for isAIVOnly false on Atlas A2/A3). IBSet spins until the flag is 0 and writes 1, IBWait
// spins until it is 1 and writes 0; each reads the 32-byte block into ubWorkspace, as the device's
// DataCopy does. Here a block waits for the others (all of them made resident, as for SyncAll) and
// a wait that no block can end any more faults at once, naming the flag.
template <bool isAIVOnly = true>
void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
           int32_t blockIdx, int32_t eventID) {
  ascsim::aicore::InterBlockSync<isAIVOnly>(true, gmWorkspace, ubWorkspace, blockIdx, eventID);
}
template <bool isAIVOnly = true>
void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
            int32_t blockIdx, int32_t eventID) {
  ascsim::aicore::InterBlockSync<isAIVOnly>(false, gmWorkspace, ubWorkspace, blockIdx, eventID);
}

}  // namespace AscendC
