// Host-side tiling of the normalization advanced APIs (ascsim/adv/normalization.h), as asc-devkit
// include/adv_api/normalization/layernorm_tiling.h declares it and impl/adv_api/tiling/
// normalization/layernorm_tiling_impl.cpp computes it (Atlas A2/A3 branch):
//   GetWelfordUpdateMaxMinTmpSize  srcShape [rnLength, abLength]; min one 256 B repeat per float
//                                  piece (3 for half, 2 for float, 1 for float with
//                                  isReuseSource), max that times the repeats of the shape
#pragma once

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // asc-devkit include/adv_api/utils/types.h

void GetWelfordUpdateMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSizeT,
                                   const uint32_t typeSizeU, const bool isReuseSource,
                                   const bool isInplace, uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC
