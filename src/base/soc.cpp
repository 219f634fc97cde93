#include "ascsim/soc.h"

#include "ascsim/error.h"

namespace ascsim {

const std::vector<SocProfile>& SocProfiles() {
  // Cost columns after has_data_copy_pad: clock GHz, GM GB/s, launch overhead us, DMA latency us,
  // vector B/cycle, complex vector elements/cycle, scalar UB cycles, scalar GM cycles (the two
  // scalar figures are this model's assumption; the rest are DESIGN.md's).
  // Figures from DESIGN.md. The "4 buffers per position" limit belongs to the first-generation
  // 910 training part (not modelled); A2 and 310P allow 8. 310P3 bandwidth: LPDDR4X, ~204.8 GB/s.
  static const std::vector<SocProfile> profiles = {
      {"Ascend910B1", 2201, 48, 24, 192 * 1024, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 8,
       true, 1.85, 1800.0, 20.0, 0.5, 256.0, 32.0, 2.0, 200.0},
      {"Ascend910B3", 2201, 40, 20, 192 * 1024, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 8,
       true, 1.85, 1600.0, 20.0, 0.5, 256.0, 32.0, 2.0, 200.0},
      {"Ascend310P3", 2002, 8, 8, 256 * 1024, 1024 * 1024, 64 * 1024, 64 * 1024, 256 * 1024, 8,
       false, 1.08, 200.0, 20.0, 0.5, 256.0, 32.0, 2.0, 200.0},
  };
  return profiles;
}

const SocProfile& FindSocProfile(const std::string& name) {
  std::string known;
  for (const SocProfile& p : SocProfiles()) {
    if (name == p.name) return p;
    known += known.empty() ? p.name : std::string(", ") + p.name;
  }
  throw InvalidArgument("unknown SoC '" + name + "'; known: " + known);
}

}  // namespace ascsim
