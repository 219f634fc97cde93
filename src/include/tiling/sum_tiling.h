// Host-side temporary-space size of Sum (ascsim/adv/reduce.h), as asc-devkit
// include/adv_api/reduce/sum_tiling.h declares it and impl/adv_api/tiling/reduce/sum_tiling.cpp
// computes it: the first level's partial sums (one per 256 B repeat of n elements), rounded up to
// whole 32 B blocks; the maximum and minimum are the same.
#pragma once

#include <cstdint>

namespace AscendC {

void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxSize, uint32_t& minSize);

}  // namespace AscendC
