// fused_math.h on the host CPU: Highway targets chosen at run time; the portable loop is the
// reference and the path for targets without F16C.
#include "ascsim/aicore/simd/fused_math.h"

#include <cstring>
#include <string>

#include "ascsim/error.h"
#include "ascsim/half.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "aicore/simd/fused_math.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

// After foreach_target.h: included once per target.
#include "aicore/simd/load_store-inl.h"

HWY_BEFORE_NAMESPACE();
namespace ascsim::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// kF16Native, F16, LoadF and StoreF: load_store-inl.h.

// Product then sum, each rounded to float (no fused multiply-add: the device rounds the product).
template <class TD, class TS>
HWY_INLINE void Run(TD* d, const TS* a, const TS* b, size_t n) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto p = hn::Mul(LoadF(df, a + i), LoadF(df, b + i));
    StoreF(df, hn::Add(p, LoadF(df, d + i)), d + i);
  }
  const hn::CappedTag<float, 1> d1;
  for (; i < n; ++i) {
    const auto p = hn::Mul(LoadF(d1, a + i), LoadF(d1, b + i));
    StoreF(d1, hn::Add(p, LoadF(d1, d + i)), d + i);
  }
}

// d = a * d + b (FusedMulAdd), product rounded first as in Run.
template <class T>
HWY_INLINE void RunFma(T* d, const T* a, const T* b, size_t n) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto p = hn::Mul(LoadF(df, a + i), LoadF(df, d + i));
    StoreF(df, hn::Add(p, LoadF(df, b + i)), d + i);
  }
  const hn::CappedTag<float, 1> d1;
  for (; i < n; ++i) {
    const auto p = hn::Mul(LoadF(d1, a + i), LoadF(d1, d + i));
    StoreF(d1, hn::Add(p, LoadF(d1, b + i)), d + i);
  }
}

bool FmaFast(DType t, void* dst, const void* a, const void* b, size_t n) {
  if (t == DType::kF32) {
    RunFma(static_cast<float*>(dst), static_cast<const float*>(a), static_cast<const float*>(b), n);
    return true;
  }
  if (t == DType::kF16 && kF16Native) {
    RunFma(static_cast<F16*>(dst), static_cast<const F16*>(a), static_cast<const F16*>(b), n);
    return true;
  }
  return false;
}

bool MulAddFast(DType dst_t, DType src_t, void* dst, const void* a, const void* b, size_t n) {
  if (dst_t == DType::kF32 && src_t == DType::kF32) {
    Run(static_cast<float*>(dst), static_cast<const float*>(a), static_cast<const float*>(b), n);
    return true;
  }
  if (!kF16Native) return false;
  if (dst_t == DType::kF16 && src_t == DType::kF16) {
    Run(static_cast<F16*>(dst), static_cast<const F16*>(a), static_cast<const F16*>(b), n);
    return true;
  }
  if (dst_t == DType::kF32 && src_t == DType::kF16) {
    Run(static_cast<float*>(dst), static_cast<const F16*>(a), static_cast<const F16*>(b), n);
    return true;
  }
  return false;
}

}  // namespace HWY_NAMESPACE
}  // namespace ascsim::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ascsim::simd {

HWY_EXPORT(MulAddFast);
HWY_EXPORT(FmaFast);

namespace {
float ToF(DType t, const void* p, size_t i) {
  if (t == DType::kF32) return static_cast<const float*>(p)[i];
  uint16_t bits;
  std::memcpy(&bits, static_cast<const uint8_t*>(p) + 2 * i, 2);
  return t == DType::kF16 ? HalfBitsToFloat(bits) : Bf16BitsToFloat(bits);
}
void FromF(DType t, void* p, size_t i, float v) {
  if (t == DType::kF32) {
    static_cast<float*>(p)[i] = v;
    return;
  }
  const uint16_t bits = t == DType::kF16 ? FloatToHalfBits(v) : FloatToBf16Bits(v);
  std::memcpy(static_cast<uint8_t*>(p) + 2 * i, &bits, 2);
}
}  // namespace

void MulAddDst(DType dst_t, DType src_t, void* dst, const void* a, const void* b, size_t n) {
  const bool ok_types =
      (dst_t == src_t && (dst_t == DType::kF32 || dst_t == DType::kF16 || dst_t == DType::kBF16)) ||
      (dst_t == DType::kF32 && src_t == DType::kF16);
  if (!ok_types) {
    throw InvalidArgument(std::string("MulAddDst is not supported for dst ") + DTypeName(dst_t) +
                          " with sources " + DTypeName(src_t));
  }
  if (HWY_DYNAMIC_DISPATCH(MulAddFast)(dst_t, src_t, dst, a, b, n)) return;
  for (size_t i = 0; i < n; ++i) {
    const float p = ToF(src_t, a, i) * ToF(src_t, b, i);
    FromF(dst_t, dst, i, p + ToF(dst_t, dst, i));
  }
}

void FusedMulAdd(DType t, void* dst, const void* a, const void* b, size_t n) {
  if (t != DType::kF32 && t != DType::kF16 && t != DType::kBF16) {
    throw InvalidArgument(std::string("FusedMulAdd is not supported for ") + DTypeName(t));
  }
  if (HWY_DYNAMIC_DISPATCH(FmaFast)(t, dst, a, b, n)) return;
  for (size_t i = 0; i < n; ++i) {
    const float p = ToF(t, a, i) * ToF(t, dst, i);
    FromF(t, dst, i, p + ToF(t, b, i));
  }
}

}  // namespace ascsim::simd
#endif  // HWY_ONCE
