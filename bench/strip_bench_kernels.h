// The long-block GELU of bench/strip_bench_kernels.cc and its launch, for the programs that
// measure it (bench_vs_floor, bench_sanitizer, callgrind_workloads).
#pragma once

#include <cstdint>

#include "ascsim/kernel_launcher.h"

extern "C" void gelu_strips_custom(uint8_t* x, uint8_t* y, uint32_t totalLength);
extern "C" void gelu_strips_custom_float(uint8_t* x, uint8_t* y, uint32_t totalLength);

namespace strip_bench {

// y = GELU(x) for n elements of half (or float) on `blocks` blocks, synchronously.
inline void LaunchGeluStrips(bool half, void* x, void* y, uint32_t n, uint32_t blocks) {
  auto* gx = static_cast<uint8_t*>(x);
  auto* gy = static_cast<uint8_t*>(y);
  if (half) {
    ascsim::MakeKernelLauncher("gelu_strips_custom", &gelu_strips_custom)
        .Run(blocks, nullptr, gx, gy, n);
  } else {
    ascsim::MakeKernelLauncher("gelu_strips_custom_float", &gelu_strips_custom_float)
        .Run(blocks, nullptr, gx, gy, n);
  }
}

}  // namespace strip_bench
