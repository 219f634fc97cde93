// Pad / UnPad host tiling (tiling/pad_tiling.h): asc-devkit's formulas
// (impl/adv_api/tiling/pad/pad_tiling_impl.cpp).
#include "tiling/pad_tiling.h"

#include <cstdio>

namespace AscendC {
namespace {
constexpr uint32_t kBlock = 32, kMaxRepeat = 255, kAddrList = 16, kTmpBuffers = 2;
bool CheckShape(const ge::Shape& shape, uint32_t typeSize, const char* api, const char* fn) {
  if (typeSize != 2 && typeSize != 4) {
    std::fprintf(stderr, "[%s][%s] The value of typeSize is %u, should be 2 or 4.\n", api, fn,
                 typeSize);
    return false;
  }
  if (shape.GetDimNum() != 2) {
    std::fprintf(stderr, "[%s][%s] The dims of srcShape is %zu, should be 2.\n", api, fn,
                 shape.GetDimNum());
    return false;
  }
  return true;
}
// Both sizes: a temporary of 16 rows of one block per 16 elements of the source, twice.
void TmpSizes(uint32_t height, uint32_t width, uint32_t typeSize, uint32_t& maxValue,
              uint32_t& minValue) {
  const uint32_t perBlock = kBlock / typeSize;
  maxValue = ((height * width - 1) / kAddrList + 1) * kAddrList * perBlock * kTmpBuffers * typeSize;
  minValue = kAddrList * perBlock * kTmpBuffers * typeSize;
}
}  // namespace

void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                         uint32_t& minValue) {
  if (!CheckShape(srcShape, typeSize, "Pad", "GetPadMaxMinTmpSize")) return;
  TmpSizes(static_cast<uint32_t>(srcShape.GetDim(0)), static_cast<uint32_t>(srcShape.GetDim(1)),
           typeSize, maxValue, minValue);
}

void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   optiling::PadTiling& tiling) {
  if (!CheckShape(srcShape, typeSize, "Pad", "PadTilingFunc")) return;
  if (oriSrcShape.GetDimNum() != 2) {
    std::fprintf(stderr, "[Pad][PadTilingFunc] The dims of oriSrcShape is %zu, should be 2.\n",
                 oriSrcShape.GetDimNum());
    return;
  }
  if (oriSrcShape.GetShapeSize() > srcShape.GetShapeSize()) {
    std::fprintf(stderr,
                 "[Pad][PadTilingFunc] The size of oriSrcShape is %lld, should be less than or "
                 "equal to srcShape size %lld.\n",
                 static_cast<long long>(oriSrcShape.GetShapeSize()),
                 static_cast<long long>(srcShape.GetShapeSize()));
    return;
  }
  const uint32_t height = static_cast<uint32_t>(srcShape.GetDim(0));
  const uint32_t width = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t perBlock = kBlock / typeSize;
  tiling.set_srcHeight(height);
  tiling.set_srcWidth(width);
  tiling.set_srcOriWidth(static_cast<uint32_t>(oriSrcShape.GetDim(1)));
  // 32-byte aligned widths: the last block of each row, 255 rows per Duplicate.
  const uint32_t withoutLast = width - perBlock;
  tiling.set_widthWithoutLastBlock(withoutLast);
  tiling.set_blocksPerRow(width * typeSize / kBlock);
  const uint32_t heightFractal = height / kMaxRepeat;
  tiling.set_heightTiling(kMaxRepeat);
  tiling.set_heightFractal(heightFractal);
  tiling.set_heightFractalTail(height % kMaxRepeat);
  tiling.set_mainLoopOffset(kMaxRepeat * width);
  tiling.set_tailBlockOffset(heightFractal * kMaxRepeat * width + withoutLast);
  if (stackBufferSize == 0) return;  // an aligned width needs no temporary space
  // Unaligned widths: the temporary space in pieces of 16 blocks, two buffers.
  const uint32_t baseElems = kAddrList * kBlock / typeSize;
  const uint32_t tmp1Blocks = stackBufferSize / typeSize / baseElems / 2;
  tiling.set_tmpBuffer1RowNum(kAddrList * tmp1Blocks);
  tiling.set_tmpBuffer1BlockNum(tmp1Blocks);
  tiling.set_tmpBuffer2Offset(tmp1Blocks * baseElems);
  const uint32_t widthTiling = kAddrList * tmp1Blocks;
  if (widthTiling == 0) return;  // less than the minimum: the kernel reports it
  const uint32_t widthTail = width % widthTiling;
  tiling.set_widthTiling(widthTiling);
  tiling.set_widthFractal(width / widthTiling);
  tiling.set_widthFractalTail(widthTail);
  tiling.set_widthFractalTailAlingned(widthTail == 0 ? 0
                                                     : ((widthTail - 1) / perBlock + 1) * perBlock);
  const uint32_t brcbTiling = widthTiling;
  const uint32_t brcbTail = height * width % brcbTiling;
  tiling.set_brcbTiling(brcbTiling);
  tiling.set_brcbFractal(height * width / brcbTiling);
  tiling.set_brcbFractalTail(brcbTail);
  const uint32_t maxRepeat = 254;  // 255 x 8 elements would not end on a 32-byte boundary
  tiling.set_maxRepeatTimes(maxRepeat);
  tiling.set_brcbTilingRepeatTimes(brcbTiling / 8 / maxRepeat);
  tiling.set_brcbTilingRepeatTimesTail(brcbTiling / 8 % maxRepeat);
  tiling.set_brcbFractalTailRepeatTimes(brcbTail / 8 / maxRepeat);
  tiling.set_brcbFractalTailRepeatTimesTail(brcbTail / 8 % maxRepeat);
}

void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   AscendC::tiling::PadTiling& tiling) {
  optiling::PadTiling data;
  PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, data);
  data.SaveToBuffer(&tiling, sizeof(tiling));
}

void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                           const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                           uint32_t& minValue) {
  if (!CheckShape(srcShape, typeSize, "UnPad", "GetUnPadMaxMinTmpSize")) return;
  if (ascendcPlatform.GetSocVersion() != platform_ascendc::SocVersion::ASCEND310P) {
    maxValue = 0;
    minValue = 0;
    return;
  }
  TmpSizes(static_cast<uint32_t>(srcShape.GetDim(0)), static_cast<uint32_t>(srcShape.GetDim(1)),
           typeSize, maxValue, minValue);
}

void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize, optiling::UnPadTiling& tiling) {
  if (!CheckShape(srcShape, typeSize, "UnPad", "UnPadTilingFunc")) return;
  const uint32_t height = static_cast<uint32_t>(srcShape.GetDim(0));
  const uint32_t width = static_cast<uint32_t>(srcShape.GetDim(1));
  tiling.set_srcHeight(height);
  tiling.set_srcWidth(width);
  if (stackBufferSize == 0) return;  // A2/A3 need no temporary space
  const uint32_t baseElems = kAddrList * kBlock / typeSize;
  const uint32_t tmp1Blocks = stackBufferSize / typeSize / baseElems / 2;
  tiling.set_tmpBuffer1BlockNum(tmp1Blocks);
  tiling.set_tmpBuffer1RowNum(kAddrList * tmp1Blocks);
  tiling.set_tmpBuffer2Offset(tmp1Blocks * baseElems);
  const uint32_t widthTiling = kAddrList * tmp1Blocks;
  if (widthTiling == 0) return;
  uint32_t fractal = width / widthTiling;
  uint32_t tail = width % widthTiling;
  if (tail != 0) {
    fractal += 1;
  } else {
    tail = widthTiling;
  }
  tiling.set_widthTiling(widthTiling);
  tiling.set_widthFractal(fractal);
  tiling.set_widthFractalTail(tail);
}

void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize, AscendC::tiling::UnPadTiling& tiling) {
  optiling::UnPadTiling data;
  UnPadTilingFunc(srcShape, stackBufferSize, typeSize, data);
  data.SaveToBuffer(&tiling, sizeof(tiling));
}

}  // namespace AscendC
