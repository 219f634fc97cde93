// PolyCustom: y = p(x) with the coefficients of the tiling data (poly_common.h).
#include "poly_common.h"

extern "C" __global__ __aicore__ void poly_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
#if ORIG_DTYPE_X == DT_FLOAT16
    KernelPoly<half, false> op;
#else
    KernelPoly<DTYPE_X, false> op;
#endif
    op.Init(nullptr, x, y, tilingData.blockLength, tilingData.tileLength, tilingData.coeffNum, tilingData.coeffs);
    op.Process();
}
