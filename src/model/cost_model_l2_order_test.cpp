// L2 sees the cores' reads in the order their data moves, not in the order the replay registers
// them: a core whose copies have no syncs between them registers all of them at once, yet its
// second pass over a slice comes after every other core's first pass (the data_copy README's
// scenario 5: a 302 MB matrix read four times by 48 cores hits L2 0.005% of the time;
// docs/calibration.md, first held-out set).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "ascsim/profile.h"
#include "ascsim/soc.h"
#include "ascsim/trace.h"

namespace {

using ascsim::trace::ApiCall;

constexpr uint32_t kCores = 48;
constexpr uint64_t kSlice = 256 * 1024;  // each core's slice of GM
constexpr uint64_t kCopy = 32 * 1024;    // bytes per DataCopy

// kCores AIVs, each reading its own slice twice in 32 KB copies, nothing between the copies.
ascsim::LaunchEstimate TwoPasses(const ascsim::SocProfile& soc) {
  std::vector<ascsim::trace::CoreTrace> traces(kCores);
  for (uint32_t c = 0; c < kCores; ++c) {
    traces[c].block_idx = c;
    for (int pass = 0; pass < 2; ++pass) {
      for (uint64_t off = 0; off < kSlice; off += kCopy) {
        ApiCall copy{};
        copy.name = "DataCopy";
        copy.kind = ascsim::trace::CallKind::kCopy;
        copy.pipe = ascsim::trace::Pipe::kMte2;
        copy.dtype_bytes = 2;
        copy.elements = kCopy / 2;
        copy.bytes = kCopy;
        copy.gm_addr = 0x10000000 + c * kSlice + off;
        copy.gm_rows = 1;
        copy.gm_run = static_cast<uint32_t>(kCopy);
        traces[c].calls.push_back(copy);
      }
    }
  }
  ascsim::LaunchRecord record;
  record.kernel = "two_passes";
  record.block_dim = kCores;
  record.soc = &soc;
  record.traces = std::make_shared<const std::vector<ascsim::trace::CoreTrace>>(traces);
  return ascsim::EstimateLaunch(record);
}

TEST(CostModelL2Order, ASecondPassMissesWhenAllCoresTogetherOverflowL2) {
  // One slice fits L2 many times over, the 48 slices (12 MB) do not: in time order each core's
  // second pass comes after 12 MB of other allocations, so it misses.
  ascsim::SocProfile soc = ascsim::FindSocProfile("Ascend910B1");
  soc.l2_bytes = 4 * 1024 * 1024;
  const ascsim::LaunchEstimate e = TwoPasses(soc);
  EXPECT_EQ(e.memory.mte2_bytes, 2 * kCores * kSlice);
  EXPECT_LT(e.memory.l2_hit_bytes, kCores * kSlice / 10) << "hits in issue order, not time order";
}

TEST(CostModelL2Order, ASecondPassHitsWhenAllSlicesFit) {
  ascsim::SocProfile soc = ascsim::FindSocProfile("Ascend910B1");
  soc.l2_bytes = 64 * 1024 * 1024;
  const ascsim::LaunchEstimate e = TwoPasses(soc);
  EXPECT_EQ(e.memory.l2_hit_bytes, kCores * kSlice);
}

}  // namespace
