"""Kernels the torch tests load with ascsim.load: small Ascend C kernels in the official style over
the dtypes a tensor can bring (bytes of any dtype, bfloat16, float, int32), in place and out of
place, with a backward. Each block takes an equal slice (the last one the rest); lengths need not
be 32-byte multiples (DataCopyPad, A2)."""

SOURCE = r'''
#include "kernel_operator.h"

__aicore__ inline void BlockSlice(uint32_t n, uint32_t &start, uint32_t &len)
{
    uint32_t per = n / AscendC::GetBlockNum();
    start = per * AscendC::GetBlockIdx();
    len = AscendC::GetBlockIdx() + 1 == AscendC::GetBlockNum() ? n - start : per;
}

template <typename T>
__aicore__ inline void CopyIn(const AscendC::LocalTensor<T> &dst, const AscendC::GlobalTensor<T> &src, uint32_t len)
{
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, T(0)};
    AscendC::DataCopyPad(dst, src, params, pad);
}

template <typename T>
__aicore__ inline void CopyOut(const AscendC::GlobalTensor<T> &dst, const AscendC::LocalTensor<T> &src, uint32_t len)
{
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(dst, src, params);
}

// dst = src byte for byte, whatever the dtype.
extern "C" __global__ __aicore__ void copy_bytes_custom(GM_ADDR src, GM_ADDR dst, uint32_t bytes)
{
    uint32_t start = 0, len = 0;
    BlockSlice(bytes, start, len);
    if (len == 0) {
        return;
    }
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> queue;
    AscendC::GlobalTensor<uint8_t> srcGm, dstGm;
    srcGm.SetGlobalBuffer((__gm__ uint8_t *)src + start, len);
    dstGm.SetGlobalBuffer((__gm__ uint8_t *)dst + start, len);
    pipe.InitBuffer(queue, 1, len);
    AscendC::LocalTensor<uint8_t> local = queue.AllocTensor<uint8_t>();
    CopyIn(local, srcGm, len);
    queue.EnQue(local);
    local = queue.DeQue<uint8_t>();
    CopyOut(dstGm, local, len);
    queue.FreeTensor(local);
}

// y = x * scale in bfloat16 (computed in float, rounded to nearest even).
extern "C" __global__ __aicore__ void scale_bf16_custom(__gm__ bfloat16_t *x, __gm__ bfloat16_t *y, float scale,
                                                        uint32_t n)
{
    uint32_t start = 0, len = 0;
    BlockSlice(n, start, len);
    if (len == 0) {
        return;
    }
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> floatBuf;
    AscendC::GlobalTensor<bfloat16_t> xGm, yGm;
    xGm.SetGlobalBuffer(x + start, len);
    yGm.SetGlobalBuffer(y + start, len);
    pipe.InitBuffer(inQueue, 1, len * sizeof(bfloat16_t));
    pipe.InitBuffer(outQueue, 1, len * sizeof(bfloat16_t));
    pipe.InitBuffer(floatBuf, len * sizeof(float));
    AscendC::LocalTensor<bfloat16_t> xLocal = inQueue.AllocTensor<bfloat16_t>();
    CopyIn(xLocal, xGm, len);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<bfloat16_t>();
    AscendC::LocalTensor<float> f = floatBuf.Get<float>();
    AscendC::Cast(f, xLocal, AscendC::RoundMode::CAST_NONE, len);
    AscendC::Muls(f, f, scale, len);
    AscendC::LocalTensor<bfloat16_t> yLocal = outQueue.AllocTensor<bfloat16_t>();
    AscendC::Cast(yLocal, f, AscendC::RoundMode::CAST_RINT, len);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<bfloat16_t>();
    CopyOut(yGm, yLocal, len);
    outQueue.FreeTensor(yLocal);
}

// x = compute(x) over each block's slice, in place: the shape both in-place kernels below share.
template <typename T, typename Compute>
__aicore__ inline void UnaryInPlace(__gm__ T *x, uint32_t n, Compute compute)
{
    uint32_t start = 0, len = 0;
    BlockSlice(n, start, len);
    if (len == 0) {
        return;
    }
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<T> xGm;
    xGm.SetGlobalBuffer(x + start, len);
    pipe.InitBuffer(inQueue, 1, len * sizeof(T));
    pipe.InitBuffer(outQueue, 1, len * sizeof(T));
    AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
    CopyIn(xLocal, xGm, len);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<T>();
    AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
    compute(yLocal, xLocal, len);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<T>();
    CopyOut(xGm, yLocal, len);
    outQueue.FreeTensor(yLocal);
}

// x *= scale, in place.
extern "C" __global__ __aicore__ void scale_inplace_custom(__gm__ float *x, float scale, uint32_t n)
{
    UnaryInPlace(x, n, [scale](const AscendC::LocalTensor<float> &y, const AscendC::LocalTensor<float> &x,
                               uint32_t len) { AscendC::Muls(y, x, scale, len); });
}

// x += 1 on int32, in place.
extern "C" __global__ __aicore__ void add_one_i32_custom(__gm__ int32_t *x, uint32_t n)
{
    UnaryInPlace(x, n, [](const AscendC::LocalTensor<int32_t> &y, const AscendC::LocalTensor<int32_t> &x,
                          uint32_t len) { AscendC::Adds(y, x, static_cast<int32_t>(1), len); });
}

// z = a * x + y (float), and its backward: dx = a * g, dy = g.
extern "C" __global__ __aicore__ void axpy_custom(__gm__ float *x, __gm__ float *y, __gm__ float *z, float a,
                                                  uint32_t n)
{
    uint32_t start = 0, len = 0;
    BlockSlice(n, start, len);
    if (len == 0) {
        return;
    }
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer(x + start, len);
    yGm.SetGlobalBuffer(y + start, len);
    zGm.SetGlobalBuffer(z + start, len);
    pipe.InitBuffer(inQueueX, 1, len * sizeof(float));
    pipe.InitBuffer(inQueueY, 1, len * sizeof(float));
    pipe.InitBuffer(outQueue, 1, len * sizeof(float));
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    CopyIn(xLocal, xGm, len);
    CopyIn(yLocal, yGm, len);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
    xLocal = inQueueX.DeQue<float>();
    yLocal = inQueueY.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outQueue.AllocTensor<float>();
    AscendC::Muls(xLocal, xLocal, a, len);
    AscendC::Add(zLocal, xLocal, yLocal, len);
    outQueue.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
    zLocal = outQueue.DeQue<float>();
    CopyOut(zGm, zLocal, len);
    outQueue.FreeTensor(zLocal);
}

extern "C" __global__ __aicore__ void axpy_backward_custom(__gm__ float *g, __gm__ float *x, __gm__ float *y,
                                                           float a, __gm__ float *dx, __gm__ float *dy,
                                                           uint32_t n)
{
    uint32_t start = 0, len = 0;
    BlockSlice(n, start, len);
    if (len == 0) {
        return;
    }
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueX, outQueueY;
    AscendC::GlobalTensor<float> gGm, dxGm, dyGm;
    gGm.SetGlobalBuffer(g + start, len);
    dxGm.SetGlobalBuffer(dx + start, len);
    dyGm.SetGlobalBuffer(dy + start, len);
    pipe.InitBuffer(inQueue, 1, len * sizeof(float));
    pipe.InitBuffer(outQueueX, 1, len * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, len * sizeof(float));
    AscendC::LocalTensor<float> gLocal = inQueue.AllocTensor<float>();
    CopyIn(gLocal, gGm, len);
    inQueue.EnQue(gLocal);
    gLocal = inQueue.DeQue<float>();
    AscendC::LocalTensor<float> dxLocal = outQueueX.AllocTensor<float>();
    AscendC::LocalTensor<float> dyLocal = outQueueY.AllocTensor<float>();
    AscendC::Muls(dxLocal, gLocal, a, len);
    AscendC::Muls(dyLocal, gLocal, 1.0f, len);
    outQueueX.EnQue(dxLocal);
    outQueueY.EnQue(dyLocal);
    inQueue.FreeTensor(gLocal);
    dxLocal = outQueueX.DeQue<float>();
    dyLocal = outQueueY.DeQue<float>();
    CopyOut(dxGm, dxLocal, len);
    CopyOut(dyGm, dyLocal, len);
    outQueueX.FreeTensor(dxLocal);
    outQueueY.FreeTensor(dyLocal);
}
'''


def load(tmp_path_factory):
    """The module of SOURCE, built in a per-session folder."""
    import ascsim
    work = tmp_path_factory.mktemp("torch_kernels")
    path = work / "torch_kernels.cpp"
    path.write_text(SOURCE)
    return ascsim.load(str(path), build_dir=str(work / "cache"))
