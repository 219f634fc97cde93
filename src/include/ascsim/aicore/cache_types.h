// The cache-control enums of the Ascend C API: GlobalTensor::SetL2CacheHint takes a CacheMode,
// DataCacheCleanAndInvalid a CacheLine and a DcciDst. Values as asc-devkit
// impl/basic_api/utils/kernel_utils_macros.h (CacheMode, CacheRwMode) and
// impl/basic_api/kernel_reg.h (CacheLine, DcciDst).
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"

namespace AscendC {

enum class CacheMode {
  CACHE_MODE_DISABLE = 0,
  CACHE_MODE_NORMAL = 1,
  CACHE_MODE_LAST = 2,
  CACHE_MODE_PERSISTENT = 4
};
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

}  // namespace AscendC
