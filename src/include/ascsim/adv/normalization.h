// The normalization advanced APIs of asc-devkit include/adv_api/normalization/layernorm.h (Atlas
// A2/A3 algorithm of impl/adv_api/detail/normalization/layernorm/layernorm_common_impl.h and
// layernorm_common_basic_impl.h; docs/zh/api/SIMD-API/高阶API/归一化操作) and the structs of
// layernorm_utils.h:
//   WelfordUpdate  one step of Welford's online mean / variance over a [1, abLength] block:
//                  mean_i = mean_{i-1} + (x - mean_{i-1}) * nRec,
//                  M_i = M_{i-1} + (x - mean_{i-1}) * (x - mean_i), in float (half x is cast),
//                  over the first abComputeLength elements; with config.isInplace the rest of the
//                  outputs (from the 32 B block holding the first uncomputed element) are copied
//                  from the inputs. The temporary buffer holds 1 (float, isReuseSource: x - mean
//                  is formed in inputX), 2 (float) or 3 (half) float pieces of 64 * k elements.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/math.h"

namespace AscendC {

struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
constexpr LayerNormConfig GetLayerNormNormalConfig() { return {false, false, false, true}; }
constexpr LayerNormConfig LNCFG_NORM = GetLayerNormNormalConfig();

struct WelfordUpdateConfig {
  constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
  bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct LayerNormPara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};

struct WelfordUpdateParam {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t abComputeLength;
  float nRec;
};

namespace detail {

void CheckWelfordUpdateParam(const WelfordUpdateParam& para, uint64_t x_size, uint32_t type_size);

// mean_out = mean + (x - mean) * nRec; var_out = var + (x - mean) * (x - mean_out) over n floats
// (WelfordUpdateComputeTo32 / To32Res / the half form). `x` is float here (half is cast first);
// `tmp` and `out` are pieces of the temporary buffer (out may be x with isReuseSource).
inline void WelfordStep(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                        const LocalTensor<float>& x, const LocalTensor<float>& inMean,
                        const LocalTensor<float>& inVar, const LocalTensor<float>& tmp,
                        const LocalTensor<float>& out, bool reuse, float nRec, uint32_t n) {
  Sub(tmp, x, inMean, n);
  Muls(reuse ? tmp : out, tmp, nRec, n);
  Add(outMean, reuse ? tmp : out, inMean, n);
  if (reuse) {
    Sub(tmp, x, outMean, n);
    Sub(x, x, inMean, n);
    Mul(tmp, tmp, x, n);
  } else {
    Sub(out, x, outMean, n);
    Mul(tmp, tmp, out, n);
  }
  Add(outVar, tmp, inVar, n);
}

}  // namespace detail

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                   const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   const WelfordUpdateParam& para) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>,
                "Failed to check dtype of inputX, inputX support dtype is: half/float.");
  static_assert(std::is_same_v<U, float>,
                "Failed to check dtype of mean/var, mean/var support dtype is: float.");
  namespace ai = ascsim::aicore;
  constexpr const char* api = "WelfordUpdate";
  if (ai::OnCubeCoreOnly()) return;
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr bool kReuse = isReuseSource && !kHalf;
  constexpr uint32_t pieces = kHalf ? 3 : (kReuse ? 1 : 2);
  detail::CheckWelfordUpdateParam(para, inputX.GetSize(), sizeof(T));
  const uint32_t len = para.abLength;
  ai::TensorAccess::CheckLive(sharedTmpBuffer, api, "sharedTmpBuffer");
  if (sharedTmpBuffer.GetSize() < uint64_t{ONE_REPEAT_BYTE_SIZE} * pieces) {
    ai::FaultTmpTooSmall(api, sharedTmpBuffer.GetSize(), uint64_t{ONE_REPEAT_BYTE_SIZE} * pieces,
                         "the API needs at least");
  }
  ai::CheckTmp(api, sharedTmpBuffer, 0);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "outputMean", outputMean, len);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "outputVariance", outputVariance, len);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "inputMean", inputMean, len);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "inputVariance", inputVariance, len);
  ai::CheckTmpDisjoint(api, sharedTmpBuffer, "inputX", inputX, len);
  for (const auto& [role, out] : {std::pair<const char*, const LocalTensor<U>*>{"outputMean",
                                                                                &outputMean},
                                  {"outputVariance", &outputVariance}}) {
    ai::CheckNoOverlap(api, role, *out, "inputMean", inputMean, len);
    ai::CheckNoOverlap(api, role, *out, "inputVariance", inputVariance, len);
    ai::CheckNoOverlap(api, role, *out, "inputX", inputX, len);
  }
  ai::CheckNoOverlap(api, "outputMean", outputMean, "outputVariance", outputVariance, len);
  if (config.isInplace && para.abComputeLength < len) {
    // WelfordUpdateInplaceCompute: the tail from the block of the first uncomputed element.
    constexpr uint32_t per_block = ONE_BLK_SIZE / sizeof(U);
    const uint32_t tail = (len - para.abComputeLength + per_block - 1) / per_block * per_block;
    const uint32_t from = len - tail;
    DataCopy(outputMean[from], inputMean[from], tail);
    DataCopy(outputVariance[from], inputVariance[from], tail);
  }
  const uint32_t k = sharedTmpBuffer.GetSize() / (ONE_REPEAT_BYTE_SIZE * pieces);
  const uint32_t step = ONE_REPEAT_BYTE_SIZE / sizeof(float) * k;
  const LocalTensor<float> all = sharedTmpBuffer.ReinterpretCast<float>();
  detail::ForEachPiece(api, para.abComputeLength, step, [&](uint32_t off, uint32_t n) {
    if constexpr (kHalf) {
      const LocalTensor<float> x = all;
      Cast(x, inputX[off], RoundMode::CAST_NONE, n);
      detail::WelfordStep(outputMean[off], outputVariance[off], x, inputMean[off],
                          inputVariance[off], all[step], all[2 * step], false, para.nRec, n);
    } else {
      detail::WelfordStep(outputMean[off], outputVariance[off], inputX[off], inputMean[off],
                          inputVariance[off], all, kReuse ? all : all[step], kReuse, para.nRec, n);
    }
  });
}

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                   const LocalTensor<T>& inputX, const WelfordUpdateParam& para) {
  WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                             inputX, detail::AdvStack("WelfordUpdate"), para);
}

}  // namespace AscendC
