/**
 * @file elementwise_bf16_custom.cpp
 * bfloat16 variants of the element-wise kernels: add_custom_bf16 (z = x + y), gelu_custom_bf16
 * (the tanh-form GELU of gelu_custom.cpp) and gelu_custom_backward_bf16 (its derivative, as
 * gelu_custom_backward.cpp). A2's vector units do not compute in bfloat16, so, as production
 * kernels do for bfloat16 (e.g. CANN's RmsNorm and GeluGrad samples), each tile is Cast to float
 * (CAST_NONE, exact), computed in float and Cast back with CAST_RINT (round to nearest even; A2
 * offers no CAST_NONE for float -> bfloat16, and the 310P has no bfloat16 at all: there the first
 * Cast faults with the profile's name).
 * Tiling, double buffering and the DataCopyPad tail are those of add_custom.cpp.
 */
#include "kernel_operator.h"
#include "elementwise_tiling.h"

constexpr int32_t BF16_BUFFER_NUM = 2;
constexpr uint32_t BF16_TILE_ELEMENTS = 4096;
constexpr uint32_t BF16_FLOATS_PER_REPEAT = 64;   // one 256 B repeat of float

enum class Bf16Op { ADD, GELU, GELU_GRAD };

template <Bf16Op OP>
class KernelElementwiseBf16 {
    static constexpr bool TWO_INPUTS = OP != Bf16Op::GELU;

public:
    __aicore__ inline KernelElementwiseBf16() {}
    // ADD: z = a + b; GELU: z = gelu(a); GELU_GRAD: z = a * gelu'(b) (a = dy, b = x).
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR z, uint32_t totalLength)
    {
        ElementwiseTiling tiling = ComputeElementwiseTiling(
            totalLength, AscendC::GetBlockNum(), sizeof(bfloat16_t), BF16_TILE_ELEMENTS * sizeof(bfloat16_t));
        uint32_t start = 0;
        BlockRange(tiling, totalLength, AscendC::GetBlockIdx(), start, this->blockLength);
        this->tileLength = tiling.tileLength;
        aGm.SetGlobalBuffer((__gm__ bfloat16_t *)a + start, this->blockLength);
        zGm.SetGlobalBuffer((__gm__ bfloat16_t *)z + start, this->blockLength);
        pipe.InitBuffer(inQueueA, BF16_BUFFER_NUM, this->tileLength * sizeof(bfloat16_t));
        pipe.InitBuffer(outQueueZ, BF16_BUFFER_NUM, this->tileLength * sizeof(bfloat16_t));
        pipe.InitBuffer(aFloatBuf, this->tileLength * sizeof(float));
        if constexpr (TWO_INPUTS) {
            bGm.SetGlobalBuffer((__gm__ bfloat16_t *)b + start, this->blockLength);
            pipe.InitBuffer(inQueueB, BF16_BUFFER_NUM, this->tileLength * sizeof(bfloat16_t));
            pipe.InitBuffer(bFloatBuf, this->tileLength * sizeof(float));
        }
        if constexpr (OP != Bf16Op::ADD) {
            pipe.InitBuffer(tmpBuf, this->tileLength * sizeof(float));
            pipe.InitBuffer(boundBuf, 2 * BF16_FLOATS_PER_REPEAT * sizeof(float));
            AscendC::LocalTensor<float> bounds = boundBuf.Get<float>();
            AscendC::Duplicate(bounds, -20.0f, BF16_FLOATS_PER_REPEAT);
            AscendC::Duplicate(bounds[BF16_FLOATS_PER_REPEAT], 20.0f, BF16_FLOATS_PER_REPEAT);
        }
        if constexpr (OP == Bf16Op::GELU_GRAD) {
            pipe.InitBuffer(tmp2Buf, this->tileLength * sizeof(float));
            pipe.InitBuffer(oneBuf, this->tileLength * sizeof(float));
            AscendC::Duplicate(oneBuf.Get<float>(), 1.0f, this->tileLength);
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
    __aicore__ inline bool Aligned(uint32_t length) { return (length * sizeof(bfloat16_t)) % 32 == 0; }
    __aicore__ inline uint32_t AlignUp(uint32_t length)
    {
        constexpr uint32_t align = 32 / sizeof(bfloat16_t);
        return (length + align - 1) / align * align;
    }
    __aicore__ inline void CopyTileIn(const AscendC::LocalTensor<bfloat16_t> &dst,
                                      const AscendC::GlobalTensor<bfloat16_t> &src, uint32_t length)
    {
        if (Aligned(length)) {
            AscendC::DataCopy(dst, src, length);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(bfloat16_t)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<bfloat16_t> padParams{true, 0, 0, bfloat16_t(0)};
            AscendC::DataCopyPad(dst, src, copyParams, padParams);
        }
    }
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t length)
    {
        AscendC::LocalTensor<bfloat16_t> aLocal = inQueueA.AllocTensor<bfloat16_t>();
        CopyTileIn(aLocal, aGm[offset], length);
        inQueueA.EnQue(aLocal);
        if constexpr (TWO_INPUTS) {
            AscendC::LocalTensor<bfloat16_t> bLocal = inQueueB.AllocTensor<bfloat16_t>();
            CopyTileIn(bLocal, bGm[offset], length);
            inQueueB.EnQue(bLocal);
        }
    }
    // x = min(20, max(-20, x)) keeping NaN (Max/Min against a row of the bound, x as src1).
    __aicore__ inline void Clamp(const AscendC::LocalTensor<float> &x, uint32_t count, bool upper)
    {
        AscendC::LocalTensor<float> bounds = boundBuf.Get<float>();
        const AscendC::BinaryRepeatParams params(1, 1, 1, 8, 0, 8);
        const uint32_t repeats = count / BF16_FLOATS_PER_REPEAT;
        const uint32_t tail = count % BF16_FLOATS_PER_REPEAT;
        const uint32_t done = repeats * BF16_FLOATS_PER_REPEAT;
        if (repeats > 0) {
            AscendC::Max(x, bounds, x, BF16_FLOATS_PER_REPEAT, static_cast<uint8_t>(repeats), params);
        }
        if (tail > 0) {
            AscendC::Max(x[done], bounds, x[done], tail, 1, params);
        }
        if (!upper) {
            return;
        }
        AscendC::LocalTensor<float> high = bounds[BF16_FLOATS_PER_REPEAT];
        if (repeats > 0) {
            AscendC::Min(x, high, x, BF16_FLOATS_PER_REPEAT, static_cast<uint8_t>(repeats), params);
        }
        if (tail > 0) {
            AscendC::Min(x[done], high, x[done], tail, 1, params);
        }
    }
    // gelu_custom.cpp's float sequence: y = x / (1 + exp(-2 sqrt(2/pi) x (1 + 0.044715 x^2))).
    __aicore__ inline void GeluFloat(const AscendC::LocalTensor<float> &x, uint32_t count)
    {
        AscendC::LocalTensor<float> t = tmpBuf.Get<float>();
        Clamp(x, count, false);
        AscendC::Mul(t, x, x, count);
        AscendC::Muls(t, t, 0.044715f, count);
        AscendC::Adds(t, t, 1.0f, count);
        AscendC::Mul(t, t, x, count);
        AscendC::Muls(t, t, -1.5957691216057308f, count);
        AscendC::Exp(t, t, count);
        AscendC::Adds(t, t, 1.0f, count);
        AscendC::Div(x, x, t, count);
    }
    // gelu_custom_backward.cpp's float sequence: dy = (((g1 - 1) x) g2 + 1) g1 dy.
    __aicore__ inline void GeluGradFloat(const AscendC::LocalTensor<float> &dy,
                                         const AscendC::LocalTensor<float> &x, uint32_t count)
    {
        AscendC::LocalTensor<float> g1 = tmpBuf.Get<float>();
        AscendC::LocalTensor<float> g2 = tmp2Buf.Get<float>();
        Clamp(x, count, true);
        AscendC::Mul(g1, x, x, count);
        AscendC::Muls(g2, g1, -0.2140644488178007463290f, count);
        AscendC::Adds(g2, g2, -1.5957691216057307117598f, count);
        AscendC::Muls(g1, g1, -0.0713548162726002527220f, count);
        AscendC::Adds(g1, g1, -1.5957691216057307117598f, count);
        AscendC::Mul(g1, g1, x, count);
        AscendC::Exp(g1, g1, count);
        AscendC::Adds(g1, g1, 1.0f, count);
        AscendC::Div(g1, oneBuf.Get<float>(), g1, count);
        AscendC::Mul(g2, g2, x, count);
        AscendC::Adds(x, g1, -1.0f, count);
        AscendC::Mul(x, x, g2, count);
        AscendC::Adds(x, x, 1.0f, count);
        AscendC::Mul(x, x, g1, count);
        AscendC::Mul(dy, x, dy, count);
    }
    __aicore__ inline void Compute(uint32_t length)
    {
        uint32_t count = AlignUp(length);
        AscendC::LocalTensor<bfloat16_t> aLocal = inQueueA.DeQue<bfloat16_t>();
        AscendC::LocalTensor<float> aFloat = aFloatBuf.Get<float>();
        AscendC::Cast(aFloat, aLocal, AscendC::RoundMode::CAST_NONE, count);
        inQueueA.FreeTensor(aLocal);
        if constexpr (TWO_INPUTS) {
            AscendC::LocalTensor<bfloat16_t> bLocal = inQueueB.DeQue<bfloat16_t>();
            AscendC::LocalTensor<float> bFloat = bFloatBuf.Get<float>();
            AscendC::Cast(bFloat, bLocal, AscendC::RoundMode::CAST_NONE, count);
            inQueueB.FreeTensor(bLocal);
            if constexpr (OP == Bf16Op::ADD) {
                AscendC::Add(aFloat, aFloat, bFloat, count);
            } else {
                GeluGradFloat(aFloat, bFloat, count);
            }
        } else {
            GeluFloat(aFloat, count);
        }
        AscendC::LocalTensor<bfloat16_t> zLocal = outQueueZ.AllocTensor<bfloat16_t>();
        AscendC::Cast(zLocal, aFloat, AscendC::RoundMode::CAST_RINT, count);
        outQueueZ.EnQue<bfloat16_t>(zLocal);
    }
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t length)
    {
        AscendC::LocalTensor<bfloat16_t> zLocal = outQueueZ.DeQue<bfloat16_t>();
        if (Aligned(length)) {
            AscendC::DataCopy(zGm[offset], zLocal, length);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(bfloat16_t)), 0, 0, 0};
            AscendC::DataCopyPad(zGm[offset], zLocal, copyParams);
        }
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BF16_BUFFER_NUM> inQueueA, inQueueB;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BF16_BUFFER_NUM> outQueueZ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> aFloatBuf, bFloatBuf, tmpBuf, tmp2Buf, oneBuf, boundBuf;
    AscendC::GlobalTensor<bfloat16_t> aGm;
    AscendC::GlobalTensor<bfloat16_t> bGm;
    AscendC::GlobalTensor<bfloat16_t> zGm;
    uint32_t blockLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void add_custom_bf16(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength)
{
    KernelElementwiseBf16<Bf16Op::ADD> op;
    op.Init(x, y, z, totalLength);
    op.Process();
}

extern "C" __global__ __aicore__ void gelu_custom_bf16(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
{
    KernelElementwiseBf16<Bf16Op::GELU> op;
    op.Init(x, nullptr, y, totalLength);
    op.Process();
}

extern "C" __global__ __aicore__ void gelu_custom_backward_bf16(GM_ADDR dy, GM_ADDR x, GM_ADDR z,
                                                                uint32_t totalLength)
{
    KernelElementwiseBf16<Bf16Op::GELU_GRAD> op;
    op.Init(dy, x, z, totalLength);
    op.Process();
}
