// What CANN's build generates for gelu_custom_backward: the kernels' declarations for
// ACLRT_LAUNCH_KERNEL(gelu_custom_backward)(blockDim, stream, dy, x, dx, totalLength).
#pragma once
#include "acl/acl.h"
#include "kernel_operator.h"
extern "C" void gelu_custom_backward(GM_ADDR dy, GM_ADDR x, GM_ADDR z, uint32_t totalLength);
extern "C" void gelu_custom_backward_float(GM_ADDR dy, GM_ADDR x, GM_ADDR z, uint32_t totalLength);
