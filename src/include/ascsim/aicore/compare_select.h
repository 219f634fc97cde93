// Compare / CompareScalar (element-wise comparison into a bit mask: bit i of the uint8_t dst is
// element i), Select (pick src0 where the bit is 1, src1 where it is 0) and the CMPMASK register
// (GetCmpMask / SetCmpMask, Compare without dst, Select with VSEL_CMPMASK_SPR).
//
// Bit masks are packed: repeat r of a mask/repeat call owns bits [r * n, (r + 1) * n) with
// n = 256 B / sizeof(T) elements per repeat; Compare writes every bit of each repeat it runs
// (elements the mask disables read as 0). Select VSEL_CMPMASK_SPR reuses the first n bits of
// selMask (or the CMPMASK register) for every repeat; the tensor-scalar and tensor-tensor modes
// walk selMask on across repeats.
#pragma once

#include <cstdint>
#include <cstring>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/simd/masked_math.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/vector_masked.h"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t {
  VSEL_CMPMASK_SPR = 0,
  VSEL_TENSOR_SCALAR_MODE,
  VSEL_TENSOR_TENSOR_MODE,
};

}  // namespace AscendC

namespace ascsim::aicore {

inline simd::CmpOp ToCmpOp(AscendC::CMPMODE mode) { return static_cast<simd::CmpOp>(mode); }

inline const char* SelModeName(AscendC::SELMODE mode) {
  switch (mode) {
    case AscendC::SELMODE::VSEL_CMPMASK_SPR:
      return "VSEL_CMPMASK_SPR";
    case AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE:
      return "VSEL_TENSOR_SCALAR_MODE";
    case AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE:
      return "VSEL_TENSOR_TENSOR_MODE";
  }
  return "?";
}

// The plan of a count-form call: the first `count` elements, contiguous.
template <class T>
simd::RepeatPlan CountPlan(uint64_t count) {
  simd::RepeatPlan plan;
  plan.per_repeat = PerRepeat<T>();
  plan.per_block = kBlockBytes / sizeof(T);
  const uint64_t repeats = (count + plan.per_repeat - 1) / plan.per_repeat;
  plan.repeats = static_cast<uint32_t>(repeats);
  plan.body = simd::FirstElements(plan.per_repeat);
  plan.last = simd::FirstElements(
      static_cast<uint32_t>(count - (repeats == 0 ? 0 : (repeats - 1) * plan.per_repeat)));
  return plan;
}

// A packed bit-mask operand of `bits` bits: live, 32 B aligned, large enough.
template <class U>
uint8_t* CheckBitOperand(const char* call, const char* role, const AscendC::LocalTensor<U>& t,
                         uint64_t bits) {
  ascsim::aicore::TensorAccess::CheckLive(t, call, role);
  const uint64_t bytes = (bits + 7) / 8;
  const uint64_t have = static_cast<uint64_t>(t.GetSize()) * sizeof(U);
  if (bytes > have) {
    Fault(ErrorKind::kOutOfBounds, Str(call, ": ", role, " needs ", bytes, " B of mask bits (",
                                       bits, " elements) but its LocalTensor holds ", have, " B"));
  }
  uint8_t* p = reinterpret_cast<uint8_t*>(CheckUbOperand(call, role, t, 0));
  const BufferSlot* slot = ascsim::aicore::TensorAccess::Slot(t);
  if (slot->sanitizer != nullptr) [[unlikely]] {
    SanitizeLocal(slot->sanitizer, trace::Pipe::kV, Access::kAuto, slot, p, Footprint::Bytes(bytes),
                  call, role);
  }
  return p;
}

// Compare / CompareScalar body. `b` is a tensor or (scalar_b) one element.
template <class T, class U>
void CompareWalk(const char* name, AscendC::CMPMODE mode, const AscendC::LocalTensor<U>& dst,
                 const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>* src1,
                 const T* scalar, const simd::RepeatPlan& plan, const simd::Stride& sa,
                 const simd::Stride& sb) {
  CoreContext& core = CurrentCore();
  uint64_t na, nb = 0;
  auto* a =
      reinterpret_cast<const uint8_t*>(CheckStridedOperand(name, "src0", src0, plan, sa, &na));
  const uint8_t* b = reinterpret_cast<const uint8_t*>(scalar);
  if (src1 != nullptr) {
    b = reinterpret_cast<const uint8_t*>(CheckStridedOperand(name, "src1", *src1, plan, sb, &nb));
  }
  const uint64_t out_bits = uint64_t{plan.repeats} * plan.per_repeat;
  uint8_t* d = CheckBitOperand(name, "dst", dst, out_bits);
  if (CoreSanitizer* sanitizer = TensorAccess::Slot(dst)->sanitizer) [[unlikely]] {
    SanitizeMaskBits(sanitizer, MaskBits::kCompareToBits, sizeof(T), 0);
  }
  CheckOverlap(name, "dst", d, out_bits / 8, "src0", a, na);
  if (src1 != nullptr) CheckOverlap(name, "dst", d, out_bits / 8, "src1", b, nb);
  std::memset(d, 0, out_bits / 8);
  const simd::DType dt = simd::DTypeOf<T>();
  const bool contiguous = Contiguous({sa}) && (src1 == nullptr || Contiguous({sb}));
  simd::ForEachRun(
      plan, contiguous,
      [&](uint32_t r, uint32_t e, uint32_t len) {
        simd::CompareToBits(ToCmpOp(mode), dt, a + simd::ElementOffset(plan, sa, sizeof(T), r, e),
                            src1 ? b + simd::ElementOffset(plan, sb, sizeof(T), r, e) : b,
                            src1 == nullptr, len, d, uint64_t{r} * plan.per_repeat + e);
      },
      DenseRepeats({sa}) && (src1 == nullptr || DenseRepeats({sb})));
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kSimple, sizeof(T), out_bits, BufferId(dst),
                      BufferId(src0), src1 ? BufferId(*src1) : trace::kNoBuffer);
  });
}

// The count forms need whole 256 B repeats, as the device's Compare does.
template <class T>
uint64_t CheckCompareCount(const char* name, uint32_t count) {
  if ((uint64_t{count} * sizeof(T)) % kRepeatBytes != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(name, ": count ", count, " of ", TypeName<T>(), " is ", uint64_t{count} * sizeof(T),
              " B, not a multiple of 256 B"));
  }
  return count;
}

// Select body: mode decides how selMask bits map to elements; `b` tensor or scalar.
template <class T, class U>
void SelectWalk(const char* name, AscendC::SELMODE mode, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<U>* sel, const AscendC::LocalTensor<T>& src0,
                const AscendC::LocalTensor<T>* src1, const T* scalar, const simd::RepeatPlan& plan,
                const simd::Stride& sd, const simd::Stride& sa, const simd::Stride& sb) {
  CoreContext& core = CurrentCore();
  const bool scalar_b = src1 == nullptr;
  if (scalar_b != (mode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE)) {
    Fault(ErrorKind::kInvalidArgument,
          Str(name, ": selMode ", SelModeName(mode), " does not fit a ",
              scalar_b ? "scalar" : "tensor", " src1 (VSEL_TENSOR_SCALAR_MODE takes a scalar, the ",
              "other modes a tensor)"));
  }
  const bool reuse = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR;
  if (sel == nullptr && !reuse) {
    Fault(ErrorKind::kInvalidArgument,
          Str(name, ": selMode ", SelModeName(mode), " needs a selMask tensor (only ",
              "VSEL_CMPMASK_SPR reads the CMPMASK register)"));
  }
  const uint8_t* bits = reinterpret_cast<const uint8_t*>(core.vector.cmp_mask);
  uint64_t sel_bytes = 0;
  if (sel != nullptr) {
    const uint64_t sel_bits = reuse ? plan.per_repeat : uint64_t{plan.repeats} * plan.per_repeat;
    bits = CheckBitOperand(name, "selMask", *sel, sel_bits);
    sel_bytes = (sel_bits + 7) / 8;
  }
  uint64_t nd, na, nb = 0;
  auto* d = reinterpret_cast<uint8_t*>(CheckStridedOperand(name, "dst", dst, plan, sd, &nd));
  auto* a =
      reinterpret_cast<const uint8_t*>(CheckStridedOperand(name, "src0", src0, plan, sa, &na));
  const uint8_t* b = reinterpret_cast<const uint8_t*>(scalar);
  if (!scalar_b) {
    b = reinterpret_cast<const uint8_t*>(CheckStridedOperand(name, "src1", *src1, plan, sb, &nb));
    CheckOverlap(name, "dst", d, nd, "src1", b, nb);
  }
  CheckOverlap(name, "dst", d, nd, "src0", a, na);
  if (sel != nullptr) CheckOverlap(name, "dst", d, nd, "selMask", bits, sel_bytes);
  if (CoreSanitizer* sanitizer = TensorAccess::Slot(dst)->sanitizer) [[unlikely]] {
    SanitizeMaskBits(sanitizer, MaskBits::kSelectByBits, sizeof(T), reuse ? plan.per_repeat : 0);
  }
  const simd::DType dt = simd::DTypeOf<T>();
  const bool contiguous = Contiguous({sd, sa}) && (scalar_b || Contiguous({sb}));
  simd::ForEachRun(
      plan, contiguous,
      [&](uint32_t r, uint32_t e, uint32_t len) {
        const uint64_t first_bit = reuse ? e : uint64_t{r} * plan.per_repeat + e;
        simd::SelectByBits(dt, d + simd::ElementOffset(plan, sd, sizeof(T), r, e),
                           a + simd::ElementOffset(plan, sa, sizeof(T), r, e),
                           scalar_b ? b : b + simd::ElementOffset(plan, sb, sizeof(T), r, e),
                           scalar_b, len, bits, first_bit);
      },
      !reuse && DenseRepeats({sd, sa}) && (scalar_b || DenseRepeats({sb})));
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kSimple, sizeof(T),
                      uint64_t{plan.repeats} * plan.per_repeat, BufferId(dst), BufferId(src0),
                      scalar_b ? trace::kNoBuffer : BufferId(*src1));
  });
}

inline simd::Stride Dense() { return simd::Stride{kBlockBytes, kRepeatBytes}; }

}  // namespace ascsim::aicore

namespace AscendC {

// --- Compare ---
// Count form: count * sizeof(T) must be a multiple of 256 B; dst gets count bits.
template <class T, class U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, uint32_t count) {
  namespace ai = ascsim::aicore;
  ai::EnterApiCall(ai::CurrentCore());
  const uint64_t n = ai::CheckCompareCount<T>("Compare", count);
  ai::CompareWalk<T, U>("Compare", cmpMode, dst, src0, &src1, nullptr, ai::CountPlan<T>(n),
                        ai::Dense(), ai::Dense());
}
template <class T, class U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, uint64_t mask, uint8_t repeatTime,
             const BinaryRepeatParams& repeatParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const auto plan =
      ai::ResolvePlan<T>("Compare", core, isSetMask, ai::ContinuousMask(mask), repeatTime);
  ai::CompareWalk<T, U>("Compare", cmpMode, dst, src0, &src1, nullptr, plan,
                        ai::StrideOf(repeatParams.src0BlkStride, repeatParams.src0RepStride),
                        ai::StrideOf(repeatParams.src1BlkStride, repeatParams.src1RepStride));
}
template <class T, class U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
             const BinaryRepeatParams& repeatParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const auto plan = ai::ResolvePlan<T>("Compare", core, isSetMask, ai::BitMask(mask), repeatTime);
  ai::CompareWalk<T, U>("Compare", cmpMode, dst, src0, &src1, nullptr, plan,
                        ai::StrideOf(repeatParams.src0BlkStride, repeatParams.src0RepStride),
                        ai::StrideOf(repeatParams.src1BlkStride, repeatParams.src1RepStride));
}

// One repeat into the CMPMASK register (read back with GetCmpMask, used by Select mode 0).
namespace detail {
template <class T>
void CompareIntoRegister(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                         bool is_set_mask, const ascsim::aicore::MaskArg& mask,
                         const BinaryRepeatParams& p) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const auto plan = ai::ResolvePlan<T>("Compare", core, is_set_mask, mask, 1);
  const auto sa = ai::StrideOf(p.src0BlkStride, p.src0RepStride);
  const auto sb = ai::StrideOf(p.src1BlkStride, p.src1RepStride);
  uint64_t na, nb;
  auto* a = reinterpret_cast<const uint8_t*>(
      ai::CheckStridedOperand("Compare", "src0", src0, plan, sa, &na));
  auto* b = reinterpret_cast<const uint8_t*>(
      ai::CheckStridedOperand("Compare", "src1", src1, plan, sb, &nb));
  uint8_t bits[16] = {};
  ascsim::simd::ForEachRun(plan, false, [&](uint32_t r, uint32_t e, uint32_t len) {
    ascsim::simd::CompareToBits(ai::ToCmpOp(cmpMode), ascsim::simd::DTypeOf<T>(),
                                a + ascsim::simd::ElementOffset(plan, sa, sizeof(T), r, e),
                                b + ascsim::simd::ElementOffset(plan, sb, sizeof(T), r, e), false,
                                len, bits, e);
  });
  std::memcpy(core.vector.cmp_mask, bits, sizeof(bits));
}
}  // namespace detail

template <class T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, uint64_t mask,
             const BinaryRepeatParams& repeatParams) {
  detail::CompareIntoRegister(src0, src1, cmpMode, isSetMask, ascsim::aicore::ContinuousMask(mask),
                              repeatParams);
}
template <class T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask[], const BinaryRepeatParams& repeatParams) {
  detail::CompareIntoRegister(src0, src1, cmpMode, isSetMask, ascsim::aicore::BitMask(mask),
                              repeatParams);
}

// CMPMASK <-> UB: 128 bits (16 B).
template <class T>
void GetCmpMask(const LocalTensor<T>& dst) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  std::memcpy(ai::CheckBitOperand("GetCmpMask", "dst", dst, 128), core.vector.cmp_mask, 16);
}
template <class T>
void SetCmpMask(const LocalTensor<T>& src) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  std::memcpy(core.vector.cmp_mask, ai::CheckBitOperand("SetCmpMask", "src", src, 128), 16);
}

// --- CompareScalar: src0 against one value ---
template <class T, class U>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                   const NonDeduced<T> src1Scalar, CMPMODE cmpMode, uint32_t count) {
  namespace ai = ascsim::aicore;
  ai::EnterApiCall(ai::CurrentCore());
  const uint64_t n = ai::CheckCompareCount<T>("CompareScalar", count);
  const T scalar = src1Scalar;
  ai::CompareWalk<T, U>("CompareScalar", cmpMode, dst, src0, nullptr, &scalar, ai::CountPlan<T>(n),
                        ai::Dense(), ai::Dense());
}
template <class T, class U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                   const NonDeduced<T> src1Scalar, CMPMODE cmpMode, uint64_t mask,
                   uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const auto plan =
      ai::ResolvePlan<T>("CompareScalar", core, isSetMask, ai::ContinuousMask(mask), repeatTime);
  const T scalar = src1Scalar;
  ai::CompareWalk<T, U>("CompareScalar", cmpMode, dst, src0, nullptr, &scalar, plan,
                        ai::StrideOf(repeatParams.srcBlkStride, repeatParams.srcRepStride),
                        ai::Dense());
}
template <class T, class U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                   const NonDeduced<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask[],
                   uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const auto plan =
      ai::ResolvePlan<T>("CompareScalar", core, isSetMask, ai::BitMask(mask), repeatTime);
  const T scalar = src1Scalar;
  ai::CompareWalk<T, U>("CompareScalar", cmpMode, dst, src0, nullptr, &scalar, plan,
                        ai::StrideOf(repeatParams.srcBlkStride, repeatParams.srcRepStride),
                        ai::Dense());
}

// Compares: the newer CANN name of CompareScalar, same forms.
template <class T, class U>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const NonDeduced<T> src1Scalar,
              CMPMODE cmpMode, uint32_t count) {
  CompareScalar<T, U>(dst, src0, src1Scalar, cmpMode, count);
}
template <class T, class U, bool isSetMask = true>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const NonDeduced<T> src1Scalar,
              CMPMODE cmpMode, uint64_t mask, uint8_t repeatTime,
              const UnaryRepeatParams& repeatParams) {
  CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const NonDeduced<T> src1Scalar,
              CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
              const UnaryRepeatParams& repeatParams) {
  CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams);
}

// --- Select ---
template <class T, class U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
  namespace ai = ascsim::aicore;
  ai::EnterApiCall(ai::CurrentCore());
  ai::SelectWalk<T, U>("Select", selMode, dst, &selMask, src0, &src1, nullptr,
                       ai::CountPlan<T>(count), ai::Dense(), ai::Dense(), ai::Dense());
}
template <class T, class U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            NonDeduced<T> src1, SELMODE selMode, uint32_t count) {
  namespace ai = ascsim::aicore;
  ai::EnterApiCall(ai::CurrentCore());
  const T scalar = src1;
  ai::SelectWalk<T, U>("Select", selMode, dst, &selMask, src0, nullptr, &scalar,
                       ai::CountPlan<T>(count), ai::Dense(), ai::Dense(), ai::Dense());
}

namespace detail {
template <class T, class U>
void SelectMasked(const LocalTensor<T>& dst, const LocalTensor<U>* selMask,
                  const LocalTensor<T>& src0, const LocalTensor<T>* src1, const T* scalar,
                  SELMODE selMode, bool is_set_mask, const ascsim::aicore::MaskArg& mask,
                  int64_t repeatTime, const BinaryRepeatParams& p) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const auto plan = ai::ResolvePlan<T>("Select", core, is_set_mask, mask, repeatTime);
  ai::SelectWalk<T, U>("Select", selMode, dst, selMask, src0, src1, scalar, plan,
                       ai::StrideOf(p.dstBlkStride, p.dstRepStride),
                       ai::StrideOf(p.src0BlkStride, p.src0RepStride),
                       ai::StrideOf(p.src1BlkStride, p.src1RepStride));
}
}  // namespace detail

template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
  detail::SelectMasked<T, U>(dst, &selMask, src0, &src1, nullptr, selMode, isSetMask,
                             ascsim::aicore::ContinuousMask(mask), repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
  detail::SelectMasked<T, U>(dst, &selMask, src0, &src1, nullptr, selMode, isSetMask,
                             ascsim::aicore::BitMask(mask), repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            NonDeduced<T> src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
  const T scalar = src1;
  detail::SelectMasked<T, U>(dst, &selMask, src0, nullptr, &scalar, selMode, isSetMask,
                             ascsim::aicore::ContinuousMask(mask), repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            NonDeduced<T> src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
  const T scalar = src1;
  detail::SelectMasked<T, U>(dst, &selMask, src0, nullptr, &scalar, selMode, isSetMask,
                             ascsim::aicore::BitMask(mask), repeatTime, repeatParams);
}
// VSEL_CMPMASK_SPR from the CMPMASK register, with the mask register as SetVectorMask left it.
template <class T, SELMODE selMode>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
  detail::SelectMasked<T, uint8_t>(dst, nullptr, src0, &src1, nullptr, selMode, false,
                                   ascsim::aicore::MaskArg{}, repeatTime, repeatParams);
}

}  // namespace AscendC
