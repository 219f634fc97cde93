// The floor's loops, per Highway target: included once per target by the program that defines
// HWY_TARGET_INCLUDE as itself (bench_floor.cpp, bench_vs_floor.cpp), so both time the same code.
//   add:  z[i] = x[i] + y[i] (half through float via F16C, rounded once; or float)
//   gelu: y = x / (1 + exp(-2 sqrt(2/pi) x (1 + 0.044715 x^2))), the shipped kernel's arithmetic
// No include guard: foreach_target.h includes it once per target (Highway's -inl.h convention).
#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace floor_kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class DF>
HWY_INLINE hn::Vec<DF> LoadF(DF df, const float* p) { return hn::LoadU(df, p); }
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF(DF df, const hwy::float16_t* p) {
  return hn::PromoteTo(df, hn::LoadU(hn::Rebind<hwy::float16_t, DF>(), p));
}
template <class DF>
HWY_INLINE void StoreF(DF df, hn::Vec<DF> v, float* p) { hn::StoreU(v, df, p); }
template <class DF>
HWY_INLINE void StoreF(DF, hn::Vec<DF> v, hwy::float16_t* p) {
  const hn::Rebind<hwy::float16_t, DF> dh;
  hn::StoreU(hn::DemoteTo(dh, v), dh, p);
}

// The same arithmetic as kernel/gelu_custom.cpp: 0.5 (1 + tanh(u)) = 1 / (1 + exp(-2u)), so
// y = x / (1 + exp(-2 sqrt(2/pi) x (1 + 0.044715 x^2))): one Exp and one Div per element.
template <class D, class V>
HWY_INLINE V Gelu(D d, V x) {
  const V k = hn::Set(d, -1.5957691216057308f);  // -2 sqrt(2 / pi)
  const V u = hn::Mul(hn::Mul(k, x), hn::MulAdd(hn::Set(d, 0.044715f), hn::Mul(x, x), hn::Set(d, 1.0f)));
  return hn::Div(x, hn::Add(hn::Set(d, 1.0f), hn::Exp(d, u)));
}

template <class T>
void AddT(const void* x, const void* y, void* z, size_t n) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  const T* a = static_cast<const T*>(x);
  const T* b = static_cast<const T*>(y);
  T* c = static_cast<T*>(z);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) StoreF(df, hn::Add(LoadF(df, a + i), LoadF(df, b + i)), c + i);
  const hn::CappedTag<float, 1> d1;
  for (; i < n; ++i) StoreF(d1, hn::Add(LoadF(d1, a + i), LoadF(d1, b + i)), c + i);
}

template <class T>
void GeluT(const void* x, void* y, size_t n) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  const T* a = static_cast<const T*>(x);
  T* c = static_cast<T*>(y);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) StoreF(df, Gelu(df, LoadF(df, a + i)), c + i);
  const hn::CappedTag<float, 1> d1;
  for (; i < n; ++i) StoreF(d1, Gelu(d1, LoadF(d1, a + i)), c + i);
}

void AddF16(const void* x, const void* y, void* z, size_t n) { AddT<hwy::float16_t>(x, y, z, n); }
void AddF32(const void* x, const void* y, void* z, size_t n) { AddT<float>(x, y, z, n); }
void GeluF16(const void* x, void* y, size_t n) { GeluT<hwy::float16_t>(x, y, n); }
void GeluF32(const void* x, void* y, size_t n) { GeluT<float>(x, y, n); }

}  // namespace HWY_NAMESPACE
}  // namespace floor_kernels
HWY_AFTER_NAMESPACE();
