// Batch Matmul (LayoutMode other than NONE) is not simulated: a kernel written as ops-nn /
// ops-transformer batch_mat_mul_v3 writes it (SetNBatchOutNum, then Init) compiles, and faults at
// Init with a message naming what is missing.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"

namespace {

using ascsim_test::ErrorOf;

using BatchType =
    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
using FloatOut =
    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
constexpr MatmulConfig kMultiBatchOut =
    GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true, IterateOrder::UNDEF,
                    ScheduleType::INNER_PRODUCT, true, false, BatchOutMode::MULTI_BATCH);

}  // namespace

extern "C" __global__ __aicore__ void mm_batch_out_num(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  AscendC::TPipe pipe;
  TCubeTiling tiling{};
  tiling.M = tiling.N = tiling.Ka = tiling.Kb = 32;
  tiling.singleCoreM = tiling.singleCoreN = tiling.singleCoreK = 32;
  tiling.baseM = tiling.baseN = tiling.baseK = 32;
  tiling.depthA1 = tiling.depthB1 = tiling.stepM = tiling.stepN = 1;
  tiling.stepKa = tiling.stepKb = 1;
  AscendC::Matmul<BatchType, BatchType, FloatOut, FloatOut, kMultiBatchOut> mm;
  mm.SetSubBlockIdx(0);
  // Before Init, as batch_mat_mul_v3 calls it: takes the value without a fault.
  mm.SetNBatchOutNum(4);
  mm.Init(&tiling, &pipe);
}

namespace {

TEST(MatmulBatchRules, SetNBatchOutNumCompilesAndBatchLayoutsFaultAtInit) {
  const std::string msg = ErrorOf([] { ICPU_RUN_KF(mm_batch_out_num, 1, nullptr); });
  EXPECT_NE(msg.find("block 0/1 AIC: Matmul::Init: batch layouts is not simulated yet"),
            std::string::npos)
      << msg;
  EXPECT_EQ(msg.find("SetNBatchOutNum"), std::string::npos) << msg;
}

}  // namespace
