// Index generation: ArithProgression / Arange (dst[i] = firstValue + i * diffValue).
//
// Source: asc-devkit include/adv_api/index/arithprogression.h (Arange) and
// kernel_operator_arithprogression_intf.h (ArithProgression), the A2/310P algorithm of
// impl/adv_api/detail/index/arithprogression/arithprogression_common_impl.h: the first 32-byte
// block is written by the scalar unit, then each block (and each 256-byte repeat) is the previous
// one plus a multiple of diffValue, by Adds. The values therefore carry the device's rounding (an
// fp32 element is a sum of fp32 partial steps, not firstValue + i * diffValue in one rounding), and
// the last Adds writes whole 32-byte blocks: up to the next block boundary past `count` when count
// is above one block (the buffer must have room for it, as on the device; the Adds operand checks
// say so when it has not).
// Types: half, float, int16_t, int32_t (the docs' list; int64_t steps are formed in int64 as CANN's).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/aicore/ub_movement.h"

namespace AscendC {

namespace detail {
template <class T>
inline void ArithProgressionBase(const LocalTensor<T>& dst, T first, T diff, int32_t count) {
  for (int32_t i = 0; i < count; ++i) {
    if constexpr (std::is_same_v<T, half>) {
      dst.SetValue(i, half(static_cast<float>(first) +
                           static_cast<float>(diff) * static_cast<float>(i)));
    } else {
      dst.SetValue(i, static_cast<T>(first + diff * static_cast<T>(i)));
    }
  }
}
template <class T>
inline T ArithProgressionStep(T diff, int32_t steps) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<int64_t>(diff) * static_cast<int64_t>(steps));
  } else {
    return static_cast<T>(static_cast<float>(diff) * static_cast<float>(steps));
  }
}
[[noreturn]] inline void FaultArithProgressionCount(int32_t count) {
  ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                        ascsim::aicore::Str("ArithProgression: count ", count, " is negative"));
}
}  // namespace detail

template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue,
                                        const T diffValue, const int32_t count) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> ||
                    std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>,
                "ArithProgression supports half, float, int16_t and int32_t");
  if (g_coreType == AIC) return;  // vector work: an AIC has none (as CANN's A2 code)
  constexpr int32_t kBlock = ONE_BLK_SIZE / sizeof(T);
  constexpr int32_t kRepeat = ONE_REPEAT_BYTE_SIZE / sizeof(T);
  if (count < 0) detail::FaultArithProgressionCount(count);
  if (count <= kBlock) {
    detail::VectorToScalar();
    detail::ArithProgressionBase<T>(dstLocal, firstValue, diffValue, count);
    detail::ScalarToVector();
    return;
  }
  detail::ArithProgressionBase<T>(dstLocal, firstValue, diffValue, kBlock);
  detail::ScalarToVector();
  const UnaryRepeatParams stride1(1, 1, 1, 1);
  const UnaryRepeatParams stride8(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE);
  const uint64_t firstBlockMask = (uint64_t{1} << kBlock) - 1;
  if (count > kRepeat) {
    // Blocks 1..7 of the first repeat, each from the one before.
    SetVectorMask<T>(0, firstBlockMask);
    for (int32_t i = 0; i < DEFAULT_BLK_NUM - 1; ++i) {
      Adds<T, false>(dstLocal[(i + 1) * kBlock], dstLocal[i * kBlock],
                     detail::ArithProgressionStep<T>(diffValue, kBlock), MASK_PLACEHOLDER, 1,
                     stride1);
    }
    const int32_t repeat = count / kRepeat;
    const int32_t tail = count % kRepeat;
    ResetMask();
    for (int32_t i = 0; i < repeat - 1; ++i) {
      Adds<T, false>(dstLocal[(i + 1) * kRepeat], dstLocal[i * kRepeat],
                     detail::ArithProgressionStep<T>(diffValue, kRepeat), MASK_PLACEHOLDER, 1,
                     stride8);
    }
    if (tail > 0) {
      SetVectorMask<T>((tail + kBlock - 1) / kBlock * kBlock);
      Adds<T, false>(dstLocal[repeat * kRepeat], dstLocal[(repeat - 1) * kRepeat],
                     detail::ArithProgressionStep<T>(diffValue, kRepeat), MASK_PLACEHOLDER, 1,
                     stride8);
    }
  } else {
    const int32_t blocks = (count + kBlock - 1) / kBlock;
    SetVectorMask<T>(0, firstBlockMask);
    for (int32_t i = 0; i < blocks - 1; ++i) {
      Adds<T, false>(dstLocal[(i + 1) * kBlock], dstLocal[i * kBlock],
                     detail::ArithProgressionStep<T>(diffValue, kBlock), MASK_PLACEHOLDER, 1,
                     stride1);
    }
  }
  // Like CANN's, the mask register is left as the last Adds set it.
}

// The same progression under the newer name (asc-devkit include/adv_api/index/arithprogression.h).
template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue,
                              const int32_t count) {
  ArithProgression<T>(dst, firstValue, diffValue, count);
}

}  // namespace AscendC
