// The kernel of bench_aclnn.cpp, in a file of its own: kernel code compares DT_* preprocessor
// numbers, the host API names ge::DT_* enumerators, and a file cannot have both.
#include "ascsim/op_kernel_entry.h"
#include "kernel_operator.h"

namespace {

struct BenchAddTiling {  // optiling::BenchAddTiling's SaveToBuffer layout
  uint32_t totalLength;
};

// z = x + y over float, one tile per block: as small as a custom operator gets, so the host side
// of an aclnn call shows.
__global__ __aicore__ void aclnn_bench_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR /*workspace*/,
                                           GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(BenchAddTiling, t, tiling);
  const uint32_t per = t.totalLength / static_cast<uint32_t>(AscendC::GetBlockNum());
  const uint32_t offset = per * static_cast<uint32_t>(AscendC::GetBlockIdx());
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inX, inY;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outZ;
  AscendC::GlobalTensor<float> gx, gy, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + offset, per);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + offset, per);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + offset, per);
  pipe.InitBuffer(inX, 1, per * sizeof(float));
  pipe.InitBuffer(inY, 1, per * sizeof(float));
  pipe.InitBuffer(outZ, 1, per * sizeof(float));
  AscendC::LocalTensor<float> lx = inX.AllocTensor<float>();
  AscendC::LocalTensor<float> ly = inY.AllocTensor<float>();
  AscendC::DataCopy(lx, gx, per);
  AscendC::DataCopy(ly, gy, per);
  inX.EnQue(lx);
  inY.EnQue(ly);
  lx = inX.DeQue<float>();
  ly = inY.DeQue<float>();
  AscendC::LocalTensor<float> lz = outZ.AllocTensor<float>();
  AscendC::Add(lz, lx, ly, per);
  outZ.EnQue(lz);
  inX.FreeTensor(lx);
  inY.FreeTensor(ly);
  lz = outZ.DeQue<float>();
  AscendC::DataCopy(gz, lz, per);
  outZ.FreeTensor(lz);
}

ASCSIM_OP_KERNEL_DEFINE(aclnn_bench_add, g_bench_add);

}  // namespace

const AscsimOpKernel* AclnnBenchAddKernel() { return &g_bench_add; }
