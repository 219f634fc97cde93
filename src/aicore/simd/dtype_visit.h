// The one visitor over simd::DType: turns a run-time element type into a C++ type.
#pragma once

#include <cstdint>

#include "ascsim/aicore/simd/vector_math.h"
#include "ascsim/half.h"

namespace ascsim::simd {

// Calls f(T{}) for the element type T that `t` names (half, bfloat16_t, float, the 8..64-bit
// integers). A caller that serves fewer types narrows inside f with `if constexpr`.
template <class F>
void VisitDType(DType t, F&& f) {
  switch (t) {
    case DType::kF16:
      f(half{});
      return;
    case DType::kBF16:
      f(bfloat16_t{});
      return;
    case DType::kF32:
      f(float{});
      return;
    case DType::kI8:
      f(int8_t{});
      return;
    case DType::kU8:
      f(uint8_t{});
      return;
    case DType::kI16:
      f(int16_t{});
      return;
    case DType::kU16:
      f(uint16_t{});
      return;
    case DType::kI32:
      f(int32_t{});
      return;
    case DType::kU32:
      f(uint32_t{});
      return;
    case DType::kI64:
      f(int64_t{});
      return;
    case DType::kU64:
      f(uint64_t{});
      return;
  }
}

}  // namespace ascsim::simd
