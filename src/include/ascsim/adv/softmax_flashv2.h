// SoftmaxFlashV2, the FlashAttention-2 softmax of asc-devkit include/adv_api/activation/
// softmaxflashv2.h (docs 高阶API/激活函数/SoftMax接口/SoftmaxFlashV2.md), ND, per row of [m, k]:
//   isUpdate false: max = rowmax(x), y = e^(x - max), sum = rowsum(y)
//   isUpdate true:  max = max(rowmax(x), inMax), y = e^(x - max), sum = rowsum(y),
//                   expMax = e^(inMax - max), sum = expMax * inSum + sum
// dst is y (not divided by the sum); max and sum are written as one 32 B block per row (T2), and
// expMax as one 32 B block per row of T1; the row maxima and sums cover the original k columns
// (oriSrcK), e^ and dst all k. T1 = T2 = half or float, or T1 = half with T2 = float. m and k come
// from softmaxShapeInfo, else from src's ShapeInfo, else from the tiling (softmax_flashv2_base_impl.h
// SoftmaxFlashV2UpdateTilingImpl). The arithmetic is float, as basic-API calls per row (half
// converted in and out with CAST_NONE); the device splits the rows by the tiling and reduces in its
// own order, so the last bits of a half result can differ from the device's.
// Temporary space: per row k floats (half only), one 32 B block and the reduction's work area (64
// floats up to k = 4096), within GetSoftMaxFlashV2MinTmpSize's A2/A3 minimum. NZ input,
// SoftmaxConfig::mode = SOFTMAX_OUTPUT_WITHOUT_BRC and the outReduceMax forms are not simulated
// (a clear error at the call).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/norm_softmax_quant.h"
#include "ascsim/adv/tiling_structs.h"
#include "ascsim/aicore/reduce_ops.h"

namespace AscendC {

// The kernel-side tiling (softmaxflashv2.h SoftMaxFlashV2TilingFunc, SoftMaxFlashV2TilingFuncImpl):
// rows per pass from the float workspace, as the host SoftMaxFlashV2TilingFunc computes them.
constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo,
                                                 const uint32_t dataTypeSize1,
                                                 const uint32_t dataTypeSize2,
                                                 const uint32_t localWorkSpaceSize,
                                                 const bool isUpdate = false,
                                                 const bool isBasicBlock = false,
                                                 const bool isDataFormatNZ = false,
                                                 const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  (void)isDataFormatNZ;
  const uint32_t m = shapeInfo.srcM, k = shapeInfo.srcK;
  const uint32_t blk = dataTypeSize2 == 0 ? 0 : 32 / dataTypeSize2;
  const uint32_t work = localWorkSpaceSize / 4;
  const uint32_t row = dataTypeSize1 == 2 ? blk * 2 + k + 64 : blk + 64;
  uint32_t reduce_m = row == 0 ? 0 : work / row;
  if (isBasicBlock && k % 64 == 0 && m % 8 == 0) {
    const uint32_t basic_row = dataTypeSize1 == 2 ? blk + k + 64 : blk + 64;
    reduce_m = work / basic_row;
  }
  const uint32_t tile = isFlashOutputBrc && dataTypeSize1 == 2 ? 16u : 8u;
  if (reduce_m < m && reduce_m > tile) reduce_m = reduce_m / tile * tile;
  reduce_m = reduce_m < m ? reduce_m : m;
  SoftMaxTiling t;
  tiling_structs_detail::FillSoftMaxTiling(t, m, k, reduce_m, blk);
  return t;
}

namespace detail {

// A row's reduction of `n` floats of `x` into red[0], read back on the scalar side.
template <bool kMax>
float FlashRowReduce(const LocalTensor<float>& red, const LocalTensor<float>& x,
                     const LocalTensor<float>& work, uint32_t n) {
  if constexpr (kMax) {
    ReduceMax(red, x, work, n);
  } else {
    ReduceSum(red, x, work, n);
  }
  VectorToScalar();
  const float v = red.GetValue(0);
  ScalarToVector();  // red is rewritten next
  return v;
}

template <class T1, class T2, bool isUpdate, const SoftmaxConfig& config>
void SoftmaxFlashV2Run(const LocalTensor<T1>& dst, const LocalTensor<T2>& sum,
                       const LocalTensor<T2>& max, const LocalTensor<T1>& src,
                       const LocalTensor<T1>& expMax, const LocalTensor<T2>& inSum,
                       const LocalTensor<T2>& inMax, const LocalTensor<uint8_t>& tmp,
                       const SoftMaxTiling& tiling, const SoftMaxShapeInfo& given, bool nz) {
  static_assert(ascsim::aicore::kHalfOrFloat<T1> && ascsim::aicore::kHalfOrFloat<T2>,
                "SoftmaxFlashV2 takes half or float");
  namespace ai = ascsim::aicore;
  constexpr const char* api = "SoftmaxFlashV2";
  if (ai::OnCubeCoreOnly()) return;
  if (nz || config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": ", nz ? "isDataFormatNZ = true (NZ layout)"
                                    : "SoftmaxConfig::mode = SOFTMAX_OUTPUT_WITHOUT_BRC",
                      " is not simulated; ascsim computes ND with broadcast max and sum"));
  }
  const SoftMaxShapeInfo shape = SoftMaxShapeOf(given, src.GetShapeInfo());
  const uint32_t m = shape.srcM ? shape.srcM : tiling.srcM;
  const uint32_t k = shape.srcK ? shape.srcK : tiling.srcK;
  const uint32_t ori_k = shape.oriSrcK ? shape.oriSrcK : k;
  if (m == 0 || k == 0 || ori_k > k || (uint64_t{k} * sizeof(T1)) % ONE_BLK_SIZE != 0) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": shape [", m, ", ", k, "] (original k ", ori_k,
                      ") needs m, k >= 1, k * sizeof(T) a multiple of 32 B and original k <= k"));
  }
  const uint64_t n = uint64_t{m} * k;
  ai::CheckCalCount(api, n, src.GetSize(), dst.GetSize());
  constexpr uint32_t blk2 = ONE_BLK_SIZE / sizeof(T2), blk1 = ONE_BLK_SIZE / sizeof(T1);
  ai::CheckUbRole(api, "expSumTensor", sum, uint64_t{m} * blk2, ai::Access::kWrite);
  ai::CheckUbRole(api, "maxTensor", max, uint64_t{m} * blk2, ai::Access::kWrite);
  if constexpr (isUpdate) {
    ai::CheckUbRole(api, "inExpSumTensor", inSum, uint64_t{m} * blk2, ai::Access::kRead);
    ai::CheckUbRole(api, "inMaxTensor", inMax, uint64_t{m} * blk2, ai::Access::kRead);
    ai::CheckUbRole(api, "expMaxTensor", expMax, uint64_t{m} * blk1, ai::Access::kWrite);
  }
  const uint32_t row_floats = sizeof(T1) == 2 ? k : 0;
  const uint64_t need = (uint64_t{row_floats} + 8 + SoftMaxWorkFloats(k)) * sizeof(float);
  ai::TensorAccess::CheckLive(tmp, api, "sharedTmpBuffer");
  if (tmp.GetSize() < need) ai::FaultTmpTooSmall(api, tmp.GetSize(), need, "one row needs");
  ai::CheckTmp(api, tmp, need);
  const LocalTensor<float> f = tmp.ReinterpretCast<float>();
  const LocalTensor<float> red = f[row_floats], work = f[row_floats + 8];
  const BinaryRepeatParams brc(1, 1, 0, 8, 8, 0);  // src1: one block, repeated
  for (uint32_t r = 0; r < m; ++r) {
    // float: e^(x - max) goes straight into the dst row (dst may be src, as in production's
    // incre_flash_attention); half: the row is converted into the temporary buffer first.
    LocalTensor<float> row, x;
    if constexpr (sizeof(T1) == 2) {
      row = f;
      Cast(row, src[r * k], RoundMode::CAST_NONE, k);
      x = row;
    } else {
      row = dst[r * k];
      x = src[r * k];
    }
    float mx = FlashRowReduce<true>(red, x, work, ori_k);
    float in_max = 0.0f, in_sum = 0.0f;
    if constexpr (isUpdate) {
      VectorToScalar();  // the inputs may be the previous pass's vector results
      in_max = float(inMax.GetValue(r * blk2));
      in_sum = float(inSum.GetValue(r * blk2));
      ScalarToVector();
      mx = in_max > mx ? in_max : mx;
    }
    Duplicate(red, mx, 8);
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, k);
    Sub<float, false>(row, x, red, MASK_PLACEHOLDER, 1, brc);
    SetMaskNorm();
    ResetMask();
    Exp(row, row, k);
    float s = FlashRowReduce<false>(red, row, work, ori_k);
    if constexpr (isUpdate) {
      // expMax = e^(inMax - max) and sum = expMax * inSum + sum, in float on the vector unit.
      Duplicate(red, in_max, 8);
      Adds(red, red, -mx, 8);
      Exp(red, red, 8);
      Muls(work, red, in_sum, 8);
      Adds(work, work, s, 8);
      VectorToScalar();
      const float em = red.GetValue(0);
      s = work.GetValue(0);
      ScalarToVector();
      Duplicate(expMax[r * blk1], T1(em), blk1);
    }
    Duplicate(max[r * blk2], T2(mx), blk2);
    Duplicate(sum[r * blk2], T2(s), blk2);
    if constexpr (sizeof(T1) == 2) Cast(dst[r * k], row, RoundMode::CAST_NONE, k);
  }
}

}  // namespace detail

// All tensors of T (half or float).
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                    const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftmaxFlashV2Run<T, T, isUpdate, config>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
      sharedTmpBuffer, tiling, softmaxShapeInfo, isDataFormatNZ);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                    const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftmaxFlashV2Run<T, T, isUpdate, config>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
      detail::AdvStack("SoftmaxFlashV2"), tiling, softmaxShapeInfo, isDataFormatNZ);
}
// half data with float max and sum.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const LocalTensor<half>& expMaxTensor,
                    const LocalTensor<float>& inExpSumTensor, const LocalTensor<float>& inMaxTensor,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftmaxFlashV2Run<half, float, isUpdate, config>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
      sharedTmpBuffer, tiling, softmaxShapeInfo, isDataFormatNZ);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const LocalTensor<half>& expMaxTensor,
                    const LocalTensor<float>& inExpSumTensor, const LocalTensor<float>& inMaxTensor,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftmaxFlashV2Run<half, float, isUpdate, config>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
      detail::AdvStack("SoftmaxFlashV2"), tiling, softmaxShapeInfo, isDataFormatNZ);
}
// The outReduceMax forms (SOFTMAX_OUTPUT_WITHOUT_BRC, softmax_flashv2_base_impl.h
// SoftmaxFlashV2MaxImpl): declared so kernels compile; a call says it is not simulated.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                    const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                    const LocalTensor<T>&, const LocalTensor<T>&,
                    const LocalTensor<uint8_t>&, const SoftMaxTiling&,
                    const SoftMaxShapeInfo& = {}) {
  ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                        "SoftmaxFlashV2: the outReduceMax form (SOFTMAX_OUTPUT_WITHOUT_BRC) is not "
                        "simulated");
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                    const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                    const LocalTensor<T>&, const LocalTensor<T>&, const SoftMaxTiling&,
                    const SoftMaxShapeInfo& = {}) {
  ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                        "SoftmaxFlashV2: the outReduceMax form (SOFTMAX_OUTPUT_WITHOUT_BRC) is not "
                        "simulated");
}

}  // namespace AscendC
