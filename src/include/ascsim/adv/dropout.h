// DropOut, the filter advanced API of asc-devkit include/adv_api/filter/dropout.h
// (docs/zh/api/SIMD-API/高阶API/数据过滤/DropOut.md): dst = src * mask / keepProb over a
// [firstAxis, srcLastAxis] src, the mask one byte per element (byte mode, 0 or 1) or one bit per
// element (bit mode, bit i of byte i / 8, least significant first), its rows maskLastAxis bytes.
//
// The Atlas A2/A3 algorithm (impl/adv_api/detail/filter/dropout/dropout_impl.h,
// dropout_c220_impl.h, dropout_membase_impl.h) as the same basic-API calls. The mode (dropOutMode
// 0 chooses by the shape): 1 byte misaligned (srcLastAxis < maskLastAxis), 2 byte aligned (equal),
// 3 bit aligned (srcLastAxis == 8 * maskLastAxis), 4 bit misaligned (otherwise):
//   - byte: the mask cast uint8_t -> half (-> float for float), Mul by src, Muls by T(1 / keepProb),
//     in pieces of what sharedTmpBuffer holds (half: its bytes / 2 elements; float: / 6; whole
//     32 elements);
//   - bit: CMPMASK zeroed from sharedTmpBuffer (unless isInitBitMode: the caller set it), Select
//     src where the bit is set and CMPMASK's scalar elsewhere, Muls by T(1 / keepProb);
//   - misaligned: first GatherMask packs each mask row's srcLastAxis bytes (bits) to the front,
//     in maskLocal itself (the device overwrites the caller's mask), 2 bytes at a time.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/aicore/compare_select.h"
#include "ascsim/aicore/gather_mask.h"
#include "ascsim/aicore/kernel_constants.h"  // DROPOUT_MODE_*

namespace AscendC {

// asc-devkit impl/basic_api/utils/kernel_utils_struct_norm_sort.h.
struct DropOutShapeInfo {
  DropOutShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

namespace detail {

[[noreturn]] inline void DropOutFault(const std::string& what) {
  namespace ai = ascsim::aicore;
  ai::Fault(ascsim::ErrorKind::kInvalidArgument, ai::Str("DropOut: ", what));
}

// dropout_c220_impl.h: GatherMask pattern 7 (all) over firstAxis rows of `row_bytes` bytes, read
// every maskLastAxis bytes, written packed; the mask rows must be whole 32 B blocks.
inline void DropOutPackMask(const LocalTensor<uint8_t>& mask, const DropOutShapeInfo& info,
                            uint32_t row_bytes) {
  if (info.maskLastAxis % 32 != 0) {
    DropOutFault(ascsim::aicore::Str("maskLastAxis ", info.maskLastAxis,
                                     " is not a multiple of 32 (the packing GatherMask steps by "
                                     "whole blocks)"));
  }
  GatherMaskParams p;
  p.repeatTimes = static_cast<uint16_t>(info.firstAxis);
  p.src0RepeatStride = static_cast<uint16_t>(info.maskLastAxis / 32);
  const LocalTensor<uint16_t> m16 = mask.ReinterpretCast<uint16_t>();
  uint64_t rsvd = 0;
  GatherMask<uint16_t>(m16, m16, 7, true, row_bytes / 2, p, rsvd);
}

template <class T>
void DropOutByte(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                 const LocalTensor<uint8_t>& mask, const LocalTensor<uint8_t>& tmp, T div,
                 uint32_t n) {
  namespace ai = ascsim::aicore;
  // dropout_membase_impl.h DropOutByteModeSetTmpBuffer: half elements of the buffer, or
  // bytes / (2 + 4) for float's half and float copies; whole 32 elements.
  const uint32_t stack = static_cast<uint32_t>(
      (std::is_same_v<T, half> ? tmp.GetSize() / 2 : tmp.GetSize() / 6) / 32 * 32);
  if (stack == 0) {
    ai::FaultTmpTooSmall("DropOut", tmp.GetSize(), std::is_same_v<T, half> ? 64 : 192,
                         "byte mode needs (one piece of 32 elements);");
  }
  const LocalTensor<half> first = tmp.ReinterpretCast<half>();
  const LocalTensor<float> second = tmp[uint64_t{2} * stack].ReinterpretCast<float>();
  for (uint32_t off = 0; off < n; off += stack) {
    const uint32_t m = n - off < stack ? n - off : stack;
    Cast(first, mask[off], RoundMode::CAST_NONE, m);
    if constexpr (std::is_same_v<T, half>) {
      Mul(dst[off], first, src[off], m);
    } else {
      Cast(second, first, RoundMode::CAST_NONE, m);
      Mul(dst[off], second, src[off], m);
    }
    Muls(dst[off], dst[off], div, m);
  }
}

template <class T, bool isInitBitMode>
void DropOutBit(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                const LocalTensor<uint8_t>& mask, const LocalTensor<uint8_t>& tmp, T div,
                uint32_t n) {
  namespace ai = ascsim::aicore;
  if constexpr (!isInitBitMode) {
    // DropOutBitModeInit: one repeat of int16_t zeros (Muls by 0) into CMPMASK.
    if (tmp.GetSize() < 256) {
      ai::FaultTmpTooSmall("DropOut", tmp.GetSize(), 256,
                           "bit mode needs (one repeat zeroed for CMPMASK);");
    }
    const LocalTensor<int16_t> z = tmp.ReinterpretCast<int16_t>();
    Muls(z, z, int16_t{0}, 128);
    SetCmpMask(z);
  }
  // Select's VSEL_TENSOR_SCALAR_MODE with the scalar from CMPMASK (the device's 5-argument Select).
  T scalar;
  std::memcpy(&scalar, ai::CurrentCore().vector.cmp_mask, sizeof(T));
  Select(dst, mask, src, scalar, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
  Muls(dst, dst, div, n);
}

template <class T, bool isInitBitMode, uint32_t dropOutMode>
void DropOutCompute(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                    const LocalTensor<uint8_t>& mask, const LocalTensor<uint8_t>& tmp,
                    float keepProb, const DropOutShapeInfo& info) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "DropOut takes half or float on Atlas A2/A3");
  static_assert(dropOutMode <= 4, "dropOutMode should be 0 / 1 / 2 / 3 / 4");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  if (info.firstAxis == 0) DropOutFault("info.firstAxis must > 0!");
  if (!(keepProb > 0.0f && keepProb < 1.0f)) {
    DropOutFault(ai::Str("keepProb should be larger than 0 and smaller than 1, current keepProb is ",
                         keepProb, "!"));
  }
  uint32_t mode = dropOutMode;
  if (mode == 0) {
    mode = info.srcLastAxis < info.maskLastAxis      ? DROPOUT_MODE_BYTE_MISALIGN
           : info.srcLastAxis == info.maskLastAxis   ? DROPOUT_MODE_BYTE_ALIGN
           : info.srcLastAxis == info.maskLastAxis * 8 ? DROPOUT_MODE_BIT_ALIGN
                                                       : DROPOUT_MODE_BIT_MISALIGN;
  }
  if ((mode == DROPOUT_MODE_BYTE_MISALIGN || mode == DROPOUT_MODE_BIT_MISALIGN) &&
      info.maskLastAxis % 2 != 0) {
    DropOutFault("maskLastAxis should be multiples of 2 when dropOutMode is 1 or 4!");
  }
  const uint64_t n64 = uint64_t{info.firstAxis} * info.srcLastAxis;
  if (n64 > src.GetSize() || n64 > dst.GetSize()) {
    DropOutFault(ai::Str("firstAxis * srcLastAxis = ", n64, " exceeds src (", src.GetSize(),
                         ") or dst (", dst.GetSize(), ")"));
  }
  const bool bit = mode == DROPOUT_MODE_BIT_ALIGN || mode == DROPOUT_MODE_BIT_MISALIGN;
  const uint64_t mask_bytes = uint64_t{info.firstAxis} * info.maskLastAxis;
  if (mask_bytes > mask.GetSize()) {
    DropOutFault(ai::Str("maskLocal holds ", mask.GetSize(), " B, less than firstAxis * "
                         "maskLastAxis = ", mask_bytes, " B"));
  }
  if (mode == DROPOUT_MODE_BIT_MISALIGN && info.srcLastAxis % 16 != 0) {
    DropOutFault(ai::Str("srcLastAxis ", info.srcLastAxis,
                         " is not a multiple of 16 in bit misaligned mode (the mask is moved 2 "
                         "bytes at a time)"));
  }
  const uint32_t n = static_cast<uint32_t>(n64);
  // 1 / keepProb in float, then T (dropout_impl.h DropOutOpt).
  float div_value = 1.0f;
  div_value = div_value / keepProb;
  const T div = static_cast<T>(div_value);
  ai::CheckTmpDisjoint("DropOut", tmp, "srcLocal", src, n);
  ai::CheckTmpDisjoint("DropOut", tmp, "dstLocal", dst, n);
  ai::CheckTmpDisjoint("DropOut", tmp, "maskLocal", mask, mask_bytes);
  if (mode == DROPOUT_MODE_BYTE_MISALIGN) {
    if (info.srcLastAxis % 2 != 0) {
      DropOutFault(ai::Str("srcLastAxis ", info.srcLastAxis,
                           " is odd in byte mode with padded mask rows (the mask is moved 2 bytes "
                           "at a time)"));
    }
    DropOutPackMask(mask, info, info.srcLastAxis);
  } else if (mode == DROPOUT_MODE_BIT_MISALIGN) {
    DropOutPackMask(mask, info, info.srcLastAxis / 8);
  }
  if (bit)
    DropOutBit<T, isInitBitMode>(dst, src, mask, tmp, div, n);
  else
    DropOutByte(dst, src, mask, tmp, div, n);
}

}  // namespace detail

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const float keepProb, const DropOutShapeInfo& info) {
  detail::DropOutCompute<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal,
                                                         sharedTmpBuffer, keepProb, info);
}

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<uint8_t>& maskLocal, const float keepProb,
             const DropOutShapeInfo& info) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::DropOutCompute<T, isInitBitMode, dropOutMode>(
      dstLocal, srcLocal, maskLocal, detail::AdvStack("DropOut"), keepProb, info);
}

}  // namespace AscendC
