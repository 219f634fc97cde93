// How reads meet L2. It sees the cores' reads in the order their data moves, not in the order the
// replay registers them: a core whose copies have no syncs between them registers all of them at once, yet its
// second pass over a slice comes after every other core's first pass (the data_copy README's
// scenario 5: a 302 MB matrix read four times by 48 cores hits L2 0.005% of the time;
// docs/calibration.md, first held-out set). A miss fills its whole 512 B line from HBM; a read
// that bypasses L2 fetches only its own bytes.
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

// One core reading `rows` rows of 128 B, each in a line of its own (pitch 512 B), in one
// DataCopyPad; `bypass`: SetL2CacheHint(CACHE_MODE_DISABLE).
ascsim::LaunchEstimate ShortRows(uint32_t rows, bool bypass) {
  std::vector<ascsim::trace::CoreTrace> traces(1);
  ApiCall copy{};
  copy.name = "DataCopyPad";
  copy.kind = ascsim::trace::CallKind::kCopy;
  copy.pipe = ascsim::trace::Pipe::kMte2;
  copy.dtype_bytes = 2;
  copy.elements = rows * 64;
  copy.bytes = rows * 128;
  copy.gm_addr = 0x10000000;
  copy.gm_rows = rows;
  copy.gm_run = 128;
  copy.gm_pitch = 512;
  if (bypass) copy.l2_mode = ascsim::trace::L2Mode::kDisable;
  traces[0].calls.push_back(copy);
  ascsim::LaunchRecord record;
  record.kernel = "short_rows";
  record.block_dim = 1;
  record.soc = &ascsim::FindSocProfile("Ascend910B1");
  record.traces = std::make_shared<const std::vector<ascsim::trace::CoreTrace>>(traces);
  return ascsim::EstimateLaunch(record);
}

TEST(CostModelL2Lines, AMissFillsItsWholeLineABypassOnlyItsBytes) {
  const ascsim::SocProfile& a2 = ascsim::FindSocProfile("Ascend910B1");
  constexpr uint32_t kRows = 64;
  const double hbm = a2.gm_bandwidth_gbps * 1e3;  // bytes per us
  const double overhead = a2.hbm_run_overhead_bytes + a2.hbm_row_overhead_bytes * (kRows - 1);
  const ascsim::LaunchEstimate cached = ShortRows(kRows, false);
  const ascsim::LaunchEstimate bypass = ShortRows(kRows, true);
  EXPECT_EQ(cached.memory.l2_hit_bytes, 0u);
  EXPECT_NEAR(cached.memory.hbm_busy_us, (kRows * 512.0 + overhead) / hbm, 1e-9);
  EXPECT_NEAR(bypass.memory.hbm_busy_us, (kRows * 128.0 + overhead) / hbm, 1e-9);
}

}  // namespace
