// CANN's per-API include path of SwiGLU (asc-devkit include/adv_api/activation/swiglu.h; older trees
// and production kernels reach the activation APIs as lib/activation/...). ascsim's
// kernel_operator.h declares it (ascsim/adv/activation_glu.h).
#pragma once

#include "kernel_operator.h"
