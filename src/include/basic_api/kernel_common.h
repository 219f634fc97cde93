// kernel_common.h: the basic API's common helpers (asc-devkit include/basic_api/kernel_common.h:
// SetMaskNorm/SetMaskCount, GetHcclContext, ...; ops-nn conv3d_backprop_input_v2 includes it by
// this name); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
