// SoC profiles: the hardware facts a simulated launch honours (DESIGN.md, "Facts about the
// hardware"). One table per profile, so the cost model and the checks read the same numbers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ascsim {

struct SocProfile {
  const char* name;           // "Ascend910B1"
  int arch;                   // __NPU_ARCH__-style number: 2201 (A2) or 2002 (310P)
  int vector_cores;           // physical AIV cores a launch spreads over (waves beyond this)
  int cube_cores;             // AIC cores
  uint32_t ub_bytes;          // Unified Buffer per core
  uint32_t l1_bytes;
  uint32_t l0a_bytes;
  uint32_t l0b_bytes;
  uint32_t l0c_bytes;
  int max_buffers_per_position;  // buffers allocated at once per TPosition
  bool has_data_copy_pad;        // DataCopyPad exists on A2, not on 310P
  // Cost model figures (per profile, used by src/model).
  double clock_ghz;
  double gm_bandwidth_gbps;   // GB/s shared by all cores, MTE2 and MTE3 together
  double launch_overhead_us;
  double dma_latency_us;      // fixed latency of one MTE transfer
  double vector_bytes_per_cycle;    // simple vector ops: 256 B/cycle = 128 fp16 / 64 fp32 elements
  double vector_complex_per_cycle;  // Exp/Ln/Sqrt/Div (and Rsqrt/Reciprocal): elements per cycle
  double scalar_ub_cycles;          // one scalar GetValue/SetValue on UB
  double scalar_gm_cycles;          // one scalar GetValue/SetValue on GM (through the scalar cache)
};

// All known profiles.
const std::vector<SocProfile>& SocProfiles();
// Looks a profile up by name (case-sensitive, as CANN spells it); throws InvalidArgument listing
// the known names when there is none.
const SocProfile& FindSocProfile(const std::string& name);

// The profile new launches use: set by SetSoc, else ASCSIM_SOC, else Ascend910B1.
const SocProfile& CurrentSoc();
void SetSoc(const std::string& name);

}  // namespace ascsim
