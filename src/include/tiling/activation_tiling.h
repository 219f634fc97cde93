// Host-side temporary-space sizes of the activation advanced APIs (ascsim/adv/activation.h), as
// asc-devkit include/adv_api/activation/{gelu_tiling.h, silu_tiling.h, swish_tiling.h} declare
// them and impl/adv_api/tiling/activation/{gelu_tiling_impl.cpp, silu_tiling.cpp,
// swish_tiling.cpp} compute them:
//   Gelu / FasterGelu / FasterGeluV2  min 3 * 256 B, max max(min, 3 * 4 B * elements)
//   Silu, Swish                       0 (they compute in dst)
//   SwiGLU, GeGLU, ReGlu              below
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

// SwiGLU, GeGLU, ReGlu (ascsim/adv/activation_glu.h; asc-devkit impl/adv_api/tiling/activation/
// {swiglu_tiling.cpp, geglu_tiling.cpp, reglu_tiling_impl.cpp}): float needs none (SwiGLU,
// GeGLU) or one 256 B repeat (ReGlu); half (and bfloat16_t for ReGlu) 6 (SwiGLU), 4 (GeGLU) or 6
// (ReGlu) typeSize units per element, at least one 256 B repeat per unit. Type sizes other than
// 2 and 4, an empty shape and isReuseSource are reported on stderr; ReGlu returns without sizes
// for isReuseSource, as CANN does. Note SwiGLU's argument order (isReuseSource last).
void GetSwiGLUMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                            uint32_t& maxValue, uint32_t& minValue, const bool isReuseSource);
void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                  uint32_t& extraBuffer);
void GetGeGLUMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf);
void GetReGluMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC
