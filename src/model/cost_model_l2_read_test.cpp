// The bytes L2 serves are read at L2's own bandwidth (SocProfile::l2_read_gbps), not through the
// port the misses and writes share (docs/calibration.md, "Changes made on set N").
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
constexpr int kPasses = 20;              // the first misses L2, the others hit

// 48 AIVs, each reading its own slice kPasses times in 32 KB copies (one row each).
ascsim::LaunchEstimate RereadSlices(const ascsim::SocProfile& soc) {
  std::vector<ascsim::trace::CoreTrace> traces(kCores);
  for (uint32_t c = 0; c < kCores; ++c) {
    traces[c].block_idx = c;
    for (int pass = 0; pass < kPasses; ++pass) {
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
  record.kernel = "reread";
  record.block_dim = kCores;
  record.soc = &soc;
  record.traces = std::make_shared<const std::vector<ascsim::trace::CoreTrace>>(traces);
  return ascsim::EstimateLaunch(record);
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

}  // namespace
