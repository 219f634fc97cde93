// The floor: what this machine does for the same arithmetic written as one fused Highway loop
// over all hardware threads, over pre-touched memory. ascsim's kernels are compared with it.
//   add:  z[i] = x[i] + y[i] (half through float via F16C, rounded once; or float)
//   gelu: y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) in float, on half or float input,
//         computed as the shipped kernel does: x / (1 + exp(-2 sqrt(2/pi) x (1 + 0.044715 x^2)))
// Threads: std::thread per hardware thread, started once; each run hands every thread one
// contiguous slice and waits on a barrier (the same fork/join a launch does, minus the checks).
#include <benchmark/benchmark.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench_floor.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/aligned_allocator.h"
#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace floor_kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class DF>
HWY_INLINE hn::Vec<DF> LoadF(DF df, const float* p) { return hn::LoadU(df, p); }
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF(DF df, const hwy::float16_t* p) {
  return hn::PromoteTo(df, hn::LoadU(hn::Rebind<hwy::float16_t, DF>(), p));
}
template <class DF>
HWY_INLINE void StoreF(DF df, hn::Vec<DF> v, float* p) { hn::StoreU(v, df, p); }
template <class DF>
HWY_INLINE void StoreF(DF, hn::Vec<DF> v, hwy::float16_t* p) {
  const hn::Rebind<hwy::float16_t, DF> dh;
  hn::StoreU(hn::DemoteTo(dh, v), dh, p);
}

// The same arithmetic as kernel/gelu_custom.cpp: 0.5 (1 + tanh(u)) = 1 / (1 + exp(-2u)), so
// y = x / (1 + exp(-2 sqrt(2/pi) x (1 + 0.044715 x^2))): one Exp and one Div per element.
template <class D, class V>
HWY_INLINE V Gelu(D d, V x) {
  const V k = hn::Set(d, -1.5957691216057308f);  // -2 sqrt(2 / pi)
  const V u = hn::Mul(hn::Mul(k, x), hn::MulAdd(hn::Set(d, 0.044715f), hn::Mul(x, x), hn::Set(d, 1.0f)));
  return hn::Div(x, hn::Add(hn::Set(d, 1.0f), hn::Exp(d, u)));
}

template <class T>
void AddT(const void* x, const void* y, void* z, size_t n) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  const T* a = static_cast<const T*>(x);
  const T* b = static_cast<const T*>(y);
  T* c = static_cast<T*>(z);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) StoreF(df, hn::Add(LoadF(df, a + i), LoadF(df, b + i)), c + i);
  const hn::CappedTag<float, 1> d1;
  for (; i < n; ++i) StoreF(d1, hn::Add(LoadF(d1, a + i), LoadF(d1, b + i)), c + i);
}

template <class T>
void GeluT(const void* x, void* y, size_t n) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  const T* a = static_cast<const T*>(x);
  T* c = static_cast<T*>(y);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) StoreF(df, Gelu(df, LoadF(df, a + i)), c + i);
  const hn::CappedTag<float, 1> d1;
  for (; i < n; ++i) StoreF(d1, Gelu(d1, LoadF(d1, a + i)), c + i);
}

void AddF16(const void* x, const void* y, void* z, size_t n) { AddT<hwy::float16_t>(x, y, z, n); }
void AddF32(const void* x, const void* y, void* z, size_t n) { AddT<float>(x, y, z, n); }
void GeluF16(const void* x, void* y, size_t n) { GeluT<hwy::float16_t>(x, y, n); }
void GeluF32(const void* x, void* y, size_t n) { GeluT<float>(x, y, n); }

}  // namespace HWY_NAMESPACE
}  // namespace floor_kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace floor_kernels {
HWY_EXPORT(AddF16);
HWY_EXPORT(AddF32);
HWY_EXPORT(GeluF16);
HWY_EXPORT(GeluF32);

// Persistent threads; Run(f) calls f(t, threads) on every thread (the caller is thread 0).
class Team {
 public:
  static Team& Get() {
    // ASCSIM_WORKERS, as for the simulator's pool, overrides the thread count (for A/B runs).
    static Team* team = [] {
      unsigned n = std::thread::hardware_concurrency();
      if (const char* env = std::getenv("ASCSIM_WORKERS")) n = static_cast<unsigned>(std::atoi(env));
      return new Team(std::max(1u, n));
    }();
    return *team;
  }
  explicit Team(unsigned n) : n_(n) {
    for (unsigned t = 1; t < n; ++t) threads_.emplace_back([this, t] { Loop(t); });
  }
  unsigned size() const { return n_; }
  void Run(const std::function<void(unsigned, unsigned)>& f) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      job_ = &f;
      pending_ = n_ - 1;
      ++generation_;
    }
    cv_.notify_all();
    f(0, n_);
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [&] { return pending_ == 0; });
  }

 private:
  void Loop(unsigned t) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      const auto* job = job_;
      lock.unlock();
      (*job)(t, n_);
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }
  unsigned n_;
  std::mutex mu_;
  std::condition_variable cv_, done_;
  const std::function<void(unsigned, unsigned)>* job_ = nullptr;
  unsigned pending_ = 0;
  uint64_t generation_ = 0;
  std::vector<std::thread> threads_;
};

// Slice [begin, end) of n for thread t of k, in whole 64-element chunks.
void Slice(size_t n, unsigned t, unsigned k, size_t* begin, size_t* end) {
  const size_t chunks = (n + 63) / 64;
  *begin = std::min(n, chunks * t / k * 64);
  *end = std::min(n, chunks * (t + 1) / k * 64);
}

struct Buffers {  // pre-touched: written once before timing
  explicit Buffers(size_t bytes)
      : x(hwy::AllocateAligned<uint8_t>(bytes)),
        y(hwy::AllocateAligned<uint8_t>(bytes)),
        z(hwy::AllocateAligned<uint8_t>(bytes)) {
    for (size_t i = 0; i < bytes; ++i) {  // small finite values in both dtypes
      x[i] = static_cast<uint8_t>(i % 2 ? 0x3c : i * 7);
      y[i] = static_cast<uint8_t>(i % 2 ? 0x3b : i * 13);
    }
    std::memset(z.get(), 0, bytes);
  }
  hwy::AlignedFreeUniquePtr<uint8_t[]> x, y, z;
};

// Times `slice(buf, begin, end, element_size)` run by every thread of the team on its slice
// of n elements; `arrays` is how many n-element arrays one run streams (for bytes/s).
template <class SliceFn>
void RunFloor(benchmark::State& state, size_t element_size, size_t arrays, SliceFn slice) {
  const size_t n = static_cast<size_t>(state.range(0));
  Buffers buf(n * element_size);
  const std::function<void(unsigned, unsigned)> job = [&](unsigned t, unsigned k) {
    size_t b, e;
    Slice(n, t, k, &b, &e);
    if (b < e) slice(buf, b, e, element_size);
  };
  for (auto _ : state) {
    Team::Get().Run(job);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * element_size * arrays);
  state.counters["threads"] = Team::Get().size();
}

template <bool kHalf>
void BM_FloorAdd(benchmark::State& state) {
  RunFloor(state, kHalf ? 2 : 4, 3, [](Buffers& buf, size_t b, size_t e, size_t es) {
    const void* x = buf.x.get() + b * es;
    const void* y = buf.y.get() + b * es;
    void* z = buf.z.get() + b * es;
    if (kHalf) {
      HWY_DYNAMIC_DISPATCH(AddF16)(x, y, z, e - b);
    } else {
      HWY_DYNAMIC_DISPATCH(AddF32)(x, y, z, e - b);
    }
  });
}

template <bool kHalf>
void BM_FloorGelu(benchmark::State& state) {
  RunFloor(state, kHalf ? 2 : 4, 2, [](Buffers& buf, size_t b, size_t e, size_t es) {
    if (kHalf) {
      HWY_DYNAMIC_DISPATCH(GeluF16)(buf.x.get() + b * es, buf.z.get() + b * es, e - b);
    } else {
      HWY_DYNAMIC_DISPATCH(GeluF32)(buf.x.get() + b * es, buf.z.get() + b * es, e - b);
    }
  });
}

// 2^10 .. 2^26 in steps of 4x, plus the 2^24 headline size.
void Sizes(benchmark::internal::Benchmark* b) {
  for (int p = 10; p <= 26; p += 2) b->Arg(int64_t{1} << p);
  b->UseRealTime();
}

BENCHMARK_TEMPLATE(BM_FloorAdd, true)->Name("floor/add/float16")->Apply(Sizes);
BENCHMARK_TEMPLATE(BM_FloorAdd, false)->Name("floor/add/float32")->Apply(Sizes);
BENCHMARK_TEMPLATE(BM_FloorGelu, true)->Name("floor/gelu/float16")->Apply(Sizes);
BENCHMARK_TEMPLATE(BM_FloorGelu, false)->Name("floor/gelu/float32")->Apply(Sizes);

}  // namespace floor_kernels

BENCHMARK_MAIN();
#endif  // HWY_ONCE
