// The sanitizer's shadow of memory: for every byte a block touched, the last write and the last
// read of each pipe (which call, on which pipe, in which sync epoch of that pipe), and for local
// buffers whether the byte was written since the buffer was handed out. Bytes with the same state
// share one segment, so a whole-buffer DataCopy or vector op is one segment however long it is:
// the cost of an access is the number of segments it overlaps, never the number of elements.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ascsim/trace.h"

namespace ascsim::aicore {

// The pipes the sanitizer orders: trace::Pipe::kS .. kFix.
constexpr int kPipeCount = 7;
inline int PipeIndex(trace::Pipe pipe) { return static_cast<int>(pipe); }

// One earlier access, as the checks and the messages need it: 12 bytes, since every shadow
// segment holds eight of them.
struct AccessRef {
  uint32_t call = 0;   // the block's API call number (CoreContext::api_calls, saturated)
  uint32_t epoch = 0;  // the sync epoch of its pipe it belongs to (1-based)
  uint16_t name = 0;   // the call's name, interned per block ("Add", "DataCopy GM->UB", ...)
  uint8_t pipe = 0;    // PipeIndex
  uint8_t atomic = 0;  // AtomicOp of a GM write under SetAtomicAdd/Max/Min, else 0
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
  // Defined: written since the buffer was handed out (local buffers; GM bytes start defined).
  bool init = false;
  // Not defined although written: `write` computed or copied them from undefined bytes
  // (definedness travels with data, as in Valgrind's memcheck).
  bool tainted = false;

  bool SameOrdering(const ShadowState& o) const {
    if (init != o.init || tainted != o.tainted || has_write != o.has_write ||
        read_mask != o.read_mask)
      return false;
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

// Segments sorted by their first byte, disjoint; bytes in no segment have never been touched and
// read as `untouched` (a fresh state). A sorted vector: accesses mostly rewrite one whole
// segment (a tile op on its buffer, again) or append after the last (streaming through GM, one
// shadow per allocation), both O(1) here; anything else shifts the segments after it.
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

  // Updates the state of every byte of [begin, end) with update(state&) (in place: the states
  // are ~100 bytes, and most accesses rewrite one whole segment), splitting segments at the edges
  // and merging neighbours that end up with the same ordering facts.
  template <class Update>
  void Apply(uint64_t begin, uint64_t end, Update&& update) {
    if (begin >= end) return;
    const size_t first = FirstEndingAfter(begin);
    if (first < segs_.size() && segs_[first].begin == begin && segs_[first].end == end) {
      update(segs_[first].state);  // exactly one segment: in place
      MergeAround(first);
      return;
    }
    if (first < segs_.size() && segs_[first].begin == begin && end < segs_[first].end) {
      // The start of one segment (a tile shorter than its buffer): the general path below,
      // without its scratch copy. It keeps one segment with the old state when the update
      // leaves the ordering facts alone, else splits off the updated head.
      ShadowState updated = segs_[first].state;
      update(updated);
      if (updated.SameOrdering(segs_[first].state)) {
        MergeAround(first);  // as the general path's two merges at the unchanged segment
      } else {
        segs_.insert(segs_.begin() + static_cast<std::ptrdiff_t>(first),
                     Segment{begin, end, updated});
        segs_[first + 1].begin = end;
        MergeAround(first + 1);
      }
      MergeAround(first);
      return;
    }
    if (first == segs_.size()) {  // past every segment: append
      segs_.push_back(Segment{begin, end, untouched_});
      update(segs_.back().state);
      MergeAround(segs_.size() - 1);
      return;
    }
    auto updated = [&](const ShadowState& old) {
      ShadowState state = old;
      update(state);
      return state;
    };
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
        Push(at, s.begin, updated(untouched_));
        at = s.begin;
      }
      const uint64_t piece_end = s.end < end ? s.end : end;
      Push(at, piece_end, updated(s.state));
      at = piece_end;
    }
    if (at < end) Push(at, end, updated(untouched_));
    if (first < last && segs_[last - 1].end > end) {
      Push(end, segs_[last - 1].end, segs_[last - 1].state);
    }
    // Replace segs_[first, last) by scratch_, then merge at its two edges.
    const size_t old_n = last - first, new_n = scratch_.size();
    if (new_n > old_n) {
      segs_.insert(segs_.begin() + static_cast<std::ptrdiff_t>(last), new_n - old_n, Segment{});
    } else if (new_n < old_n) {
      segs_.erase(segs_.begin() + static_cast<std::ptrdiff_t>(first + new_n),
                  segs_.begin() + static_cast<std::ptrdiff_t>(last));
    }
    std::copy(scratch_.begin(), scratch_.end(), segs_.begin() + static_cast<std::ptrdiff_t>(first));
    MergeAround(first + new_n - 1);
    MergeAround(first);
  }

  void Clear() { segs_.clear(); }
  size_t segments() const { return segs_.size(); }

 private:
  // Index of the first segment whose end is after `addr`.
  size_t FirstEndingAfter(uint64_t addr) const {
    if (!segs_.empty() && segs_.back().end <= addr) return segs_.size();
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
  // Merges segs_[i] with its neighbours when they touch it with the same ordering facts (the
  // newer names are kept: the latest access is the one reported).
  void MergeAround(size_t i) {
    if (i >= segs_.size()) return;
    if (i + 1 < segs_.size() && segs_[i + 1].begin == segs_[i].end &&
        segs_[i + 1].state.SameOrdering(segs_[i].state)) {
      segs_[i].end = segs_[i + 1].end;
      segs_.erase(segs_.begin() + static_cast<std::ptrdiff_t>(i + 1));
    }
    if (i > 0 && segs_[i - 1].end == segs_[i].begin &&
        segs_[i - 1].state.SameOrdering(segs_[i].state)) {
      segs_[i - 1].end = segs_[i].end;
      segs_[i - 1].state = segs_[i].state;
      segs_.erase(segs_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  // Appends a piece to scratch_, merged into the previous one when it continues it with the
  // same facts.
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
