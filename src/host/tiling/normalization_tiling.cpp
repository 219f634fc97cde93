// The normalization APIs' host tiling (tiling/normalization_tiling.h), with CANN's messages on
// stderr.
#include "tiling/normalization_tiling.h"

#include <cstdio>

namespace AscendC {
namespace {

uint32_t RoundUp32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// CheckLayerNormHostCommon, except that a bad shape stops the caller here (CANN would read a
// fourth dimension that is not there).
bool CheckLayerNormHost(const char* func, const TensorShape& srcShape, uint32_t typeSize) {
  if (srcShape.GetShapeSize() <= 0) {
    std::fprintf(stderr, "[LayerNorm][%s] Input Shape size must be greater than 0.\n", func);
    return false;
  }
  if (srcShape.GetDimNum() != 4) {
    std::fprintf(stderr,
                 "[LayerNorm][%s] The dims of srcShape is %zu, should be 4 (e.g. [B, S, "
                 "storageHLength, originHLength])!\n",
                 func, srcShape.GetDimNum());
    return false;
  }
  if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr, "[LayerNorm][%s] Type size %u is unsupported!\n", func, typeSize);
    return false;
  }
  return true;
}

}  // namespace

// impl/adv_api/tiling/normalization/layernorm_tiling_impl.cpp GetLayerNormMaxTmpSize /
// GetLayerNormMinTmpSize.
void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                               const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (!CheckLayerNormHost("GetLayerNormMaxMinTmpSize", srcShape, typeSize)) return;
  const uint32_t b = static_cast<uint32_t>(srcShape.GetDim(0));
  const uint32_t s = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2));
  const uint32_t mv = RoundUp32(b * s * sizeof(float));
  const uint32_t pieces = isReuseSource && typeSize == sizeof(float) ? 2 : 3;
  maxValue = pieces * RoundUp32(b * s * h * sizeof(float)) + 2 * mv;
  minValue = pieces * RoundUp32(h * sizeof(float)) + 2 * mv;
}

// layernorm_tiling_impl.cpp GetLayerNormNDTilingInfoImpl, field by field.
void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              tiling::LayerNormTiling& tiling) {
  if (!CheckLayerNormHost("GetLayerNormNDTilingInfo", srcShape, typeSize)) return;
  const uint32_t b = static_cast<uint32_t>(srcShape.GetDim(0));
  const uint32_t s = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2));
  const uint32_t oh = static_cast<uint32_t>(srcShape.GetDim(3));
  if (h == 0) {
    std::fprintf(stderr, "the value of hLength should not be zero.\n");
    return;
  }
  const uint32_t inputXSize = b * s * h, meanVarSize = b * s;
  const uint32_t numberOfTmpBuf = isReuseSource && typeSize == sizeof(float) ? 2 : 3;
  constexpr uint32_t kPerBlock = 32 / sizeof(float);
  const uint32_t meanTmpSize = (meanVarSize + kPerBlock - 1) / kPerBlock * kPerBlock;
  const uint32_t meanVarTotal = typeSize == sizeof(float) ? 0 : 2 * meanTmpSize;
  const uint32_t tmpBufSize = stackBufferSize / sizeof(float);
  uint32_t oneTmpSize =
      tmpBufSize > meanVarTotal ? (tmpBufSize - meanVarTotal) / numberOfTmpBuf : 0;
  oneTmpSize = oneTmpSize / h * h;
  if (oneTmpSize > inputXSize) oneTmpSize = inputXSize;
  if (oneTmpSize == 0) return;  // CANN leaves the tiling untouched: too little scratch
  tiling.bLength = b;
  tiling.sLength = s;
  tiling.hLength = h;
  tiling.originalHLength = oh;
  tiling.inputXSize = inputXSize;
  tiling.meanVarSize = meanVarSize;
  tiling.numberOfTmpBuf = numberOfTmpBuf;
  tiling.meanTmpTensorPos = 0;
  tiling.meanTmpTensorSize = meanTmpSize;
  tiling.varianceTmpTensorPos = meanTmpSize;
  tiling.varianceTmpTensorSize = meanTmpSize;
  tiling.tmpBufSize = tmpBufSize;
  tiling.oneTmpSize = oneTmpSize;
  tiling.firstTmpStartPos = meanVarTotal;
  tiling.secondTmpStartPos = meanVarTotal + oneTmpSize;
  tiling.thirdTmpStartPos = meanVarTotal + 2 * oneTmpSize;
  tiling.loopRound = inputXSize / oneTmpSize;
  tiling.inputRoundSize = oneTmpSize;
  tiling.inputTailSize = inputXSize % oneTmpSize;
  tiling.inputTailPos = inputXSize - tiling.inputTailSize;
  tiling.meanVarRoundSize = oneTmpSize / h;
  tiling.meanVarTailSize = tiling.inputTailSize / h;
  tiling.meanVarTailPos = meanVarSize - tiling.meanVarTailSize;
  tiling.bshCurLength = oneTmpSize;
  tiling.bsCurLength = tiling.meanVarRoundSize;
  tiling.lastDimValueBack = 1.0f / static_cast<float>(oh);
}

void GetWelfordUpdateMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeT,
                                   const uint32_t, const bool isReuseSource, const bool,
                                   uint32_t& maxValue, uint32_t& minValue) {
  constexpr uint32_t kRepeatBytes = 256, kFloatsPerRepeat = kRepeatBytes / sizeof(float);
  if (srcShape.GetDimNum() != 2) {
    std::fprintf(stderr, "srcShape dims must be 2.\n");
    return;
  }
  const uint32_t rnLength = static_cast<uint32_t>(srcShape.GetDim(0));
  const uint32_t abLength = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t pieces = typeSizeT == sizeof(uint16_t) ? 3 : (isReuseSource ? 1 : 2);
  minValue = pieces * kRepeatBytes;
  maxValue = (rnLength * abLength + kFloatsPerRepeat - 1) / kFloatsPerRepeat * minValue;
}

}  // namespace AscendC
