// The software SyncAll (ascsim/aicore/soft_sync_all.h). The flags are GM words several blocks
// write and read at once, so they are accessed atomically here (on the device each is a 32-byte
// block written by one core and read by all).
#include "ascsim/aicore/soft_sync_all.h"

#include "ascsim/aicore/sync.h"

namespace ascsim::aicore {

namespace {
constexpr uint64_t kFlagStride = kBlockBytes / sizeof(int32_t);  // one 32-byte block per core
}  // namespace

void SoftSyncAllImpl(int32_t* gm, uint64_t gm_elements, int32_t* ub, uint64_t ub_elements,
                     int32_t used_cores) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint32_t blocks = core.launch->block_num;
  if (used_cores < 0 || static_cast<uint32_t>(used_cores) > blocks) {
    Fault(ErrorKind::kSyncMisuse,
          Str("SyncAll(gmWorkspace, ubWorkspace, usedCores ", used_cores, "): usedCores must be in [0, ",
              blocks, "] (the launch's blockDim); the device would wait forever"));
  }
  if (used_cores != 0 && static_cast<uint32_t>(used_cores) != blocks) {
    Fault(ErrorKind::kInvalidArgument,
          Str("SyncAll(gmWorkspace, ubWorkspace, usedCores ", used_cores, ") in a launch of ",
              blocks, " blocks: synchronising a subset of the blocks is not simulated (usedCores 0 "
              "or GetBlockNum() synchronises them all)"));
  }
  const uint64_t need = static_cast<uint64_t>(blocks) * kFlagStride;
  if (gm == nullptr || gm_elements < need) {
    Fault(ErrorKind::kOutOfBounds,
          Str("SyncAll: gmWorkspace holds ", gm == nullptr ? 0 : gm_elements,
              " int32_t; the flags of ", blocks, " blocks need ", need, " (GetBlockNum() * 32 B)"));
  }
  GmRange alloc;
  if (!core.launch->find_gm || !core.launch->find_gm(gm, &alloc) ||
      reinterpret_cast<const uint8_t*>(gm + need) > alloc.end) {
    Fault(ErrorKind::kOutOfBounds,
          Str("SyncAll: gmWorkspace's ", need * sizeof(int32_t),
              " bytes of flags are not inside one device allocation"));
  }
  if (ub_elements < need) {
    Fault(ErrorKind::kOutOfBounds,
          Str("SyncAll: ubWorkspace holds ", ub_elements, " int32_t; the flags of ", blocks,
              " blocks need ", need, " (GetBlockNum() * 32 B)"));
  }
  const uint32_t me = core.block_idx;
  int32_t* mine = gm + me * kFlagStride;
  const int32_t value = __atomic_add_fetch(mine, 1, __ATOMIC_ACQ_REL);
  ub[me * kFlagStride] = value;
  SyncAllImpl();
  int64_t sum = 0;
  for (uint32_t b = 0; b < blocks; ++b) {
    const int32_t flag = __atomic_load_n(gm + b * kFlagStride, __ATOMIC_ACQUIRE);
    ub[b * kFlagStride] = flag;
    sum += flag;
  }
  if (sum < static_cast<int64_t>(blocks) * value) {
    Fault(ErrorKind::kSyncMisuse,
          Str("SyncAll(gmWorkspace): with every block arrived the flags sum to ", sum,
              ", short of ", blocks, " x ", value,
              " that this block waits for; the device would spin forever (gmWorkspace must be "
              "zero before the first SyncAll, and every block must call each SyncAll)"));
  }
}

}  // namespace ascsim::aicore
