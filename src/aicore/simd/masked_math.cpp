#include "ascsim/aicore/simd/masked_math.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "aicore/simd/dtype_visit.h"
#include "ascsim/aicore/simd/vector_math.h"
#include "ascsim/error.h"

namespace ascsim::simd {

RepeatMask FirstElements(uint32_t n) {
  RepeatMask m;
  if (n >= 64) {
    m.bits[0] = ~0ull;
    const uint32_t rest = std::min<uint32_t>(n - 64, 64);
    m.bits[1] = rest == 64 ? ~0ull : ((1ull << rest) - 1);
  } else {
    m.bits[0] = (1ull << n) - 1;
  }
  return m;
}

uint32_t ActiveSpan(const RepeatMask& m) {
  if (m.bits[1] != 0) return 128 - static_cast<uint32_t>(__builtin_clzll(m.bits[1]));
  if (m.bits[0] != 0) return 64 - static_cast<uint32_t>(__builtin_clzll(m.bits[0]));
  return 0;
}

uint32_t PopCount(const RepeatMask& m) {
  return static_cast<uint32_t>(__builtin_popcountll(m.bits[0]) + __builtin_popcountll(m.bits[1]));
}

bool ReplicateRepeatedRow(const RepeatPlan& plan, size_t elem, const Stride& sd, const Stride& sa,
                          const Stride& sb, const void* d, const void** a, const void** b) {
  constexpr uint64_t kRow = 256;  // one repeat
  const auto dense = [](const Stride& s) { return s.block == 32 && s.repeat == kRow; };
  const auto row = [](const Stride& s) { return s.block == 32 && s.repeat == 0; };
  if (plan.repeats < 2 || !dense(sd)) return false;
  const bool row_a = row(sa) && dense(sb);
  const bool row_b = row(sb) && dense(sa);
  if (!row_a && !row_b) return false;
  if (plan.body.Next(0, false) < plan.per_repeat || plan.last.Next(0, false) < plan.per_repeat) {
    return false;  // some element inactive
  }
  const size_t bytes = size_t{plan.repeats} * plan.per_repeat * elem;
  const auto* src_row = static_cast<const uint8_t*>(row_a ? *a : *b);
  const auto* dst = static_cast<const uint8_t*>(d);
  if (dst < src_row + kRow && src_row < dst + bytes) return false;
  thread_local std::vector<uint8_t> scratch;
  // The scratch's first `filled` bytes hold copies of `filled_row`. A kernel reuses one row of
  // constants tile after tile (gelu_custom's clamp at -20: every tile of every block on this
  // thread), so the copies are made again only for another row or a longer instruction. Nothing
  // else writes the scratch: dst never overlaps it and the instruction only reads it.
  thread_local uint8_t filled_row[kRow];
  thread_local size_t filled = 0;
  if (filled < bytes || std::memcmp(filled_row, src_row, kRow) != 0) {
    if (scratch.size() < bytes) scratch.resize(bytes);
    // Fixed-size copies: the compiler emits plain vector moves (a doubling memcpy would reach
    // libc's `rep movsb`).
    for (size_t at = 0; at < bytes; at += kRow) std::memcpy(scratch.data() + at, src_row, kRow);
    std::memcpy(filled_row, src_row, kRow);
    filled = bytes;
  }
  (row_a ? *a : *b) = scratch.data();
  return true;
}

namespace {
uint64_t RepeatEnd(const RepeatPlan& plan, const Stride& s, size_t elem, uint32_t r,
                   const RepeatMask& m) {
  const uint32_t span = ActiveSpan(m);
  if (span == 0) return 0;
  // Blocks of a repeat may be laid out backwards only with a zero stride, so the highest active
  // element is the one furthest out.
  return ElementOffset(plan, s, elem, r, span - 1) + elem;
}
}  // namespace

uint64_t ExtentBytes(const RepeatPlan& plan, const Stride& s, size_t elem) {
  if (plan.repeats == 0) return 0;
  uint64_t end = RepeatEnd(plan, s, elem, plan.repeats - 1, plan.last);
  if (plan.repeats > 1) end = std::max(end, RepeatEnd(plan, s, elem, plan.repeats - 2, plan.body));
  return end;
}

}  // namespace ascsim::simd

namespace ascsim::simd {
namespace {

template <class T>
using Arith = std::conditional_t<std::is_integral_v<T>, T, float>;

// The element types of the masked vector instructions: every DType but the 64-bit integers.
template <class F>
void DispatchVectorType(DType t, F&& f) {
  if (t == DType::kI64 || t == DType::kU64) {
    throw InvalidArgument(std::string("element type ") + DTypeName(t) +
                          " is not supported by this vector instruction");
  }
  VisitDType(t, [&](auto tag) {
    if constexpr (sizeof(tag) < 8) f(tag);
  });
}

inline void PutBit(uint8_t* bits, uint64_t k, bool v) {
  const uint8_t m = static_cast<uint8_t>(1u << (k & 7));
  bits[k >> 3] = v ? (bits[k >> 3] | m) : (bits[k >> 3] & ~m);
}

}  // namespace

void CompareToBits(CmpOp op, DType t, const void* a, const void* b, bool scalar_b, size_t n,
                   uint8_t* bits, uint64_t first_bit) {
  DispatchVectorType(t, [&](auto tag) {
    using T = decltype(tag);
    using A = Arith<T>;
    const T* x = static_cast<const T*>(a);
    const T* y = static_cast<const T*>(b);
    const size_t y_step = scalar_b ? 0 : 1;
    // The comparison is chosen once per run; 8 results are packed per byte store when aligned.
    auto loop = [&](auto holds) {
      size_t i = 0;
      for (; i < n && ((first_bit + i) & 7) != 0; ++i) {
        PutBit(bits, first_bit + i, holds(A(x[i]), A(y[i * y_step])));
      }
      for (; i + 8 <= n; i += 8) {
        uint8_t byte = 0;
        for (size_t k = 0; k < 8; ++k) {
          byte |= static_cast<uint8_t>(holds(A(x[i + k]), A(y[(i + k) * y_step]))) << k;
        }
        bits[(first_bit + i) >> 3] = byte;
      }
      for (; i < n; ++i) PutBit(bits, first_bit + i, holds(A(x[i]), A(y[i * y_step])));
    };
    switch (op) {
      case CmpOp::kLT:
        return loop([](A p, A q) { return p < q; });
      case CmpOp::kGT:
        return loop([](A p, A q) { return p > q; });
      case CmpOp::kEQ:
        return loop([](A p, A q) { return p == q; });
      case CmpOp::kLE:
        return loop([](A p, A q) { return p <= q; });
      case CmpOp::kGE:
        return loop([](A p, A q) { return p >= q; });
      case CmpOp::kNE:
        return loop([](A p, A q) { return !(p == q); });
    }
  });
}

void SelectByBits(DType t, void* dst, const void* a, const void* b, bool scalar_b, size_t n,
                  const uint8_t* bits, uint64_t first_bit) {
  DispatchVectorType(t, [&](auto tag) {
    using T = decltype(tag);
    T* d = static_cast<T*>(dst);
    const T* x = static_cast<const T*>(a);
    const T* y = static_cast<const T*>(b);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t k = first_bit + i;
      const bool take_a = (bits[k >> 3] >> (k & 7)) & 1;
      std::memcpy(&d[i], take_a ? &x[i] : &y[scalar_b ? 0 : i], sizeof(T));
    }
  });
}

namespace {

template <class T>
T RoundSum(float v) {
  if constexpr (std::is_same_v<T, half>) {
    if (v > 65504.0f) v = 65504.0f;
    if (v < -65504.0f) v = -65504.0f;
  }
  return T(v);
}

template <class T>
T AddRounded(T x, T y) {
  if constexpr (std::is_integral_v<T>)
    return T(x + y);
  else
    return RoundSum<T>(float(x) + float(y));
}

}  // namespace

bool ReduceSlots(ReduceKind kind, DType t, const uint8_t* base, const RepeatPlan& plan,
                 const Stride& s, uint32_t r, uint32_t first, uint32_t n, void* value,
                 uint32_t* index) {
  const RepeatMask& m = plan.MaskOf(r);
  bool any = false;
  DispatchVectorType(t, [&](auto tag) {
    using T = decltype(tag);
    using A = Arith<T>;
    auto load = [&](uint32_t e) {
      T v;
      std::memcpy(&v, base + ElementOffset(plan, s, sizeof(T), r, e), sizeof(T));
      return v;
    };
    if (kind == ReduceKind::kSum) {
      T slots[128];
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t e = first + i;
        if (m.Test(e)) {
          slots[i] = load(e);
          any = true;
        } else {
          slots[i] = T(0);
        }
      }
      for (uint32_t width = n; width > 1; width /= 2) {
        for (uint32_t i = 0; i < width / 2; ++i)
          slots[i] = AddRounded<T>(slots[2 * i], slots[2 * i + 1]);
      }
      std::memcpy(value, &slots[0], sizeof(T));
      return;
    }
    T best{};
    uint32_t best_e = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t e = first + i;
      if (!m.Test(e)) continue;
      const T v = load(e);
      const bool better = kind == ReduceKind::kMax ? A(v) > A(best) : A(v) < A(best);
      if (!any || better) {
        best = v;
        best_e = e;
        any = true;
      }
    }
    if (any) {
      std::memcpy(value, &best, sizeof(T));
      if (index) *index = best_e;
    }
  });
  return any;
}

void AccumulateSum(DType t, void* acc, const void* x) {
  DispatchVectorType(t, [&](auto tag) {
    using T = decltype(tag);
    T a, b;
    std::memcpy(&a, acc, sizeof(T));
    std::memcpy(&b, x, sizeof(T));
    a = AddRounded<T>(a, b);
    std::memcpy(acc, &a, sizeof(T));
  });
}

void AxpyRun(DType dst_t, DType src_t, void* dst, const void* src, float scalar, size_t n) {
  DispatchVectorType(dst_t, [&](auto dtag) {
    DispatchVectorType(src_t, [&](auto stag) {
      using D = decltype(dtag);
      using S = decltype(stag);
      D* d = static_cast<D*>(dst);
      const S* x = static_cast<const S*>(src);
      for (size_t i = 0; i < n; ++i) d[i] = D(float(x[i]) * scalar + float(d[i]));
    });
  });
}

void IndexRun(DType t, void* dst, double first, size_t n) {
  DispatchVectorType(t, [&](auto tag) {
    using T = decltype(tag);
    T* d = static_cast<T*>(dst);
    for (size_t i = 0; i < n; ++i) {
      if constexpr (std::is_integral_v<T>)
        d[i] = T(static_cast<int64_t>(first) + static_cast<int64_t>(i));
      else
        d[i] = T(static_cast<float>(first + static_cast<double>(i)));
    }
  });
}

}  // namespace ascsim::simd
