// MatmulBiasCustom: c = a @ b + bias with the Matmul API, each vector core computing its block of
// c (singleCoreM x singleCoreN) as the multi-core tiling splits it.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

extern "C" __global__ __aicore__ void matmul_bias_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const TCubeTiling& t = tilingData.cubeTilingData;
    AscendC::TPipe pipe;
    matmul::Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (AscendC::GetBlockIdx() >= static_cast<uint32_t>(t.usedCoreNum)) {
        return;
    }
    const uint32_t mBlocks = CeilDiv(t.M, t.singleCoreM);
    const uint32_t mIdx = AscendC::GetBlockIdx() % mBlocks;
    const uint32_t nIdx = AscendC::GetBlockIdx() / mBlocks;
    const uint32_t offsetA = mIdx * t.Ka * t.singleCoreM;
    const uint32_t offsetB = nIdx * t.singleCoreN;
    const uint32_t offsetC = mIdx * t.N * t.singleCoreM + nIdx * t.singleCoreN;
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<half> bGm;
    AscendC::GlobalTensor<float> biasGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
    const int32_t tailM = t.M - static_cast<int32_t>(mIdx) * t.singleCoreM;
    const int32_t tailN = t.N - static_cast<int32_t>(nIdx) * t.singleCoreN;
    mm.SetOrgShape(t.M, t.N, t.Ka, t.Kb);
    mm.SetTail(tailM < t.singleCoreM ? tailM : t.singleCoreM, tailN < t.singleCoreN ? tailN : t.singleCoreN);
    mm.SetTensorA(aGm[offsetA]);
    mm.SetTensorB(bGm[offsetB]);
    mm.SetBias(biasGm[offsetB]);
    mm.IterateAll(cGm[offsetC]);
    mm.End();
}
