/*
 * C = ReLU(A x B) on the Cube unit of an Ascend 310P AI core, written with the low-level cube
 * instructions (no Matmul API), in the style of the 2023 kernel_invocation samples.
 *
 *   A: [M, K] half, B: [K, N] half, C: [M, N] half, all ND (row-major) in global memory;
 *   M = 64, N = 48, K = 64; USE_CORE_NUM blocks, each takes SINGLE_M rows of A and of C.
 *
 * Per block:
 *   GM -> A1/B1   DataCopy with Nd2NzParams (ND -> NZ: 16-column stripes, rows consecutive)
 *   A1 -> A2      LoadData2DParams, NZ -> Zz, one K tile (K_TILE columns) at a time
 *   B1 -> B2      LoadData2DParams with ifTranspose, NZ -> Zn, the same K tile
 *   A2 x B2 -> CO1  Mmad into float; the first K tile starts C from 0, the others accumulate
 *   CO1 -> CO2    DataCopy with DataCopyEnhancedParams (BLOCK_MODE_MATRIX): on the 310P the
 *                 results leave L0C through the Unified Buffer (CO2 is UB there)
 *   vector        Relu on float, Cast float -> half
 *   UB -> GM      one strided DataCopy per 16-column stripe (NZ -> ND)
 * Sources: the Ascend C API reference pages LoadData (2D), Mmad, "L0C到UB数据搬运（DataCopy）",
 * "GMToL1随路转换-ND2NZ搬运（DataCopy）" and the fractal formats (矩阵计算分形介绍).
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t USE_CORE_NUM = 2;
constexpr int32_t BUFFER_NUM = 2;                   // L0A / L0B double buffering over K tiles
constexpr uint16_t M = 64;
constexpr uint16_t N = 48;
constexpr uint16_t K = 64;
constexpr uint16_t SINGLE_M = M / USE_CORE_NUM;     // rows of A and C per block
constexpr uint16_t K_TILE = 32;                     // K of one Mmad
constexpr uint16_t K_TILE_NUM = K / K_TILE;
constexpr uint16_t FRACTAL_LEN = 16;                // a half fractal is 16 x 16
constexpr uint16_t FRACTAL_SIZE = FRACTAL_LEN * FRACTAL_LEN;
constexpr uint16_t M_BLOCKS = SINGLE_M / FRACTAL_LEN;
constexpr uint16_t N_BLOCKS = N / FRACTAL_LEN;
constexpr uint16_t K_BLOCKS = K / FRACTAL_LEN;
constexpr uint16_t K_TILE_BLOCKS = K_TILE / FRACTAL_LEN;

class KernelMatmulRelu {
public:
    __aicore__ inline KernelMatmulRelu() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        aGm.SetGlobalBuffer((__gm__ half *)a + GetBlockIdx() * SINGLE_M * K, SINGLE_M * K);
        bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
        cGm.SetGlobalBuffer((__gm__ half *)c + GetBlockIdx() * SINGLE_M * N, SINGLE_M * N);
        pipe.InitBuffer(inQueueA1, 1, SINGLE_M * K * sizeof(half));
        pipe.InitBuffer(inQueueB1, 1, K * N * sizeof(half));
        pipe.InitBuffer(inQueueA2, BUFFER_NUM, SINGLE_M * K_TILE * sizeof(half));
        pipe.InitBuffer(inQueueB2, BUFFER_NUM, K_TILE * N * sizeof(half));
        pipe.InitBuffer(outQueueCO1, 1, SINGLE_M * N * sizeof(float));
        pipe.InitBuffer(outQueueCO2, 1, SINGLE_M * N * sizeof(float));
        pipe.InitBuffer(outQueueC, 1, SINGLE_M * N * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        CopyIn();
        LocalTensor<half> a1Local = inQueueA1.DeQue<half>();
        LocalTensor<half> b1Local = inQueueB1.DeQue<half>();
        LocalTensor<float> c1Local = outQueueCO1.AllocTensor<float>();
        for (uint16_t kIdx = 0; kIdx < K_TILE_NUM; ++kIdx) {
            SplitA(a1Local, kIdx);
            SplitB(b1Local, kIdx);
            Compute(c1Local, kIdx);
        }
        inQueueA1.FreeTensor(a1Local);
        inQueueB1.FreeTensor(b1Local);
        outQueueCO1.EnQue<float>(c1Local);
        MoveToUb();
        Relu();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn()
    {
        LocalTensor<half> a1Local = inQueueA1.AllocTensor<half>();
        LocalTensor<half> b1Local = inQueueB1.AllocTensor<half>();
        // one ND matrix each; stripe c of 16 columns starts at c * rows * 16 elements
        Nd2NzParams aParams(1, SINGLE_M, K, 0, K, SINGLE_M, 1, 0);
        Nd2NzParams bParams(1, K, N, 0, N, K, 1, 0);
        DataCopy(a1Local, aGm, aParams);
        DataCopy(b1Local, bGm, bParams);
        inQueueA1.EnQue(a1Local);
        inQueueB1.EnQue(b1Local);
    }
    __aicore__ inline void SplitA(const LocalTensor<half> &a1Local, uint16_t kIdx)
    {
        LocalTensor<half> a2Local = inQueueA2.AllocTensor<half>();
        // Zz: each row of fractals holds the K tile's fractals side by side; in A1 (NZ) the
        // fractals of one row of A are M_BLOCKS fractals apart
        LoadData2DParams loadDataParams;
        loadDataParams.repeatTimes = K_TILE_BLOCKS;
        loadDataParams.srcStride = M_BLOCKS;
        loadDataParams.ifTranspose = false;
        for (uint16_t i = 0; i < M_BLOCKS; ++i) {
            uint32_t srcOffset = kIdx * K_TILE_BLOCKS * SINGLE_M * FRACTAL_LEN + i * FRACTAL_SIZE;
            LoadData(a2Local[i * K_TILE_BLOCKS * FRACTAL_SIZE], a1Local[srcOffset], loadDataParams);
        }
        inQueueA2.EnQue(a2Local);
    }
    __aicore__ inline void SplitB(const LocalTensor<half> &b1Local, uint16_t kIdx)
    {
        LocalTensor<half> b2Local = inQueueB2.AllocTensor<half>();
        // Zn: for each K fractal, the N fractals side by side, each transposed; in B1 (NZ) the
        // fractals of one K row are K_BLOCKS fractals apart
        LoadData2DParams loadDataParams;
        loadDataParams.repeatTimes = N_BLOCKS;
        loadDataParams.srcStride = K_BLOCKS;
        loadDataParams.ifTranspose = true;
        for (uint16_t i = 0; i < K_TILE_BLOCKS; ++i) {
            uint32_t srcOffset = (kIdx * K_TILE_BLOCKS + i) * FRACTAL_SIZE;
            LoadData(b2Local[i * N_BLOCKS * FRACTAL_SIZE], b1Local[srcOffset], loadDataParams);
        }
        inQueueB2.EnQue(b2Local);
    }
    __aicore__ inline void Compute(const LocalTensor<float> &c1Local, uint16_t kIdx)
    {
        LocalTensor<half> a2Local = inQueueA2.DeQue<half>();
        LocalTensor<half> b2Local = inQueueB2.DeQue<half>();
        // isBias = true: C += A x B (the partial sums of the earlier K tiles stay in L0C); the
        // 310P's MmadCal starts C from 0 only for cmatrixInitVal && !isBias
        // (asc-devkit impl/basic_api/dav_m200/kernel_operator_mm_impl.h)
        bool accumulate = kIdx > 0;
        Mmad(c1Local, a2Local, b2Local, { SINGLE_M, N, K_TILE, accumulate, 0, false, false, false });
        inQueueA2.FreeTensor(a2Local);
        inQueueB2.FreeTensor(b2Local);
    }
    __aicore__ inline void MoveToUb()
    {
        LocalTensor<float> c1Local = outQueueCO1.DeQue<float>();
        LocalTensor<float> c2Local = outQueueCO2.AllocTensor<float>();
        // all M_BLOCKS x N_BLOCKS fractals in one burst: UB keeps L0C's NZ layout
        DataCopyParams dataCopyParams;
        dataCopyParams.blockCount = 1;
        dataCopyParams.blockLen = M_BLOCKS * N_BLOCKS;
        DataCopyEnhancedParams enhancedParams;
        enhancedParams.blockMode = BlockMode::BLOCK_MODE_MATRIX;
        DataCopy(c2Local, c1Local, dataCopyParams, enhancedParams);
        outQueueCO2.EnQue<float>(c2Local);
        outQueueCO1.FreeTensor(c1Local);
    }
    __aicore__ inline void Relu()
    {
        LocalTensor<float> c2Local = outQueueCO2.DeQue<float>();
        LocalTensor<half> cLocal = outQueueC.AllocTensor<half>();
        AscendC::Relu(c2Local, c2Local, SINGLE_M * N);
        Cast(cLocal, c2Local, RoundMode::CAST_NONE, SINGLE_M * N);
        outQueueC.EnQue<half>(cLocal);
        outQueueCO2.FreeTensor(c2Local);
    }
    __aicore__ inline void CopyOut()
    {
        LocalTensor<half> cLocal = outQueueC.DeQue<half>();
        // NZ -> ND: stripe j holds SINGLE_M rows of 16 halves (one 32 B block each); in GM they
        // land N_BLOCKS - 1 blocks apart
        for (uint16_t j = 0; j < N_BLOCKS; ++j) {
            DataCopy(cGm[j * FRACTAL_LEN], cLocal[j * SINGLE_M * FRACTAL_LEN],
                { SINGLE_M, 1, 0, uint16_t(N_BLOCKS - 1) });
        }
        outQueueC.FreeTensor(cLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::A1, 1> inQueueA1;
    TQue<QuePosition::B1, 1> inQueueB1;
    TQue<QuePosition::A2, BUFFER_NUM> inQueueA2;
    TQue<QuePosition::B2, BUFFER_NUM> inQueueB2;
    TQue<QuePosition::CO1, 1> outQueueCO1;
    TQue<QuePosition::CO2, 1> outQueueCO2;
    TQue<QuePosition::VECOUT, 1> outQueueC;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<half> cGm;
};

extern "C" __global__ __aicore__ void matmul_relu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KernelMatmulRelu op;
    op.Init(a, b, c);
    op.Process();
}

#ifndef __CCE_KT_TEST__
// the host's entry to the kernel: main.cpp is compiled as C++ and cannot launch with <<<>>>
void matmul_relu_custom_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *a, uint8_t *b,
    uint8_t *c)
{
    matmul_relu_custom<<<blockDim, l2ctrl, stream>>>(a, b, c);
}
#endif
