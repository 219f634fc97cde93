// Scalar work an API records (trace::ScalarWorkCall): its cycles hold pipe S; blocking work
// also holds the issue of every later call, work beside the pipes does not.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ascsim/profile.h"
#include "ascsim/soc.h"
#include "ascsim/trace.h"
#include "model/cost_model_test_traces.h"

namespace {

using ascsim::trace::ApiCall;

// A one-block launch on Ascend910B1: `cycles` of scalar work, then an Add of 1850 repeats.
ascsim::LaunchEstimate WorkThenAdd(uint32_t cycles, bool blocking) {
  ApiCall add{};
  add.name = "Add";
  add.kind = ascsim::trace::CallKind::kVector;
  add.pipe = ascsim::trace::Pipe::kV;
  add.vector_class = ascsim::trace::VectorClass::kSimple;
  add.dtype_bytes = 2;
  add.elements = 128 * 1850;
  add.bytes = add.elements * 2;
  std::vector<ascsim::trace::CoreTrace> traces(1);
  traces[0].calls = {ascsim::trace::ScalarWorkCall("Work", cycles, blocking), add};
  return cost_model_test::Estimate(traces);
}

TEST(CostModelScalarWork, HoldsPipeSForItsCycles) {
  const double clock = ascsim::FindSocProfile("Ascend910B1").clock_ghz;
  for (bool blocking : {false, true}) {
    const ascsim::LaunchEstimate e = WorkThenAdd(3700, blocking);
    ASSERT_EQ(e.cores.size(), 1u);
    EXPECT_NEAR(e.cores[0].busy_us.at("S"), 3700 / (clock * 1e3), 1e-9) << blocking;
  }
}

TEST(CostModelScalarWork, OnlyBlockingWorkDelaysWhatFollows) {
  const double clock = ascsim::FindSocProfile("Ascend910B1").clock_ghz;
  const double work_us = 3700 / (clock * 1e3);  // 2 us
  const ascsim::LaunchEstimate beside = WorkThenAdd(3700, false);
  const ascsim::LaunchEstimate blocking = WorkThenAdd(3700, true);
  const double add_us = beside.cores[0].busy_us.at("V");
  ASSERT_GT(add_us, 0.9);
  // Beside the pipes: the Add runs meanwhile, the core ends with the longer of the two.
  EXPECT_NEAR(beside.cores[0].end_us, std::max(work_us, add_us), 0.05);
  // Blocking: the Add is issued after the work.
  EXPECT_NEAR(blocking.cores[0].end_us, work_us + add_us, 0.05);
}

TEST(CostModelScalarWork, AnAccessWithoutWorkCyclesCostsTheProfilesAccessTime) {
  const ascsim::SocProfile& soc = ascsim::FindSocProfile("Ascend910B1");
  ApiCall access = ascsim::trace::ScalarCall("GetValue", 4, false, true, ascsim::trace::kNoBuffer);
  EXPECT_EQ(access.work_cycles, 0u);
  std::vector<ascsim::trace::CoreTrace> traces(1);
  traces[0].calls = {access};
  const ascsim::LaunchEstimate e = cost_model_test::Estimate(traces, soc);
  EXPECT_NEAR(e.cores[0].busy_us.at("S"), soc.scalar_gm_cycles / (soc.clock_ghz * 1e3), 1e-9);
}

}  // namespace
