// The device memory registry and its caching allocator. Every byte a kernel may touch in GM is
// known here by base and size; lookups are O(log n) under a shared lock, once per SetGlobalBuffer.
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "aicore/checks.h"
#include "ascsim/runtime.h"
#include "runtime/device_memory_internal.h"

namespace ascsim {
namespace {

constexpr size_t kAlignment = 512;              // aclrtMalloc returns well-aligned memory
constexpr size_t kCacheLimit = size_t{2} << 30; // freed bytes kept for reuse at most

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
  bool external;
  uint32_t refs = 1;  // external memory: live ExternalMemory handles for this exact range
};

class Registry {
 public:
  static Registry& Get() {
    static Registry* registry = new Registry;  // never destroyed: launches may outlive statics
    return *registry;
  }

  void* Allocate(size_t bytes) {
    if (bytes == 0) bytes = 1;
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
      p = std::aligned_alloc(kAlignment, capacity);
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

  bool Register(const void* p, size_t bytes) {
    std::unique_lock<std::shared_mutex> lock(mu_);
    const auto key = reinterpret_cast<uintptr_t>(p);
    // The same range registered again (one array passed to two queued launches): count it, so
    // the first handle to go does not unregister memory the other launch still uses.
    auto same = entries_.find(key);
    if (same != entries_.end() && same->second.external && same->second.bytes == bytes) {
      ++same->second.refs;
      return true;
    }
    if (Overlaps(key, bytes)) return false;  // already device memory (or part of it)
    entries_[key] = Entry{bytes, 0, true};
    return true;
  }

  void Unregister(const void* p) {
    std::unique_lock<std::shared_mutex> lock(mu_);
    auto it = entries_.find(reinterpret_cast<uintptr_t>(p));
    if (it != entries_.end() && it->second.external && --it->second.refs == 0) entries_.erase(it);
  }

  bool Find(const void* p, aicore::GmRange* out) const {
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
  bool Overlaps(uintptr_t key, size_t bytes) const {
    auto it = entries_.lower_bound(key);
    if (it != entries_.end() && it->first < key + bytes) return true;
    if (it != entries_.begin()) {
      --it;
      if (it->first + it->second.bytes > key) return true;
    }
    return false;
  }

  mutable std::shared_mutex mu_;
  std::map<uintptr_t, Entry> entries_;
  size_t in_use_ = 0, peak_ = 0;
  mutable std::mutex cache_mu_;
  std::multimap<size_t, void*> cache_;
  size_t cached_bytes_ = 0;
};

}  // namespace

void* DeviceMalloc(size_t bytes) { return Registry::Get().Allocate(bytes); }
void DeviceFree(void* ptr) { Registry::Get().Free(ptr); }
bool IsDeviceMemory(const void* ptr) { return Registry::Get().Find(ptr, nullptr); }
size_t DeviceAllocationSize(const void* ptr) { return Registry::Get().SizeAt(ptr); }
MemoryStats GetMemoryStats() { return Registry::Get().Stats(); }
void ReleaseCachedMemory() { Registry::Get().ReleaseCache(); }

ExternalMemory::ExternalMemory(const void* ptr, size_t bytes)
    : ptr_(ptr), registered_(ptr != nullptr && Registry::Get().Register(ptr, bytes)) {}
ExternalMemory::~ExternalMemory() {
  if (registered_) Registry::Get().Unregister(ptr_);
}

namespace runtime {
bool FindDeviceMemory(const void* p, aicore::GmRange* out) { return Registry::Get().Find(p, out); }
}  // namespace runtime

}  // namespace ascsim
