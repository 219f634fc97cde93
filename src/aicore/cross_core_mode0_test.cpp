// Launch-wide cross-core synchronisation: CrossCoreSetFlag mode 0 (every AIV, or every AIC, of the
// launch) and SyncAll<true> / SyncAll<false> in mix kernels, which CANN builds from those flags.
// Each kernel writes before the barrier and reads every other core's value after it, so a barrier
// that released early reads a stale value; repeated rounds check that credits are per round.
// Misuse: a core that leaves without its set, and blockDim above the AI cores.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

namespace {

// Slots: AIV i of the launch at g[i], AIC b at g[64 + b]; results at g[128 + ...].
constexpr int kAicBase = 64, kOut = 128;

__aicore__ inline AscendC::GlobalTensor<int32_t> Gm(GM_ADDR p) {
  AscendC::GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(p), 512);
  return g;
}
__aicore__ inline int32_t AivIndex() { return static_cast<int32_t>(AscendC::GetBlockIdx()); }

}  // namespace

// Rounds of: write (round + 1) * (index + 1); barrier; sum everyone's. The sum proves every write
// of this round happened before every read.
extern "C" __global__ __aicore__ void mode0_aivs(GM_ADDR data, uint32_t rounds) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  auto g = Gm(data);
  if ASCEND_IS_AIV {
    const int32_t n = static_cast<int32_t>(AscendC::GetBlockNum() * AscendC::GetSubBlockNum());
    for (uint32_t r = 0; r < rounds; ++r) {
      g.SetValue(AivIndex(), static_cast<int32_t>(r + 1) * (AivIndex() + 1));
      AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(4);
      AscendC::CrossCoreWaitFlag(4);
      int32_t sum = 0;
      for (int32_t i = 0; i < n; ++i) sum += g.GetValue(i);
      g.SetValue(kOut + AivIndex(), g.GetValue(kOut + AivIndex()) + sum);
      AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(5);  // nobody rewrites before all have read
      AscendC::CrossCoreWaitFlag(5);
    }
  }
}

extern "C" __global__ __aicore__ void mode0_aics(GM_ADDR data) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  auto g = Gm(data);
  if ASCEND_IS_AIC {
    const int32_t b = static_cast<int32_t>(AscendC::GetBlockIdx());
    g.SetValue(kAicBase + b, 10 * (b + 1));
    AscendC::CrossCoreSetFlag<0x0, PIPE_FIX>(6);
    AscendC::CrossCoreWaitFlag(6);
    int32_t sum = 0;
    for (int32_t i = 0; i < static_cast<int32_t>(AscendC::GetBlockNum()); ++i) sum += g.GetValue(kAicBase + i);
    g.SetValue(kOut + kAicBase + b, sum);
  }
}

extern "C" __global__ __aicore__ void sync_all_aivs(GM_ADDR data, uint32_t rounds) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  auto g = Gm(data);
  if ASCEND_IS_AIV {
    const int32_t n = static_cast<int32_t>(AscendC::GetBlockNum() * AscendC::GetSubBlockNum());
    for (uint32_t r = 0; r < rounds; ++r) {
      g.SetValue(AivIndex(), static_cast<int32_t>(r + 1) * (AivIndex() + 1));
      AscendC::SyncAll();
      int32_t sum = 0;
      for (int32_t i = 0; i < n; ++i) sum += g.GetValue(i);
      g.SetValue(kOut + AivIndex(), g.GetValue(kOut + AivIndex()) + sum);
      AscendC::SyncAll<true>();
    }
  }
}

// SyncAll<false>: the AICs' writes are seen by every AIV after it, and the AIVs' by every AIC.
extern "C" __global__ __aicore__ void sync_all_everyone(GM_ADDR data) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  auto g = Gm(data);
  const int32_t blocks = static_cast<int32_t>(AscendC::GetBlockNum());
  if ASCEND_IS_AIC {
    g.SetValue(kAicBase + static_cast<int32_t>(AscendC::GetBlockIdx()), 1000);
  } else {
    g.SetValue(AivIndex(), 1);
  }
  AscendC::SyncAll<false>();
  int32_t sum = 0;
  for (int32_t i = 0; i < blocks; ++i) sum += g.GetValue(kAicBase + i);
  for (int32_t i = 0; i < blocks * 2; ++i) sum += g.GetValue(i);
  const int32_t slot = ASCEND_IS_AIC ? kAicBase + static_cast<int32_t>(AscendC::GetBlockIdx()) : AivIndex();
  g.SetValue(kOut + slot, sum);
}

// A MIX_AIV_1_0 kernel: AIVs only, with the cross-core scheduler (mode 0 among them).
extern "C" __global__ __aicore__ void mode0_aiv_1_0(GM_ADDR data) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
  auto g = Gm(data);
  const int32_t n = static_cast<int32_t>(AscendC::GetBlockNum());
  g.SetValue(AivIndex(), AivIndex() + 1);
  AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(2);
  AscendC::CrossCoreWaitFlag(2);
  int32_t sum = 0;
  for (int32_t i = 0; i < n; ++i) sum += g.GetValue(i);
  g.SetValue(kOut + AivIndex(), sum);
}

// AIV 1 of block 0 leaves without joining the round.
extern "C" __global__ __aicore__ void mode0_missing_aiv(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIV {
    if (AscendC::GetBlockIdx() == 1) return;
    AscendC::SyncAll();
  }
}

namespace {

using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;

template <class F>
std::vector<int32_t> RunKernel(F launch, size_t n = 512) {
  DeviceBuffer d(n * 4);
  std::memset(d.gm(), 0, d.bytes());
  launch(d.gm());
  std::vector<int32_t> v(n);
  std::memcpy(v.data(), d.gm(), n * 4);
  return v;
}

int32_t RoundSums(int32_t cores, uint32_t rounds) {
  int32_t total = 0;
  for (uint32_t r = 0; r < rounds; ++r) total += static_cast<int32_t>(r + 1) * cores * (cores + 1) / 2;
  return total;
}

TEST(CrossCoreMode0, EveryAivOfTheLaunchMeets) {
  for (uint32_t blocks : {1u, 3u, 8u}) {
    const auto v = RunKernel([&](GM_ADDR d) { ICPU_RUN_KF(mode0_aivs, blocks, d, 4u); });
    const int32_t cores = static_cast<int32_t>(blocks * 2);
    for (int32_t i = 0; i < cores; ++i) EXPECT_EQ(v[kOut + i], RoundSums(cores, 4)) << blocks << " " << i;
  }
}

TEST(CrossCoreMode0, EveryAicOfTheLaunchMeets) {
  const auto v = RunKernel([](GM_ADDR d) { ICPU_RUN_KF(mode0_aics, 5, d); });
  for (int32_t b = 0; b < 5; ++b) EXPECT_EQ(v[kOut + kAicBase + b], 150) << b;
}

// A completed round wakes every block's group from outside the launch lock while other blocks
// end and destroy theirs; the last set of a round and a block's end race on every launch. Before
// the fix, about one launch in 50 locked a destroyed group's mutex (EINVAL / a glibc assertion),
// and a waiter that had just taken its credit still counted as blocked, so a correct kernel was
// reported as deadlocked. Many launches make either show up in one run.
TEST(CrossCoreMode0, RepeatedLaunchesRaceTheLastSetAgainstBlocksEnding) {
  for (int i = 0; i < 150; ++i) {
    const auto aics = RunKernel([](GM_ADDR d) { ICPU_RUN_KF(mode0_aics, 5, d); });
    for (int32_t b = 0; b < 5; ++b) ASSERT_EQ(aics[kOut + kAicBase + b], 150) << i << " " << b;
    const auto aivs = RunKernel([](GM_ADDR d) { ICPU_RUN_KF(mode0_aivs, 8, d, 2u); });
    for (int32_t c = 0; c < 16; ++c) ASSERT_EQ(aivs[kOut + c], RoundSums(16, 2)) << i << " " << c;
  }
}

TEST(CrossCoreMode0, MixAiv10Kernel) {
  const auto v = RunKernel([](GM_ADDR d) { ICPU_RUN_KF(mode0_aiv_1_0, 6, d); });
  for (int32_t i = 0; i < 6; ++i) EXPECT_EQ(v[kOut + i], 21) << i;
}

TEST(MixSyncAll, AivOnlyBarrierRepeats) {
  for (uint32_t blocks : {1u, 4u}) {
    const auto v = RunKernel([&](GM_ADDR d) { ICPU_RUN_KF(sync_all_aivs, blocks, d, 5u); });
    const int32_t cores = static_cast<int32_t>(blocks * 2);
    for (int32_t i = 0; i < cores; ++i) EXPECT_EQ(v[kOut + i], RoundSums(cores, 5)) << i;
  }
}

TEST(MixSyncAll, AicsAndAivsTogether) {
  const auto v = RunKernel([](GM_ADDR d) { ICPU_RUN_KF(sync_all_everyone, 3, d); });
  const int32_t want = 3 * 1000 + 6;
  for (int32_t i = 0; i < 6; ++i) EXPECT_EQ(v[kOut + i], want) << "AIV " << i;
  for (int32_t b = 0; b < 3; ++b) EXPECT_EQ(v[kOut + kAicBase + b], want) << "AIC " << b;
}

#define EXPECT_HAS(msg, text) EXPECT_NE((msg).find(text), std::string::npos) << (msg)

TEST(MixSyncAll, Misuse) {
  DeviceBuffer d(64);
  const std::string missing = ErrorOf([&] { ICPU_RUN_KF(mode0_missing_aiv, 2, d.gm()); });
  EXPECT_HAS(missing, "CrossCoreWaitFlag(14)");
  EXPECT_HAS(missing, "its mode-0 round has 3 of the 4 AIVs' sets (1 left the kernel)");
  EXPECT_HAS(missing, "the device would hang until the AI-core timeout (507014)");
  // 25 blocks cannot all be resident on the 24 AI cores of a 910B1.
  DeviceBuffer big(512 * 4);
  EXPECT_HAS(ErrorOf([&] { ICPU_RUN_KF(mode0_aivs, 25, big.gm(), 1u); }),
             "with blockDim 25 exceeds the 24 physical cube cores of Ascend910B1; blocks beyond "
             "them run in a later wave, so the device would deadlock (use blockDim <= 24)");
}

}  // namespace
