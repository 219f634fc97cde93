// TopK's host tiling (ascsim/adv/topk.h), as asc-devkit include/adv_api/sort/topk_tiling.h declares
// it and impl/adv_api/tiling/sort/topk_tiling_impl.cpp computes it for Atlas A2/A3
// (GetTopKMaxMinTmpSize220, SetTopkNormalVal, SetTopkNSmallVal, GetVreduceMask):
//   GetTopKMaxMinTmpSize  the temporary bytes (min = max): normal 16 * inner (+ 4 * inner without
//                         isInitIndex); small 8 B per element + 64 B (+ 4 B per element for
//                         !isLargest and for !isInitIndex)
//   TopKTilingFunc        the TopkTiling fields, into the kernel struct AscendC::tiling::TopkTiling
//                         or the TILING_DATA class optiling::TopkTiling (registered as
//                         TopkTilingOpApi, so an operator's tiling can hold it with
//                         TILING_DATA_FIELD_DEF_STRUCT(TopkTiling, ...))
// Both check the shape as CheckTopKHostCommon does and report a bad one on stderr ("[TopK][...]"),
// leaving their outputs unset; the 2002 / 3510 variants are not provided (ascsim's TopK is A2/A3).
#pragma once

#include <cstdint>

#include "ascsim/adv/kernel_tiling_structs.h"
#include "ascsim/adv/topk_types.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

#define ASCSIM_TOPK_TILING_FIELDS(X)                                                            \
  X(int32_t, tmpLocalSize) X(int32_t, allDataSize) X(int32_t, innerDataSize)                    \
  X(uint32_t, sortRepeat) X(int32_t, mrgSortRepeat) X(int32_t, kAlignFourBytes)                 \
  X(int32_t, kAlignTwoBytes) X(int32_t, maskOffset) X(int32_t, maskVreducev2FourBytes)          \
  X(int32_t, maskVreducev2TwoBytes) X(int32_t, mrgSortSrc1offset) X(int32_t, mrgSortSrc2offset) \
  X(int32_t, mrgSortSrc3offset) X(int32_t, mrgSortTwoQueueSrc1Offset)                           \
  X(int32_t, mrgFourQueueTailPara1) X(int32_t, mrgFourQueueTailPara2)                           \
  X(int32_t, srcIndexOffset) X(uint32_t, copyUbToUbBlockCount)                                  \
  X(int32_t, topkMrgSrc1MaskSizeOffset) X(int32_t, topkNSmallSrcIndexOffset)                    \
  X(uint32_t, vreduceValMask0) X(uint32_t, vreduceValMask1) X(uint32_t, vreduceIdxMask0)        \
  X(uint32_t, vreduceIdxMask1) X(uint16_t, vreducehalfValMask0) X(uint16_t, vreducehalfValMask1) \
  X(uint16_t, vreducehalfValMask2) X(uint16_t, vreducehalfValMask3)                             \
  X(uint16_t, vreducehalfValMask4) X(uint16_t, vreducehalfValMask5)                             \
  X(uint16_t, vreducehalfValMask6) X(uint16_t, vreducehalfValMask7)

namespace optiling {

BEGIN_TILING_DATA_DEF(TopkTiling)
#define ASCSIM_TOPK_FIELD_DEF(type, name) TILING_DATA_FIELD_DEF(type, name);
ASCSIM_TOPK_TILING_FIELDS(ASCSIM_TOPK_FIELD_DEF)
#undef ASCSIM_TOPK_FIELD_DEF

public:
// Copies hold their own bytes (a TilingDef copied member-wise would share its buffer).
TopkTiling(const TopkTiling& other) : TopkTiling() { Assign(other.Data()); }
TopkTiling& operator=(const TopkTiling& other) {
  if (this != &other) Assign(other.Data());
  return *this;
}
// ascsim: the fields as the kernel struct, and all of them set from one.
AscendC::tiling::TopkTiling Data() const {
  AscendC::tiling::TopkTiling t;
#define ASCSIM_TOPK_GET(type, name) t.name = name##_;
  ASCSIM_TOPK_TILING_FIELDS(ASCSIM_TOPK_GET)
#undef ASCSIM_TOPK_GET
  return t;
}
void Assign(const AscendC::tiling::TopkTiling& t) {
#define ASCSIM_TOPK_SET(type, name) set_##name(t.name);
  ASCSIM_TOPK_TILING_FIELDS(ASCSIM_TOPK_SET)
#undef ASCSIM_TOPK_SET
}
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TopkTilingOpApi, TopkTiling)

}  // namespace optiling

namespace AscendC {

bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                          const int32_t inner, const int32_t outter, const bool isReuseSource,
                          const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                          const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue);
bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                    const int32_t outter, const int32_t k, const uint32_t dataTypeSize,
                    const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                    AscendC::tiling::TopkTiling& topKTiling);
bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                    const int32_t outter, const int32_t k, const uint32_t dataTypeSize,
                    const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                    optiling::TopkTiling& topKTiling);

}  // namespace AscendC
