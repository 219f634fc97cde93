// CANN's include path of GetMatmulApiTiling (asc-devkit include/adv_api/matmul/constant_tiling.h).
#pragma once

// clang-format off
#include "kernel_operator.h"
#include "ascsim/matmul/matmul_config.h"
#include "ascsim/matmul/matmul_constant_tiling.h"
// clang-format on
