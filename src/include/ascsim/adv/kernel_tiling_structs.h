// More kernel-side tiling structures of CANN's kernel_tiling/kernel_tiling.h that production
// kernels name: TopkTiling, ConfusionTransposeTiling, LayerNormTiling, LayerNormSeparateTiling and
// the MC2 (HCCL) structures. Plain structs in AscendC::tiling, packed to 8, re-exported in AscendC
// and globally as CANN's generator does (asc-devkit impl/adv_api/cmake/scripts/
// gen_kernel_tiling_data_def.py); the fields, in order, are those of their BEGIN_TILING_DATA_DEF in
// include/adv_api/{sort/topk_tilingdata.h, transpose/confusion_transpose_tilingdata.h,
// normalization/layernorm_tilingdata.h, hccl/hccl_tilingdata.h}. ascsim has no kernel API that
// reads them yet (TopK, ConfusionTranspose, HCCL): kernels that only pass them around compile.
#pragma once

#include <cstdint>

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct TopkTiling {
  int32_t tmpLocalSize = 0;
  int32_t allDataSize = 0;
  int32_t innerDataSize = 0;
  uint32_t sortRepeat = 0;
  int32_t mrgSortRepeat = 0;
  int32_t kAlignFourBytes = 0;
  int32_t kAlignTwoBytes = 0;
  int32_t maskOffset = 0;
  int32_t maskVreducev2FourBytes = 0;
  int32_t maskVreducev2TwoBytes = 0;
  int32_t mrgSortSrc1offset = 0;
  int32_t mrgSortSrc2offset = 0;
  int32_t mrgSortSrc3offset = 0;
  int32_t mrgSortTwoQueueSrc1Offset = 0;
  int32_t mrgFourQueueTailPara1 = 0;
  int32_t mrgFourQueueTailPara2 = 0;
  int32_t srcIndexOffset = 0;
  uint32_t copyUbToUbBlockCount = 0;
  int32_t topkMrgSrc1MaskSizeOffset = 0;
  int32_t topkNSmallSrcIndexOffset = 0;
  uint32_t vreduceValMask0 = 0;
  uint32_t vreduceValMask1 = 0;
  uint32_t vreduceIdxMask0 = 0;
  uint32_t vreduceIdxMask1 = 0;
  uint16_t vreducehalfValMask0 = 0;
  uint16_t vreducehalfValMask1 = 0;
  uint16_t vreducehalfValMask2 = 0;
  uint16_t vreducehalfValMask3 = 0;
  uint16_t vreducehalfValMask4 = 0;
  uint16_t vreducehalfValMask5 = 0;
  uint16_t vreducehalfValMask6 = 0;
  uint16_t vreducehalfValMask7 = 0;
};
struct ConfusionTransposeTiling {
  uint32_t param0 = 0;
  uint32_t param1 = 0;
  uint32_t param2 = 0;
  uint32_t param3 = 0;
  uint32_t param4 = 0;
  uint32_t param5 = 0;
  uint32_t param6 = 0;
  uint32_t param7 = 0;
  uint32_t param8 = 0;
  uint32_t param9 = 0;
  uint32_t param10 = 0;
  uint32_t param11 = 0;
  uint32_t param12 = 0;
  uint32_t param13 = 0;
  uint32_t param14 = 0;
  uint32_t param15 = 0;
  uint32_t param16 = 0;
  uint32_t param17 = 0;
};
struct LayerNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t meanTmpTensorPos = 0;
  uint32_t meanTmpTensorSize = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t varianceTmpTensorSize = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputRoundSize = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarRoundSize = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t bshCurLength = 0;
  uint32_t bsCurLength = 0;
  float lastDimValueBack = 0;
};
struct LayerNormSeparateTiling {
  uint32_t aLength = 0;
  uint32_t rLength = 0;
  uint32_t halfAddRepeatTimes = 0;
  uint32_t rHeadLength = 0;
  float k2Rec = 0;
  float k2RRec = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t varianceTmpTensorSize = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputRoundSize = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarRoundSize = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t arCurLength = 0;
  uint32_t aCurLength = 0;
  float rValueBack = 0;
};
struct Mc2ServerCfg {
  uint32_t version = 0;
  uint8_t debugMode = 0;
  uint8_t sendArgIndex = 0;
  uint8_t recvArgIndex = 0;
  uint8_t commOutArgIndex = 0;
  uint8_t reserved[8] = {};
};
struct Mc2HcommCfg {
  uint8_t skipLocalRankCopy = 0;
  uint8_t skipBufferWindowCopy = 0;
  uint8_t stepSize = 0;
  char reserved[13] = {};
  char groupName[128] = {};
  char algConfig[128] = {};
  uint32_t opType = 0;
  uint32_t reduceType = 0;
};
struct Mc2InitTiling {
  uint8_t reserved[64] = {};
};
struct Mc2CcTiling {
  uint8_t reserved[512] = {};
};
#pragma pack(pop)

}  // namespace tiling

using tiling::ConfusionTransposeTiling;
using tiling::LayerNormSeparateTiling;
using tiling::LayerNormTiling;
using tiling::Mc2CcTiling;
using tiling::Mc2HcommCfg;
using tiling::Mc2InitTiling;
using tiling::Mc2ServerCfg;
using tiling::TopkTiling;

}  // namespace AscendC

using AscendC::tiling::ConfusionTransposeTiling;
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::Mc2CcTiling;
using AscendC::tiling::Mc2HcommCfg;
using AscendC::tiling::Mc2InitTiling;
using AscendC::tiling::Mc2ServerCfg;
using AscendC::tiling::TopkTiling;
