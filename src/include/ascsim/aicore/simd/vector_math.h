// Element-wise math over raw UB memory: the computational core behind every vector API call.
// The API layer (vector_ops.h) checks operands once per call and then calls one of these over
// the whole extent. Semantics per dtype follow the device: 16-bit floats are computed in float
// and rounded to nearest even per operation, integer ops wrap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ascsim/aicore/internal.h"
#include "ascsim/half.h"

namespace ascsim::simd {

enum class DType : uint8_t { kF16, kBF16, kF32, kI8, kU8, kI16, kU16, kI32, kU32, kI64, kU64 };

// A sub-byte integer (AscendC::int4b_t: `k_bits` < 8). Kernels that name it in a DTYPE selection
// must compile, but a tensor of it is never simulated (binding one faults first, kernel_utils.h),
// so the DType given to it below is never used at run time.
template <class T, class = void>
struct IsSubByteInt : std::false_type {};
template <class T>
struct IsSubByteInt<T, std::void_t<decltype(T::k_bits)>> : std::bool_constant<(T::k_bits < 8)> {};

template <class T>
constexpr DType DTypeOf() {
  if constexpr (IsSubByteInt<T>::value)
    return T::k_signed ? DType::kI8 : DType::kU8;
  else if constexpr (std::is_same_v<T, half>)
    return DType::kF16;
  else if constexpr (std::is_same_v<T, bfloat16_t>)
    return DType::kBF16;
  else if constexpr (std::is_same_v<T, float>)
    return DType::kF32;
  else if constexpr (std::is_same_v<T, int8_t>)
    return DType::kI8;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return DType::kU8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return DType::kI16;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return DType::kU16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return DType::kI32;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return DType::kU32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return DType::kI64;
  else {
    static_assert(std::is_same_v<T, uint64_t>, "unsupported element type");
    return DType::kU64;
  }
}
size_t DTypeSize(DType t);
const char* DTypeName(DType t);

enum class BinaryOp : uint8_t { kAdd, kSub, kMul, kDiv, kMax, kMin, kAnd, kOr };
enum class UnaryOp : uint8_t { kExp, kLn, kAbs, kSqrt, kRsqrt, kReciprocal, kRelu, kNot };
// dst = op(src, scalar). kLeakyRelu: src >= 0 ? src : src * scalar.
enum class ScalarOp : uint8_t { kAdds, kMuls, kMaxs, kMins, kLeakyRelu, kShiftLeft, kShiftRight };
enum class Rounding : uint8_t { kNone, kRint, kFloor, kCeil, kRound, kTrunc, kOdd };

// `scalar` points at one element of the operation's dtype.
void Binary(BinaryOp op, DType t, void* dst, const void* a, const void* b, size_t n);
void Unary(UnaryOp op, DType t, void* dst, const void* src, size_t n);
void WithScalar(ScalarOp op, DType t, void* dst, const void* src, const void* scalar, size_t n);
void Fill(DType t, void* dst, const void* scalar, size_t n);
// Converts n elements; throws InvalidArgument for a pair the device has no conversion for.
void Cast(DType dst_t, DType src_t, Rounding mode, void* dst, const void* src, size_t n);
// A wide copy (DataCopy's body).
void Copy(void* dst, const void* src, size_t bytes);

// The portable element loops alone: the reference semantics that every SIMD fast path above must
// reproduce. The functions above take a fast path on the best Highway target of the CPU when one
// exists for the op and dtype, else these; vector_math_test.cpp checks the fast paths against
// these on every Highway target the machine runs.
namespace portable {
void Binary(BinaryOp op, DType t, void* dst, const void* a, const void* b, size_t n);
void Unary(UnaryOp op, DType t, void* dst, const void* src, size_t n);
void WithScalar(ScalarOp op, DType t, void* dst, const void* src, const void* scalar, size_t n);
void Cast(DType dst_t, DType src_t, Rounding mode, void* dst, const void* src, size_t n);
}  // namespace portable

// Reductions over n elements in the device's order (A2 "first n elements" form: a binary tree
// within each 256-byte repeat, repeats accumulated in sequence; 16-bit floats round per step).
// Results are written as one element of dtype `t` to `result`.
void ReduceSum(DType t, const void* src, size_t n, void* result);
// Max/min value and the index of its first occurrence.
void ReduceMax(DType t, const void* src, size_t n, void* result, uint32_t* index);
void ReduceMin(DType t, const void* src, size_t n, void* result, uint32_t* index);

}  // namespace ascsim::simd
