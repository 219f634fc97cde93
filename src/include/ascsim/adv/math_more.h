// More advanced APIs, written like ascsim/adv/math.h on the basic API:
//   Erf        the device's rational approximation on x clipped to [-3.92, 3.92]:
//              x P(x^2) / Q(x^2) with asc-devkit's coefficients
//              (impl/adv_api/detail/math/erf/erf_common_impl.h), in float (half through float)
//   Broadcast  [1] -> [n], [m, 1] -> [m, k] (axis 1), [1, k] -> [m, k] (axis 0)
//              (include/adv_api/pad/broadcast.h; dim 1 or 2 as on Atlas A2/A3)
//   Sum, Mean  the sum / mean of the first n of each of `outter` rows `inner` apart
//              (include/adv_api/reduce/sum.h, mean.h); Mean of half accumulates in float
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/math.h"
#include "ascsim/aicore/reduce_ops.h"

namespace AscendC {

// ================================================================================================
// Erf
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

// ==========================================================================================
// Broadcast
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               LocalTensor<uint8_t>& sharedTmpBuffer) {
  static_assert(dim == 1 || dim == 2, "Broadcast supports dim 1 and 2 on Atlas A2/A3");
  static_assert(axis == 0 || axis == 1, "Broadcast supports axis 0 and 1");
  static_assert(dim == 2 || axis == 0, "a one-dimensional Broadcast broadcasts axis 0");
  namespace ai = ascsim::aicore;
  constexpr const char* api = "Broadcast";
  ai::TensorAccess::CheckLive(sharedTmpBuffer, api, "sharedTmpBuffer");
  const uint32_t m = dim == 2 ? dstShape[0] : 1, k = dim == 2 ? dstShape[1] : dstShape[0];
  const bool shapes_ok = dim == 1 ? srcShape[0] == 1
                                  : (axis == 1 ? (srcShape[0] == m && srcShape[1] == 1)
                                               : (srcShape[0] == 1 && srcShape[1] == k));
  if (!shapes_ok) {
    ai::Fault(
        ascsim::ErrorKind::kInvalidArgument,
        ai::Str(api, "<dim ", dim, ", axis ", axis, ">: src shape [", srcShape[0],
                dim == 2 ? ai::Str(", ", srcShape[1]) : std::string(), "] does not broadcast to [",
                dstShape[0], dim == 2 ? ai::Str(", ", dstShape[1]) : std::string(), "]"));
  }
  ai::CheckCalCount(api, uint64_t{m} * k, uint64_t{m} * k, dstLocal.GetSize());
  if (dim == 1 || axis == 1) detail::VectorToScalar();  // src's values are read by the scalar unit
  if (dim == 1) {
    Duplicate(dstLocal, srcLocal.GetValue(0), static_cast<int32_t>(k));
  } else if (axis == 1 && (k * sizeof(T)) % 32 != 0) {
    // Rows that are not whole 32-byte blocks start at unaligned addresses, which no vector
    // instruction takes; the device broadcasts into an aligned scratch and compacts it into dst
    // (the copy buffer GetBroadCastMaxMinTmpSize counts). The simulator writes the same values
    // element by element and orders them before the vector pipe's next use.
    for (uint32_t i = 0; i < m; ++i) {
      const T v = srcLocal.GetValue(i);
      for (uint32_t j = 0; j < k; ++j) dstLocal.SetValue(i * k + j, v);
    }
    detail::ScalarToVector();
  } else if (axis == 1) {
    for (uint32_t i = 0; i < m; ++i)
      Duplicate(dstLocal[i * k], srcLocal.GetValue(i), static_cast<int32_t>(k));
  } else {
    for (uint32_t i = 0; i < m; ++i) Muls(dstLocal[i * k], srcLocal, T(1), static_cast<int32_t>(k));
  }
}
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
  LocalTensor<uint8_t> stack = detail::AdvStack("Broadcast");
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, stack);
}
// BroadCast: the name Broadcast calls (asc-devkit include/adv_api/pad/broadcast.h ->
// impl/adv_api/detail/pad/broadcast/broadcast_common_impl.h), which production kernels call
// directly.
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               LocalTensor<uint8_t>& sharedTmpBuffer) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer);
}
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape);
}

// ========================================================================================= Sum,
// Mean
struct SumParams {
  uint32_t outter = 1;
  uint32_t inner;  // n rounded up to 32 B of T
  uint32_t n;
};
struct MeanParams {
  uint32_t outter = 1;
  uint32_t inner;
  uint32_t n;
};

namespace detail {
template <class T, class P>
void CheckReduceParams(const char* api, const P& p, uint64_t src_size, uint64_t dst_size) {
  namespace ai = ascsim::aicore;
  const uint64_t aligned = (uint64_t{p.n} * sizeof(T) + 31) / 32 * 32 / sizeof(T);
  if (p.n == 0 || p.inner != aligned) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": inner ", p.inner, " must be n ", p.n, " rounded up to 32 B (",
                      aligned, ")"));
  }
  ai::CheckCalCount(api, uint64_t{p.outter} * p.inner, src_size, src_size);
  ai::CheckCalCount(api, p.outter, dst_size, dst_size);
}
}  // namespace detail

// Sum as the device computes it (asc-devkit impl/adv_api/detail/reduce/sum/sum_common_impl.h):
// in counter mode, RepeatReduceSum of the n elements into one partial sum per repeat in the
// temporary buffer, then RepeatReduceSum of those until one remains (into dst[row]); n within one
// repeat goes straight to dst. The temporary buffer holds the first level's partial sums, the
// size GetSumMaxMinTmpSize returns.
template <class T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Sum takes half or float");
  namespace ai = ascsim::aicore;
  detail::CheckReduceParams<T>("Sum", sumParams, srcTensor.GetSize(), dstTensor.GetSize());
  constexpr uint32_t per_rep = ONE_REPEAT_BYTE_SIZE / sizeof(T);
  constexpr uint32_t per_blk = ONE_BLK_SIZE / sizeof(T);
  const uint32_t first = (sumParams.n + per_rep - 1) / per_rep;
  auto reduce = [](const LocalTensor<T>& d, const LocalTensor<T>& s, uint32_t n) {
    SetVectorMask<T, MaskMode::COUNTER>(0, n);
    RepeatReduceSum<T, false>(d, s, 1, MASK_PLACEHOLDER, 1, 1, 1, 8);
  };
  SetMaskCount();
  if (first == 1) {
    for (uint32_t row = 0; row < sumParams.outter; ++row) {
      reduce(dstTensor[row], srcTensor[row * sumParams.inner], sumParams.n);
    }
  } else {
    const uint64_t need = uint64_t{(first + per_blk - 1) / per_blk * per_blk} * sizeof(T);
    ai::TensorAccess::CheckLive(sharedTmpBuffer, "Sum", "sharedTmpBuffer");
    if (sharedTmpBuffer.GetSize() < need) {
      ai::FaultTmpTooSmall("Sum", sharedTmpBuffer.GetSize(), need, "the partial sums need");
    }
    ai::CheckTmp("Sum", sharedTmpBuffer, need);
    const LocalTensor<T> w = sharedTmpBuffer.ReinterpretCast<T>();
    for (uint32_t row = 0; row < sumParams.outter; ++row) {
      reduce(w, srcTensor[row * sumParams.inner], sumParams.n);
      for (uint32_t left = first; left > 1; left = (left + per_rep - 1) / per_rep) {
        reduce(left <= per_rep ? dstTensor[row] : w, w, left);
      }
    }
  }
  SetMaskNorm();
  ResetMask();
}
template <class T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const SumParams& sumParams) {
  Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, detail::AdvStack("Sum"),
                                                 sumParams);
}

template <class T, class accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const MeanParams& meanParams) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Mean takes half or float");
  detail::CheckReduceParams<T>("Mean", meanParams, srcTensor.GetSize(), dstTensor.GetSize());
  // Rows in float (half converted first), then sum * (1 / n).
  const uint32_t inner = (meanParams.n + 7) / 8 * 8;
  const uint64_t work = ascsim::aicore::ReduceWorkElements<float>(meanParams.n) + 8;
  const uint64_t need = (work + (sizeof(T) == 2 ? inner : 0)) * sizeof(float);
  ascsim::aicore::CheckTmp("Mean", sharedTmpBuffer, need);
  const LocalTensor<float> f = sharedTmpBuffer.ReinterpretCast<float>();
  const LocalTensor<float> red = f, w = f[8], row = f[work];
  for (uint32_t i = 0; i < meanParams.outter; ++i) {
    LocalTensor<float> x;
    if constexpr (sizeof(T) == 2) {
      Cast(row, srcTensor[i * meanParams.inner], RoundMode::CAST_NONE, meanParams.n);
      x = row;
    } else {
      x = srcTensor[i * meanParams.inner];
    }
    ReduceSum(red, x, w, meanParams.n);
    Muls(red, red, 1.0f / static_cast<float>(meanParams.n), 1);
    detail::VectorToScalar();
    dstTensor.SetValue(i, T(red.GetValue(0)));
    detail::ScalarToVector();
  }
}
template <class T, class accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const MeanParams& meanParams) {
  Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dstTensor, srcTensor,
                                                           detail::AdvStack("Mean"), meanParams);
}

}  // namespace AscendC
