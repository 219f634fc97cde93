// TplAddReluCustom: z = x + y, then ReLU when the attribute asks for it. A template kernel: the
// data type, the tiles per core and the ReLU come from the tiling key (tpl_add_relu_custom_tpl.h).
#include "kernel_operator.h"
#include "tpl_add_relu_custom_tiling.h"
#include "tpl_add_relu_custom_tpl.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T, uint32_t TILES, bool RELU>
class KernelTplAddRelu {
public:
    __aicore__ inline KernelTplAddRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const TplAddReluTilingData &t)
    {
        blockLength = t.blockLength;
        tileLength = t.tileLength;
        const uint64_t offset = static_cast<uint64_t>(blockLength) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ T *)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ T *)z + offset, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < TILES * BUFFER_NUM; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[progress * tileLength], tileLength);
        AscendC::DataCopy(yLocal, yGm[progress * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        AscendC::Add(zLocal, xLocal, yLocal, tileLength);
        if constexpr (RELU) {
            AscendC::Relu(zLocal, zLocal, tileLength);
        }
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        AscendC::DataCopy(zGm[progress * tileLength], zLocal, tileLength);
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    AscendC::GlobalTensor<T> zGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
};

template <int D_T, uint32_t TILES, bool RELU>
__global__ __aicore__ void tpl_add_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                               GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TplAddReluTilingData);
    GET_TILING_DATA_WITH_STRUCT(TplAddReluTilingData, tilingData, tiling);
    KernelTplAddRelu<typename TypeFromId<D_T>::type, TILES, RELU> op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
