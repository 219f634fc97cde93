// Host-side temporary-space sizes of the activation advanced APIs (ascsim/adv/activation.h), as
// asc-devkit include/adv_api/activation/{gelu_tiling.h, silu_tiling.h, swish_tiling.h} declare
// them and impl/adv_api/tiling/activation/{gelu_tiling_impl.cpp, silu_tiling.cpp,
// swish_tiling.cpp} compute them:
//   Gelu / FasterGelu / FasterGeluV2  min 3 * 256 B, max max(min, 3 * 4 B * elements)
//   Silu, Swish                       0 (they compute in dst)
#pragma once

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // asc-devkit include/adv_api/utils/types.h

uint32_t GetGeluMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize);
uint32_t GetGeluMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize);
void GetGeluMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                          uint32_t& maxValue, uint32_t& minValue);
void GetSiluTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                    const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetSwishTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                     const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC
