// set_flag / wait_flag, block_idx / block_num and tik2 (cce_intrinsics.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

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

}  // namespace
