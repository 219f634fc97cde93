// The fixed workloads of the instruction-count guard (bench/callgrind_guard.py): each runs once to
// warm up (first-launch probe, per-thread arenas, the caching allocator, lazily made services),
// then `repeats` more times inside ascsim_guard_measure, the one function callgrind counts
// (--toggle-collect). Inputs are fixed; run with ASCSIM_WORKERS=1 so no helper thread takes part.
//
//   callgrind_workloads <launch_small | add_2e20 | gelu_2e20 | gelu_strips_2e21> [repeats]
//
// gelu_strips_2e21: bench/strip_bench_kernels.cc (GELU in strips of 512 elements) on 2^21
// float16 in one block, ~100k sanitizer events: a block longer than the 2^16 events the
// sanitizer's reference once held. The measured launch follows the reference the warm-up launch
// kept; checking such a block in full again (the cliff of issue #22's long blocks) costs ~2x the
// instructions and fails the guard.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ascsim/runtime.h"
#include "kernel_launchers.h"
#include "strip_bench_kernels.h"

namespace {

using ascsim::kernels::ElementType;

enum class Kernel { kAdd, kGelu, kGeluStrips };

struct Workload {
  const char* name;
  size_t elements;
  Kernel kernel;
  uint32_t blocks;
};

constexpr Workload kWorkloads[] = {
    {"launch_small", 8 * 2048, Kernel::kAdd, 8},  // the seed's [8, 2048] float16 add
    {"add_2e20", size_t{1} << 20, Kernel::kAdd, 8},
    {"gelu_2e20", size_t{1} << 20, Kernel::kGelu, 8},
    {"gelu_strips_2e21", size_t{1} << 21, Kernel::kGeluStrips, 1},
};

void FillHalf(void* p, size_t n, uint32_t seed) {
  // Values in about [-4, 4), away from inf/NaN: a fixed pseudo-random pattern.
  auto* h = static_cast<uint16_t*>(p);
  uint32_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    h[i] = static_cast<uint16_t>(0x3800u + ((s >> 16) & 0x07FFu)) | ((s & 0x100u) << 7);
  }
}

void RunOnce(const Workload& w, void* x, void* y, void* z) {
  switch (w.kernel) {
    case Kernel::kGelu:
      ascsim::kernels::LaunchGeluCustom(ElementType::kFloat16, x, z, w.elements, w.blocks,
                                        nullptr);
      break;
    case Kernel::kGeluStrips:
      strip_bench::LaunchGeluStrips(true, x, z, static_cast<uint32_t>(w.elements), w.blocks);
      break;
    default:
      ascsim::kernels::LaunchAddCustom(ElementType::kFloat16, x, y, z, w.elements, w.blocks,
                                       nullptr);
      break;
  }
}

}  // namespace

// Counted by callgrind; not inlined so that the symbol exists.
extern "C" __attribute__((noinline)) void ascsim_guard_measure(const Workload* w, int repeats,
                                                               void* x, void* y, void* z) {
  for (int i = 0; i < repeats; ++i) RunOnce(*w, x, y, z);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s <launch_small|add_2e20|gelu_2e20|gelu_strips_2e21> [repeats]\n",
                 argv[0]);
    return 2;
  }
  const Workload* w = nullptr;
  for (const Workload& candidate : kWorkloads) {
    if (std::strcmp(candidate.name, argv[1]) == 0) w = &candidate;
  }
  if (w == nullptr) {
    std::fprintf(stderr, "unknown workload %s\n", argv[1]);
    return 2;
  }
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 1;
  const size_t bytes = w->elements * 2;
  void* x = ascsim::DeviceMalloc(bytes);
  void* y = ascsim::DeviceMalloc(bytes);
  void* z = ascsim::DeviceMalloc(bytes);
  FillHalf(x, w->elements, 1);
  FillHalf(y, w->elements, 2);
  try {
    RunOnce(*w, x, y, z);  // warm-up, not counted
    ascsim_guard_measure(w, repeats, x, y, z);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s failed: %s\n", w->name, e.what());
    return 1;
  }
  ascsim::DeviceFree(x);
  ascsim::DeviceFree(y);
  ascsim::DeviceFree(z);
  return 0;
}
