// The shipped matmul_custom kernel (Matmul API, fp16 in, fp32 accumulate and out) on the
// simulated grid, through ascsim::kernels::LaunchMatmulCustom with every AIC of the profile:
// host tiling, the mix launch (AIC servers, AIV clients) and the cube path per block. Sizes
// M = N = K = 256..2048; bench/matmul_vs_numpy.py compares 1024^3 with np.matmul in float32.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "ascsim/half.h"
#include "ascsim/runtime.h"
#include "kernel_launchers.h"

namespace {

struct DeviceBuffer {
  explicit DeviceBuffer(size_t bytes) : p(ascsim::DeviceMalloc(bytes)) { std::memset(p, 0, bytes); }
  ~DeviceBuffer() { ascsim::DeviceFree(p); }
  void* p;
};

void FillHalf(void* p, size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  half* h = static_cast<half*>(p);
  for (size_t i = 0; i < n; ++i) h[i] = half(dist(rng));
}

// args: M = N = K, out (0: float, 1: half)
void BM_MatmulCustom(benchmark::State& state) {
  const uint32_t s = static_cast<uint32_t>(state.range(0));
  const auto out = state.range(1) == 0 ? ascsim::kernels::ElementType::kFloat32
                                       : ascsim::kernels::ElementType::kFloat16;
  const size_t n = size_t{s} * s;
  DeviceBuffer a(n * 2), b(n * 2), c(n * 4);
  FillHalf(a.p, n, 1);
  FillHalf(b.p, n, 2);
  for (auto _ : state) {
    ascsim::kernels::LaunchMatmulCustom(out, a.p, b.p, nullptr, c.p, s, s, s, 0, nullptr);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * s * s * s * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MatmulCustom)
    ->ArgsProduct({{256, 512, 1024, 2048}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
