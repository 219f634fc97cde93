// set_flag / wait_flag, block_idx / block_num, tik2 and ParamOffset (cce_intrinsics.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

// A 2023-style kernel (tik2, ParamOffset): each block scales its own `len` elements by 3.
template <typename T>
__aicore__ void Tik2Triple(GM_ADDR x, GM_ADDR z, int32_t len) {
  using namespace tik2;
  GlobalTensor<T> xGm;
  GlobalTensor<T> zGm;
  xGm.SetGlobalBuffer((__gm__ T*)ParamOffset<T>(x, len), len);
  zGm.SetGlobalBuffer((__gm__ T*)ParamOffset<T>(z, len), len);
  for (int32_t i = 0; i < len; ++i)
    zGm.SetValue(i, static_cast<T>(static_cast<float>(xGm.GetValue(i)) * 3.0f));
}
extern "C" __global__ __aicore__ void tik2_triple_half(GM_ADDR x, GM_ADDR z, int32_t len) {
  Tik2Triple<half>(x, z, len);
}
extern "C" __global__ __aicore__ void tik2_triple_float(GM_ADDR x, GM_ADDR z, int32_t len) {
  Tik2Triple<float>(x, z, len);
}

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

// The scalar intrinsics min / max on int64_t, called unqualified as kernels do: mixed signed and
// unsigned operands meet in int64_t; a kernel's own min in its namespace still wins lookup.
namespace kernel_ns {
inline int32_t min(int32_t, int32_t) { return -7; }
inline int64_t Use(int32_t a, int32_t b) { return min(a, b); }
}  // namespace kernel_ns

TEST(CceIntrinsics, ScalarMinMax) {
  const int blocks = 9;
  const uint32_t size = 1000;
  EXPECT_EQ(min(blocks * 120, size), 1000);
  EXPECT_EQ(min(blocks * 100, size), 900);
  EXPECT_EQ(max(-5, 3u), 3);
  EXPECT_EQ(max(int64_t{-5}, int64_t{-9}), -5);
  EXPECT_EQ(min(int64_t{1} << 40, int64_t{-1}), -1);
  EXPECT_EQ(max(int64_t{1} << 40, 7), int64_t{1} << 40);
  EXPECT_EQ(kernel_ns::Use(1, 2), -7);
}

TEST(CceIntrinsics, FlagsBlockIdxAndTik2) {
  CoreFixture fx;
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
  EXPECT_EQ(ErrorOf([] { wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1); }),
            "test: block 0/1: WaitFlag<V_MTE3>(EVENT_ID1) has no matching SetFlag; the device "
            "would hang until the AI-core timeout (507014)");
  EXPECT_NE(ErrorOf([] {
              set_flag(PIPE_S, PIPE_M, EVENT_ID0);
            }).find("set_flag(pipe 0, pipe 2): no hardware event links these pipes"),
            std::string::npos);
  const int64_t b = block_idx;
  EXPECT_EQ(b, 0);
  EXPECT_EQ(int64_t(block_num), 1);
  EXPECT_EQ(100 * block_idx, 0);
  tik2::LocalTensor<float> t = fx.Take<float>(8);
  tik2::Duplicate(t, 2.0f, 8);
  EXPECT_EQ(t.GetValue(7), 2.0f);
}

TEST(CceIntrinsics, GetParaBaseIsNotSimulated) {
  CoreFixture fx;
  EXPECT_THAT(ErrorOf([] { (void)get_para_base(); }),
              HasSubstr("get_para_base: the kernel's parameter area (argument words and inline "
                        "tiling, laid out by CANN's op compiler) is not simulated"));
}

template <typename T, typename Kernel>
void CheckParamOffset(Kernel kernel) {
  constexpr int32_t kBlocks = 5, kLen = 37;  // odd: the offsets are not block-aligned
  auto* x = static_cast<T*>(AscendC::GmAlloc(kBlocks * kLen * sizeof(T)));
  auto* z = static_cast<T*>(AscendC::GmAlloc(kBlocks * kLen * sizeof(T)));
  for (int32_t i = 0; i < kBlocks * kLen; ++i)
    x[i] = static_cast<T>(static_cast<float>(i % 41) - 20.0f);
  ICPU_RUN_KF(kernel, kBlocks, (GM_ADDR)x, (GM_ADDR)z, kLen);
  for (int32_t i = 0; i < kBlocks * kLen; ++i) {
    ASSERT_EQ(static_cast<float>(z[i]),
              static_cast<float>(static_cast<T>(static_cast<float>(x[i]) * 3.0f)))
        << i;
  }
  AscendC::GmFree(x);
  AscendC::GmFree(z);
}

TEST(CceIntrinsics, ParamOffsetIsTheBlocksSliceOfGm) {
  CheckParamOffset<half>(tik2_triple_half);
  CheckParamOffset<float>(tik2_triple_float);
}

TEST(CceIntrinsics, ParamOffsetArithmeticAndNegativeLength) {
  CoreFixture fx;  // block 0 of 1
  alignas(32) static uint8_t buf[64];
  EXPECT_EQ(tik2::ParamOffset<float>(buf, 16), buf);  // block 0: the address itself
  EXPECT_EQ(ErrorOf([] { (void)AscendC::ParamOffset<half>(buf, -3); }),
            "test: block 0/1: ParamOffset: the per-core length is -3, which must not be negative");
}

}  // namespace
