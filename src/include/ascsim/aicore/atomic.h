// SetAtomicAdd<T>() / SetAtomicMax<T>() / SetAtomicMin<T>() / SetAtomicNone(): while an atomic
// mode is set on a core, every UB->GM copy (DataCopy, DataCopyPad) combines each element with
// the value already in GM instead of overwriting it. The mode is per core (CoreContext) and stays
// set until SetAtomicNone; GM is not cleared first (the kernel or host zeroes it).
//
// Several blocks may combine into the same GM range at once, so each element is updated with a
// compare-and-swap loop on its own bits: lock-free, and exact per element as on the device's
// atomic unit. half and bfloat16_t combine in their own precision (rounded after every add).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/sanitizer_hooks.h"
#include "ascsim/aicore/simd/vector_math.h"

namespace ascsim::aicore {

enum class AtomicOp : uint8_t { kNone = 0, kAdd, kMax, kMin };
const char* AtomicOpName(AtomicOp op);

// SetAtomicXxx<T>: checks T is a type the profile's atomic unit combines, and sets the mode.
void SetAtomicMode(AtomicOp op, const char* type_name, bool supported);

template <class T>
constexpr bool kAtomicType =
    std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>;

template <class Bits, class T>
void AtomicCombineOne(T* dst, T value, AtomicOp op) {
  static_assert(sizeof(Bits) == sizeof(T), "bit-sized CAS");
  Bits* word = reinterpret_cast<Bits*>(dst);
  Bits expected = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    T old_value;
    std::memcpy(static_cast<void*>(&old_value), &expected, sizeof(T));
    T result;
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
      const float a = static_cast<float>(old_value), b = static_cast<float>(value);
      result = T(op == AtomicOp::kAdd   ? a + b
                 : op == AtomicOp::kMax ? (a > b ? a : b)
                                        : (a < b ? a : b));
    } else {
      result = op == AtomicOp::kAdd   ? static_cast<T>(old_value + value)
               : op == AtomicOp::kMax ? (old_value > value ? old_value : value)
                                      : (old_value < value ? old_value : value);
    }
    Bits desired;
    std::memcpy(&desired, &result, sizeof(T));
    if (__atomic_compare_exchange_n(word, &expected, desired, /*weak=*/true, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
      return;
    }
  }
}

// The store half of every UB->GM copy: `n` elements from UB `src` to GM `dst`, combined with GM
// when the core's atomic mode is set. `call` names the copy for the type-mismatch fault.
template <class T>
void StoreToGm(const char* call, T* dst, const T* src, uint64_t n) {
  CoreContext& core = CurrentCore();
  const auto op = static_cast<AtomicOp>(core.sys.atomic_op);
  if (op == AtomicOp::kNone) {
    ascsim::simd::Copy(dst, src, n * sizeof(T));
    return;
  }
  if (std::strcmp(core.sys.atomic_type, TypeName<T>()) != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, " of ", TypeName<T>(), " while SetAtomic", AtomicOpName(op), "<",
              core.sys.atomic_type, "> is set; the atomic type must match the copied data"));
  }
  if (reinterpret_cast<uintptr_t>(dst) % sizeof(T) != 0) [[unlikely]] {
    // The atomic unit combines whole elements; a GM address off the element grid would make
    // every element straddle two (here: a misaligned atomic, undefined on the host too).
    Fault(ErrorKind::kInvalidArgument,
          Str(call, " with SetAtomic", AtomicOpName(op), "<", core.sys.atomic_type, ">: GM address ",
              Hex(reinterpret_cast<uintptr_t>(dst)), " is not aligned to the ", sizeof(T), " B of ",
              TypeName<T>()));
  }
  if constexpr (kAtomicType<T>) {
    using Bits = std::conditional_t<
        sizeof(T) == 1, uint8_t,
        std::conditional_t<sizeof(T) == 2, uint16_t,
                           std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
    for (uint64_t i = 0; i < n; ++i) AtomicCombineOne<Bits>(dst + i, src[i], op);
  }
  if (op == AtomicOp::kAdd && core.sanitizer != nullptr) [[unlikely]] {
    SanitizeAtomicAddend(core.sanitizer, dst, src, n, sizeof(T));
  }
}

}  // namespace ascsim::aicore

namespace AscendC {

template <class T>
void SetAtomicAdd() {
  ascsim::aicore::SetAtomicMode(ascsim::aicore::AtomicOp::kAdd, ascsim::aicore::TypeName<T>(),
                                ascsim::aicore::kAtomicType<T>);
}
template <class T>
void SetAtomicMax() {
  ascsim::aicore::SetAtomicMode(ascsim::aicore::AtomicOp::kMax, ascsim::aicore::TypeName<T>(),
                                ascsim::aicore::kAtomicType<T>);
}
template <class T>
void SetAtomicMin() {
  ascsim::aicore::SetAtomicMode(ascsim::aicore::AtomicOp::kMin, ascsim::aicore::TypeName<T>(),
                                ascsim::aicore::kAtomicType<T>);
}
inline void SetAtomicNone() {
  ascsim::aicore::SetAtomicMode(ascsim::aicore::AtomicOp::kNone, nullptr, true);
}
// Older spelling of SetAtomicNone in some samples.
inline void DisableDmaAtomic() { SetAtomicNone(); }

}  // namespace AscendC
