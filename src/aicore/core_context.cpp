#include "ascsim/aicore/core_context.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "aicore/cube_arena.h"
#include "aicore/mix_group.h"
#include "aicore/sanitizer/core_sanitizer.h"
#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/error.h"

// CANN's CPU-debug core type (asc-devkit impl/utils/sys_macros.h: `extern int32_t g_coreType`),
// per thread here because ascsim runs the cores on threads.
thread_local int32_t g_coreType = AscendC::MIX;

namespace ascsim::aicore {

namespace {
// Read by nearly every API call (CurrentCore), so initial-exec: one %fs-relative load instead of a
// __tls_get_addr call per access (-fPIC's default model), ~100 calls per block of the seed's add.
// Eight bytes of glibc's static TLS surplus, which exists for libraries loaded with dlopen (the
// Python module) that do this.
thread_local CoreContext* g_current_core __attribute__((tls_model("initial-exec"))) = nullptr;

// Keeps CANN's g_coreType (AscendC::MIX / AIC / AIV) in step with the current core.
void SetCurrentCore(CoreContext* core) {
  g_current_core = core;
  g_coreType = core == nullptr                ? AscendC::MIX
               : core->unit == CoreUnit::kAic ? AscendC::AIC
               : core->unit == CoreUnit::kAiv ? AscendC::AIV
                                              : AscendC::MIX;
}

void DeleteSanitizer(CoreSanitizer* sanitizer) { CoreSanitizer::Destroy(sanitizer); }

// The SlotStore of the thread's next block: taken by a CoreScope, given back (emptied) at its
// end; a scope nested in another on the same thread gets one of its own.
thread_local std::unique_ptr<SlotStore> t_spare_store;
std::unique_ptr<SlotStore> TakeSlotStore() {
  std::unique_ptr<SlotStore> store = std::move(t_spare_store);
  if (store == nullptr) store = std::make_unique<SlotStore>();
  return store;
}
void GiveBackSlotStore(std::unique_ptr<SlotStore> store) {
  store->Reset();
  if (t_spare_store == nullptr) t_spare_store = std::move(store);
}
}  // namespace

void WarningLog::Add(const std::string& key, const std::string& message, uint32_t block,
                     uint64_t seq) {
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = by_key_.try_emplace(key);
  Entry& e = it->second;
  if (inserted || block < e.block || (block == e.block && seq < e.seq)) {
    e.message = message;
    e.block = block;
    e.seq = seq;
  }
  ++e.count;
}

std::vector<std::string> WarningLog::Lines() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<const Entry*> entries;
  for (const auto& [key, e] : by_key_) entries.push_back(&e);
  std::stable_sort(entries.begin(), entries.end(), [](const Entry* a, const Entry* b) {
    return a->block != b->block ? a->block < b->block : a->seq < b->seq;
  });
  std::vector<std::string> lines;
  for (const Entry* e : entries) {
    lines.push_back(e->count == 1 ? e->message
                                  : e->message + " (x" + std::to_string(e->count) + ")");
  }
  return lines;
}

bool WarningLog::empty() const {
  std::lock_guard<std::mutex> lock(mu_);
  return by_key_.empty();
}

CoreContext* TryCurrentCore() { return g_current_core; }

CoreContext& CurrentCore() {
  if (g_current_core == nullptr) {
    throw InvalidArgument(
        "Ascend C kernel API called outside a kernel launch (use ACLRT_LAUNCH_KERNEL, "
        "ICPU_RUN_KF or ascsim::Launch)");
  }
  return *g_current_core;
}

std::unique_ptr<uint8_t, void (*)(void*)> AllocateUbArena(uint32_t bytes) {
  void* p = std::aligned_alloc(4096, (bytes + 4095u) / 4096u * 4096u);
  if (p == nullptr) throw OutOfDeviceMemory("cannot allocate a Unified Buffer arena");
  return {static_cast<uint8_t*>(p), std::free};
}

CoreScope::CoreScope(LaunchShared* launch, uint32_t block_idx, uint8_t* ub_arena)
    : previous_(g_current_core),
      owned_ub_(nullptr, std::free),
      sanitizer_(nullptr, DeleteSanitizer),
      slot_store_(TakeSlotStore()) {
  context_.queues.slot_store = slot_store_.get();
  context_.launch = launch;
  context_.block_idx = block_idx;
  // A vector launch runs each block on an AIV of a split architecture; everything else that
  // comes through here (coupled archs, single-core test fixtures) is a whole AI core.
  context_.unit = launch->layout == KernelLayout::kAiv && launch->soc->split_cores
                      ? CoreUnit::kAiv
                      : CoreUnit::kAiCore;
  context_.ub_size = MemoryBytes(*launch->soc, Memory::kUb);
  if (ub_arena == nullptr) {
    owned_ub_ = AllocateUbArena(context_.ub_size);
    ub_arena = owned_ub_.get();
  }
  context_.ub = ub_arena;
  context_.mem_base[static_cast<int>(Memory::kUb)] = ub_arena;
  context_.mem_size[static_cast<int>(Memory::kUb)] = context_.ub_size;
  if (launch->traces != nullptr && block_idx < launch->traces->size()) {
    context_.trace = &(*launch->traces)[block_idx];
    context_.trace->block_idx = block_idx;
  }
  if (launch->sanitizer != nullptr) {
    sanitizer_.reset(CoreSanitizer::Create(context_, *launch->sanitizer));
    context_.sanitizer = sanitizer_.get();
  }
  SetCurrentCore(&context_);
}

CoreScope::CoreScope(LaunchShared* launch, uint32_t block_idx, CoreUnit unit,
                     uint8_t* const* memories, trace::CoreTrace* trace)
    : previous_(g_current_core),
      owned_ub_(nullptr, std::free),
      sanitizer_(nullptr, DeleteSanitizer),
      slot_store_(TakeSlotStore()) {
  context_.queues.slot_store = slot_store_.get();
  context_.launch = launch;
  context_.block_idx = block_idx;
  context_.unit = unit;
  const auto& sizes = launch->soc->memory_bytes;
  for (int m = 0; m < kLocalMemoryCount; ++m) {
    if (memories[m] != nullptr && UnitHasMemory(unit, static_cast<Memory>(m))) {
      context_.mem_base[m] = memories[m];
      context_.mem_size[m] = sizes[m];
    }
  }
  context_.ub = context_.mem_base[static_cast<int>(Memory::kUb)];
  context_.ub_size = context_.mem_size[static_cast<int>(Memory::kUb)];
  context_.trace = trace;
  // The sanitizer follows the vector pipes of every AI core / AIV, the AIVs of a mix block each
  // with a GM log of its own; an AIC (its cube pipes) goes unchecked (README, Sanitizer).
  if (launch->sanitizer != nullptr && unit != CoreUnit::kAic) {
    sanitizer_.reset(CoreSanitizer::Create(context_, *launch->sanitizer));
    context_.sanitizer = sanitizer_.get();
  }
  SetCurrentCore(&context_);
}

bool EnsureCubeMemories(CoreContext& core) {
  if (core.unit == CoreUnit::kAiv) return false;
  if (core.mem_base[static_cast<int>(Memory::kL1)] != nullptr) return true;
  CubeArena arena = AllocateCubeArena(core.launch->soc->memory_bytes);
  MapCubeMemories(core, arena.base);
  core.owned_cube_memory = std::shared_ptr<uint8_t>(arena.owned.release(), std::free);
  return true;
}

// kernel_print.cpp: writes the block's unfinished printf line.
void FlushKernelPrint(CoreContext& core);

CoreScope::~CoreScope() {
  // A block that faulted never reached FinishBlock: its unfinished printf line is written now,
  // under its own tag, instead of being left for whichever block next runs on this thread.
  try {
    FlushKernelPrint(context_);
  } catch (...) {
  }
  SetCurrentCore(previous_);
  // The block's tensors are gone with it: its records can serve the thread's next block. The
  // sanitizer, which refers to them, ends first.
  sanitizer_.reset();
  GiveBackSlotStore(std::move(slot_store_));
}

CurrentCoreSwitch::CurrentCoreSwitch(CoreContext* core) : previous_(g_current_core) {
  SetCurrentCore(core);
}
CurrentCoreSwitch::~CurrentCoreSwitch() { SetCurrentCore(previous_); }

SingleCore::SingleCore(const SocProfile& soc, uint32_t block_num, bool strict)
    : launch_(std::make_unique<LaunchShared>()) {
  launch_->kernel = "test";
  launch_->block_num = block_num;
  launch_->soc = &soc;
  launch_->strict = strict;
  launch_->layout = KernelLayout::kAiCore;  // a test core has both units
  scope_ = std::make_unique<CoreScope>(launch_.get(), 0);
}

std::string WhereAmI() {
  CoreContext* core = g_current_core;
  if (core == nullptr || core->launch == nullptr) return "";
  // Sub-cores are named where the launch has more than one kind of core: "block 0/4 AIV1: ".
  switch (core->launch->layout) {
    case KernelLayout::kMix:
      if (core->unit == CoreUnit::kAiv) {
        return Str(core->launch->kernel, ": block ", core->block_idx, "/", core->launch->block_num,
                   " AIV", core->sub_block_idx, ": ");
      }
      if (core->matmul.client >= 0) {  // the AIC running a Matmul request of one of its AIVs
        return Str(core->launch->kernel, ": block ", core->block_idx, "/", core->launch->block_num,
                   " AIC (Matmul of AIV", core->matmul.client, "): ");
      }
      return Str(core->launch->kernel, ": block ", core->block_idx, "/", core->launch->block_num,
                 " AIC: ");
    case KernelLayout::kAic:
      return Str(core->launch->kernel, ": block ", core->block_idx, "/", core->launch->block_num,
                 " AIC: ");
    default:
      break;
  }
  return Str(core->launch->kernel, ": block ", core->block_idx, "/", core->launch->block_num, ": ");
}

[[noreturn]] void Fault(ErrorKind kind, std::string_view detail) {
  const std::string message = WhereAmI() + std::string(detail);
  switch (kind) {
    case ErrorKind::kOutOfBounds:
      throw OutOfBounds(message);
    case ErrorKind::kOutOfDeviceMemory:
      throw OutOfDeviceMemory(message);
    case ErrorKind::kUbOverflow:
      throw UbOverflow(message);
    case ErrorKind::kQueueMisuse:
      throw QueueMisuse(message);
    case ErrorKind::kSyncMisuse:
      throw SyncMisuse(message);
    case ErrorKind::kStrictWarning:
      throw StrictWarning(message);
    case ErrorKind::kTimeout:
      throw Timeout(message);
    case ErrorKind::kRace:
      throw Race(message);
    case ErrorKind::kUninitializedRead:
      throw UninitializedRead(message);
    default:
      throw InvalidArgument(message);
  }
}

void Warn(std::string_view detail_view, std::string_view key) {
  CoreContext* core = g_current_core;
  if (core == nullptr || core->launch == nullptr) return;
  const std::string detail(detail_view);
  if (core->launch->strict) Fault(ErrorKind::kStrictWarning, detail + " [strict mode]");
  core->launch->warnings.Add(key.empty() ? detail : std::string(key), WhereAmI() + detail,
                             core->block_idx, core->api_calls);
}

void CancelLaunch(LaunchShared& launch, const std::string& reason) {
  if (launch.cancel_claimed.exchange(true, std::memory_order_acq_rel)) return;
  launch.cancel_reason = reason;
  launch.cancelled.store(true, std::memory_order_release);
}

void EnterApiCall(CoreContext& core) {
  ++core.api_calls;
  if (core.launch->cancelled.load(std::memory_order_acquire)) {
    Fault(ErrorKind::kTimeout, core.launch->cancel_reason);
  }
}

}  // namespace ascsim::aicore
