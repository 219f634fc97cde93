// CANN's per-API include path of GeGLU (asc-devkit include/adv_api/activation/kernel_operator_geglu_intf.h; older trees
// and production kernels reach the activation APIs as lib/activation/...). ascsim's
// kernel_operator.h declares it (ascsim/adv/activation_glu.h).
#pragma once

#include "kernel_operator.h"
