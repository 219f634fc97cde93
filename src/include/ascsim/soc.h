// SoC profiles: the hardware facts a simulated launch honours (DESIGN.md, "Facts about the
// hardware"). One table per profile, so the cost model and the checks read the same numbers.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ascsim/local_memory.h"

namespace ascsim {

struct SocProfile {
  const char* name;  // "Ascend910B1"
  int arch;          // __NPU_ARCH__-style number: 2201 (A2) or 2002 (310P)
  int vector_cores;  // physical AIV cores a launch spreads over (waves beyond this)
  int cube_cores;    // AIC cores
  // Bytes of each local memory of one core, indexed by Memory (kUb, kL1, kL0A, kL0B, kL0C, kBt,
  // kFb); 0 where the SoC has none (BiasTable and Fixpipe buffer on the 310P, whose C2 is L0C).
  // Read it with MemoryBytes below.
  std::array<uint32_t, kLocalMemoryCount> memory_bytes;
  int max_buffers_per_position;  // buffers allocated at once per TPosition
  bool has_data_copy_pad;        // DataCopyPad exists on A2, not on 310P
  // Cost model figures (per profile, used by src/model).
  double clock_ghz;
  double gm_bandwidth_gbps;  // GB/s shared by all cores, MTE2 and MTE3 together
  double launch_overhead_us;
  double dma_latency_us;            // fixed latency of one MTE transfer
  double vector_bytes_per_cycle;    // simple vector ops: 256 B/cycle = 128 fp16 / 64 fp32 elements
  double vector_complex_per_cycle;  // Exp/Ln/Sqrt/Div (and Rsqrt/Reciprocal): elements per cycle
  double scalar_ub_cycles;          // one scalar GetValue/SetValue on UB
  double scalar_gm_cycles;          // one scalar GetValue/SetValue on GM (through the scalar cache)

  // ---- The cube side (docs/cube.md); appended so the table above stays as it was. ----
  // Architecture: on A2 (arch 2201) the AIC (cube) and AIV (vector) are separate cores (1 AIC
  // pairs with 2 AIV in a MIX_AIC_1_2 kernel); on 310P (arch 2002) one AI core has both units.
  bool split_cores = false;
  // Theoretical cube figures ("Cube指令理论性能汇总" in the asc-devkit API docs, arch 2201):
  // Mmad issues 16 x 16 x cube_k MACs per cycle with cube_k = 16 (half/bfloat16_t), 32 (int8_t)
  // and 4 (float); the fractals are padded to 16 x 16 x k0 (k0 = 32 B / sizeof(T)).
  double mmad_head_cycles = 0;          // fixed start-up cost of one Mmad (the table's delta t)
  double mte1_l0a_bytes_per_cycle = 0;  // LoadData L1 -> L0A
  double mte1_l0b_bytes_per_cycle = 0;  // LoadData L1 -> L0B
  double mte1_bt_bytes_per_cycle = 0;   // DataCopy L1 -> BiasTable / Fixpipe buffer
  double fix_elements_per_cycle = 0;    // Fixpipe out of L0C (64 elements/cycle)

  // ---- The memory system and instruction costs the cost model replays (docs/calibration.md:
  // each figure, where it comes from, and the published points it reproduces). ----
  double vector_head_cycles = 0;      // fixed cost of one vector instruction before its repeats
  double mte2_core_gbps = 0;          // one core's GM->local engine at most (GB/s)
  double mte3_core_gbps = 0;          // one core's local->GM engine at most (GB/s)
  double hbm_run_overhead_bytes = 0;  // HBM bandwidth lost per copy instruction (bytes)
  double port_bandwidth_gbps = 0;     // the L2 / interconnect port all MTE traffic shares (GB/s)
  double mte2_port_weight = 0;        // a read's share of the contended port against a write's 1
  double write_back_hbm_weight = 0;   // a write-back's share of contended HBM against a read's 1
  uint64_t l2_bytes = 0;              // L2 capacity
  double task_overhead_us = 0;   // msprof's Task Duration beyond the cores' run (dispatch, end)
  double block_dispatch_us = 0;  // block k of a wave starts k times this after block 0
  // One core's GM->local engine for bytes L2 serves (GB/s; 0: mte2_core_gbps): a hit does not
  // wait for HBM, so one engine streams it faster than a miss.
  double mte2_l2_hit_core_gbps = 0;
  // The cube's GM -> L1 copies (ND2NZ): a start-up on MTE2 before the bytes of a copy that L2
  // does not serve flow (scaled by the copy's miss fraction; 0: none), and the engine rate for
  // those bytes (GB/s; 0: mte2_core_gbps). Fewer, larger copies (CFG_MDL) pay the start-up less
  // often (docs/calibration.md, "Matmul").
  double cube_miss_head_us = 0;
  double cube_miss_core_gbps = 0;
  // The Matmul API's scalar work on the core that runs its cube work (cycles): set-up of one
  // object from its tiling, address work per base block, and (mix kernels) taking one request
  // of an AIV client; docs/calibration.md ("Matmul") says how the published points fix them.
  double matmul_init_scalar_cycles = 0;
  double matmul_block_scalar_cycles = 0;
  double matmul_message_scalar_cycles = 0;
  // HBM bandwidth lost per row of a vector-side copy after its first (bytes): a DataCopyPad of
  // many short rows costs more than one of the same bytes in one run, less than as many copies.
  double hbm_row_overhead_bytes = 0;
  // Issue to result of a reduction instruction (RepeatReduce*/BlockReduce*/PairReduce*: cycles,
  // in place of vector_head_cycles; 0: vector_head_cycles). asc-devkit's low-latency-instruction
  // guide: a reduction's latency is about 2-5x an Add's (docs/calibration.md, "Vector latency").
  double vector_reduce_head_cycles = 0;
  // L2's read bandwidth for the bytes it serves (GB/s, all cores together; 0: hits go through
  // the port like everything else). An L2 hit does not cross the port the misses and writes
  // share: asc-devkit's matmul_high_performance README puts L2's peak at about 5 TB/s against
  // HBM's 1.8 ("L2Cache的纯读带宽约为GM的3到4倍"), and its case 5 reads 3.4 TB/s in all.
  double l2_read_gbps = 0;
  // The cube's GM -> L1 copies (ND2NZ), rows L2 serves: the engine's time per row of the gather
  // (ns; scaled by the copy's hit fraction; 0: none), before the bytes flow at
  // mte2_l2_hit_core_gbps. The same bytes in fewer, longer rows (CFG_MDL's stepKa x baseK wide
  // tiles) cost less (docs/calibration.md, "Matmul").
  double cube_hit_row_ns = 0;
  // Reads that bypass L2 (SetL2CacheHint(CACHE_MODE_DISABLE)) starting in the line another
  // bypassed read in flight starts in: HBM serves accesses to one address in turn, and together
  // such reads get this bandwidth (GB/s, all cores; 0: no limit). The data_copy README's "同地址冲突"
  // scenarios (docs/calibration.md, "Reads of the same lines at once").
  double same_address_gbps = 0;
};

// The bytes of `memory` in one core of `soc`; 0 for kGm and kNone (not local memories).
inline uint32_t MemoryBytes(const SocProfile& soc, Memory memory) {
  const int m = static_cast<int>(memory);
  return m < kLocalMemoryCount ? soc.memory_bytes[m] : 0;
}

// The system workspace the device reserves in front of a kernel's user workspace and the host
// sizes with PlatformAscendC::GetLibApiWorkSpaceSize: 16 MiB on A2/A3 (arch 2201), 2 MiB on the
// 310P (2002) (asc-devkit kernel_utils_constants.h, RESERVED_WORKSPACE).
inline uint64_t LibApiWorkspaceBytes(const SocProfile& soc) {
  return soc.arch == 2002 ? uint64_t{2} << 20 : uint64_t{16} << 20;
}

// All known profiles.
const std::vector<SocProfile>& SocProfiles();
// A SoC name ascsim accepts and the profile it is simulated as (src/base/soc_names.inc: the names
// the toolkit's SOC_VERSION takes, mapped the same way). `why` is empty for a profile's own name.
struct SocName {
  const char* name;
  const char* profile;
  const char* why;
};
const std::vector<SocName>& SocNames();
// The entry for `name` (compared ignoring case: "ascend910b3" is the 910B3), or null.
const SocName* FindSocName(const std::string& name);
// Looks a profile up by a SoC name (a profile's own, or one of SocNames(), in any case); throws
// InvalidArgument listing the known names when there is none.
const SocProfile& FindSocProfile(const std::string& name);

// The profile new launches use: set by SetSoc, else ASCSIM_SOC, else Ascend910B1.
const SocProfile& CurrentSoc();
void SetSoc(const std::string& name);

}  // namespace ascsim
