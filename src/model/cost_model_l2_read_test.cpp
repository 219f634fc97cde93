// How reads meet L2 in the cost model. The bytes L2 serves are read at L2's own bandwidth
// (SocProfile::l2_read_gbps), not through the port the misses and writes share (docs/
// calibration.md, "Changes made on set N"). L2 sees the cores' reads in the order their data
// moves, not in the order the replay registers them: a core whose copies have no syncs between
// them registers all of them at once, yet its second pass over a slice comes after every other
// core's first pass (the data_copy README's scenario 5: a 302 MB matrix read four times by 48
// cores hits L2 0.005% of the time). A miss fills its whole 512 B line from HBM; a read that
// bypasses L2 fetches only its own bytes (docs/calibration.md, first held-out set). A row that
// starts off a line boundary and runs past it fetches its head line in full, even when L2 holds
// it (docs/calibration.md, "Rows off 512 B boundaries").
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "ascsim/profile.h"
#include "ascsim/soc.h"
#include "ascsim/trace.h"
#include "model/cost_model_test_traces.h"

namespace {

using cost_model_test::Estimate;
using cost_model_test::GmRead;

constexpr uint32_t kCores = 48;
constexpr uint64_t kSlice = 256 * 1024;  // each core's slice of GM
constexpr uint32_t kCopy = 32 * 1024;    // bytes per DataCopy
constexpr int kPasses = 20;              // the first misses L2, the others hit

// 48 AIVs, each reading its own slice `passes` times in 32 KB copies (one row each), nothing
// between the copies.
ascsim::LaunchEstimate RereadSlices(const ascsim::SocProfile& soc, int passes = kPasses) {
  std::vector<ascsim::trace::CoreTrace> traces(kCores);
  for (uint32_t c = 0; c < kCores; ++c) {
    for (int pass = 0; pass < passes; ++pass) {
      for (uint64_t off = 0; off < kSlice; off += kCopy) {
        traces[c].calls.push_back(GmRead(0x10000000 + c * kSlice + off, 1, kCopy, kCopy));
      }
    }
  }
  return Estimate(traces, soc);
}

TEST(CostModelL2Read, HitsAreNotHeldToThePort) {
  const ascsim::SocProfile& a2 = ascsim::FindSocProfile("Ascend910B1");
  ASSERT_GT(a2.l2_read_gbps, a2.port_bandwidth_gbps);
  const double hit_bytes = double(kCores) * kSlice * (kPasses - 1);
  const ascsim::LaunchEstimate e = RereadSlices(a2);
  EXPECT_NEAR(static_cast<double>(e.memory.l2_hit_bytes), hit_bytes, 1.0);
  // Faster than the port alone allows, no faster than L2 reads.
  EXPECT_LT(e.estimated_us, hit_bytes / (a2.port_bandwidth_gbps * 1e3));
  EXPECT_GT(e.estimated_us, hit_bytes / (a2.l2_read_gbps * 1e3));

  // Without an L2 read bandwidth (a profile that has none), hits cross the port as before.
  ascsim::SocProfile no_l2 = a2;
  no_l2.l2_read_gbps = 0;
  const ascsim::LaunchEstimate p = RereadSlices(no_l2);
  EXPECT_GT(p.estimated_us, hit_bytes / (a2.port_bandwidth_gbps * 1e3));
  EXPECT_GT(p.estimated_us, 1.5 * e.estimated_us);
}

TEST(CostModelL2Order, ASecondPassMissesWhenAllCoresTogetherOverflowL2) {
  // One slice fits L2 many times over, the 48 slices (12 MB) do not: in time order each core's
  // second pass comes after 12 MB of other allocations, so it misses.
  ascsim::SocProfile soc = ascsim::FindSocProfile("Ascend910B1");
  soc.l2_bytes = 4 * 1024 * 1024;
  const ascsim::LaunchEstimate e = RereadSlices(soc, 2);
  EXPECT_EQ(e.memory.mte2_bytes, 2 * kCores * kSlice);
  EXPECT_LT(e.memory.l2_hit_bytes, kCores * kSlice / 10) << "hits in issue order, not time order";
}

TEST(CostModelL2Order, ASecondPassHitsWhenAllSlicesFit) {
  ascsim::SocProfile soc = ascsim::FindSocProfile("Ascend910B1");
  soc.l2_bytes = 64 * 1024 * 1024;
  const ascsim::LaunchEstimate e = RereadSlices(soc, 2);
  EXPECT_EQ(e.memory.l2_hit_bytes, kCores * kSlice);
}

// One core reading `rows` rows of 128 B, each in a line of its own (pitch 512 B), in one
// DataCopyPad; `bypass`: SetL2CacheHint(CACHE_MODE_DISABLE).
ascsim::LaunchEstimate ShortRows(uint32_t rows, bool bypass) {
  std::vector<ascsim::trace::CoreTrace> traces(1);
  traces[0].calls.push_back(GmRead(0x10000000, rows, 128, 512, bypass));
  return Estimate(traces);
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

// One core, one single-row copy per {address, bytes}, in order.
ascsim::LaunchEstimate Rows(const std::vector<std::pair<uint64_t, uint32_t>>& rows, bool bypass) {
  std::vector<ascsim::trace::CoreTrace> traces(1);
  for (const auto& [addr, bytes] : rows) {
    traces[0].calls.push_back(GmRead(addr, 1, bytes, bytes, bypass));
  }
  return Estimate(traces);
}

TEST(CostModelL2Lines, AnUnalignedRowFetchesItsHeadLineAgain) {
  const ascsim::SocProfile& a2 = ascsim::FindSocProfile("Ascend910B1");
  const double hbm = a2.gm_bandwidth_gbps * 1e3, copy = a2.hbm_run_overhead_bytes;
  constexpr uint64_t kBase = 0x10000000;
  // [0, 1000) fills lines 0-1. [1000, 2000) starts in line 1, which L2 holds, and runs on past
  // it: line 1 comes again from HBM (512 B), then lines 2-3 (1024 B); nothing hits.
  const ascsim::LaunchEstimate unaligned = Rows({{kBase, 1000}, {kBase + 1000, 1000}}, false);
  EXPECT_EQ(unaligned.memory.l2_hit_bytes, 0u);
  EXPECT_NEAR(unaligned.memory.hbm_busy_us, (1024 + 512 + 1024 + 2 * copy) / hbm, 1e-9);
  EXPECT_EQ(unaligned.memory.unaligned_rows, 1u);
  EXPECT_EQ(unaligned.memory.unaligned_head_bytes, 512u);
  EXPECT_NE(ascsim::ExplainEstimate(unaligned).find("Rows off 512 B boundaries: 1 of the rows"),
            std::string::npos)
      << ascsim::ExplainEstimate(unaligned);
  // Starting on the boundary: lines 2-3 only.
  const ascsim::LaunchEstimate aligned = Rows({{kBase, 1000}, {kBase + 1024, 1000}}, false);
  EXPECT_NEAR(aligned.memory.hbm_busy_us, (1024 + 1024 + 2 * copy) / hbm, 1e-9);
  EXPECT_EQ(aligned.memory.unaligned_rows, 0u);
  EXPECT_EQ(ascsim::ExplainEstimate(aligned).find("512 B boundaries"), std::string::npos);
  // A row inside one line (128 B at 128) is an ordinary hit: the data_copy README's 128 B tiles.
  const ascsim::LaunchEstimate inside = Rows({{kBase, 128}, {kBase + 128, 128}}, false);
  EXPECT_EQ(inside.memory.l2_hit_bytes, 128u);
  EXPECT_NEAR(inside.memory.hbm_busy_us, (512 + copy) / hbm, 1e-9);
  // Bypassing L2, a read fetches its own bytes, and an unaligned row its whole head line (24 B
  // of its own, 488 more).
  const ascsim::LaunchEstimate bypass = Rows({{kBase + 1000, 1000}}, true);
  EXPECT_NEAR(bypass.memory.hbm_busy_us, (1000 + 488 + copy) / hbm, 1e-9);
}

// `cores` AIVs each reading 1 MiB in 16 KiB copies, around L2 (`bypass`) or through it, all from
// the same addresses (`same`) or each from its own.
ascsim::LaunchEstimate ReadTogether(uint32_t cores, bool same, bool bypass) {
  constexpr uint64_t kBytes = 1 << 20;
  constexpr uint32_t kPiece = 16 << 10;
  std::vector<ascsim::trace::CoreTrace> traces(cores);
  for (uint32_t c = 0; c < cores; ++c) {
    for (uint64_t off = 0; off < kBytes; off += kPiece) {
      const uint64_t addr = 0x10000000 + (same ? 0 : c * kBytes) + off;
      traces[c].calls.push_back(GmRead(addr, 1, kPiece, kPiece, bypass));
    }
  }
  return Estimate(traces);
}

TEST(CostModelSameAddress, BypassedReadsOfTheSameLinesAtOnceShareOneBandwidth) {
  const ascsim::SocProfile& a2 = ascsim::FindSocProfile("Ascend910B1");
  ASSERT_GT(a2.same_address_gbps, 0);
  constexpr uint32_t kCores = 48;
  const ascsim::LaunchEstimate same = ReadTogether(kCores, true, true);
  const ascsim::LaunchEstimate apart = ReadTogether(kCores, false, true);
  // Nearly in step (0.1 us of dispatch between blocks), most reads share their first line with
  // another core's read and wait their turn: 63.6 us against 34.8 us for distinct lines. The
  // contended reads get same_address_gbps together; the read ahead of the others runs alone.
  EXPECT_GT(same.estimated_us, 1.5 * apart.estimated_us);
  EXPECT_GT(same.memory.same_address_bytes, 0.5 * kCores * double(1 << 20));
  EXPECT_EQ(apart.memory.same_address_bytes, 0);
  EXPECT_NE(ascsim::ExplainEstimate(same).find("Reads of the same lines at once"),
            std::string::npos);
  EXPECT_EQ(ascsim::ExplainEstimate(apart).find("same lines"), std::string::npos);
  EXPECT_LT(same.estimated_us, kCores * double(1 << 20) / (a2.same_address_gbps * 1e3));
  // Through L2 the same lines are hits after the first read: no limit.
  const ascsim::LaunchEstimate cached = ReadTogether(kCores, true, false);
  EXPECT_LT(cached.estimated_us, 0.5 * same.estimated_us);
  // One core alone shares its lines with nobody.
  const ascsim::LaunchEstimate one = ReadTogether(1, true, true);
  EXPECT_NEAR(one.estimated_us, ReadTogether(1, false, true).estimated_us, 1e-9);
}

}  // namespace
