// SumListCustom kernel: y = sum of the tensors of the list x, tile by tile, accumulated in float.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelSumList {
public:
    __aicore__ inline KernelSumList() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength)
    {
        xList = AscendC::ListTensorDesc(reinterpret_cast<__gm__ void*>(x));
        count = xList.GetSize();
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        offset = blockLength * AscendC::GetBlockIdx();
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(accBuf, tileLength * sizeof(float));
        pipe.InitBuffer(castBuf, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        const uint32_t tiles = blockLength / tileLength;
        for (uint32_t t = 0; t < tiles; ++t) {
            AscendC::LocalTensor<float> acc = accBuf.Get<float>();
            AscendC::Duplicate(acc, 0.0f, tileLength);
            for (uint32_t i = 0; i < count; ++i) {
                CopyIn(i, t);
                Accumulate(acc);
            }
            CopyOut(acc, t);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t t)
    {
        AscendC::GlobalTensor<T> xGm;
        xGm.SetGlobalBuffer(xList.GetDataPtr<T>(i) + offset, blockLength);
        AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[t * tileLength], tileLength);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Accumulate(AscendC::LocalTensor<float>& acc)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.DeQue<T>();
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Add(acc, acc, xLocal, tileLength);
        } else {
            AscendC::LocalTensor<float> wide = castBuf.Get<float>();
            AscendC::Cast(wide, xLocal, AscendC::RoundMode::CAST_NONE, tileLength);
            AscendC::Add(acc, acc, wide, tileLength);
        }
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(AscendC::LocalTensor<float>& acc, uint32_t t)
    {
        AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Adds(yLocal, acc, 0.0f, tileLength);
        } else {
            AscendC::Cast(yLocal, acc, AscendC::RoundMode::CAST_RINT, tileLength);
        }
        outQueue.EnQue(yLocal);
        yLocal = outQueue.DeQue<T>();
        AscendC::DataCopy(yGm[t * tileLength], yLocal, tileLength);
        outQueue.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, castBuf;
    AscendC::ListTensorDesc xList;
    AscendC::GlobalTensor<T> yGm;
    uint32_t count = 0;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t offset = 0;
};

extern "C" __global__ __aicore__ void sum_list_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSumList<DTYPE_X> op;
    op.Init(x, y, tilingData.blockLength, tilingData.tileLength);
    op.Process();
}
