// The sanitizer on the AIVs of a mix (AIC + AIV) kernel: each AIV is checked as a core of its own
// (its pipes, its UB) and has its own GM log, named "block b/n AIVk" in reports. Cross-core flags
// order the AIVs' GM accesses: a CrossCoreSetFlag releases what its AIV did so far to whoever
// consumes the set, directly (mode 1, AIV <-> AIV) or through the AIC (mode 2 both ways). The AIC
// itself is not checked; what it waits for it hands on with its own sets. A Matmul request the
// AIC runs for an AIV is logged as that AIV's, on the AIC's pipes (FIX writes C).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "calibration_matmul.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"

namespace {

// How AIV0's write of data[0, 8) reaches AIV1's read of it.
enum HandoffKind : int32_t { kNone = 0, kModeOne = 1, kThroughAic = 2 };

// AIV0 writes 8 ints of `data` with MTE3; AIV1 reads them back with MTE2 into `seen`.
__aicore__ inline void HandOff(GM_ADDR data, GM_ADDR seen, int32_t how) {
  AscendC::GlobalTensor<int32_t> dataGm, seenGm;
  dataGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(data), 8);
  seenGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(seen), 8);
  if ASCEND_IS_AIC {
    if (how == kThroughAic) {
      AscendC::CrossCoreWaitFlag(5);                 // both AIVs have set flag 5
      AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(6);  // to both AIVs
    }
    return;
  }
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> work;
  pipe.InitBuffer(work, 32);
  AscendC::LocalTensor<int32_t> ub = work.Get<int32_t>();
  const uint32_t sub = AscendC::GetSubBlockIdx();
  if (sub == 0) {
    AscendC::Duplicate(ub, 7, 8);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(dataGm, ub, 8);
  }
  if (how == kModeOne) {
    AscendC::CrossCoreSetFlag<0x1, PIPE_MTE3>(4);
    AscendC::CrossCoreWaitFlag(4);
  } else if (how == kThroughAic) {
    AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(5);
    AscendC::CrossCoreWaitFlag(6);
  }
  if (sub == 1) {
    AscendC::DataCopy(ub, dataGm, 8);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(seenGm, ub, 8);
  }
}

}  // namespace

extern "C" __global__ __aicore__ void mix_handoff_checked(GM_ADDR data, GM_ADDR seen,
                                                          int32_t how) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  HandOff(data, seen, how);
}

// Both AIVs of each block write the same 8 ints.
extern "C" __global__ __aicore__ void mix_aivs_write_alike(GM_ADDR data) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    return;
  }
  AscendC::GlobalTensor<int32_t> dataGm;
  dataGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(data), 8);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> work;
  pipe.InitBuffer(work, 32);
  AscendC::LocalTensor<int32_t> ub = work.Get<int32_t>();
  AscendC::Duplicate(ub, static_cast<int32_t>(AscendC::GetSubBlockIdx()), 8);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(dataGm, ub, 8);
}

// AIV1 adds what MTE2 is still copying in: the pipe race of a plain vector kernel, on a mix AIV.
extern "C" __global__ __aicore__ void mix_aiv_pipe_race(GM_ADDR data) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    return;
  }
  if (AscendC::GetSubBlockIdx() != 1) return;
  AscendC::GlobalTensor<float> dataGm;
  dataGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(data), 64);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> work;
  pipe.InitBuffer(work, 512);
  AscendC::LocalTensor<float> ub = work.Get<float>();
  AscendC::DataCopy(ub, dataGm, 64);
  AscendC::Add(ub[64], ub, ub, 64);  // no MTE2 -> V wait
}

// As the official MatmulABshare sample does: every AIV zeroes the whole of C with InitOutput, then
// (with_sync_all) SyncAll, then each AIV's Matmul writes its own 32 rows of C (C = A x B, 64 x 32,
// K 32).
extern "C" __global__ __aicore__ void mix_zero_then_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                           GM_ADDR tilingGm, int32_t with_sync_all) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  std::memcpy(&tiling, tilingGm, sizeof(tiling));
  using A_TYPE = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
  using C_TYPE = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
  AscendC::Matmul<A_TYPE, A_TYPE, C_TYPE, C_TYPE> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), 64 * 32);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), 32 * 32);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), 64 * 32);
  AscendC::InitOutput<float>(cGlobal, 64 * 32, 0);
  if (with_sync_all != 0) AscendC::SyncAll();
  const uint32_t sub = AscendC::GetSubBlockIdx();
  mm.SetTensorA(aGlobal[sub * 32 * 32]);
  mm.SetTensorB(bGlobal);
  mm.IterateAll(cGlobal[sub * 32 * 32]);
  mm.End();
}

namespace {

using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

constexpr uint32_t kRaceInit = ascsim::kSanitizeRace | ascsim::kSanitizeInit;

std::string RunHandoff(HandoffKind how, uint32_t blocks, int32_t* seen_out = nullptr) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(kRaceInit);
  DeviceBuffer data(8 * 4), seen(8 * 4);
  std::memset(data.gm(), 0, data.bytes());
  std::memset(seen.gm(), 0, seen.bytes());
  std::string error;
  try {
    ICPU_RUN_KF(mix_handoff_checked, blocks, data.gm(), seen.gm(), static_cast<int32_t>(how));
  } catch (const ascsim::Error& e) {
    error = e.what();
  }
  if (seen_out != nullptr) *seen_out = seen.as<int32_t>()[0];
  return error;
}

TEST(MixSanitizer, AModeOneFlagOrdersOneAivsWriteBeforeTheOthersRead) {
  int32_t seen = 0;
  EXPECT_EQ(RunHandoff(kModeOne, 1, &seen), "");
  EXPECT_EQ(seen, 7);
}

TEST(MixSanitizer, TheAicHandsOnWhatItWaitedFor) {
  int32_t seen = 0;
  EXPECT_EQ(RunHandoff(kThroughAic, 1, &seen), "");
  EXPECT_EQ(seen, 7);
}

TEST(MixSanitizer, AReadNoFlagOrdersAfterTheOtherAivsWriteIsARace) {
  const std::string error = RunHandoff(kNone, 1);
  EXPECT_THAT(error, HasSubstr("mix_handoff_checked: block 0/1 AIV"));
  EXPECT_THAT(error, HasSubstr(": race: "));
  EXPECT_THAT(error, HasSubstr("which block 0/1 AIV"));
  EXPECT_THAT(error, HasSubstr("DataCopy UB->GM"));
  EXPECT_THAT(error, HasSubstr("DataCopy GM->UB"));
  EXPECT_THAT(error, HasSubstr("with no SyncAll or CrossCoreSetFlag / CrossCoreWaitFlag between"));
}

TEST(MixSanitizer, TwoAivsWritingTheSameBytesRace) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(kRaceInit);
  DeviceBuffer data(8 * 4);
  std::memset(data.gm(), 0, data.bytes());
  const std::string error = ErrorOf([&] { ICPU_RUN_KF(mix_aivs_write_alike, 2, data.gm()); });
  EXPECT_THAT(error, HasSubstr("mix_aivs_write_alike: block "));
  EXPECT_THAT(error, HasSubstr(" AIV1: race: MTE3 DataCopy UB->GM"));
  EXPECT_THAT(error, HasSubstr(" AIV0 wrote with MTE3 DataCopy UB->GM"));
}

TEST(MixSanitizer, AnAivsOwnPipesAreChecked) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(kRaceInit);
  DeviceBuffer data(64 * 4);
  std::memset(data.gm(), 0, data.bytes());
  const std::string error = ErrorOf([&] { ICPU_RUN_KF(mix_aiv_pipe_race, 1, data.gm()); });
  EXPECT_THAT(error, HasSubstr("mix_aiv_pipe_race: block 0/1 AIV1"));
  EXPECT_THAT(error, HasSubstr("SetFlag/WaitFlag<HardEvent::MTE2_V>"));
}

// Runs mix_zero_then_matmul with A and B all ones; returns the error ("" when clean) and C.
std::string RunZeroThenMatmul(bool with_sync_all, std::vector<float>* c_out) {
  const std::vector<uint8_t> tiling = calibration_mm::Tiling({32, 32, 32, 1, -1, -1, -1});
  DeviceBuffer da(64 * 32 * 2), db(32 * 32 * 2), dc(64 * 32 * 4), dt(tiling.size());
  std::memcpy(dt.gm(), tiling.data(), tiling.size());
  const half one(1.0f);
  for (int i = 0; i < 64 * 32; ++i) da.as<half>()[i] = one;
  for (int i = 0; i < 32 * 32; ++i) db.as<half>()[i] = one;
  std::memset(dc.gm(), 0xff, dc.bytes());
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(kRaceInit);
  std::string error;
  try {
    ICPU_RUN_KF(mix_zero_then_matmul, 1, da.gm(), db.gm(), dc.gm(), dt.gm(),
                static_cast<int32_t>(with_sync_all));
  } catch (const ascsim::Error& e) {
    error = e.what();
  }
  c_out->assign(dc.as<float>(), dc.as<float>() + 64 * 32);
  return error;
}

TEST(MixSanitizer, AivsZeroingTheSameOutputBeforeSyncAllAndMatmulAreClean) {
  // Both AIVs fill all of C with zeros (the same bytes, the same value: no race), SyncAll, then
  // the AIC writes each AIV's rows: SyncAll's PipeBarrier<PIPE_ALL> and flags order the fills
  // before the Fixpipe.
  std::vector<float> c;
  EXPECT_EQ(RunZeroThenMatmul(true, &c), "");
  for (int i = 0; i < 64 * 32; ++i) ASSERT_EQ(c[i], 32.0f) << "element " << i;
}

TEST(MixSanitizer, AMatmulWritingWhatInitOutputStillFillsIsARace) {
  // No SyncAll: nothing orders AIV0's MTE3 fill of AIV1's rows before the Fixpipe the AIC runs
  // for AIV1; the report calls the fill what it is.
  std::vector<float> c;
  const std::string error = RunZeroThenMatmul(false, &c);
  EXPECT_THAT(error, HasSubstr("mix_zero_then_matmul: block 0/1 AIV1: race: FIX Fixpipe"));
  EXPECT_THAT(error, HasSubstr("which block 0/1 AIV0 filled with zeros with MTE3 InitOutput"));
  EXPECT_THAT(error, HasSubstr("with no SyncAll or CrossCoreSetFlag / CrossCoreWaitFlag"));
}

}  // namespace
