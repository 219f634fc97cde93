/**
 * @file softmax_custom.cpp
 * Row softmax over a [rows, cols] float matrix: y[r] = exp(x[r] - max(x[r])) / sum(exp(...)).
 * Rows are split across the blocks; each block streams its rows through UB with double-buffered
 * queues. The row maximum and sum come out of vector reductions into UB and are read by the
 * scalar unit, so each read waits for the vector pipe (SetFlag/WaitFlag<HardEvent::V_S>), and the
 * next reduction into the same buffer waits for the read (SetFlag/WaitFlag<HardEvent::S_V>).
 */
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2; // tensor num for each queue

class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)
    {
        uint32_t rowsPerBlock = (rows + AscendC::GetBlockNum() - 1) / AscendC::GetBlockNum();
        this->rowStart = rowsPerBlock * AscendC::GetBlockIdx();
        this->rowEnd = this->rowStart + rowsPerBlock < rows ? this->rowStart + rowsPerBlock : rows;
        this->cols = cols;
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y, rows * cols);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, cols * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, cols * sizeof(float));
        pipe.InitBuffer(reduceBuf, 32);             // one 32-byte block for the reduced value
        pipe.InitBuffer(workBuf, cols * sizeof(float)); // reduction scratch (ample)
    }
    __aicore__ inline void Process()
    {
        for (uint32_t row = this->rowStart; row < this->rowEnd; row++) {
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[row * this->cols], this->cols);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> reduceLocal = reduceBuf.Get<float>();
        AscendC::LocalTensor<float> workLocal = workBuf.Get<float>();

        AscendC::ReduceMax(reduceLocal, xLocal, workLocal, this->cols);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        float rowMax = reduceLocal.GetValue(0);
        AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);

        AscendC::Adds(yLocal, xLocal, -rowMax, this->cols);
        AscendC::Exp(yLocal, yLocal, this->cols);
        AscendC::ReduceSum(reduceLocal, yLocal, workLocal, this->cols);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        float rowSum = reduceLocal.GetValue(0);
        AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);

        AscendC::Muls(yLocal, yLocal, 1.0f / rowSum, this->cols);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t row)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopy(yGm[row * this->cols], yLocal, this->cols);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> reduceBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t rowStart;
    uint32_t rowEnd;
    uint32_t cols;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)
{
    KernelSoftmax op;
    op.Init(x, y, rows, cols);
    op.Process();
}
