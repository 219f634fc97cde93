// Integer rounding, defined once for ascsim's own code: a quotient rounded up, and a value
// rounded up to a multiple. (The kernel API's own spellings, AscendC::DivCeil / AlignUp /
// Ceil / CeilAlign / Align, keep the types and the zero-divisor behaviour asc-devkit gives them.)
#pragma once

namespace ascsim {

// a / b rounded up (b > 0; a + b - 1 must not overflow T).
template <class T>
constexpr T CeilDiv(T a, T b) {
  return (a + b - 1) / b;
}

// v rounded up to a multiple of unit (unit > 0).
template <class T>
constexpr T AlignUp(T v, T unit) {
  return CeilDiv(v, unit) * unit;
}

}  // namespace ascsim
