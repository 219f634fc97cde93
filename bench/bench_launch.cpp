// Launch latency: an empty kernel (the runtime's fixed cost: launch bookkeeping, worker wake-up
// and join) and add_custom on [8, 2048] half (the small-tensor path the Python module takes).
#include <benchmark/benchmark.h>

#include <cstring>

#include "ascsim/runtime.h"
#include "kernel_launchers.h"

namespace {

void BM_EmptyLaunch(benchmark::State& state) {
  const uint32_t block_dim = static_cast<uint32_t>(state.range(0));
  for (auto _ : state) ascsim::Launch("empty", block_dim, [] {});
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void BM_SmallAdd(benchmark::State& state) {
  const size_t n = 8 * 2048;
  const uint32_t block_dim = static_cast<uint32_t>(state.range(0));
  const bool alloc = state.range(1) != 0;
  void* x = ascsim::DeviceMalloc(n * 2);
  void* y = ascsim::DeviceMalloc(n * 2);
  void* z = ascsim::DeviceMalloc(n * 2);
  std::memset(x, 0x3c, n * 2);
  std::memset(y, 0x3b, n * 2);
  for (auto _ : state) {
    void* out = alloc ? ascsim::DeviceMalloc(n * 2) : z;
    ascsim::kernels::LaunchAddCustom(ascsim::kernels::ElementType::kFloat16, x, y, out, n,
                                     block_dim, nullptr);
    benchmark::ClobberMemory();
    if (alloc) ascsim::DeviceFree(out);
  }
  ascsim::DeviceFree(x);
  ascsim::DeviceFree(y);
  ascsim::DeviceFree(z);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

BENCHMARK(BM_EmptyLaunch)->Name("launch/empty")->ArgName("block_dim")->Arg(1)->Arg(8)->Arg(48)->UseRealTime();
BENCHMARK(BM_SmallAdd)->Name("launch/add_8x2048_float16")->ArgNames({"block_dim", "alloc"})
    ->Args({8, 0})->Args({8, 1})->Args({1, 1})->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
