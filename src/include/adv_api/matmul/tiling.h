// CANN's include path of the Matmul configuration helpers (asc-devkit
// include/adv_api/matmul/tiling.h: MatmulConfig, GetNormalConfig / GetMDLConfig / ..., CFG_NORM,
// CFG_MDL, MatmulApiStaticTiling), which production kernels include without lib/matmul_intf.h.
#pragma once

// clang-format off
#include "kernel_operator.h"
#include "ascsim/matmul/matmul_config.h"
// clang-format on
