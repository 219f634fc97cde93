// What the sanitizer costs: the shipped add and GELU at 2^24, GELU in 512-element strips at 2^24
// (long blocks: bench/strip_bench_kernels.cc) and the example kernels, each timed with the
// sanitizer off, with the default checks (race,init) and with all of them, in
// alternating rounds of one run (so machine noise hits every mode alike). Prints, per workload,
// the median time per launch of each mode and the median of the per-round ratios to "off".
//
//   build/bench/bench_sanitizer [rounds [name-filter]]      (default: 9 rounds, every workload)
//
// Wall time is what a user waits; CPU time (all threads of the process) is what the checks cost
// and stays meaningful on a loaded machine. Both are reported.
//
// The rule (README, "Sanitizer"): race and init are on by default only if their ratio is
// at most 1.3x on add and GELU at 2^24.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ascsim/kernel_launcher.h"
#include "ascsim/runtime.h"
#include "kernel_launchers.h"
#include "strip_bench_kernels.h"

// The example kernels (examples/*/..._custom.cpp, built into this program).
extern "C" void leaky_relu_custom(uint8_t* x, uint8_t* y, uint32_t totalLength, float alpha);
extern "C" void softmax_custom(uint8_t* x, uint8_t* y, uint32_t rows, uint32_t cols);
extern "C" void strided_copy_custom(uint8_t* x, uint8_t* y, uint32_t rows, uint32_t cols,
                                    uint32_t colStart, uint32_t width);
extern "C" void center_custom(uint8_t* x, uint8_t* y, uint8_t* total, uint8_t* workspace,
                              uint32_t totalLength);

namespace {

using ascsim::kernels::ElementType;

struct Buffer {
  explicit Buffer(size_t bytes) : p(ascsim::DeviceMalloc(bytes)) {
    // Small finite values in every dtype (half 0x3c3c ~ 1.06, float ~0.0115).
    std::memset(p, 0x3c, bytes);
  }
  ~Buffer() { ascsim::DeviceFree(p); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* p;
};

struct Workload {
  std::string name;
  int launches_per_sample;    // small kernels: time several launches per sample
  std::function<void()> run;  // one launch
};

double CpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
  const std::string filter = argc > 2 ? argv[2] : "";
  constexpr size_t kN = size_t{1} << 24;
  constexpr uint32_t kBlocks = 8;

  Buffer x(kN * 4), y(kN * 4), z(kN * 4);
  std::vector<Workload> workloads;
  for (ElementType t : {ElementType::kFloat16, ElementType::kFloat32}) {
    const char* tn = t == ElementType::kFloat16 ? "float16" : "float32";
    workloads.push_back({std::string("add/") + tn + "/2^24", 1, [&, t] {
                           ascsim::kernels::LaunchAddCustom(t, x.p, y.p, z.p, kN, kBlocks, nullptr);
                         }});
    workloads.push_back({std::string("gelu/") + tn + "/2^24", 1, [&, t] {
                           ascsim::kernels::LaunchGeluCustom(t, x.p, z.p, kN, kBlocks, nullptr);
                         }});
  }
  auto gm = [](void* p) { return static_cast<uint8_t*>(p); };
  workloads.push_back({"gelu_strips/float16/2^24", 1, [&] {
                         strip_bench::LaunchGeluStrips(true, x.p, z.p, static_cast<uint32_t>(kN),
                                                       kBlocks);
                       }});
  // The examples, at the sizes their programs use (examples/*/main.cpp).
  workloads.push_back({"example leaky_relu [32768] x8", 20, [&] {
                         ascsim::MakeKernelLauncher("leaky_relu_custom", &leaky_relu_custom)
                             .Run(8, nullptr, gm(x.p), gm(z.p), 32768u, 0.01f);
                       }});
  workloads.push_back({"example softmax [60, 1000] x8", 20, [&] {
                         ascsim::MakeKernelLauncher("softmax_custom", &softmax_custom)
                             .Run(8, nullptr, gm(x.p), gm(z.p), 60u, 1000u);
                       }});
  workloads.push_back({"example strided_copy [100, 200] x4", 20, [&] {
                         ascsim::MakeKernelLauncher("strided_copy_custom", &strided_copy_custom)
                             .Run(4, nullptr, gm(x.p), gm(z.p), 100u, 200u, 24u, 13u);
                       }});
  Buffer total(64), workspace(48 * 32);
  workloads.push_back({"example sync_all [49152] x48", 5, [&] {
                         ascsim::MakeKernelLauncher("center_custom", &center_custom)
                             .Run(48, nullptr, gm(x.p), gm(z.p), gm(total.p), gm(workspace.p),
                                  48u * 1024u);
                       }});

  const uint32_t kModes[] = {0, ascsim::kSanitizeRace | ascsim::kSanitizeInit,
                             ascsim::kSanitizeAll};
  ascsim::ScopedSettings saved;
  ascsim::SetWarningSink([](const std::string&) {});  // redundant-barrier notes etc.

  std::printf(
      "sanitizer overhead, %d alternating rounds, %d workers: median ms per launch (wall, "
      "and CPU of all threads); ratios are medians of the per-round ratios to off\n",
      rounds, ascsim::WorkerCount());
  std::printf("%-36s %9s %9s %9s %8s %8s | %9s %9s %9s %8s %8s\n", "workload", "off", "race,init",
              "all", "r,i/off", "all/off", "cpu off", "cpu r,i", "cpu all", "r,i/off", "all/off");
  for (const Workload& w : workloads) {
    if (w.name.find(filter) == std::string::npos) continue;
    std::vector<double> ms[3], ratio[3], cpu[3], cpu_ratio[3];
    for (int mode = 0; mode < 3; ++mode) {  // warm-up: allocator, pages, pool threads
      ascsim::SetSanitize(kModes[mode]);
      w.run();
    }
    for (int r = 0; r < rounds; ++r) {
      double t[3], c[3];
      for (int k = 0; k < 3; ++k) {
        const int mode = (r + k) % 3;  // rotate the order too
        ascsim::SetSanitize(kModes[mode]);
        const double cpu0 = CpuMs();
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < w.launches_per_sample; ++i) w.run();
        t[mode] =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count() /
            w.launches_per_sample;
        c[mode] = (CpuMs() - cpu0) / w.launches_per_sample;
      }
      for (int mode = 0; mode < 3; ++mode) {
        ms[mode].push_back(t[mode]);
        ratio[mode].push_back(t[mode] / t[0]);
        cpu[mode].push_back(c[mode]);
        cpu_ratio[mode].push_back(c[mode] / c[0]);
      }
    }
    std::printf("%-36s %9.3f %9.3f %9.3f %7.2fx %7.2fx | %9.3f %9.3f %9.3f %7.2fx %7.2fx\n",
                w.name.c_str(), Median(ms[0]), Median(ms[1]), Median(ms[2]), Median(ratio[1]),
                Median(ratio[2]), Median(cpu[0]), Median(cpu[1]), Median(cpu[2]),
                Median(cpu_ratio[1]), Median(cpu_ratio[2]));
    std::fflush(stdout);
  }
  return 0;
}
