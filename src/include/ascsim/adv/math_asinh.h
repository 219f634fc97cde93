// Asinh, the math advanced API of asc-devkit include/adv_api/math/asinh.h
// (docs/zh/api/SIMD-API/高阶API/数学计算/Asinh接口): asinh(x) = sign(x) ln(|x| + sqrt(x^2 + 1)),
// as impl/adv_api/detail/math/asinh/asinh_common_impl.h writes it for Atlas A2/A3, in the same
// basic-API calls:
//   |x|, x^2, + 1, Sqrt, + |x|, Ln; sign(x) = (x * 2^62) / (|x * 2^62| + 2^-62); Mul.
// Float computes in float; half casts to float first and rounds the result once (CAST_NONE).
// sharedTmpBuffer holds three float buffers per piece: pieces of its floats / 3 in whole 32
// elements (the tail's buffers rounded up to 32 elements).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"

namespace AscendC {

namespace detail {

template <class T>
void AsinhCompute(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Asinh takes half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  ai::CheckCalCount("Asinh", calCount, src.GetSize(), dst.GetSize());
  const uint32_t split = static_cast<uint32_t>(tmp.GetSize() / sizeof(float) / 3 / 32 * 32);
  if (split == 0) {
    ai::FaultTmpTooSmall("Asinh", tmp.GetSize(), 3 * 32 * sizeof(float),
                         "one piece needs (3 floats for each of 32 elements);");
  }
  ai::CheckTmpDisjoint("Asinh", tmp, "srcTensor", src, calCount);
  ai::CheckTmpDisjoint("Asinh", tmp, "dstTensor", dst, calCount);
  const LocalTensor<float> f = tmp.ReinterpretCast<float>();
  for (uint32_t off = 0; off < calCount; off += split) {
    const uint32_t n = calCount - off < split ? calCount - off : split;
    const uint32_t at = n == split ? split : (n + 31) / 32 * 32;
    const LocalTensor<float> b1 = f, b3 = f[at], b2 = f[2 * at];
    const LocalTensor<float> out = [&] {
      if constexpr (std::is_same_v<T, float>) return dst[off];
      else return b2;
    }();
    if constexpr (std::is_same_v<T, half>) {
      Cast(b1, src[off], RoundMode::CAST_NONE, n);
      Abs(b1, b1, n);
    } else {
      Abs(b1, src[off], n);
    }
    Mul(b2, b1, b1, n);
    Adds(b2, b2, 1.0f, n);
    Sqrt(b2, b2, n);
    Add(b2, b2, b1, n);
    Ln(b2, b2, n);
    // AsinhGetSign in float (2^62 and 2^-62).
    if constexpr (std::is_same_v<T, half>) {
      Cast(b1, src[off], RoundMode::CAST_NONE, n);
      Muls(b1, b1, 4611686018427387904.0f, n);
    } else {
      Muls(b1, src[off], 4611686018427387904.0f, n);
    }
    Abs(b3, b1, n);
    Adds(b3, b3, 2.168404344971009e-19f, n);
    Div(b1, b1, b3, n);
    Mul(out, b2, b1, n);
    if constexpr (std::is_same_v<T, half>) Cast(dst[off], b2, RoundMode::CAST_NONE, n);
  }
}

}  // namespace detail

template <typename T, bool isReuseSource = false>
void Asinh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::AsinhCompute(dstTensor, srcTensor, sharedTmpBuffer, calCount);
}

template <typename T, bool isReuseSource = false>
void Asinh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
  detail::AsinhCompute(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false>
void Asinh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const uint32_t calCount) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::AsinhCompute(dstTensor, srcTensor, detail::AdvStack("Asinh"), calCount);
}

template <typename T, bool isReuseSource = false>
void Asinh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::AsinhCompute(dstTensor, srcTensor, detail::AdvStack("Asinh"), srcTensor.GetSize());
}

}  // namespace AscendC
