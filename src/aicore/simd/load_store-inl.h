// Per-target Highway helpers the element loops share (vector_math.cpp, fused_math.cpp): float
// lanes loaded from and stored to float or half memory, and whether half converts natively.
// Highway's -inl.h convention: included once per target by a file that uses foreach_target.h,
// hence the toggle guard instead of #pragma once.
#if defined(ASCSIM_AICORE_SIMD_LOAD_STORE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ASCSIM_AICORE_SIMD_LOAD_STORE_INL_H_
#undef ASCSIM_AICORE_SIMD_LOAD_STORE_INL_H_
#else
#define ASCSIM_AICORE_SIMD_LOAD_STORE_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ascsim::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Highway emulates float->half without F16C by truncation; the device rounds to nearest even,
// so half is handled by these loops only where F16C does the conversion.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
constexpr bool kF16Native = true;
#else
constexpr bool kF16Native = false;
#endif

using F16 = hwy::float16_t;

// Float lanes from float or half memory, and back (half rounded to nearest even by DemoteTo).
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF(DF df, const float* p) {
  return hn::LoadU(df, p);
}
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF(DF df, const F16* p) {
  const hn::Rebind<F16, DF> dh;
  return hn::PromoteTo(df, hn::LoadU(dh, p));
}
template <class DF>
HWY_INLINE void StoreF(DF df, hn::Vec<DF> v, float* p) {
  hn::StoreU(v, df, p);
}
template <class DF>
HWY_INLINE void StoreF(DF, hn::Vec<DF> v, F16* p) {
  const hn::Rebind<F16, DF> dh;
  hn::StoreU(hn::DemoteTo(dh, v), dh, p);
}

}  // namespace HWY_NAMESPACE
}  // namespace ascsim::simd
HWY_AFTER_NAMESPACE();

#endif  // ASCSIM_AICORE_SIMD_LOAD_STORE_INL_H_ toggle
