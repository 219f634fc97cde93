// The element-wise advanced APIs production kernels use: Sigmoid, Tanh, Log / Log2 / Log10, Sign,
// Floor, Ceil, Power. Each is the device's algorithm for Atlas A2/A3 (asc-devkit
// impl/adv_api/detail/{activation/sigmoid, math/tanh, math/log, math/sign, math/floor, math/ceil,
// math/power}) written as basic-API calls over pieces of the temporary buffer, so its results carry
// the device's rounding at every step:
//   Sigmoid  y = 1 / (1 + e^-x), in T (Muls, Exp, Adds, Div)
//   Tanh     y = (e^2x - 1) / (e^2x + 1) in float, x clipped to [-8.8, 8.8]
//   Log      Ln; Log2 / Log10: Ln * (1 / ln 2) / (1 / ln 10) (Log2 of half in float)
//   Sign     1 / -1 / 0 (NaN -> 0) from two comparisons and two selects
//   Floor    Cast with CAST_FLOOR (half through float); Ceil likewise with CAST_CEIL
//   Power    e^(y ln|x|) in float, with the sign of odd integer powers of negative bases, NaN for
//            non-integer powers of negative bases, and 1 for y == 0 or x == 1; int32_t by
//            square-and-multiply, wrapping modulo 2^32, trunc(1 / x^|y|) for negative y
// The sharedTmpBuffer forms take the caller's temporary space (it must hold the documented minimum,
// GetXxxMaxMinTmpSize); the other forms take the UB above the TPipe's buffers, as the device does.
// Signatures: include/adv_api/{activation/sigmoid.h, math/tanh.h, math/log.h, math/sign.h,
// math/floor.h, math/ceil.h, math/power.h}.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/aicore/compare_select.h"
#include "ascsim/aicore/internal.h"

namespace AscendC {
namespace detail {

// Runs `piece(offset, n)` over calCount in pieces of `split` elements (the last one shorter).
template <class F>
void ForEachPiece(const char* api, uint32_t calCount, uint32_t split, F&& piece) {
  if (split == 0) {
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kInvalidArgument,
        ascsim::aicore::Str(api, ": sharedTmpBuffer leaves no room for one piece"));
  }
  for (uint32_t off = 0; off < calCount; off += split) {
    piece(off, calCount - off < split ? calCount - off : split);
  }
}

// The documented minimum and the operand checks shared by the element-wise APIs.
template <class T>
void AdvPrologue(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                 const LocalTensor<uint8_t>& tmp, uint32_t calCount, uint64_t min_tmp_bytes) {
  namespace ai = ascsim::aicore;
  ai::CheckCalCount(api, calCount, src.GetSize(), dst.GetSize());
  ai::TensorAccess::CheckLive(tmp, api, "sharedTmpBuffer");
  const uint64_t have = uint64_t{tmp.GetSize()};
  if (have < min_tmp_bytes)
    ai::FaultTmpTooSmall(api, have, min_tmp_bytes, "the API needs at least");
  ai::CheckTmp(api, tmp, 0);
  ai::CheckTmpDisjoint(api, tmp, "src", src, calCount);
  ai::CheckTmpDisjoint(api, tmp, "dst", dst, calCount);
}

// Counter-mode compare of n elements against a scalar into a bit mask (CompareScalar with the mask
// register holding n).
template <class T>
void CompareScalarN(const LocalTensor<uint8_t>& mask, const LocalTensor<T>& src, T scalar,
                    CMPMODE mode, uint32_t n) {
  SetMaskCount();
  SetVectorMask<T, MaskMode::COUNTER>(0, n);
  CompareScalar<T, uint8_t, false>(mask, src, scalar, mode, MASK_PLACEHOLDER, 1,
                                   UnaryRepeatParams());
  SetMaskNorm();
  ResetMask();
}

// Bytes of a bit mask for n elements, whole 32 B blocks of whole repeats.
template <class T>
constexpr uint32_t MaskBytes(uint32_t n) {
  const uint32_t per_repeat = ONE_REPEAT_BYTE_SIZE / sizeof(T);
  const uint32_t bits = (n + per_repeat - 1) / per_repeat * per_repeat;
  return (bits / 8 + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
}

}  // namespace detail

// ============================================================================================
// Sigmoid
template <class T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Sigmoid takes half or float");
  constexpr const char* api = "Sigmoid";
  detail::AdvPrologue(api, dstTensor, srcTensor, sharedTmpBuffer, calCount, 256);
  const uint32_t split = sharedTmpBuffer.GetSize() / sizeof(T);
  const LocalTensor<T> ones = sharedTmpBuffer.ReinterpretCast<T>();
  detail::ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
    const LocalTensor<T> d = dstTensor[off];
    Muls(d, srcTensor[off], T(-1.0f), n);
    Exp(d, d, n);
    Adds(d, d, T(1.0f), n);
    Duplicate(ones, T(1.0f), n);
    Div(d, ones, d, n);
  });
}
template <class T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const uint32_t calCount) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Sigmoid"), calCount);
}
template <class T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

// ===============================================================================================
// Tanh
namespace detail {
// y = (e^2x - 1) / (e^2x + 1) on floats; `clip` is a float piece of the temporary buffer.
inline void TanhFormula(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                        const LocalTensor<float>& clip, uint32_t n) {
  Mins(clip, src, 8.8f, n);
  Maxs(clip, clip, -8.8f, n);
  Muls(clip, clip, 2.0f, n);
  Exp(clip, clip, n);
  Adds(dst, clip, -1.0f, n);
  Adds(clip, clip, 1.0f, n);
  Div(dst, dst, clip, n);
}
}  // namespace detail

template <class T, bool isReuseSource = false>
void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Tanh takes half or float");
  constexpr const char* api = "Tanh";
  constexpr uint32_t procs = sizeof(T) == 2 ? 2 : 1;  // float pieces: [converted x,] clipped x
  detail::AdvPrologue(api, dstTensor, srcTensor, sharedTmpBuffer, calCount,
                      256 * (procs == 2 ? 4 : 1));
  const uint32_t floats = sharedTmpBuffer.GetSize() / sizeof(float);
  const uint32_t split = floats / procs / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
  detail::ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
    if constexpr (sizeof(T) == 2) {
      const LocalTensor<float> conv = tmp, clip = tmp[split];
      Cast(conv, srcTensor[off], RoundMode::CAST_NONE, n);
      detail::TanhFormula(conv, conv, clip, n);
      Cast(dstTensor[off], conv, RoundMode::CAST_NONE, n);
    } else {
      detail::TanhFormula(dstTensor[off], srcTensor[off], tmp, n);
    }
  });
}
template <class T, bool isReuseSource = false>
void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount) {
  Tanh<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Tanh"), calCount);
}
template <class T, bool isReuseSource = false>
void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Tanh<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Tanh<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

// ================================================================================== Log, Log2,
// Log10
template <class T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Log takes half or float");
  ascsim::aicore::CheckCalCount("Log", calCount, srcTensor.GetSize(), dstTensor.GetSize());
  Ln(dstTensor, srcTensor, calCount);
}
template <class T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

namespace detail {
constexpr float kLn2Reciprocal = 1.4426950408889634f;
constexpr float kLn10Reciprocal = 0.43429448190325176f;
}  // namespace detail

// Log2 of half goes through float in the temporary buffer; float needs none.
template <class T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Log2 takes half or float");
  constexpr const char* api = "Log2";
  if constexpr (sizeof(T) == 4) {
    ascsim::aicore::CheckCalCount(api, calCount, srcTensor.GetSize(), dstTensor.GetSize());
    Ln(dstTensor, srcTensor, calCount);
    Muls(dstTensor, dstTensor, detail::kLn2Reciprocal, calCount);
  } else {
    detail::AdvPrologue(api, dstTensor, srcTensor, sharedTmpBuffer, calCount, 256);
    const uint32_t split = sharedTmpBuffer.GetSize() / sizeof(float) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const LocalTensor<float> f = sharedTmpBuffer.ReinterpretCast<float>();
    detail::ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
      Cast(f, srcTensor[off], RoundMode::CAST_NONE, n);
      Ln(f, f, n);
      Muls(f, f, detail::kLn2Reciprocal, n);
      Cast(dstTensor[off], f, RoundMode::CAST_NONE, n);
    });
  }
}
template <class T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Log2<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
  if constexpr (sizeof(T) == 4) {
    Log2<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), calCount);
  } else {
    Log2<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Log2"), calCount);
  }
}
template <class T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Log2<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Log10 takes half or float");
  ascsim::aicore::CheckCalCount("Log10", calCount, srcTensor.GetSize(), dstTensor.GetSize());
  Ln(dstTensor, srcTensor, calCount);
  Muls(dstTensor, dstTensor, T(detail::kLn10Reciprocal), calCount);
}
template <class T, bool isReuseSource = false>
void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Log10<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

// ===============================================================================================
// Sign Temporary layout per piece (3 procedures of T): x < 0 mask, x > 0 mask, ones / minus ones,
// and the positive part.
template <class T, bool isReuseSource = false>
void Sign(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Sign takes half or float");
  constexpr const char* api = "Sign";
  detail::AdvPrologue(api, dstTensor, srcTensor, sharedTmpBuffer, calCount, 3 * 256);
  const uint32_t split = sharedTmpBuffer.GetSize() / sizeof(T) / 3 / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const uint32_t mask_bytes = detail::MaskBytes<T>(split);
  const LocalTensor<uint8_t> neg = sharedTmpBuffer, pos = sharedTmpBuffer[mask_bytes];
  const LocalTensor<T> unit = sharedTmpBuffer[2 * mask_bytes].ReinterpretCast<T>();
  const LocalTensor<T> posPart = unit[split];
  detail::ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
    const LocalTensor<T> s = srcTensor[off], d = dstTensor[off];
    detail::CompareScalarN<T>(neg, s, T(0.0f), CMPMODE::LT, n);
    detail::CompareScalarN<T>(pos, s, T(0.0f), CMPMODE::GT, n);
    Duplicate(unit, T(1.0f), n);
    Select(posPart, pos, unit, T(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
    Duplicate(unit, T(-1.0f), n);
    Select(d, neg, unit, T(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
    Add(d, posPart, d, n);
  });
}
template <class T, bool isReuseSource = false>
void Sign(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Sign<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Sign(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount) {
  Sign<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Sign"), calCount);
}
template <class T, bool isReuseSource = false>
void Sign(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Sign<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

// ======================================================================================= Floor,
// Ceil
namespace detail {
template <class T>
void RoundToIntegral(const char* api, RoundMode mode, const LocalTensor<T>& dst,
                     const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                     uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Floor/Ceil take half or float");
  if constexpr (sizeof(T) == 4) {
    ascsim::aicore::CheckCalCount(api, calCount, src.GetSize(), dst.GetSize());
    Cast(dst, src, mode, calCount);
  } else {
    const LocalTensor<uint8_t> t = tmp ? *tmp : AdvStack(api);
    AdvPrologue(api, dst, src, t, calCount, 2 * 256);
    const uint32_t split = t.GetSize() / sizeof(float) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const LocalTensor<float> f = t.ReinterpretCast<float>();
    ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
      Cast(f, src[off], RoundMode::CAST_NONE, n);
      Cast(f, f, mode, n);
      Cast(dst[off], f, RoundMode::CAST_NONE, n);
    });
  }
}
}  // namespace detail

template <class T, bool isReuseSource = false>
void Floor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::RoundToIntegral<T>("Floor", RoundMode::CAST_FLOOR, dstTensor, srcTensor, &sharedTmpBuffer,
                             calCount);
}
template <class T, bool isReuseSource = false>
void Floor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const uint32_t calCount) {
  detail::RoundToIntegral<T>("Floor", RoundMode::CAST_FLOOR, dstTensor, srcTensor, nullptr,
                             calCount);
}
template <class T, bool isReuseSource = false>
void Ceil(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::RoundToIntegral<T>("Ceil", RoundMode::CAST_CEIL, dstTensor, srcTensor, &sharedTmpBuffer,
                             calCount);
}
template <class T, bool isReuseSource = false>
void Ceil(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount) {
  detail::RoundToIntegral<T>("Ceil", RoundMode::CAST_CEIL, dstTensor, srcTensor, nullptr, calCount);
}

// ==============================================================================================
// Power
namespace detail {

// Power's temporary buffer per piece of `split` elements: five float pieces (x and y as floats,
// the result, two scratch) and three bit masks.
inline uint64_t PowerTmpBytes(uint32_t split) {
  return 5ull * split * sizeof(float) + 3ull * MaskBytes<float>(split);
}
inline uint32_t PowerSplit(uint64_t tmp_bytes) {
  // 20 B of floats and 3 bits of masks per element, in pieces of whole 64-element repeats.
  uint32_t split = static_cast<uint32_t>(tmp_bytes * 8 / (5 * 32 + 3) / 64 * 64);
  while (split != 0 && PowerTmpBytes(split) > tmp_bytes) split -= 64;
  return split;
}

struct PowerTmp {
  LocalTensor<float> x, y, r, t1, t2;
  LocalTensor<uint8_t> m1, m2, m3;
};
inline PowerTmp SplitPowerTmp(const LocalTensor<uint8_t>& tmp, uint32_t split) {
  PowerTmp p;
  const LocalTensor<float> f = tmp.ReinterpretCast<float>();
  p.x = f;
  p.y = f[split];
  p.r = f[2 * split];
  p.t1 = f[3 * split];
  p.t2 = f[4 * split];
  const uint32_t mb = MaskBytes<float>(split);
  const LocalTensor<uint8_t> m = tmp[5 * split * sizeof(float)];
  p.m1 = m;
  p.m2 = m[mb];
  p.m3 = m[2 * mb];
  return p;
}

// out = x^y over n floats (power_float_impl.h): e^(y ln|x|) times the sign a negative base gives an
// odd integral y, NaN for a negative base and a non-integral y, 1 where y == 0 or x == 1. Every
// read of x and y comes before `out` is written, so out may be x or y.
inline void PowerFloat(const LocalTensor<float>& out, const LocalTensor<float>& x,
                       const LocalTensor<float>& y, const PowerTmp& p, uint32_t n) {
  CompareScalarN<float>(p.m1, x, 0.0f, CMPMODE::LT, n);  // negative base
  CompareScalarN<float>(p.m2, y, 0.0f, CMPMODE::NE, n);
  CompareScalarN<float>(p.m3, x, 1.0f, CMPMODE::NE, n);
  const uint32_t words = (MaskBytes<float>(n) / sizeof(uint16_t));
  And(p.m2.ReinterpretCast<uint16_t>(), p.m2.ReinterpretCast<uint16_t>(),
      p.m3.ReinterpretCast<uint16_t>(), words);  // neither y == 0 nor x == 1
  // t1 = +-1 from the parity of an integral |y|; t2 = |y| - rint|y|.
  Abs(p.r, y, n);
  Cast(p.t1, p.r, RoundMode::CAST_RINT, n);
  Sub(p.t2, p.r, p.t1, n);
  Muls(p.r, p.t1, 0.5f, n);
  Cast(p.r, p.r, RoundMode::CAST_FLOOR, n);
  Muls(p.r, p.r, 2.0f, n);
  Sub(p.t1, p.t1, p.r, n);
  Muls(p.t1, p.t1, -2.0f, n);
  Adds(p.t1, p.t1, 1.0f, n);
  CompareScalarN<float>(p.m3, p.t2, 0.0f, CMPMODE::EQ, n);  // y integral
  Select(p.t1, p.m3, p.t1, ascsim::BitsToFloat(0x7FC00000u), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
  Select(p.t1, p.m1, p.t1, 1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
  Abs(p.r, x, n);
  Ln(p.r, p.r, n);
  Mul(p.r, y, p.r, n);
  Exp(p.r, p.r, n);
  Mul(p.r, p.r, p.t1, n);
  Select(out, p.m2, p.r, 1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
}

// out = x^y over n int32_t (power_int_impl.h, CommonPowerI): |y| by square-and-multiply with the
// products wrapping modulo 2^32 (the int32 Mul), the exponent's bits taken with ShiftRight, and
// the factor kept or dropped by a Select on the float view of the bits (as CANN's
// VselPowerTensorTensor); x^0 = 1. A negative y gives trunc(1 / x^|y|) in float (1, -1 or 0),
// and 0 where x^|y| is 0. CANN stops squaring once every exponent is spent; ascsim runs the 31
// rounds a non-negative int32 exponent can need (the same products, more instructions). Every
// read of x and y comes before `out` is written.
inline void PowerInt(const LocalTensor<int32_t>& out, const LocalTensor<int32_t>* x, int32_t xs,
                     const LocalTensor<int32_t>* y, int32_t ys, const PowerTmp& p, uint32_t n) {
  const LocalTensor<int32_t> e = p.x.ReinterpretCast<int32_t>();   // the exponent left
  const LocalTensor<int32_t> b = p.y.ReinterpretCast<int32_t>();   // x^(2^k)
  const LocalTensor<int32_t> r = p.r.ReinterpretCast<int32_t>();   // the product so far
  const LocalTensor<int32_t> t1 = p.t1.ReinterpretCast<int32_t>();
  const LocalTensor<int32_t> t2 = p.t2.ReinterpretCast<int32_t>();
  constexpr SELMODE kTT = SELMODE::VSEL_TENSOR_TENSOR_MODE;
  LocalTensor<int32_t> yt = t2;  // a scalar exponent as a tensor, read only below
  if (y) {
    yt = *y;
  } else {
    Duplicate(t2, ys, n);
  }
  Cast(p.t1, yt, RoundMode::CAST_NONE, n);
  CompareScalarN<float>(p.m1, p.t1, 0.0f, CMPMODE::LT, n);  // negative exponent
  Muls(t1, yt, int32_t{-1}, n);
  Select(p.x, p.m1, p.t1, yt.ReinterpretCast<float>(), kTT, n);  // e = |y|
  if (x) {
    Adds(b, *x, int32_t{0}, n);
  } else {
    Duplicate(b, xs, n);
  }
  Duplicate(r, int32_t{1}, n);
  for (int bit = 0; bit < 31; ++bit) {
    ShiftRight(t1, e, int32_t{1}, n);
    Muls(t2, t1, int32_t{2}, n);
    Sub(t2, e, t2, n);  // the low bit of e
    Cast(p.t2, t2, RoundMode::CAST_NONE, n);
    CompareScalarN<float>(p.m2, p.t2, 1.0f, CMPMODE::EQ, n);
    Mul(t2, r, b, n);
    Select(p.r, p.m2, p.t2, p.r, kTT, n);
    Mul(b, b, b, n);
    Adds(e, t1, int32_t{0}, n);
  }
  // Negative exponents: trunc(1 / r), 0 where r is 0.
  Cast(p.t1, r, RoundMode::CAST_NONE, n);
  CompareScalarN<float>(p.m2, p.t1, 0.0f, CMPMODE::EQ, n);
  Duplicate(p.t2, 1.0f, n);
  Select(p.t1, p.m2, p.t2, p.t1, kTT, n);  // 1 / 1 where r is 0, cleared below
  Div(p.t1, p.t2, p.t1, n);
  Cast(t1, p.t1, RoundMode::CAST_TRUNC, n);
  Duplicate(t2, int32_t{0}, n);
  Select(p.t1, p.m2, p.t2, p.t1, kTT, n);
  Select(out.ReinterpretCast<float>(), p.m1, p.t1, p.r, kTT, n);
}

template <class T>
void PowerIntRun(const LocalTensor<T>& dst, const LocalTensor<T>* x, T xs, const LocalTensor<T>* y,
                 T ys, const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
  constexpr const char* api = "Power";
  namespace ai = ascsim::aicore;
  const LocalTensor<T>& any = x ? *x : *y;
  AdvPrologue(api, dst, any, tmp, calCount, PowerTmpBytes(64));
  if (x && y) ai::CheckCalCount(api, calCount, y->GetSize(), dst.GetSize());
  const uint32_t split = PowerSplit(tmp.GetSize());
  ai::CheckTmp(api, tmp, PowerTmpBytes(split));
  const PowerTmp p = SplitPowerTmp(tmp, split);
  ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
    LocalTensor<int32_t> xi, yi;
    if (x) xi = (*x)[off];
    if (y) yi = (*y)[off];
    PowerInt(dst[off], x ? &xi : nullptr, xs, y ? &yi : nullptr, ys, p, n);
  });
}

// One Power call: x and y are tensors or (null) the scalars xs / ys.
template <class T>
void PowerRun(const LocalTensor<T>& dst, const LocalTensor<T>* x, T xs, const LocalTensor<T>* y,
              T ys, const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
  if constexpr (std::is_same_v<T, int32_t>) {
    PowerIntRun(dst, x, xs, y, ys, tmp, calCount);
    return;
  } else {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Power takes half, float or int32_t");
  constexpr const char* api = "Power";
  namespace ai = ascsim::aicore;
  const LocalTensor<T>& any = x ? *x : *y;
  AdvPrologue(api, dst, any, tmp, calCount, PowerTmpBytes(64));
  if (x && y) ai::CheckCalCount(api, calCount, y->GetSize(), dst.GetSize());
  const uint32_t split = PowerSplit(tmp.GetSize());
  ai::CheckTmp(api, tmp, PowerTmpBytes(split));
  const PowerTmp p = SplitPowerTmp(tmp, split);
  ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
    LocalTensor<float> xf = p.x, yf = p.y;
    if constexpr (sizeof(T) == 2) {
      if (x) Cast(xf, (*x)[off], RoundMode::CAST_NONE, n);
      if (y) Cast(yf, (*y)[off], RoundMode::CAST_NONE, n);
    } else {
      if (x) xf = (*x)[off];
      if (y) yf = (*y)[off];
    }
    if (!x) Duplicate(xf, float(xs), n);
    if (!y) Duplicate(yf, float(ys), n);
    if constexpr (sizeof(T) == 2) {
      PowerFloat(p.r, xf, yf, p, n);
      Cast(dst[off], p.r, RoundMode::CAST_NONE, n);
    } else {
      PowerFloat(dst[off], xf, yf, p, n);
    }
  });
  }
}

}  // namespace detail

template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
           uint32_t calCount) {
  detail::PowerRun<T>(dstTensor, &src0Tensor, T(0.0f), &src1Tensor, T(0.0f), sharedTmpBuffer,
                      calCount);
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor, uint32_t calCount) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, detail::AdvStack("Power"), calCount);
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
  detail::PowerRun<T>(dstTensor, &src0Tensor, T(0.0f), nullptr, src1Scalar, sharedTmpBuffer,
                      calCount);
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           uint32_t calCount) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, detail::AdvStack("Power"), calCount);
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer, src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
  detail::PowerRun<T>(dstTensor, nullptr, src0Scalar, &src1Tensor, T(0.0f), sharedTmpBuffer,
                      calCount);
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           uint32_t calCount) {
  Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, detail::AdvStack("Power"), calCount);
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer, src1Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor) {
  Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, src1Tensor.GetSize());
}

}  // namespace AscendC
