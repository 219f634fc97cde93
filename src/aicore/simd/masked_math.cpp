#include "aicore/simd/masked_math.h"

#include <algorithm>

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
