// The kernel-side tiling of Pad and UnPad: plain structs with the fields, in order, of the host's
// optiling::PadTiling / UnPadTiling (asc-devkit include/adv_api/pad/pad_tilingdata.h), in
// AscendC::tiling and, as CANN exports its legacy tiling structs, at global scope
// (ascsim/adv/tiling_structs.h says how).
#pragma once

#include <cstdint>

namespace AscendC {
namespace tiling {

struct PadTiling {
  uint32_t srcHeight = 0;
  uint32_t srcWidth = 0;
  uint32_t srcOriWidth = 0;
  uint32_t widthWithoutLastBlock = 0;
  uint32_t blocksPerRow = 0;
  uint32_t heightTiling = 0;
  uint32_t heightFractal = 0;
  uint32_t heightFractalTail = 0;
  uint32_t mainLoopOffset = 0;
  uint32_t tailBlockOffset = 0;
  uint32_t tmpBuffer1BlockNum = 0;
  uint32_t tmpBuffer1RowNum = 0;
  uint32_t tmpBuffer2Offset = 0;
  uint32_t widthTiling = 0;
  uint32_t widthFractal = 0;
  uint32_t widthFractalTail = 0;
  uint32_t widthFractalTailAlingned = 0;
  uint32_t brcbTiling = 0;
  uint32_t brcbFractal = 0;
  uint32_t brcbFractalTail = 0;
  uint32_t maxRepeatTimes = 0;
  uint32_t brcbTilingRepeatTimes = 0;
  uint32_t brcbTilingRepeatTimesTail = 0;
  uint32_t brcbFractalTailRepeatTimes = 0;
  uint32_t brcbFractalTailRepeatTimesTail = 0;
  uint32_t reserved = 0;
};

struct UnPadTiling {
  uint32_t srcHeight = 0;
  uint32_t srcWidth = 0;
  uint32_t tmpBuffer1BlockNum = 0;
  uint32_t tmpBuffer1RowNum = 0;
  uint32_t tmpBuffer2Offset = 0;
  uint32_t widthTiling = 0;
  uint32_t widthFractal = 0;
  uint32_t widthFractalTail = 0;
};

}  // namespace tiling

using tiling::PadTiling;
using tiling::UnPadTiling;

}  // namespace AscendC

using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;
