// The Matmul client/server hand-over of mix blocks (ascsim/matmul/matmul_server.h), the shared
// L0 buffers and C scratch of the Matmul API (ascsim/matmul/matmul_impl.h).
#include "ascsim/matmul/matmul_server.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "aicore/cube_arena.h"
#include "aicore/mix_group.h"
#include "aicore/sanitizer/core_sanitizer.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/aicore/tpipe.h"
#include "ascsim/matmul/matmul_impl.h"

namespace ascsim::aicore {

namespace {

// The cube memories of the Matmul server contexts made on this thread (an AIV's thread), sized
// for the largest profile and kept for the thread's life: a launch does not map fresh memory
// for every block (the contents carry over, as a core's L1 does between kernels).
const std::array<uint8_t*, kLocalMemoryCount>& ThreadServerMemories() {
  thread_local const CubeArena arena = AllocateCubeArena(LargestMemoryBytes());
  return arena.base;
}

}  // namespace

bool IsMixAic(const CoreContext& core) {
  return core.unit == CoreUnit::kAic && core.group != nullptr;
}

void MatmulServerReady(CoreContext& aic) {
  MixGroup& g = *aic.group;
  std::lock_guard<std::mutex> lock(g.mu);
  g.server_ready = true;
  g.cv.notify_all();
}

CoreContext* MatmulServerFor(CoreContext& core, const char* call) {
  if (core.unit != CoreUnit::kAiv) return nullptr;
  if (core.group == nullptr) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call,
              ": Matmul on an AIV needs the AIC of a mix kernel (the AIV is its client); "
              "this launch runs AIVs only",
              KernelModeNote(),
              " (REGIST_MATMUL_OBJ without ASCENDC_CUBE_ONLY makes the kernel "
              "KERNEL_TYPE_MIX_AIC_1_2)"));
  }
  MixGroup& g = *core.group;
  const uint32_t sub = core.sub_block_idx;
  std::lock_guard<std::mutex> lock(g.mu);
  if (!g.server[sub]) {
    auto ctx = std::make_unique<CoreContext>();
    ctx->launch = core.launch;
    ctx->block_idx = core.block_idx;
    ctx->unit = CoreUnit::kAic;
    ctx->group = &g;
    ctx->trace = g.aic_trace;
    ctx->matmul.client = static_cast<int>(sub);
    g.server_slots[sub] = std::make_unique<SlotStore>();
    ctx->queues.slot_store = g.server_slots[sub].get();
    // Its buffers share the AIC's trace: keep their ids apart from the AIC's own.
    ctx->queues.next_buffer_id = (1u + sub) << 24;
    MapCubeMemories(*ctx, ThreadServerMemories());
    g.server[sub] = std::move(ctx);
  }
  return g.server[sub].get();
}

namespace {

// Whether AIV `sub` of `g` may still post a request before it stops: it has not left the kernel,
// does not spin on GM and does not wait on a cross-core flag nobody has set. Under g.mu.
bool MayPost(const MixGroup& g, uint32_t sub) {
  const int slot = 1 + static_cast<int>(sub);
  return !g.parked[slot] && g.Runnable(slot);
}

// Whether the AIC takes AIV `sub`'s request next: it polls from the AIV whose turn it is, in
// order, and passes over those that cannot post any more. One that runs towards its next request
// is waited for (its request comes first on the device when both run alike), unless it has not
// posted within `patience` (a kernel spinning on GM by itself): the order is then the host's.
bool TakesNext(const MixGroup& g, uint32_t sub, bool patience_spent) {
  if (g.serving) return false;
  for (uint32_t c = static_cast<uint32_t>(g.serve_turn); c != sub; c = (c + 1) % g.aivs) {
    if (g.posted[c]) return false;
    if (MayPost(g, c) && !patience_spent) return false;
  }
  return true;
}

}  // namespace

struct MatmulServerScope::State {
  MixGroup* group = nullptr;
  uint32_t sub = 0;
  std::unique_ptr<CurrentCoreSwitch> as_server;
};

MatmulServerScope::MatmulServerScope(CoreContext* server) {
  if (server == nullptr) return;
  MixGroup& g = *server->group;
  const auto sub = static_cast<uint32_t>(server->matmul.client);
  {
    std::unique_lock<std::mutex> lock(g.mu);
    while (!g.server_ready) {
      if (g.failed) throw SubCoreStopped{};
      if (g.exited[0]) {
        lock.unlock();
        Fault(ErrorKind::kSyncMisuse,
              "Matmul: the AIC of this block left the kernel without reaching "
              "REGIST_MATMUL_OBJ, so no server takes the request; the device would hang until the "
              "AI-core timeout (507014)");
      }
      g.cv.wait_for(lock, std::chrono::milliseconds(50));
      if (server->launch->cancelled.load(std::memory_order_acquire)) {
        lock.unlock();
        Fault(ErrorKind::kTimeout,
              server->launch->cancel_reason + " (waiting for the Matmul server)");
      }
    }
    g.posted[sub] = true;
    g.cv.notify_all();
    const auto since = std::chrono::steady_clock::now();
    constexpr auto kPatience = std::chrono::seconds(2);
    while (!TakesNext(g, sub, std::chrono::steady_clock::now() - since > kPatience)) {
      if (g.failed) {
        g.posted[sub] = false;
        throw SubCoreStopped{};
      }
      g.cv.wait_for(lock, std::chrono::milliseconds(50));
      if (server->launch->cancelled.load(std::memory_order_acquire)) {
        g.posted[sub] = false;
        lock.unlock();
        Fault(ErrorKind::kTimeout,
              server->launch->cancel_reason + " (waiting for the Matmul server)");
      }
    }
    g.posted[sub] = false;
    g.serving = true;
  }
  state_ = std::make_unique<State>();
  state_->group = &g;
  state_->sub = sub;
  state_->as_server = std::make_unique<CurrentCoreSwitch>(server);
}

void MatmulSharedResultDone(CoreContext* server) {
  MixGroup& g = *server->group;
  CoreContext& client = CurrentCore();  // AIV 0, back from its request
  std::lock_guard<std::mutex> lock(g.mu);
  ++g.shared_results;
  if (client.sanitizer != nullptr) client.sanitizer->CrossCoreRelease(g.shared_clock);
  g.cv.notify_all();
}

void MatmulAwaitSharedResult(CoreContext* server, uint64_t nth) {
  MixGroup& g = *server->group;
  CoreContext& client = CurrentCore();  // AIV 1
  const int me = MixGroup::Slot(client);
  std::unique_lock<std::mutex> lock(g.mu);
  g.parked[me] = true;  // it posts nothing while it waits: AIV 0's turn comes at once
  g.cv.notify_all();
  while (g.shared_results < nth) {
    if (g.failed) {
      g.parked[me] = false;
      throw SubCoreStopped{};
    }
    if (g.exited[1]) {
      g.parked[me] = false;
      const uint64_t done = g.shared_results;
      lock.unlock();
      Fault(ErrorKind::kSyncMisuse,
            Str("Matmul::IterateAll: with A and B both ibShare, sub-block 1 takes the C that "
                "sub-block 0's IterateAll computes (CANN's client posts no request for it), but "
                "AIV0 left the kernel after ",
                done, " such IterateAll and this is sub-block 1's ", nth,
                "; the device would hang until the AI-core timeout (507014): call IterateAll the "
                "same number of times on both sub-blocks"));
    }
    g.cv.wait_for(lock, std::chrono::milliseconds(50));
    if (client.launch->cancelled.load(std::memory_order_acquire)) {
      g.parked[me] = false;
      lock.unlock();
      Fault(ErrorKind::kTimeout,
            client.launch->cancel_reason + " (waiting for sub-block 0's shared Matmul result)");
    }
  }
  g.parked[me] = false;
  if (client.sanitizer != nullptr) client.sanitizer->CrossCoreAcquire(g.shared_clock);
}

MatmulServerScope::~MatmulServerScope() {
  if (!state_) return;
  state_->as_server.reset();
  MixGroup& g = *state_->group;
  std::lock_guard<std::mutex> lock(g.mu);
  g.serving = false;
  g.serve_turn = static_cast<int>((state_->sub + 1) % g.aivs);
  g.cv.notify_all();
}

}  // namespace ascsim::aicore

namespace ascsim::matmul {
namespace {

struct L0Pool {
  aicore::BufferSlot slots[3];  // L0A, L0B, BiasTable
};

aicore::BufferSlot WholeMemory(aicore::CoreContext& core, aicore::Memory memory,
                               AscendC::TPosition pos, const void* owner) {
  const int m = static_cast<int>(memory);
  aicore::BufferSlot slot;
  slot.addr = core.mem_base[m];
  slot.bytes = core.mem_size[m];
  slot.id = core.queues.next_buffer_id++;
  slot.trace = core.trace;
  slot.position = pos;
  slot.memory = memory;
  slot.mem_offset = 0;
  slot.state = aicore::BufferState::kFixed;
  slot.owner = owner;
  return slot;
}

}  // namespace

L0Buffers MatmulL0Buffers(const AscendC::TPipe& pipe) {
  using aicore::Memory;
  aicore::CoreContext& core = aicore::CurrentCore();
  const Memory memories[3] = {Memory::kL0A, Memory::kL0B, Memory::kBt};
  const char* names[3] = {"L0A (A2)", "L0B (B2)", "BiasTable (C2)"};
  for (int i = 0; i < 3; ++i) {
    if (pipe.used_bytes(memories[i]) != 0) {
      aicore::Fault(ErrorKind::kInvalidArgument,
                    aicore::Str("Matmul::Init: the Matmul API uses the whole ", names[i],
                                " of the core, as CANN's does, but the TPipe already holds ",
                                pipe.used_bytes(memories[i]),
                                " B there; keep the kernel's own cube buffers out of a kernel "
                                "that uses Matmul, or use a separate TPipe after End()"));
    }
  }
  if (!core.matmul.l0) {
    if (!aicore::EnsureCubeMemories(core)) {
      aicore::Fault(ErrorKind::kInvalidArgument,
                    "Matmul::Init: this core has no cube unit (an AIV without its AIC)");
    }
    auto pool = std::make_shared<L0Pool>();
    pool->slots[0] = WholeMemory(core, Memory::kL0A, AscendC::TPosition::A2, pool.get());
    pool->slots[1] = WholeMemory(core, Memory::kL0B, AscendC::TPosition::B2, pool.get());
    pool->slots[2] = WholeMemory(core, Memory::kBt, AscendC::TPosition::C2, pool.get());
    core.matmul.l0 = pool;
  }
  auto* pool = static_cast<L0Pool*>(core.matmul.l0.get());
  return L0Buffers{&pool->slots[0], &pool->slots[1], &pool->slots[2]};
}

// The scratch matrix is device memory (GlobalTensor checks resolve it like any allocation); the
// runtime hands its allocator to the launch, as aicore must not call the runtime.
uint8_t* ScratchAlloc(uint64_t bytes) {
  const aicore::LaunchShared& launch = *aicore::CurrentCore().launch;
  if (launch.alloc_gm == nullptr || launch.free_gm == nullptr) {
    aicore::Fault(ErrorKind::kInvalidArgument,
                  "Matmul: this launch has no device memory allocator for the scratch matrix "
                  "(LaunchShared::alloc_gm; the runtime installs it)");
  }
  auto* p = static_cast<uint8_t*>(launch.alloc_gm(bytes));
  std::memset(p, 0, bytes);
  return p;
}

void ScratchFree(uint8_t* buffer) {
  // The Matmul object lives in the kernel, so its block's launch is still current here.
  const aicore::CoreContext* core = aicore::TryCurrentCore();
  if (core == nullptr || core->launch == nullptr || core->launch->free_gm == nullptr) return;
  try {
    core->launch->free_gm(buffer);
  } catch (...) {  // a destructor must not throw; the registry reports double frees itself
  }
}

void MatmulFault(const char* call, std::string_view detail) {
  aicore::Fault(ErrorKind::kInvalidArgument, aicore::Str("Matmul::", call, ": ", detail));
}

bool CurrentArchHasSplitCores() { return aicore::CurrentCore().launch->soc->split_cores; }

}  // namespace ascsim::matmul
