// What CANN's build generates for matmul_custom: the kernels' declarations, so host code can call
// ACLRT_LAUNCH_KERNEL(matmul_custom)(blockDim, stream, a, b, bias, c, workspace, tiling).
#pragma once
#include "acl/acl.h"
#include "kernel_operator.h"
extern "C" void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                              GM_ADDR tiling);
extern "C" void matmul_custom_half(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                   GM_ADDR tiling);
