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
#include "ascsim/aicore/tensor_access.h"

namespace ascsim::aicore {
// gm: the GM flags (already checked to hold `gm_elements`), ub: the UB copy (`ub_elements`).
void SoftSyncAllImpl(int32_t* gm, uint64_t gm_elements, int32_t* ub, uint64_t ub_elements,
                     int32_t used_cores);
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

// IBSet / IBWait (docs 同步控制/核间同步): blocks spinning on a GM flag, rejected at compile time.
template <bool isAIVOnly = true>
void IBSet(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, int32_t blockIdx,
           int32_t eventID) {
  static_assert(!isAIVOnly && isAIVOnly,
                "ascsim: IBSet/IBWait (blocks spinning on a GM flag) are not simulated; use "
                "SyncAll() for a barrier across blocks");
  (void)blockIdx, (void)eventID;
}
template <bool isAIVOnly = true>
void IBWait(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, int32_t blockIdx,
            int32_t eventID) {
  static_assert(!isAIVOnly && isAIVOnly,
                "ascsim: IBSet/IBWait (blocks spinning on a GM flag) are not simulated; use "
                "SyncAll() for a barrier across blocks");
  (void)blockIdx, (void)eventID;
}

}  // namespace AscendC
