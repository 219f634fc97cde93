// The element walk of the mask/repeat ("level 0") form of the vector instructions: which elements
// of which repeat an instruction touches and where each one lives in UB. One repeat covers 256 B
// (8 data blocks of 32 B); a block stride separates consecutive blocks of a repeat and a repeat
// stride separates repeat starts, both in bytes here. The walk hands out maximal runs of
// contiguous active elements so the element math (vector_math.h) runs over whole runs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ascsim/aicore/internal.h"

namespace ascsim::simd {

// Per-element bits of one repeat: bit e of bits[e / 64] is element e (at most 128 elements).
struct RepeatMask {
  uint64_t bits[2] = {0, 0};
  bool Test(uint32_t e) const { return (bits[e >> 6] >> (e & 63)) & 1u; }
  bool Empty() const { return bits[0] == 0 && bits[1] == 0; }
  // First element >= i whose bit equals `set` (128 when none).
  uint32_t Next(uint32_t i, bool set) const {
    for (uint32_t w = i >> 6; w < 2; ++w) {
      uint64_t word = set ? bits[w] : ~bits[w];
      if (w == (i >> 6)) word &= ~0ull << (i & 63);
      if (word != 0) return (w << 6) + static_cast<uint32_t>(__builtin_ctzll(word));
    }
    return 128;
  }
};

// The first `n` elements of a repeat (n <= 128).
RepeatMask FirstElements(uint32_t n);
// Index of the highest set bit plus one (0 for an empty mask).
uint32_t ActiveSpan(const RepeatMask& m);
uint32_t PopCount(const RepeatMask& m);

// What one instruction does: `repeats` repeats of `per_repeat` elements (256 B / element size);
// every repeat but the last uses `body`, the last uses `last` (they differ in counter mode).
struct RepeatPlan {
  uint32_t repeats = 0;
  uint32_t per_repeat = 0;  // elements in one repeat
  uint32_t per_block = 0;   // elements in one 32 B block
  RepeatMask body;
  RepeatMask last;
  const RepeatMask& MaskOf(uint32_t r) const { return r + 1 == repeats ? last : body; }
};

// Where an operand's repeats and blocks are, in bytes.
struct Stride {
  uint64_t block = 32;
  uint64_t repeat = 256;
};

// Byte offset of element e of repeat r.
inline uint64_t ElementOffset(const RepeatPlan& plan, const Stride& s, size_t elem, uint32_t r,
                              uint32_t e) {
  return r * s.repeat + (e / plan.per_block) * s.block + (e % plan.per_block) * elem;
}

// One past the highest byte the plan touches in an operand laid out with `s` (0 when none).
uint64_t ExtentBytes(const RepeatPlan& plan, const Stride& s, size_t elem);

// A two-source instruction whose src0 or src1 is one repeat reused by every repeat (repeat
// stride 0, block stride 32 B: Ascend's idiom for a row of constants) while dst and the other
// source are dense and every element of every repeat is active: replicates the row into a
// per-thread scratch and points *a or *b at it, so that the instruction can run as one
// count-form call over all repeats (otherwise one call per repeat). Returns false, changing
// nothing, when the instruction is not of that shape or dst overlaps the row (then the
// per-repeat order would matter). The scratch stays valid until the thread's next call.
bool ReplicateRepeatedRow(const RepeatPlan& plan, size_t elem, const Stride& sd, const Stride& sa,
                          const Stride& sb, const void* d, const void** a, const void** b);

// Calls run(r, e, len) for every run of `len` active elements starting at element e of repeat r.
// Runs stop at block boundaries unless every operand is laid out contiguously (block stride 32 B),
// in which case a run may cover a whole repeat. With `dense_repeats` (every operand's repeats are
// also back to back, 256 B apart) a run that reaches the end of its repeat continues into the
// next one, so a full mask or a counter-mode count is a single run.
template <class F>
void ForEachRun(const RepeatPlan& plan, bool contiguous_blocks, F&& run,
                bool dense_repeats = false) {
  uint32_t open_r = 0, open_e = 0;
  uint64_t open_len = 0;
  auto flush = [&] {
    if (open_len != 0) run(open_r, open_e, static_cast<uint32_t>(open_len));
    open_len = 0;
  };
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    const RepeatMask& m = plan.MaskOf(r);
    uint32_t e = 0;
    while ((e = m.Next(e, true)) < plan.per_repeat) {
      const uint32_t limit =
          contiguous_blocks ? plan.per_repeat : (e / plan.per_block + 1) * plan.per_block;
      uint32_t end = m.Next(e + 1, false);
      if (end > limit) end = limit;
      if (dense_repeats && contiguous_blocks && open_len != 0 && e == 0) {
        open_len += end;  // continues the run that ended this repeat's predecessor
      } else {
        flush();
        open_r = r;
        open_e = e;
        open_len = end - e;
      }
      if (!(dense_repeats && contiguous_blocks && end == plan.per_repeat)) flush();
      e = end;
    }
  }
  flush();
}

}  // namespace ascsim::simd

namespace ascsim::simd {

enum class DType : uint8_t;
enum class CmpOp : uint8_t { kLT, kGT, kEQ, kLE, kGE, kNE };

// Writes op(a[i], b[i]) (or op(a[i], *b) when `scalar_b`) for i < n into bits
// [first_bit, first_bit + n) of `bits` (bit k is bit k % 8 of byte k / 8).
void CompareToBits(CmpOp op, DType t, const void* a, const void* b, bool scalar_b, size_t n,
                   uint8_t* bits, uint64_t first_bit);
// dst[i] = bit (first_bit + i) of `bits` ? a[i] : b[i] (or *b when `scalar_b`), for i < n.
void SelectByBits(DType t, void* dst, const void* a, const void* b, bool scalar_b, size_t n,
                  const uint8_t* bits, uint64_t first_bit);

}  // namespace ascsim::simd

namespace ascsim::simd {

enum class ReduceKind : uint8_t { kSum, kMax, kMin };

// Reduces the active elements among elements [first, first + n) of repeat r of an operand laid
// out at `base` with stride `s` (n a power of two). Sums run as a pairwise binary tree over the
// n slots (disabled ones count as 0), each step rounded to the element type; 16-bit float sums
// saturate at +-65504 as the device's reduction adder does. Max/min return the first extreme
// and its element index within the repeat. Returns false when no element is active.
bool ReduceSlots(ReduceKind kind, DType t, const uint8_t* base, const RepeatPlan& plan,
                 const Stride& s, uint32_t r, uint32_t first, uint32_t n, void* value,
                 uint32_t* index);
// acc = acc + x in the element type (16-bit floats saturating as above).
void AccumulateSum(DType t, void* acc, const void* x);

}  // namespace ascsim::simd

namespace ascsim::simd {

// dst[i] = src[i] * scalar + dst[i], computed in float and rounded once to the dst type
// (dst and src types may differ: float dst with half src).
void AxpyRun(DType dst_t, DType src_t, void* dst, const void* src, float scalar, size_t n);
// dst[i] = first + i in the element type (16-bit floats: the float sum rounded).
void IndexRun(DType t, void* dst, double first, size_t n);

}  // namespace ascsim::simd
