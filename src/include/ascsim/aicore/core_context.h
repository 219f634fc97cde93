// The per-core context: which block of which launch this thread is running, its Unified Buffer
// arena, its TPipe and its event flags. The runtime installs one per block (CoreScope); every
// kernel_operator.h call reads it through CurrentCore().
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/limits.h"
#include "ascsim/aicore/memory.h"
#include "ascsim/gm_range.h"
#include "ascsim/soc.h"
#include "ascsim/trace.h"

namespace AscendC {
class TPipe;
}

namespace ascsim {
struct LaunchGmArgs;  // ascsim/runtime.h
}  // namespace ascsim

namespace ascsim::aicore {

class SlotStore;        // buffer records of a block (buffer_slot.h)
class CoreSanitizer;    // per block (src/aicore/sanitizer/core_sanitizer.h)
class LaunchSanitizer;  // per launch (src/aicore/sanitizer/launch_sanitizer.h)
struct MixGroup;  // the sub-cores of one block of a mix launch (mix_group.h)

// How a launch's logical blocks map onto cores (docs/cube.md, "Sub-cores"):
//  kAiv:    one AIV per block (vector kernels; KERNEL_TYPE_AIV_ONLY / MIX_AIV_1_0);
//  kAic:    one AIC per block (cube kernels; KERNEL_TYPE_AIC_ONLY / MIX_AIC_1_0);
//  kMix:    one AIC and mix_aivs AIVs per block, running concurrently (MIX_AIC_1_1 / 1_2);
//  kAiCore: one whole AI core per block (coupled architectures such as 310P).
enum class KernelLayout : uint8_t { kAiv, kAic, kMix, kAiCore };

using GmRange = ascsim::GmRange;  // ascsim/gm_range.h

// Warnings raised by the cores of one launch; the same text from many blocks is kept once with
// a count, so a trap hit in every tile of every block is one line, not thousands. Each line keeps
// the message of the lowest block that raised it, so serial and parallel runs print the same.
class WarningLog {
 public:
  // `block` and `seq` (the block's API call count) order the lines independently of timing.
  void Add(const std::string& key, const std::string& message, uint32_t block = 0,
           uint64_t seq = 0);
  // "message (x N)" lines, by lowest raising block, then program order within it.
  std::vector<std::string> Lines() const;
  bool empty() const;

 private:
  struct Entry {
    std::string message;
    uint64_t count = 0;
    uint32_t block = 0;
    uint64_t seq = 0;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry> by_key_;
};

// What all cores of one launch share. Owned by the runtime for the launch's duration.
//
// Kernel code reads the first part inline (kernel_operator.h's templates), so it holds only types
// whose layout is the same under both libstdc++ ABIs: a program built with
// -D_GLIBCXX_USE_CXX11_ABI=0 sees the same offsets. Members of ABI-tagged types (std::string and
// what holds one) come last and are touched only inside libascsim.
struct CrossCoreLaunch;

struct LaunchShared {
  uint32_t block_num = 1;
  const SocProfile* soc = nullptr;
  bool strict = false;
  // Finds the device allocation holding `p` (end inclusive, so a pointer one past an allocation
  // still resolves); false when `p` is not device memory. Installed by the runtime.
  bool (*find_gm)(const void* p, GmRange* out) = nullptr;
  // Device memory for the kernel API's own GM buffers (Matmul's scratch matrix), installed by the
  // runtime (its registry's allocate and free) so that aicore never calls the layer above it.
  void* (*alloc_gm)(size_t bytes) = nullptr;
  void (*free_gm)(void* p) = nullptr;
  // The GM addresses the launch was handed (LaunchGmArgs); null when unknown, and then a block
  // may reach any device allocation. Read only through GmProvenance / FaultGmAddress.
  const LaunchGmArgs* gm_args = nullptr;
  // Set when the launch must stop (a timeout, a cancel): every API call then fails at once.
  // Written only through CancelLaunch (cancel_reason before cancelled, release/acquire).
  std::atomic<bool> cancelled{false};
  std::atomic<bool> cancel_claimed{false};
  // Profiling: one CoreTrace per block when on, empty when off.
  std::vector<trace::CoreTrace>* traces = nullptr;
  // SyncAll barrier, installed by the runtime.
  std::function<void(uint32_t block_idx)> sync_all;
  // The sanitizer (Settings::sanitize bits, ascsim/runtime.h): null when off.
  LaunchSanitizer* sanitizer = nullptr;
  uint32_t sanitize = 0;
  // ASCSIM_UB_FILL: the byte fresh UB buffers are filled with (InitBuffer, AllocTensor), or -1.
  int32_t ub_fill = -1;
  // The tiling key the launch was issued with (TILING_KEY_VAR / TILING_KEY_IS): the TilingFunc's
  // SetTilingKey for an aclnn launch, ICPU_SET_TILING_KEY's for ICPU_RUN_KF, else 0.
  uint64_t tiling_key = 0;
  // The kernel was built with bisheng's --cce-auto-sync (DeclareCompiledWithAutoSync): the
  // compiler inserts the scalar pipe flags, so the sanitizer never requires them in the source.
  bool cce_auto_sync = false;
  // Sub-core layout (cube.md): decided when the launch starts, except while `probing` (the first
  // launch of a kernel whose type is not yet known): then the first call that reveals the type
  // (KERNEL_TASK_TYPE_DEFAULT, REGIST_MATMUL_OBJ, a cube buffer) stores it in `revealed_layout`
  // and the runtime restarts the launch with that layout.
  KernelLayout layout = KernelLayout::kAiv;
  uint8_t mix_aivs = 2;             // AIVs per AIC in a kMix launch (1 or 2)
  bool cross_core_enabled = false;  // the kernel type starts the cross-core scheduler (MIX_*)
  bool probing = false;
  // The strongest reveal so far: priority << 8 | cross_core << 6 | KernelLayout * 4 + mix_aivs,
  // -1 until revealed. Priorities: 0 a call that shows the type (a cube buffer, a Matmul, a
  // cross-core flag), 1 KERNEL_TASK_TYPE_DEFAULT, 2 KERNEL_TASK_TYPE for the launch's tiling key
  // (which wins over the default, as in CANN).
  std::atomic<int> revealed_layout{-1};
  // Reveals of at most this priority are ignored: an earlier attempt of the launch was restarted
  // by one of this priority (-1: none).
  int decided_priority = -1;
  // Mode-0 cross-core flags (all AICs / all AIVs of the launch), when the kernel type starts the
  // cross-core scheduler; installed by the runtime.
  CrossCoreLaunch* cross_launch = nullptr;
  // Puts every block of the launch on a thread of its own (as the first SyncAll does), so that a
  // launch-wide mode-0 round can fill; faults when blockDim exceeds the physical cores. Installed
  // by the runtime.
  std::function<void()> make_resident;

  // ---- libascsim only from here (ABI-tagged types) ----
  std::string kernel;
  std::string cancel_reason;
  WarningLog warnings;
  // IBSet / IBWait: SyncAllBarrier::SpinWait (runtime/sync_all.h) for the calling block; here
  // since its hang message is a std::string.
  std::function<void(uint32_t block_idx, const char* call, const std::function<bool(bool)>& poll,
                     const std::function<std::string()>& hang)>
      spin_wait;
};

// How a GM address resolved when a GlobalTensor was bound (SetGlobalBuffer).
enum class GmState : uint8_t {
  kNotDevice,  // no device allocation holds it
  kOwn,        // an allocation the launch was given (or no record of what it was given)
  kForeign,    // an allocation none of the launch's arguments points into
};
// Whether `alloc` (which holds `p`) is one the launch reached through its arguments: one of its
// pointer arguments points into it; or `p` is its exact start (an address the kernel read from
// GM, such as a tensor list's entry); or an integer or struct argument holds an address in it.
GmState GmProvenance(const LaunchShared& launch, const void* p, const GmRange& alloc);
// The fault of an access at [lo, hi) through a GlobalTensor whose address resolved to `state`
// (kNotDevice or kForeign; `alloc` is the foreign allocation).
[[noreturn]] [[gnu::cold]] [[gnu::noinline]] void FaultGmAddress(const char* call,
                                                                const char* verb,
                                                                const uint8_t* lo,
                                                                const uint8_t* hi,
                                                                const GmRange& alloc,
                                                                GmState state);

// Stops `launch` from any thread: every later API call of its blocks faults with kTimeout and
// `reason`. The first reason wins; later calls do nothing.
void CancelLaunch(LaunchShared& launch, const std::string& reason);

// The vector unit's registers (asc-devkit docs 特殊寄存器访问 and the mask APIs).
struct VectorUnitState {
  // The mask register (vector_masked.h): normal mode holds the 128 per-element bits of one
  // repeat (low word first); counter mode holds the element count in mask_low. Reset: all ones.
  bool mask_counter_mode = false;
  uint64_t mask_high = ~0ull;
  uint64_t mask_low = ~0ull;
  // CMPMASK: written by Compare without dst / SetCmpMask, read by Select mode 0.
  uint64_t cmp_mask[2] = {0, 0};
  // DEQSCALE of the int32_t -> half Cast (SetDeqScale; 0 until set).
  uint64_t deq_scale = 0;
  bool deq_scale_set = false;
  // ACC_VAL: the sum the count-form ReduceSum leaves (GetAccVal).
  int64_t acc_val = 0;
  // Elements MrgSort took from each list before an exhausted list stopped it (GetMrgSortResult).
  uint16_t mrg_sort_result[4] = {0, 0, 0, 0};
  // RSVD_CNT: the elements the last GatherMask selected (AscendCUtils::GetRsvdCnt).
  int64_t rsvd_cnt = 0;
};

// The scalar unit's system state (workspace.h, special_registers.h, atomic.h).
struct SystemState {
  uint8_t* sys_workspace = nullptr;  // SetSysWorkspace
  // CTRL (GetCtrlSpr/SetCtrlSpr): bit 48 = 1 is inf/NaN mode, what ascsim computes in.
  uint64_t ctrl = uint64_t{1} << 48;
  // SetAtomicAdd/Max/Min: the AtomicOp and element type UB->GM copies combine with, or kNone (0)
  // when copies overwrite.
  uint8_t atomic_op = 0;
  const char* atomic_type = nullptr;
  // InitOutput with the value 0 is writing (the sanitizer's GM log: fills of zero commute).
  bool gm_zero_fill = false;
};

// The cube unit's registers: the Fixpipe NZ2ND / pre-quant registers (SetFixpipeNz2ndFlag,
// SetFixpipePreQuantFlag) and the LoadData padding value (SetLoadDataPaddingValue).
struct CubeUnitState {
  uint64_t fixpipe_nd_para = 0;
  uint64_t fixpipe_quant_scalar = 0;
  uint64_t load_pad_value = 0;
};

// The local-memory bookkeeping of TPipe, TQue/TBuf, static tensors and LocalMemAllocator, and the
// SetFlag/WaitFlag pairing between the pipes.
struct QueueState {
  AscendC::TPipe* pipe = nullptr;  // the TPipe constructed most recently on this core
  // The TPipe alive and not yet Destroy()ed: a kernel has at most one at a time.
  AscendC::TPipe* active_pipe = nullptr;
  // Where this block's TPipes keep their buffer records (buffer_slot.h), until the block ends:
  // a LocalTensor outliving its TPipe is then reported as stale instead of reading freed
  // memory. Set by CoreScope.
  SlotStore* slot_store = nullptr;
  uint32_t next_buffer_id = 0;  // ids for the cost model's dependency tracking
  // Tensors taken by AllocTensor and not yet freed, per TPosition, for the per-position limit.
  uint16_t live_allocs_per_position[kPositionSlots] = {};
  // The buffer records static tensors live in (static_tensor.cpp): one per TPosition used, each
  // spanning the whole memory the position maps to.
  std::shared_ptr<void> static_slots;
  uint8_t local_mem_allocators = 0;  // bit h: a LocalMemAllocator<Hardware(h)> was made
  // SetFlag/WaitFlag pairing: pending SetFlags per (HardEvent, event id).
  std::map<uint32_t, int> pending_flags;
  // Mutex::Lock/Unlock (sync.cpp): per MutexID, the pipe holding it plus one (0: free); and the
  // ids AllocMutexID has handed out (bit i: id i).
  uint8_t mutex_holder[32] = {};
  uint32_t mutex_pending = 0;  // bit i: an Unlock of id i no Lock has waited for yet
  uint32_t mutex_ids = 0;
};

// The Matmul API's per-core state (ascsim/matmul/matmul_impl.h).
struct MatmulState {
  // The whole-L0A/L0B/BiasTable buffers the core's Matmul objects share.
  std::shared_ptr<void> l0;
  // The AIC side of a mix block running the Matmul requests of AIV `client` (-1: none).
  int client = -1;
};

// Per-core state of a running block.
struct CoreContext {
  LaunchShared* launch = nullptr;
  uint32_t block_idx = 0;
  uint8_t* ub = nullptr;  // Unified Buffer arena: MemoryBytes(soc, Memory::kUb), 32-byte aligned
  uint32_t ub_size = 0;
  // Every local memory of the core, indexed by Memory (mem_base[kUb] == ub); null and 0 where
  // the core has none (an AIV has no L1, an AIC no UB). The cube arenas of a kAiCore test core
  // are allocated on first use (EnsureCubeMemories).
  uint8_t* mem_base[kLocalMemoryCount] = {};
  uint32_t mem_size[kLocalMemoryCount] = {};
  CoreUnit unit = CoreUnit::kAiCore;
  uint32_t sub_block_idx = 0;         // GetSubBlockIdx: the AIV's index within its AIC's group
  uint32_t sub_block_num = 1;         // GetSubBlockNum
  MixGroup* group = nullptr;          // the block's sub-cores in a kMix launch
  trace::CoreTrace* trace = nullptr;  // null when profiling is off
  uint64_t api_calls = 0;
  // This block's sanitizer when the launch has one (owned by the CoreScope).
  CoreSanitizer* sanitizer = nullptr;

  // The state of each unit, kept apart so that an API reads only its own unit's.
  VectorUnitState vector;
  SystemState sys;
  CubeUnitState cube;
  QueueState queues;
  MatmulState matmul;

  // Owned cube arenas of a kAiCore core created outside the runtime (tests, tools, the Matmul
  // server's contexts).
  std::shared_ptr<uint8_t> owned_cube_memory;

  // ---- libascsim only from here (ABI-tagged types; see LaunchShared) ----
  // A fault raised where the kernel may swallow it (a kernel launch from inside a kernel through
  // ACLRT_LAUNCH_KERNEL returns an aclError): reported again when the block ends.
  std::string deferred_fault;
};

// Gives `core` its cube memories (L1, L0A, L0B, L0C, BiasTable, Fixpipe buffer of its profile)
// when it has none yet and its unit has them; returns false when the unit has no cube side.
bool EnsureCubeMemories(CoreContext& core);

// The context of the block running on this thread; throws InvalidArgument outside a kernel.
CoreContext& CurrentCore();
CoreContext* TryCurrentCore();

// Installs a core context on this thread for its lifetime (one block, or a test's single core).
// Owns the UB arena unless one is supplied (the runtime reuses one arena per worker thread).
class CoreScope {
 public:
  CoreScope(LaunchShared* launch, uint32_t block_idx, uint8_t* ub_arena = nullptr);
  // A core of `unit` whose memories the caller supplies (`memories[m]` for Memory m, null where
  // the core has none); `trace` is where its calls are recorded (null: none).
  CoreScope(LaunchShared* launch, uint32_t block_idx, CoreUnit unit, uint8_t* const* memories,
            trace::CoreTrace* trace);
  ~CoreScope();
  CoreScope(const CoreScope&) = delete;
  CoreScope& operator=(const CoreScope&) = delete;
  CoreContext& context() { return context_; }

 private:
  CoreContext context_;
  CoreContext* previous_;
  std::unique_ptr<uint8_t, void (*)(void*)> owned_ub_;
  std::unique_ptr<CoreSanitizer, void (*)(CoreSanitizer*)> sanitizer_;
  std::unique_ptr<SlotStore> slot_store_;  // context_.queues.slot_store (buffer_slot.h)
};

// A UB arena of `bytes`, 32-byte aligned (4 KiB in practice), for CoreScope.
std::unique_ptr<uint8_t, void (*)(void*)> AllocateUbArena(uint32_t bytes);

// A single-core launch for tests and tools: kernel name "test", block 0 of `block_num`.
class SingleCore {
 public:
  explicit SingleCore(const SocProfile& soc, uint32_t block_num = 1, bool strict = false);
  LaunchShared& launch() { return *launch_; }
  CoreContext& core() { return scope_->context(); }

 private:
  std::unique_ptr<LaunchShared> launch_;
  std::unique_ptr<CoreScope> scope_;
};

}  // namespace ascsim::aicore
