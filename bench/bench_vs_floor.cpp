// The kernel-time targets of issue #22 measured the same way on both sides: the shipped add and
// GELU against the floor (the same arithmetic as one fused Highway loop, floor_kernels-inl.h),
// call by call in one process, so that both see the same machine at the same moment.
//
//   build/bench/bench_vs_floor [steps [kernel [dtype [n]]]]   (default: 41 add,gelu float16 2^24)
//
// Kernels: add, gelu (the shipped ones) and gelu_strips (bench/strip_bench_kernels.cc: GELU in
// strips of 512 elements, ~50k vector calls per block at 2^24, the sanitizer's long-block case;
// its floor is GELU's).
//
// One step times, in an order that rotates from step to step, one call of each of:
//   floor    the fused loop over the floor's threads (as many as the simulator's workers),
//   default  the simulator's launch with the default settings (sanitizer race,init),
//   off      the same launch with the sanitizer off.
// Same memory policy for all three: the inputs are the same pre-touched device buffers
// (DeviceMalloc, as the Python module's inputs are NumPy arrays used in place), and every output
// is a device buffer that was written before (the floor's is reused; the simulator's comes from
// DeviceMalloc per call, as the Python module's does, which the caching allocator hands back
// without a page fault). Prints the medians of the three times and of the per-step ratios
// default/floor, off/floor and default/off, in wall time (what the targets are about) and in CPU
// time of all the process's threads (the work done: still meaningful when other processes hold
// the cores and the wall times mostly measure the scheduler), plus the load average.
//
// Why not examples/benchmark.py's rounds (a bench_floor process, then seven calls from Python):
// on this shared 2-core machine the load changes between the two halves of a round, and the floor
// process's Google Benchmark mean and our median of single calls are not the same statistic.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench_vs_floor.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "floor_kernels-inl.h"
#include "floor_team.h"

#if HWY_ONCE
#include "ascsim/runtime.h"
#include "kernel_launchers.h"
#include "strip_bench_kernels.h"

namespace floor_kernels {
HWY_EXPORT(AddF16);
HWY_EXPORT(AddF32);
HWY_EXPORT(GeluF16);
HWY_EXPORT(GeluF32);
}  // namespace floor_kernels

namespace {

using ascsim::kernels::ElementType;

struct Buffer {
  Buffer(size_t bytes, uint8_t odd, uint8_t even_mul) : p(ascsim::DeviceMalloc(bytes)) {
    auto* b = static_cast<uint8_t*>(p);
    for (size_t i = 0; i < bytes; ++i) {  // small finite values in both dtypes (as bench_floor)
      b[i] = static_cast<uint8_t>(i % 2 ? odd : i * even_mul);
    }
  }
  ~Buffer() { ascsim::DeviceFree(p); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* p;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Wall and CPU (all threads of the process) seconds of one call.
void Time(const std::function<void()>& f, double* wall, double* cpu) {
  const double cpu_start = CpuSeconds();
  const auto start = std::chrono::steady_clock::now();
  f();
  *wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  *cpu = CpuSeconds() - cpu_start;
}

double Load() {
  double load = -1;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &load) != 1) load = -1;
    std::fclose(f);
  }
  return load;
}

void Compare(const std::string& kernel, ElementType type, size_t n, int steps) {
  const bool half = type == ElementType::kFloat16;
  const size_t bytes = n * (half ? 2 : 4);
  Buffer x(bytes, 0x3c, 7), y(bytes, 0x3b, 13), floor_out(bytes, 0, 0);
  const bool add = kernel == "add";
  const bool strips = kernel == "gelu_strips";
  floor_kernels::Team& team = floor_kernels::Team::Get();

  const std::function<void(unsigned, unsigned)> slice = [&](unsigned t, unsigned k) {
    size_t b, e;
    floor_kernels::Slice(n, t, k, &b, &e);
    if (b >= e) return;
    const size_t es = half ? 2 : 4;
    const auto* xb = static_cast<const uint8_t*>(x.p) + b * es;
    const auto* yb = static_cast<const uint8_t*>(y.p) + b * es;
    auto* zb = static_cast<uint8_t*>(floor_out.p) + b * es;
    if (add && half) HWY_DYNAMIC_DISPATCH(floor_kernels::AddF16)(xb, yb, zb, e - b);
    if (add && !half) HWY_DYNAMIC_DISPATCH(floor_kernels::AddF32)(xb, yb, zb, e - b);
    if (!add && half) HWY_DYNAMIC_DISPATCH(floor_kernels::GeluF16)(xb, zb, e - b);
    if (!add && !half) HWY_DYNAMIC_DISPATCH(floor_kernels::GeluF32)(xb, zb, e - b);
  };
  const uint32_t default_sanitize = ascsim::GetSanitize();
  auto ours = [&](uint32_t sanitize) {
    ascsim::SetSanitize(sanitize);
    void* out = ascsim::DeviceMalloc(bytes);
    if (add) {
      ascsim::kernels::LaunchAddCustom(type, x.p, y.p, out, n, 8, nullptr);
    } else if (strips) {
      strip_bench::LaunchGeluStrips(half, x.p, out, static_cast<uint32_t>(n), 8);
    } else {
      ascsim::kernels::LaunchGeluCustom(type, x.p, out, n, 8, nullptr);
    }
    ascsim::DeviceFree(out);
  };
  const std::function<void()> runs[3] = {
      [&] { team.Run(slice); },
      [&] { ours(default_sanitize); },
      [&] { ours(0); },
  };
  for (int w = 0; w < 3; ++w) {  // warm-up: threads started, output pages touched
    for (const auto& r : runs) r();
  }
  const double load_start = Load();
  // [0] wall, [1] CPU; per run: floor, default, off; ratios default/floor, off/floor, default/off.
  std::vector<double> t[2][3], ratio[2][3];
  for (int s = 0; s < steps; ++s) {
    double step[2][3];
    for (int i = 0; i < 3; ++i) {
      const int which = (s + i) % 3;
      Time(runs[which], &step[0][which], &step[1][which]);
    }
    for (int c = 0; c < 2; ++c) {
      for (int i = 0; i < 3; ++i) t[c][i].push_back(step[c][i]);
      ratio[c][0].push_back(step[c][1] / step[c][0]);
      ratio[c][1].push_back(step[c][2] / step[c][0]);
      ratio[c][2].push_back(step[c][1] / step[c][2]);
    }
  }
  ascsim::SetSanitize(default_sanitize);
  std::printf("%s %s n=%zu, %d steps, threads floor %u / ours %d, load average %.2f -> %.2f\n",
              kernel.c_str(), half ? "float16" : "float32", n, steps, team.size(),
              ascsim::WorkerCount(), load_start, Load());
  for (int c = 0; c < 2; ++c) {
    std::printf(
        "  %-4s floor %7.3f ms  default %7.3f ms  off %7.3f ms | default/floor %.2fx  "
        "off/floor %.2fx  default/off %.3fx\n",
        c == 0 ? "wall" : "cpu", Median(t[c][0]) * 1e3, Median(t[c][1]) * 1e3,
        Median(t[c][2]) * 1e3, Median(ratio[c][0]), Median(ratio[c][1]), Median(ratio[c][2]));
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 41;
  const std::string kernels = argc > 2 ? argv[2] : "add,gelu";
  const std::string dtypes = argc > 3 ? argv[3] : "float16";
  const size_t n = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : size_t{1} << 24;
  if (steps < 1 || n == 0) {
    std::fprintf(stderr, "usage: %s [steps [add,gelu,gelu_strips [float16,float32 [n]]]]\n",
                 argv[0]);
    return 2;
  }
  const std::string list = "," + kernels + ",";
  for (const char* kernel : {"add", "gelu", "gelu_strips"}) {
    if (list.find(std::string(",") + kernel + ",") == std::string::npos) continue;
    for (const char* dtype : {"float16", "float32"}) {
      if (dtypes.find(dtype) == std::string::npos) continue;
      Compare(kernel, std::strcmp(dtype, "float16") == 0 ? ElementType::kFloat16
                                                         : ElementType::kFloat32,
              n, steps);
    }
  }
  return 0;
}
#endif  // HWY_ONCE
