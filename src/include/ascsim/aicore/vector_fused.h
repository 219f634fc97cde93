// The fused multiply-adds (docs 基础API/.../复合计算): Axpy, dst += src * scalar (count form with
// a float dst and half src too, and the mask/repeat form), and MulAddDst: dst = src0 * src1 + dst (asc-devkit
// include/basic_api/kernel_operator_vec_binary_intf.h), count form (dst float with half sources
// too) and mask/repeat form (same element type), computed in float and rounded once to the dst type
// (simd/fused_math.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/simd/masked_math.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/simd/fused_math.h"
#include "ascsim/aicore/vector_masked.h"

namespace ascsim::aicore {

// `fused`: FusedMulAdd (dst = src0 * dst + src1) instead of MulAddDst (dst = src0 * src1 + dst).
template <class T, class U, bool fused = false>
void MulAddDstCount(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src0,
                    const AscendC::LocalTensor<U>& src1, int64_t count) {
  static_assert((std::is_same_v<T, U> && (std::is_same_v<T, half> || std::is_same_v<T, float>)) ||
                    (std::is_same_v<T, float> && std::is_same_v<U, half>),
                "MulAddDst takes half/half, float/float or a float dst with half sources");
  constexpr const char* name = fused ? "FusedMulAdd" : "MulAddDst";
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint64_t n = CheckCount(name, count);
  T* d = CheckUbOperand(name, "dst", dst, n);
  const U* a = CheckUbOperand(name, "src0", src0, n);
  const U* b = CheckUbOperand(name, "src1", src1, n);
  CheckOverlap(name, "dst", d, n * sizeof(T), "src0", a, n * sizeof(U));
  CheckOverlap(name, "dst", d, n * sizeof(T), "src1", b, n * sizeof(U));
  if constexpr (fused)
    simd::FusedMulAdd(simd::DTypeOf<T>(), d, a, b, n);
  else
    simd::MulAddDst(simd::DTypeOf<T>(), simd::DTypeOf<U>(), d, a, b, n);
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kSimple, sizeof(T), n, BufferId(dst),
                      BufferId(src0), BufferId(src1));
  });
}

template <class T, bool fused = false>
void MulAddDstMasked(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                     const AscendC::LocalTensor<T>& src1, const MaskArg& mask, bool is_set_mask,
                     int64_t repeat_time, const AscendC::BinaryRepeatParams& p) {
  constexpr const char* name = fused ? "FusedMulAdd" : "MulAddDst";
  const simd::DType dt = simd::DTypeOf<T>();
  MaskedBinaryWalk<T>(name, trace::VectorClass::kSimple, dst, src0, src1, mask, is_set_mask,
                      repeat_time, p,
                      [&](uint8_t* d, const uint8_t* a, const uint8_t* b, uint32_t len) {
                        if constexpr (fused)
                          simd::FusedMulAdd(dt, d, a, b, len);
                        else
                          simd::MulAddDst(dt, dt, d, a, b, len);
                      });
}

template <class T, class U>
void AxpyCount(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src, U scalar,
               int64_t count) {
  static_assert(std::is_same_v<T, U> || (std::is_same_v<T, float> && std::is_same_v<U, half>),
                "Axpy takes half/half, float/float or float dst with half src");
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint64_t n = CheckCount("Axpy", count);
  T* d = CheckUbOperand("Axpy", "dst", dst, n, {trace::Pipe::kV, nullptr, Access::kReadWrite});
  const U* s = CheckUbOperand("Axpy", "src", src, n);
  CheckOverlapExact("Axpy", "dst", d, n * sizeof(T), "src", s, n * sizeof(U));
  simd::AxpyRun(simd::DTypeOf<T>(), simd::DTypeOf<U>(), d, s, float(scalar), n);
  Record(core, [&] {
    return VectorCall("Axpy", trace::VectorClass::kSimple, sizeof(T), n, BufferId(dst),
                      BufferId(src), BufferId(dst));
  });
}

}  // namespace ascsim::aicore

namespace AscendC {

template <class T, class U>
void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
               const int32_t& count) {
  ascsim::aicore::MulAddDstCount<T, U>(dst, src0, src1, count);
}
template <class T, class U, bool isSetMask = true>
void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
               const uint64_t mask[], const uint8_t repeatTime,
               const BinaryRepeatParams& repeatParams) {
  static_assert(std::is_same_v<T, U>,
                "ascsim: the mask/repeat MulAddDst is simulated for dst type == src type");
  ascsim::aicore::MulAddDstMasked<T>(dst, src0, src1, ascsim::aicore::BitMask(mask), isSetMask,
                                     repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
               uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
  static_assert(std::is_same_v<T, U>,
                "ascsim: the mask/repeat MulAddDst is simulated for dst type == src type");
  ascsim::aicore::MulAddDstMasked<T>(dst, src0, src1, ascsim::aicore::ContinuousMask(mask),
                                     isSetMask, repeatTime, repeatParams);
}

// FusedMulAdd: dst = src0 * dst + src1 (kernel_operator_vec_binary_intf.h), same element type.
template <class T>
void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                 const int32_t& count) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "FusedMulAdd takes half or float");
  ascsim::aicore::MulAddDstCount<T, T, true>(dst, src0, src1, count);
}
template <class T, bool isSetMask = true>
void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                 uint64_t mask[], const uint8_t repeatTime,
                 const BinaryRepeatParams& repeatParams) {
  ascsim::aicore::MulAddDstMasked<T, true>(dst, src0, src1, ascsim::aicore::BitMask(mask),
                                           isSetMask, repeatTime, repeatParams);
}
template <class T, bool isSetMask = true>
void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                 uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
  ascsim::aicore::MulAddDstMasked<T, true>(dst, src0, src1, ascsim::aicore::ContinuousMask(mask),
                                           isSetMask, repeatTime, repeatParams);
}

// --- Axpy ---
template <class T, class U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const NonDeduced<U> scalarValue,
          const int32_t count) {
  ascsim::aicore::AxpyCount<T, U>(dst, src, scalarValue, count);
}
namespace detail {
template <class T>
void AxpyMasked(const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalar, bool is_set_mask,
                const ascsim::aicore::MaskArg& mask, uint8_t repeatTime,
                const UnaryRepeatParams& p) {
  const ascsim::simd::DType dt = ascsim::simd::DTypeOf<T>();
  const float s = float(scalar);
  ascsim::aicore::MaskedUnaryWalk<T>("Axpy", ascsim::trace::VectorClass::kSimple, dst, src, mask,
                                     is_set_mask, repeatTime, p,
                                     [&](uint8_t* d, const uint8_t* x, uint32_t len) {
                                       ascsim::simd::AxpyRun(dt, dt, d, x, s, len);
                                     });
}
}  // namespace detail
// Mask/repeat form: same element type for dst and src.
template <class T, class U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const NonDeduced<U> scalarValue,
          uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
  static_assert(std::is_same_v<T, U>,
                "ascsim: mask/repeat Axpy is simulated for dst type == src type");
  detail::AxpyMasked<T>(dst, src, scalarValue, isSetMask, ascsim::aicore::ContinuousMask(mask),
                        repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const NonDeduced<U> scalarValue,
          const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
  static_assert(std::is_same_v<T, U>,
                "ascsim: mask/repeat Axpy is simulated for dst type == src type");
  detail::AxpyMasked<T>(dst, src, scalarValue, isSetMask, ascsim::aicore::BitMask(mask), repeatTime,
                        repeatParams);
}

}  // namespace AscendC
