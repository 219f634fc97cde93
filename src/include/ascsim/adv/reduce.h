// Sum and Mean on the basic API: the sum / mean of the first n of each of `outter` rows `inner`
// apart (include/adv_api/reduce/sum.h, mean.h); Mean of half accumulates in float.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/math.h"
#include "ascsim/aicore/reduce_ops.h"

namespace AscendC {

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
