// The kernel PolyCustom and PolyGradCustom share: Horner's rule over one tile,
// acc = c(n-1); acc = acc * x + c(k) for k = n-2 .. 0; the backward then multiplies by dy.
#ifndef POLY_COMMON_H
#define POLY_COMMON_H
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_COEFFS = 8;

template <typename T, bool WITH_DY>
class KernelPoly {
public:
    __aicore__ inline KernelPoly() {}
    __aicore__ inline void Init(GM_ADDR dy, GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength,
                                uint32_t coeffNum, const float* coeffs)
    {
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        this->coeffNum = coeffNum;
        for (uint32_t i = 0; i < MAX_COEFFS; i++) {
            this->coeffs[i] = coeffs[i];
        }
        const uint64_t offset = static_cast<uint64_t>(blockLength) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (WITH_DY) {
            dyGm.SetGlobalBuffer((__gm__ T*)dy + offset, blockLength);
            pipe.InitBuffer(inQueueDy, BUFFER_NUM, tileLength * sizeof(T));
        }
    }
    __aicore__ inline void Process()
    {
        const uint32_t loops = blockLength / tileLength;
        for (uint32_t i = 0; i < loops; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[progress * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
        if constexpr (WITH_DY) {
            AscendC::LocalTensor<T> dyLocal = inQueueDy.AllocTensor<T>();
            AscendC::DataCopy(dyLocal, dyGm[progress * tileLength], tileLength);
            inQueueDy.EnQue(dyLocal);
        }
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::Duplicate(yLocal, static_cast<T>(coeffs[coeffNum - 1]), tileLength);
        for (int32_t k = static_cast<int32_t>(coeffNum) - 2; k >= 0; k--) {
            AscendC::Mul(yLocal, yLocal, xLocal, tileLength);
            AscendC::Adds(yLocal, yLocal, static_cast<T>(coeffs[k]), tileLength);
        }
        if constexpr (WITH_DY) {
            AscendC::LocalTensor<T> dyLocal = inQueueDy.DeQue<T>();
            AscendC::Mul(yLocal, yLocal, dyLocal, tileLength);
            inQueueDy.FreeTensor(dyLocal);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopy(yGm[progress * tileLength], yLocal, tileLength);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueDy;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<T> dyGm;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t coeffNum = 1;
    float coeffs[MAX_COEFFS] = {0};
};
#endif  // POLY_COMMON_H
