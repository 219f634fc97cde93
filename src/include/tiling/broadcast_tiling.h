// Host-side tiling of Broadcast / BroadCast (ascsim/adv/broadcast.h): GetBroadCastMaxMinTmpSize,
// the temporary space the kernel's sharedTmpBuffer form needs. Signature and rules from asc-devkit
// include/adv_api/pad/broadcast_tiling.h and impl/adv_api/tiling/pad/broadcast_tiling.cpp (docs
// "GetBroadCastMaxMinTmpSize"): Atlas A2/A3 (DAV_2201) and 310P (DAV_2002) take one- or
// two-dimensional shapes of equal rank, each source dim equal to its destination dim or 1, and a
// typeSize of 1, 2 or 4 (int8 / uint8 are cast through a 16-bit copy, which adds its own space).
// A call that breaks a rule is reported on stderr and leaves maxValue / minValue unset, as CANN's
// host asserts do. Implemented in libascsim (src/host/tiling/broadcast_tiling.cpp).
#pragma once

#include <cstdint>

#include "graph/tensor.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
#ifndef ASCSIM_TENSOR_SHAPE_DEFINED
#define ASCSIM_TENSOR_SHAPE_DEFINED
using TensorShape = ge::Shape;  // asc-devkit include/adv_api/utils/types.h
#endif
void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                               const AscendC::TensorShape& srcShape,
                               const AscendC::TensorShape& dstShape, uint32_t typeSize,
                               const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
}  // namespace AscendC
