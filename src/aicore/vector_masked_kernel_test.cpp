// A kernel in the Ascend sample style that uses the mask/repeat form end to end on the simulated
// grid: per row of 128 halves, the row maximum (WholeReduceMax, value only), then the maxima
// doubled in counter mode. Block 0 leaves the core in counter mode on purpose: every block starts
// with its own reset mask register, so the other blocks are unaffected.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

namespace {

constexpr int32_t ROW_LEN = 128;        // halves per row: one repeat
constexpr int32_t ROWS_PER_BLOCK = 32;  // 32 maxima = 64 B: two whole blocks for DataCopy

class KernelRowMax {
 public:
    __aicore__ inline KernelRowMax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half*)x + AscendC::GetBlockIdx() * ROWS_PER_BLOCK * ROW_LEN,
                            ROWS_PER_BLOCK * ROW_LEN);
        yGm.SetGlobalBuffer((__gm__ half*)y + AscendC::GetBlockIdx() * ROWS_PER_BLOCK,
                            ROWS_PER_BLOCK);
        pipe.InitBuffer(inQueueX, 1, ROWS_PER_BLOCK * ROW_LEN * sizeof(half));
        pipe.InitBuffer(outQueueY, 1, ROWS_PER_BLOCK * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm, ROWS_PER_BLOCK * ROW_LEN);
        inQueueX.EnQue(xLocal);
        xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        AscendC::WholeReduceMax<half>(yLocal, xLocal, ROW_LEN, ROWS_PER_BLOCK, 1, 1, 8,
                                      AscendC::ReduceOrder::ORDER_ONLY_VALUE);
        AscendC::SetMaskCount();
        AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(0, ROWS_PER_BLOCK);
        AscendC::Muls<half, false>(yLocal, yLocal, half(2.0f), AscendC::MASK_PLACEHOLDER, 1,
                                   {1, 1, 8, 8});
        if (AscendC::GetBlockIdx() != 0) {
            AscendC::SetMaskNorm();
            AscendC::ResetMask();
        }
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
        yLocal = outQueueY.DeQue<half>();
        AscendC::DataCopy(yGm, yLocal, ROWS_PER_BLOCK);
        outQueueY.FreeTensor(yLocal);
    }

 private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
};

}  // namespace

extern "C" __global__ __aicore__ void row_max_doubled(GM_ADDR x, GM_ADDR y)
{
    KernelRowMax op;
    op.Init(x, y);
    op.Process();
}

namespace {

TEST(VectorMaskedKernel, RowMaxWithMaskRepeatAndCounterModeAcrossBlocks) {
  constexpr uint32_t kBlocks = 6, kRows = kBlocks * ROWS_PER_BLOCK;
  auto* x = static_cast<half*>(AscendC::GmAlloc(kRows * ROW_LEN * sizeof(half)));
  auto* y = static_cast<half*>(AscendC::GmAlloc(kRows * sizeof(half)));
  const auto v = ascsim_test::RandomVector<half>(kRows * ROW_LEN, -100, 100, 42);
  for (uint32_t i = 0; i < kRows * ROW_LEN; ++i) x[i] = v[i];
  ICPU_RUN_KF(row_max_doubled, kBlocks, (GM_ADDR)x, (GM_ADDR)y);
  for (uint32_t r = 0; r < kRows; ++r) {
    float best = float(v[r * ROW_LEN]);
    for (uint32_t e = 1; e < ROW_LEN; ++e) best = std::max(best, float(v[r * ROW_LEN + e]));
    ASSERT_EQ(float(y[r]), float(half(best * 2.0f))) << "row " << r;
  }
  AscendC::GmFree(x);
  AscendC::GmFree(y);
}

}  // namespace
