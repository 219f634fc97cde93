/**
 * @file rms_norm_custom.cpp
 * RMSNorm over the last axis, as CANN's RmsNorm operator defines it (ops-nn norm/rms_norm,
 * README "计算公式"; aclnnRmsNorm):
 *     rstd = 1 / sqrt(mean(x^2) + epsilon),   y = x * rstd * gamma,
 * for x of numRow rows of numCol elements and gamma of numCol, half or float in and out, the sum of
 * squares and the products in float. The steps are those of ops-nn's KernelRmsNorm
 * (op_kernel/rms_norm.h) for a row that fits in UB: Cast x to float, Mul x*x, ReduceSum, the
 * scalar rstd = 1 / sqrt(sum * avgFactor + epsilon) after a V->S sync, Muls by rstd, Mul by gamma
 * in float, Cast to half with CAST_NONE. rstd (float, one per row) is written too, rowFactor rows
 * at a time, as the operator's second output. gamma is moved in and cast to float once per block.
 * Rows whose bytes are not a multiple of 32 B are moved with DataCopyPad.
 */
#include <cmath>   // the scalar sqrt (CANN's kernel toolchain provides it without the include)

#include "kernel_operator.h"
#include "rms_norm_custom_tiling.h"

constexpr int32_t RMS_NORM_BUFFER_NUM = 2;

template <typename T>
class KernelRmsNormCustom {
public:
    __aicore__ inline KernelRmsNormCustom() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                const RmsNormCustomTilingData &tiling)
    {
        this->numCol = tiling.numCol;
        this->rowFactor = tiling.rowFactor;
        this->epsilon = tiling.epsilon;
        this->avgFactor = tiling.avgFactor;
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        const uint64_t firstRow = static_cast<uint64_t>(blockIdx) * tiling.blockFactor;
        this->rowWork = firstRow >= tiling.numRow ? 0 :
            (tiling.numRow - firstRow < tiling.blockFactor ? tiling.numRow - firstRow : tiling.blockFactor);
        xGm.SetGlobalBuffer((__gm__ T *)x + firstRow * numCol, static_cast<uint64_t>(rowWork) * numCol);
        yGm.SetGlobalBuffer((__gm__ T *)y + firstRow * numCol, static_cast<uint64_t>(rowWork) * numCol);
        gammaGm.SetGlobalBuffer((__gm__ T *)gamma, numCol);
        rstdGm.SetGlobalBuffer((__gm__ float *)rstd + firstRow, rowWork);
        pipe.InitBuffer(inQueueX, RMS_NORM_BUFFER_NUM, numCol * sizeof(T));
        pipe.InitBuffer(outQueueY, RMS_NORM_BUFFER_NUM, numCol * sizeof(T));
        pipe.InitBuffer(inQueueGamma, 1, numCol * sizeof(T));
        pipe.InitBuffer(outQueueRstd, RMS_NORM_BUFFER_NUM, rowFactor * sizeof(float));
        pipe.InitBuffer(sqxBuf, numCol * sizeof(float));
        pipe.InitBuffer(workBuf, (numCol + 63) / 64 * sizeof(float));
        pipe.InitBuffer(sumBuf, 32);
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(xFloatBuf, numCol * sizeof(float));
            pipe.InitBuffer(gammaFloatBuf, numCol * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        if (rowWork == 0) {
            return;
        }
        CopyInGamma();
        AscendC::LocalTensor<T> gammaLocal = inQueueGamma.DeQue<T>();
        AscendC::LocalTensor<float> gammaFloat;
        if constexpr (std::is_same_v<T, float>) {
            gammaFloat = gammaLocal;
        } else {
            gammaFloat = gammaFloatBuf.Get<float>();
            AscendC::Cast(gammaFloat, gammaLocal, AscendC::RoundMode::CAST_NONE, numCol);
        }
        const uint32_t groups = (rowWork + rowFactor - 1) / rowFactor;
        for (uint32_t g = 0; g < groups; g++) {
            const uint32_t rows = rowWork - g * rowFactor < rowFactor ? rowWork - g * rowFactor : rowFactor;
            AscendC::LocalTensor<float> rstdLocal = outQueueRstd.AllocTensor<float>();
            for (uint32_t r = 0; r < rows; r++) {
                const uint64_t row = static_cast<uint64_t>(g) * rowFactor + r;
                CopyIn(row);
                Compute(r, gammaFloat, rstdLocal);
                CopyOutY(row);
            }
            outQueueRstd.EnQue<float>(rstdLocal);
            CopyOutRstd(g, rows);
        }
        inQueueGamma.FreeTensor(gammaLocal);
    }

private:
    __aicore__ inline bool Aligned(uint32_t count, uint32_t typeSize) { return (count * typeSize) % 32 == 0; }
    template <typename U>
    __aicore__ inline void CopyRowIn(const AscendC::LocalTensor<U> &dst, const AscendC::GlobalTensor<U> &src,
                                     uint32_t count)
    {
        if (Aligned(count, sizeof(U))) {
            AscendC::DataCopy(dst, src, count);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(U)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<U> padParams{false, 0, 0, U(0)};
            AscendC::DataCopyPad(dst, src, copyParams, padParams);
        }
    }
    template <typename U>
    __aicore__ inline void CopyRowOut(const AscendC::GlobalTensor<U> &dst, const AscendC::LocalTensor<U> &src,
                                      uint32_t count)
    {
        if (Aligned(count, sizeof(U))) {
            AscendC::DataCopy(dst, src, count);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(U)), 0, 0, 0};
            AscendC::DataCopyPad(dst, src, copyParams);
        }
    }
    __aicore__ inline void CopyInGamma()
    {
        AscendC::LocalTensor<T> gammaLocal = inQueueGamma.AllocTensor<T>();
        CopyRowIn(gammaLocal, gammaGm, numCol);
        inQueueGamma.EnQue(gammaLocal);
    }
    __aicore__ inline void CopyIn(uint64_t row)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        CopyRowIn(xLocal, xGm[row * numCol], numCol);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t r, const AscendC::LocalTensor<float> &gammaFloat,
                                   const AscendC::LocalTensor<float> &rstdLocal)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<float> sqx = sqxBuf.Get<float>();
        AscendC::LocalTensor<float> sum = sumBuf.Get<float>();
        AscendC::LocalTensor<float> xFloat;
        if constexpr (std::is_same_v<T, float>) {
            xFloat = xLocal;
        } else {
            xFloat = xFloatBuf.Get<float>();
            AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, numCol);
        }
        // 1. x^2 and its sum (float)
        AscendC::Mul(sqx, xFloat, xFloat, numCol);
        AscendC::ReduceSum(sum, sqx, workBuf.Get<float>(), numCol);
        // 2. rstd = 1 / sqrt(sum / numCol + epsilon) on the scalar unit
        event_t eventVS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventVS);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventVS);
        const float rstdValue = 1.0f / sqrt(sum.GetValue(0) * avgFactor + epsilon);
        rstdLocal.SetValue(r, rstdValue);
        event_t eventSV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(eventSV);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(eventSV);
        // 3. y = x * rstd * gamma (float), rounded once to T
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::Muls(sqx, xFloat, rstdValue, numCol);
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Mul(yLocal, sqx, gammaFloat, numCol);
        } else {
            AscendC::Mul(sqx, sqx, gammaFloat, numCol);
            AscendC::Cast(yLocal, sqx, AscendC::RoundMode::CAST_NONE, numCol);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOutY(uint64_t row)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        CopyRowOut(yGm[row * numCol], yLocal, numCol);
        outQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOutRstd(uint32_t group, uint32_t rows)
    {
        AscendC::LocalTensor<float> rstdLocal = outQueueRstd.DeQue<float>();
        CopyRowOut(rstdGm[static_cast<uint64_t>(group) * rowFactor], rstdLocal, rows);
        outQueueRstd.FreeTensor(rstdLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, RMS_NORM_BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueGamma;
    AscendC::TQue<AscendC::QuePosition::VECOUT, RMS_NORM_BUFFER_NUM> outQueueY, outQueueRstd;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sqxBuf, workBuf, sumBuf, xFloatBuf, gammaFloatBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> gammaGm;
    AscendC::GlobalTensor<T> yGm;
    AscendC::GlobalTensor<float> rstdGm;
    uint32_t numCol;
    uint32_t rowWork;
    uint32_t rowFactor;
    float epsilon;
    float avgFactor;
};

extern "C" __global__ __aicore__ void rms_norm_custom_half(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                                      RmsNormCustomTilingData tiling)
{
    KernelRmsNormCustom<half> op;
    op.Init(x, gamma, y, rstd, tiling);
    op.Process();
}

extern "C" __global__ __aicore__ void rms_norm_custom_float(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                                            RmsNormCustomTilingData tiling)
{
    KernelRmsNormCustom<float> op;
    op.Init(x, gamma, y, rstd, tiling);
    op.Process();
}
