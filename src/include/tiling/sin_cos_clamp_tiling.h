// Host-side temporary-space sizes of Sin, Cos (ascsim/adv/math_trig.h) and ClampMax / ClampMin
// (ascsim/adv/math_clamp.h), as asc-devkit include/adv_api/math/{sin_tiling.h, cos_tiling.h,
// clamp_tiling.h} declare them (Atlas A2/A3 forms) and impl/adv_api/tiling/math/
// {sin_tiling_impl.cpp, cos_tiling_impl.cpp, clamp_tiling_impl.cpp} compute them. Sin and Cos
// need 8 B per half element and 12 B (8 B with isReuseSource) per float element, at least one
// 256 B repeat of each; Clamp needs 128 B (half) or 64 B (float) and one byte per element at most.
#pragma once

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;  // asc-devkit include/adv_api/utils/types.h

void GetSinMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetSinTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuf);
void GetCosMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetCosTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuf);
// Cosh (ascsim/adv/math_cosh.h; asc-devkit include/adv_api/math/cosh_tiling.h,
// impl/adv_api/tiling/math/cosh_tiling_impl.cpp): 2 (float) or 6 (half) typeSize units per element,
// at least one 256 B repeat per unit; isReuseSource changes nothing.
void GetCoshMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                          const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetCoshTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer);
// Sinh (ascsim/adv/math_sinh.h; asc-devkit include/adv_api/math/sinh_tiling.h,
// impl/adv_api/tiling/math/sinh_tiling_impl.cpp): 1 (float) or 4 (half) typeSize units per element,
// at least one 256 B repeat per unit; isReuseSource changes nothing.
void GetSinhMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                          const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetSinhTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuf);
// Asin (ascsim/adv/math_asin.h; asc-devkit include/adv_api/math/asin_tiling.h,
// impl/adv_api/tiling/math/asin_tiling_impl.cpp): 2 (float) or 6 (half) units of the input bytes,
// at least one 256 B repeat per unit; isReuseSource changes nothing.
void GetAsinMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                          const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetAsinTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer);
// Acos (ascsim/adv/math_acos_atan.h; asc-devkit impl/adv_api/tiling/math/acos_tiling_impl.cpp):
// as Asin, 2 (float) or 6 (half) units. Atan (atan_tiling_impl.cpp): 5 (float) or 12 (half) units
// of the input bytes, at least one 256 B repeat per unit; isReuseSource changes nothing.
void GetAcosMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                          const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetAcosTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer);
void GetAtanMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                          const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetAtanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuf);
// Asinh (ascsim/adv/math_asinh.h; asc-devkit impl/adv_api/tiling/math/asinh_tiling.cpp): 3 units
// of the input bytes for both types, at least one 256 B repeat per unit (the half kernel's pieces
// are 3 floats per element, so a half call with the maximum runs in pieces of half the input).
void GetAsinhMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetAsinhTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf);
// Tan (ascsim/adv/math_tan.h; asc-devkit include/adv_api/math/tan_tiling.h,
// impl/adv_api/tiling/math/tan_tiling_impl.cpp): 4 (float) or 10 (half) units of the input bytes,
// at least one 256 B repeat per unit; isReuseSource changes nothing.
void GetTanMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetTanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuf);
// Xor (ascsim/adv/math_xor.h; asc-devkit impl/adv_api/tiling/math/xor_tiling.cpp): min 256 B,
// max max(256, elements * typeSize); 1 live node.
void GetXorMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetXorTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuffer);
void GetClampMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetClampTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf);

}  // namespace AscendC
