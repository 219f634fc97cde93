// Matmul's scratch matrix comes from the allocator the runtime installs in the launch
// (LaunchShared::alloc_gm / free_gm), never from a call up into the runtime; the AIC of a mix
// block takes its two clients' requests in turn, whatever the host threads' timing.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "aicore_test_util.h"
#include "calibration_matmul.h"
#include "ascsim/profile.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "runtime/device_memory_internal.h"
#include "tikicpulib.h"

namespace {

constexpr int kSide = 32;     // each request: one 32 x 32 x 32 product
constexpr int kRounds = 3;    // requests (IterateAll) per client
constexpr uint64_t kCBytes = kSide * kSide * sizeof(float);

// How the two AIVs of the block reach their requests (the AIC must take them in turn anyway).
enum ServeCase : int32_t {
  kAiv1Late = 0,        // AIV 1 sleeps before each request: the host would serve AIV 0 first
  kAiv0Late = 1,        // the same for AIV 0
  kAiv1AfterFlag = 2,   // AIV 1 meets AIV 0 (mode 1) only after AIV 0's requests were served
  kAiv1Idle = 3,        // AIV 1 makes no request and leaves
  kAiv1Spins = 4,       // AIV 1 spins in IBWait for 500 ms (block 1 sets the flag) first
};

}  // namespace

// Each AIV multiplies its own A (sub) by B kRounds times into C[sub][round].
// kAiv1Spins runs two blocks: block 1 only sets the flag block 0's AIV 1 waits for.
extern "C" __global__ __aicore__ void mm_serve_order(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                     GM_ADDR tilingGm, GM_ADDR caseGm,
                                                     GM_ADDR flagsGm) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  std::memcpy(&tiling, tilingGm, sizeof(tiling));
  using A_TYPE = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
  using C_TYPE = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
  AscendC::Matmul<A_TYPE, A_TYPE, C_TYPE, C_TYPE> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  const int32_t serve_case = *reinterpret_cast<__gm__ int32_t*>(caseGm);
  const int32_t sub = static_cast<int32_t>(AscendC::GetSubBlockIdx());
  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), 2 * kSide * kSide);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), kSide * kSide);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), 2 * kRounds * kSide * kSide);
  if (serve_case == kAiv1Idle && sub == 1) return;
  if (serve_case == kAiv1Spins) {
    AscendC::GlobalTensor<int32_t> flags;
    flags.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(flagsGm), 64);
    AscendC::TBuf<AscendC::TPosition::VECCALC> flagBuf;
    pipe.InitBuffer(flagBuf, 32);
    const uint32_t block = AscendC::GetBlockIdx() / AscendC::GetSubBlockNum();
    if (block == 1) {
      if (sub == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        AscendC::IBSet<false>(flags, flagBuf.Get<int32_t>(), 1, 0);
      }
      return;
    }
    if (sub == 1) {
      AscendC::IBWait<false>(flags, flagBuf.Get<int32_t>(), 1, 0);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // AIV 1 spins by now
    }
  }
  if (serve_case == kAiv1AfterFlag && sub == 1) {  // mode 1: the AIVs meet once both have set
    AscendC::CrossCoreSetFlag<0x1, PIPE_MTE3>(7);
    AscendC::CrossCoreWaitFlag<0x1, PIPE_MTE3>(7);
  }
  const bool late = (serve_case == kAiv1Late && sub == 1) || (serve_case == kAiv0Late && sub == 0);
  for (int32_t r = 0; r < kRounds; ++r) {
    if (late) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    mm.SetTensorA(aGlobal[sub * kSide * kSide]);
    mm.SetTensorB(bGlobal);
    mm.IterateAll(cGlobal[(sub * kRounds + r) * kSide * kSide]);
  }
  mm.End();
  if (serve_case == kAiv1AfterFlag && sub == 0) {
    AscendC::CrossCoreSetFlag<0x1, PIPE_MTE3>(7);
    AscendC::CrossCoreWaitFlag<0x1, PIPE_MTE3>(7);
  }
}

// A and B both ibShare: each AIV asks for the same C; AIV 1 then copies C to D. AIV 1 calls
// IterateAll `aiv1_rounds` times, AIV 0 once.
extern "C" __global__ __aicore__ void mm_shared_result(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR d,
                                                       GM_ADDR tilingGm, int32_t aiv1_rounds) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  std::memcpy(&tiling, tilingGm, sizeof(tiling));
  using A_TYPE = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false,
                                     LayoutMode::NONE, true>;
  using C_TYPE = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
  AscendC::Matmul<A_TYPE, A_TYPE, C_TYPE, C_TYPE, CFG_IBSHARE_NORM> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> cGlobal, dGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), kSide * kSide);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), kSide * kSide);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), kSide * kSide);
  dGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(d), kSide * kSide);
  const uint32_t sub = AscendC::GetSubBlockIdx();
  const int32_t rounds = sub == 0 ? 1 : aiv1_rounds;
  for (int32_t r = 0; r < rounds; ++r) {
    mm.SetTensorA(aGlobal);
    mm.SetTensorB(bGlobal);
    mm.IterateAll(cGlobal);
  }
  mm.End();
  if (sub == 1) {
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kCBytes);
    AscendC::LocalTensor<float> ub = buf.Get<float>();
    AscendC::DataCopy(ub, cGlobal, kSide * kSide);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(dGlobal, ub, kSide * kSide);
  }
}

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;

// A launch allocator that counts what Matmul asks of it.
struct Counts {
  int allocs = 0;
  int frees = 0;
  size_t bytes = 0;
  void* last_freed = nullptr;
};
Counts counts;

void* CountingAlloc(size_t bytes) {
  ++counts.allocs;
  counts.bytes += bytes;
  return ascsim::DeviceMalloc(bytes);
}

void CountingFree(void* p) {
  ++counts.frees;
  counts.last_freed = p;
  ascsim::DeviceFree(p);
}

TEST(MatmulScratch, ComesFromTheLaunchAllocatorZeroedAndGoesBackToIt) {
  counts = {};
  CoreFixture fx;
  fx.core().launch().alloc_gm = CountingAlloc;
  fx.core().launch().free_gm = CountingFree;
  const size_t in_use = ascsim::GetMemoryStats().in_use_bytes;
  uint8_t* p = ascsim::matmul::ScratchAlloc(1000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(counts.allocs, 1);
  EXPECT_EQ(counts.bytes, 1000u);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(p[i], 0) << "byte " << i;
  // Device memory, so a GlobalTensor over it resolves like any allocation.
  ascsim::GmRange range;
  ASSERT_TRUE(ascsim::runtime::FindDeviceMemory(p + 10, &range));
  EXPECT_EQ(range.begin, p);
  EXPECT_GE(ascsim::GetMemoryStats().in_use_bytes, in_use + 1000);
  ascsim::matmul::ScratchFree(p);
  EXPECT_EQ(counts.frees, 1);
  EXPECT_EQ(counts.last_freed, p);
  EXPECT_EQ(ascsim::GetMemoryStats().in_use_bytes, in_use);
}

TEST(MatmulScratch, ALaunchWithoutAnAllocatorFaultsAtTheCall) {
  CoreFixture fx;  // a hand-made launch: the runtime installed nothing
  const std::string msg = ErrorOf([] { ascsim::matmul::ScratchAlloc(64); });
  EXPECT_NE(msg.find("Matmul: this launch has no device memory allocator for the scratch matrix"),
            std::string::npos)
      << msg;
}

TEST(MatmulScratch, FreeOutsideACoreTouchesNothing) {
  counts = {};
  uint8_t* p = nullptr;
  {
    CoreFixture fx;
    fx.core().launch().alloc_gm = CountingAlloc;
    fx.core().launch().free_gm = CountingFree;
    p = ascsim::matmul::ScratchAlloc(64);
  }
  ascsim::matmul::ScratchFree(p);  // no current core, so no launch allocator to return it to
  EXPECT_EQ(counts.frees, 0);
  ascsim::DeviceFree(p);
}

// The host tiling of one kSide^3 half -> float product on one core.
std::vector<uint8_t> SquareTiling() {
  return calibration_mm::Tiling({kSide, kSide, kSide, 1, -1, -1, -1});
}

// The client of each request that reads A, in the AIC's trace order: a request starts with the
// message the AIC takes (Matmul::Message); its copies of A say whose it is (each AIV has its own A).
std::vector<int> ServedOrder(ServeCase serve_case) {
  const std::vector<uint8_t> tiling = SquareTiling();
  ascsim_test::DeviceBuffer da(2 * kSide * kSide * 2), db(kSide * kSide * 2),
      dc(2 * kRounds * kCBytes), dt(tiling.size()), dcase(4), dflags(64 * 4);
  std::memset(da.gm(), 0, da.bytes());
  std::memset(db.gm(), 0, db.bytes());
  std::memcpy(dt.gm(), tiling.data(), tiling.size());
  const int32_t code = serve_case;
  std::memcpy(dcase.gm(), &code, 4);
  std::memset(dflags.gm(), 0, dflags.bytes());
  const uint32_t blocks = serve_case == kAiv1Spins ? 2 : 1;
  ascsim::Profiler prof;
  ICPU_RUN_KF(mm_serve_order, blocks, da.gm(), db.gm(), dc.gm(), dt.gm(), dcase.gm(),
              dflags.gm());
  prof.Stop();
  const std::vector<ascsim::LaunchEstimate> launches = prof.Summary();
  EXPECT_EQ(launches.size(), 1u);
  std::vector<int> order;
  if (launches.empty() || !launches[0].traces) return order;
  const auto a0 = reinterpret_cast<uint64_t>(da.gm());
  for (const ascsim::trace::CoreTrace& t : *launches[0].traces) {
    if (t.unit != 1) continue;  // the AIC
    bool new_request = false;
    for (const ascsim::trace::ApiCall& call : t.calls) {
      if (std::strcmp(call.name, "Matmul::Message") == 0) new_request = true;
      if (!new_request || call.pipe != ascsim::trace::Pipe::kMte2 || call.gm_addr < a0 ||
          call.gm_addr >= a0 + da.bytes()) {
        continue;
      }
      order.push_back(static_cast<int>((call.gm_addr - a0) / (kSide * kSide * 2)));
      new_request = false;
    }
  }
  return order;
}

using Served = std::vector<int>;
const Served kAlternating = {0, 1, 0, 1, 0, 1};

TEST(MatmulServer, TakesItsTwoClientsInTurnWhicheverReachesItFirst) {
  // kernel_kfc.h KfcServer::Run polls AIV 0's queue, then AIV 1's: with both clients busy the
  // AIC alternates, and the host's timing must not change its work (nor the estimate).
  EXPECT_EQ(ServedOrder(kAiv1Late), kAlternating);
  EXPECT_EQ(ServedOrder(kAiv0Late), kAlternating);
}

TEST(MatmulServer, PassesOverAClientThatWaitsOrHasLeft) {
  // A client that waits on a flag only its partner sets after its requests, or that leaves
  // without a request, does not hold the AIC.
  EXPECT_EQ(ServedOrder(kAiv1AfterFlag), (Served{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(ServedOrder(kAiv1Idle), (Served{0, 0, 0}));
}

TEST(MatmulServer, PassesOverAClientSpinningOnGm) {
  // AIV 1 spins in IBWait (block 1 sets its flag 500 ms later) while AIV 0 asks: the AIC does
  // not hold AIV 0's requests for AIV 1's turn (it would get 0, 1, 0, 1, 0, 1 by waiting).
  EXPECT_EQ(ServedOrder(kAiv1Spins), (Served{0, 0, 0, 1, 1, 1}));
}

// Runs mm_shared_result with A and B all ones under the race and init checks; returns the
// error ("" when clean) and D.
std::string RunSharedResult(int32_t aiv1_rounds, std::vector<float>* d_out) {
  const std::vector<uint8_t> tiling = SquareTiling();
  ascsim_test::DeviceBuffer da(kSide * kSide * 2), db(kSide * kSide * 2), dc(kCBytes),
      dd(kCBytes), dt(tiling.size());
  const half one(1.0f);
  for (int i = 0; i < kSide * kSide; ++i) da.as<half>()[i] = db.as<half>()[i] = one;
  std::memset(dc.gm(), 0, dc.bytes());
  std::memset(dd.gm(), 0, dd.bytes());
  std::memcpy(dt.gm(), tiling.data(), tiling.size());
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(ascsim::kSanitizeRace | ascsim::kSanitizeInit);
  std::string error;
  try {
    ICPU_RUN_KF(mm_shared_result, 1, da.gm(), db.gm(), dc.gm(), dd.gm(), dt.gm(), aiv1_rounds);
  } catch (const ascsim::Error& e) {
    error = e.what();
  }
  d_out->assign(dd.as<float>(), dd.as<float>() + kSide * kSide);
  return error;
}

TEST(MatmulServer, WithAAndBIbShareTheSecondClientWaitsForTheFirstsResult) {
  // The AIC computes C once, for AIV 0; AIV 1's IterateAll returns once C is written, so its copy
  // of C right after reads the product (and the sanitizer orders it after the AIC's Fixpipe).
  std::vector<float> d;
  EXPECT_EQ(RunSharedResult(1, &d), "");
  for (int i = 0; i < kSide * kSide; ++i) ASSERT_EQ(d[i], float(kSide)) << "element " << i;
}

TEST(MatmulServer, ASharedResultTheFirstClientNeverAsksForIsAHang) {
  std::vector<float> d;
  const std::string error = RunSharedResult(2, &d);
  EXPECT_NE(error.find("mm_shared_result: block 0/1 AIV1: Matmul::IterateAll: with A and B both "
                       "ibShare, sub-block 1 takes the C that sub-block 0's IterateAll computes"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("AIV0 left the kernel after 1 such IterateAll and this is sub-block 1's 2;"
                       " the device would hang"),
            std::string::npos)
      << error;
}

}  // namespace
