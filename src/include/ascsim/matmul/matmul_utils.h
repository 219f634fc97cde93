// The integer helpers CANN's lib/matmul_intf.h brings into AscendC (asc-devkit
// impl/adv_api/detail/matmul/utils/matmul_utils.h: Ceil, CeilAlign, CeilT, CeilAlignT, Align,
// AlignDown, MaxValue, MinValue; and
// batch_matmul_utils.h: the uint16_t CeilDiv / CeilAlign): Matmul
// kernels use them for their block arithmetic, e.g. `Ceil(tiling.M, tiling.singleCoreM)`. They
// overload the advanced API's tensor Ceil (ascsim/adv/math.h). A divisor of 0 faults, as CANN's
// CPU-debug assertion does, except in Align / AlignDown, which CANN defines to return 0 for it.
#pragma once

#include <cstdint>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/internal.h"

namespace ascsim::matmul {
[[noreturn]] inline void FaultNonPositiveDivisor(const char* api, long long divisor) {
  ascsim::aicore::Fault(
      ascsim::ErrorKind::kInvalidArgument,
      ascsim::aicore::Str(api, ": num2 is ", divisor, ", which should be larger than 0"));
}
}  // namespace ascsim::matmul

namespace AscendC {

template <typename T>
__aicore__ inline T Ceil(T num1, T num2) {
  if (!(num2 > 0)) ascsim::matmul::FaultNonPositiveDivisor("Ceil", static_cast<long long>(num2));
  return (num1 + num2 - 1) / num2;
}
template <typename T>
__aicore__ inline T CeilAlign(T num1, T num2) {
  if (!(num2 > 0)) {
    ascsim::matmul::FaultNonPositiveDivisor("CeilAlign", static_cast<long long>(num2));
  }
  return Ceil(num1, num2) * num2;
}
// The 16-bit forms of batch_matmul_utils.h ("invoked by the matmulV3 operator"): arguments
// convert to uint16_t and so does the result, as on the device.
__aicore__ inline uint16_t CeilDiv(uint16_t num1, uint16_t num2) {
  if (!(num2 > 0)) ascsim::matmul::FaultNonPositiveDivisor("CeilDiv", num2);
  return static_cast<uint16_t>((num1 + num2 - 1) / num2);
}
__aicore__ inline uint16_t CeilAlign(uint16_t num1, uint16_t num2) {
  if (!(num2 > 0)) ascsim::matmul::FaultNonPositiveDivisor("CeilAlign", num2);
  return static_cast<uint16_t>(CeilDiv(num1, num2) * num2);
}
template <typename T>
__aicore__ inline T CeilT(T num1, T num2) {
  if (!(num2 > 0)) ascsim::matmul::FaultNonPositiveDivisor("CeilT", static_cast<long long>(num2));
  return (num1 + num2 - 1) / num2;
}
template <typename T>
__aicore__ inline T CeilAlignT(T num1, T num2) {
  return CeilT(num1, num2) * num2;
}
// constexpr, and 0 for num2 == 0, as CANN's.
template <typename T>
__aicore__ constexpr T Align(T num1, T num2) {
  return num2 == 0 ? T(0) : (num1 + num2 - 1) / num2 * num2;
}
template <typename T>
__aicore__ constexpr T AlignDown(T num1, T num2) {
  return num2 == 0 ? T(0) : (num1 / num2) * num2;
}
template <typename T>
__aicore__ constexpr T MaxValue(T t) {
  return t;
}
template <typename T, typename... Args>
__aicore__ constexpr T MaxValue(T t, Args... args) {
  const T rest = MaxValue(args...);
  return t > rest ? t : rest;
}
template <typename T>
__aicore__ constexpr T MinValue(T t) {
  return t;
}
template <typename T, typename... Args>
__aicore__ constexpr T MinValue(T t, Args... args) {
  const T rest = MinValue(args...);
  return t < rest ? t : rest;
}

}  // namespace AscendC
