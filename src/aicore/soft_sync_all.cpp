// The software SyncAll (ascsim/aicore/soft_sync_all.h). The flags are GM words several blocks
// write and read at once, so they are accessed atomically here (on the device each is a 32-byte
// block written by one core and read by all).
#include "ascsim/aicore/soft_sync_all.h"

#include <functional>
#include <string>

#include "aicore/mix_group.h"
#include "ascsim/aicore/sync.h"
#include "aicore/sanitizer/core_sanitizer.h"
#include "aicore/sanitizer/launch_sanitizer.h"

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

void InterBlockSyncImpl(bool set, int32_t* gm, uint64_t gm_elements, int32_t* ub,
                        uint64_t ub_elements, int32_t block_idx, int32_t event_id, bool aiv_only) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const char* call = set ? "IBSet" : "IBWait";
  const int arch = core.launch->soc->arch;
  // Atlas A2/A3: the AIC of a mix kernel returns at once (if ASCEND_IS_AIC), and the flags of a
  // kernel that is not AIV-only are laid out for twice the blocks.
  if (arch == 2201 && core.unit == CoreUnit::kAic) return;
  uint64_t blocks = core.launch->block_num;
  if (arch == 2201 && !aiv_only) blocks *= 2;
  if (block_idx < 0 || static_cast<uint64_t>(block_idx) >= core.launch->block_num) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, "(blockIdx ", block_idx, ", eventID ", event_id, "): blockIdx must be in [0, ",
              core.launch->block_num, ") (the launch's blockDim)"));
  }
  if (event_id < 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, "(blockIdx ", block_idx, ", eventID ", event_id,
              "): eventID must not be negative"));
  }
  const uint64_t index = blocks * kFlagStride * static_cast<uint64_t>(event_id) +
                         static_cast<uint64_t>(block_idx) * kFlagStride;
  if (gm == nullptr || gm_elements < index + kFlagStride) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, "(blockIdx ", block_idx, ", eventID ", event_id, "): its flag block is "
              "gmWorkspace[", index, ", ", index + kFlagStride, ") but gmWorkspace holds ",
              gm == nullptr ? 0 : gm_elements, " int32_t (the docs ask for cores * 32 B * "
              "eventID_max + blockIdx_max * 32 B + 32 B)"));
  }
  GmRange alloc;
  int32_t* flag = gm + index;
  if (!core.launch->find_gm || !core.launch->find_gm(gm, &alloc) ||
      reinterpret_cast<const uint8_t*>(flag + kFlagStride) > alloc.end) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, ": gmWorkspace[", index, ", ", index + kFlagStride,
              ") is not inside one device allocation"));
  }
  if (ub_elements < kFlagStride) {
    Fault(ErrorKind::kOutOfBounds, Str(call, ": ubWorkspace holds ", ub_elements,
                                       " int32_t; it needs 8 (32 B, one flag block)"));
  }
  const int32_t want = set ? 0 : 1;
  // Under the launch's spin lock: take the flag when it is ready (the device's read of the
  // block into UB, the scalar update, the write back of word 0). The sanitizer orders the
  // block's later GM accesses after the flag's previous take here, under the same lock.
  CoreSanitizer* const sanitizer = core.sanitizer;
  const std::function<bool(bool)> poll = [=](bool take) {
    if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != want) return false;
    if (take) {
      for (uint64_t i = 1; i < kFlagStride; ++i) {
        ub[i] = __atomic_load_n(flag + i, __ATOMIC_RELAXED);
      }
      ub[0] = 1 - want;
      __atomic_store_n(flag, 1 - want, __ATOMIC_RELEASE);
      if (sanitizer != nullptr) sanitizer->InterBlockFlagTaken(flag);
    }
    return true;
  };
  const uint32_t me = core.block_idx;
  const std::function<std::string()> hang = [=] {
    return Str(call, "(gmWorkspace, ubWorkspace, blockIdx ", block_idx, ", eventID ", event_id,
               ") on block ", me, ": the flag at gmWorkspace[", index, "] is ",
               __atomic_load_n(flag, __ATOMIC_ACQUIRE), " and no block of the launch can ",
               set ? "clear it any more (an IBWait of it would)"
                   : "set it any more (an IBSet of it would)",
               " - every other block has finished or waits too; the device would spin until the "
               "AI-core timeout");
  };
  if (core.launch->sanitizer != nullptr) core.launch->sanitizer->InterBlockFlagsUsed();
  if (core.launch->spin_wait) {
    // A sub-core of a mix block that spins posts no Matmul request meanwhile: its partner's
    // requests need not wait for its turn.
    ParkedScope parked(core);
    core.launch->spin_wait(me, call, poll, hang);
  } else if (!poll(true)) {
    Fault(ErrorKind::kSyncMisuse, hang());  // a lone core: nobody else can change the flag
  }
}

void InterBlockBarrier(const char* call) {
  CoreContext& core = CurrentCore();
  if (core.sanitizer != nullptr) core.sanitizer->PipeBarrier(trace::Pipe::kNone, call);
}

}  // namespace ascsim::aicore
