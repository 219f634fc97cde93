// SoftmaxGrad and SoftmaxGradFront (and AdjustSoftMaxRes, below), the softmax advanced APIs of
// asc-devkit include/adv_api/activation/softmaxgrad.h (template <T, isReuseSource / isBasicBlock,
// isDataFormatNZ>, with or without sharedTmpBuffer). Per row of the [m, k] input (docs
// SoftmaxGrad.md):
//   s = sum(grad * src) over the row's original k columns
//   isFront: dst[row] = s in one 32 B block ([m, 32 B / sizeof(T)] out)
//   else:    dst[row] = (grad - s) * src over all k columns (padding included, as the docs say)
// as basic-API calls in float (half is converted in and out), in the order of
// impl/adv_api/detail/activation/softmax/membase/common/softmax_grad_nd_impl.h (Mul, ReduceSum
// over originalSrcShape.k, broadcast, Sub, Mul). m and k come from softmaxShapeInfo when it is
// set, else from srcTensor's ShapeInfo (softmax_grad_base_impl.h), else from the tiling.
// Temporary space: the A2/A3 minimum of impl/adv_api/tiling/activation/softmax_tiling.cpp
// GetSoftMaxGradMinTmpSize (float: k + 8 + 64 floats for isFront, k + 16 + 64 otherwise; half:
// 3 k + 32 + 64) is enough: the row sum is reduced in pieces of at most 4096 floats, so 64 floats
// of reduction work area always do.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/norm_softmax_quant.h"
#include "ascsim/adv/tiling_structs.h"

namespace AscendC {
namespace detail {

// Floats of sharedTmpBuffer SoftmaxGrad uses: the row(s) in float, one block for the sum, 64 for
// the reduction.
inline uint64_t SoftmaxGradTmpFloats(uint32_t k, bool half) {
  return uint64_t{k} * (half ? 3 : 1) + 8 + 64;
}

template <class T>
void SoftmaxGradRun(const LocalTensor<T>& dst, const LocalTensor<T>& grad,
                    const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                    const SoftMaxTiling& tiling, bool isFront, const SoftMaxShapeInfo& given,
                    bool nz, const char* api) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "SoftmaxGrad takes half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  if (nz) {
    ai::Fault(
        ascsim::ErrorKind::kInvalidArgument,
        ai::Str(api, ": isDataFormatNZ = true (NZ layout) is not simulated; ascsim computes ND"));
  }
  const SoftMaxShapeInfo shape = SoftMaxShapeOf(given, src.GetShapeInfo());
  const uint32_t m = shape.srcM ? shape.srcM : tiling.srcM;
  const uint32_t k = shape.srcK ? shape.srcK : tiling.srcK;
  const uint32_t ori_k = shape.oriSrcK ? shape.oriSrcK : k;
  if (m == 0 || k == 0 || ori_k > k || (uint64_t{k} * sizeof(T)) % ONE_BLK_SIZE != 0) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": shape [", m, ", ", k, "] (original k ", ori_k,
                      ") needs m, k >= 1, k * sizeof(T) a multiple of 32 B and original k <= k"));
  }
  constexpr bool kHalf = sizeof(T) == 2;
  constexpr uint32_t blk = ONE_BLK_SIZE / sizeof(T);
  const uint64_t n = uint64_t{m} * k;
  ai::CheckCalCount(api, n, grad.GetSize(), src.GetSize());
  ai::CheckUbRole(api, "gradTensor", grad, n, ai::Access::kRead);
  ai::CheckUbRole(api, "srcTensor", src, n, ai::Access::kRead);
  const uint64_t out = isFront ? uint64_t{m} * blk : n;
  if (dst.GetSize() < out) {
    ai::Fault(ascsim::ErrorKind::kOutOfBounds,
              ai::Str(api, ": dstTensor holds ", dst.GetSize(), " elements; ", out, " needed (",
                      isFront ? "isFront: one 32 B block per row" : "[m, k]", ")"));
  }
  ai::CheckUbRole(api, "dstTensor", dst, out, ai::Access::kWrite);
  const uint64_t need = SoftmaxGradTmpFloats(k, kHalf) * sizeof(float);
  ai::TensorAccess::CheckLive(tmp, api, "sharedTmpBuffer");
  if (tmp.GetSize() < need) ai::FaultTmpTooSmall(api, tmp.GetSize(), need, "one row needs");
  ai::CheckTmp(api, tmp, need);
  ai::CheckTmpDisjoint(api, tmp, "gradTensor", grad, n);
  ai::CheckTmpDisjoint(api, tmp, "srcTensor", src, n);
  ai::CheckTmpDisjoint(api, tmp, "dstTensor", dst, out);
  const LocalTensor<float> f = tmp.ReinterpretCast<float>();
  const uint32_t rows_f = kHalf ? 2 * k : 0;  // the converted grad and src rows (half only)
  const LocalTensor<float> prod = f[rows_f], red = f[rows_f + k], work = f[rows_f + k + 8];
  constexpr uint32_t kPiece = 4096;  // 64 repeats: one 64-float work area holds their sums
  for (uint32_t r = 0; r < m; ++r) {
    LocalTensor<float> g, s;
    if constexpr (kHalf) {
      g = f;
      s = f[k];
      Cast(g, grad[r * k], RoundMode::CAST_NONE, k);
      Cast(s, src[r * k], RoundMode::CAST_NONE, k);
    } else {
      g = grad[r * k];
      s = src[r * k];
    }
    Mul(prod, g, s, k);
    float sum = 0;
    for (uint32_t off = 0; off < ori_k; off += kPiece) {
      const uint32_t len = ori_k - off < kPiece ? ori_k - off : kPiece;
      ReduceSum(red, prod[off], work, len);
      VectorToScalar();
      sum += red.GetValue(0);
      ScalarToVector();  // red is rewritten next
    }
    if (isFront) {
      Duplicate(dst[r * blk], T(sum), blk);
      continue;
    }
    // (grad - s) * src through prod, so dst may be src (the docs allow it) or grad.
    Adds(prod, g, -sum, k);
    if constexpr (kHalf) {
      Mul(prod, prod, s, k);
      Cast(dst[r * k], prod, RoundMode::CAST_NONE, k);
    } else {
      Mul(dst[r * k], prod, s, k);
    }
  }
}

}  // namespace detail

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                 const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftmaxGradRun<T>(dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, isFront,
                            softmaxShapeInfo, isDataFormatNZ, "SoftmaxGrad");
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                 const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftmaxGradRun<T>(dstTensor, gradTensor, srcTensor, detail::AdvStack("SoftmaxGrad"),
                            tiling, isFront, softmaxShapeInfo, isDataFormatNZ, "SoftmaxGrad");
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftmaxGradRun<T>(dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, true,
                            softmaxShapeInfo, isDataFormatNZ, "SoftmaxGradFront");
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftmaxGradRun<T>(dstTensor, gradTensor, srcTensor, detail::AdvStack("SoftmaxGradFront"),
                            tiling, true, softmaxShapeInfo, isDataFormatNZ, "SoftmaxGradFront");
}

// AdjustSoftMaxRes (asc-devkit include/adv_api/activation/softmax.h; docs SoftMax接口/
// AdjustSoftMaxRes.md): every row r of softMaxRes [srcM, srcK] whose max equals `from` (the bit
// pattern of a T2) becomes `to`; returns whether any row did. stepSizeMode 0 reads the first
// element of row r's 32 B block of maxTensor ([m, 32 B / sizeof(T2)]), non-zero reads element r
// ([m, 1]). The max values are read on the scalar side after a V -> S sync, the rows filled with
// Duplicate.
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                      const uint32_t from, const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo) {
  static_assert(ascsim::aicore::kHalfOrFloat<T1> && ascsim::aicore::kHalfOrFloat<T2>,
                "AdjustSoftMaxRes takes half or float");
  namespace ai = ascsim::aicore;
  constexpr const char* api = "AdjustSoftMaxRes";
  if (ai::OnCubeCoreOnly()) return false;
  if (isDataFormatNZ) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              "AdjustSoftMaxRes: isDataFormatNZ = true (NZ layout) is not simulated; ascsim "
              "computes ND");
  }
  const uint32_t m = softmaxShapeInfo.srcM, k = softmaxShapeInfo.srcK;
  if (m == 0 || k == 0 || (uint64_t{k} * sizeof(T1)) % ONE_BLK_SIZE != 0) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": shape [", m, ", ", k,
                      "] needs m, k >= 1 and k * sizeof(T1) a multiple of 32 B"));
  }
  constexpr uint32_t step = stepSizeMode == 0 ? ONE_BLK_SIZE / sizeof(T2) : 1;
  const uint64_t n = uint64_t{m} * k, max_n = uint64_t{m - 1} * step + 1;
  if (softMaxRes.GetSize() < n || maxTensor.GetSize() < max_n) {
    ai::Fault(ascsim::ErrorKind::kOutOfBounds,
              ai::Str(api, ": softMaxRes holds ", softMaxRes.GetSize(), " elements (", n,
                      " needed), maxTensor ", maxTensor.GetSize(), " (", max_n, " needed)"));
  }
  ai::CheckUbRole(api, "maxTensor", maxTensor, max_n, ai::Access::kRead);
  ai::CheckUbRole(api, "softMaxRes", softMaxRes, n, ai::Access::kWrite);
  bool found = false;
  detail::VectorToScalar();
  for (uint32_t r = 0; r < m; ++r) {
    const T2 v = maxTensor.GetValue(r * step);
    std::conditional_t<sizeof(T2) == 2, uint16_t, uint32_t> bits;
    std::memcpy(&bits, &v, sizeof(bits));
    if (bits != from) continue;
    if (!found) detail::ScalarToVector();
    found = true;
    Duplicate(softMaxRes[r * k], to, k);
  }
  return found;
}

}  // namespace AscendC
