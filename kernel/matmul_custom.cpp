/**
 * @file matmul_custom.cpp
 * C = A x B (+ bias) with the Matmul high-level API, in the shape of the Ascend C kernel-launch
 * samples: A (M x K) and B (K x N) in half, bias (N) in float, C (M x N) in float
 * (matmul_custom) or half (matmul_custom_half); any M, N, K. The host tiling
 * (MultiCoreMatmulTiling, see kernel_launchers.cpp) splits C into singleCoreM x singleCoreN
 * blocks, one per AIV; REGIST_MATMUL_OBJ makes this a mix kernel whose AIVs are the Matmul
 * clients of their AIC, so blockDim counts AICs (two AIVs each).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

__aicore__ inline uint32_t Ceiling(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/**
 * @brief  Copy tiling data to TCubeTiling ptr from tiling gm addr.
 */
__aicore__ inline void CopyTiling(TCubeTiling *tiling, GM_ADDR tilingGM) {
  uint32_t *ptr = reinterpret_cast<uint32_t *>(tiling);
  auto tiling32 = reinterpret_cast<__gm__ uint32_t *>(tilingGM);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); i++, ptr++) {
    *ptr = *(tiling32 + i);
  }
}

template <typename cType>
class MatmulCustomKernel {
 public:
  __aicore__ inline MatmulCustomKernel() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                              const TCubeTiling &tiling) {
    this->tiling = tiling;
    aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), tiling.M * tiling.Ka);
    bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), tiling.Kb * tiling.N);
    cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ cType *>(c), tiling.M * tiling.N);
    biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), tiling.N);
    // This core's block of C: the M blocks vary fastest.
    uint32_t mSingleBlocks = Ceiling(tiling.M, tiling.singleCoreM);
    uint32_t mCoreIndx = AscendC::GetBlockIdx() % mSingleBlocks;
    uint32_t nCoreIndx = AscendC::GetBlockIdx() / mSingleBlocks;
    uint32_t row0 = mCoreIndx * tiling.singleCoreM;
    uint32_t col0 = nCoreIndx * tiling.singleCoreN;
    aGlobal = aGlobal[row0 * tiling.Ka];
    bGlobal = bGlobal[col0];
    cGlobal = cGlobal[row0 * tiling.N + col0];
    biasGlobal = biasGlobal[col0];
    tailM = tiling.M - row0 < static_cast<uint32_t>(tiling.singleCoreM) ? tiling.M - row0
                                                                        : tiling.singleCoreM;
    tailN = tiling.N - col0 < static_cast<uint32_t>(tiling.singleCoreN) ? tiling.N - col0
                                                                        : tiling.singleCoreN;
  }
  __aicore__ inline void Process() {
    matmulObj.SetOrgShape(tiling.M, tiling.N, tiling.Ka, tiling.Kb);
    matmulObj.SetTail(tailM, tailN);
    matmulObj.SetTensorA(aGlobal);
    matmulObj.SetTensorB(bGlobal);
    if (tiling.isBias) {
      matmulObj.SetBias(biasGlobal);
    }
    matmulObj.IterateAll(cGlobal);
    matmulObj.End();
  }

  Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
         MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
         MatmulType<AscendC::TPosition::GM, CubeFormat::ND, cType>,
         MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>
      matmulObj;
  TCubeTiling tiling;

 private:
  AscendC::GlobalTensor<half> aGlobal;
  AscendC::GlobalTensor<half> bGlobal;
  AscendC::GlobalTensor<cType> cGlobal;
  AscendC::GlobalTensor<float> biasGlobal;
  int32_t tailM = 0;
  int32_t tailN = 0;
};

template <typename cType>
__aicore__ inline void MatmulCustom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                    GM_ADDR workspace, GM_ADDR tilingGm) {
  AscendC::SetSysWorkspace(workspace);
  AscendC::TPipe pipe;
  MatmulCustomKernel<cType> op;
  CopyTiling(&op.tiling, tilingGm);
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.matmulObj,
                    &op.tiling);  // the AIC serves from here
  if (GetBlockIdx() >= static_cast<uint32_t>(op.tiling.usedCoreNum)) {
    return;
  }
  op.Init(a, b, bias, c, op.tiling);
  op.Process();
}

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    GM_ADDR workspace, GM_ADDR tiling) {
  MatmulCustom<float>(a, b, bias, c, workspace, tiling);
}

extern "C" __global__ __aicore__ void matmul_custom_half(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                         GM_ADDR c, GM_ADDR workspace,
                                                         GM_ADDR tiling) {
  MatmulCustom<half>(a, b, bias, c, workspace, tiling);
}
