// Scalar computation (docs 基础API/标量计算): ToFloat / ToBfloat16 / the scalar Cast, ScalarCast,
// GetUintDivMagicAndShift (Ascend 950 only: rejected at compile time here).
// Sources: asc-devkit include/basic_api/kernel_operator_{common,cache,scalar,sys_var,vec_vconv,
// vec_reduce}_intf.h, impl/basic_api/dav_c220/kernel_operator_common_impl.h,
// impl/basic_api/kernel_operator_common_intf_impl.h (InitOutput), impl/basic_api/kernel_scalar*.h,
// impl/basic_api/kernel_utils_base.h (AscendCUtils), impl/basic_api/utils/kernel_utils_constants.h
// (RESERVED_WORKSPACE) and the API pages under docs/zh/api/SIMD-API/基础API/
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/types.h"

namespace ascsim::aicore {

// One element through the vector Cast's conversion (the scalar unit's conv_* instructions round
// the same way): float -> half (`to_half`) or float -> int32_t under `mode`.
void ScalarCastValue(float value, bool to_half, AscendC::RoundMode mode, void* out);

}  // namespace ascsim::aicore

namespace AscendC {

// ---------------------------------------------------------------- scalar conversions
// bfloat16_t <-> float on the scalar unit (kernel_scalar_convert.h): exact widening; narrowing
// rounds to nearest even, overflow to inf, and every NaN becomes 0x7FFF.
inline float Cast(const bfloat16_t& bVal) { return float(bVal); }
inline bfloat16_t Cast(const float& fVal) {
  if (fVal != fVal) return bfloat16_t::FromRaw(0x7FFF);
  return bfloat16_t(fVal);
}
// The older names (non-templates as on A2, so a half argument does not convert).
inline float ToFloat(const bfloat16_t& bVal) { return Cast(bVal); }
inline bfloat16_t ToBfloat16(const float& fVal) { return Cast(fVal); }

// float -> half (CAST_ODD only) or float -> int32_t (CAST_ROUND/CEIL/FLOOR/RINT) on the scalar
// unit (kernel_scalar.h CastImpl).
template <class T, class U, RoundMode roundMode>
U ScalarCast(T valueIn) {
  static_assert(std::is_same_v<U, half> || std::is_same_v<U, int32_t>,
                "ScalarCast: U is half or int32_t");
  static_assert(!std::is_same_v<U, half> || roundMode == RoundMode::CAST_ODD,
                "ScalarCast to half supports RoundMode::CAST_ODD only");
  static_assert(!std::is_same_v<U, int32_t> ||
                    (roundMode == RoundMode::CAST_ROUND || roundMode == RoundMode::CAST_CEIL ||
                     roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_RINT),
                "ScalarCast to int32_t supports CAST_ROUND, CAST_CEIL, CAST_FLOOR, CAST_RINT");
  U out;
  ascsim::aicore::ScalarCastValue(static_cast<float>(valueIn), std::is_same_v<U, half>, roundMode,
                                  &out);
  return out;
}

// Exists only on Ascend 950 (kernel_operator_scalar_intf_impl.h: __NPU_ARCH__ 3510/5102).
template <class T>
void GetUintDivMagicAndShift(T& magic, T& shift, T divisor) {
  static_assert(sizeof(T) == 0,
                "ascsim: GetUintDivMagicAndShift exists only on Ascend 950 (__NPU_ARCH__ 3510); "
                "Atlas A2/A3 and the 310P have no such API");
  (void)magic, (void)shift, (void)divisor;
}

}  // namespace AscendC
