// LayerNorm, RmsNorm, SoftMax and AscendDequant: the device's Atlas A2/A3 algorithms written as
// basic-API calls (asc-devkit impl/adv_api/detail/normalization/layernorm/layernorm_common_impl.h,
// rmsnorm/rmsnorm_common_impl.h, activation/softmax/membase/v220, quantization/dequant), checked
// and costed like kernel code.
//   LayerNorm   the [B, S, H] form (output, mean, variance): per row in float (half is cast),
//               mean = sum(x / originalH), variance = sum((x - mean)^2 / originalH) over the
//               original H, rstd = e^(-0.5 ln(variance + epsilon)), y = (x - mean) * rstd * gamma
//               + beta over the stored H; rows in pieces of the tiling's meanVarRoundSize, the
//               tail last (the tiling's bshCurLength / bsCurLength then describe the tail, as on
//               the device); half mean and variance are kept in float in the scratch and cast at
//               the end.
//   RmsNorm     per row of [b*s, h] in float: sum x^2 over the original h (vcadd tree of 64-element
//               repeats, as the device reduces), times 1/h, + epsilon, rstd = e^(-0.5 ln(.)) (the
//               device's high-precision rsqrt), y = x * rstd * gamma. Rows in pieces of the
//               tiling's mainBsLength; half through float.
//   SoftMax     per row of [m, k] (ND): max over the original k, x - max, e^x, sum over the
//   original
//               k, / sum; max and sum also written as one 32 B block per row. half through float.
//   AscendDequant  dst[i][j] = int32 src[i][j] * scale (tensor scale[j] or a scalar) for j <
//   calCount,
//               converted in float.
// Signatures: include/adv_api/normalization/rmsnorm.h, activation/softmax.h,
// quantization/ascend_dequant.h; docs under docs/zh/api/SIMD-API/高阶API.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/kernel_tiling_structs.h"
#include "ascsim/adv/tiling_structs.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/reduce_ops.h"

namespace AscendC {

// ============================================================================================
// RmsNorm
namespace detail {

// Sum of squares of each of `rows` rows (hLength apart, originalH valid) into red[row]: repeated
// 64-element vcadd passes until one value is left per row (RmsNormGenericReduceSum).
inline void RmsNormRowSums(const LocalTensor<float>& red, const LocalTensor<float>& sq,
                           uint32_t rows, uint32_t h, uint32_t original_h) {
  constexpr uint32_t kPerRepeat = ONE_REPEAT_BYTE_SIZE / sizeof(float);
  for (uint32_t i = 0; i < rows; ++i) {
    uint32_t total = original_h;
    const LocalTensor<float> row = sq[i * h];
    if (total == 1) {
      detail::VectorToScalar();
      red.SetValue(i, row.GetValue(0));
      detail::ScalarToVector();
      continue;
    }
    while (total > 1) {
      const LocalTensor<float> out = total <= kPerRepeat ? red[i] : row;
      SetMaskCount();
      SetVectorMask<float, MaskMode::COUNTER>(0, total);
      RepeatReduceSum<float, false>(out, row, 1, MASK_PLACEHOLDER, 1, 1, 1, 8);
      SetMaskNorm();
      ResetMask();
      total = (total + kPerRepeat - 1) / kPerRepeat;
    }
  }
}

}  // namespace detail

template <class T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const T epsilon, const RmsNormTiling& tiling) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "RmsNorm takes half or float");
  namespace ai = ascsim::aicore;
  constexpr const char* api = "RmsNorm";
  const uint32_t h = tiling.hLength, total = tiling.bLength * tiling.sLength * h;
  if (h == 0 || tiling.originalHLength == 0 || tiling.originalHLength > h ||
      (tiling.loopRound == 0 && tiling.tailBsLength == 0) || tiling.mainBsLength == 0) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": the RmsNormTiling is not filled in (hLength ", h,
                      ", originalHLength ", tiling.originalHLength, ", mainBsLength ",
                      tiling.mainBsLength, "); fill it with GetRmsNormTilingInfo"));
  }
  ai::CheckCalCount(api, total, srcLocal.GetSize(), dstLocal.GetSize());
  ai::CheckUbRole(api, "gammaLocal", gammaLocal, h, ai::Access::kRead);  // an input
  // Temporary layout: reduced [mainBsLengthAlign] | squares [mainBshLength] | x as float (half).
  const uint64_t need = (uint64_t{tiling.mainBsLengthAlign} + tiling.mainBshLength +
                         (sizeof(T) == 2 ? tiling.mainBshLength : 0)) *
                        sizeof(float);
  ai::TensorAccess::CheckLive(sharedTmpBuffer, api, "sharedTmpBuffer");
  if (sharedTmpBuffer.GetSize() < need) {
    ai::FaultTmpTooSmall(api, sharedTmpBuffer.GetSize(), need, "this tiling needs");
  }
  ai::CheckTmp(api, sharedTmpBuffer, need);
  const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
  const LocalTensor<float> red = tmp, sq = tmp[tiling.mainBsLengthAlign];
  const LocalTensor<float> xf32 = tmp[tiling.mainBsLengthAlign + tiling.mainBshLength];
  auto piece = [&](uint32_t offset, uint32_t rows) {
    const uint32_t n = rows * h;
    LocalTensor<float> x;
    if constexpr (sizeof(T) == 2) {
      x = xf32;
      Cast(x, srcLocal[offset], RoundMode::CAST_NONE, n);
    } else {
      x = srcLocal[offset];
    }
    Mul(sq, x, x, n);
    detail::RmsNormRowSums(red, sq, rows, h, tiling.originalHLength);
    Muls(red, red, tiling.reciprocalOfHLength, rows);
    Adds(red, red, float(epsilon), rows);
    Ln(red, red, rows);
    Muls(red, red, -0.5f, rows);
    Exp(red, red, rows);
    detail::VectorToScalar();
    for (uint32_t i = 0; i < rows; ++i) Muls(sq[i * h], x[i * h], red.GetValue(i), h);
    detail::ScalarToVector();  // red is rewritten by the next rows' reductions
    if constexpr (sizeof(T) == 2) {
      LocalTensor<float> g = xf32;  // x is no longer needed
      Cast(g, gammaLocal, RoundMode::CAST_NONE, h);
      for (uint32_t i = 0; i < rows; ++i) Mul(sq[i * h], sq[i * h], g, h);
      Cast(dstLocal[offset], sq, RoundMode::CAST_NONE, n);
    } else {
      for (uint32_t i = 0; i < rows; ++i) Mul(dstLocal[offset + i * h], sq[i * h], gammaLocal, h);
    }
  };
  for (uint32_t i = 0; i < tiling.loopRound; ++i)
    piece(i * tiling.mainBshLength, tiling.mainBsLength);
  if (tiling.tailBsLength != 0) piece(tiling.inputTailPos, tiling.tailBsLength);
}
template <class T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<T>& gammaLocal, const T epsilon, const RmsNormTiling& tiling) {
  RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, detail::AdvStack("RmsNorm"), epsilon,
                           tiling);
}

// ============================================================================================
// LayerNorm ([B, S, H]: output, mean, variance), include/adv_api/normalization/layernorm.h;
// docs 高阶API/归一化操作/LayerNorm.md. The scratch layout is the tiling's
// (GetLayerNormNDTilingInfo):
// half keeps mean and variance in float at meanTmpTensorPos / varianceTmpTensorPos, then three
// pieces of oneTmpSize floats (x as float, a work piece, x - mean); float uses a work piece, x -
// mean and a spare for the rows' rstd (inputX itself with isReuseSource, as CANN's 2 pieces).
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
               LayerNormTiling& tiling) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "LayerNorm takes half or float");
  namespace ai = ascsim::aicore;
  constexpr const char* api = "LayerNorm";
  if (ai::OnCubeCoreOnly()) return;
  constexpr bool kHalf = sizeof(T) == 2;
  const uint32_t h = tiling.hLength, oh = tiling.originalHLength, rows = tiling.meanVarSize;
  if (h == 0 || oh == 0 || oh > h || tiling.oneTmpSize == 0 || tiling.oneTmpSize % h != 0 ||
      tiling.inputXSize != rows * h || tiling.meanVarRoundSize == 0) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": the LayerNormTiling is not filled in (oneTmpSize ", tiling.oneTmpSize,
                      ", hLength ", h, ", originalHLength ", oh, ", inputXSize ",
                      tiling.inputXSize, ", meanVarSize ", rows,
                      "); fill it with GetLayerNormNDTilingInfo({B, S, storageHLength, "
                      "originHLength}, ...)"));
  }
  ai::CheckCalCount(api, tiling.inputXSize, inputX.GetSize(), output.GetSize());
  ai::CheckUbRole(api, "gamma", gamma, h, ai::Access::kRead);
  ai::CheckUbRole(api, "beta", beta, h, ai::Access::kRead);
  ai::CheckUbRole(api, "outputMean", outputMean, rows, ai::Access::kWrite);
  ai::CheckUbRole(api, "outputVariance", outputVariance, rows, ai::Access::kWrite);
  constexpr bool kReuse = isReuseSource && !kHalf;  // float may use inputX as the third piece
  const uint32_t pieces = kReuse ? 2 : 3;
  const uint64_t need =
      (uint64_t{tiling.firstTmpStartPos} + uint64_t{pieces} * tiling.oneTmpSize) * sizeof(float);
  ai::TensorAccess::CheckLive(sharedTmpBuffer, api, "sharedTmpBuffer");
  if (sharedTmpBuffer.GetSize() < need) {
    ai::FaultTmpTooSmall(api, sharedTmpBuffer.GetSize(), need, "this tiling needs");
  }
  ai::CheckTmp(api, sharedTmpBuffer, need);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "inputX", inputX, tiling.inputXSize);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "output", output, tiling.inputXSize);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "gamma", gamma, h);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "beta", beta, h);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "outputMean", outputMean, rows);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "outputVariance", outputVariance, rows);
  // output may reuse inputX (the doc's constraint); no other output may share an operand.
  ai::CheckNoOverlap(api, "outputMean", outputMean, "outputVariance", outputVariance, rows);
  ai::CheckNoOverlap(api, "outputMean", outputMean, "inputX", inputX, rows);
  ai::CheckNoOverlap(api, "outputVariance", outputVariance, "inputX", inputX, rows);
  const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
  const LocalTensor<float> work =
      kHalf ? tmp[tiling.secondTmpStartPos] : tmp[tiling.firstTmpStartPos];
  const LocalTensor<float> xc =
      kHalf ? tmp[tiling.thirdTmpStartPos] : tmp[tiling.secondTmpStartPos];
  const float inv = tiling.lastDimValueBack;
  auto piece = [&](uint32_t off, uint32_t mv, uint32_t n_rows) {
    const uint32_t n = n_rows * h;
    LocalTensor<float> x, mean, var, spare;
    if constexpr (kHalf) {
      x = tmp[tiling.firstTmpStartPos];
      Cast(x, inputX[off], RoundMode::CAST_NONE, n);
      mean = tmp[tiling.meanTmpTensorPos + mv];
      var = tmp[tiling.varianceTmpTensorPos + mv];
      spare = x;  // x is centred into xc before rstd is formed
    } else {
      x = inputX[off];
      mean = outputMean[mv];
      var = outputVariance[mv];
      spare = kReuse ? inputX[off] : tmp[tiling.thirdTmpStartPos];
    }
    Muls(work, x, inv, n);
    detail::RmsNormRowSums(mean, work, n_rows, h, oh);
    detail::VectorToScalar();
    for (uint32_t i = 0; i < n_rows; ++i) Adds(xc[i * h], x[i * h], -mean.GetValue(i), h);
    detail::ScalarToVector();
    Mul(work, xc, xc, n);
    Muls(work, work, inv, n);
    detail::RmsNormRowSums(var, work, n_rows, h, oh);
    // rstd needs a 32 B aligned start, which var[mv] is not in general: a spare piece (x as
    // float for half, the third piece for float, or inputX itself with isReuseSource).
    const LocalTensor<float> rstd = spare;
    detail::VectorToScalar();
    for (uint32_t i = 0; i < n_rows; ++i) rstd.SetValue(i, var.GetValue(i));
    detail::ScalarToVector();
    Adds(rstd, rstd, static_cast<float>(epsilon), n_rows);
    Ln(rstd, rstd, n_rows);
    Muls(rstd, rstd, -0.5f, n_rows);
    Exp(rstd, rstd, n_rows);
    detail::VectorToScalar();
    for (uint32_t i = 0; i < n_rows; ++i) Muls(xc[i * h], xc[i * h], rstd.GetValue(i), h);
    detail::ScalarToVector();  // rstd is rewritten by the next piece
    if constexpr (kHalf) {
      const LocalTensor<float> g = x, b = work;  // x, rstd and the squares are no longer needed
      Cast(g, gamma, RoundMode::CAST_NONE, h);
      Cast(b, beta, RoundMode::CAST_NONE, h);
      for (uint32_t i = 0; i < n_rows; ++i) {
        Mul(xc[i * h], xc[i * h], g, h);
        Add(xc[i * h], xc[i * h], b, h);
      }
      Cast(output[off], xc, RoundMode::CAST_NONE, n);
    } else {
      for (uint32_t i = 0; i < n_rows; ++i) {
        Mul(xc[i * h], xc[i * h], gamma, h);
        Add(output[off + i * h], xc[i * h], beta, h);
      }
    }
  };
  for (uint32_t i = 0; i < tiling.loopRound; ++i) {
    piece(i * tiling.inputRoundSize, i * tiling.meanVarRoundSize, tiling.meanVarRoundSize);
  }
  if (tiling.inputTailSize > 0) {
    tiling.bshCurLength = tiling.inputTailSize;  // LayerNormND leaves the tail's lengths behind
    tiling.bsCurLength = tiling.meanVarTailSize;
    piece(tiling.inputTailPos, tiling.meanVarTailPos, tiling.meanVarTailSize);
  }
  if constexpr (kHalf) {
    Cast(outputMean, tmp[tiling.meanTmpTensorPos], RoundMode::CAST_NONE, rows);
    Cast(outputVariance, tmp[tiling.varianceTmpTensorPos], RoundMode::CAST_NONE, rows);
  }
}
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               LayerNormTiling& tiling) {
  LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                              detail::AdvStack("LayerNorm"), epsilon, tiling);
}

// ============================================================================================
// SoftMax
struct SoftMaxShapeInfo {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

namespace detail {

// The [m, k] a softmax API works on: softmaxShapeInfo when its srcM and srcK are set, else the
// last axis of the src tensor's ShapeInfo (m = the product of the other dims, k = the last one;
// the original shape from its originalShape), as asc-devkit's softmax_base_impl.h /
// softmax_grad_base_impl.h read src.GetShapeInfo() through GetLastAxisShapeND (production kernels
// SetShapeInfo on their softmax inputs, e.g. ops-transformer flash_attention_score). A src with no
// shape info leaves the zeros, and the caller takes the tiling's srcM / srcK.
inline SoftMaxShapeInfo SoftMaxShapeOf(const SoftMaxShapeInfo& given, const ShapeInfo& src) {
  if ((given.srcM != 0 && given.srcK != 0) || src.shapeDim == 0) return given;
  const auto last_axis = [](uint8_t dims, const uint32_t* shape, uint32_t& m, uint32_t& k) {
    uint64_t size = 1;
    for (uint8_t i = 0; i < dims; ++i) size *= shape[i];
    k = dims ? shape[dims - 1] : 0;
    m = k ? static_cast<uint32_t>(size / k) : 0;
  };
  SoftMaxShapeInfo out;
  last_axis(src.shapeDim, src.shape, out.srcM, out.srcK);
  last_axis(src.originalShapeDim, src.originalShape, out.oriSrcM, out.oriSrcK);
  return out;
}

// Floats of temporary space per row: the row in float, one 32 B block of results, the reduction's
// work area (at least 64 floats, as the device's tiling reserves).
inline uint32_t SoftMaxWorkFloats(uint32_t k) {
  const uint32_t repeats = (k + 63) / 64;
  const uint32_t work = (repeats + 7) / 8 * 8;
  return work > 64 ? work : 64;
}
inline uint64_t SoftMaxTmpFloats(uint32_t k, uint32_t elem_bytes) {
  return uint64_t{k} + ONE_BLK_SIZE / elem_bytes + SoftMaxWorkFloats(k);
}

template <class T1, class T2>
void SoftMaxRun(const LocalTensor<T1>& dst, const LocalTensor<T2>* sum, const LocalTensor<T2>* max,
                const LocalTensor<T1>& src, const LocalTensor<uint8_t>& tmp,
                const SoftMaxTiling& tiling, const SoftMaxShapeInfo& given, bool nz) {
  static_assert(ascsim::aicore::kHalfOrFloat<T1> && ascsim::aicore::kHalfOrFloat<T2>,
                "SoftMax takes half or float");
  const SoftMaxShapeInfo shape = SoftMaxShapeOf(given, src.GetShapeInfo());
  namespace ai = ascsim::aicore;
  constexpr const char* api = "SoftMax";
  if (nz) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              "SoftMax: isDataFormatNZ = true (NZ layout) is not simulated; ascsim computes ND");
  }
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
  constexpr uint32_t blk2 = ONE_BLK_SIZE / sizeof(T2);
  // sumTensor and maxTensor are outputs (the SoftMax docs: "dst、sum、max为目的操作数"): their
  // direction comes from that role, not from their names.
  if (sum) ai::CheckUbRole(api, "sumTensor", *sum, uint64_t{m} * blk2, ai::Access::kWrite);
  if (max) ai::CheckUbRole(api, "maxTensor", *max, uint64_t{m} * blk2, ai::Access::kWrite);
  const uint64_t need = SoftMaxTmpFloats(k, sizeof(T1)) * sizeof(float);
  ai::TensorAccess::CheckLive(tmp, api, "sharedTmpBuffer");
  if (tmp.GetSize() < need) ai::FaultTmpTooSmall(api, tmp.GetSize(), need, "one row needs");
  ai::CheckTmp(api, tmp, need);
  const LocalTensor<float> f = tmp.ReinterpretCast<float>();
  const LocalTensor<float> red = f[k], work = f[k + ONE_BLK_SIZE / sizeof(T1)];
  BinaryRepeatParams brc(1, 1, 0, 8, 8, 0);  // src1: one block, repeated
  for (uint32_t r = 0; r < m; ++r) {
    // float: x - max reads the src row and writes the dst row (they may be the same tensor);
    // half: the row is converted into the temporary buffer first.
    LocalTensor<float> row, x;
    if constexpr (sizeof(T1) == 2) {
      row = f;
      Cast(row, src[r * k], RoundMode::CAST_NONE, k);
      x = row;
    } else {
      row = dst[r * k];
      x = src[r * k];
    }
    ReduceMax(red, x, work, ori_k);
    detail::VectorToScalar();
    const float mx = red.GetValue(0);
    detail::ScalarToVector();  // red is rewritten next
    if (max) Duplicate((*max)[r * blk2], T2(mx), blk2);
    Duplicate(red, mx, 8);
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, k);
    Sub<float, false>(row, x, red, MASK_PLACEHOLDER, 1, brc);
    SetMaskNorm();
    ResetMask();
    Exp(row, row, k);
    ReduceSum(red, row, work, ori_k);
    detail::VectorToScalar();
    const float sm = red.GetValue(0);
    detail::ScalarToVector();  // red is rewritten next
    if (sum) Duplicate((*sum)[r * blk2], T2(sm), blk2);
    Duplicate(red, sm, 8);
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, k);
    Div<float, false>(row, row, red, MASK_PLACEHOLDER, 1, brc);
    SetMaskNorm();
    ResetMask();
    if constexpr (sizeof(T1) == 2) Cast(dst[r * k], row, RoundMode::CAST_NONE, k);
  }
}

}  // namespace detail

template <class T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
             const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftMaxRun<T, T>(dstTensor, &sumTensor, &maxTensor, srcTensor, sharedTmpBuffer, tiling,
                           softmaxShapeInfo, isDataFormatNZ);
}
template <class T1, class T2, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T1>& dstTensor, const LocalTensor<T2>& sumTensor,
             const LocalTensor<T2>& maxTensor, const LocalTensor<T1>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftMaxRun<T1, T2>(dstTensor, &sumTensor, &maxTensor, srcTensor, sharedTmpBuffer, tiling,
                             softmaxShapeInfo, isDataFormatNZ);
}
template <class T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftMaxRun<T, T>(dstTensor, nullptr, nullptr, srcTensor, sharedTmpBuffer, tiling,
                           softmaxShapeInfo, false);
}
template <class T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
             const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftMaxRun<T, T>(dstTensor, &sumTensor, &maxTensor, srcTensor,
                           detail::AdvStack("SoftMax"), tiling, softmaxShapeInfo, isDataFormatNZ);
}
template <class T1, class T2, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T1>& dstTensor, const LocalTensor<T2>& sumTensor,
             const LocalTensor<T2>& maxTensor, const LocalTensor<T1>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftMaxRun<T1, T2>(dstTensor, &sumTensor, &maxTensor, srcTensor,
                             detail::AdvStack("SoftMax"), tiling, softmaxShapeInfo, isDataFormatNZ);
}
template <class T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::SoftMaxRun<T, T>(dstTensor, nullptr, nullptr, srcTensor, detail::AdvStack("SoftMax"),
                           tiling, softmaxShapeInfo, false);
}

// ======================================================================================
// AscendDequant
struct DequantParams {
  uint32_t m;         // rows
  uint32_t n;         // columns of src (n * sizeof(int32_t) a multiple of 32 B)
  uint32_t calCount;  // leading columns of each row that are dequantised
};
enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

namespace detail {

template <class dstT, class scaleT, DeQuantMode mode>
void DequantRun(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src,
                const LocalTensor<scaleT>* scale, scaleT scalar, const LocalTensor<uint8_t>& tmp,
                DequantParams p) {
  static_assert(
      std::is_same_v<dstT, half> || std::is_same_v<dstT, float> || std::is_same_v<dstT, bfloat16_t>,
      "AscendDequant: dstT is half, bfloat16_t or float");
  static_assert(std::is_same_v<scaleT, float> || std::is_same_v<scaleT, bfloat16_t> ||
                    std::is_same_v<scaleT, uint64_t>,
                "AscendDequant: the scale is float, bfloat16_t or (a tensor of) uint64_t");
  namespace ai = ascsim::aicore;
  constexpr const char* api = "AscendDequant";
  if (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW && p.m == 1 && p.calCount != 0 &&
      p.calCount % (ONE_BLK_SIZE / sizeof(dstT)) == 0 && p.n % p.calCount == 0) {
    p = DequantParams{p.n / p.calCount, p.calCount, p.calCount};
  }
  if ((uint64_t{p.n} * sizeof(int32_t)) % ONE_BLK_SIZE != 0 || p.calCount == 0 ||
      p.calCount > p.n) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": DequantParams {m ", p.m, ", n ", p.n, ", calCount ", p.calCount,
                      "} needs n * 4 a multiple of 32 B and 1 <= calCount <= n"));
  }
  const uint32_t n_dst = static_cast<uint32_t>((uint64_t{p.n} * sizeof(dstT) + ONE_BLK_SIZE - 1) /
                                               ONE_BLK_SIZE * ONE_BLK_SIZE / sizeof(dstT));
  if (p.m == 0) return;
  // Directions from the AscendDequant docs' roles: src and deqScale in, dst out.
  ai::CheckUbRole(api, "srcTensor", src, uint64_t{p.m - 1} * p.n + p.calCount, ai::Access::kRead);
  ai::CheckUbRole(api, "dstTensor", dst, uint64_t{p.m - 1} * n_dst + p.calCount,
                  ai::Access::kWrite);
  if (scale) ai::CheckUbRole(api, "deqScale", *scale, p.calCount, ai::Access::kRead);
  // Temporary: the row in float, and the scale in float when it is not float already.
  const bool convert_scale = scale != nullptr && !std::is_same_v<scaleT, float>;
  const uint64_t row_floats = (p.calCount + 7) / 8 * 8;
  const uint64_t need = row_floats * sizeof(float) * (convert_scale ? 2 : 1);
  ai::TensorAccess::CheckLive(tmp, api, "sharedTmpBuffer");
  if (tmp.GetSize() < need) ai::FaultTmpTooSmall(api, tmp.GetSize(), need, "one row needs");
  ai::CheckTmp(api, tmp, need);
  const LocalTensor<float> f = tmp.ReinterpretCast<float>();
  LocalTensor<float> sf = f[row_floats];
  if (scale) {
    if constexpr (std::is_same_v<scaleT, float>) {
      sf = *scale;
    } else if constexpr (std::is_same_v<scaleT, bfloat16_t>) {
      Cast(sf, *scale, RoundMode::CAST_NONE, p.calCount);
    } else {
      // uint64_t scales: the float scale sits in the low 32 bits of each element.
      const LocalTensor<uint32_t> words = scale->template ReinterpretCast<uint32_t>();
      detail::VectorToScalar();
      for (uint32_t j = 0; j < p.calCount; ++j) {
        sf.SetValue(j, ascsim::BitsToFloat(words.GetValue(2 * j)));
      }
      detail::ScalarToVector();
    }
  }
  const float s = float(scalar);
  for (uint32_t i = 0; i < p.m; ++i) {
    LocalTensor<float> row;
    if constexpr (std::is_same_v<dstT, float>) {
      row = dst[i * n_dst];  // float results go straight to dst
    } else {
      row = f;
    }
    Cast(row, src[i * p.n], RoundMode::CAST_NONE, p.calCount);
    if (scale)
      Mul(row, row, sf, p.calCount);
    else
      Muls(row, row, s, p.calCount);
    if constexpr (!std::is_same_v<dstT, float>) {
      Cast(dst[i * n_dst], row, RoundMode::CAST_RINT, p.calCount);
    }
  }
}

}  // namespace detail

template <class dstT, class scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   DequantParams params) {
  detail::DequantRun<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, scaleT{}, sharedTmpBuffer,
                                         params);
}
template <class dstT, class scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, DequantParams params) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale,
                                    detail::AdvStack("AscendDequant"), params);
}
template <class dstT, class scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   DequantParams params) {
  detail::DequantRun<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, deqScale, sharedTmpBuffer,
                                         params);
}
template <class dstT, class scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const scaleT deqScale, DequantParams params) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale,
                                    detail::AdvStack("AscendDequant"), params);
}

}  // namespace AscendC
