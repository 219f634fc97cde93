// Vector instructions, count form: `Op(dst, src..., count)` over the first `count` elements.
// Each call checks its operands once (live, in bounds, 32 B aligned, no partial overlap) and then
// runs one SIMD pass (simd/vector_math.h) over the whole extent.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/operand_checks.h"
#include "ascsim/aicore/simd/vector_math.h"
#include "ascsim/aicore/types.h"

namespace ascsim::aicore {

trace::ApiCall VectorCall(const char* name, trace::VectorClass cls, uint8_t elem, uint64_t n,
                          BufferRef dst, BufferRef src0, BufferRef src1);

template <class T>
void BinaryCount(const char* name, simd::BinaryOp op, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                 int64_t count) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint64_t n = CheckCount(name, count);
  T* d = CheckUbOperand(name, "dst", dst, n);
  const T* a = CheckUbOperand(name, "src0", src0, n);
  const T* b = CheckUbOperand(name, "src1", src1, n);
  CheckOverlap(name, "dst", d, n * sizeof(T), "src0", a, n * sizeof(T));
  CheckOverlap(name, "dst", d, n * sizeof(T), "src1", b, n * sizeof(T));
  simd::Binary(op, simd::DTypeOf<T>(), d, a, b, n);
  Record(core, [&] {
    return VectorCall(name,
                      op == simd::BinaryOp::kDiv ? trace::VectorClass::kTranscendental
                                                 : trace::VectorClass::kSimple,
                      sizeof(T), n, BufferId(dst), BufferId(src0), BufferId(src1));
  });
}

template <class T>
void UnaryCount(const char* name, simd::UnaryOp op, trace::VectorClass cls,
                const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                int64_t count) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint64_t n = CheckCount(name, count);
  T* d = CheckUbOperand(name, "dst", dst, n);
  const T* s = CheckUbOperand(name, "src", src, n);
  CheckOverlap(name, "dst", d, n * sizeof(T), "src", s, n * sizeof(T));
  simd::Unary(op, simd::DTypeOf<T>(), d, s, n);
  Record(core, [&] {
    return VectorCall(name, cls, sizeof(T), n, BufferId(dst), BufferId(src), trace::kNoBuffer);
  });
}

template <class T>
void ScalarCount(const char* name, simd::ScalarOp op, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, T scalar, int64_t count) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint64_t n = CheckCount(name, count);
  T* d = CheckUbOperand(name, "dst", dst, n);
  const T* s = CheckUbOperand(name, "src", src, n);
  CheckOverlap(name, "dst", d, n * sizeof(T), "src", s, n * sizeof(T));
  simd::WithScalar(op, simd::DTypeOf<T>(), d, s, &scalar, n);
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kSimple, sizeof(T), n, BufferId(dst), BufferId(src),
                      trace::kNoBuffer);
  });
}

simd::Rounding ToRounding(AscendC::RoundMode mode);
// Faults unless the profile's Cast offers `src` -> `dst` under `mode` (vector_ops.cpp).
void CheckCastMode(simd::DType dst, simd::DType src, AscendC::RoundMode mode);
// int32_t -> half Cast: the device's vconv_deq multiplies by the DEQSCALE register (SetDeqScale);
// dst[i] = half(float(src[i]) * scale). Warns once when the kernel never set the register.
void CastInt32ToHalfDeq(CoreContext& core, half* dst, const int32_t* src, uint64_t n);

}  // namespace ascsim::aicore

namespace AscendC {

// The element-wise ops and their SIMD op (and cost class for unary ops), listed once and used by
// both the count form here and the mask/repeat form (vector_masked.h).
#define ASCSIM_FOR_EACH_BINARY_OP(X) \
  X(Add, kAdd)                       \
  X(Sub, kSub) X(Mul, kMul) X(Div, kDiv) X(Max, kMax) X(Min, kMin) X(And, kAnd) X(Or, kOr)
#define ASCSIM_FOR_EACH_UNARY_OP(X)                                                 \
  X(Exp, kExp, kTranscendental)                                                     \
  X(Ln, kLn, kTranscendental) X(Abs, kAbs, kSimple) X(Sqrt, kSqrt, kTranscendental) \
      X(Rsqrt, kRsqrt, kTranscendental) X(Reciprocal, kReciprocal, kTranscendental) \
          X(Relu, kRelu, kSimple) X(Not, kNot, kSimple)
// Scalar-operand ops with a plain (dst, src, scalar, ...) signature (ShiftRight has an extra
// roundEn argument and is written out).
#define ASCSIM_FOR_EACH_SCALAR_OP(X) \
  X(Adds, kAdds) X(Muls, kMuls) X(Maxs, kMaxs) X(Mins, kMins) X(LeakyRelu, kLeakyRelu)

#define ASCSIM_BINARY_OP(Name, Op)                                                             \
  template <class T, bool isSetMask = true>                                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
            const int32_t& count) {                                                            \
    ascsim::aicore::BinaryCount(#Name, ascsim::simd::BinaryOp::Op, dst, src0, src1, count);    \
  }
ASCSIM_FOR_EACH_BINARY_OP(ASCSIM_BINARY_OP)
#undef ASCSIM_BINARY_OP

#define ASCSIM_UNARY_OP(Name, Op, Class)                                                  \
  template <class T, bool isSetMask = true>                                               \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) { \
    ascsim::aicore::UnaryCount(#Name, ascsim::simd::UnaryOp::Op,                          \
                               ascsim::trace::VectorClass::Class, dst, src, count);       \
  }
ASCSIM_FOR_EACH_UNARY_OP(ASCSIM_UNARY_OP)
#undef ASCSIM_UNARY_OP

#define ASCSIM_SCALAR_OP(Name, Op)                                                           \
  template <class T, bool isSetMask = true>                                                  \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                            \
            const NonDeduced<T>& scalarValue, const int32_t& count) {                        \
    ascsim::aicore::ScalarCount(#Name, ascsim::simd::ScalarOp::Op, dst, src, T(scalarValue), \
                                count);                                                      \
  }
ASCSIM_FOR_EACH_SCALAR_OP(ASCSIM_SCALAR_OP)
#undef ASCSIM_SCALAR_OP

template <class T, bool isSetMask = true>
void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const NonDeduced<T>& scalarValue, const int32_t& count) {
  ascsim::aicore::ScalarCount("ShiftLeft", ascsim::simd::ScalarOp::kShiftLeft, dst, src,
                              T(scalarValue), count);
}
template <class T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                const NonDeduced<T>& scalarValue, const int32_t& count, bool roundEn = false) {
  (void)roundEn;
  ascsim::aicore::ScalarCount("ShiftRight", ascsim::simd::ScalarOp::kShiftRight, dst, src,
                              T(scalarValue), count);
}

// dst[i] = scalar for i < count.
template <class T>
void Duplicate(const LocalTensor<T>& dst, const NonDeduced<T>& scalarValue, const int32_t& count) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const uint64_t n = ai::CheckCount("Duplicate", count);
  T* d = ai::CheckUbOperand("Duplicate", "dst", dst, n);
  const T value = T(scalarValue);
  ascsim::simd::Fill(ascsim::simd::DTypeOf<T>(), d, &value, n);
  ai::Record(core, [&] {
    return ai::VectorCall("Duplicate", ascsim::trace::VectorClass::kSimple, sizeof(T), n,
                          ai::BufferId(dst), ascsim::trace::kNoBuffer, ascsim::trace::kNoBuffer);
  });
}

// Type conversion with a rounding mode (CAST_NONE: exact when widening, round-to-nearest-even when
// narrowing, as the device does). Only the type pairs and modes the profile's Cast table lists
// are accepted. `file` and `line` name the call site for the once-per-site overlap warning
// (CheckCastOverlap); callers never pass them.
template <class D, class S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& roundMode,
          const uint32_t count, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const uint64_t n = count;
  D* d = ai::CheckUbOperand("Cast", "dst", dst, n);
  const S* s = ai::CheckUbOperand("Cast", "src", src, n);
  ai::CheckCastMode(ascsim::simd::DTypeOf<D>(), ascsim::simd::DTypeOf<S>(), roundMode);
  const bool in_order = ai::CheckCastOverlap(d, sizeof(D), ai::TypeName<D>(), s, sizeof(S),
                                             ai::TypeName<S>(), n, file, line);
  auto convert = [&](D* to, const S* from, uint64_t len) {
    if constexpr (std::is_same_v<D, half> && std::is_same_v<S, int32_t>) {
      // Scaled by DEQSCALE (SetDeqScale, special_registers.h).
      ai::CastInt32ToHalfDeq(core, to, from, len);
    } else {
      ascsim::simd::Cast(ascsim::simd::DTypeOf<D>(), ascsim::simd::DTypeOf<S>(),
                         ai::ToRounding(roundMode), to, from, len);
    }
  };
  if (!in_order) [[likely]] {
    convert(d, s, n);
  } else {
    // Repeat by repeat, each one's source read before it writes (CheckCastOverlap).
    constexpr uint64_t per = ai::kRepeatBytes / (sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S));
    alignas(32) S from[per];
    for (uint64_t i = 0; i < n; i += per) {
      const uint64_t len = n - i < per ? n - i : per;
      std::memcpy(from, s + i, len * sizeof(S));
      convert(d + i, from, len);
    }
  }
  ai::Record(core, [&] {
    return ai::VectorCall("Cast", ascsim::trace::VectorClass::kCast,
                          sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S), n, ai::BufferId(dst),
                          ai::BufferId(src), ascsim::trace::kNoBuffer);
  });
}

}  // namespace AscendC

namespace ascsim::aicore {

// Work-buffer elements the "first n elements" reductions need: one partial per 256 B repeat,
// rounded up to a whole 32 B block.
template <class T>
uint64_t ReduceWorkElements(uint64_t count) {
  const uint64_t per_repeat = kRepeatBytes / sizeof(T), per_block = kBlockBytes / sizeof(T);
  const uint64_t repeats = (count + per_repeat - 1) / per_repeat;
  return (repeats + per_block - 1) / per_block * per_block;
}

// A reduction's index result in a slot of T's width: 16 bits for 16-bit types, else 32.
template <class T>
void StoreIndex(uint8_t* slot, uint32_t index) {
  if constexpr (sizeof(T) == 2) {
    const uint16_t i16 = static_cast<uint16_t>(index);
    std::memcpy(slot, &i16, 2);
  } else {
    std::memcpy(slot, &index, 4);
  }
}

template <class T>
void ReduceCount(const char* name, int kind, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& work,
                 int64_t count, bool cal_index) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint64_t n = CheckCount(name, count);
  if (n == 0) Fault(ErrorKind::kInvalidArgument, Str(name, ": count must be >= 1"));
  const T* s = CheckUbOperand(name, "src", src, n);
  // dst needs only its result's alignment: the element (SUM, or MAX/MIN value only), or the
  // value-index pair (asc-devkit docs ReduceSum.md / ReduceMax.md, ReduceRepeat.md table 3).
  T* d = CheckUbOperand(name, "dst", dst, cal_index ? 2 : 1,
                        static_cast<uint32_t>((cal_index ? 2 : 1) * sizeof(T)));
  CheckUbOperand(name, "workLocal", work, ReduceWorkElements<T>(n));
  T value;
  uint32_t index = 0;
  if (kind == 0) simd::ReduceSum(simd::DTypeOf<T>(), s, n, &value);
  if (kind == 1) simd::ReduceMax(simd::DTypeOf<T>(), s, n, &value, &index);
  if (kind == 2) simd::ReduceMin(simd::DTypeOf<T>(), s, n, &value, &index);
  d[0] = value;
  if (kind == 0) {  // the sum also stays in ACC_VAL (GetAccVal), as vcadd leaves it
    core.vector.acc_val = 0;
    std::memcpy(&core.vector.acc_val, &value, sizeof(T));
  }
  // The index is stored in the second element's bits (read back with ReinterpretCast).
  if (cal_index) StoreIndex<T>(reinterpret_cast<uint8_t*>(&d[1]), index);
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kReduce, sizeof(T), n, BufferId(dst), BufferId(src),
                      BufferId(work));
  });
}

}  // namespace ascsim::aicore

namespace AscendC {

template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& workLocal, const int32_t count) {
  ascsim::aicore::ReduceCount("ReduceSum", 0, dst, src, workLocal, count, false);
}
template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& workLocal, const int32_t count, bool calIndex = false) {
  ascsim::aicore::ReduceCount("ReduceMax", 1, dst, src, workLocal, count, calIndex);
}
template <class T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& workLocal, const int32_t count, bool calIndex = false) {
  ascsim::aicore::ReduceCount("ReduceMin", 2, dst, src, workLocal, count, calIndex);
}

}  // namespace AscendC
