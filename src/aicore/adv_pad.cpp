// The checks of Pad and UnPad (ascsim/adv/pad.h): the documented constraints, each a one-line
// fault naming the numbers.
#include "ascsim/adv/pad.h"

namespace ascsim::aicore {

void CheckPadAligned(uint32_t elem_bytes, uint32_t height, uint32_t width, uint32_t ori_width,
                     uint32_t left_pad, uint32_t right_pad) {
  const uint32_t per_block = kBlockBytes / elem_bytes;
  if (height == 0 || width == 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Pad: the tiling's shape is [", height, ", ", width, "] (from PadTilingFunc?)"));
  }
  if (left_pad != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Pad: leftPad ", left_pad, " with a 32-byte aligned width ", width,
              ": an aligned width pads on the right only"));
  }
  if (ori_width >= width || width - ori_width > per_block) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Pad: srcOriWidth ", ori_width, " of width ", width,
              ": with an aligned width the redundant columns must be 1 to ", per_block,
              " (the row's last 32-byte block); an aligned width of valid data needs no Pad"));
  }
  if (right_pad == 0 || ori_width + right_pad > width) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Pad: rightPad ", right_pad, " after ", ori_width, " valid columns of ", width,
              ": it must be 1 to ", width - ori_width));
  }
}

void CheckPadUnaligned(uint32_t elem_bytes, uint32_t height, uint32_t width, uint32_t left_pad,
                       uint32_t right_pad, uint32_t tmp_block_num, uint64_t tmp_bytes) {
  const uint32_t per_block = kBlockBytes / elem_bytes;
  const uint32_t aligned = (width + per_block - 1) / per_block * per_block;
  if (height == 0 || width == 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Pad: the tiling's shape is [", height, ", ", width, "] (from PadTilingFunc?)"));
  }
  if (static_cast<uint64_t>(height) * width * elem_bytes % kBlockBytes != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Pad: the source holds ", height, " x ", width, " elements of ", elem_bytes,
              " B, not a multiple of 32 bytes"));
  }
  if (left_pad + width + right_pad > aligned) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Pad: leftPad ", left_pad, " + width ", width, " + rightPad ", right_pad,
              " exceeds the width rounded up to 32 bytes, ", aligned));
  }
  // The documented minimum (GetPadMaxMinTmpSize): 16 rows of one 32-byte block, twice.
  const uint64_t min_tmp = 16 * kBlockBytes * 2;
  if (tmp_block_num == 0) {
    Fault(ErrorKind::kInvalidArgument,
          "Pad: the width is not 32-byte aligned, which needs temporary space, but the tiling "
          "was made with stackBufferSize 0 (pass GetPadMaxMinTmpSize's value to PadTilingFunc)");
  }
  if (tmp_bytes < min_tmp) FaultTmpTooSmall("Pad", tmp_bytes, min_tmp, "GetPadMaxMinTmpSize's minimum");
}

void CheckUnPad(uint32_t elem_bytes, uint32_t height, uint32_t width, uint32_t right_pad) {
  const uint32_t per_block = kBlockBytes / elem_bytes;
  if (height == 0 || width == 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str("UnPad: the tiling's shape is [", height, ", ", width, "] (from UnPadTilingFunc?)"));
  }
  if (width % per_block != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str("UnPad: width ", width, " of ", elem_bytes,
              "-byte elements is not 32-byte aligned; UnPad takes aligned rows"));
  }
  if (right_pad == 0 || right_pad >= per_block) {
    Fault(ErrorKind::kInvalidArgument,
          Str("UnPad: rightPad ", right_pad, " must be more than 0 and under 32 bytes (1 to ",
              per_block - 1, " elements)"));
  }
}

}  // namespace ascsim::aicore
