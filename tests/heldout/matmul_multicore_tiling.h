// The Matmul tiling of held-out kernel 17 (matmul_multicore_tiling.cpp).
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

namespace heldout_mm {

// MultiCoreMatmulTiling for half A [M, K] x half B [K, N] -> float C, float bias, with SetDim(dim);
// GetTiling's result (-1 on failure).
int64_t MultiCoreTiling(int32_t M, int32_t N, int32_t K, int32_t dim, bool withBias,
                        TCubeTiling& tiling);

}  // namespace heldout_mm
