// The small utilities CANN's kernel_operator.h brings into every kernel: likely / unlikely, the
// integer helpers DivCeil / AlignUp / ConstCeil / CeilDivision, the type tests IsSameType /
// SupportType / SupportEnum / SupportBytes, TQueConfig / GetTQueConfig, PRELOAD and ASCENDC_SHAPE;
// and the compiler's scalar type names float16_t / float32_t / __bf16.
//
// Sources (asc-devkit): impl/basic_api/utils/kernel_utils_macros.h (likely, unlikely,
// ASCENDC_SHAPE), impl/basic_api/utils/kernel_utils_ceil_oom_que.h (the rest; PRELOAD is empty in
// the CPU-debug build). float16_t / float32_t are bisheng's names for half / float (used by
// ops-math kernels, e.g. experimental/math/sqrt); asc-devkit's headers take them from the compiler.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/types.h"

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

// An array argument with its dimension count: Foo(ASCENDC_SHAPE(2, 8, 16)).
#define ASCENDC_SHAPE(dimValue, ...) \
  dimValue, (const uint32_t[]) { __VA_ARGS__ }

using float16_t = half;
using float32_t = float;
// bisheng's bfloat16 scalar type, which bfloat16_t is on the device: production kernels test their
// dtype against it (`std::is_same_v<TYPE_X, __bf16>`, ops-nn experimental/activation/gelu,
// ops-transformer prompt_flash_attention). g++ before 13 has no __bf16; from 13 on (and clang) it
// is a built-in type of its own, distinct from ascsim's bfloat16_t, so there the test is false.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
using __bf16 = bfloat16_t;
#endif

namespace ascsim::aicore {
// Ceil(uint32_t, uint32_t) with a divisor of 0.
[[noreturn]] void FaultZeroDivisor(const char* api);
}  // namespace ascsim::aicore

namespace AscendC {

// Prefetch of the instruction stream: nothing to do on the CPU (as in CANN's CPU-debug build).
#define PRELOAD(len) \
  {}

// Unsigned 32-bit integer helpers. Like CANN's they wrap around for a + b - 1 >= 2^32 and divide by
// zero when b == 0 (no check: they are constexpr and used in constant expressions).
__aicore__ constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
__aicore__ constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
// Signed ceiling division; a divisor of 0 gives 0 (CANN's definition, not an error).
__aicore__ inline int32_t CeilDivision(int32_t num1, int32_t num2) {
  if (num2 == 0) return 0;
  return (num1 + num2 - 1) / num2;
}
// The non-template unsigned Ceil of kernel_utils_ceil_oom_que.h. Beside the matmul utilities'
// template Ceil(T, T) (matmul_utils.h) it is what mixed-type calls such as
// `Ceil(dim0 * sizeof(T), 32)` (uint64_t, int) resolve to: both convert to uint32_t. CANN divides
// by zero for b == 0; here that is a fault with the call's name rather than SIGFPE.
__aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) {
  if (b == 0) ascsim::aicore::FaultZeroDivisor("Ceil");
  return (a + b - 1) / b;
}

template <bool b>
struct BoolInst {
  using Type = BoolInst<b>;
  static constexpr bool value = b;
};
using TrueType = BoolInst<true>;
using FalseType = BoolInst<false>;

template <typename T, typename U>
struct IsSameType : public FalseType {};
template <typename T>
struct IsSameType<T, T> : public TrueType {};

// Conditional<cond, T1, T2>::type: T1 when cond, else T2 (asc-devkit
// impl/basic_api/utils/kernel_utils_constants.h).
template <bool condition, class T1, class T2>
struct Conditional {
  using type = T1;
};
template <class T1, class T2>
struct Conditional<false, T1, T2> {
  using type = T2;
};

template <typename... Arg>
struct Tuple {};

// True when T is one of U, Args...
template <typename T, typename U, typename... Args>
__aicore__ constexpr bool SupportType() {
  if constexpr (sizeof...(Args) > 0) {
    return IsSameType<T, U>::value || SupportType<T, Args...>();
  }
  return IsSameType<T, U>::value;
}
// True when the value T equals one of U, Args...
template <auto T, auto U, auto... Args>
__aicore__ constexpr bool SupportEnum() {
  if constexpr (sizeof...(Args) > 0) {
    return T == U || SupportEnum<T, Args...>();
  }
  return T == U;
}
// True when sizeof(T) is one of U, Args...
template <typename T, int U, int... Args>
__aicore__ constexpr bool SupportBytes() {
  if constexpr (sizeof...(Args) > 0) {
    return sizeof(T) == U || SupportBytes<T, Args...>();
  }
  return sizeof(T) == U;
}

// The queue configuration a TQue's `mask` template argument may carry (nd2nz / nz2nd conversions on
// the way, buffer sizes for statically allocated queues). ascsim's queues accept it and model the
// buffers their InitBuffer call sets up; the conversion flags are for cube queues.
struct TQueConfig {
  bool nd2nz = false;
  bool nz2nd = false;
  bool scmBlockGroup = false;
  uint32_t bufferLen = 0;
  uint32_t bufferNumber = 0;
  uint32_t consumerSize = 0;
  TPosition consumer[8] = {};
  bool enableStaticEvtId = false;
  bool enableLoopQueue = false;
};

__aicore__ constexpr TQueConfig GetTQueConfig(bool nd2nzIn, bool nz2ndIn, bool scmBlockGroupIn,
                                              uint32_t bufferLenIn, uint32_t bufferNumberIn,
                                              uint32_t consumerSizeIn, const TPosition consumerIn[],
                                              bool enableStaticEvtIdIn, bool enableLoopQueueIn) {
  TQueConfig c{};
  c.nd2nz = nd2nzIn;
  c.nz2nd = nz2ndIn;
  c.scmBlockGroup = scmBlockGroupIn;
  c.bufferLen = bufferLenIn;
  c.bufferNumber = bufferNumberIn;
  c.consumerSize = consumerSizeIn;
  for (int i = 0; i < 8; ++i) c.consumer[i] = consumerIn[i];
  c.enableStaticEvtId = enableStaticEvtIdIn;
  c.enableLoopQueue = enableLoopQueueIn;
  return c;
}
// From the integer `mask` of TQue<pos, depth, mask>: bit 0 nd2nz, bit 1 nz2nd, bit 2 scmBlockGroup.
__aicore__ constexpr TQueConfig GetTQueConfig(const int32_t mask) {
  TQueConfig c{};
  c.nd2nz = (static_cast<uint32_t>(mask) & 0x1u) != 0;
  c.nz2nd = (static_cast<uint32_t>(mask) & 0x2u) != 0;
  c.scmBlockGroup = (static_cast<uint32_t>(mask) & 0x4u) != 0;
  for (int i = 0; i < 8; ++i) c.consumer[i] = TPosition::MAX;
  return c;
}
__aicore__ constexpr TQueConfig GetTQueConfig(const TQueConfig* conf) { return *conf; }

// Sub-byte integers (asc-devkit impl/utils/common_types.h, integer_sub_type): int4b_t holds one
// 4-bit two's-complement value in the low bits of a byte and converts to int8_t with sign
// extension. On the device a tensor of int4b_t packs two per byte; ascsim compiles kernels that
// name the type (IsSameType<T, int4b_t>, DTYPE selections) but does not simulate int4 tensors:
// binding a LocalTensor or GlobalTensor of int4b_t faults with a message.
template <int bit_num, bool sign = true>
struct integer_sub_type {
  static constexpr int k_bits = bit_num;
  static constexpr bool k_signed = sign;
  using T = std::conditional_t<sign, int8_t, uint8_t>;
  using Storage = uint8_t;
  static constexpr Storage mask = Storage((uint64_t{1} << bit_num) - 1);
  Storage storage;
  integer_sub_type() = default;
  integer_sub_type(uint32_t value) : storage(static_cast<Storage>(value) & mask) {}  // NOLINT
  integer_sub_type(int32_t value) : storage(static_cast<Storage>(value) & mask) {}   // NOLINT
  operator T() const {  // NOLINT: converts like the device's
    if (k_signed && (storage & Storage(1u << (bit_num - 1))) != 0) return T(storage) | ~T(mask);
    return T(storage);
  }
  bool operator==(integer_sub_type const& rhs) const { return storage == rhs.storage; }
  bool operator!=(integer_sub_type const& rhs) const { return storage != rhs.storage; }
  bool operator<(integer_sub_type const& rhs) const { return T(*this) < T(rhs); }
  bool operator<=(integer_sub_type const& rhs) const { return T(*this) <= T(rhs); }
  bool operator>(integer_sub_type const& rhs) const { return T(*this) > T(rhs); }
  bool operator>=(integer_sub_type const& rhs) const { return T(*this) >= T(rhs); }
};
constexpr uint32_t INT4_BITS = 4;
using int4b_t = integer_sub_type<INT4_BITS, true>;

}  // namespace AscendC

using AscendC::int4b_t;

namespace ascsim::aicore {
// A LocalTensor / GlobalTensor of int4b_t (two elements per byte on the device) was bound.
[[noreturn]] void FaultInt4Tensor(const char* call);
}  // namespace ascsim::aicore
