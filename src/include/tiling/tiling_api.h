// tiling/tiling_api.h: host-side Matmul tiling (matmul_tiling::MatmulApiTiling for one core,
// matmul_tiling::MultiCoreMatmulTiling across cores) filling TCubeTiling, as asc-devkit's
// include/adv_api/tiling_api.h, matmul/matmul_tiling_base.h, matmul/matmul_tiling.h and
// matmul/bmm_tiling.h declare them; plus the platform header. The tiling ascsim computes is valid
// for the profile (it fits L1, L0A, L0B, L0C and the BiasTable) but is not CANN's choice byte for
// byte; docs/cube.md describes the algorithm. Implemented in libascsim (src/host/tiling). As in
// CANN, it also brings the advanced APIs' host tiling (Get...MaxMinTmpSize, SoftMaxTilingFunc,
// GetRmsNormTilingInfo, ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
// A program that includes CANN's tiling headers can use std::cout without including <iostream>
// itself (asc-devkit's matmul_advanced_api and matmul_leakyrelu_advanced_api examples do).
#include <iostream>

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/activation_tiling.h"
#include "tiling/adv_math_tiling.h"
#include "tiling/ascend_quant_tiling.h"
#include "tiling/broadcast_tiling.h"
#include "tiling/cumsum_tiling.h"
#include "tiling/dropout_tiling.h"
#include "tiling/dequant_tiling.h"
#include "tiling/normalization_tiling.h"
#include "tiling/pad_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/rmsnorm_tiling.h"
#include "tiling/sin_cos_clamp_tiling.h"
#include "tiling/softmax_flashv2_tiling.h"
#include "tiling/softmax_tiling.h"
#include "tiling/sort_tiling.h"
#include "tiling/sum_tiling.h"
#include "tiling/topk_tiling.h"

// Kernel code in the same file defines DT_* as numbers (kernel_type.h, ascsim/aicore/
// dtype_format.h); the names in this header must keep their meaning either way.
#include "ascsim/dtype_format_names.inc"

namespace optiling {

// The host-side TCubeTiling: BEGIN_TILING_DATA_DEF(TCubeTiling) with CANN's fields (asc-devkit
// include/adv_api/matmul/matmul_tilingdata.h), registered as TCubeTilingOpApi, so that an
// operator's tiling struct can hold it (TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling))
// and its bytes are those of the kernel struct AscendC::tiling::TCubeTiling.
BEGIN_TILING_DATA_DEF(TCubeTiling)
#define ASCSIM_TCUBE_FIELD_DEF(name) TILING_DATA_FIELD_DEF(int32_t, name);
ASCSIM_TCUBE_TILING_FIELDS(ASCSIM_TCUBE_FIELD_DEF)
#undef ASCSIM_TCUBE_FIELD_DEF

public:
// Copies hold their own bytes (a TilingDef copied member-wise would share its buffer).
TCubeTiling(const TCubeTiling& other) : TCubeTiling() { Assign(other.Data()); }
TCubeTiling& operator=(const TCubeTiling& other) {
  if (this != &other) Assign(other.Data());
  return *this;
}
// ascsim: the fields as the kernel struct, and all of them set from one.
AscendC::tiling::TCubeTiling Data() const {
  AscendC::tiling::TCubeTiling t;
#define ASCSIM_TCUBE_GET(name) t.name = name##_;
  ASCSIM_TCUBE_TILING_FIELDS(ASCSIM_TCUBE_GET)
#undef ASCSIM_TCUBE_GET
  return t;
}
void Assign(const AscendC::tiling::TCubeTiling& t) {
#define ASCSIM_TCUBE_SET(name) set_##name(t.name);
  ASCSIM_TCUBE_TILING_FIELDS(ASCSIM_TCUBE_SET)
#undef ASCSIM_TCUBE_SET
}
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TCubeTilingOpApi, TCubeTiling)

}  // namespace optiling

namespace matmul_tiling {
namespace l1 {  // the L1-factor rule of GetTiling (src/host/tiling/matmul_l1_factors.h)
struct L1Input;
struct L1Factors;
}  // namespace l1

constexpr int32_t UINT8_BYTES = 1;
constexpr int32_t INT8_BYTES = 1;
constexpr int32_t FP32_BYTES = 4;
constexpr int32_t FP16_BYTES = 2;
constexpr int32_t C0_SIZE = 16;
constexpr int32_t C0_BYTE_SIZE = 32;
constexpr int32_t BITS_PER_BYTE = 8;

enum class DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT8 = 4,
  DT_INT32 = 3,
  DT_INT64 = 9,
  DT_UINT32 = 8,
  DT_UINT64 = 10,
  DT_BOOL = 12,
  DT_DOUBLE = 11,
  DT_STRING = 13,
  DT_DUAL_SUB_INT8 = 14,
  DT_DUAL_SUB_UINT8 = 15,
  DT_COMPLEX64 = 16,
  DT_COMPLEX128 = 17,
  DT_QINT8 = 18,
  DT_QINT16 = 19,
  DT_QINT32 = 20,
  DT_QUINT8 = 21,
  DT_QUINT16 = 22,
  DT_RESOURCE = 23,
  DT_STRING_REF = 24,
  DT_DUAL = 25,
  DT_VARIANT = 26,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_UINT1 = 30,
  DT_INT2 = 31,
  DT_UINT2 = 32,
  DT_BFLOAT16 = 33,
  DT_HIFLOAT8 = 34,
  DT_FLOAT8_E4M3FN = 35,
  DT_FLOAT8_E5M2 = 36,
  DT_FLOAT4_E2M1 = 37,
  DT_FLOAT8_E8M0 = 38,
  DT_FLOAT4_E1M2 = 39,
  DT_MAX = 40,
};

enum class TPosition : int32_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  MAX,
};
enum class TilingPolicy : int32_t { FIXED_A_TSCM, FIXED_B_TSCM, FIXED_A_B_TSCM, NO_POLICY };
enum class CubeFormat : int32_t {
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
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

struct SysTilingTempBufSize {
  int32_t ubSize = 0;
  int32_t l1Size = 0;
  int32_t l0cSize = 0;
};
struct MatTilingType {
  TPosition pos = TPosition::GM;
  CubeFormat type = CubeFormat::ND;
  DataType dataType = DataType::DT_FLOAT;
  bool isTrans = false;
  bool isDB = false;
  bool hasSetScaleType = false;
  TPosition scalePos = TPosition::GM;
  CubeFormat scaleType = CubeFormat::ND;
  bool isScaleTrans = false;
};
struct BufferPool {
  int32_t l1Size;
  int32_t l0CSize;
  int32_t ubSize;
  int32_t l0ASize;
  int32_t l0BSize;
  int32_t btSize;
  int32_t l1AlignSize;
  int32_t l0CAlignSize;
  int32_t l0AAlignSize;
  int32_t l0BAlignSize;
  int32_t ubAlignSize;
};
struct PlatformInfo {
  platform_ascendc::SocVersion socVersion;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};
struct MatmulConfigParams {
  int32_t mmConfigType;
  bool enableL1CacheUB;
  ScheduleType scheduleType;
  MatrixTraverse traverse;
  bool enVecND2NZ;
  MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                     MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn),
        enableL1CacheUB(enableL1CacheUBIn),
        scheduleType(scheduleTypeIn),
        traverse(traverseIn),
        enVecND2NZ(enVecND2NZIn) {}
};

class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase();
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform);
  explicit MatmulApiTilingBase(const PlatformInfo& platform);
  virtual ~MatmulApiTilingBase();
  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetScaleAType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = false);
  int32_t SetScaleBType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = true);
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetDequantType(DequantType dequantType) {
    this->deqType = dequantType;
    return 0;
  }
  virtual int32_t SetShape(int32_t m, int32_t n, int32_t k);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn);
  int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k);
  int32_t SetBatchNum(int32_t batch);
  int32_t EnableBias(bool isBiasIn = false);
  int32_t SetBias(bool isBiasIn = false);
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1);
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1,
                         int32_t btSize = -1);
  int32_t SetTraverse(MatrixTraverse traverse);
  int32_t SetMadType(MatrixMadType madType);
  int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1,
                        int32_t minBaseM = -1, int32_t minBaseN = -1, int32_t minBaseK = -1);
  int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true,
                          bool transNZ2ND = true);
  void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                             ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                             MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                             bool enVecND2NZIn = false);
  void SetMatmulConfigParams(const MatmulConfigParams& configParams);
  int32_t SetSparse(bool isSparseIn = false);
  int32_t GetBaseM() const { return baseM; }
  int32_t GetBaseN() const { return baseN; }
  int32_t GetBaseK() const { return baseK; }

  virtual int64_t GetTiling(optiling::TCubeTiling& tiling) = 0;
  virtual int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) = 0;

 public:
  optiling::TCubeTiling tiling_;
  MatTilingType aType_;
  MatTilingType bType_;
  MatTilingType cType_;
  MatTilingType biasType_;
  bool isBias = false;
  bool isSupportL0c2Out = true;
  int32_t blockDim = 0;
  int32_t orgM = 0;
  int32_t orgN = 0;
  int32_t orgKa = 0;
  int32_t orgKb = 0;
  int32_t singleM = 0;
  int32_t singleN = 0;
  int32_t singleK = 0;
  int32_t singleCoreM = 0;
  int32_t singleCoreN = 0;
  int32_t singleCoreK = 0;
  int32_t baseM = 0;
  int32_t baseN = 0;
  int32_t baseK = 0;
  int32_t alignSingleM = 1;
  int32_t alignSingleN = 1;
  int32_t alignSingleK = 1;
  struct MnmAdjust {
    int32_t maxBaseM;
    int32_t maxBaseN;
    int32_t maxBaseK;
    int32_t minBaseM;
    int32_t minBaseN;
    int32_t minBaseK;
  } adjust_;
  BufferPool oriBufferPool_;
  BufferPool bufferPool_;
  MatrixTraverse traverse_ = MatrixTraverse::FIRSTM;
  MatrixMadType madType_ = MatrixMadType::NORMAL;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool isSparse_ = false;
  int32_t maxSingleM = 0;
  int32_t maxSingleN = 0;
  int32_t maxSingleK = 0;
  int32_t minSingleM = 0;
  int32_t minSingleN = 0;
  int32_t minSingleK = 0;
  DequantType deqType = DequantType::SCALAR;
  bool enableSplitK_ = false;
  platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
  int32_t mmConfigType = 1;  // 0: Norm; 1: MDL
  // ascsim: base sizes fixed by SetFixSplit (-1: chosen by the tiling), set fields.
  int32_t fixBaseM_ = -1, fixBaseN_ = -1, fixBaseK_ = -1;
  bool aSet_ = false, bSet_ = false, cSet_ = false, shapeSet_ = false;
  int32_t m_ = 0, n_ = 0, k_ = 0;  // SetShape
  const platform_ascendc::PlatformAscendC* platform_ = nullptr;
  // ascsim: CANN's single-core extents in fractals (coreStatus m / n / k; 0: from singleCore*) and
  // whether its split scenario (GetMultiCoreScenario SPLIT_MN / SPLIT_SMALL_MN) picks the L1
  // factors, set by Compute for ChooseBase.
  int32_t coreM_ = 0, coreN_ = 0, coreK_ = 0;
  bool splitScenario_ = false;

 protected:
  virtual int64_t Compute() = 0;
  // Fills `out` from the computed fields (usedCoreNum from `cores`).
  void Fill(AscendC::tiling::TCubeTiling& out, int32_t cores) const;
  // Chooses baseM/N/K for singleCoreM/N/K, then CANN's L1 factors for that base (stepM/N/Ka/Kb,
  // depthA1/B1: matmul_l1_factors.h); false when nothing fits.
  bool ChooseBase();
  // CANN's single-core status when one core computes the whole single shape.
  void SetSingleCoreStatus();
  // The inputs of the L1-factor rule for the chosen base, and whether the buffers ascsim's Matmul
  // takes for factors `f` fit L1.
  l1::L1Input L1FactorInput() const;
  bool MatmulL1Fits(const l1::L1Factors& f) const;
  // The most L1 tiles of one input ascsim's CFG_NORM Matmul takes as queue buffers (a TPipe holds
  // 64 buffers in all).
  static constexpr int32_t kMaxMatmulL1Tiles = 32;
};

class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  MatmulApiTiling() {}
  explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) {}
  explicit MatmulApiTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
  ~MatmulApiTiling() override = default;
  int64_t GetTiling(optiling::TCubeTiling& tiling) override;
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override;
  bool EnableL1BankConflictOptimise() { return false; }

 protected:
  int64_t Compute() override;
};

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  MultiCoreMatmulTiling() {}
  explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) {}
  explicit MultiCoreMatmulTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
  int32_t SetDim(int32_t dim);
  int32_t SetShape(int32_t m, int32_t n, int32_t k) override;
  virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1,
                                 int32_t singleKIn = -1);
  int64_t GetTiling(optiling::TCubeTiling& tiling) override;
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override;
  virtual int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1,
                                 int32_t minM = -1, int32_t minN = -1, int32_t minK = -1) {
    this->maxSingleM = maxM;
    this->maxSingleN = maxN;
    this->maxSingleK = maxK;
    this->minSingleM = minM;
    this->minSingleN = minN;
    this->minSingleK = minK;
    return 0;
  }
  int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK);
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK);
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim);
  void EnableMultiCoreSplitK(bool flag) { enableSplitK_ = flag; }
  void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }
  bool EnableL1BankConflictOptimise() { return false; }

 protected:
  int64_t Compute() override;

 private:
  int32_t dim_ = 0, mDim_ = 0, nDim_ = 0, usedCores_ = 0;
  int32_t fixSingleM_ = -1, fixSingleN_ = -1, fixSingleK_ = -1;
};

}  // namespace matmul_tiling

extern "C" {
int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                            matmul_tiling::SysTilingTempBufSize& bufSize);
int32_t MatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                              matmul_tiling::SysTilingTempBufSize& bufSize);
int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                                     matmul_tiling::SysTilingTempBufSize& bufSize);
int32_t MultiCoreMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                       matmul_tiling::SysTilingTempBufSize& bufSize);
}

#define ASCSIM_DTYPE_FORMAT_RESTORE
#include "ascsim/dtype_format_names.inc"
