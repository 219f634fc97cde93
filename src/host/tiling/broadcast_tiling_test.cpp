// GetBroadCastMaxMinTmpSize against the rules of tiling/broadcast_tiling.h, worked by hand per
// case (asc-devkit impl/adv_api/tiling/pad/broadcast_tiling.cpp), and every refusal.
#include "tiling/broadcast_tiling.h"

#include <gtest/gtest.h>

#include <string>

#include "tiling/platform/platform_ascendc.h"

namespace {

using platform_ascendc::PlatformAscendCManager;

struct Sizes {
  uint32_t max = 12345, min = 6789;  // sentinels: a refused call leaves them alone
};

Sizes Call(const char* soc, ge::Shape src, ge::Shape dst, uint32_t typeSize, bool reuse = false) {
  Sizes s;
  AscendC::GetBroadCastMaxMinTmpSize(*PlatformAscendCManager::GetInstance(soc), src, dst, typeSize,
                                     reuse, s.max, s.min);
  return s;
}

TEST(BroadcastTiling, LastAxisOnA2IsBrcbScratchPlusAnUnalignedCopy) {
  // fp16 [5,1] -> [5,32]: rows of whole blocks; min one 16x16 Brcb block, max 8 rows (5 rounded
  // up to 8) of one block.
  Sizes s = Call("Ascend910B1", {5, 1}, {5, 32}, 2);
  EXPECT_EQ(s.min, 16u * 16 * 2);
  EXPECT_EQ(s.max, 8u * 16 * 2);
  // fp32 [13,1] -> [13,10]: 10 columns round up to 16; min adds 8 rows of them, max all 13.
  s = Call("Ascend910B1", {13, 1}, {13, 10}, 4);
  EXPECT_EQ(s.min, 8u * 8 * 4 + 8u * 16 * 4);
  EXPECT_EQ(s.max, 16u * 8 * 4 + 13u * 16 * 4);
  // The 20-core A2 has the same rule.
  s = Call("Ascend910B3", {13, 1}, {13, 10}, 4);
  EXPECT_EQ(s.min, 8u * 8 * 4 + 8u * 16 * 4);
}

TEST(BroadcastTiling, EightBitTypesAddTheWideningCopy) {
  // int8 [3,1] -> [3,20]: widened to 16 bits in copies of 16 (3) and 64 (60) elements; then the
  // fp16 rule with 20 columns rounded up to 32.
  const uint32_t widen = (16 + 64) * 2;
  Sizes s = Call("Ascend910B1", {3, 1}, {3, 20}, 1);
  EXPECT_EQ(s.min, 16u * 16 * 2 + 16u * 32 * 2 + widen);
  EXPECT_EQ(s.max, 8u * 16 * 2 + 3u * 32 * 2 + widen);
  // One value duplicated: the widening copy and one block; other types need nothing.
  s = Call("Ascend910B1", {1, 1}, {4, 32}, 1);
  EXPECT_EQ(s.min, (16u + 128) * 2 + 32);
  EXPECT_EQ(s.max, s.min);
  s = Call("Ascend910B1", {1}, {100}, 4);
  EXPECT_EQ(s.min, 0u);
  EXPECT_EQ(s.max, 0u);
  s = Call("Ascend910B1", {4, 8}, {4, 8}, 2);
  EXPECT_EQ(s.min, 0u);
  EXPECT_EQ(s.max, 0u);
}

TEST(BroadcastTiling, FirstAxisNeedsOneBlockAndWholeBlockRows) {
  Sizes s = Call("Ascend910B1", {1, 32}, {7, 32}, 2);
  EXPECT_EQ(s.min, 32u);
  EXPECT_EQ(s.max, 32u);
  s = Call("Ascend910B1", {1, 64}, {3, 64}, 1);  // int8: 64 + 192 elements widened
  EXPECT_EQ(s.min, 32u + (64 + 192) * 2);
  testing::internal::CaptureStderr();
  s = Call("Ascend910B1", {1, 20}, {7, 20}, 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("dim 1 is not a whole number of 32-byte"),
            std::string::npos);
  EXPECT_EQ(s.max, 12345u);
  EXPECT_EQ(s.min, 6789u);
}

TEST(BroadcastTiling, The310PRuleScalesWithTheDestination) {
  // fp16 [32,1] -> [32,20]: one block, plus 16 x ceil(20/8) elements (min) or the whole
  // destination (max).
  Sizes s = Call("Ascend310P3", {32, 1}, {32, 20}, 2);
  EXPECT_EQ(s.min, 32u + 16u * 3 * 2);
  EXPECT_EQ(s.max, 32u + 32u * 20 * 2);
  testing::internal::CaptureStderr();
  s = Call("Ascend310P3", {12, 1}, {12, 20}, 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("dim 0 is not a whole number"),
            std::string::npos);
  EXPECT_EQ(s.min, 6789u);
}

TEST(BroadcastTiling, RefusedShapesLeaveTheSizesAndSayWhy) {
  struct Case {
    ge::Shape src, dst;
    uint32_t typeSize;
    const char* why;
  } cases[] = {
      {{1, 1, 1}, {2, 2, 2}, 2, "dstShape has 3 dims; only 1 or 2"},
      {{1}, {4, 8}, 2, "srcShape has 1 dims, dstShape 2"},
      {{4, 1}, {4, 8}, 0, "typeSize must be greater than 0"},
      {{3, 2}, {4, 2}, 2, "srcShape dim 0 is 3, which does not broadcast to 4"},
      {{0, 1}, {0, 8}, 2, "srcShape has no elements"},
  };
  for (const Case& c : cases) {
    testing::internal::CaptureStderr();
    const Sizes s = Call("Ascend910B1", c.src, c.dst, c.typeSize);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(c.why), std::string::npos) << err;
    EXPECT_NE(err.find("[Broadcast][GetBroadCastMaxMinTmpSize]"), std::string::npos);
    EXPECT_EQ(s.max, 12345u);
    EXPECT_EQ(s.min, 6789u);
  }
}

TEST(BroadcastTiling, OddTypeSizesAndReuseAreWarnedButComputed) {
  testing::internal::CaptureStderr();
  const Sizes s = Call("Ascend910B1", {4, 8}, {4, 8}, 8, /*reuse=*/true);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("typeSize is 8, should be 1, 2 or 4"), std::string::npos);
  EXPECT_NE(err.find("isReuseSource is true"), std::string::npos);
  EXPECT_EQ(s.max, 0u);
}

}  // namespace
