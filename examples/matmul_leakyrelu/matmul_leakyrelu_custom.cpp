// Matmul + LeakyRelu as one mixed kernel (KERNEL_TYPE_MIX_AIC_1_2): each AIC computes its block of
// C = A x B + bias with the Matmul API (ASCENDC_CUBE_ONLY: the Matmul runs on the AIC itself)
// and signals its two AIVs with CrossCoreSetFlag once C is in GM; each AIV waits for that flag
// and applies LeakyRelu to its half of the block's rows.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

constexpr uint16_t C_READY_FLAG = 3;  // AIC -> AIVs: the block of C is in GM
constexpr float ALPHA = 0.001f;
constexpr uint32_t UB_TILE_FLOATS = 8192;  // 32 KiB per queue buffer

__aicore__ inline uint32_t Ceiling(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

__aicore__ inline void CopyTiling(TCubeTiling* tiling, GM_ADDR tilingGm) {
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

// The block of C that AIC `block` owns: its first row/column and its size.
struct BlockOfC {
  uint32_t row0, col0, rows, cols;
};
__aicore__ inline BlockOfC CalcBlock(uint32_t block, const TCubeTiling& tiling) {
  const uint32_t mBlocks = Ceiling(tiling.M, tiling.singleCoreM);
  BlockOfC b;
  b.row0 = block % mBlocks * tiling.singleCoreM;
  b.col0 = block / mBlocks * tiling.singleCoreN;
  b.rows = tiling.M - b.row0 < static_cast<uint32_t>(tiling.singleCoreM) ? tiling.M - b.row0
                                                                         : tiling.singleCoreM;
  b.cols = tiling.N - b.col0 < static_cast<uint32_t>(tiling.singleCoreN) ? tiling.N - b.col0
                                                                         : tiling.singleCoreN;
  return b;
}

class MatmulKernel {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                              const TCubeTiling& tiling) {
    tiling_ = tiling;
    block_ = CalcBlock(AscendC::GetBlockIdx(), tiling);
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), tiling.Kb * tiling.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), tiling.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
  }
  __aicore__ inline void Process() {
    matmulObj.SetTail(block_.rows, block_.cols);
    matmulObj.SetTensorA(aGm[block_.row0 * tiling_.Ka]);
    matmulObj.SetTensorB(bGm[block_.col0]);
    matmulObj.SetBias(biasGm[block_.col0]);
    matmulObj.IterateAll(cGm[block_.row0 * tiling_.N + block_.col0]);
    matmulObj.End();
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(C_READY_FLAG);
  }

  AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                  AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                  AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,
                  AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>
      matmulObj;
  TCubeTiling tiling_;

 private:
  BlockOfC block_;
  AscendC::GlobalTensor<half> aGm, bGm;
  AscendC::GlobalTensor<float> biasGm, cGm;
};

class LeakyReluKernel {
 public:
  __aicore__ inline void Init(GM_ADDR c, const TCubeTiling& tiling, AscendC::TPipe* pipe) {
    tiling_ = tiling;
    const BlockOfC block = CalcBlock(AscendC::GetBlockIdx() / AscendC::GetSubBlockNum(), tiling);
    // This AIV's half of the block's rows.
    const uint32_t half = Ceiling(block.rows, AscendC::GetSubBlockNum());
    const uint32_t first = AscendC::GetSubBlockIdx() * half;
    rows_ = first >= block.rows ? 0 : (block.rows - first < half ? block.rows - first : half);
    cols_ = block.cols;
    paddedCols_ = Ceiling(cols_, 8) * 8;
    rowsPerTile_ = UB_TILE_FLOATS / paddedCols_ > 0 ? UB_TILE_FLOATS / paddedCols_ : 1;
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
    cGm = cGm[(block.row0 + first) * tiling.N + block.col0];
    pipe->InitBuffer(inQueue, 1, rowsPerTile_ * paddedCols_ * sizeof(float));
    pipe->InitBuffer(outQueue, 1, rowsPerTile_ * paddedCols_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::CrossCoreWaitFlag(C_READY_FLAG);
    for (uint32_t row = 0; row < rows_; row += rowsPerTile_) {
      const uint32_t rows = rows_ - row < rowsPerTile_ ? rows_ - row : rowsPerTile_;
      CopyIn(row, rows);
      Compute(rows);
      CopyOut(row, rows);
    }
  }

 private:
  __aicore__ inline AscendC::DataCopyExtParams RowParams(uint32_t rows) const {
    return AscendC::DataCopyExtParams(static_cast<uint16_t>(rows), cols_ * sizeof(float),
                                      (tiling_.N - cols_) * sizeof(float), 0, 0);
  }
  __aicore__ inline void CopyIn(uint32_t row, uint32_t rows) {
    AscendC::LocalTensor<float> in = inQueue.AllocTensor<float>();
    AscendC::DataCopyPad(in, cGm[row * tiling_.N], RowParams(rows),
                         AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0));
    inQueue.EnQue(in);
  }
  __aicore__ inline void Compute(uint32_t rows) {
    AscendC::LocalTensor<float> in = inQueue.DeQue<float>();
    AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
    AscendC::LeakyRelu(out, in, ALPHA, rows * paddedCols_);
    outQueue.EnQue(out);
    inQueue.FreeTensor(in);
  }
  __aicore__ inline void CopyOut(uint32_t row, uint32_t rows) {
    AscendC::LocalTensor<float> out = outQueue.DeQue<float>();
    AscendC::DataCopyExtParams params = RowParams(rows);
    params.srcStride = 0;
    params.dstStride = (tiling_.N - cols_) * sizeof(float);
    AscendC::DataCopyPad(cGm[row * tiling_.N], out, params);
    outQueue.FreeTensor(out);
  }

  TCubeTiling tiling_;
  AscendC::GlobalTensor<float> cGm;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
  uint32_t rows_ = 0, cols_ = 0, paddedCols_ = 0, rowsPerTile_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                              GM_ADDR c, GM_ADDR workspace,
                                                              GM_ADDR tilingGm) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  CopyTiling(&tiling, tilingGm);
  if ASCEND_IS_AIC {
    if (AscendC::GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) return;
    MatmulKernel op;
    op.Init(a, b, bias, c, tiling);
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), op.matmulObj, &op.tiling_);
    op.Process();
  }
  if ASCEND_IS_AIV {
    if (AscendC::GetBlockIdx() / AscendC::GetSubBlockNum() >=
        static_cast<uint32_t>(tiling.usedCoreNum)) {
      return;
    }
    LeakyReluKernel op;
    op.Init(c, tiling, &pipe);
    op.Process();
  }
  (void)workspace;
}
