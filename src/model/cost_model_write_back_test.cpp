// Write-backs: the share of a launch's cacheable writes that push a dirty line out of L2 grows
// with the launch's cacheable traffic beyond L2 (cost_model.cpp WriteBackShare): none when the
// traffic fits, the excess when it is less than the written bytes, every write when it is more.
// A write that bypasses L2 always reaches HBM.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/cost_model_test_traces.h"

namespace {

using cost_model_test::Estimate;
using cost_model_test::GmRead;
using cost_model_test::GmWrite;

constexpr uint32_t kKb = 1024;

// One core reads 256 KB and writes 256 KB (each in 64 KB copies, distinct lines), with
// `written_bypass` 64 KB of the writes going around L2, on an A2 whose L2 holds `l2_kb`.
ascsim::LaunchEstimate ReadThenWrite(uint64_t l2_kb, uint32_t written_bypass_kb = 0) {
  ascsim::SocProfile soc = ascsim::FindSocProfile("Ascend910B1");
  soc.l2_bytes = l2_kb * kKb;
  ascsim::trace::CoreTrace t;
  for (uint32_t i = 0; i < 4; ++i) {
    t.calls.push_back(GmRead(0x100000 + i * 64 * kKb, 1, 64 * kKb, 64 * kKb));
  }
  for (uint32_t i = 0; i < 4; ++i) {
    const bool bypass = i * 64 < written_bypass_kb;
    t.calls.push_back(GmWrite(0x800000 + i * 64 * kKb, 64 * kKb, bypass));
  }
  return Estimate({t}, soc);
}

TEST(CostModelWriteBack, TheShareOfWritesThatPushLinesOutGrowsWithTheExcessOverL2) {
  // 512 KB of traffic through 1 MB of L2: nothing leaves.
  const ascsim::LaunchEstimate fits = ReadThenWrite(1024);
  EXPECT_FALSE(fits.memory.l2_thrashing);
  EXPECT_EQ(fits.memory.write_back_bytes, 0u);
  // Through 384 KB: 128 KB leaves, half the written bytes.
  const ascsim::LaunchEstimate half = ReadThenWrite(384);
  EXPECT_TRUE(half.memory.l2_thrashing);
  EXPECT_EQ(half.memory.write_back_bytes, 128u * kKb);
  // Through 128 KB: 384 KB leaves, more than was written: every write.
  const ascsim::LaunchEstimate all = ReadThenWrite(128);
  EXPECT_EQ(all.memory.write_back_bytes, 256u * kKb);
  // prof.explain() says how many of the writes push lines out.
  EXPECT_NE(ascsim::ExplainEstimate(half).find("50% of the writes push a dirty line out"),
            std::string::npos)
      << ascsim::ExplainEstimate(half);
  EXPECT_NE(ascsim::ExplainEstimate(all).find("every write pushes a dirty line out"),
            std::string::npos);
  // HBM carries the write-backs: more of them, more HBM time.
  EXPECT_LT(fits.memory.hbm_busy_us, half.memory.hbm_busy_us);
  EXPECT_LT(half.memory.hbm_busy_us, all.memory.hbm_busy_us);
}

TEST(CostModelWriteBack, AWriteAroundL2AlwaysReachesHbm) {
  // 64 KB of the writes bypass L2: they reach HBM however much L2 holds, and they are not
  // cacheable traffic (448 KB through 1 MB: the cacheable writes stay).
  const ascsim::LaunchEstimate fits = ReadThenWrite(1024, 64);
  EXPECT_EQ(fits.memory.write_back_bytes, 64u * kKb);
  // 448 KB through 384 KB: 64 KB of the 192 KB of cacheable writes leave as well (a third of
  // each 64 KB write, counted in whole bytes).
  const ascsim::LaunchEstimate over = ReadThenWrite(384, 64);
  EXPECT_NEAR(static_cast<double>(over.memory.write_back_bytes), 128.0 * kKb, 3);
}

}  // namespace
