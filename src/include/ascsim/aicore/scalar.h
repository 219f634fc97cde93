// Scalar computation (docs 基础API/标量计算): ToFloat / ToBfloat16 / the scalar Cast, ScalarCast,
// the bit counts (GetBitCount, CountLeadingZero, CountBitsCntSameAsSignBit, GetSFFValue),
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

// CANN's newer name of ScalarCast (kernel_operator_scalar_intf.h).
template <class T, class U, RoundMode roundMode>
U Cast(T valueIn) {
  return ScalarCast<T, U, roundMode>(valueIn);
}

// ---------------------------------------------------------------- bit counting
// The scalar unit's bit instructions (kernel_scalar.h: bcnt0/bcnt1, clz, sflbits, sff0/sff1),
// with CANN's older Scalar* names beside the newer ones (kernel_operator_scalar_intf.h).

// The number of bits of valueIn equal to countValue (0 or 1).
template <int countValue>
int64_t GetBitCount(uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1, "countValue must be 1 or 0");
  const int64_t ones = __builtin_popcountll(valueIn);
  return countValue == 1 ? ones : 64 - ones;
}
template <int countValue>
int64_t ScalarGetCountOfValue(uint64_t valueIn) {
  return GetBitCount<countValue>(valueIn);
}

// Zeros above the highest 1 (64 for 0).
inline int64_t CountLeadingZero(uint64_t valueIn) {
  return valueIn == 0 ? 64 : __builtin_clzll(valueIn);
}
inline int64_t ScalarCountLeadingZero(uint64_t valueIn) { return CountLeadingZero(valueIn); }

// Bits below the sign bit equal to it, counted from the top; -1 for 0 and -1 (all bits equal).
inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn) {
  if (valueIn == 0 || valueIn == -1) return -1;
  const uint64_t bits = static_cast<uint64_t>(valueIn);
  const uint64_t sameAsSign = (bits >> 63) != 0 ? ~bits : bits;  // leading zeros now
  return __builtin_clzll(sameAsSign) - 1;
}

// The position (from bit 0) of the lowest bit equal to countValue; -1 when there is none.
template <int countValue>
int64_t GetSFFValue(uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1, "countValue must be 1 or 0");
  const uint64_t bits = countValue == 1 ? valueIn : ~valueIn;
  return bits == 0 ? -1 : __builtin_ctzll(bits);
}
template <int countValue>
int64_t ScalarGetSFFValue(uint64_t valueIn) {
  return GetSFFValue<countValue>(valueIn);
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
