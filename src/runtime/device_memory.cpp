// The device memory registry and its caching allocator. Every byte a kernel may touch in GM is
// known here by base and size; lookups are O(log n) under a shared lock, once per SetGlobalBuffer.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <unordered_map>

#include "ascsim/aicore/checks.h"
#include "ascsim/runtime.h"
#include "runtime/device_memory_internal.h"
#include "runtime/fork_safety.h"
#include "runtime/process.h"

namespace ascsim {
namespace {

constexpr size_t kAlignment = 512;              // aclrtMalloc returns well-aligned memory
constexpr size_t kCacheLimit = size_t{2} << 30; // freed bytes kept for reuse at most
// Unregistered bytes after every allocation. A kernel that runs off the end of one buffer
// (x + n, one block too far) must not land at the exact start of the next allocation, where the
// registry would resolve it into that buffer and the overrun would go unreported (and race with
// the blocks that own it). glibc's chunk headers usually separate allocations, but the
// sanitizers' allocators (and others) pack equal sizes back to back.
constexpr size_t kGuardBytes = kAlignment;
// The largest request: half the address space (1 << 62 already fails in aligned_alloc).
constexpr size_t kMaxRequest = SIZE_MAX / 2;

// Rounds a request to its pool size class: powers of two up to 1 MiB, then 1 MiB steps, so a
// repeated request of the same size always hits the cache.
size_t SizeClass(size_t bytes) {
  if (bytes <= kAlignment) return kAlignment;
  if (bytes <= (size_t{1} << 20)) {
    size_t c = kAlignment;
    while (c < bytes) c <<= 1;
    return c;
  }
  return (bytes + (size_t{1} << 20) - 1) & ~((size_t{1} << 20) - 1);
}

struct Entry {
  size_t bytes;      // as requested: the checked extent
  size_t capacity;   // size class actually allocated (0 for external memory)
  bool external;     // registered caller memory: the union of overlapping registrations
};

}  // namespace

namespace runtime {

class DeviceMemory {
 public:
  void LockAll() {
    cache_mu_.lock();
    mu_.lock();
  }
  void UnlockAll() {
    mu_.unlock();
    cache_mu_.unlock();
  }
  // In a fork child the locks taken by LockAll are re-made, not unlocked: glibc's rwlock knows
  // its writer by thread id, which differs in the child, so unlocking there corrupts it.
  void ReinitLocksInChild() {
    new (&mu_) std::shared_mutex;
    new (&cache_mu_) std::mutex;
  }

  void* Allocate(size_t bytes) {
    if (bytes == 0) bytes = 1;
    // Above this the size class plus the guard bytes would wrap around SIZE_MAX (a 512 B block
    // registered as 2^64 - 1 B); no host can give that much anyway.
    if (bytes > kMaxRequest) {
      throw OutOfDeviceMemory("device memory exhausted: cannot allocate " + std::to_string(bytes) +
                              " B");
    }
    const size_t capacity = SizeClass(bytes);
    void* p = nullptr;
    {
      std::lock_guard<std::mutex> lock(cache_mu_);
      auto it = cache_.find(capacity);
      if (it != cache_.end()) {
        p = it->second;
        cache_.erase(it);
        cached_bytes_ -= capacity;
      }
    }
    if (p == nullptr) {
      p = std::aligned_alloc(kAlignment, capacity + kGuardBytes);
      if (p == nullptr) {
        throw OutOfDeviceMemory("device memory exhausted: cannot allocate " +
                                std::to_string(bytes) + " B");
      }
    }
    std::unique_lock<std::shared_mutex> lock(mu_);
    entries_[reinterpret_cast<uintptr_t>(p)] = Entry{bytes, capacity, false};
    in_use_ += capacity;
    peak_ = std::max(peak_, in_use_);
    return p;
  }

  void Free(void* p) {
    if (p == nullptr) return;
    size_t capacity;
    {
      std::unique_lock<std::shared_mutex> lock(mu_);
      auto it = entries_.find(reinterpret_cast<uintptr_t>(p));
      if (it == entries_.end() || it->second.external) {
        throw InvalidArgument("free of " + aicore::Hex(reinterpret_cast<uintptr_t>(p)) +
                              ": not the start of a device allocation (double free?)");
      }
      capacity = it->second.capacity;
      entries_.erase(it);
      in_use_ -= capacity;
    }
    std::lock_guard<std::mutex> lock(cache_mu_);
    if (cached_bytes_ + capacity <= kCacheLimit) {
      cache_.emplace(capacity, p);
      cached_bytes_ += capacity;
    } else {
      std::free(p);
    }
  }

  // Caller memory becomes device memory. Registrations of overlapping ranges (views of one NumPy
  // buffer: x[0:1000] and x[500:2000], or the same array in two queued launches) are kept as
  // one entry covering their union, so a lookup from any of them finds a range holding all of
  // it; each registration is counted, so dropping one keeps the rest. Returns false (nothing
  // registered) when the range overlaps a DeviceMalloc allocation, which already covers it.
  bool Register(const void* p, size_t bytes) {
    std::unique_lock<std::shared_mutex> lock(mu_);
    const auto key = reinterpret_cast<uintptr_t>(p);
    uintptr_t begin = key, end = key + bytes;
    auto first = entries_.lower_bound(key);
    if (first != entries_.begin()) {
      auto prev = std::prev(first);
      if (prev->first + prev->second.bytes > key) first = prev;
    }
    auto last = first;
    for (; last != entries_.end() && (last->first < key + bytes || last->first == key); ++last) {
      if (!last->second.external) return false;  // already device memory (or part of it)
      begin = std::min(begin, last->first);
      end = std::max(end, last->first + last->second.bytes);
    }
    entries_.erase(first, last);
    entries_[begin] = Entry{end - begin, 0, true};
    ++external_parts_[{key, bytes}];
    return true;
  }

  void Unregister(const void* p, size_t bytes) {
    std::unique_lock<std::shared_mutex> lock(mu_);
    const auto key = reinterpret_cast<uintptr_t>(p);
    auto part = external_parts_.find({key, bytes});
    if (part == external_parts_.end()) return;
    if (--part->second > 0) return;
    external_parts_.erase(part);
    // Rebuild the union entry that held this range from the registrations still inside it.
    auto it = entries_.upper_bound(key);
    if (it == entries_.begin()) return;
    --it;
    if (!it->second.external) return;
    const uintptr_t union_begin = it->first, union_end = it->first + it->second.bytes;
    entries_.erase(it);
    bool open = false;
    uintptr_t group_begin = 0, group_end = 0;
    for (auto q = external_parts_.lower_bound({union_begin, 0});
         q != external_parts_.end() && (q->first.first < union_end || q->first.first == union_begin);
         ++q) {
      const uintptr_t b = q->first.first, e = b + q->first.second;
      if (open && (b < group_end || b == group_begin)) {
        group_end = std::max(group_end, e);
        continue;
      }
      if (open) entries_[group_begin] = Entry{group_end - group_begin, 0, true};
      open = true;
      group_begin = b;
      group_end = e;
    }
    if (open) entries_[group_begin] = Entry{group_end - group_begin, 0, true};
  }

  bool Find(const void* p, GmRange* out) const {
    std::shared_lock<std::shared_mutex> lock(mu_);
    const auto key = reinterpret_cast<uintptr_t>(p);
    auto it = entries_.upper_bound(key);
    if (it == entries_.begin()) return false;
    --it;
    if (key > it->first + it->second.bytes) return false;  // one past the end still resolves
    if (out) {
      out->begin = reinterpret_cast<const uint8_t*>(it->first);
      out->end = out->begin + it->second.bytes;
    }
    return true;
  }

  size_t SizeAt(const void* p) const {
    std::shared_lock<std::shared_mutex> lock(mu_);
    auto it = entries_.find(reinterpret_cast<uintptr_t>(p));
    return it == entries_.end() ? 0 : it->second.bytes;
  }

  MemoryStats Stats() const {
    MemoryStats s;
    {
      std::shared_lock<std::shared_mutex> lock(mu_);
      s.in_use_bytes = in_use_;
      s.peak_bytes = peak_;
      for (const auto& [k, e] : entries_) s.allocations += !e.external;
    }
    std::lock_guard<std::mutex> lock(cache_mu_);
    s.cached_bytes = cached_bytes_;
    return s;
  }

  void ReleaseCache() {
    std::lock_guard<std::mutex> lock(cache_mu_);
    for (auto& [size, p] : cache_) std::free(p);
    cache_.clear();
    cached_bytes_ = 0;
  }

 private:
  mutable std::shared_mutex mu_;
  std::map<uintptr_t, Entry> entries_;
  // External registrations by (begin, bytes), with their count of live ExternalMemory handles.
  std::map<std::pair<uintptr_t, size_t>, uint32_t> external_parts_;
  size_t in_use_ = 0, peak_ = 0;
  mutable std::mutex cache_mu_;
  std::multimap<size_t, void*> cache_;
  size_t cached_bytes_ = 0;
};

DeviceMemory* NewDeviceMemory() {
  auto* r = new DeviceMemory;  // never destroyed: launches may outlive statics
  // The registry survives fork() (the child's memory is a copy): hold its locks across fork so
  // the child never inherits one held by a thread it does not have.
  AddForkHandlers([r] { r->LockAll(); }, [r] { r->UnlockAll(); }, [r] { r->ReinitLocksInChild(); });
  return r;
}

}  // namespace runtime

namespace {
runtime::DeviceMemory& Registry() { return runtime::Process::Get().memory(); }
}  // namespace

void* DeviceMalloc(size_t bytes) { return Registry().Allocate(bytes); }
void DeviceFree(void* ptr) { Registry().Free(ptr); }
bool IsDeviceMemory(const void* ptr) { return Registry().Find(ptr, nullptr); }
size_t DeviceAllocationSize(const void* ptr) { return Registry().SizeAt(ptr); }
MemoryStats GetMemoryStats() { return Registry().Stats(); }
void ReleaseCachedMemory() { Registry().ReleaseCache(); }

ExternalMemory::ExternalMemory(const void* ptr, size_t bytes)
    : ptr_(ptr), bytes_(bytes), registered_(ptr != nullptr && Registry().Register(ptr, bytes)) {}
ExternalMemory::~ExternalMemory() {
  if (registered_) Registry().Unregister(ptr_, bytes_);
}

namespace runtime {
bool FindDeviceMemory(const void* p, GmRange* out) { return Registry().Find(p, out); }
}  // namespace runtime

}  // namespace ascsim
