// Erfc, the complementary error function, as the device computes it (asc-devkit
// impl/adv_api/detail/math/erfc/erfc_common_impl.h, include/adv_api/math/erfc.h): x clipped to
// [-10, 10], xa = |x| + 2^-62, then exp(-xa^2) * R(xa) / S(xa) * (x / xa) + (1 - x / xa) with an
// 8th-degree R and a monic 5th-degree S, in float (half through float, cast back with CAST_ROUND
// on A2/A3). The calls are the device's, in its order and on its buffers (including the unused
// min(xa, 10) it computes), so results, trace and cost follow it: float splits the buffer in 5
// float pieces, half in 12 half-sized ones (six float pieces), each a multiple of 32 elements.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/math.h"

namespace AscendC {

namespace detail {
// The float steps on x (already in `x`, clipped) into `out`; b is the temporary buffer of 5
// float pieces of `split` (b1..b5 in CANN's naming).
inline void ErfcFloatSteps(const LocalTensor<float>& out, const LocalTensor<float>& x,
                           const LocalTensor<float>& b, uint32_t split, uint32_t n) {
  const LocalTensor<float> b1 = b, b2 = b[split], b3 = b[2 * split], b4 = b[3 * split],
                           b5 = b[4 * split];
  // x / (|x| + 2^-62): the sign, or 0 at 0, without a branch.
  Abs(b1, x, n);
  Adds(b1, b1, 2.168404344971009e-19f, n);
  Div(x, x, b1, n);
  Mins(b2, b1, 10.0f, n);  // z = min(xa, 10): computed by the device, not used after
  // R(xa) = ((((((((xa r0 + r1) xa + r2) xa + r3) xa + r4) xa + r5) xa + r6) xa + r7) xa + r8
  Muls(b3, b1, 0.1735313680e-7f, n);
  Adds(b4, b3, -0.9856738394e-6f, n);
  const float r[] = {0.2517003236e-4f, -0.3848015171e-3f, 0.5681528564e0f, 0.5245623129e1f,
                     0.2107740710e2f,  0.4212761755e2f,   0.4380524149e2f};
  for (float c : r) {
    Mul(b3, b1, b4, n);
    Adds(b4, b3, c, n);
  }
  // S(xa) = ((((xa + s1) xa + s2) xa + s3) xa + s4) xa + s5
  Adds(b3, b1, 0.9349684299e1f, n);
  const float s[] = {0.3756930664e2f, 0.8058268949e2f, 0.9155653738e2f, 0.4380524152e2f};
  for (float c : s) {
    Mul(b5, b1, b3, n);
    Adds(b3, b5, c, n);
  }
  Div(b3, b4, b3, n);
  Mul(b1, b1, b1, n);
  Muls(b1, b1, -1.0f, n);
  Exp(b1, b1, n);
  Mul(b3, b1, b3, n);
  // exp(-xa^2) R / S * sign + (1 - sign)
  Muls(b2, x, -1.0f, n);
  Adds(b2, b2, 1.0f, n);
  Mul(b3, b3, x, n);
  Add(out, b3, b2, n);
}
}  // namespace detail

template <class T, bool isReuseSource = false>
void Erfc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Erfc takes half or float");
  constexpr const char* api = "Erfc";
  // GetErfcMaxMinTmpSize's minimum: 7 (float) or 16 (half) repeats of 256 B.
  detail::AdvPrologue(api, dstTensor, srcTensor, sharedTmpBuffer, calCount,
                      256 * (sizeof(T) == 2 ? 16 : 7));
  const uint32_t procs = sizeof(T) == 2 ? 12 : 5;
  const uint32_t split = sharedTmpBuffer.GetSize() / sizeof(T) / procs / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<float> b = sharedTmpBuffer.ReinterpretCast<float>();
  detail::ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
    if constexpr (sizeof(T) == 2) {
      const LocalTensor<float> x = b[5 * split];
      Cast(x, srcTensor[off], RoundMode::CAST_NONE, n);
      Mins(b, x, 10.0f, n);
      Maxs(x, b, -10.0f, n);
      detail::ErfcFloatSteps(b, x, b, split, n);
      Cast(dstTensor[off], b, RoundMode::CAST_ROUND, n);
    } else {
      const LocalTensor<T> d = dstTensor[off];
      Mins(d, srcTensor[off], 10.0f, n);
      Maxs(d, d, -10.0f, n);
      detail::ErfcFloatSteps(d, d, b, split, n);
    }
  });
}
template <class T, bool isReuseSource = false>
void Erfc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount) {
  Erfc<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Erfc"), calCount);
}
template <class T, bool isReuseSource = false>
void Erfc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Erfc<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Erfc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Erfc<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
