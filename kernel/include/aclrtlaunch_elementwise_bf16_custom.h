// What CANN's build generates for the bfloat16 element-wise kernels: their declarations for
// ACLRT_LAUNCH_KERNEL(add_custom_bf16)(blockDim, stream, x, y, z, totalLength) and the others.
#pragma once
#include "acl/acl.h"
#include "kernel_operator.h"
extern "C" void add_custom_bf16(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength);
extern "C" void gelu_custom_bf16(GM_ADDR x, GM_ADDR y, uint32_t totalLength);
extern "C" void gelu_custom_backward_bf16(GM_ADDR dy, GM_ADDR x, GM_ADDR z, uint32_t totalLength);
