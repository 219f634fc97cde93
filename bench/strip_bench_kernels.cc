/**
 * @file strip_bench_kernels.cc
 * A GELU kernel with small compute strips, for the sanitizer's cost on long blocks (bench_vs_floor
 * "gelu_strips", bench_sanitizer, callgrind_workloads "gelu_strips_2e20"): each 8192-element UB
 * tile comes in and goes out with one DataCopy, as in kernel/gelu_custom.cpp, but is computed in
 * strips of 512 elements (a kernel sized for a smaller scratch buffer, or one that pipelines its
 * vector work per strip). At 2^24 elements and 8 blocks that is ~4k strips and ~50k vector calls
 * per block, more than the sanitizer's reference held before (2^16 events).
 *
 * y = x / (1 + exp(-2 sqrt(2/pi) x (1 + 0.044715 x^2))) on x clamped below at -20 (Maxs), the
 * same arithmetic as the shipped GELU and the floor's loop. Vector ops in their tensor-count form
 * (e.g. `Maxs(dstLocal, srcLocal, scalarValue, calCount)`, CANN API reference
 * atlasascendc_api_07_0059; Cast/Mul/Muls/Adds/Exp/Div likewise) on strip views `t[o]` of the
 * tile's tensors.
 */
#include "elementwise_tiling.h"
#include "kernel_operator.h"

namespace {

constexpr int32_t STRIP_BUFFER_NUM = 2;
constexpr uint32_t STRIP_TILE_ELEMENTS = 8192;
constexpr uint32_t STRIP_ELEMENTS = 512;
constexpr float STRIP_GELU_COEFF = 0.044715f;
constexpr float STRIP_GELU_NEG_TWO_SQRT_2_OVER_PI = -1.5957691216057308f;
constexpr float STRIP_GELU_LOWER_CLAMP = -20.0f;

template <typename T>
class KernelGeluStrips {
public:
    __aicore__ inline KernelGeluStrips() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
    {
        ElementwiseTiling tiling = ComputeElementwiseTiling(
            totalLength, AscendC::GetBlockNum(), sizeof(T), STRIP_TILE_ELEMENTS * sizeof(T));
        uint32_t start = 0;
        BlockRange(tiling, totalLength, AscendC::GetBlockIdx(), start, this->blockLength);
        this->tileLength = tiling.tileLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + start, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, this->blockLength);
        pipe.InitBuffer(inQueueX, STRIP_BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, STRIP_BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(tmpBuf, this->tileLength * sizeof(float));
        pipe.InitBuffer(castBuf, this->tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        // Whole 32-byte blocks only: the benchmark's sizes are multiples of a tile per block.
        uint32_t tileNum = this->blockLength / this->tileLength;
        for (uint32_t i = 0; i < tileNum; i++) {
            CopyIn(i * this->tileLength);
            Compute();
            CopyOut(i * this->tileLength);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[offset], this->tileLength);
        inQueueX.EnQue(xLocal);
    }
    // GELU of `count` floats of x into y (y may be x), with t as scratch.
    __aicore__ inline void GeluStrip(const AscendC::LocalTensor<float>& y,
                                     const AscendC::LocalTensor<float>& x,
                                     const AscendC::LocalTensor<float>& t, uint32_t count)
    {
        AscendC::Maxs(y, x, STRIP_GELU_LOWER_CLAMP, count);
        AscendC::Mul(t, y, y, count);
        AscendC::Muls(t, t, STRIP_GELU_COEFF, count);
        AscendC::Adds(t, t, 1.0f, count);
        AscendC::Mul(t, t, y, count);
        AscendC::Muls(t, t, STRIP_GELU_NEG_TWO_SQRT_2_OVER_PI, count);
        AscendC::Exp(t, t, count);
        AscendC::Adds(t, t, 1.0f, count);
        AscendC::Div(y, y, t, count);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::LocalTensor<float> xFloat = castBuf.Get<float>();
        for (uint32_t o = 0; o < this->tileLength; o += STRIP_ELEMENTS) {
            if constexpr (std::is_same_v<T, float>) {
                GeluStrip(yLocal[o], xLocal[o], tmp[o], STRIP_ELEMENTS);
            } else {
                AscendC::Cast(xFloat[o], xLocal[o], AscendC::RoundMode::CAST_NONE, STRIP_ELEMENTS);
                GeluStrip(xFloat[o], xFloat[o], tmp[o], STRIP_ELEMENTS);
                AscendC::Cast(yLocal[o], xFloat[o], AscendC::RoundMode::CAST_NONE, STRIP_ELEMENTS);
            }
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t offset)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopy(yGm[offset], yLocal, this->tileLength);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, STRIP_BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, STRIP_BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> castBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockLength;
    uint32_t tileLength;
};

}  // namespace

extern "C" __global__ __aicore__ void gelu_strips_custom(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
{
    KernelGeluStrips<half> op;
    op.Init(x, y, totalLength);
    op.Process();
}

extern "C" __global__ __aicore__ void gelu_strips_custom_float(GM_ADDR x, GM_ADDR y,
                                                              uint32_t totalLength)
{
    KernelGeluStrips<float> op;
    op.Init(x, y, totalLength);
    op.Process();
}
