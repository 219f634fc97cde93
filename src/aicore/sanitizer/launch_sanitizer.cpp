#include "aicore/sanitizer/launch_sanitizer.h"

#include <link.h>

#include <algorithm>
#include <cstddef>
#include <map>

#include "ascsim/aicore/atomic.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/trace.h"

namespace ascsim::aicore {

const char* PipeNameOf(int pipe) { return trace::PipeName(static_cast<trace::Pipe>(pipe)); }

void BlockGmLog::Add(const GmInterval& iv) {
  if (epochs.empty()) epochs.emplace_back();
  std::vector<GmInterval>& epoch = epochs.back();
  // Streaming access (tile after tile of x, y and z, or scalar after scalar) extends one of the
  // last few intervals instead of adding one per call.
  constexpr size_t kLookBack = 8;
  const uint32_t seg = segment();
  for (size_t k = 0; k < kLookBack && k < epoch.size(); ++k) {
    GmInterval& last = epoch[epoch.size() - 1 - k];
    if (last.kind == iv.kind && last.segment == seg && last.alloc.begin == iv.alloc.begin &&
        iv.begin <= last.end && iv.end >= last.begin) {
      last.begin = std::min(last.begin, iv.begin);
      last.end = std::max(last.end, iv.end);
      return;
    }
  }
  epoch.push_back(iv);
  epoch.back().segment = seg;
}

void BlockGmLog::AddAddend(uint64_t begin, uint64_t end, bool zero) {
  if (begin >= end) return;
  if (epochs.empty()) epochs.emplace_back();
  const auto epoch = static_cast<uint32_t>(epochs.size() - 1);
  if (!addends.empty()) {  // a copy's consecutive bursts continue one another
    AddendRange& last = addends.back();
    if (last.epoch == epoch && last.zero == zero && begin <= last.end && end >= last.begin) {
      last.begin = std::min(last.begin, begin);
      last.end = std::max(last.end, end);
      return;
    }
  }
  addends.push_back(AddendRange{begin, end, epoch, zero});
}

namespace {

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

// Sorted, disjoint, merged.
void MergeRanges(Ranges& r) {
  std::sort(r.begin(), r.end());
  size_t out = 0;
  for (const auto& x : r) {
    if (out > 0 && x.first <= r[out - 1].second) {
      r[out - 1].second = std::max(r[out - 1].second, x.second);
    } else {
      r[out++] = x;
    }
  }
  r.resize(out);
}

// a minus b, both sorted and disjoint.
Ranges Subtract(const Ranges& a, const Ranges& b) {
  Ranges out;
  size_t j = 0;
  for (auto [lo, hi] : a) {
    while (j < b.size() && b[j].second <= lo) ++j;
    for (size_t k = j; k < b.size() && b[k].first < hi; ++k) {
      if (b[k].first > lo) out.emplace_back(lo, b[k].first);
      lo = std::max(lo, b[k].second);
      if (lo >= hi) break;
    }
    if (lo < hi) out.emplace_back(lo, hi);
  }
  return out;
}

// Drops from the SetAtomicAdd intervals of `epoch` the bytes in `exempt` (sorted, disjoint).
void DropExempt(std::vector<GmInterval>& epoch, const Ranges& exempt) {
  const auto add = static_cast<uint8_t>(kGmAtomic + static_cast<uint8_t>(AtomicOp::kAdd));
  std::vector<GmInterval> kept;
  for (const GmInterval& iv : epoch) {
    if (iv.kind != add) {
      kept.push_back(iv);
      continue;
    }
    for (const auto& [b, e] : Subtract({{iv.begin, iv.end}}, exempt)) {
      GmInterval part = iv;
      part.begin = b;
      part.end = e;
      kept.push_back(part);
    }
  }
  epoch.swap(kept);
}

}  // namespace

void BlockGmLog::Canonicalize() {
  // Bytes a SetAtomicAdd copy added zero to, and no copy of this block added anything else to in
  // the epoch, are left unchanged by the accumulation whenever it lands (x + 0 == x; for -0.0 the
  // result is +0.0, which compares equal).
  bool any_zero = false;
  for (const AddendRange& a : addends) any_zero |= a.zero;
  if (any_zero) {
    for (size_t e = 0; e < epochs.size(); ++e) {
      Ranges zero, other;
      for (const AddendRange& a : addends) {
        if (a.epoch == e) (a.zero ? zero : other).emplace_back(a.begin, a.end);
      }
      if (zero.empty()) continue;
      MergeRanges(zero);
      MergeRanges(other);
      DropExempt(epochs[e], Subtract(zero, other));
    }
  }
  for (std::vector<GmInterval>& epoch : epochs) {
    std::sort(epoch.begin(), epoch.end(), [](const GmInterval& a, const GmInterval& b) {
      if (a.kind != b.kind) return a.kind < b.kind;
      if (a.segment != b.segment) return a.segment < b.segment;
      if (a.begin != b.begin) return a.begin < b.begin;
      return a.call < b.call;
    });
    // Merged in place: `out` intervals are done.
    size_t out = 0;
    for (size_t i = 0; i < epoch.size(); ++i) {
      const GmInterval& iv = epoch[i];
      if (out > 0 && epoch[out - 1].kind == iv.kind && epoch[out - 1].segment == iv.segment &&
          iv.begin <= epoch[out - 1].end) {
        GmInterval& m = epoch[out - 1];
        m.end = std::max(m.end, iv.end);
        if (iv.call < m.call) {  // the earliest call names the merged bytes
          m.call = iv.call;
          m.name = iv.name;
          m.pipe = iv.pipe;
        }
        continue;
      }
      if (out != i) epoch[out] = iv;
      ++out;
    }
    epoch.resize(out);
  }
}

void BlockGmLog::Clear() {
  addends.clear();
  clocks.clear();
  if (epochs.empty()) return;
  epochs.resize(1);
  epochs[0].clear();
}

namespace {
std::atomic<bool> g_block_reuse{true};
std::atomic<uint64_t> g_recorded{0}, g_followed{0}, g_diverged{0};
}  // namespace

void SetBlockReuse(bool on) { g_block_reuse.store(on, std::memory_order_relaxed); }

BlockReuseStats GetBlockReuseStats() {
  BlockReuseStats s;
  s.recorded = g_recorded.load(std::memory_order_relaxed);
  s.followed = g_followed.load(std::memory_order_relaxed);
  s.diverged = g_diverged.load(std::memory_order_relaxed);
  return s;
}

void CountBlockReuse(BlockReuse what) {
  (what == BlockReuse::kRecorded   ? g_recorded
   : what == BlockReuse::kFollowed ? g_followed
                                   : g_diverged)
      .fetch_add(1, std::memory_order_relaxed);
}

LaunchSanitizer::LaunchSanitizer(uint32_t flags, uint32_t block_num) { Reset(flags, block_num); }

void LaunchSanitizer::Publish() {
  published_.store(true, std::memory_order_release);
  CountBlockReuse(BlockReuse::kRecorded);
}

namespace {
// The clean references of earlier launches, by key; shared with the launches that follow them.
// Few kernels are launched in one process; past the bound the oldest entry goes.
constexpr size_t kReferencesKept = 64;
struct KeptReferences {
  std::mutex mu;
  std::vector<std::pair<ReferenceKey, std::shared_ptr<const SanitizerEvents>>> entries;
  std::shared_ptr<const SanitizerEvents> Find(const ReferenceKey& key) {
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& [k, ref] : entries) {
      if (k == key) return ref;
    }
    return nullptr;
  }
  void Put(const ReferenceKey& key, std::shared_ptr<const SanitizerEvents> ref) {
    std::lock_guard<std::mutex> lock(mu);
    for (auto it = entries.begin(); it != entries.end(); ++it) {
      if (it->first == key) {
        entries.erase(it);
        break;
      }
    }
    if (ref == nullptr || ref->Bytes() > kMaxKeptReferenceBytes) return;
    while (!entries.empty() && (entries.size() >= kReferencesKept ||
                                Bytes() + ref->Bytes() > kMaxKeptReferenceBytes)) {
      entries.erase(entries.begin());
    }
    entries.emplace_back(key, std::move(ref));
  }
  size_t Bytes() const {
    size_t bytes = 0;
    for (const auto& entry : entries) bytes += entry.second->Bytes();
    return bytes;
  }
};
KeptReferences& Kept() {
  static KeptReferences* kept = new KeptReferences;  // never destroyed: launches may outlive main
  return *kept;
}
}  // namespace

// glibc's dl_phdr_info::dlpi_subs: the number of shared objects unloaded so far (the same in
// every entry, so the first one answers).
uint64_t UnloadCount() {
  uint64_t subs = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t size, void* data) -> int {
        if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
          *static_cast<uint64_t*>(data) = info->dlpi_subs;
        }
        return 1;
      },
      &subs);
  return subs;
}

size_t ReferencesKept() {
  std::lock_guard<std::mutex> lock(Kept().mu);
  return Kept().entries.size();
}

size_t ReferenceBytesKept() {
  std::lock_guard<std::mutex> lock(Kept().mu);
  return Kept().Bytes();
}

void ForgetKeptReferences() {
  std::lock_guard<std::mutex> lock(Kept().mu);
  Kept().entries.clear();
}

void LaunchSanitizer::Reset(uint32_t flags, uint32_t block_num, const ReferenceKey& key) {
  static std::atomic<uint64_t> launches{0};
  std::lock_guard<std::mutex> lock(mu_);
  serial_ = launches.fetch_add(1, std::memory_order_relaxed) + 1;
  flags_ = flags;
  block_num_ = block_num;
  sub_cores_ = 1;
  if (logs_.size() < block_num) logs_.resize(block_num);
  ran_.assign(block_num, 0);
  // No block of the previous launch runs any more: the reference can be rewritten.
  reuse_ = g_block_reuse.load(std::memory_order_relaxed);
  claimed_.store(false, std::memory_order_relaxed);
  published_.store(false, std::memory_order_relaxed);
  inter_block_flags_.store(false, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> flags_lock(flags_mu_);
    flag_clocks_.clear();
  }
  reference_.Clear();
  // A long block's record is not held by the launching thread for the rest of the process (a
  // kept reference is a copy of it); a small one keeps its capacity, so that small launches
  // allocate nothing.
  constexpr size_t kKeptRecordingBytes = size_t{1} << 20;
  if (reference_.events.capacity() * sizeof(SanitizerEvent) +
          reference_.runs.capacity() * sizeof(reference_.runs[0]) >
      kKeptRecordingBytes) {
    reference_ = SanitizerEvents();
  }
  key_ = key;
  if (reuse_ && key.kernel != nullptr) key_.unloads = UnloadCount();
  inherited_ = reuse_ && key.kernel != nullptr ? Kept().Find(key_) : nullptr;
  inherited_valid_.store(inherited_ != nullptr, std::memory_order_relaxed);
}

void LaunchSanitizer::EndLaunch(bool completed) {
  if (!reuse_ || key_.kernel == nullptr) return;
  if (completed && published_.load(std::memory_order_acquire)) {
    Kept().Put(key_, std::make_shared<const SanitizerEvents>(reference_));
  } else if (inherited_ != nullptr && !inherited_valid_.load(std::memory_order_acquire)) {
    Kept().Put(key_, nullptr);
  }
  inherited_.reset();
  inherited_valid_.store(false, std::memory_order_relaxed);
}

std::string LaunchSanitizer::OtherName(uint32_t index) const {
  return sub_cores_ <= 1 ? Str("block ", index) : CoreName(index);
}

std::string LaunchSanitizer::CoreName(uint32_t index) const {
  if (sub_cores_ <= 1) return Str("block ", index, "/", block_num_);
  return Str("block ", index / sub_cores_, "/", block_num_ / sub_cores_, " AIV", index % sub_cores_);
}

void LaunchSanitizer::FlagTransition(const void* flag, uint32_t block, BlockGmLog& log) {
  if (block >= block_num_) return;
  std::vector<uint32_t> clock =
      log.clocks.empty() ? std::vector<uint32_t>(block_num_, 0) : log.clocks.back();
  clock[block] = log.segment() + 1;  // this block's segments so far all happened before
  {
    std::lock_guard<std::mutex> lock(flags_mu_);
    std::vector<uint32_t>& kept = flag_clocks_[flag];
    kept.resize(block_num_, 0);
    for (uint32_t b = 0; b < block_num_; ++b) clock[b] = std::max(clock[b], kept[b]);
    kept = clock;
  }
  log.clocks.push_back(std::move(clock));
}

void LaunchSanitizer::Join(std::vector<uint32_t>& into, const std::vector<uint32_t>& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t b = 0; b < from.size(); ++b) into[b] = std::max(into[b], from[b]);
}

void LaunchSanitizer::Release(uint32_t block, BlockGmLog& log, std::vector<uint32_t>& into) {
  if (block >= block_num_) return;
  InterBlockFlagsUsed();  // the race search follows the clocks
  std::vector<uint32_t> clock =
      log.clocks.empty() ? std::vector<uint32_t>(block_num_, 0) : log.clocks.back();
  clock[block] = log.segment() + 1;  // this log's segments so far all happened before
  Join(into, clock);
  log.clocks.push_back(std::move(clock));
}

void LaunchSanitizer::Acquire(const std::vector<uint32_t>& from, uint32_t block,
                              BlockGmLog& log) {
  if (block >= block_num_) return;
  InterBlockFlagsUsed();
  std::vector<uint32_t> clock =
      log.clocks.empty() ? std::vector<uint32_t>(block_num_, 0) : log.clocks.back();
  clock[block] = log.segment() + 1;
  Join(clock, from);
  clock.resize(block_num_, 0);
  log.clocks.push_back(std::move(clock));
}

void LaunchSanitizer::AddBlockLog(uint32_t block, BlockGmLog& log) {
  if (block >= block_num_) return;
  log.Canonicalize();
  std::lock_guard<std::mutex> lock(mu_);
  std::swap(logs_[block], log);
  ran_[block] = 1;
  log.Clear();
}

namespace {

// read, write, atomic add / max / min (AtomicOp 1..3), zero fill (kGmZeroFillOp)
constexpr int kKinds = kGmAtomic + kGmZeroFillOp + 1;

bool Conflicts(uint8_t a, uint8_t b) {
  if (a == kGmRead && b == kGmRead) return false;
  if (a >= kGmAtomic && b >= kGmAtomic) return a != b;  // accumulations of one kind commute
  return true;
}

// The union of the lower blocks' intervals of one kind: disjoint, keyed by begin; where blocks
// overlap, the lowest block's interval is kept.
class Union {
 public:
  const GmInterval* FindOverlap(uint64_t begin, uint64_t end) const {
    auto it = map_.upper_bound(begin);
    if (it != map_.begin()) {
      auto prev = std::prev(it);
      if (prev->second.end > begin) return &prev->second;
    }
    if (it != map_.end() && it->second.begin < end) return &it->second;
    return nullptr;
  }
  // Adds the parts of `iv` no lower block covers.
  void Insert(const GmInterval& iv) {
    uint64_t at = iv.begin;
    auto it = map_.upper_bound(iv.begin);
    if (it != map_.begin()) {
      auto prev = std::prev(it);
      if (prev->second.end > at) at = prev->second.end;
    }
    std::vector<GmInterval> gaps;
    for (; it != map_.end() && it->second.begin < iv.end; ++it) {
      if (it->second.begin > at) {
        GmInterval g = iv;
        g.begin = at;
        g.end = it->second.begin;
        gaps.push_back(g);
      }
      at = std::max(at, it->second.end);
    }
    if (at < iv.end) {
      GmInterval g = iv;
      g.begin = at;
      gaps.push_back(g);
    }
    for (const GmInterval& g : gaps) map_[g.begin] = g;
  }

 private:
  std::map<uint64_t, GmInterval> map_;
};

std::string Verb(uint8_t kind, bool present) {
  if (kind == kGmRead) return present ? "reads" : "read";
  if (kind == kGmWrite) return present ? "writes" : "wrote";
  if (kind == kGmAtomic + kGmZeroFillOp) return present ? "fills with zeros" : "filled with zeros";
  const char* op = AtomicOpName(static_cast<AtomicOp>(kind - kGmAtomic));
  return present ? Str("accumulates (SetAtomic", op, ") into")
                 : Str("accumulated into (SetAtomic", op, ")");
}

std::string GmRegion(uint64_t begin, uint64_t end, const GmRange& alloc) {
  const auto base = reinterpret_cast<uint64_t>(alloc.begin);
  const auto size = static_cast<uint64_t>(alloc.end - alloc.begin);
  if (begin < base || end > base + size) return Str("GM [", Hex(begin), ", ", Hex(end), ")");
  return Str("GM bytes [", begin - base, ", ", end - base, ") of the ", size, " B allocation at ",
             Hex(base));
}

}  // namespace

size_t LaunchSanitizer::EpochCount() const {
  size_t epochs = 0;
  for (uint32_t b = 0; b < block_num_; ++b) {
    if (ran_[b]) epochs = std::max(epochs, logs_[b].epochs.size());
  }
  return epochs;
}

LaunchSanitizer::Finding LaunchSanitizer::RaceFinding(const std::string& kernel,
                                                      const GmInterval& hit,
                                                      const GmInterval& other,
                                                      const std::string& unordered) const {
  Finding f;
  f.block = hit.block;
  f.call = hit.call;
  f.message = Str(kernel, ": ", CoreName(hit.block), ": race: ", PipeNameOf(hit.pipe), " ",
                  hit.name, " (call ", hit.call, ") ", Verb(hit.kind, true), " ",
                  GmRegion(std::max(hit.begin, other.begin), std::min(hit.end, other.end),
                           hit.alloc),
                  ", which ", OtherName(other.block), " ", Verb(other.kind, false), " with ",
                  PipeNameOf(other.pipe), " ", other.name, " (call ", other.call, "), ", unordered);
  return f;
}

bool LaunchSanitizer::MayConflict() const {
  const size_t epochs = EpochCount();
  for (size_t e = 0; e < epochs; ++e) {
    extents_.clear();
    for (uint32_t b = 0; b < block_num_; ++b) {
      if (!ran_[b] || logs_[b].epochs.size() <= e) continue;
      for (const GmInterval& iv : logs_[b].epochs[e]) {
        extents_.push_back(Extent{iv.begin, iv.end, b, iv.kind == kGmRead});
      }
    }
    std::sort(extents_.begin(), extents_.end(),
              [](const Extent& a, const Extent& b) { return a.begin < b.begin; });
    // Sorted by start, an interval overlaps an earlier one exactly when it starts before the
    // furthest end so far: of any interval for a read, of writes (and accumulations) only for
    // one. Pairs within one block are counted too (conservative: the exact search sorts them).
    uint64_t any_end = 0, write_end = 0;
    for (const Extent& x : extents_) {
      if (x.begin < (x.read ? write_end : any_end)) return true;
      any_end = std::max(any_end, x.end);
      if (!x.read) write_end = std::max(write_end, x.end);
    }
  }
  return false;
}

std::optional<LaunchSanitizer::Finding> LaunchSanitizer::FindCrossBlockRace(
    const std::string& kernel) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (block_num_ < 2) return std::nullopt;
  // Blocks that keep to their own slices of GM, the usual case, are settled by one sort.
  if (!MayConflict()) return std::nullopt;
  if (inter_block_flags_.load(std::memory_order_relaxed)) return FindUnorderedRace(kernel);
  const size_t epochs = EpochCount();
  std::optional<Finding> best;
  for (size_t e = 0; e < epochs; ++e) {
    Union lower[kKinds];
    for (uint32_t b = 0; b < block_num_; ++b) {
      if (best && b > best->block) break;
      const BlockGmLog* log = ran_[b] ? &logs_[b] : nullptr;
      if (log == nullptr || log->epochs.size() <= e) continue;
      const GmInterval* hit = nullptr;
      const GmInterval* other = nullptr;
      for (const GmInterval& iv : log->epochs[e]) {
        if (hit != nullptr && iv.call >= hit->call) continue;
        for (int k = 0; k < kKinds; ++k) {
          if (!Conflicts(iv.kind, static_cast<uint8_t>(k))) continue;
          if (const GmInterval* o = lower[k].FindOverlap(iv.begin, iv.end)) {
            hit = &iv;
            other = o;
            break;
          }
        }
      }
      if (hit != nullptr) {
        if (!best || b < best->block || (b == best->block && hit->call < best->call)) {
          best = RaceFinding(kernel, *hit, *other,
                             sub_cores_ > 1 ? "with no SyncAll or CrossCoreSetFlag / "
                                              "CrossCoreWaitFlag between them"
                                            : "with no SyncAll between them");
        }
        break;  // later blocks of this epoch can only be attributed higher
      }
      for (const GmInterval& iv : log->epochs[e]) lower[iv.kind].Insert(iv);
    }
  }
  return best;
}

std::optional<LaunchSanitizer::Finding> LaunchSanitizer::FindUnorderedRace(
    const std::string& kernel) const {
  const size_t epochs = EpochCount();
  // The pair reported: the higher block's access first, then the lower block's, by call.
  const GmInterval* best_hit = nullptr;
  const GmInterval* best_other = nullptr;
  const auto better = [&](const GmInterval& hit, const GmInterval& other) {
    if (best_hit == nullptr) return true;
    if (hit.block != best_hit->block) return hit.block < best_hit->block;
    if (hit.call != best_hit->call) return hit.call < best_hit->call;
    if (other.block != best_other->block) return other.block < best_other->block;
    return other.call < best_other->call;
  };
  std::vector<const GmInterval*> all;
  std::vector<const GmInterval*> open;
  for (size_t e = 0; e < epochs; ++e) {
    all.clear();
    for (uint32_t b = 0; b < block_num_; ++b) {
      if (!ran_[b] || logs_[b].epochs.size() <= e) continue;
      for (const GmInterval& iv : logs_[b].epochs[e]) all.push_back(&iv);
    }
    std::sort(all.begin(), all.end(),
              [](const GmInterval* a, const GmInterval* b) { return a->begin < b->begin; });
    // A sweep by start: `open` holds the intervals that may still overlap the next one.
    open.clear();
    for (const GmInterval* x : all) {
      size_t kept = 0;
      for (const GmInterval* y : open) {
        if (y->end <= x->begin) continue;
        open[kept++] = y;
        if (y->block == x->block || !Conflicts(x->kind, y->kind)) continue;
        const GmInterval& hi = x->block > y->block ? *x : *y;
        const GmInterval& lo = x->block > y->block ? *y : *x;
        if (logs_[hi.block].After(hi.segment, lo.block, lo.segment) ||
            logs_[lo.block].After(lo.segment, hi.block, hi.segment)) {
          continue;
        }
        if (better(hi, lo)) {
          best_hit = &hi;
          best_other = &lo;
        }
      }
      open.resize(kept);
      open.push_back(x);
    }
  }
  if (best_hit == nullptr) return std::nullopt;
  // In a mix launch the flags are mostly CrossCoreSetFlag / CrossCoreWaitFlag between the AIVs
  // of a block (mode 1, or mode 2 through their AIC).
  const char* flags = sub_cores_ > 1 ? "CrossCoreSetFlag / CrossCoreWaitFlag or IBSet / IBWait"
                                     : "IBSet / IBWait";
  return RaceFinding(kernel, *best_hit, *best_other,
                     Str("with no SyncAll between them and no ", flags,
                         " chain from one to the other; what would order them: ",
                         OtherName(best_other->block), " setting, after its access, a flag that ",
                         OtherName(best_hit->block),
                         " waits for before its access (directly or through other ",
                         sub_cores_ > 1 ? "sub-cores" : "blocks", "), or the other way round"));
}

}  // namespace ascsim::aicore
