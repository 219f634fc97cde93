// A kernel UT's own HCCL stub in place of the HCCL header (ascsim/adv/hccl.h): ops-transformer's
// mc2/common/inc/hccl_stub.h defines LIB_HCCL_HCCL_H, the include guard of asc-devkit's
// include/adv_api/hccl/hccl.h, and its own AscendC::HCCL_GROUP_ID_0 / HcclHandle, and is included
// before kernel_operator.h; CANN's header then drops out, and so must ascsim's. This file is its
// own translation unit so that the stub's names stay out of the other tests.
#define LIB_HCCL_HCCL_H
#include <cstdint>

namespace AscendC {
// Values unlike hccl_common.h's (HCCL_GROUP_ID_0 is 0, HcclHandle int8_t there), so that the test
// tells which definition it sees; a second definition would not compile.
constexpr uint32_t HCCL_GROUP_ID_0 = 7;
using HcclHandle = int32_t;
}  // namespace AscendC

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/hccl/hccl.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

TEST(HcclStubGuard, TheStubsNamesWin) {
  EXPECT_EQ(AscendC::HCCL_GROUP_ID_0, 7u);
  EXPECT_EQ(sizeof(AscendC::HcclHandle), sizeof(int32_t));
}

// GetHcclContext is basic API (asc-devkit kernel_common.h), outside the HCCL header's guard: it
// stays, and still fails as not simulated.
TEST(HcclStubGuard, GetHcclContextStaysAndIsNotSimulated) {
  CoreFixture fx;
  EXPECT_THAT(ErrorOf([&] { AscendC::GetHcclContext<0>(); }),
              HasSubstr("GetHcclContext: HCCL / MC2 communication is not simulated"));
}

// The rest of the kernel API is untouched by the stub.
TEST(HcclStubGuard, KernelApiStillThere) {
  CoreFixture fx;
  AscendC::LocalTensor<float> t = fx.Take<float>(24);
  for (uint32_t i = 0; i < 24; ++i) t.SetValue(i, -1.0f);
  AscendC::Duplicate(t, 1.5f, 17);
  for (uint32_t i = 0; i < 24; ++i) EXPECT_EQ(t.GetValue(i), i < 17 ? 1.5f : -1.0f) << i;
}

}  // namespace
