/**
 * @file center_custom.cpp
 * y = x - mean(x) over the whole input, in two phases across the blocks:
 *   1. each block sums its slice and writes the partial sum to its own 32-byte slot of a GM
 *      workspace (and also atomically adds it into total[0] with SetAtomicAdd);
 *   2. SyncAll() waits until every block has written its partial (it waits for every pipe of every
 *      block: on A2 it starts with PipeBarrier<PIPE_ALL>); then every block reads all
 *      partials, forms the total and the mean, and centres its slice. Block 0 also writes the
 *      total it formed into total[8].
 * SyncAll needs every block resident at once: blockDim must not exceed the vector core count.
 */
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 1;
constexpr uint32_t SLOT_FLOATS = 32 / sizeof(float); // one 32-byte slot per block

class KernelCenter {
public:
    __aicore__ inline KernelCenter() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR total, GM_ADDR workspace, uint32_t totalLength)
    {
        this->blockNum = AscendC::GetBlockNum();
        this->blockLength = totalLength / this->blockNum;
        this->totalLength = totalLength;
        xGm.SetGlobalBuffer((__gm__ float *)x + this->blockLength * AscendC::GetBlockIdx(), this->blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + this->blockLength * AscendC::GetBlockIdx(), this->blockLength);
        totalGm.SetGlobalBuffer((__gm__ float *)total, 2 * SLOT_FLOATS);
        workGm.SetGlobalBuffer((__gm__ float *)workspace, this->blockNum * SLOT_FLOATS);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->blockLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, this->blockLength * sizeof(float));
        pipe.InitBuffer(slotBuf, this->blockNum * SLOT_FLOATS * sizeof(float));
        pipe.InitBuffer(workBuf, this->blockLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm, this->blockLength);
        inQueueX.EnQue(xLocal);
        xLocal = inQueueX.DeQue<float>();
        WritePartial(xLocal);

        AscendC::SyncAll(); // every partial is in GM after this point

        float mean = ReadTotal() / static_cast<float>(this->totalLength);
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::Adds(yLocal, xLocal, -mean, this->blockLength);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
        yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopy(yGm, yLocal, this->blockLength);
        outQueueY.FreeTensor(yLocal);
    }

private:
    __aicore__ inline void WritePartial(const AscendC::LocalTensor<float> &xLocal)
    {
        AscendC::LocalTensor<float> slotLocal = slotBuf.Get<float>();
        AscendC::LocalTensor<float> workLocal = workBuf.Get<float>();
        AscendC::Duplicate(slotLocal, 0.0f, SLOT_FLOATS);
        AscendC::ReduceSum(slotLocal, xLocal, workLocal, this->blockLength); // slot = [sum, 0 x 7]
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(workGm[AscendC::GetBlockIdx() * SLOT_FLOATS], slotLocal, SLOT_FLOATS);
        AscendC::SetAtomicAdd<float>();
        AscendC::DataCopy(totalGm, slotLocal, SLOT_FLOATS); // total[0] += sum
        AscendC::SetAtomicNone();
    }
    __aicore__ inline float ReadTotal()
    {
        AscendC::LocalTensor<float> slotLocal = slotBuf.Get<float>();
        AscendC::LocalTensor<float> workLocal = workBuf.Get<float>();
        AscendC::DataCopy(slotLocal, workGm, this->blockNum * SLOT_FLOATS);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::ReduceSum(slotLocal, slotLocal, workLocal, this->blockNum * SLOT_FLOATS);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        float total = slotLocal.GetValue(0);
        if (AscendC::GetBlockIdx() == 0) {
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0); // the copy out reads ReduceSum's result
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::DataCopy(totalGm[SLOT_FLOATS], slotLocal, SLOT_FLOATS); // total[8] = total
        }
        return total;
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> slotBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    AscendC::GlobalTensor<float> totalGm;
    AscendC::GlobalTensor<float> workGm;
    uint32_t blockNum;
    uint32_t blockLength;
    uint32_t totalLength;
};

extern "C" __global__ __aicore__ void center_custom(GM_ADDR x, GM_ADDR y, GM_ADDR total, GM_ADDR workspace,
                                                    uint32_t totalLength)
{
    KernelCenter op;
    op.Init(x, y, total, workspace, totalLength);
    op.Process();
}
