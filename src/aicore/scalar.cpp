// Out-of-line part of ascsim/aicore/scalar.h: one element through the vector Cast.
#include "ascsim/aicore/scalar.h"

#include "ascsim/aicore/simd/vector_math.h"
#include "ascsim/aicore/vector_ops.h"

namespace ascsim::aicore {

void ScalarCastValue(float value, bool to_half, AscendC::RoundMode mode, void* out) {
  simd::Cast(to_half ? simd::DType::kF16 : simd::DType::kI32, simd::DType::kF32, ToRounding(mode),
             out, &value, 1);
}

}  // namespace ascsim::aicore
