// The cube's GM -> L1 copies (ND2NZ) pay SocProfile::cube_hit_row_ns per row that L2 serves,
// none for the rows it misses (docs/calibration.md, "Matmul").
#include <gtest/gtest.h>

#include <vector>

#include "ascsim/profile.h"
#include "ascsim/soc.h"
#include "ascsim/trace.h"
#include "model/cost_model_test_traces.h"

namespace {

using ascsim::trace::ApiCall;

constexpr uint64_t kBase = 0x20000000;
constexpr uint32_t kRowBytes = 128;  // a 64-half row of K, as base K 64 reads it
constexpr uint32_t kPitch = 8192;    // the GM row length of K = 4096 halves
constexpr uint32_t kCopies = 16;

// One core copying kCopies tiles of `rows` rows into L1 as ND2NZ gathers, `passes` times over
// the same GM: the first pass misses L2, the others hit.
ascsim::LaunchEstimate Gathers(const ascsim::SocProfile& soc, uint32_t rows, int passes) {
  std::vector<ascsim::trace::CoreTrace> traces(1);
  for (int pass = 0; pass < passes; ++pass) {
    for (uint32_t i = 0; i < kCopies; ++i) {
      ApiCall copy =
          cost_model_test::GmRead(kBase + uint64_t{i} * rows * kPitch, rows, kRowBytes, kPitch);
      copy.on_gm = true;  // GM -> L1, the cube's gather
      traces[0].calls.push_back(copy);
    }
  }
  return cost_model_test::Estimate(traces, soc);
}

TEST(CostModelCubeHitRows, EachHitRowCostsTheFigure) {
  const ascsim::SocProfile& a2 = ascsim::FindSocProfile("Ascend910B1");
  ASSERT_GT(a2.cube_hit_row_ns, 0);
  ascsim::SocProfile none = a2;
  none.cube_hit_row_ns = 0;
  for (uint32_t rows : {1u, 64u, 127u}) {
    const ascsim::LaunchEstimate with = Gathers(a2, rows, 3);
    const ascsim::LaunchEstimate without = Gathers(none, rows, 3);
    const double hit_rows = 2.0 * kCopies * rows;
    ASSERT_NEAR(static_cast<double>(with.memory.l2_hit_bytes), hit_rows * kRowBytes, 1.0) << rows;
    // One core, one MTE2 pipe in order: the rows' time adds up.
    EXPECT_NEAR(with.estimated_us - without.estimated_us, hit_rows * a2.cube_hit_row_ns * 1e-3,
                1e-6)
        << rows;
  }
}

TEST(CostModelCubeHitRows, MissesDoNotPayIt) {
  const ascsim::SocProfile& a2 = ascsim::FindSocProfile("Ascend910B1");
  ascsim::SocProfile none = a2;
  none.cube_hit_row_ns = 0;
  const ascsim::LaunchEstimate with = Gathers(a2, 64, 1);
  EXPECT_EQ(with.memory.l2_hit_bytes, 0u);
  EXPECT_DOUBLE_EQ(with.estimated_us, Gathers(none, 64, 1).estimated_us);
}

}  // namespace
