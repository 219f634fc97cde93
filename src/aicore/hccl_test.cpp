// HCCL / MC2 (ascsim/adv/hccl.h, ascsim/aicore/hccl_context.h): the names compile through CANN's
// include paths with the values of asc-devkit's hccl_common.h, and every call is a one-line
// "not simulated" error naming it.
#include "adv_api/hccl/hccl.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/hccl/hccl.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

TEST(Hccl, NamesAndValuesAreCanns) {
  EXPECT_EQ(AscendC::HCCL_GROUP_ID_0, 0u);
  EXPECT_EQ(AscendC::HCCL_MAX_RANK_NUM, 32u);
  EXPECT_EQ(static_cast<int>(AscendC::HCCL_DATA_TYPE_BFP16), 11);
  EXPECT_EQ(static_cast<int>(AscendC::HCCL_DATA_TYPE_FP8E4M3), 15);
  EXPECT_EQ(static_cast<int>(AscendC::HCCL_REDUCE_MIN), 3);
  EXPECT_EQ(static_cast<int>(AscendC::HcclCMDType::HCCL_CMD_HALF_ALLTOALLV), 20);
  EXPECT_EQ(static_cast<int>(AscendC::HCCL_SERVER_TYPE_CCU), 5);
  EXPECT_EQ(sizeof(AscendC::HcclHandle), 1u);
  EXPECT_EQ(sizeof(AscendC::MemDetails), 24u);
  // hccl_msg.h's constants, reachable unqualified as MC2 kernels name them.
  const AscendC::HcclHandle none{INVALID_HANDLE_ID};
  EXPECT_EQ(none, -1);
  EXPECT_EQ(HcclApi::HCCL_MAX_HANDLE_ID, 63);
}

TEST(Hccl, EveryCallIsNotSimulated) {
  CoreFixture fx;
  AscendC::Hccl<AscendC::HCCL_SERVER_TYPE_AICPU> hccl;  // constructing one is fine
  const char* tail =
      ": HCCL / MC2 communication is not simulated (ascsim runs one device and no "
      "AICPU communication server); run MC2 kernels on hardware";
  EXPECT_THAT(ErrorOf([&] { AscendC::GetHcclContext<AscendC::HCCL_GROUP_ID_0>(); }),
              HasSubstr(std::string("GetHcclContext") + tail));
  EXPECT_THAT(ErrorOf([&] { AscendC::SetHcclContext<1>(nullptr); }),
              HasSubstr(std::string("SetHcclContext") + tail));
  EXPECT_THAT(ErrorOf([&] { hccl.Init(nullptr); }), HasSubstr(std::string("Hccl::Init") + tail));
  EXPECT_THAT(ErrorOf([&] {
                hccl.AlltoAllV<true>(nullptr, nullptr, nullptr, AscendC::HCCL_DATA_TYPE_FP16,
                                     nullptr, nullptr, nullptr, AscendC::HCCL_DATA_TYPE_FP16);
              }),
              HasSubstr("Hccl::AlltoAllV: HCCL / MC2 communication is not simulated"));
  EXPECT_THAT(ErrorOf([&] {
                hccl.AllReduce(nullptr, nullptr, 8, AscendC::HCCL_DATA_TYPE_FP32,
                               AscendC::HCCL_REDUCE_SUM);
              }),
              HasSubstr("Hccl::AllReduce: HCCL / MC2"));
  EXPECT_THAT(ErrorOf([&] { hccl.Wait(0); }), HasSubstr("Hccl::Wait: HCCL / MC2"));
  EXPECT_THAT(ErrorOf([&] { hccl.Finalize(); }), HasSubstr("Hccl::Finalize: HCCL / MC2"));
  EXPECT_THAT(ErrorOf([&] { hccl.GetRankId(); }), HasSubstr("Hccl::GetRankId: HCCL / MC2"));
  EXPECT_THAT(ErrorOf([&] { hccl.GetWindowsInAddr(0); }),
              HasSubstr("Hccl::GetWindowsInAddr: HCCL / MC2"));
}

}  // namespace
