// The operand hooks of ascsim/aicore/sanitizer_hooks.h: turn a footprint into byte runs and hand
// them to the block's CoreSanitizer.
#include "ascsim/aicore/sanitizer_hooks.h"

#include <algorithm>

#include "aicore/sanitizer/core_sanitizer.h"
#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/limits.h"
#include "ascsim/aicore/simd/masked_math.h"

namespace ascsim::aicore {
namespace {

using Runs = std::vector<std::pair<uint64_t, uint64_t>>;

// Appends [begin, end), merged into the last run when it continues or overlaps it; `sorted`
// drops to false when a run starts before the previous one (repeat stride 0, ...).
void AddRun(Runs& runs, uint64_t begin, uint64_t end, bool* sorted) {
  if (begin >= end) return;
  if (!runs.empty()) {
    auto& last = runs.back();
    if (begin >= last.first && begin <= last.second) {
      last.second = std::max(last.second, end);
      return;
    }
    if (begin < last.first) *sorted = false;
  }
  runs.emplace_back(begin, end);
}

void Normalize(Runs& runs, bool sorted) {
  if (sorted) return;
  std::sort(runs.begin(), runs.end());
  size_t out = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (out > 0 && runs[i].first <= runs[out - 1].second) {
      runs[out - 1].second = std::max(runs[out - 1].second, runs[i].second);
    } else {
      runs[out++] = runs[i];
    }
  }
  runs.resize(out);
}

}  // namespace

void FootprintRuns(uint64_t first, const Footprint& fp, Runs& runs) {
  runs.clear();
  bool sorted = true;
  for (uint64_t i = 0; i < fp.count; ++i) {
    AddRun(runs, first + i * fp.pitch, first + i * fp.pitch + fp.run, &sorted);
  }
  Normalize(runs, sorted);
}

void SanitizeLocal(CoreSanitizer* sanitizer, trace::Pipe pipe, Access access,
                   const BufferSlot* slot, const void* first, const Footprint& footprint,
                   const char* call, const char* role) {
  sanitizer->LocalFootprint(pipe, access, slot, first, footprint, call, role);
}

void SanitizeLocalPlan(CoreSanitizer* sanitizer, trace::Pipe pipe, Access access,
                       const BufferSlot* slot, const void* first, const simd::RepeatPlan& plan,
                       const simd::Stride& stride, uint32_t elem_bytes, const char* call,
                       const char* role) {
  Runs& runs = sanitizer->runs_scratch();
  runs.clear();
  bool sorted = true;
  const auto base = reinterpret_cast<uint64_t>(first);
  const bool contiguous = stride.block == kBlockBytes;
  // An operand every repeat reads again (repeat stride 0, e.g. a broadcast row) touches only the
  // elements of one body repeat and of the last: two repeats describe it exactly, however many
  // the instruction runs.
  simd::RepeatPlan walk = plan;
  if (stride.repeat == 0 && walk.repeats > 2) walk.repeats = 2;
  uint64_t skipped = 0;  // bytes of leading full, dense repeats already added as one run
  const bool dense = contiguous && stride.repeat == kRepeatBytes;
  if (dense && walk.repeats > 2 && walk.body.Next(0, false) >= walk.per_repeat) {
    // Full repeats back to back: one run up to the last repeat, whose mask may differ.
    skipped = uint64_t{walk.repeats - 1} * kRepeatBytes;
    AddRun(runs, base, base + skipped, &sorted);
    walk.repeats = 1;
    walk.body = walk.last;
  }
  // The same maximal runs of active elements the instruction's own walk computes.
  simd::ForEachRun(
      walk, contiguous,
      [&](uint32_t r, uint32_t e, uint32_t len) {
        const uint64_t at = base + skipped + simd::ElementOffset(walk, stride, elem_bytes, r, e);
        AddRun(runs, at, at + uint64_t{len} * elem_bytes, &sorted);
      },
      contiguous && stride.repeat == kRepeatBytes);
  Normalize(runs, sorted);
  sanitizer->Local(pipe, access, slot, runs, call, role);
}

void SanitizeGm(CoreSanitizer* sanitizer, trace::Pipe pipe, Access access, const GmRange& alloc,
                const void* first, const Footprint& footprint, const char* call) {
  sanitizer->Gm(pipe, access, alloc, first, footprint, call);
}

void SanitizeLocalOperand(const BufferSlot* slot, trace::Pipe pipe, Access access,
                          const void* first, uint64_t bytes, const Footprint* footprint,
                          const char* call, const char* role) {
  if (bytes == 0) return;  // the caller describes the operand's bytes itself
  // LocalFootprint directly (its comparison with the reference inline here): every operand of a
  // following block passes through this one call.
  slot->sanitizer->LocalFootprint(pipe, access, slot, first,
                                  footprint != nullptr ? *footprint : Footprint::Bytes(bytes),
                                  call, role);
}

void SanitizeGmOperand(CoreSanitizer* sanitizer, trace::Pipe pipe, const char* verb,
                       const GmRange& alloc, const void* first, uint64_t bytes,
                       const Footprint* footprint, const char* call) {
  if (bytes == 0) return;
  const Access access = verb[0] == 'r'   ? Access::kRead
                        : verb[0] == 'w' ? Access::kWrite
                                         : Access::kReadWrite;
  SanitizeGm(sanitizer, pipe, access, alloc, first,
             footprint != nullptr ? *footprint : Footprint::Bytes(bytes), call);
}

namespace {
bool ElementIsZero(const uint8_t* p, uint32_t elem_bytes) {
  for (uint32_t i = 0; i < elem_bytes; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}
}  // namespace

void SanitizeAtomicAddend(CoreSanitizer* sanitizer, const void* dst, const void* src, uint64_t n,
                          uint32_t elem_bytes) {
  if (n == 0 || elem_bytes == 0) return;
  const auto* s = static_cast<const uint8_t*>(src);
  uint64_t lead = 0;
  while (lead < n && ElementIsZero(s + lead * elem_bytes, elem_bytes)) ++lead;
  uint64_t trail = 0;
  while (trail < n - lead && ElementIsZero(s + (n - 1 - trail) * elem_bytes, elem_bytes)) ++trail;
  const auto d = reinterpret_cast<uint64_t>(dst);
  const uint64_t mid_begin = d + lead * elem_bytes, mid_end = d + (n - trail) * elem_bytes;
  sanitizer->GmAddend(d, mid_begin, true);
  sanitizer->GmAddend(mid_begin, mid_end, false);
  sanitizer->GmAddend(mid_end, d + n * elem_bytes, true);
}

void SanitizeScalar(CoreSanitizer* sanitizer, Access access, const BufferSlot* slot, const void* p,
                    uint32_t bytes, const char* call) {
  const auto at = reinterpret_cast<uint64_t>(p);
  sanitizer->Scalar(access, slot, at, at + bytes, call);
}

void SanitizeMaskBits(CoreSanitizer* sanitizer, MaskBits mode, uint32_t elem_bytes,
                      uint32_t period) {
  sanitizer->MaskBitsOp(mode, elem_bytes, period);
}

}  // namespace ascsim::aicore
