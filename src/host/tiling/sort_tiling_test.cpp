// GetSortTmpSize / GetConcatTmpSize (tiling/sort_tiling.h) against asc-devkit's
// impl/adv_api/tiling/sort/sort_tiling_impl.cpp: the (score, index) pair sizes on arch 2201, the
// region-proposal sizes on 2002, and CANN's messages for bad arguments.
#include "tiling/sort_tiling.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "ascsim/soc.h"

namespace {

using ::testing::HasSubstr;

TEST(SortTiling, TmpSizesPerArchAndType) {
  platform_ascendc::PlatformAscendC a2(&ascsim::FindSocProfile("Ascend910B1"));
  platform_ascendc::PlatformAscendC p310(&ascsim::FindSocProfile("Ascend310P3"));
  // A2: a float pair is 8 B = 2 floats, a half pair 8 B = 4 halves.
  EXPECT_EQ(AscendC::GetSortTmpSize(a2, 100, 2), 100u * 4 * 2);
  EXPECT_EQ(AscendC::GetSortTmpSize(a2, 77, 4), 77u * 2 * 4);
  EXPECT_EQ(AscendC::GetConcatTmpSize(a2, 128, 2), 0u);
  // 310P: a region proposal is 8 elements.
  EXPECT_EQ(AscendC::GetSortTmpSize(p310, 100, 2), 100u * 8 * 2);
  EXPECT_EQ(AscendC::GetSortTmpSize(p310, 33, 4), 33u * 8 * 4);
  EXPECT_EQ(AscendC::GetConcatTmpSize(p310, 128, 2), 128u * 8 * 2);
}

TEST(SortTiling, BadArgumentsAreReportedOnStderr) {
  platform_ascendc::PlatformAscendC a2(&ascsim::FindSocProfile("Ascend910B1"));
  testing::internal::CaptureStderr();
  EXPECT_EQ(AscendC::GetSortTmpSize(a2, 0, 2), 0u);
  AscendC::GetSortTmpSize(a2, 10, 8);
  AscendC::GetConcatTmpSize(a2, 200000, 4);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, HasSubstr("[Sort][GetSortTmpSize] The elemCount must be greater than 0."));
  EXPECT_THAT(err, HasSubstr("[Sort][GetSortTmpSize] Type size 8 is unsupported!"));
  EXPECT_THAT(err, HasSubstr("[Sort][GetConcatTmpSize] The size of srcShape is 800000B, should be "
                             "less than UB size."));
}

}  // namespace
