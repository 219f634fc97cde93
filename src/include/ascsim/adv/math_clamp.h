// ClampMax and ClampMin, the math advanced APIs of asc-devkit include/adv_api/math/clamp.h (Atlas
// A2/A3 forms; docs/zh/api/SIMD-API/高阶API/数学计算/Clamp接口). On A2/A3 they are one Mins /
// Maxs of calCount elements (impl/adv_api/detail/math/clamp/clamp_common_impl.h): ClampMax
// replaces values above the scalar by it, ClampMin values below it; NaN follows Mins / Maxs. The
// sharedTmpBuffer forms take a temporary buffer the computation does not use (checked like any
// other: live, 32 B aligned, separate from the operands); the documented minimum
// (GetClampMaxMinTmpSize) is 64 B for float and 128 B for half.
#pragma once

#include <cstdint>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/math.h"

namespace AscendC {
namespace detail {

template <class T, bool kMax>
void ClampRun(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LocalTensor<uint8_t>* tmp, T scalar, uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "ClampMax and ClampMin take half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  if (tmp != nullptr) {
    AdvPrologue(api, dst, src, *tmp, calCount, sizeof(T) == 2 ? 128 : 64);
  } else {
    ai::CheckCalCount(api, calCount, src.GetSize(), dst.GetSize());
  }
  ai::CheckNoOverlap(api, "dstTensor", dst, "srcTensor", src, calCount);
  if constexpr (kMax) {
    Mins(dst, src, scalar, calCount);
  } else {
    Maxs(dst, src, scalar, calCount);
  }
}

}  // namespace detail

template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar,
              const uint32_t calCount) {
  detail::ClampRun<T, true>("ClampMax", dstTensor, srcTensor, &sharedTmpBuffer, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount) {
  detail::ClampRun<T, true>("ClampMax", dstTensor, srcTensor, nullptr, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar,
              const uint32_t calCount) {
  detail::ClampRun<T, false>("ClampMin", dstTensor, srcTensor, &sharedTmpBuffer, scalar,
                             calCount);
}
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount) {
  detail::ClampRun<T, false>("ClampMin", dstTensor, srcTensor, nullptr, scalar, calCount);
}

}  // namespace AscendC
