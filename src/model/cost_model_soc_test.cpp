// The cost model is a function of the launch record alone: the SoC it estimates for is the
// record's, and a record without one gets the default profile, whatever the process's settings.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "ascsim/profile.h"
#include "ascsim/runtime.h"
#include "ascsim/soc.h"
#include "ascsim/trace.h"

namespace {

ascsim::LaunchRecord EmptyRecord(const ascsim::SocProfile* soc) {
  ascsim::LaunchRecord record;
  record.kernel = "k";
  record.block_dim = 1;
  record.soc = soc;
  record.traces = std::make_shared<const std::vector<ascsim::trace::CoreTrace>>(1);
  return record;
}

TEST(CostModelSoc, TheRecordsSocIsUsed) {
  const ascsim::LaunchEstimate est =
      ascsim::EstimateLaunch(EmptyRecord(&ascsim::FindSocProfile("Ascend310P3")));
  EXPECT_EQ(est.soc, "Ascend310P3");
  EXPECT_EQ(est.clock_ghz, ascsim::FindSocProfile("Ascend310P3").clock_ghz);
}

TEST(CostModelSoc, ARecordWithoutASocIsEstimatedForTheDefaultProfileNotTheCurrentOne) {
  ascsim::ScopedSettings restore;
  ascsim::SetSoc("Ascend310P3");
  const ascsim::LaunchEstimate est = ascsim::EstimateLaunch(EmptyRecord(nullptr));
  EXPECT_EQ(est.soc, "Ascend910B1");
  EXPECT_EQ(est.launch_overhead_us, ascsim::FindSocProfile("Ascend910B1").launch_overhead_us);
}

}  // namespace
