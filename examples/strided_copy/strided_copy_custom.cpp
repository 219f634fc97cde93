/**
 * @file strided_copy_custom.cpp
 * Gathers a column block y[r, 0:width] = x[r, colStart:colStart+width] out of a row-major
 * [rows, cols] float matrix. Reading uses a strided DataCopy (DataCopyParams: blockCount rows of
 * blockLen 32-byte blocks, srcStride blocks skipped between rows), so colStart and cols must be
 * multiples of 8 floats and each row is read rounded up to whole 32-byte blocks. Writing uses
 * DataCopyPad with byte-exact lengths, so the output rows are packed at any width.
 */
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;     // tensor num for the queue
constexpr uint32_t TILE_ROWS = 8;     // rows moved per tile
constexpr uint32_t FLOATS_PER_BLOCK = 32 / sizeof(float);

class KernelStridedCopy {
public:
    __aicore__ inline KernelStridedCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t colStart,
                                uint32_t width)
    {
        uint32_t rowsPerBlock = (rows + AscendC::GetBlockNum() - 1) / AscendC::GetBlockNum();
        this->rowStart = rowsPerBlock * AscendC::GetBlockIdx();
        this->rowEnd = this->rowStart + rowsPerBlock < rows ? this->rowStart + rowsPerBlock : rows;
        this->cols = cols;
        this->width = width;
        this->alignedWidth = (width + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK;
        xGm.SetGlobalBuffer((__gm__ float *)x + colStart, rows * cols - colStart);
        yGm.SetGlobalBuffer((__gm__ float *)y, rows * width);
        pipe.InitBuffer(queBind, BUFFER_NUM, TILE_ROWS * this->alignedWidth * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t row = this->rowStart; row < this->rowEnd; row += TILE_ROWS) {
            uint32_t tileRows = this->rowEnd - row < TILE_ROWS ? this->rowEnd - row : TILE_ROWS;
            CopyIn(row, tileRows);
            CopyOut(row, tileRows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t tileRows)
    {
        AscendC::LocalTensor<float> local = queBind.AllocTensor<float>();
        AscendC::DataCopyParams params;
        params.blockCount = tileRows;
        params.blockLen = this->alignedWidth / FLOATS_PER_BLOCK;
        params.srcStride = (this->cols - this->alignedWidth) / FLOATS_PER_BLOCK;
        params.dstStride = 0;
        AscendC::DataCopy(local, xGm[row * this->cols], params);
        queBind.EnQue(local);
    }
    __aicore__ inline void CopyOut(uint32_t row, uint32_t tileRows)
    {
        AscendC::LocalTensor<float> local = queBind.DeQue<float>();
        // Each UB row starts on a 32-byte block; blockLen bytes of it go to a packed GM row.
        AscendC::DataCopyExtParams params{static_cast<uint16_t>(tileRows),
                                          static_cast<uint32_t>(this->width * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[row * this->width], local, params);
        queBind.FreeTensor(local);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> queBind;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t rowStart;
    uint32_t rowEnd;
    uint32_t cols;
    uint32_t width;
    uint32_t alignedWidth;
};

extern "C" __global__ __aicore__ void strided_copy_custom(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols,
                                                          uint32_t colStart, uint32_t width)
{
    KernelStridedCopy op;
    op.Init(x, y, rows, cols, colStart, width);
    op.Process();
}
