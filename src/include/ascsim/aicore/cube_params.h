// Parameter structs and enums of the cube instructions, as the asc-devkit headers declare them:
// include/basic_api/kernel_struct_mm.h (LoadData2DParams, LoadData2dTransposeParams,
// LoadData3DParamsV2, MmadParams, InitConstValueParams), kernel_struct_data_copy.h (Nd2NzParams,
// DataCopyEnhancedParams, DataCopyCO12DstParams), kernel_struct_fixpipe.h (FixpipeConfig,
// FixpipeParamsV220), impl/basic_api/utils/kernel_utils_struct_dma_params.h (QuantParams,
// Nz2NdParams, FixpipeParams<T>), impl/basic_api/utils/kernel_utils_mode*.h (BlockMode, DeqScale,
// QuantMode_t). Field names, order, types and defaults are theirs (arch 2201 / 2002 variants).
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"

// QuantMode_t is an unscoped enum at global scope in CANN (kernel_utils_mode.h).
enum QuantMode_t {
  NoQuant,       // no conversion
  F322F16,       // float -> half, round to nearest even
  F322BF16,      // float -> bfloat16_t, round to nearest even
  DEQF16,        // int32_t -> half, scalar scale
  VDEQF16,       // int32_t -> half, per-channel scale tensor
  QF322B8_PRE,   // float -> int8_t/uint8_t, scalar scale
  VQF322B8_PRE,  // float -> int8_t/uint8_t, per-channel scale tensor
  REQ8,          // int32_t -> int8_t/uint8_t, scalar scale
  VREQ8,         // int32_t -> int8_t/uint8_t, per-channel scale tensor
};

namespace AscendC {

// ---- L1 -> L0A/L0B, GM -> L0A/L0B/L1 (LoadData, 2D) ----
using LoadData2dParams = struct LoadData2DParams;
struct LoadData2DParams {
  LoadData2DParams() {}
  LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                   const uint16_t srcStrideIn, const uint8_t sidIn, const uint16_t dstGapIn,
                   const bool ifTransposeIn, const uint8_t addrModeIn)
      : startIndex(startIndexIn),
        dstGap(dstGapIn),
        srcStride(srcStrideIn),
        ifTranspose(ifTransposeIn),
        repeatTimes(repeatTimesIn),
        sid(sidIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;  // first source fractal (512 B units)
  uint16_t dstGap = 0;      // gap between destination fractals (512 B units)
  uint16_t srcStride = 0;   // distance between source fractals (512 B units; 0: same fractal)
  bool ifTranspose = 0;     // transpose each fractal (b16 only, L1 -> L0A/L0B only)
  uint8_t repeatTimes = 0;  // fractals moved; 0 is a NOP
  uint8_t sid = 0;
  uint8_t addrMode = 0;  // 0: source index increases, 1: decreases (GM -> L1 only)
};

struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() {}
  LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                            const uint16_t srcStrideIn, const uint16_t dstGapIn,
                            const uint16_t dstfracGapIn, const uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstfracGapIn),
        addrMode(addrModeIn) {}
  LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                            const uint16_t srcStrideIn, const uint16_t dstGapIn,
                            const uint16_t dstfracGapIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstfracGapIn) {}
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
};

// img2col (LoadData 3D v2): declared for source compatibility; the simulator does not run it yet
// (it faults with a message naming what is missing).
constexpr int32_t PAD_SIZE = 4;
template <typename T>
struct LoadData3DParamsV2 {
  LoadData3DParamsV2() {
    for (int32_t i = 0; i < PAD_SIZE; ++i) padList[i] = 0;
  }
  uint8_t padList[PAD_SIZE] = {0};
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

// The packed form of the 3D v2 (img2col) parameters: channel size and flags as fields, the
// m/k extents and starts in extConfig, the filter words in filterConfig (asc-devkit
// include/basic_api/kernel_struct_mm.h, A2/A3 members and defaults).
struct LoadData3DParamsV2Pro {
  LoadData3DParamsV2Pro() = default;
  LoadData3DParamsV2Pro(const uint16_t channelSizeIn, const bool enTransposeIn,
                        const bool enSmallKIn, const bool filterSizeWIn, const bool filterSizeHIn,
                        const bool fMatrixCtrlIn, const uint64_t extConfigIn,
                        const uint64_t filterConfigIn)
      : channelSize(channelSizeIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        filterSizeW(filterSizeWIn),
        filterSizeH(filterSizeHIn),
        fMatrixCtrl(fMatrixCtrlIn),
        extConfig(extConfigIn),
        filterConfig(filterConfigIn) {}
  uint16_t channelSize = 0;
  bool enTranspose = false;
  bool enSmallK = false;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
  uint64_t extConfig = 0;
  uint64_t filterConfig = 0X10101010101;
};

// ---- Mmad ----
struct MmadParams {
  MmadParams() {}
  MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn,
             const int32_t fmOffsetIn, const bool enSsparseIn, const bool enWinogradAIn,
             const bool enWinogradBIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        isBias(isBiasIn),
        fmOffset(fmOffsetIn),
        enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn),
        enWinogradB(enWinogradBIn) {}
  MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
             const bool cmatrixSourceIn, const bool cmatrixInitValIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        unitFlag(unitFlagIn),
        cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;  // deprecated: true accumulates into L0C (C += A * B)
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;  // float: K aligned to 16 instead of 8 in L0A/L0B
  bool cmatrixSource = false;    // C starts from the BiasTable (C2) instead of L0C
  bool cmatrixInitVal = true;    // C starts from 0
};

template <typename T>
struct InitConstValueParams {
  InitConstValueParams() {}
  InitConstValueParams(const uint16_t repeatTimesIn, const uint16_t blockNumIn,
                       const uint16_t dstGapIn, const T initValueIn)
      : repeatTimes(repeatTimesIn),
        blockNum(blockNumIn),
        dstGap(dstGapIn),
        initValue(initValueIn) {}
  InitConstValueParams(const uint16_t repeatTimesIn, const T initValueIn)
      : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
  uint16_t repeatTimes = 0;
  uint16_t blockNum = 0;
  uint16_t dstGap = 0;
  T initValue = 0;
};

// ---- GM -> L1 with ND -> NZ on the way (DataCopy with Nd2NzParams), arch 2201/2002 form ----
struct Nd2NzParams {
  Nd2NzParams() {}
  Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
              const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn,
              const uint16_t dstNzC0StrideIn, const uint16_t dstNzNStrideIn,
              const uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 0;              // ND matrices; 0 is a NOP
  uint16_t nValue = 0;             // rows of each; 0 is a NOP
  uint16_t dValue = 0;             // columns of each (padded with 0 to 32 B); 0 is a NOP
  uint16_t srcNdMatrixStride = 0;  // elements between source matrices
  uint16_t srcDValue = 0;          // elements per source row
  uint16_t dstNzC0Stride = 0;      // C0 blocks (32 B) between destination column fractals
  uint16_t dstNzNStride = 0;       // C0 blocks between destination rows
  uint16_t dstNzMatrixStride = 0;  // elements between destination matrices
};

// ---- L0C -> UB / L0C -> GM, older DataCopy forms ----
enum class BlockMode : uint8_t {
  BLOCK_MODE_NORMAL = 0,
  BLOCK_MODE_MATRIX,
  BLOCK_MODE_VECTOR,
  BLOCK_MODE_SMALL_CHANNEL,
  BLOCK_MODE_DEPTHWISE,
};
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };
enum class pad_t : uint8_t { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4, PAD_MODE5 };

struct DataCopyEnhancedParams {
  DataCopyEnhancedParams() {}
  DataCopyEnhancedParams(const BlockMode blockModeIn, const DeqScale deqScaleIn,
                         const uint64_t deqValueIn, const uint8_t sidStoreModeIn,
                         const bool isReluIn, const pad_t padModeIn, const uint64_t padValueIn)
      : blockMode(blockModeIn),
        deqScale(deqScaleIn),
        deqValue(deqValueIn),
        sidStoreMode(sidStoreModeIn),
        isRelu(isReluIn),
        padMode(padModeIn),
        padValue(padValueIn) {}
  BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
  DeqScale deqScale = DeqScale::DEQ_NONE;
  uint64_t deqValue = 0;
  uint8_t sidStoreMode = 0;
  bool isRelu = false;
  pad_t padMode = pad_t::PAD_NONE;
  uint64_t padValue = 0;
  uint64_t deqTensorAddr = 0;
};

// DataCopy out of L0C (CO1) into GM or L1: the FIX pipe's copy_matrix_cc_to_gm / _to_cbuf with
// the fields of FixpipeParamsV220 (kernel_struct_data_copy.h; dav_c220
// kernel_operator_data_copy_impl.h DataCopyL0C2GMImpl / DataCopyL0C2L1Impl).
struct DataCopyCO12DstParams {
  DataCopyCO12DstParams() {}
  DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint32_t dstStrideIn,
                        const uint16_t srcStrideIn, const QuantMode_t quantPreIn,
                        const uint8_t reluPreIn, const bool channelSplitIn, const bool nz2ndEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        quantPre(quantPreIn),
        reluPre(reluPreIn),
        channelSplit(channelSplitIn),
        nz2ndEn(nz2ndEnIn) {}

  uint8_t sid = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint32_t dstStride = 1;  // DEFAULT_DATA_COPY_STRIDE
  uint16_t srcStride = 1;  // DEFAULT_DATA_COPY_STRIDE
  uint8_t unitFlag = 0;
  uint8_t clipReluPre = 0;
  uint8_t eltWiseOp = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};

// ---- L0C -> GM / L1 (Fixpipe) ----
struct QuantParams {
  QuantParams() {}
  QuantParams(const QuantMode_t quantPreIn) : quantPre(quantPreIn) {}
  QuantParams(const QuantMode_t quantPreIn, const uint64_t deqScalarIn)
      : quantPre(quantPreIn), deqScalar(deqScalarIn) {}
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
};

// The arch 2201 form (nz2ndEn and originalNSize present).
struct Nz2NdParams {
  Nz2NdParams() {}
  Nz2NdParams(const bool nz2ndEnIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
              const uint16_t dstNdStrideIn, const uint16_t originalNSizeIn)
      : nz2ndEn(nz2ndEnIn),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        originalNSize(originalNSizeIn) {}
  bool nz2ndEn = false;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  uint16_t originalNSize = 0;
};

// The older Fixpipe parameters: cburstNum bursts (16-column fractal stripes) of burstLen 32 B
// units each; srcStride is the gap between stripes in 256-element units; dstStride the gap in
// 32 B units (NZ out) or the destination row length in elements (NZ2ND).
template <typename T = int32_t>
struct FixpipeParams {
  FixpipeParams() {
    cburstNum = 1;
    burstLen = 1;
    srcStride = 0;
    dstStride = 0;
    reluEn = false;
    unitFlag = 0;
  }
  FixpipeParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn,
                const uint32_t dstStrideIn) {
    cburstNum = count;
    burstLen = len;
    dstStride = dstStrideIn;
    srcStride = srcStrideIn;
  }
  uint16_t cburstNum = 0;
  uint16_t burstLen = 0;
  uint32_t dstStride = 0;
  uint16_t srcStride = 0;
  QuantParams quantParams;
  bool reluEn = false;
  Nz2NdParams nz2ndParams;
  uint8_t unitFlag = 0;
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  constexpr FixpipeConfig(CO2Layout format_) : format(format_) {}
  constexpr FixpipeConfig(CO2Layout format_, bool /*isToUB*/) : format(format_) {}
  CO2Layout format;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
  FixpipeParamsV220() {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        reluEn(reluEnIn) {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                    const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                    const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        quantPre(quantPreIn),
        deqScalar(static_cast<uint64_t>(deqScalarIn)),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn),
        unitFlag(unitFlagIn) {}
  FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                    const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                    const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                    const uint16_t dstNdStrideIn, const uint8_t unitFlagIn,
                    const bool isChannelSplitIn)
      : FixpipeParamsV220(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn, reluEnIn, quantPreIn,
                          deqScalarIn, ndNumIn, srcNdStrideIn, dstNdStrideIn, unitFlagIn) {
    isChannelSplit = isChannelSplitIn;
  }
  uint16_t nSize = 0;      // columns (N) of the source NZ matrix
  uint16_t mSize = 0;      // rows (M)
  uint16_t srcStride = 0;  // rows (16-element C0 units) between source column stripes
  uint32_t dstStride = 0;  // NZ out: 32 B units between stripes; ND out: elements per row
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;  // 16 x C0 units (one 16 x 16 fractal) between source matrices
  uint16_t dstNdStride = 0;  // elements between destination matrices
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};
using FixpipeParamsM300 = FixpipeParamsV220;

enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

}  // namespace AscendC
