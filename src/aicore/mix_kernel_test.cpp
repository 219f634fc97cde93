// Mixed AIC + AIV kernels: how blocks map to sub-cores (GetBlockIdx, GetBlockNum, GetSubBlockIdx,
// GetSubBlockNum, ASCEND_IS_AIC/AIV for MIX_AIC_1_2 and 1_1, blockDim counting AICs), the
// cross-core flags (AIC -> AIVs and AIVs -> AIC in mode 2, AIV <-> AIV in mode 1, a wait with
// CrossCoreWaitFlag's defaults as on A2), SetKernelMode in the CPU-debug API, and every misuse
// with its message (a wait nobody can satisfy, a counter past 15, the wrong pipe or mode, flags
// in a kernel that is not mixed).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

namespace {

// Each sub-core writes (unit, GetBlockIdx, GetBlockNum, GetSubBlockIdx, GetSubBlockNum) to its
// row: row = block * 3 + (AIC: 0, AIV i: 1 + i).
__aicore__ inline void WriteIds(GM_ADDR out) {
  AscendC::GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 1024);
  const int32_t unit = ASCEND_IS_AIC ? 1 : ASCEND_IS_AIV ? 2 : 0;
  const int32_t block = static_cast<int32_t>(AscendC::GetBlockIdx() /
                                             (ASCEND_IS_AIV ? AscendC::GetSubBlockNum() : 1));
  const int32_t row = block * 3 + (ASCEND_IS_AIC ? 0 : 1 + AscendC::GetSubBlockIdx());
  g.SetValue(row * 5 + 0, unit);
  g.SetValue(row * 5 + 1, static_cast<int32_t>(AscendC::GetBlockIdx()));
  g.SetValue(row * 5 + 2, static_cast<int32_t>(AscendC::GetBlockNum()));
  g.SetValue(row * 5 + 3, static_cast<int32_t>(AscendC::GetSubBlockIdx()));
  g.SetValue(row * 5 + 4, static_cast<int32_t>(AscendC::GetSubBlockNum()));
}

}  // namespace

extern "C" __global__ __aicore__ void mix_ids_1_2(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  WriteIds(out);
}
extern "C" __global__ __aicore__ void mix_ids_1_1(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
  WriteIds(out);
}
extern "C" __global__ __aicore__ void mix_ids_undeclared(GM_ADDR out) { WriteIds(out); }

// AIC -> AIVs: the AIC writes a value per AIV, then sets flag 3 (mode 2); each AIV waits with
// the defaults (as the BareMix sample does) and copies its value; then AIVs -> AIC: both AIVs
// set flag 5 and the AIC's single wait needs both; mode 1: the AIVs meet on flag 7.
extern "C" __global__ __aicore__ void mix_handoff(GM_ADDR data) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(data), 64);
  const int32_t base = static_cast<int32_t>(AscendC::GetBlockIdx() /
                                            (ASCEND_IS_AIV ? AscendC::GetSubBlockNum() : 1)) *
                       16;
  if ASCEND_IS_AIC {
    g.SetValue(base + 0, 100 + base);
    g.SetValue(base + 1, 200 + base);
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(3);
    AscendC::CrossCoreWaitFlag(5);
    g.SetValue(base + 8, g.GetValue(base + 4) + g.GetValue(base + 5));
  }
  if ASCEND_IS_AIV {
    const int32_t sub = static_cast<int32_t>(AscendC::GetSubBlockIdx());
    AscendC::CrossCoreWaitFlag(3);
    g.SetValue(base + 2 + sub, g.GetValue(base + sub) + 1);
    AscendC::CrossCoreSetFlag<0x1, PIPE_MTE3>(7);
    AscendC::CrossCoreWaitFlag<0x1, PIPE_MTE3>(7);
    // After the AIV barrier both copies exist: each AIV reads its partner's.
    g.SetValue(base + 4 + sub, g.GetValue(base + 2 + (1 - sub)));
    AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(5);
  }
}

// The same hand-off in the A2/A3 matmul kernels' spellings: NotifyEvent<pipe> (mode 2) and
// WaitEvent (PIPE_S by default), as ops-nn mat_mul_v3 uses them; the SYNC_* ids are CANN's.
extern "C" __global__ __aicore__ void mix_notify_wait(GM_ADDR data) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(data), 64);
  const int32_t base = static_cast<int32_t>(AscendC::GetBlockIdx() /
                                            (ASCEND_IS_AIV ? AscendC::GetSubBlockNum() : 1)) *
                       16;
  if ASCEND_IS_AIC {
    g.SetValue(base, 40 + base);
    AscendC::NotifyEvent<PIPE_FIX>(AscendC::SYNC_AIC_FLAG);
    AscendC::WaitEvent<PIPE_S>(AscendC::SYNC_AIV_FLAG);
    g.SetValue(base + 3, g.GetValue(base + 1) + g.GetValue(base + 2));
  }
  if ASCEND_IS_AIV {
    const int32_t sub = static_cast<int32_t>(AscendC::GetSubBlockIdx());
    AscendC::WaitEvent(AscendC::SYNC_AIC_FLAG);
    g.SetValue(base + 1 + sub, g.GetValue(base) * (sub + 1));
    AscendC::NotifyEvent<PIPE_MTE3>(AscendC::SYNC_AIV_FLAG);
  }
}

// Misuses, one kernel each.
extern "C" __global__ __aicore__ void mix_wait_forever(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(9);
  }
}
extern "C" __global__ __aicore__ void mix_counter_overflow(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    for (int i = 0; i < 16; ++i) AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(2);
  }
}
extern "C" __global__ __aicore__ void mix_set_on_pipe_s(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<0x2, PIPE_S>(1);
  }
}
extern "C" __global__ __aicore__ void mix_mode1_on_aic(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<0x1, PIPE_FIX>(1);
  }
}
extern "C" __global__ __aicore__ void aiv_only_cross_core(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(1);
}
extern "C" __global__ __aicore__ void mix_sync_all(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIV {
    AscendC::SyncAll();
  }
}
extern "C" __global__ __aicore__ void mix_flag_out_of_range(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(19);
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(3);
  }
}

namespace {

using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;

struct Ids {
  int32_t unit, block_idx, block_num, sub_idx, sub_num;
};

std::vector<Ids> RunIds(void (*run)(GM_ADDR), size_t rows) {
  DeviceBuffer out(1024 * 4);
  std::memset(out.gm(), 0xff, out.bytes());
  run(out.gm());
  std::vector<Ids> ids(rows);
  std::memcpy(ids.data(), out.gm(), rows * sizeof(Ids));
  return ids;
}

TEST(MixKernel, BlocksAreAicsWithTwoAivsEach) {
  const auto ids = RunIds([](GM_ADDR o) { ICPU_RUN_KF(mix_ids_1_2, 3, o); }, 9);
  for (int32_t b = 0; b < 3; ++b) {
    const Ids& aic = ids[b * 3];
    EXPECT_EQ(aic.unit, 1);
    EXPECT_EQ(aic.block_idx, b);
    EXPECT_EQ(aic.block_num, 3);  // blockDim counts AICs
    EXPECT_EQ(aic.sub_idx, 0);
    EXPECT_EQ(aic.sub_num, 1);
    for (int32_t i = 0; i < 2; ++i) {
      const Ids& aiv = ids[b * 3 + 1 + i];
      EXPECT_EQ(aiv.unit, 2);
      EXPECT_EQ(aiv.block_idx, b * 2 + i);  // AIVs number [0, 2 * blockDim)
      EXPECT_EQ(aiv.block_num, 3);
      EXPECT_EQ(aiv.sub_idx, i);
      EXPECT_EQ(aiv.sub_num, 2);
    }
  }
}

TEST(MixKernel, OneToOneHasOneAivPerAic) {
  const auto ids = RunIds([](GM_ADDR o) { ICPU_RUN_KF(mix_ids_1_1, 2, o); }, 6);
  for (int32_t b = 0; b < 2; ++b) {
    EXPECT_EQ(ids[b * 3].unit, 1);
    EXPECT_EQ(ids[b * 3 + 1].unit, 2);
    EXPECT_EQ(ids[b * 3 + 1].block_idx, b);
    EXPECT_EQ(ids[b * 3 + 1].sub_num, 1);
    EXPECT_EQ(ids[b * 3 + 2].unit, -1);  // no second AIV: its row stays untouched
  }
}

TEST(MixKernel, SetKernelModeChoosesTheSubCores) {
  {
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    const auto ids = RunIds([](GM_ADDR o) { ICPU_RUN_KF(mix_ids_undeclared, 1, o); }, 3);
    EXPECT_EQ(ids[0].unit, 1);
    EXPECT_EQ(ids[1].unit, 2);
    EXPECT_EQ(ids[2].unit, 2);
  }
  {
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    const auto ids = RunIds([](GM_ADDR o) { ICPU_RUN_KF(mix_ids_undeclared, 2, o); }, 4);
    EXPECT_EQ(ids[0].unit, 1);
    EXPECT_EQ(ids[3].unit, 1);  // block 1's AIC
    EXPECT_EQ(ids[3].block_idx, 1);
  }
  {
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    const auto ids = RunIds([](GM_ADDR o) { ICPU_RUN_KF(mix_ids_undeclared, 2, o); }, 6);
    EXPECT_EQ(ids[1].unit, 2);  // an AIV-only launch: block b is one AIV (row b * 3 + 1)
    EXPECT_EQ(ids[1].sub_num, 1);
    EXPECT_EQ(ids[4].block_idx, 1);
  }
  ascsim::aicore::SetRequestedKernelMode(-1);
}

TEST(MixKernel, CrossCoreFlagsHandDataBetweenSubCores) {
  DeviceBuffer data(64 * 4);
  std::memset(data.gm(), 0, data.bytes());
  ICPU_RUN_KF(mix_handoff, 2, data.gm());
  const int32_t* d = data.as<int32_t>();
  for (int32_t b = 0; b < 2; ++b) {
    const int32_t base = b * 16;
    EXPECT_EQ(d[base + 2], 101 + base);  // AIV0 saw the AIC's value
    EXPECT_EQ(d[base + 3], 201 + base);  // AIV1
    EXPECT_EQ(d[base + 4], 201 + base);  // AIV0 read AIV1's after the mode-1 barrier
    EXPECT_EQ(d[base + 5], 101 + base);
    EXPECT_EQ(d[base + 8], 302 + 2 * base);  // the AIC after both AIVs set flag 5
  }
}

TEST(MixKernel, NotifyEventAndWaitEventAreModeTwoFlags) {
  static_assert(AscendC::SYNC_AIC_FLAG == 11 && AscendC::SYNC_AIV_FLAG == 12 &&
                AscendC::SYNC_AIC_AIV_FLAG == 13 && AscendC::SYNC_AIV_ONLY_ALL == 14);
  DeviceBuffer data(64 * 4);
  std::memset(data.gm(), 0, data.bytes());
  ICPU_RUN_KF(mix_notify_wait, 2, data.gm());
  const int32_t* d = data.as<int32_t>();
  for (int32_t b = 0; b < 2; ++b) {
    const int32_t base = b * 16;
    EXPECT_EQ(d[base + 1], 40 + base);        // AIV0 saw the AIC's value
    EXPECT_EQ(d[base + 2], 2 * (40 + base));  // AIV1
    EXPECT_EQ(d[base + 3], 3 * (40 + base));  // the AIC after both AIVs notified
  }
}

#define EXPECT_HAS(msg, text) EXPECT_NE((msg).find(text), std::string::npos) << (msg)

TEST(MixKernelRules, EveryMisuseWithItsMessage) {
  DeviceBuffer d(64);
  EXPECT_HAS(ErrorOf([&] { ICPU_RUN_KF(mix_wait_forever, 1, d.gm()); }),
             "CrossCoreWaitFlag(9) on AIV");
  EXPECT_HAS(ErrorOf([&] { ICPU_RUN_KF(mix_wait_forever, 1, d.gm()); }),
             "no sub-core of this block can set it any more (the others have left the kernel or "
             "wait themselves); the device would hang until the AI-core timeout (507014)");
  EXPECT_HAS(ErrorOf([&] { ICPU_RUN_KF(mix_counter_overflow, 1, d.gm()); }),
             "mix_counter_overflow: block 0/1 AIC: CrossCoreSetFlag: flag 2 of AIV0 counts past "
             "15 unconsumed sets (each CrossCoreSetFlag needs its CrossCoreWaitFlag)");
  EXPECT_HAS(ErrorOf([&] { ICPU_RUN_KF(mix_set_on_pipe_s, 1, d.gm()); }),
             "CrossCoreSetFlag: pipe PIPE_S is not allowed (use PIPE_V, PIPE_M, PIPE_MTE1/2/3 or "
             "PIPE_FIX)");
  EXPECT_HAS(ErrorOf([&] { ICPU_RUN_KF(mix_mode1_on_aic, 1, d.gm()); }),
             "CrossCoreSetFlag<1>: mode 1 synchronises the AIVs; this is the AIC");
  EXPECT_HAS(ErrorOf([&] { ICPU_RUN_KF(aiv_only_cross_core, 1, d.gm()); }),
             "CrossCoreSetFlag: the kernel type does not start the cross-core scheduler");
  ICPU_RUN_KF(mix_sync_all, 2, d.gm());  // SyncAll in a mix kernel (cross_core_mode0_test.cpp)
}

TEST(MixKernelRules, FlagAbove15WarnsAndKeepsItsLowBits) {
  ascsim::ScopedSettings keep;
  ascsim::Settings s = ascsim::GetSettings();
  s.strict = true;  // warnings become errors
  ascsim::SetSettings(s);
  DeviceBuffer d(64);
  EXPECT_HAS(ErrorOf([&] { ICPU_RUN_KF(mix_flag_out_of_range, 1, d.gm()); }),
             "CrossCoreSetFlag: flagId 19 is outside 0..15; the device keeps its low 4 bits (3)");
  s.strict = false;
  ascsim::SetSettings(s);
  ICPU_RUN_KF(mix_flag_out_of_range, 1, d.gm());  // 19 & 15 == 3 releases the AIVs' wait
}

}  // namespace
