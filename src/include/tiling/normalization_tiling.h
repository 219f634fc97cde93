// Host-side tiling of the normalization advanced APIs (ascsim/adv/normalization.h), as asc-devkit
// include/adv_api/normalization/layernorm_tiling.h declares it and impl/adv_api/tiling/
// normalization/layernorm_tiling_impl.cpp computes it (Atlas A2/A3 branch):
//   GetLayerNormMaxMinTmpSize      srcShape {B, S, storageHLength, originHLength}: max = 3 (2 for
//                                  float with isReuseSource) * B*S*H floats + 2 * B*S floats, each
//                                  rounded up to 32 B; min the same with one row (H) per piece
//   GetLayerNormNDTilingInfo       the LayerNormTiling fields for that shape and stackBufferSize
//                                  (pieces of whole rows; the float mean/variance of half first)
//                                  into the kernel struct AscendC::tiling::LayerNormTiling
//   GetWelfordUpdateMaxMinTmpSize  srcShape [rnLength, abLength]; min one 256 B repeat per float
//                                  piece (3 for half, 2 for float, 1 for float with
//                                  isReuseSource), max that times the repeats of the shape
#pragma once

#include <cstdint>

#include "ascsim/adv/kernel_tiling_structs.h"
#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // asc-devkit include/adv_api/utils/types.h

// A bad shape or type size is reported on stderr ("[LayerNorm][<function>] ...") and leaves the
// outputs unset.
void GetLayerNormMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                               const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetLayerNormNDTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              AscendC::tiling::LayerNormTiling& tiling);

void GetWelfordUpdateMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSizeT,
                                   const uint32_t typeSizeU, const bool isReuseSource,
                                   const bool isInplace, uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC
