// The full add_custom / gelu_custom kernels on the simulated grid, as the Python module runs
// them: inputs in device memory (pre-touched), output either preallocated ("kernel") or
// allocated per call through DeviceMalloc/DeviceFree ("alloc", the Python path, where the
// caching allocator hands back the same block). Sizes 2^10..2^26 and block_dim 1..192.
#include <benchmark/benchmark.h>

#include <cstring>

#include "ascsim/runtime.h"
#include "kernel_launchers.h"

namespace {
using ascsim::kernels::ElementType;

size_t ElemSize(ElementType t) { return t == ElementType::kFloat16 ? 2 : 4; }

struct DeviceBuffer {
  explicit DeviceBuffer(size_t bytes, uint8_t fill) : p(ascsim::DeviceMalloc(bytes)) {
    // Small finite values in both dtypes (half 0x3c3c ~ 1.06, float ~0.0115).
    std::memset(p, fill, bytes);
  }
  ~DeviceBuffer() { ascsim::DeviceFree(p); }
  void* p;
};

// args: n, block_dim, alloc_output (0/1)
template <ElementType kType>
void BM_Add(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const uint32_t block_dim = static_cast<uint32_t>(state.range(1));
  const bool alloc = state.range(2) != 0;
  const size_t bytes = n * ElemSize(kType);
  DeviceBuffer x(bytes, 0x3c), y(bytes, 0x3b), z(bytes, 0);
  for (auto _ : state) {
    void* out = alloc ? ascsim::DeviceMalloc(bytes) : z.p;
    ascsim::kernels::LaunchAddCustom(kType, x.p, y.p, out, n, block_dim, nullptr);
    benchmark::ClobberMemory();
    if (alloc) ascsim::DeviceFree(out);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes * 3));
}

template <ElementType kType>
void BM_Gelu(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const uint32_t block_dim = static_cast<uint32_t>(state.range(1));
  const bool alloc = state.range(2) != 0;
  const size_t bytes = n * ElemSize(kType);
  DeviceBuffer x(bytes, 0x3c), y(bytes, 0);
  for (auto _ : state) {
    void* out = alloc ? ascsim::DeviceMalloc(bytes) : y.p;
    ascsim::kernels::LaunchGeluCustom(kType, x.p, out, n, block_dim, nullptr);
    benchmark::ClobberMemory();
    if (alloc) ascsim::DeviceFree(out);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes * 2));
}

void Headline(benchmark::internal::Benchmark* b) {
  b->ArgNames({"n", "block_dim", "alloc"});
  b->Args({1 << 24, 8, 0})->Args({1 << 24, 8, 1});
  b->UseRealTime();
}
void SizeSweep(benchmark::internal::Benchmark* b) {
  b->ArgNames({"n", "block_dim", "alloc"});
  for (int p = 10; p <= 26; p += 2) b->Args({int64_t{1} << p, 8, 1});
  b->UseRealTime();
}
void BlockSweep(benchmark::internal::Benchmark* b) {
  b->ArgNames({"n", "block_dim", "alloc"});
  for (int bd : {1, 2, 4, 8, 16, 24, 48, 96, 192}) b->Args({1 << 24, bd, 1});
  b->UseRealTime();
}

BENCHMARK_TEMPLATE(BM_Add, ElementType::kFloat16)->Name("add/float16")->Apply(Headline);
BENCHMARK_TEMPLATE(BM_Add, ElementType::kFloat32)->Name("add/float32")->Apply(Headline);
BENCHMARK_TEMPLATE(BM_Gelu, ElementType::kFloat16)->Name("gelu/float16")->Apply(Headline);
BENCHMARK_TEMPLATE(BM_Gelu, ElementType::kFloat32)->Name("gelu/float32")->Apply(Headline);
BENCHMARK_TEMPLATE(BM_Add, ElementType::kFloat16)->Name("sweep_n/add/float16")->Apply(SizeSweep);
BENCHMARK_TEMPLATE(BM_Gelu, ElementType::kFloat16)->Name("sweep_n/gelu/float16")->Apply(SizeSweep);
BENCHMARK_TEMPLATE(BM_Add, ElementType::kFloat16)->Name("sweep_block_dim/add/float16")->Apply(BlockSweep);
BENCHMARK_TEMPLATE(BM_Gelu, ElementType::kFloat16)->Name("sweep_block_dim/gelu/float16")->Apply(BlockSweep);

}  // namespace

BENCHMARK_MAIN();
