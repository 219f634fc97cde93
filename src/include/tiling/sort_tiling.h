// Host-side temporary sizes of the Sort and Concat advanced APIs (ascsim/adv/topk.h), as asc-devkit
// include/adv_api/sort/sort_tiling_intf.h declares them and impl/adv_api/tiling/sort/
// sort_tiling_impl.cpp computes them (docs/zh/api/SIMD-API/高阶API/排序操作/GetSortTmpSize.md):
//   GetSortTmpSize    elemCount * dataTypeSize * 2 (float) or * 4 (half) bytes on arch 2201 /
//                     3510 / 3003 (the (score, index) pairs of 8 B), * 8 on the others (region
//                     proposals)
//   GetConcatTmpSize  0 on 2201 / 3510 / 3003 (Concat needs no scratch there), elemCount *
//                     dataTypeSize * 8 on the others
// Both check their arguments as CheckSortHostCommon does and report a bad one on stderr
// ("[Sort][GetSortTmpSize] ..."), computing the size anyway, as CANN's host asserts do.
#pragma once

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_V200 = 8;
constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_HALF_V220 = 4;
constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_FLOAT_V220 = 2;

uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                          const uint32_t elemCount, const uint32_t dataTypeSize);
uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                        const uint32_t elemCount, const uint32_t dataTypeSize);

}  // namespace AscendC
