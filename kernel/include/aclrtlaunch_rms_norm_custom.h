// What CANN's build generates for rms_norm_custom: the kernels' declarations for
// ACLRT_LAUNCH_KERNEL(rms_norm_custom_half)(blockDim, stream, x, gamma, y, rstd, tiling). The half
// entry is not called rms_norm_custom: user kernels of that name (the RmsNorm API samples) may be
// linked into the same program.
#pragma once
#include "acl/acl.h"
#include "kernel_operator.h"
#include "rms_norm_custom_tiling.h"
extern "C" void rms_norm_custom_half(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                RmsNormCustomTilingData tiling);
extern "C" void rms_norm_custom_float(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                      RmsNormCustomTilingData tiling);
