// Sort / Concat temporary sizes (tiling/sort_tiling.h), with CANN's host messages on stderr.
#include "tiling/sort_tiling.h"

#include <cstdio>

namespace AscendC {
namespace {

// CheckSortHostCommon: each problem on stderr; CANN's asserts return from the check only.
void CheckSortHost(const char* func, const platform_ascendc::PlatformAscendC& platform,
                   uint32_t elemCount, uint32_t typeSize) {
  if (elemCount == 0) {
    std::fprintf(stderr, "[Sort][%s] The elemCount must be greater than 0.\n", func);
    return;
  }
  if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr, "[Sort][%s] Type size %u is unsupported!\n", func, typeSize);
    return;
  }
  uint64_t ub = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  const uint64_t bytes = uint64_t{elemCount} * typeSize;
  if (bytes >= ub) {
    std::fprintf(stderr, "[Sort][%s] The size of srcShape is %lluB, should be less than UB size.\n",
                 func, static_cast<unsigned long long>(bytes));
  }
}

// The archs whose Sort works on (score, index) pairs (sort_tiling_impl.cpp: DAV_2201, 3510, 3003).
bool PairLayout(const platform_ascendc::PlatformAscendC& platform) {
  const uint32_t arch = static_cast<uint32_t>(platform.GetCurNpuArch());
  return arch == 2201 || arch == 3510 || arch == 3003;
}

}  // namespace

uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                          const uint32_t elemCount, const uint32_t dataTypeSize) {
  CheckSortHost("GetConcatTmpSize", ascendcPlatform, elemCount, dataTypeSize);
  if (PairLayout(ascendcPlatform)) return 0;
  return elemCount * REGION_PROPOSAL_DATA_SIZE_V200 * dataTypeSize;
}

uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                        const uint32_t elemCount, const uint32_t dataTypeSize) {
  CheckSortHost("GetSortTmpSize", ascendcPlatform, elemCount, dataTypeSize);
  if (PairLayout(ascendcPlatform)) {
    return elemCount *
           (dataTypeSize == sizeof(float) ? REGION_PROPOSAL_DATA_SIZE_FLOAT_V220
                                          : REGION_PROPOSAL_DATA_SIZE_HALF_V220) *
           dataTypeSize;
  }
  return elemCount * REGION_PROPOSAL_DATA_SIZE_V200 * dataTypeSize;
}

}  // namespace AscendC
