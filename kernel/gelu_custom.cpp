/**
 * @file gelu_custom.cpp
 * y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), element-wise, with Ascend C vector ops.
 * Uses the identity 0.5 (1 + tanh(u)) = 1 / (1 + exp(-2u)), so
 *     y = x / (1 + exp(-2 sqrt(2/pi) x (1 + 0.044715 x^2))),
 * which needs one Exp and one Div instead of a tanh. half inputs are computed in float (Cast in,
 * Cast out with CAST_NONE, which rounds to nearest even and is offered on A2 and 310P alike), as
 * production kernels do. The input is first clamped below at -20 with Max: GELU(x <= -20) is -0
 * in float either way, and without the clamp x = -inf would give -inf / inf = NaN.
 */
#include "kernel_operator.h"
#include "elementwise_tiling.h"

constexpr int32_t GELU_BUFFER_NUM = 2;
constexpr uint32_t GELU_TILE_ELEMENTS = 8192;       // elements per tile (float math: 32 KiB)
constexpr float GELU_COEFF = 0.044715f;
constexpr float GELU_NEG_TWO_SQRT_2_OVER_PI = -1.5957691216057308f;  // -2 * sqrt(2 / pi)
constexpr float GELU_LOWER_CLAMP = -20.0f;         // exp(...) overflows to inf from x ~ -11 on
constexpr uint32_t FLOATS_PER_REPEAT = 64;         // one 256 B repeat of float

template <typename T>
class KernelGelu {
public:
    __aicore__ inline KernelGelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
    {
        ElementwiseTiling tiling = ComputeElementwiseTiling(
            totalLength, AscendC::GetBlockNum(), sizeof(T), GELU_TILE_ELEMENTS * sizeof(T));
        uint32_t start = 0;
        BlockRange(tiling, totalLength, AscendC::GetBlockIdx(), start, this->blockLength);
        this->tileLength = tiling.tileLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + start, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, this->blockLength);
        pipe.InitBuffer(inQueueX, GELU_BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, GELU_BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(tmpBuf, this->tileLength * sizeof(float));
        pipe.InitBuffer(lowBuf, FLOATS_PER_REPEAT * sizeof(float));
        AscendC::Duplicate(lowBuf.Get<float>(), GELU_LOWER_CLAMP, FLOATS_PER_REPEAT);
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(castBuf, this->tileLength * sizeof(float));
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
    __aicore__ inline uint32_t AlignUp(uint32_t length)
    {
        constexpr uint32_t align = 32 / sizeof(T);
        return (length + align - 1) / align * align;
    }
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t length)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        if (Aligned(length)) {
            AscendC::DataCopy(xLocal, xGm[offset], length);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{true, 0, 0, T(0)};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    // y = max(-20, x), keeping NaN and +inf: Max returns src1 unless src0 > src1. src0 is one
    // repeat of -20 reused by every repeat (src0RepStride 0); the tail is a continuous mask.
    __aicore__ inline void ClampBelow(const AscendC::LocalTensor<float>& y,
                                      const AscendC::LocalTensor<float>& x, uint32_t count)
    {
        AscendC::LocalTensor<float> low = lowBuf.Get<float>();
        const AscendC::BinaryRepeatParams params(1, 1, 1, 8, 0, 8);
        const uint32_t repeats = count / FLOATS_PER_REPEAT;
        const uint32_t tail = count % FLOATS_PER_REPEAT;
        if (repeats > 0) {
            AscendC::Max(y, low, x, FLOATS_PER_REPEAT, static_cast<uint8_t>(repeats), params);
        }
        if (tail > 0) {
            const uint32_t done = repeats * FLOATS_PER_REPEAT;
            AscendC::Max(y[done], low, x[done], tail, 1, params);
        }
    }
    // y = x / (1 + exp(k * x * (1 + c * x^2))) in float on x clamped below at -20, with x and y
    // float tensors (y may be x).
    __aicore__ inline void GeluFloat(const AscendC::LocalTensor<float>& y,
                                     const AscendC::LocalTensor<float>& x, uint32_t count)
    {
        AscendC::LocalTensor<float> t = tmpBuf.Get<float>();
        ClampBelow(y, x, count);
        AscendC::Mul(t, y, y, count);
        AscendC::Muls(t, t, GELU_COEFF, count);
        AscendC::Adds(t, t, 1.0f, count);
        AscendC::Mul(t, t, y, count);
        AscendC::Muls(t, t, GELU_NEG_TWO_SQRT_2_OVER_PI, count);
        AscendC::Exp(t, t, count);
        AscendC::Adds(t, t, 1.0f, count);
        AscendC::Div(y, y, t, count);
    }
    __aicore__ inline void Compute(uint32_t length)
    {
        uint32_t count = AlignUp(length);
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            GeluFloat(yLocal, xLocal, count);
        } else {
            AscendC::LocalTensor<float> xFloat = castBuf.Get<float>();
            AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, count);
            GeluFloat(xFloat, xFloat, count);
            AscendC::Cast(yLocal, xFloat, AscendC::RoundMode::CAST_NONE, count);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t length)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        if (Aligned(length)) {
            AscendC::DataCopy(yGm[offset], yLocal, length);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, GELU_BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, GELU_BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> castBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> lowBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void gelu_custom(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
{
    KernelGelu<half> op;
    op.Init(x, y, totalLength);
    op.Process();
}

extern "C" __global__ __aicore__ void gelu_custom_float(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
{
    KernelGelu<float> op;
    op.Init(x, y, totalLength);
    op.Process();
}
