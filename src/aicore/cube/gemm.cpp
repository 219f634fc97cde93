// Picks the MmadCompute variant for this CPU once (the same idea as Highway's dynamic dispatch:
// one binary, the best instruction set the machine has).
#include "aicore/cube/mmad_kernel.h"

namespace ascsim::aicore::cube {
namespace {

using Fn = void (*)(const MmadJob&);

struct Choice {
  Fn fn;
  const char* name;
};

Choice Choose() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c")) {
    return {MmadComputeAvx512, "avx512"};
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
      __builtin_cpu_supports("f16c")) {
    return {MmadComputeAvx2, "avx2"};
  }
  return {MmadComputeBaseline, "baseline"};
}

const Choice& Chosen() {
  static const Choice choice = Choose();
  return choice;
}

}  // namespace

void MmadCompute(const MmadJob& job) { Chosen().fn(job); }
const char* MmadVariant() { return Chosen().name; }

}  // namespace ascsim::aicore::cube
