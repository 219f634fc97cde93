/**
 * @file add_custom.cpp
 * z = x + y, element-wise, in the shape of the Ascend C samples (KernelAdd): each core takes a
 * contiguous slice, and pipelines it through UB in tiles with double buffering:
 * CopyIn (MTE2) -> Compute (V) -> CopyOut (MTE3).
 * Any length works: the tail tile is moved with DataCopyPad when it is not 32-byte aligned.
 */
#include "kernel_operator.h"
#include "elementwise_tiling.h"

constexpr int32_t BUFFER_NUM = 2;              // tensor num for each queue (double buffering)
constexpr uint32_t ADD_TILE_BYTES = 32 * 1024; // bytes per tile per queue buffer: 3 queues x 2 fill the 192 KiB UB

template <typename T>
class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength)
    {
        ElementwiseTiling tiling = ComputeElementwiseTiling(
            totalLength, AscendC::GetBlockNum(), sizeof(T), ADD_TILE_BYTES);
        uint32_t start = 0;
        BlockRange(tiling, totalLength, AscendC::GetBlockIdx(), start, this->blockLength);
        this->tileLength = tiling.tileLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + start, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, this->blockLength);
        zGm.SetGlobalBuffer((__gm__ T *)z + start, this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(T));
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
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
        if (Aligned(length)) {
            AscendC::DataCopy(xLocal, xGm[offset], length);
            AscendC::DataCopy(yLocal, yGm[offset], length);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{true, 0, 0, T(0)};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
            AscendC::DataCopyPad(yLocal, yGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t length)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        AscendC::Add(zLocal, xLocal, yLocal, AlignUp(length));
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
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
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    AscendC::GlobalTensor<T> zGm;
    uint32_t blockLength;
    uint32_t tileLength;
};

// The seed's entry point: half.
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength)
{
    KernelAdd<half> op;
    op.Init(x, y, z, totalLength);
    op.Process();
}

extern "C" __global__ __aicore__ void add_custom_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength)
{
    KernelAdd<float> op;
    op.Init(x, y, z, totalLength);
    op.Process();
}
