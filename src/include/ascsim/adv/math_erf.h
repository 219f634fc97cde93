// Erf, written like ascsim/adv/math.h on the basic API: the device's rational approximation on x
// clipped to [-3.92, 3.92], x P(x^2) / Q(x^2) with asc-devkit's coefficients
// (impl/adv_api/detail/math/erf/erf_common_impl.h), in float (half through float).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/math.h"
#include "ascsim/aicore/reduce_ops.h"

namespace AscendC {

namespace detail {
inline void ErfFloat(const LocalTensor<float>& dst, const LocalTensor<float>& x,
                     const LocalTensor<float>& tmp, uint32_t split, uint32_t n) {
  const LocalTensor<float> t1 = tmp, t2 = tmp[split], t3 = tmp[2 * split];
  Mins(t1, x, 3.92f, n);
  Maxs(dst, t1, -3.92f, n);  // dst holds the clipped x from here on
  Mul(t1, dst, dst, n);      // x^2
  // P: x * (((((p5 x^2 + p4) x^2 + p3) x^2 + p2) x^2 + p1) x^2 + p0)
  Muls(t2, t1, 0.053443748819f, n);
  Adds(t3, t2, 0.75517016694e1f, n);
  const float p[] = {0.10162808918e3f, 0.13938061484e4f, 0.50637915060e4f, 0.29639384698e5f};
  for (float c : p) {
    Mul(t2, t1, t3, n);
    Adds(t3, t2, c, n);
  }
  Mul(t2, dst, t3, n);
  // Q: ((((x^2 + q4) x^2 + q3) x^2 + q2) x^2 + q1) x^2 + q0
  Adds(t3, t1, 0.31212858877e2f, n);
  const float q[] = {0.39856963806e3f, 0.30231248150e4f, 0.13243365831e5f, 0.26267224157e5f};
  for (float c : q) {
    Mul(dst, t1, t3, n);
    Adds(t3, dst, c, n);
  }
  Div(dst, t2, t3, n);
}
}  // namespace detail

template <class T, bool isReuseSource = false>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Erf takes half or float");
  constexpr const char* api = "Erf";
  constexpr uint32_t procs = sizeof(T) == 2 ? 4 : 3;  // float pieces: [x,] t1, t2, t3
  detail::AdvPrologue(api, dstTensor, srcTensor, sharedTmpBuffer, calCount,
                      256 * (sizeof(T) == 2 ? 8 : 3));
  const uint32_t split =
      sharedTmpBuffer.GetSize() / sizeof(float) / procs / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<float> f = sharedTmpBuffer.ReinterpretCast<float>();
  detail::ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
    if constexpr (sizeof(T) == 2) {
      const LocalTensor<float> x = f[3 * split];
      Cast(x, srcTensor[off], RoundMode::CAST_NONE, n);
      detail::ErfFloat(x, x, f, split, n);
      Cast(dstTensor[off], x, RoundMode::CAST_NONE, n);
    } else {
      detail::ErfFloat(dstTensor[off], srcTensor[off], f, split, n);
    }
  });
}
template <class T, bool isReuseSource = false>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const uint32_t calCount) {
  Erf<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Erf"), calCount);
}
template <class T, bool isReuseSource = false>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Erf<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Erf<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
