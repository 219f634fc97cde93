#include "ascsim/soc.h"

#include <strings.h>

#include "ascsim/error.h"

namespace ascsim {

namespace {
// The A2 cube figures. Buffer sizes: asc-devkit impl/basic_api/utils/kernel_utils_mode_cpu.h
// (bufferInitLen for __NPU_ARCH__ 2201: BIAS 1 KiB, FIXBUF 7 KiB). Rates: "Cube指令理论性能汇总"
// (docs/zh/api/附录): LoadData L1->L0A 256 B/cycle, L1->L0B 128 B/cycle, L1->BiasTable 32
// B/cycle, Fixpipe 64 elements/cycle. The Mmad head cost (delta t) is not published; 32 cycles is
// this model's assumption.
struct CubeFigures {
  bool split_cores;
  uint32_t bt_bytes, fb_bytes;
  double mmad_head_cycles, mte1_l0a_bytes_per_cycle, mte1_l0b_bytes_per_cycle,
      mte1_bt_bytes_per_cycle, fix_elements_per_cycle;
};
constexpr CubeFigures kA2Cube = {true, 1024, 7 * 1024, 32.0, 256.0, 128.0, 32.0, 64.0};

// The memory system (docs/calibration.md): calibrated on the asc-devkit Add best-practice
// measurements (examples/01_simd_cpp_api/05_best_practices/00_vector_compute/
// add_high_performance); L2 192 MB as published there. The 310P figures are A2's scaled to its
// DDR (an assumption: no published 310P measurement).
struct MemoryFigures {
  double vector_head_cycles, mte2_core_gbps, mte3_core_gbps, hbm_run_overhead_bytes,
      port_bandwidth_gbps, mte2_port_weight, write_back_hbm_weight;
  uint64_t l2_bytes;
  double task_overhead_us, block_dispatch_us;
  double mte2_l2_hit_core_gbps;
  double cube_miss_head_us, cube_miss_core_gbps;
  double matmul_init_scalar_cycles, matmul_block_scalar_cycles, matmul_message_scalar_cycles;
  double hbm_row_overhead_bytes;
  double vector_reduce_head_cycles;
  double l2_read_gbps;
  double cube_hit_row_ns;
  double same_address_gbps;
};
constexpr MemoryFigures kA2Memory = {
    22.0, 43.2,  51.3,   900.0, 2200.0, 1.5,   4.0,  uint64_t{192} << 20, 5.0, 0.1, 231.0,
    0.49, 101.0, 5032.0, 906.0, 3071.0, 100.0, 118.0, 5200.0, 0.95, 440.0};
constexpr MemoryFigures k310PMemory = {22.0,  25.6, 25.6, 256.0, 400.0, 1.5, 4.0, uint64_t{8} << 20,
                                       5.0,   0.1,  0.0,  0.0,   0.0,   0.0, 0.0, 0.0,
                                       28.0,  0.0,  0.0, 0.0, 0.0};
#define ASCSIM_MEMORY_FIGURES(m)                                                             \
  m.vector_head_cycles, m.mte2_core_gbps, m.mte3_core_gbps, m.hbm_run_overhead_bytes,        \
      m.port_bandwidth_gbps, m.mte2_port_weight, m.write_back_hbm_weight, m.l2_bytes,        \
      m.task_overhead_us, m.block_dispatch_us, m.mte2_l2_hit_core_gbps, m.cube_miss_head_us, \
      m.cube_miss_core_gbps, m.matmul_init_scalar_cycles, m.matmul_block_scalar_cycles,      \
      m.matmul_message_scalar_cycles, m.hbm_row_overhead_bytes, m.vector_reduce_head_cycles, \
      m.l2_read_gbps, m.cube_hit_row_ns, m.same_address_gbps
}  // namespace

const std::vector<SocProfile>& SocProfiles() {
  // Cost columns after has_data_copy_pad: clock GHz, GM GB/s, launch overhead us, DMA latency us,
  // (A2 GM: the HBM bandwidth the published Add measurements sustain, 1700 GB/s of the nominal
  // 1800 (docs/calibration.md); 910B3's nominal 1600 scaled alike; DMA latency calibrated there),
  // vector B/cycle, complex vector elements/cycle, scalar UB cycles, scalar GM cycles (the two
  // scalar figures are this model's assumption; the rest are DESIGN.md's).
  // Figures from DESIGN.md. The "4 buffers per position" limit belongs to the first-generation
  // 910 training part (not modelled); A2 and 310P allow 8. 310P3 bandwidth: LPDDR4X, ~204.8 GB/s.
  static const std::vector<SocProfile> profiles = {
      {"Ascend910B1",
       2201,
       48,
       24,
       // UB, L1, L0A, L0B, L0C, BiasTable, Fixpipe buffer (indexed by Memory).
       {192 * 1024, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, kA2Cube.bt_bytes,
        kA2Cube.fb_bytes},
       8,
       true,
       1.85,
       1700.0,
       20.0,
       0.02,
       256.0,
       32.0,
       2.0,
       200.0,
       kA2Cube.split_cores,
       kA2Cube.mmad_head_cycles,
       kA2Cube.mte1_l0a_bytes_per_cycle,
       kA2Cube.mte1_l0b_bytes_per_cycle,
       kA2Cube.mte1_bt_bytes_per_cycle,
       kA2Cube.fix_elements_per_cycle,
       ASCSIM_MEMORY_FIGURES(kA2Memory)},
      {"Ascend910B3",
       2201,
       40,
       20,
       // UB, L1, L0A, L0B, L0C, BiasTable, Fixpipe buffer (indexed by Memory).
       {192 * 1024, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, kA2Cube.bt_bytes,
        kA2Cube.fb_bytes},
       8,
       true,
       1.85,
       1510.0,
       20.0,
       0.02,
       256.0,
       32.0,
       2.0,
       200.0,
       kA2Cube.split_cores,
       kA2Cube.mmad_head_cycles,
       kA2Cube.mte1_l0a_bytes_per_cycle,
       kA2Cube.mte1_l0b_bytes_per_cycle,
       kA2Cube.mte1_bt_bytes_per_cycle,
       kA2Cube.fix_elements_per_cycle,
       ASCSIM_MEMORY_FIGURES(kA2Memory)},
      // 310P: one AI core holds both units; C1/CO2 live in UB and C2 in L0C (no BiasTable).
      // The cube rates are A2's (no published 2002 table): an assumption, see docs/cube.md.
      {"Ascend310P3",
       2002,
       8,
       8,
       {256 * 1024, 1024 * 1024, 64 * 1024, 64 * 1024, 256 * 1024, 0, 0},
       8,
       false,
       1.08,
       200.0,
       20.0,
       0.5,
       256.0,
       32.0,
       2.0,
       200.0,
       false,
       kA2Cube.mmad_head_cycles,
       kA2Cube.mte1_l0a_bytes_per_cycle,
       kA2Cube.mte1_l0b_bytes_per_cycle,
       kA2Cube.mte1_bt_bytes_per_cycle,
       kA2Cube.fix_elements_per_cycle,
       ASCSIM_MEMORY_FIGURES(k310PMemory)},
  };
  return profiles;
}
#undef ASCSIM_MEMORY_FIGURES

const std::vector<SocName>& SocNames() {
  static const std::vector<SocName> names = {
#define ASCSIM_SOC_NAME(name, profile, why) {name, profile, why},
#include "soc_names.inc"
#undef ASCSIM_SOC_NAME
  };
  return names;
}

const SocName* FindSocName(const std::string& name) {
  for (const SocName& n : SocNames()) {
    if (strcasecmp(name.c_str(), n.name) == 0) return &n;
  }
  return nullptr;
}

const SocProfile& FindSocProfile(const std::string& name) {
  std::string profile = name;
  if (const SocName* n = FindSocName(name)) profile = n->profile;
  std::string known;
  for (const SocProfile& p : SocProfiles()) {
    if (strcasecmp(profile.c_str(), p.name) == 0) return p;
    known += known.empty() ? p.name : std::string(", ") + p.name;
  }
  throw InvalidArgument("unknown SoC '" + name + "'; known profiles: " + known +
                        " (and the names of the other SoCs they model, e.g. Ascend910B4, "
                        "Ascend310P1)");
}

}  // namespace ascsim
