// DataSyncBarrier<MemDsbT> and the SuperKernel task-order calls SetNextTaskStart / WaitPreTaskEnd
// (sync.h): kernels that call them compile, and a kernel's results are those of the same kernel
// without them (the simulator completes each access within its call and runs each launch as its
// own task).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

namespace {

// Each block doubles its n values through UB, with the barriers where production kernels put
// them (max_pool3_d: DataSyncBarrier<MemDsbT::ALL> after an MTE3 write it reads back by scalar;
// quant_matmul_reduce_sum: WaitPreTaskEnd first, SetNextTaskStart last).
template <bool kBarriers>
__aicore__ inline void Double(GM_ADDR x, GM_ADDR y, uint32_t n) {
  if constexpr (kBarriers) AscendC::WaitPreTaskEnd();
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, n * sizeof(float));
  AscendC::GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + AscendC::GetBlockIdx() * n, n);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + AscendC::GetBlockIdx() * n, n);
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::DataCopy(t, xg, n);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::Muls(t, t, 2.0f, n);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopy(yg, t, n);
  AscendC::PipeBarrier<PIPE_ALL>();
  if constexpr (kBarriers) AscendC::DataSyncBarrier<AscendC::MemDsbT::ALL>();
  yg.SetValue(0, yg.GetValue(0) + 1.0f);
  if constexpr (kBarriers) {
    AscendC::DataSyncBarrier<AscendC::MemDsbT::DDR>();
    AscendC::DataSyncBarrier<AscendC::MemDsbT::UB>();
    AscendC::SetNextTaskStart();
    AscendC::SetNextTaskStart<PIPE_MTE3, PIPE_FIX, true>();
    AscendC::WaitPreTaskEnd<true>();
  }
}

}  // namespace

extern "C" __global__ __aicore__ void sync_double_plain(GM_ADDR x, GM_ADDR y) {
  Double<false>(x, y, 64);
}
extern "C" __global__ __aicore__ void sync_double_barriers(GM_ADDR x, GM_ADDR y) {
  Double<true>(x, y, 64);
}

namespace {

using ascsim_test::DeviceBuffer;

TEST(Sync, DataSyncBarrierAndTaskOrderKeepResults) {
  static_assert(std::is_same_v<std::underlying_type_t<AscendC::MemDsbT>, uint8_t>);
  static_assert(static_cast<int>(AscendC::MemDsbT::ALL) == 0 &&
                static_cast<int>(AscendC::MemDsbT::DDR) == 1 &&
                static_cast<int>(AscendC::MemDsbT::UB) == 2 &&
                static_cast<int>(AscendC::MemDsbT::SEQ) == 3);
  constexpr int kBlocks = 3;
  DeviceBuffer x(kBlocks * 64 * 4), y1(kBlocks * 64 * 4), y2(kBlocks * 64 * 4);
  float* xs = x.as<float>();
  for (int i = 0; i < kBlocks * 64; ++i) xs[i] = 0.25f * static_cast<float>(i) - 7.0f;
  ICPU_RUN_KF(sync_double_plain, kBlocks, x.gm(), y1.gm());
  ICPU_RUN_KF(sync_double_barriers, kBlocks, x.gm(), y2.gm());
  for (int i = 0; i < kBlocks * 64; ++i) {
    const float want = 2.0f * xs[i] + (i % 64 == 0 ? 1.0f : 0.0f);
    EXPECT_EQ(y1.as<float>()[i], want) << i;
    EXPECT_EQ(y2.as<float>()[i], want) << i;
  }
}

}  // namespace
