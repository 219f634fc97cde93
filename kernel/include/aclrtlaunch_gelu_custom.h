// What CANN's build generates for gelu_custom: the kernel's declaration for ACLRT_LAUNCH_KERNEL.
#pragma once
#include "acl/acl.h"
#include "kernel_operator.h"
extern "C" void gelu_custom(GM_ADDR x, GM_ADDR y, uint32_t totalLength);
extern "C" void gelu_custom_float(GM_ADDR x, GM_ADDR y, uint32_t totalLength);
