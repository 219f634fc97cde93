// Host-side temporary-space sizes of AscendQuant (ascsim/adv/quant.h), as asc-devkit
// include/adv_api/quantization/ascend_quant_tiling.h declares them and impl/adv_api/tiling/
// quantization/ascend_quant_tiling_impl.cpp computes them: min 2 * 256 B, max max(min, 2 B *
// elements) rounded up to 32 B; 2 live nodes. An empty shape, a src that is not whole 32 B and a
// type size other than 2 or 4 are reported on stderr.
#pragma once

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // asc-devkit include/adv_api/utils/types.h

void GetAscendQuantMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                 uint32_t& maxValue, uint32_t& minValue);
void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

}  // namespace AscendC
