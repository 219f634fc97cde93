// The kernel-side configuration types of the Matmul API, at the scope CANN declares them:
//  - global: CubeFormat, LayoutMode, BatchMode, BatchOutMode, IterateOrder, ScheduleType,
//    IterateMode, DecompressionMode, MatmulConfig and its parameter structs, MatrixOffset
//    (asc-devkit include/adv_api/matmul/matmul_config.h), GetNormalConfig / GetMDLConfig /
//    GetSpecialMDLConfig / GetBasicConfig / GetIBShareNormConfig / GetMMConfig, CFG_NORM,
//    CFG_MDL, MM_CFG_BB, CFG_IBSHARE_NORM, MatmulApiStaticTiling (include/adv_api/matmul/
//    tiling.h);
//  - AscendC: MatmulType (impl/adv_api/detail/matmul/utils/matmul_type_def.h),
//    MatmulCallBackFunc (.../utils/matmul_call_back.h), ToMatmulConfig.
// CANN builds MatmulConfig with designated initialisers (C++20); here the same field values are
// set one by one so that the header stays C++17.
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/types.h"
#include "kernel_tiling/kernel_tiling.h"

constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;

enum class CubeFormat {
  ND = 0,
  NZ,
  ZN,
  ZZ,
  NN,
  ND_ALIGN,
  SCALAR,
  VECTOR,
  ROW_MAJOR = ND,
  COLUMN_MAJOR = 8,
};

enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };

enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };

#ifndef ASCC_STRUCT_ITERATEORDER
#define ASCC_STRUCT_ITERATEORDER
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
#endif

enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };

enum IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};

enum class DecompressionMode {
  DECOMP_NONE = 0b0000,
  DECOMP_2bitTo8bit = 0b0001,
  DECOMP_3bitTo8bit = 0b0010,
  DECOMP_4bitTo8bit = 0b0011,
  DECOMP_16bitTo64bit = 0b100,
  DECOMP_1bitTo8bit = 0b0101,
  DECOMP_1bitTo4bit = 0b0110,
  DECOMP_2bitTo4bit = 0b0111,
  DECOMP_3bitTo4bit = 0b1000,
};

struct MatmulConfig {
  bool doNorm = false;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  uint32_t basicM = 0;
  uint32_t basicN = 0;
  uint32_t basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  uint32_t doMTE2Preload = 0;
  uint32_t singleCoreM = 0;
  uint32_t singleCoreN = 0;
  uint32_t singleCoreK = 0;
  uint32_t stepM = 0;
  uint32_t stepN = 0;
  uint32_t baseMN = 0;
  uint32_t singleCoreMN = 0;
  bool enUnitFlag = true;
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
  bool doIBShareNorm = false;
  bool doSpecialMDL = false;
  bool enableInit = true;
  BatchMode batchMode = BatchMode::NONE;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
  bool enableReuse = true;
  bool enableUBReuse = false;
  bool enableL1CacheUB = false;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder{IterateOrder::UNDEF};
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableDoubleCache = false;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool isCO1Shared = false;
  uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
  bool enableL1BankConflictOptimise = false;
  bool enableRelu = false;
  DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

struct MatmulShapeParams {
  uint32_t singleCoreM;
  uint32_t singleCoreN;
  uint32_t singleCoreK;
  uint32_t basicM;
  uint32_t basicN;
  uint32_t basicK;
};
struct MatmulQuantParams {
  bool isPerTensor;
  bool hasAntiQuantOffset;
};
struct MatmulBatchParams {
  bool isNBatch;
  BatchMode batchMode;
  bool isBiasBatch = true;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
  bool intrinsicsCheck;
  bool enVecND2NZ;
  bool enableDoubleCache;
  bool enableL1CacheUB;
  uint32_t doMTE2Preload;
  IterateOrder iterateOrder;
  ScheduleType scheduleType;
  bool enableReuse = true;
  bool enableUBReuse;
  bool isPartialOutput = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool enableL1BankConflictOptimise = false;
  bool enableRelu = false;
  DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
struct MatmulBiasParams {
  bool enableSetBias = true;
};
struct MatrixOffset {
  int32_t offset;
  int32_t row;
  int32_t col;
  int32_t height;
  int32_t width;
};

constexpr MatmulConfig GetNormalConfig(
    const bool intrinsicsLimit = false, const bool batchLoop = false, const bool isVecND2NZ = false,
    const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, const bool isMsgReuse = true,
    const IterateOrder iterateOrder = IterateOrder::UNDEF,
    const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, const bool enUnitFlag = true,
    const bool enableMixDualMaster = false,
    const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
  MatmulConfig c{};
  c.doNorm = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.enUnitFlag = enUnitFlag;
  c.batchMode = bmmMode;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = true;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enableMixDualMaster = enableMixDualMaster;
  c.bmmOutMode = bmmOutMode;
  return c;
}

constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false,
                                    const bool batchLoop = false, const uint32_t doMTE2Preload = 0,
                                    const bool isVecND2NZ = false, bool isPerTensor = false,
                                    bool hasAntiQuantOffset = false, const bool enUnitFlag = false,
                                    const bool isMsgReuse = true, const bool enableUBReuse = true,
                                    const bool enableL1CacheUB = false,
                                    const bool enableMixDualMaster = false,
                                    const bool enableKdimReorderLoad = false,
                                    const bool enableL1BankConflictOptimise = false) {
  MatmulConfig c{};
  c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.doMTE2Preload = doMTE2Preload;
  c.enUnitFlag = enUnitFlag;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.batchMode = BatchMode::NONE;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  c.enableL1BankConflictOptimise = enableL1BankConflictOptimise;
  return c;
}

constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false,
                                           const bool batchLoop = false,
                                           const uint32_t doMTE2Preload = 0,
                                           const bool isVecND2NZ = false, bool isPerTensor = false,
                                           bool hasAntiQuantOffset = false) {
  MatmulConfig c{};
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.doMTE2Preload = doMTE2Preload;
  c.enUnitFlag = false;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.doSpecialMDL = true;
  c.batchMode = BatchMode::NONE;
  c.enableUBReuse = true;
  return c;
}

constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN,
                                      const uint32_t basicK, const bool intrinsicsLimit = false,
                                      const bool batchLoop = false,
                                      const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c{};
  c.doBasicBlock = true;
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enUnitFlag = false;
  c.batchMode = bmmMode;
  c.enableUBReuse = true;
  return c;
}

constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false,
                                            const bool batchLoop = false,
                                            const bool isVecND2NZ = false,
                                            const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            const bool isDoubleCache = false,
                                            const bool enUnitFlag = true) {
  MatmulConfig c{};
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.enUnitFlag = enUnitFlag;
  c.doIBShareNorm = true;
  c.batchMode = bmmMode;
  c.enableUBReuse = true;
  c.enableDoubleCache = isDoubleCache;
  return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

namespace ascsim::matmul {
constexpr void ApplyConfigParam(MatmulConfig& cfg, const MatmulShapeParams& a) {
  cfg.singleCoreM = a.singleCoreM;
  cfg.singleCoreN = a.singleCoreN;
  cfg.singleCoreK = a.singleCoreK;
  cfg.basicM = a.basicM;
  cfg.basicN = a.basicN;
  cfg.basicK = a.basicK;
}
constexpr void ApplyConfigParam(MatmulConfig& cfg, const MatmulQuantParams& a) {
  cfg.isPerTensor = a.isPerTensor;
  cfg.hasAntiQuantOffset = a.hasAntiQuantOffset;
}
constexpr void ApplyConfigParam(MatmulConfig& cfg, const MatmulBatchParams& a) {
  cfg.isNBatch = a.isNBatch;
  cfg.batchMode = a.batchMode;
  cfg.isBiasBatch = a.isBiasBatch;
  cfg.bmmOutMode = a.bmmOutMode;
}
constexpr void ApplyConfigParam(MatmulConfig& cfg, const MatmulFuncParams& a) {
  cfg.intrinsicsCheck = a.intrinsicsCheck;
  cfg.enVecND2NZ = a.enVecND2NZ;
  cfg.enableDoubleCache = a.enableDoubleCache;
  cfg.enableL1CacheUB = a.enableL1CacheUB;
  cfg.doMTE2Preload = a.doMTE2Preload;
  cfg.iterateOrder = a.iterateOrder;
  cfg.scheduleType = a.scheduleType;
  cfg.enableReuse = a.enableReuse;
  cfg.enableUBReuse = a.enableUBReuse;
  cfg.isPartialOutput = a.isPartialOutput;
  cfg.isA2B2Shared = a.isA2B2Shared;
  cfg.isEnableChannelSplit = a.isEnableChannelSplit;
  cfg.enableKdimReorderLoad = a.enableKdimReorderLoad;
  cfg.enableL1BankConflictOptimise = a.enableL1BankConflictOptimise;
  cfg.enableRelu = a.enableRelu;
  cfg.decompMode = a.decompMode;
}
constexpr void ApplyConfigParam(MatmulConfig& cfg, const MatmulBiasParams& a) {
  cfg.enableSetBias = a.enableSetBias;
}
}  // namespace ascsim::matmul

template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
  MatmulConfig mmConfig = CFG_NORM;
  if constexpr (configMode == MatmulConfigMode::CONFIG_MDL) {
    mmConfig = CFG_MDL;
  } else if constexpr (configMode == MatmulConfigMode::CONFIG_SPECIALMDL) {
    mmConfig = GetSpecialMDLConfig();
  } else if constexpr (configMode == MatmulConfigMode::CONFIG_IBSHARE) {
    mmConfig = CFG_IBSHARE_NORM;
  }
  (ascsim::matmul::ApplyConfigParam(mmConfig, args), ...);
  return mmConfig;
}

struct MatmulApiStaticTiling {
  int32_t usedCoreNum = -1;
  int32_t M = -1;
  int32_t N = -1;
  int32_t Ka = -1;
  int32_t Kb = -1;
  int32_t singleCoreM = -1;
  int32_t singleCoreN = -1;
  int32_t singleCoreK = -1;
  int32_t baseM = -1;
  int32_t baseN = -1;
  int32_t baseK = -1;
  int32_t depthA1 = -1;
  int32_t depthB1 = -1;
  int32_t stepM = -1;
  int32_t stepN = -1;
  int32_t isBias = -1;
  int32_t transLength = -1;
  int32_t iterateOrder = -1;
  int32_t shareMode = -1;
  int32_t shareL1Size = -1;
  int32_t shareL0CSize = -1;
  int32_t shareUbSize = -1;
  int32_t stepKa = -1;
  int32_t stepKb = -1;
  int32_t depthAL1CacheUB = -1;
  int32_t depthBL1CacheUB = -1;
  int32_t dbL0A = -1;
  int32_t dbL0B = -1;
  int32_t dbL0C = -1;
  int32_t ALayoutInfoB = -1;
  int32_t ALayoutInfoS = -1;
  int32_t ALayoutInfoN = -1;
  int32_t ALayoutInfoG = -1;
  int32_t ALayoutInfoD = -1;
  int32_t BLayoutInfoB = -1;
  int32_t BLayoutInfoS = -1;
  int32_t BLayoutInfoN = -1;
  int32_t BLayoutInfoG = -1;
  int32_t BLayoutInfoD = -1;
  int32_t CLayoutInfoB = -1;
  int32_t CLayoutInfoS1 = -1;
  int32_t CLayoutInfoN = -1;
  int32_t CLayoutInfoG = -1;
  int32_t CLayoutInfoS2 = -1;
  int32_t BatchNum = -1;
  int32_t mxTypePara = -1;
  MatmulConfig cfg = CFG_NORM;
};

namespace AscendC {

constexpr MatmulConfig ToMatmulConfig(const MatmulConfig& cfg) { return cfg; }
constexpr MatmulConfig ToMatmulConfig(const MatmulApiStaticTiling& cfg) { return cfg.cfg; }

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false,
          TPosition SRCPOS = TPosition::GM>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
  constexpr static TPosition srcPos = SRCPOS;
};

template <
    void (*DataCopyOut)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                        const void* dataCopyOutParams, const uint64_t tilingPtr,
                        const uint64_t dataPtr) = nullptr,
    void (*CopyA1)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col,
                   int useM, int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
    void (*CopyB1)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col,
                   int useK, int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr>
struct MatmulCallBackFunc {
  constexpr static void (*DataCopyOutPtr)(const __gm__ void* gm,
                                          const LocalTensor<int8_t>& co1Local,
                                          const void* dataCopyOutParams, const uint64_t tilingPtr,
                                          const uint64_t dataPtr) = DataCopyOut;
  constexpr static void (*CopyA1Ptr)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm,
                                     int row, int col, int useM, int useK, const uint64_t tilingPtr,
                                     const uint64_t dataPtr) = CopyA1;
  constexpr static void (*CopyB1Ptr)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm,
                                     int row, int col, int useK, int useN, const uint64_t tilingPtr,
                                     const uint64_t dataPtr) = CopyB1;
};

namespace Impl::Detail {
// The policy slot of Matmul<...> (MATMUL_POLICY_DEFAULT_OF in CANN's utils/matmul_module.h);
// ascsim's Matmul has one implementation, so the policy only keeps signatures compatible.
template <const auto& MM_CFG, typename... Args>
struct MatmulPolicy {};
}  // namespace Impl::Detail

}  // namespace AscendC

#define MATMUL_POLICY_DEFAULT_OF(DEFAULT)      \
  template <const auto& = MM_CFG, typename...> \
  class MATMUL_POLICY = AscendC::Impl::Detail::DEFAULT
#define MATMUL_POLICY_TEMPLATE_OF(NAME)        \
  template <const auto& = MM_CFG, typename...> \
  class NAME
