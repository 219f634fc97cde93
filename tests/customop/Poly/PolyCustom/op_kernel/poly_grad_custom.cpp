// PolyGradCustom: dx = dy * p'(x); the tiling data holds the coefficients of p' (poly_common.h).
#include "poly_common.h"

extern "C" __global__ __aicore__ void poly_grad_custom(GM_ADDR dy, GM_ADDR x, GM_ADDR dx, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
#if ORIG_DTYPE_X == DT_FLOAT16
    KernelPoly<half, true> op;
#else
    KernelPoly<DTYPE_X, true> op;
#endif
    op.Init(dy, x, dx, tilingData.blockLength, tilingData.tileLength, tilingData.coeffNum, tilingData.coeffs);
    op.Process();
}
