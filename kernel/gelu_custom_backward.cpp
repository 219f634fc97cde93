/**
 * @file gelu_custom_backward.cpp
 * dx = dy * d/dx gelu(x) for the tanh form of gelu_custom.cpp, element-wise, with Ascend C vector
 * ops. With u = sqrt(2/pi) (x + 0.044715 x^3) and g1 = 0.5 (1 + tanh(u)) = 1 / (1 + exp(-2u)):
 *     gelu'(x) = g1 + x g1 (1 - g1) 2u'(x),   2u'(x) = 2 sqrt(2/pi) (1 + 3 * 0.044715 x^2),
 * computed as CANN's GeluGrad sample does for Ascend 310B (cann-ops, src/math/gelu_grad,
 * README "计算公式" and op_kernel/gelu_grad.cpp, versionNum 1):
 *     g1 = 1 / (exp((c0 x^2 + c1) x) + 1),   g2 = c2 x^2 + c3,
 *     dx = (((g1 - 1) x) g2 + 1) g1 dy,
 * c0 = -2 sqrt(2/pi) 0.044715, c1 = -2 sqrt(2/pi), c2 = 3 c0, c3 = c1. The sample's 910B form,
 * (px res0 t^2 + t) dy with px = exp(...), multiplies px = inf by t = 0 once x < -10 and gives
 * NaN there; this form has no such product. x is clamped to [-20, 20] first: beyond it gelu'(x)
 * is 0 or 1 in float, and the clamp keeps x = +-inf from making inf * 0. The clamp is Max / Min
 * against a row of the bound with x as src1, as gelu_custom.cpp does, so that NaN stays NaN
 * (Maxs(x, -20) would turn it into -20).
 * half inputs are computed in float: Cast in and out with CAST_NONE (round to nearest even), which
 * A2 and 310P both offer for float -> half (the sample's CAST_RINT is A2-only; asc-devkit Cast.md).
 * Any length: the tail tile is moved with DataCopyPad, as in add_custom.cpp.
 */
#include "kernel_operator.h"
#include "elementwise_tiling.h"

constexpr int32_t GELU_GRAD_BUFFER_NUM = 2;
constexpr uint32_t GELU_GRAD_TILE_ELEMENTS = 4096;   // float math: 5 x 16 KiB of scratch
constexpr float GELU_GRAD_C0 = -0.0713548162726002527220f;   // -2 sqrt(2/pi) 0.044715
constexpr float GELU_GRAD_C1 = -1.5957691216057307117598f;   // -2 sqrt(2/pi)
constexpr float GELU_GRAD_C2 = -0.2140644488178007463290f;   // 3 c0
constexpr float GELU_GRAD_C3 = -1.5957691216057307117598f;   // c1
constexpr float GELU_GRAD_CLAMP = 20.0f;
constexpr uint32_t GELU_GRAD_FLOATS_PER_REPEAT = 64;   // one 256 B repeat of float

template <typename T>
class KernelGeluGrad {
public:
    __aicore__ inline KernelGeluGrad() {}
    __aicore__ inline void Init(GM_ADDR dy, GM_ADDR x, GM_ADDR z, uint32_t totalLength)
    {
        ElementwiseTiling tiling = ComputeElementwiseTiling(
            totalLength, AscendC::GetBlockNum(), sizeof(T), GELU_GRAD_TILE_ELEMENTS * sizeof(T));
        uint32_t start = 0;
        BlockRange(tiling, totalLength, AscendC::GetBlockIdx(), start, this->blockLength);
        this->tileLength = tiling.tileLength;
        dyGm.SetGlobalBuffer((__gm__ T *)dy + start, this->blockLength);
        xGm.SetGlobalBuffer((__gm__ T *)x + start, this->blockLength);
        zGm.SetGlobalBuffer((__gm__ T *)z + start, this->blockLength);
        pipe.InitBuffer(inQueueDY, GELU_GRAD_BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(inQueueX, GELU_GRAD_BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, GELU_GRAD_BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(g1Buf, this->tileLength * sizeof(float));
        pipe.InitBuffer(g2Buf, this->tileLength * sizeof(float));
        pipe.InitBuffer(oneBuf, this->tileLength * sizeof(float));
        AscendC::Duplicate(oneBuf.Get<float>(), 1.0f, this->tileLength);
        pipe.InitBuffer(boundBuf, 2 * GELU_GRAD_FLOATS_PER_REPEAT * sizeof(float));
        AscendC::LocalTensor<float> bounds = boundBuf.Get<float>();
        AscendC::Duplicate(bounds, -GELU_GRAD_CLAMP, GELU_GRAD_FLOATS_PER_REPEAT);
        AscendC::Duplicate(bounds[GELU_GRAD_FLOATS_PER_REPEAT], GELU_GRAD_CLAMP, GELU_GRAD_FLOATS_PER_REPEAT);
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(xCastBuf, this->tileLength * sizeof(float));
            pipe.InitBuffer(dyCastBuf, this->tileLength * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        uint32_t tileNum = (this->blockLength + this->tileLength - 1) / this->tileLength;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t offset = i * this->tileLength;
            uint32_t length = this->blockLength - offset < this->tileLength ?
                this->blockLength - offset : this->tileLength;
            CopyIn(offset, length);
            Compute(length);
            CopyOut(offset, length);
        }
    }

private:
    __aicore__ inline bool Aligned(uint32_t length) { return (length * sizeof(T)) % 32 == 0; }
    // Vector ops work on whole 32-byte blocks; the padded lanes are never written back.
    __aicore__ inline uint32_t AlignUp(uint32_t length)
    {
        constexpr uint32_t align = 32 / sizeof(T);
        return (length + align - 1) / align * align;
    }
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t length)
    {
        AscendC::LocalTensor<T> dyLocal = inQueueDY.AllocTensor<T>();
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        if (Aligned(length)) {
            AscendC::DataCopy(dyLocal, dyGm[offset], length);
            AscendC::DataCopy(xLocal, xGm[offset], length);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{true, 0, 0, T(0)};
            AscendC::DataCopyPad(dyLocal, dyGm[offset], copyParams, padParams);
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueDY.EnQue(dyLocal);
        inQueueX.EnQue(xLocal);
    }
    // x = min(20, max(-20, x)) in place, keeping NaN: Max/Min return src1 unless src0 is
    // greater/smaller. src0 is one repeat of the bound reused by every repeat (src0RepStride 0);
    // the tail is a continuous mask.
    __aicore__ inline void Clamp(const AscendC::LocalTensor<float>& x, uint32_t count)
    {
        AscendC::LocalTensor<float> bounds = boundBuf.Get<float>();
        AscendC::LocalTensor<float> low = bounds;
        AscendC::LocalTensor<float> high = bounds[GELU_GRAD_FLOATS_PER_REPEAT];
        const AscendC::BinaryRepeatParams params(1, 1, 1, 8, 0, 8);
        const uint32_t repeats = count / GELU_GRAD_FLOATS_PER_REPEAT;
        const uint32_t tail = count % GELU_GRAD_FLOATS_PER_REPEAT;
        if (repeats > 0) {
            AscendC::Max(x, low, x, GELU_GRAD_FLOATS_PER_REPEAT, static_cast<uint8_t>(repeats), params);
            AscendC::Min(x, high, x, GELU_GRAD_FLOATS_PER_REPEAT, static_cast<uint8_t>(repeats), params);
        }
        if (tail > 0) {
            const uint32_t done = repeats * GELU_GRAD_FLOATS_PER_REPEAT;
            AscendC::Max(x[done], low, x[done], tail, 1, params);
            AscendC::Min(x[done], high, x[done], tail, 1, params);
        }
    }
    // z = (((g1 - 1) x) g2 + 1) g1 dy in float; x is clamped in place, z may be dy.
    __aicore__ inline void GeluGradFloat(const AscendC::LocalTensor<float>& z,
                                         const AscendC::LocalTensor<float>& dy,
                                         const AscendC::LocalTensor<float>& x, uint32_t count)
    {
        AscendC::LocalTensor<float> g1 = g1Buf.Get<float>();
        AscendC::LocalTensor<float> g2 = g2Buf.Get<float>();
        Clamp(x, count);
        AscendC::Mul(g1, x, x, count);                   // x^2
        AscendC::Muls(g2, g1, GELU_GRAD_C2, count);
        AscendC::Adds(g2, g2, GELU_GRAD_C3, count);       // g2 = c2 x^2 + c3
        AscendC::Muls(g1, g1, GELU_GRAD_C0, count);
        AscendC::Adds(g1, g1, GELU_GRAD_C1, count);
        AscendC::Mul(g1, g1, x, count);                   // (c0 x^2 + c1) x = -2u
        AscendC::Exp(g1, g1, count);
        AscendC::Adds(g1, g1, 1.0f, count);
        AscendC::Div(g1, oneBuf.Get<float>(), g1, count); // g1 = 1 / (exp(-2u) + 1)
        AscendC::Mul(g2, g2, x, count);                   // g2 x
        AscendC::Adds(x, g1, -1.0f, count);               // g1 - 1
        AscendC::Mul(x, x, g2, count);
        AscendC::Adds(x, x, 1.0f, count);
        AscendC::Mul(x, x, g1, count);                    // gelu'(x)
        AscendC::Mul(z, x, dy, count);
    }
    __aicore__ inline void Compute(uint32_t length)
    {
        uint32_t count = AlignUp(length);
        AscendC::LocalTensor<T> dyLocal = inQueueDY.DeQue<T>();
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            GeluGradFloat(zLocal, dyLocal, xLocal, count);
        } else {
            AscendC::LocalTensor<float> xFloat = xCastBuf.Get<float>();
            AscendC::LocalTensor<float> dyFloat = dyCastBuf.Get<float>();
            AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, count);
            AscendC::Cast(dyFloat, dyLocal, AscendC::RoundMode::CAST_NONE, count);
            GeluGradFloat(dyFloat, dyFloat, xFloat, count);
            AscendC::Cast(zLocal, dyFloat, AscendC::RoundMode::CAST_NONE, count);
        }
        outQueueZ.EnQue<T>(zLocal);
        inQueueDY.FreeTensor(dyLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t length)
    {
        AscendC::LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        if (Aligned(length)) {
            AscendC::DataCopy(zGm[offset], zLocal, length);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(zGm[offset], zLocal, copyParams);
        }
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, GELU_GRAD_BUFFER_NUM> inQueueDY, inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, GELU_GRAD_BUFFER_NUM> outQueueZ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> g1Buf, g2Buf, oneBuf, boundBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xCastBuf, dyCastBuf;
    AscendC::GlobalTensor<T> dyGm;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> zGm;
    uint32_t blockLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void gelu_custom_backward(GM_ADDR dy, GM_ADDR x, GM_ADDR z,
                                                           uint32_t totalLength)
{
    KernelGeluGrad<half> op;
    op.Init(dy, x, z, totalLength);
    op.Process();
}

extern "C" __global__ __aicore__ void gelu_custom_backward_float(GM_ADDR dy, GM_ADDR x, GM_ADDR z,
                                                                 uint32_t totalLength)
{
    KernelGeluGrad<float> op;
    op.Init(dy, x, z, totalLength);
    op.Process();
}
