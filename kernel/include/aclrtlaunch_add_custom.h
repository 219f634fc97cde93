// What CANN's build generates for add_custom: the kernel's declaration, so host code can call
// ACLRT_LAUNCH_KERNEL(add_custom)(blockDim, stream, x, y, z, totalLength).
#pragma once
#include "acl/acl.h"
#include "kernel_operator.h"
extern "C" void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength);
extern "C" void add_custom_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength);
