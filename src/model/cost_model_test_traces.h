// Hand-built call records for the cost model's own tests: a GM read as the copies record it, and
// the estimate of a launch made of such traces. One place for what every model test builds.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "ascsim/profile.h"
#include "ascsim/soc.h"
#include "ascsim/trace.h"

namespace cost_model_test {

// An MTE2 read of `rows` rows of `run` bytes, `pitch` bytes apart, from GM `addr`, as the vector
// DataCopy / DataCopyPad record it (a cube ND2NZ gather sets on_gm as well). `bypass`: the GM
// tensor's SetL2CacheHint(CACHE_MODE_DISABLE).
inline ascsim::trace::ApiCall GmRead(uint64_t addr, uint32_t rows, uint32_t run, uint64_t pitch,
                                     bool bypass = false) {
  ascsim::trace::ApiCall copy{};
  copy.name = "DataCopy";
  copy.kind = ascsim::trace::CallKind::kCopy;
  copy.pipe = ascsim::trace::Pipe::kMte2;
  copy.dtype_bytes = 2;
  copy.bytes = uint64_t{rows} * run;
  copy.elements = copy.bytes / 2;
  copy.gm_addr = addr;
  copy.gm_rows = rows;
  copy.gm_run = run;
  copy.gm_pitch = pitch;
  if (bypass) copy.l2_mode = ascsim::trace::L2Mode::kDisable;
  return copy;
}

// An MTE3 write of `bytes` contiguous bytes to GM `addr`, as a vector DataCopy records it.
// `bypass`: the GM tensor's SetL2CacheHint(CACHE_MODE_DISABLE).
inline ascsim::trace::ApiCall GmWrite(uint64_t addr, uint32_t bytes, bool bypass = false) {
  ascsim::trace::ApiCall copy = GmRead(addr, 1, bytes, bytes, bypass);
  copy.pipe = ascsim::trace::Pipe::kMte3;
  return copy;
}

// The estimate of a launch of one block per trace (block i: traces[i]) on `soc`.
inline ascsim::LaunchEstimate Estimate(
    std::vector<ascsim::trace::CoreTrace> traces,
    const ascsim::SocProfile& soc = ascsim::FindSocProfile("Ascend910B1")) {
  for (uint32_t i = 0; i < traces.size(); ++i) traces[i].block_idx = i;
  ascsim::LaunchRecord record;
  record.kernel = "k";
  record.block_dim = static_cast<uint32_t>(traces.size());
  record.soc = &soc;
  record.traces = std::make_shared<const std::vector<ascsim::trace::CoreTrace>>(std::move(traces));
  return ascsim::EstimateLaunch(record);
}

}  // namespace cost_model_test
