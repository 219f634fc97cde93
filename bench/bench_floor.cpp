// The floor: what this machine does for the same arithmetic written as one fused Highway loop
// over all hardware threads, over pre-touched memory. ascsim's kernels are compared with it.
//   add:  z[i] = x[i] + y[i] (half through float via F16C, rounded once; or float)
//   gelu: y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) in float, on half or float input,
//         computed as the shipped kernel does: x / (1 + exp(-2 sqrt(2/pi) x (1 + 0.044715 x^2)))
// Threads: floor_team.h. The loops: floor_kernels-inl.h (bench_vs_floor.cpp times the same ones
// call by call against the simulator's kernels).
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

#include "floor_kernels-inl.h"
#include "floor_team.h"

#if HWY_ONCE
namespace floor_kernels {
HWY_EXPORT(AddF16);
HWY_EXPORT(AddF32);
HWY_EXPORT(GeluF16);
HWY_EXPORT(GeluF32);

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
