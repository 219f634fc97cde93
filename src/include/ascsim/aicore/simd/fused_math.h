// Multiply-accumulate element loops: dst[i] = a[i] * b[i] + dst[i] (MulAddDst), computed in float
// (the product rounded to float, then the sum) and rounded once to the dst type; dst may be float
// with half sources. Highway SIMD with dynamic dispatch for float and (with F16C) half.
#pragma once

#include <cstddef>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/simd/vector_math.h"

namespace ascsim::simd {

void MulAddDst(DType dst_t, DType src_t, void* dst, const void* a, const void* b, size_t n);
// dst[i] = a[i] * dst[i] + b[i] (FusedMulAdd), same rounding.
void FusedMulAdd(DType t, void* dst, const void* a, const void* b, size_t n);

}  // namespace ascsim::simd
