// The sanitizer's shadow of memory: for every byte a block touched, the last write and the last
// read of each pipe (which call, on which pipe, in which sync epoch of that pipe), and for local
// buffers whether the byte was written since the buffer was handed out. Bytes with the same state
// share one segment, so a whole-buffer DataCopy or vector op is one segment however long it is:
// the cost of an access is the number of segments it overlaps, never the number of elements.
#pragma once

#include <cstdint>
#include <vector>

#include "ascsim/trace.h"

namespace ascsim::aicore {

// The pipes the sanitizer orders: trace::Pipe::kS .. kFix.
constexpr int kPipeCount = 7;
inline int PipeIndex(trace::Pipe pipe) { return static_cast<int>(pipe); }

// One earlier access, as the checks and the messages need it.
struct AccessRef {
  uint64_t call = 0;           // the block's API call number (CoreContext::api_calls)
  const char* name = nullptr;  // "Add", "DataCopy GM->UB", ...
  const char* role = nullptr;  // "src0", "dst", ...
  uint32_t epoch = 0;          // the sync epoch of its pipe it belongs to (1-based)
  uint8_t pipe = 0;            // PipeIndex
  uint8_t atomic = 0;          // AtomicOp of a GM write under SetAtomicAdd/Max/Min, else 0
  // Same ordering facts (the call and names are only for messages).
  bool SameOrdering(const AccessRef& o) const {
    return epoch == o.epoch && pipe == o.pipe && atomic == o.atomic;
  }
};

struct ShadowState {
  AccessRef write;
  AccessRef reads[kPipeCount];
  uint8_t read_mask = 0;  // bit p: reads[p] is valid
  bool has_write = false;
  bool init = false;  // written since the buffer was handed out (local buffers only)

  bool SameOrdering(const ShadowState& o) const {
    if (init != o.init || has_write != o.has_write || read_mask != o.read_mask) return false;
    if (has_write && !write.SameOrdering(o.write)) return false;
    for (int p = 0; p < kPipeCount; ++p) {
      if ((read_mask >> p) & 1) {
        if (!reads[p].SameOrdering(o.reads[p])) return false;
      }
    }
    return true;
  }
};

struct Segment {
  uint64_t begin = 0;
  uint64_t end = 0;
  ShadowState state;
};

// Segments sorted by address, disjoint; bytes in no segment have never been touched and read as
// `untouched` (a fresh state).
class Shadow {
 public:
  explicit Shadow(bool untouched_init = false) { untouched_.init = untouched_init; }

  // Calls visit(begin, end, state) for every piece of [begin, end), in address order, with the
  // untouched state for gaps. Stops early when visit returns false.
  template <class Visit>
  void ForEach(uint64_t begin, uint64_t end, Visit&& visit) const {
    uint64_t at = begin;
    for (size_t i = FirstEndingAfter(begin); i < segs_.size() && at < end; ++i) {
      const Segment& s = segs_[i];
      if (s.begin >= end) break;
      if (s.begin > at) {
        if (!visit(at, s.begin, untouched_)) return;
        at = s.begin;
      }
      const uint64_t piece_end = s.end < end ? s.end : end;
      if (!visit(at, piece_end, s.state)) return;
      at = piece_end;
    }
    if (at < end) visit(at, end, untouched_);
  }

  // Replaces the state of every byte of [begin, end) with update(old state), splitting segments
  // at the edges and merging neighbours that end up with the same ordering facts.
  template <class Update>
  void Apply(uint64_t begin, uint64_t end, Update&& update) {
    if (begin >= end) return;
    const size_t first = FirstEndingAfter(begin);
    size_t last = first;
    while (last < segs_.size() && segs_[last].begin < end) ++last;
    scratch_.clear();
    if (first < last && segs_[first].begin < begin) {
      scratch_.push_back(Segment{segs_[first].begin, begin, segs_[first].state});
    }
    uint64_t at = begin;
    for (size_t i = first; i < last; ++i) {
      const Segment& s = segs_[i];
      if (s.begin > at) {
        Push(at, s.begin, update(untouched_));
        at = s.begin;
      }
      const uint64_t piece_end = s.end < end ? s.end : end;
      Push(at, piece_end, update(s.state));
      at = piece_end;
    }
    if (at < end) Push(at, end, update(untouched_));
    if (first < last && segs_[last - 1].end > end) {
      Push(end, segs_[last - 1].end, segs_[last - 1].state);
    }
    // Merge with the untouched neighbours on either side when they carry the same facts.
    size_t lo = first, hi = last;
    if (lo > 0 && segs_[lo - 1].end == scratch_.front().begin &&
        segs_[lo - 1].state.SameOrdering(scratch_.front().state)) {
      scratch_.front().begin = segs_[lo - 1].begin;
      --lo;
    }
    if (hi < segs_.size() && segs_[hi].begin == scratch_.back().end &&
        segs_[hi].state.SameOrdering(scratch_.back().state)) {
      scratch_.back().end = segs_[hi].end;
      ++hi;
    }
    // Replace segs_[lo, hi) by scratch_ in place.
    const size_t old_n = hi - lo, new_n = scratch_.size();
    if (new_n > old_n) {
      segs_.insert(segs_.begin() + static_cast<std::ptrdiff_t>(hi), new_n - old_n, Segment{});
    } else if (new_n < old_n) {
      segs_.erase(segs_.begin() + static_cast<std::ptrdiff_t>(lo + new_n),
                  segs_.begin() + static_cast<std::ptrdiff_t>(hi));
    }
    for (size_t k = 0; k < new_n; ++k) segs_[lo + k] = scratch_[k];
  }

  void Clear() { segs_.clear(); }
  size_t segments() const { return segs_.size(); }

 private:
  // Index of the first segment whose end is after `addr`.
  size_t FirstEndingAfter(uint64_t addr) const {
    size_t lo = 0, hi = segs_.size();
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (segs_[mid].end <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }
  // Appends a piece to scratch_, merged into the previous one when it continues it with the
  // same facts (the later call's names are kept, so the newest access is the one reported).
  void Push(uint64_t begin, uint64_t end, const ShadowState& state) {
    if (!scratch_.empty() && scratch_.back().end == begin &&
        scratch_.back().state.SameOrdering(state)) {
      scratch_.back().end = end;
      scratch_.back().state = state;
      return;
    }
    scratch_.push_back(Segment{begin, end, state});
  }

  std::vector<Segment> segs_;
  std::vector<Segment> scratch_;
  ShadowState untouched_;
};

}  // namespace ascsim::aicore
