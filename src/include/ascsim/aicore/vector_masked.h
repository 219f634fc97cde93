// Vector instructions, mask/repeat ("level 0") form: `Add(dst, src0, src1, mask, repeatTime,
// BinaryRepeatParams)` and the mask register behind it (SetMaskNorm / SetMaskCount /
// SetVectorMask / ResetMask).
//
// Normal mode: `repeatTime` repeats of 256 B; `mask` picks the elements of each repeat, either
// the first `mask` elements (continuous) or bit i of mask[i / 64] for element i (bitwise; for
// 32-bit types only mask[0] counts and mask[1] must be 0). Counter mode: the mask is the number
// of elements across repeats and repeatTime is ignored. With isSetMask = true the call writes its
// mask into the core's mask register (as the device does; in counter mode a continuous mask, or
// mask[0], is taken as the element count), with false it uses the register as SetVectorMask left
// it. Checks per call (O(1)): mask range, repeatTime, the highest byte each operand reaches from
// repeats, strides and mask, 32 B alignment, partial src/dst overlap (judged on the spans from
// each start to its highest byte, so interleaved strided operands whose spans cross are
// reported too; the same start is allowed).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/simd/masked_math.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/vector_ops.h"

namespace AscendC {

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

constexpr uint64_t MASK_PLACEHOLDER = 0;
inline constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};
constexpr uint64_t FULL_MASK = ~0ull;

// Strides of a two-source instruction: block strides between the 8 blocks of a repeat and repeat
// strides between repeat starts, both in 32 B blocks.
struct BinaryRepeatParams {
  BinaryRepeatParams() = default;
  BinaryRepeatParams(uint8_t dstBlkStrideIn, uint8_t src0BlkStrideIn, uint8_t src1BlkStrideIn,
                     uint8_t dstRepStrideIn, uint8_t src0RepStrideIn, uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        src0BlkStride(src0BlkStrideIn),
        src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn),
        src0RepStride(src0RepStrideIn),
        src1RepStride(src1RepStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint8_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct UnaryRepeatParams {
  UnaryRepeatParams() = default;
  UnaryRepeatParams(uint16_t dstBlkStrideIn, uint16_t srcBlkStrideIn, uint8_t dstRepStrideIn,
                    uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstBlkStride = 1;
  uint16_t srcBlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t srcRepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
  bool halfBlock = false;
};

}  // namespace AscendC

namespace ascsim::aicore {

// A mask argument as the call passed it. `array` is a call's `const uint64_t mask[]`: its length
// depends on the element type (asc-devkit docs, 逐bit模式: two words for 16-bit operands, one
// word for 32-bit ones, so `uint64_t mask[1] = {...}` is the documented 32-bit form), so mask[1]
// is read only once the type is known (WriteMaskRegister).
struct MaskArg {
  bool bitwise = false;
  uint64_t len = 0;
  uint64_t bits[2] = {0, 0};
  const uint64_t* array = nullptr;
};
inline MaskArg ContinuousMask(uint64_t len) {
  MaskArg m;
  m.len = len;
  return m;
}
inline MaskArg BitMask(const uint64_t mask[]) {
  MaskArg m;
  m.bitwise = true;
  m.bits[0] = mask[0];
  m.array = mask;
  return m;
}
// SetVectorMask's two words, both given.
inline MaskArg BitMaskWords(uint64_t high, uint64_t low) {
  MaskArg m;
  m.bitwise = true;
  m.bits[0] = low;
  m.bits[1] = high;
  return m;
}

template <class T>
constexpr uint32_t PerRepeat() {
  return kRepeatBytes / sizeof(T);
}

// Writes a call's (or SetVectorMask's) mask into the core's mask register, checking its range.
template <class T>
void WriteMaskRegister(const char* call, CoreContext& core, const MaskArg& m) {
  constexpr uint32_t per_repeat = PerRepeat<T>();
  if (core.vector.mask_counter_mode) {
    core.vector.mask_high = 0;
    core.vector.mask_low = m.bitwise ? m.bits[0] : m.len;
    return;
  }
  if (!m.bitwise) {
    if (m.len < 1 || m.len > per_repeat) {
      Fault(ErrorKind::kInvalidArgument,
            Str(call, ": mask ", m.len, " is outside [1, ", per_repeat, "] for ", TypeName<T>(),
                " (continuous mode: elements per repeat)"));
    }
    const simd::RepeatMask bits = simd::FirstElements(static_cast<uint32_t>(m.len));
    core.vector.mask_low = bits.bits[0];
    core.vector.mask_high = bits.bits[1];
    return;
  }
  const uint64_t high = m.array == nullptr ? m.bits[1] : sizeof(T) == 2 ? m.array[1] : 0;
  if (m.bits[0] == 0 && high == 0) {
    Fault(ErrorKind::kInvalidArgument, Str(call, ": bitwise mask is all zero"));
  }
  if (sizeof(T) == 4 && high != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": bitwise mask[1] is ", Hex(high), " but must be 0 for 32-bit ", TypeName<T>(),
              " (64 elements per repeat)"));
  }
  // 64-bit operands (a Cast from or to int64_t): 32 elements per repeat, mask[0] in
  // [0, 2^32 - 1] and mask[1] = 0 (asc-devkit docs SIMD计算说明/掩码.md).
  if (sizeof(T) == 8 && (high != 0 || (m.bits[0] >> 32) != 0)) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": bitwise mask ", Hex(high), ":", Hex(m.bits[0]),
              " sets elements past 32, but a 64-bit ", TypeName<T>(),
              " repeat has 32 elements (mask[0] in [0, 2^32 - 1], mask[1] 0)"));
  }
  core.vector.mask_low = m.bits[0];
  core.vector.mask_high = high;
}

// Repeats and per-repeat masks of a call from the mask register and repeatTime.
template <class T>
simd::RepeatPlan PlanFromRegister(const char* call, const CoreContext& core, int64_t repeat_time) {
  simd::RepeatPlan plan;
  plan.per_repeat = PerRepeat<T>();
  plan.per_block = kBlockBytes / sizeof(T);
  if (core.vector.mask_counter_mode) {
    const uint64_t count = core.vector.mask_low;
    const uint64_t repeats = count / plan.per_repeat + (count % plan.per_repeat != 0);
    if (repeats > 0xFFFFFFFFull) {
      Fault(ErrorKind::kInvalidArgument,
            Str(call, ": counter-mode mask ", count, " elements is not a usable count"));
    }
    plan.repeats = static_cast<uint32_t>(repeats);
    plan.body = simd::FirstElements(plan.per_repeat);
    plan.last = simd::FirstElements(
        static_cast<uint32_t>(count - (repeats == 0 ? 0 : (repeats - 1) * plan.per_repeat)));
    return plan;
  }
  if (repeat_time < 0 || repeat_time > AscendC::MAX_REPEAT_TIMES) {
    Fault(ErrorKind::kInvalidArgument, Str(call, ": repeatTime ", repeat_time, " is outside [0, ",
                                           AscendC::MAX_REPEAT_TIMES, "]"));
  }
  plan.repeats = static_cast<uint32_t>(repeat_time);
  plan.body.bits[0] = core.vector.mask_low;
  plan.body.bits[1] = sizeof(T) == 2 ? core.vector.mask_high : 0;
  plan.last = plan.body;
  return plan;
}

template <class T>
simd::RepeatPlan ResolvePlan(const char* call, CoreContext& core, bool is_set_mask,
                             const MaskArg& m, int64_t repeat_time) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "mask/repeat form takes 16-, 32- or (Cast) 64-bit elements");
  if (is_set_mask) WriteMaskRegister<T>(call, core, m);
  return PlanFromRegister<T>(call, core, repeat_time);
}

inline simd::Stride StrideOf(uint64_t block_stride, uint64_t repeat_stride) {
  return simd::Stride{block_stride * kBlockBytes, repeat_stride * kBlockBytes};
}

// A mask/repeat call record with its operands' strides (dst, src0, src1; absent operands keep the
// default), for the cost model's UB bank rules: the blocks one repeat reads and writes are where
// the strides put them.
inline trace::ApiCall WithUbStrides(trace::ApiCall call, const simd::Stride& dst,
                                    const simd::Stride& src0,
                                    const simd::Stride& src1 = simd::Stride{}) {
  const simd::Stride s[3] = {dst, src0, src1};
  for (int k = 0; k < 3; ++k) {
    call.ub_block_stride[k] = static_cast<uint16_t>(s[k].block / kBlockBytes);
    call.ub_repeat_stride[k] = static_cast<uint16_t>(s[k].repeat / kBlockBytes);
  }
  return call;
}

// A strided operand: live, 32 B aligned, and every byte the plan reaches inside the tensor.
template <class T>
T* CheckStridedOperand(const char* call, const char* role, const AscendC::LocalTensor<T>& t,
                       const simd::RepeatPlan& plan, const simd::Stride& s, uint64_t* bytes) {
  ascsim::aicore::TensorAccess::CheckLive(t, call, role);
  *bytes = simd::ExtentBytes(plan, s, sizeof(T));
  const uint64_t have = static_cast<uint64_t>(t.GetSize()) * sizeof(T);
  if (*bytes > have) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, ": ", role, " reaches byte ", *bytes, " (", plan.repeats,
              " repeats, blkStride ", s.block / kBlockBytes, ", repStride ", s.repeat / kBlockBytes,
              ") beyond its LocalTensor of ", have, " B (", t.GetSize(), " ", TypeName<T>(), ")"));
  }
  T* p = CheckUbOperand(call, role, t, 0);
  const BufferSlot* slot = ascsim::aicore::TensorAccess::Slot(t);
  if (slot->sanitizer != nullptr) [[unlikely]] {
    // The exact elements the plan touches (mask, repeats, strides), not the span.
    SanitizeLocalPlan(slot->sanitizer, trace::Pipe::kV, Access::kAuto, slot, p, plan, s, sizeof(T),
                      call, role);
  }
  return p;
}

inline bool Contiguous(std::initializer_list<simd::Stride> strides) {
  for (const simd::Stride& s : strides) {
    if (s.block != kBlockBytes) return false;
  }
  return true;
}
// Every operand's repeats back to back as well (block stride 32 B, repeat stride 256 B).
inline bool DenseRepeats(std::initializer_list<simd::Stride> strides) {
  for (const simd::Stride& s : strides) {
    if (s.block != kBlockBytes || s.repeat != kRepeatBytes) return false;
  }
  return true;
}

// Two-source instructions share the walk: `body(d, a, b, len)` does one run.
template <class T, class Body>
void MaskedBinaryWalk(const char* name, trace::VectorClass cls, const AscendC::LocalTensor<T>& dst,
                      const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                      const MaskArg& mask, bool is_set_mask, int64_t repeat_time,
                      const AscendC::BinaryRepeatParams& p, Body&& body) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const simd::RepeatPlan plan = ResolvePlan<T>(name, core, is_set_mask, mask, repeat_time);
  const simd::Stride sd = StrideOf(p.dstBlkStride, p.dstRepStride);
  const simd::Stride sa = StrideOf(p.src0BlkStride, p.src0RepStride);
  const simd::Stride sb = StrideOf(p.src1BlkStride, p.src1RepStride);
  uint64_t nd, na, nb;
  auto* d = reinterpret_cast<uint8_t*>(CheckStridedOperand(name, "dst", dst, plan, sd, &nd));
  auto* a =
      reinterpret_cast<const uint8_t*>(CheckStridedOperand(name, "src0", src0, plan, sa, &na));
  auto* b =
      reinterpret_cast<const uint8_t*>(CheckStridedOperand(name, "src1", src1, plan, sb, &nb));
  CheckOverlap(name, "dst", d, nd, "src0", a, na);
  CheckOverlap(name, "dst", d, nd, "src1", b, nb);
  const void* dense_a = a;
  const void* dense_b = b;
  if (simd::ReplicateRepeatedRow(plan, sizeof(T), sd, sa, sb, d, &dense_a, &dense_b)) {
    body(d, static_cast<const uint8_t*>(dense_a), static_cast<const uint8_t*>(dense_b),
         plan.repeats * plan.per_repeat);
  } else {
    simd::ForEachRun(
        plan, Contiguous({sd, sa, sb}),
        [&](uint32_t r, uint32_t e, uint32_t len) {
          body(d + simd::ElementOffset(plan, sd, sizeof(T), r, e),
               a + simd::ElementOffset(plan, sa, sizeof(T), r, e),
               b + simd::ElementOffset(plan, sb, sizeof(T), r, e), len);
        },
        DenseRepeats({sd, sa, sb}));
  }
  Record(core, [&] {
    return WithUbStrides(VectorCall(name, cls, sizeof(T), uint64_t{plan.repeats} * plan.per_repeat,
                                    BufferId(dst), BufferId(src0), BufferId(src1)),
                         sd, sa, sb);
  });
}

template <class T>
void MaskedBinary(const char* name, simd::BinaryOp op, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                  const MaskArg& mask, bool is_set_mask, int64_t repeat_time,
                  const AscendC::BinaryRepeatParams& p) {
  const simd::DType dt = simd::DTypeOf<T>();
  MaskedBinaryWalk<T>(name,
                      op == simd::BinaryOp::kDiv ? trace::VectorClass::kTranscendental
                                                 : trace::VectorClass::kSimple,
                      dst, src0, src1, mask, is_set_mask, repeat_time, p,
                      [&](uint8_t* d, const uint8_t* a, const uint8_t* b, uint32_t len) {
                        simd::Binary(op, dt, d, a, b, len);
                      });
}

// Unary and tensor-scalar instructions share the walk: `body(d, s, len)` does one run.
template <class T, class Body>
void MaskedUnaryWalk(const char* name, trace::VectorClass cls, const AscendC::LocalTensor<T>& dst,
                     const AscendC::LocalTensor<T>& src, const MaskArg& mask, bool is_set_mask,
                     int64_t repeat_time, const AscendC::UnaryRepeatParams& p, Body&& body) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const simd::RepeatPlan plan = ResolvePlan<T>(name, core, is_set_mask, mask, repeat_time);
  const simd::Stride sd = StrideOf(p.dstBlkStride, p.dstRepStride);
  const simd::Stride ss = StrideOf(p.srcBlkStride, p.srcRepStride);
  uint64_t nd, ns;
  auto* d = reinterpret_cast<uint8_t*>(CheckStridedOperand(name, "dst", dst, plan, sd, &nd));
  auto* s = reinterpret_cast<const uint8_t*>(CheckStridedOperand(name, "src", src, plan, ss, &ns));
  CheckOverlap(name, "dst", d, nd, "src", s, ns);
  simd::ForEachRun(
      plan, Contiguous({sd, ss}),
      [&](uint32_t r, uint32_t e, uint32_t len) {
        body(d + simd::ElementOffset(plan, sd, sizeof(T), r, e),
             s + simd::ElementOffset(plan, ss, sizeof(T), r, e), len);
      },
      DenseRepeats({sd, ss}));
  Record(core, [&] {
    return WithUbStrides(VectorCall(name, cls, sizeof(T), uint64_t{plan.repeats} * plan.per_repeat,
                                    BufferId(dst), BufferId(src), trace::kNoBuffer),
                         sd, ss);
  });
}

template <class T>
void MaskedUnary(const char* name, simd::UnaryOp op, trace::VectorClass cls,
                 const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                 const MaskArg& mask, bool is_set_mask, int64_t repeat_time,
                 const AscendC::UnaryRepeatParams& p) {
  const simd::DType dt = simd::DTypeOf<T>();
  MaskedUnaryWalk<T>(
      name, cls, dst, src, mask, is_set_mask, repeat_time, p,
      [&](uint8_t* d, const uint8_t* s, uint32_t len) { simd::Unary(op, dt, d, s, len); });
}

template <class T>
void MaskedScalar(const char* name, simd::ScalarOp op, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, T scalar, const MaskArg& mask,
                  bool is_set_mask, int64_t repeat_time, const AscendC::UnaryRepeatParams& p) {
  const simd::DType dt = simd::DTypeOf<T>();
  MaskedUnaryWalk<T>(name, trace::VectorClass::kSimple, dst, src, mask, is_set_mask, repeat_time, p,
                     [&](uint8_t* d, const uint8_t* s, uint32_t len) {
                       simd::WithScalar(op, dt, d, s, &scalar, len);
                     });
}

template <class T>
void MaskedDuplicate(const AscendC::LocalTensor<T>& dst, T scalar, const MaskArg& mask,
                     bool is_set_mask, int64_t repeat_time, uint16_t blk_stride,
                     uint8_t rep_stride) {
  constexpr const char* name = "Duplicate";
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const simd::RepeatPlan plan = ResolvePlan<T>(name, core, is_set_mask, mask, repeat_time);
  const simd::Stride sd = StrideOf(blk_stride, rep_stride);
  uint64_t nd;
  auto* d = reinterpret_cast<uint8_t*>(CheckStridedOperand(name, "dst", dst, plan, sd, &nd));
  const simd::DType dt = simd::DTypeOf<T>();
  simd::ForEachRun(
      plan, Contiguous({sd}),
      [&](uint32_t r, uint32_t e, uint32_t len) {
        simd::Fill(dt, d + simd::ElementOffset(plan, sd, sizeof(T), r, e), &scalar, len);
      },
      DenseRepeats({sd}));
  Record(core, [&] {
    return WithUbStrides(VectorCall(name, trace::VectorClass::kSimple, sizeof(T),
                                    uint64_t{plan.repeats} * plan.per_repeat, BufferId(dst),
                                    trace::kNoBuffer, trace::kNoBuffer),
                         sd, simd::Stride{});
  });
}

}  // namespace ascsim::aicore

namespace AscendC {

// --- the mask register ---
inline void SetMaskNorm() {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  core.vector.mask_counter_mode = false;
}
inline void SetMaskCount() {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  core.vector.mask_counter_mode = true;
}
// Back to the reset value: every element of a repeat (normal mode).
inline void ResetMask() {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  core.vector.mask_high = ~0ull;
  core.vector.mask_low = ~0ull;
}

namespace detail {
inline void CheckMaskModeMatches(const char* call, bool counter_template) {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  if (counter_template != core.vector.mask_counter_mode) {
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kInvalidArgument,
        ascsim::aicore::Str(call, "<", counter_template ? "COUNTER" : "NORMAL",
                            "> called while the mask is in ",
                            core.vector.mask_counter_mode ? "counter" : "normal", " mode (call ",
                            counter_template ? "SetMaskCount" : "SetMaskNorm", " first)"));
  }
}
}  // namespace detail

// Normal mode: bit i of {maskLow, maskHigh} enables element i. Counter mode: maskLow elements.
// This form writes the mask register whatever `mode` says (asc-devkit impl/basic_api/kernel_reg.h:
// set_vector_mask(maskHigh, maskLow)); the register's mode is SetMaskCount / SetMaskNorm's, so
// official kernels call SetVectorMask<T>(0, len) after SetMaskCount (0_introduction 14_reduce).
template <class T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  if (mode == MaskMode::COUNTER && maskHigh != 0) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          ascsim::aicore::Str("SetVectorMask<COUNTER>: maskHigh ", maskHigh,
                                              " must be 0 (the count goes in maskLow)"));
  }
  ascsim::aicore::WriteMaskRegister<T>("SetVectorMask", core,
                                       ascsim::aicore::BitMaskWords(maskHigh, maskLow));
}
// Normal mode: the first `len` elements of each repeat. Counter mode: `len` elements in all.
template <class T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(int32_t len) {
  detail::CheckMaskModeMatches("SetVectorMask", mode == MaskMode::COUNTER);
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  if (len < 0) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          ascsim::aicore::Str("SetVectorMask: len ", len, " is negative"));
  }
  ascsim::aicore::WriteMaskRegister<T>("SetVectorMask", core,
                                       ascsim::aicore::ContinuousMask(static_cast<uint64_t>(len)));
}

// --- element-wise instructions, mask/repeat form ---
#define ASCSIM_MASKED_BINARY(Name, Op)                                                           \
  template <class T, bool isSetMask = true>                                                      \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
            uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {   \
    ascsim::aicore::MaskedBinary<T>(#Name, ascsim::simd::BinaryOp::Op, dst, src0, src1,          \
                                    ascsim::aicore::ContinuousMask(mask), isSetMask, repeatTime, \
                                    repeatParams);                                               \
  }                                                                                              \
  template <class T, bool isSetMask = true>                                                      \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
            const uint64_t mask[], const uint8_t repeatTime,                                     \
            const BinaryRepeatParams& repeatParams) {                                            \
    ascsim::aicore::MaskedBinary<T>(#Name, ascsim::simd::BinaryOp::Op, dst, src0, src1,          \
                                    ascsim::aicore::BitMask(mask), isSetMask, repeatTime,        \
                                    repeatParams);                                               \
  }
ASCSIM_FOR_EACH_BINARY_OP(ASCSIM_MASKED_BINARY)
#undef ASCSIM_MASKED_BINARY

#define ASCSIM_MASKED_UNARY(Name, Op, Class)                                             \
  template <class T, bool isSetMask = true>                                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,         \
            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {           \
    ascsim::aicore::MaskedUnary<T>(                                                      \
        #Name, ascsim::simd::UnaryOp::Op, ascsim::trace::VectorClass::Class, dst, src,   \
        ascsim::aicore::ContinuousMask(mask), isSetMask, repeatTime, repeatParams);      \
  }                                                                                      \
  template <class T, bool isSetMask = true>                                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], \
            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {           \
    ascsim::aicore::MaskedUnary<T>(                                                      \
        #Name, ascsim::simd::UnaryOp::Op, ascsim::trace::VectorClass::Class, dst, src,   \
        ascsim::aicore::BitMask(mask), isSetMask, repeatTime, repeatParams);             \
  }
ASCSIM_FOR_EACH_UNARY_OP(ASCSIM_MASKED_UNARY)
#undef ASCSIM_MASKED_UNARY

// Cast, mask/repeat form (asc-devkit docs Memory矢量计算/类型转换/Cast.md): the mask and the
// repeats count elements of the wider type ("mask会按照输入和输出类型中sizeof(dtype)较大的来筛选"),
// 256 B of it per repeat; each operand's block and repeat strides are in 32 B blocks of its own
// type. Partially overlapping operands run repeat by repeat, each repeat reading its source
// before writing, when no repeat writes bytes a later repeat reads (CheckCastOverlap, which
// judges a repeat by the span of its blocks); otherwise they are refused.
namespace detail {
template <class D, class S>
void CastRepeat(const LocalTensor<D>& dst, const LocalTensor<S>& src, RoundMode mode,
                const ascsim::aicore::MaskArg& mask, bool is_set_mask, int64_t repeat_time,
                const UnaryRepeatParams& p, const char* file, int line) {
  namespace ai = ascsim::aicore;
  namespace simd = ascsim::simd;
  using W = std::conditional_t<(sizeof(D) > sizeof(S)), D, S>;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const simd::RepeatPlan plan = ai::ResolvePlan<W>("Cast", core, is_set_mask, mask, repeat_time);
  simd::RepeatPlan dplan = plan, splan = plan;
  dplan.per_block = ai::kBlockBytes / sizeof(D);
  splan.per_block = ai::kBlockBytes / sizeof(S);
  const simd::Stride sd = ai::StrideOf(p.dstBlkStride, p.dstRepStride);
  const simd::Stride ss = ai::StrideOf(p.srcBlkStride, p.srcRepStride);
  uint64_t nd, ns;
  auto* d = reinterpret_cast<uint8_t*>(ai::CheckStridedOperand("Cast", "dst", dst, dplan, sd, &nd));
  auto* s =
      reinterpret_cast<const uint8_t*>(ai::CheckStridedOperand("Cast", "src", src, splan, ss, &ns));
  ai::CheckCastMode(simd::DTypeOf<D>(), simd::DTypeOf<S>(), mode);
  const uint32_t per = plan.per_repeat;
  // A repeat's span: from its first block to the end of its last one.
  auto span = [&](const simd::RepeatPlan& q, const simd::Stride& st, size_t elem) {
    const uint64_t blocks = (per + q.per_block - 1) / q.per_block;
    return (blocks - 1) * st.block + q.per_block * elem;
  };
  const bool in_order = ai::CheckCastOverlap(
      ai::CastOperand{d, nd, sd.repeat, span(dplan, sd, sizeof(D)), ai::TypeName<D>()},
      ai::CastOperand{s, ns, ss.repeat, span(splan, ss, sizeof(S)), ai::TypeName<S>()},
      plan.repeats, per, file, line);
  auto convert = [&](uint8_t* to, const uint8_t* from, uint32_t len) {
    if constexpr (std::is_same_v<D, half> && std::is_same_v<S, int32_t>) {
      ai::CastInt32ToHalfDeq(core, reinterpret_cast<half*>(to),
                             reinterpret_cast<const int32_t*>(from), len);
    } else {
      simd::Cast(simd::DTypeOf<D>(), simd::DTypeOf<S>(), ai::ToRounding(mode), to, from, len);
    }
  };
  if (!in_order) [[likely]] {
    simd::ForEachRun(plan, ai::Contiguous({sd, ss}), [&](uint32_t r, uint32_t e, uint32_t len) {
      convert(d + simd::ElementOffset(dplan, sd, sizeof(D), r, e),
              s + simd::ElementOffset(splan, ss, sizeof(S), r, e), len);
    });
  } else {
    // Repeat by repeat: gather the repeat's source, convert, then scatter its results.
    alignas(32) uint8_t from[ai::kRepeatBytes], to[ai::kRepeatBytes];
    simd::RepeatPlan one = plan;
    one.repeats = 1;
    for (uint32_t r = 0; r < plan.repeats; ++r) {
      one.body = one.last = plan.MaskOf(r);
      auto runs = [&](auto&& fn) { simd::ForEachRun(one, false, fn); };
      runs([&](uint32_t, uint32_t e, uint32_t len) {
        std::memcpy(from + e * sizeof(S), s + simd::ElementOffset(splan, ss, sizeof(S), r, e),
                    len * sizeof(S));
      });
      runs([&](uint32_t, uint32_t e, uint32_t len) {
        convert(to + e * sizeof(D), from + e * sizeof(S), len);
      });
      runs([&](uint32_t, uint32_t e, uint32_t len) {
        std::memcpy(d + simd::ElementOffset(dplan, sd, sizeof(D), r, e), to + e * sizeof(D),
                    len * sizeof(D));
      });
    }
  }
  ai::Record(core, [&] {
    return ai::VectorCall("Cast", ascsim::trace::VectorClass::kCast, sizeof(W),
                          uint64_t{plan.repeats} * per, ai::BufferId(dst), ai::BufferId(src),
                          ascsim::trace::kNoBuffer);
  });
}
}  // namespace detail

template <class D, class S, bool isSetMask = true>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& roundMode,
          const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  detail::CastRepeat(dst, src, roundMode, ascsim::aicore::ContinuousMask(mask), isSetMask,
                     repeatTime, repeatParams, file, line);
}
template <class D, class S, bool isSetMask = true>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& roundMode,
          const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  detail::CastRepeat(dst, src, roundMode, ascsim::aicore::BitMask(mask), isSetMask, repeatTime,
                     repeatParams, file, line);
}

#define ASCSIM_MASKED_SCALAR(Name, Op)                                                           \
  template <class T, bool isSetMask = true>                                                      \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                \
            const NonDeduced<T>& scalarValue, uint64_t mask, const uint8_t repeatTime,           \
            const UnaryRepeatParams& repeatParams) {                                             \
    ascsim::aicore::MaskedScalar<T>(#Name, ascsim::simd::ScalarOp::Op, dst, src, T(scalarValue), \
                                    ascsim::aicore::ContinuousMask(mask), isSetMask, repeatTime, \
                                    repeatParams);                                               \
  }                                                                                              \
  template <class T, bool isSetMask = true>                                                      \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                \
            const NonDeduced<T>& scalarValue, const uint64_t mask[], const uint8_t repeatTime,   \
            const UnaryRepeatParams& repeatParams) {                                             \
    ascsim::aicore::MaskedScalar<T>(#Name, ascsim::simd::ScalarOp::Op, dst, src, T(scalarValue), \
                                    ascsim::aicore::BitMask(mask), isSetMask, repeatTime,        \
                                    repeatParams);                                               \
  }
ASCSIM_FOR_EACH_SCALAR_OP(ASCSIM_MASKED_SCALAR)
ASCSIM_MASKED_SCALAR(ShiftLeft, kShiftLeft)
#undef ASCSIM_MASKED_SCALAR

// ShiftRight's mask/repeat form also takes roundEn (rounding of the shifted-out bits); the
// simulator shifts arithmetically for signed and logically for unsigned types either way.
template <class T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                const NonDeduced<T>& scalarValue, uint64_t mask, const uint8_t repeatTime,
                const UnaryRepeatParams& repeatParams, bool roundEn = false) {
  (void)roundEn;
  ascsim::aicore::MaskedScalar<T>("ShiftRight", ascsim::simd::ScalarOp::kShiftRight, dst, src,
                                  T(scalarValue), ascsim::aicore::ContinuousMask(mask), isSetMask,
                                  repeatTime, repeatParams);
}
template <class T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                const NonDeduced<T>& scalarValue, const uint64_t mask[], const uint8_t repeatTime,
                const UnaryRepeatParams& repeatParams, bool roundEn = false) {
  (void)roundEn;
  ascsim::aicore::MaskedScalar<T>("ShiftRight", ascsim::simd::ScalarOp::kShiftRight, dst, src,
                                  T(scalarValue), ascsim::aicore::BitMask(mask), isSetMask,
                                  repeatTime, repeatParams);
}

// Duplicate, mask/repeat form: dst blocks `dstBlockStride` apart, repeats `dstRepeatStride` apart.
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const NonDeduced<T>& scalarValue, uint64_t mask,
               const uint8_t repeatTime, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride) {
  ascsim::aicore::MaskedDuplicate<T>(dst, T(scalarValue), ascsim::aicore::ContinuousMask(mask),
                                     isSetMask, repeatTime, dstBlockStride, dstRepeatStride);
}
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const NonDeduced<T>& scalarValue, const uint64_t mask[],
               const uint8_t repeatTime, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride) {
  ascsim::aicore::MaskedDuplicate<T>(dst, T(scalarValue), ascsim::aicore::BitMask(mask), isSetMask,
                                     repeatTime, dstBlockStride, dstRepeatStride);
}

}  // namespace AscendC
