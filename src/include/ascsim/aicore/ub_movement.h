// UB-to-UB data movement on the vector pipe: Copy (mask/repeat form with CopyRepeatParams), Gather
// (elements at byte offsets), TransDataTo5HD (the 16-address NCHW -> NC1HWC0 / block transpose)
// and Transpose (one 16 x 16 block of 16-bit elements).
// Sources: asc-devkit include/basic_api/kernel_operator_data_copy_intf.h (Copy),
// kernel_struct_data_copy.h (CopyRepeatParams), kernel_operator_vec_gather_intf.h,
// kernel_operator_vec_transpose_intf.h, kernel_struct_transpose.h, and the API pages
// docs/zh/api/SIMD-API/基础API/Memory矢量计算/{数据搬运/UB与UB数据搬运, 离散与聚合/Gather.md,
// 数据排布转换/TransDataTo5HD.md, 数据排布转换/Transpose.md}.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/simd/masked_math.h"
#include "ascsim/aicore/sys_misc.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/vector_masked.h"

namespace AscendC {

constexpr uint16_t DEFAULT_DATA_COPY_STRIDE = 1;
constexpr uint16_t DEFAULT_REPEAT_STRIDE = 8;

// Block strides within a repeat and repeat strides, all in 32 B blocks.
struct CopyRepeatParams {
  CopyRepeatParams() {}
  CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                   uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = DEFAULT_DATA_COPY_STRIDE;
  uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
  uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
  uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

}  // namespace AscendC

namespace ascsim::aicore {

// dstRepeatSize / srcRepeatSize are 12-bit fields.
constexpr uint32_t kMaxCopyRepeatSize = 4095;

void CheckCopyRepeatParams(const AscendC::CopyRepeatParams& p);

template <class T>
void MaskedCopy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const MaskArg& mask, bool is_set_mask, int64_t repeat_time,
                const AscendC::CopyRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "Copy takes 16- or 32-bit elements on Atlas A2/A3 (int16_t, uint16_t, half, "
                "bfloat16_t, int32_t, uint32_t, float)");
  constexpr const char* name = "Copy";
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  RequireArch(name, 2201, "the mask/repeat UB->UB Copy");
  CheckCopyRepeatParams(p);
  const simd::RepeatPlan plan = ResolvePlan<T>(name, core, is_set_mask, mask, repeat_time);
  const simd::Stride sd = StrideOf(p.dstStride, p.dstRepeatSize);
  const simd::Stride ss = StrideOf(p.srcStride, p.srcRepeatSize);
  uint64_t nd, ns;
  auto* d = reinterpret_cast<uint8_t*>(CheckStridedOperand(name, "dst", dst, plan, sd, &nd));
  auto* s = reinterpret_cast<const uint8_t*>(CheckStridedOperand(name, "src", src, plan, ss, &ns));
  CheckOverlap(name, "dst", d, nd, "src", s, ns);
  simd::ForEachRun(
      plan, Contiguous({sd, ss}),
      [&](uint32_t r, uint32_t e, uint32_t len) {
        std::memmove(d + simd::ElementOffset(plan, sd, sizeof(T), r, e),
                     s + simd::ElementOffset(plan, ss, sizeof(T), r, e), len * sizeof(T));
      },
      DenseRepeats({sd, ss}));
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kSimple, sizeof(T),
                      uint64_t{plan.repeats} * plan.per_repeat, BufferId(dst), BufferId(src),
                      trace::kNoBuffer);
  });
}

}  // namespace ascsim::aicore

namespace AscendC {

// Copy, mask/repeat form (Atlas A2/A3; the count form exists only on Ascend 950).
template <class T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
          const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
  ascsim::aicore::MaskedCopy<T>(dst, src, ascsim::aicore::BitMask(mask), isSetMask, repeatTime,
                                repeatParams);
}
template <class T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
          const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
  ascsim::aicore::MaskedCopy<T>(dst, src, ascsim::aicore::ContinuousMask(mask), isSetMask,
                                repeatTime, repeatParams);
}

}  // namespace AscendC
