// stub_def.h / stub_fun.h: kernel code that includes only CANN's CPU-debug stub headers (as
// ops-transformer's common_func.h does under __CCE_KT_TEST__) compiles and runs: qualifiers,
// half, bfloat16_t, block_idx and set_flag/wait_flag come from them (they come first, before
// any other ascsim header). kernel_macros.h gives ASSERT as CANN's CPU mode does.
// As a user's kernel sees them: without the define that lets ascsim's own tests include internal
// headers directly.
#undef ASCSIM_INTERNAL_INCLUDE
// clang-format off
#include "stub_def.h"
#include "stub_fun.h"
// clang-format on

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernel_macros.h"
#include "tikicpulib.h"

namespace {

template <typename T>
__aicore__ inline float Scaled(T v, float k) {
  return static_cast<float>(v) * k;
}

// Block b writes (half(b + 0.5) * 3, bfloat16_t(b + 0.25) * 2) at slots 2b, 2b + 1.
extern "C" __global__ __aicore__ void stub_header_kernel(GM_ADDR out) {
  __gm__ float* o = reinterpret_cast<__gm__ float*>(out);
  const int64_t b = block_idx;
  ASSERT(b >= 0);
  half h = static_cast<half>(static_cast<float>(b) + 0.5f);
  bfloat16_t bf = static_cast<bfloat16_t>(static_cast<float>(b) + 0.25f);
  set_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
  o[2 * b] = Scaled(h, 3.0f);
  o[2 * b + 1] = Scaled(bf, 2.0f);
}

}  // namespace

TEST(StubHeaders, KernelWrittenAgainstTheStubHeadersRuns) {
  constexpr int kBlocks = 5;
  auto* out = static_cast<uint8_t*>(AscendC::GmAlloc(2 * kBlocks * sizeof(float)));
  std::memset(out, 0, 2 * kBlocks * sizeof(float));
  ICPU_RUN_KF(stub_header_kernel, kBlocks, out);
  const float* f = reinterpret_cast<const float*>(out);
  for (int b = 0; b < kBlocks; ++b) {
    // b + 0.5 and b + 0.25 are exact in half and bfloat16 for b < 5.
    EXPECT_EQ(f[2 * b], (b + 0.5f) * 3.0f) << b;
    EXPECT_EQ(f[2 * b + 1], (b + 0.25f) * 2.0f) << b;
  }
  AscendC::GmFree(out);
}
