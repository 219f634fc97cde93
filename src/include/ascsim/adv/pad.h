// Pad and UnPad of a [height, width] tensor along its width (asc-devkit docs 高阶API/张量变换/Pad,
// UnPad; include/adv_api/pad/pad.h; impl/adv_api/detail/pad/pad/pad_base_impl.h and
// pad_v220_impl.h for the algorithm). The tiling comes from the host's PadTilingFunc /
// UnPadTilingFunc (tiling/pad_tiling.h).
//
//   Pad, width 32-byte aligned (srcWidth * sizeof(T) % 32 == 0): the redundant columns
//       [srcOriWidth, srcWidth) must lie in each row's last 32-byte block; dst = src, then
//       rightPad of them from srcOriWidth on are set to padValue (a DataCopy and a masked
//       Duplicate, as the device does). Only rightPad: leftPad must be 0.
//   Pad, width not aligned: rows of srcWidth elements, packed, become rows of the width rounded up
//       to 32 bytes: leftPad padValues, the row, rightPad padValues (leftPad + srcWidth + rightPad
//       at most that width; the columns after them are not written). Needs the temporary space
//       the tiling was made for.
//   UnPad (width 32-byte aligned): each row loses its last rightPad elements (0 < rightPad, under
//       32 bytes) and the rows are packed: dst holds srcHeight * (srcWidth - rightPad). leftPad
//       has no effect (the documentation: "当前暂不生效").
// Types: int16_t, uint16_t, half, int32_t, uint32_t, float.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/pad_tiling_structs.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/vector_masked.h"

namespace AscendC {

struct PadParams {
  PadParams() = default;
  PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
      : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

struct UnPadParams {
  UnPadParams() = default;
  UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn)
      : leftPad(leftPadIn), rightPad(rightPadIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

}  // namespace AscendC

namespace ascsim::aicore {

template <class T>
constexpr bool kPadType = std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
                          std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
                          std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;

// The checks of Pad and UnPad with their one-line faults (adv_pad.cpp).
void CheckPadAligned(uint32_t elem_bytes, uint32_t height, uint32_t width, uint32_t ori_width,
                     uint32_t left_pad, uint32_t right_pad);
void CheckPadUnaligned(uint32_t elem_bytes, uint32_t height, uint32_t width, uint32_t left_pad,
                       uint32_t right_pad, uint32_t tmp_block_num, uint64_t tmp_bytes);
void CheckUnPad(uint32_t elem_bytes, uint32_t height, uint32_t width, uint32_t right_pad);

template <class T>
void PadAligned(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const AscendC::PadParams& p, const AscendC::PadTiling& tiling) {
  const uint32_t height = tiling.srcHeight, width = tiling.srcWidth;
  const uint32_t per_block = kBlockBytes / sizeof(T);
  CheckPadAligned(sizeof(T), height, width, tiling.srcOriWidth, p.leftPad, p.rightPad);
  AscendC::DataCopy(dst, src, height * width);
  AscendC::PipeBarrier<PIPE_V>();
  uint64_t mask[2] = {((uint64_t{1} << p.rightPad) - 1)
                          << (per_block - (width - tiling.srcOriWidth)),
                      0};
  // One repeat per row over its last block; rows in groups of at most 255 repeats.
  const uint32_t last_block = width - per_block;
  const uint32_t blocks_per_row = width / per_block;
  for (uint32_t done = 0; done < height;) {
    const uint32_t rows = height - done < kMaxRepeatTimes ? height - done : kMaxRepeatTimes;
    AscendC::Duplicate<T, true>(dst[done * width + last_block], static_cast<T>(p.padValue), mask,
                                static_cast<uint8_t>(rows), 1,
                                static_cast<uint8_t>(blocks_per_row));
    done += rows;
  }
}

template <class T>
void PadUnaligned(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  const AscendC::PadParams& p, const AscendC::LocalTensor<uint8_t>& tmp,
                  const AscendC::PadTiling& tiling) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint32_t height = tiling.srcHeight, width = tiling.srcWidth;
  const uint32_t per_block = kBlockBytes / sizeof(T);
  const uint32_t aligned = (width + per_block - 1) / per_block * per_block;
  CheckPadUnaligned(sizeof(T), height, width, p.leftPad, p.rightPad, tiling.tmpBuffer1BlockNum,
                    tmp.GetSize());
  const uint64_t n_src = static_cast<uint64_t>(height) * width;
  const uint64_t n_dst = static_cast<uint64_t>(height) * aligned;
  CheckTmp("Pad", tmp, tmp.GetSize());
  const T* s = CheckUbOperand("Pad", "srcTensor", src, n_src);
  T* d = CheckUbOperand("Pad", "dstTensor", dst, n_dst);
  CheckTmpDisjoint("Pad", tmp, "srcTensor", src, n_src);
  CheckTmpDisjoint("Pad", tmp, "dstTensor", dst, n_dst);
  const T value = static_cast<T>(p.padValue);
  // Row by row from the last, so a dst that starts where src does is still read before written.
  for (uint32_t r = height; r-- > 0;) {
    T* row = d + static_cast<uint64_t>(r) * aligned;
    const T* in = s + static_cast<uint64_t>(r) * width;
    for (uint32_t c = width; c-- > 0;) row[p.leftPad + c] = in[c];
    for (uint32_t c = 0; c < p.leftPad; ++c) row[c] = value;
    for (uint32_t c = 0; c < p.rightPad; ++c) row[p.leftPad + width + c] = value;
  }
  // The device broadcasts every element to a 32-byte block, pads and transposes back: the
  // vector work of about three passes over the broadcast data.
  Record(core, [&] {
    return VectorCall("Pad", trace::VectorClass::kSimple, sizeof(T), 3 * n_src * per_block,
                      BufferId(dst), BufferId(src), BufferId(tmp));
  });
}

}  // namespace ascsim::aicore

namespace AscendC {

template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling) {
  static_assert(ascsim::aicore::kPadType<T>,
                "Pad supports int16_t, uint16_t, half, int32_t, uint32_t and float");
  if (tiling.srcWidth * sizeof(T) % ascsim::aicore::kBlockBytes == 0) {
    ascsim::aicore::PadAligned(dstTensor, srcTensor, padParams, tiling);
  } else {
    ascsim::aicore::PadUnaligned(dstTensor, srcTensor, padParams, sharedTmpBuffer, tiling);
  }
}

template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         PadTiling& tiling) {
  static_assert(ascsim::aicore::kPadType<T>,
                "Pad supports int16_t, uint16_t, half, int32_t, uint32_t and float");
  if (tiling.srcWidth * sizeof(T) % ascsim::aicore::kBlockBytes == 0) {
    ascsim::aicore::PadAligned(dstTensor, srcTensor, padParams, tiling);  // needs no temporary
  } else {
    ascsim::aicore::PadUnaligned(dstTensor, srcTensor, padParams, detail::AdvStack("Pad"), tiling);
  }
}

template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           UnPadParams& unPadParams, LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling) {
  static_assert(ascsim::aicore::kPadType<T>,
                "UnPad supports int16_t, uint16_t, half, int32_t, uint32_t and float");
  (void)sharedTmpBuffer;  // A2/A3 need none (GetUnPadMaxMinTmpSize: 0); the 310P's is not used
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const uint32_t height = tiling.srcHeight, width = tiling.srcWidth;
  ai::CheckUnPad(sizeof(T), height, width, unPadParams.rightPad);
  const uint32_t kept = width - unPadParams.rightPad;
  const uint64_t n_src = static_cast<uint64_t>(height) * width;
  const uint64_t n_dst = static_cast<uint64_t>(height) * kept;
  const T* s = ai::CheckUbOperand("UnPad", "srcTensor", srcTensor, n_src);
  T* d = ai::CheckUbOperand("UnPad", "dstTensor", dstTensor, n_dst);
  // Row by row from the first: dst never runs ahead of src, so in place works.
  for (uint32_t r = 0; r < height; ++r) {
    const T* in = s + static_cast<uint64_t>(r) * width;
    T* out = d + static_cast<uint64_t>(r) * kept;
    for (uint32_t c = 0; c < kept; ++c) out[c] = in[c];
  }
  // GatherMask in counter mode, one repeat per row (impl/.../pad_v220_impl.h UnPadCompute).
  ai::Record(core, [&] {
    return ai::VectorCall("UnPad", ascsim::trace::VectorClass::kGather, sizeof(T), n_src,
                          ai::BufferId(dstTensor), ai::BufferId(srcTensor),
                          ascsim::trace::kNoBuffer);
  });
}

template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           UnPadParams& unPadParams, UnPadTiling& tiling) {
  LocalTensor<uint8_t> none;
  UnPad(dstTensor, srcTensor, unPadParams, none, tiling);
}

}  // namespace AscendC
