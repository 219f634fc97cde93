// ScaleShiftCustom: y = x * scale (+ bias) (then ReLU), one branch per tiling key.
#include "kernel_operator.h"

class KernelScaleShift {
public:
    __aicore__ inline KernelScaleShift() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, uint32_t blockLength, float scale)
    {
        this->blockLength = blockLength;
        this->scale = scale;
        const uint64_t offset = static_cast<uint64_t>(blockLength) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + offset, blockLength);
        if (bias != nullptr) {
            biasGm.SetGlobalBuffer((__gm__ float*)bias + offset, blockLength);
        }
        pipe.InitBuffer(xBuf, blockLength * sizeof(float));
        pipe.InitBuffer(biasBuf, blockLength * sizeof(float));
    }
    template <bool HAS_BIAS, bool RELU>
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> xLocal = xBuf.Get<float>();
        AscendC::DataCopy(xLocal, xGm, blockLength);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Muls(xLocal, xLocal, scale, blockLength);
        if constexpr (HAS_BIAS) {
            AscendC::LocalTensor<float> biasLocal = biasBuf.Get<float>();
            AscendC::DataCopy(biasLocal, biasGm, blockLength);
            AscendC::PipeBarrier<PIPE_ALL>();
            AscendC::Add(xLocal, xLocal, biasLocal, blockLength);
        }
        if constexpr (RELU) {
            AscendC::Relu(xLocal, xLocal, blockLength);
        }
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yGm, xLocal, blockLength);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xBuf, biasBuf;
    AscendC::GlobalTensor<float> xGm, biasGm, yGm;
    uint32_t blockLength = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void scale_shift_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelScaleShift op;
    op.Init(x, bias, y, tilingData.blockLength, tilingData.scale);
    if (TILING_KEY_IS(1)) {
        op.Process<false, false>();
    } else if (TILING_KEY_IS(2)) {
        op.Process<true, false>();
    } else if (TILING_KEY_IS(11)) {
        op.Process<false, true>();
    } else if (TILING_KEY_IS(12)) {
        op.Process<true, true>();
    }
}
