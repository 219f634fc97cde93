// TopK's host tiling (tiling/topk_tiling.h): asc-devkit's Atlas A2/A3 figures, with CANN's host
// messages on stderr.
#include "tiling/topk_tiling.h"

#include <cstdio>

namespace AscendC {
namespace {

// CheckTopKHostCommon: the first problem with the shape, on stderr. As in CANN, whose host
// asserts return from the check only, the caller goes on computing.
void CheckShape(const char* func, const platform_ascendc::PlatformAscendC& platform,
                int32_t inner, int32_t outter, TopKMode mode, uint32_t typeSize) {
  const char* problem = nullptr;
  if (inner <= 0) {
    problem = "The length of the inner axis must be greater than 0!";
  } else if (inner % 32 != 0) {
    problem = "The length of the inner axis must be a multiple of 32!";
  } else if (mode == TopKMode::TOPK_NSMALL && inner != 32) {
    problem = "In Small mode, the length of the inner axis must be 32!";
  } else if (outter <= 0) {
    problem = "The length of the outter axis must be greater than 0!";
  } else if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr, "[TopK][%s] Type size %u is unsupported!\n", func, typeSize);
    return;
  }
  if (problem != nullptr) {
    std::fprintf(stderr, "[TopK][%s] %s\n", func, problem);
    return;
  }
  uint64_t ub = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  const uint64_t bytes = uint64_t(inner) * uint64_t(outter) * typeSize;
  if (bytes > ub) {
    std::fprintf(stderr, "[TopK][%s] The size of srcShape is %lluB, should be less than UB size.\n",
                 func, static_cast<unsigned long long>(bytes));
  }
}

// A mask of `k` copies of the `bits`-wide pattern `unit` (GenerateBinary10 / 01 / 0001 / 1).
uint32_t Repeat(uint32_t unit, uint32_t bits, int32_t k) {
  uint32_t m = 0;
  for (int32_t i = 0; i < k; ++i) m = (m << bits) | unit;
  return m;
}

// GetVreduceMask: the GatherMask patterns that pick the first k pairs of a 32-pair row.
void VreduceMasks(int32_t k, uint32_t typeSize, tiling::TopkTiling& t) {
  if (k < 17) t.vreduceIdxMask0 = Repeat(2, 2, k);
  if (k >= 17 && k <= 32) {
    t.vreduceIdxMask0 = 2863311530u;  // 0b1010...10
    t.vreduceIdxMask1 = Repeat(2, 2, k - 16);
  }
  if (typeSize == 4) {
    if (k < 17) t.vreduceValMask0 = Repeat(1, 2, k);
    if (k >= 17 && k <= 32) {
      t.vreduceValMask0 = Repeat(1, 2, 16);
      t.vreduceValMask1 = Repeat(1, 2, k - 16);
    }
    return;
  }
  // half: four-element pairs, 16-bit words of four pairs each.
  uint16_t* words[8] = {&t.vreducehalfValMask0, &t.vreducehalfValMask1, &t.vreducehalfValMask2,
                        &t.vreducehalfValMask3, &t.vreducehalfValMask4, &t.vreducehalfValMask5,
                        &t.vreducehalfValMask6, &t.vreducehalfValMask7};
  for (int32_t w = 0; w < 8; ++w) {
    const int32_t left = k - 4 * w;
    *words[w] = left <= 0 ? 0 : static_cast<uint16_t>(Repeat(1, 4, left < 4 ? left : 4));
  }
}

void Fill(int32_t inner, int32_t outter, int32_t k, uint32_t typeSize, bool isInitIndex,
          TopKMode mode, bool isLargest, tiling::TopkTiling& t) {
  t = tiling::TopkTiling{};
  t.allDataSize = inner * outter;
  t.kAlignFourBytes = (k + 7) / 8 * 8;
  const bool half = typeSize == 2;
  if (mode == TopKMode::TOPK_NORMAL) {  // SetTopkNormalVal
    const int32_t kAlignTwoBytes = (k + 15) / 16 * 16;
    t.tmpLocalSize = half ? 8 * inner : 4 * inner;
    t.innerDataSize = half ? 4 * inner : 2 * inner;
    t.copyUbToUbBlockCount = static_cast<uint32_t>(inner * 2 * 4 / 32);
    t.sortRepeat = static_cast<uint32_t>(inner / 32);
    t.mrgSortRepeat = inner / 4;
    t.kAlignTwoBytes = kAlignTwoBytes;
    t.maskOffset = outter * (half ? kAlignTwoBytes : t.kAlignFourBytes);
    t.maskVreducev2FourBytes = 2 * k;
    t.maskVreducev2TwoBytes = 4 * k;
    t.mrgSortSrc1offset = half ? 4 : 2;
    t.mrgSortSrc2offset = half ? 8 : 4;
    t.mrgSortSrc3offset = half ? 12 : 6;
    t.mrgSortTwoQueueSrc1Offset = half ? 4 : 2;
    t.mrgFourQueueTailPara1 = inner * 2;
    t.mrgFourQueueTailPara2 = static_cast<int32_t>(4 / typeSize);
    if (!isInitIndex) {
      t.tmpLocalSize = half ? 8 * inner + 2 * inner : 4 * inner + inner;
      t.srcIndexOffset = half ? 8 * inner : 4 * inner;
    }
    return;
  }
  // SetTopkNSmallVal: sizes and offsets in elements of T.
  const int32_t unit = static_cast<int32_t>(typeSize);
  const int32_t innerDataSize = inner * outter * (8 / unit);
  t.innerDataSize = innerDataSize;
  t.maskOffset = outter * k;
  const int32_t negative = isLargest ? 0 : inner * outter;
  const int32_t maskAt = innerDataSize + negative;
  t.topkMrgSrc1MaskSizeOffset = maskAt;
  t.tmpLocalSize = maskAt + 64 / unit;
  if (!isInitIndex) {
    const int32_t indexAt = maskAt + 64 / unit;
    t.tmpLocalSize = indexAt + inner * outter * 4 / unit;
    t.topkNSmallSrcIndexOffset = indexAt;
  }
  VreduceMasks(k, typeSize, t);
}

}  // namespace

bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                          const int32_t inner, const int32_t outter, const bool isReuseSource,
                          const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                          const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;  // reserved on A2/A3
  CheckShape("GetTopKMaxMinTmpSize", ascendcPlatform, inner, outter, mode, dataTypeSize);
  const uint32_t in = static_cast<uint32_t>(inner), all = in * static_cast<uint32_t>(outter);
  if (mode == TopKMode::TOPK_NORMAL) {
    minValue = (isInitIndex ? 16 : 20) * in;
  } else {
    minValue = all * 8 + 64 + (isLargest ? 0 : all * 4) + (isInitIndex ? 0 : all * 4);
  }
  maxValue = minValue;
  return true;
}

bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                    const int32_t outter, const int32_t k, const uint32_t dataTypeSize,
                    const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                    AscendC::tiling::TopkTiling& topKTiling) {
  CheckShape("TopKTilingFunc", ascendcPlatform, inner, outter, mode, dataTypeSize);
  if (k < 1 || k > inner) {
    std::fprintf(stderr, "[TopK][TopKTilingFunc] The range of value k is [1, %d]!\n", inner);
  }
  if (dataTypeSize == 0) return false;
  Fill(inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, topKTiling);
  return true;
}

bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                    const int32_t outter, const int32_t k, const uint32_t dataTypeSize,
                    const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                    optiling::TopkTiling& topKTiling) {
  AscendC::tiling::TopkTiling t;
  if (!TopKTilingFunc(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode,
                      isLargest, t)) {
    return false;
  }
  topKTiling.Assign(t);
  return true;
}

}  // namespace AscendC
