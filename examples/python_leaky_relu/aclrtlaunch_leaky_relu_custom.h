// What CANN's build generates for leaky_relu_custom: the kernel's declaration, so host code can
// call ACLRT_LAUNCH_KERNEL(leaky_relu_custom)(blockDim, stream, x, y, totalLength, alpha).
#pragma once
#include "acl/acl.h"
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, uint32_t totalLength,
                                                        float alpha);
