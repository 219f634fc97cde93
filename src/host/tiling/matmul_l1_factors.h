// The L1 factors of MultiCoreMatmulTiling / MatmulApiTiling::GetTiling: how many base blocks of K
// (stepKa, stepKb) and of M / N (stepM, stepN) one L1 tile of A / B holds, and how many base
// blocks A1 / B1 hold in all (depthA1, depthB1).
//
// This is CANN's rule (asc-devkit 82b89a15f, impl/adv_api/tiling/matmul/
// matmul_tiling_algorithm.cpp), restated for ND / NZ inputs in GM without MX, sparse, dequant,
// TSCM inputs, UB ND2NZ (the 310P's enVecND2NZ) or the OUTER_PRODUCT / N_BUFFER_33 schedules:
//  - Process -> GetL1Factors: four candidates, both inputs whole in L1 (L1StatusBothFullLoad),
//    A whole (L1StatusAl1FullLoad), B whole (L1StatusBl1FullLoad), neither
//    (L1StatusNeitherFullLoad: NeitherFullLoadDb, NeitherFullLoadK -> NeitherFullLoadKforND /
//    NeitherFullLoadKforNZ, NeitherFullLoadMN), the one with the least GM traffic kept;
//  - DoMultiCoreSplitMNTiling -> CalcL1Tiling / UpdateStepK / GetL1CoreStatus: the SPLIT_MN and
//    SPLIT_SMALL_MN scenarios (a 910B-class SoC, SetDim > 1, neither SetShape nor split K) fill L1
//    with base blocks regardless of K;
//  - UpdateTiling / UpdateDepthB1 / AdjustFloatL1Factor: the factors as TCubeTiling fields.
// Units are CANN's: M and N in fractals of 16, K in fractals of 32 B of A's type (C0).
// The base block (baseM / baseN / baseK) is an input: ascsim picks its own (or SetFixSplit's), so
// the factors are CANN's for that base, not necessarily for the base CANN would pick.
#ifndef ASCSIM_SRC_HOST_TILING_MATMUL_L1_FACTORS_H_
#define ASCSIM_SRC_HOST_TILING_MATMUL_L1_FACTORS_H_

#include <cstdint>

namespace matmul_tiling {
namespace l1 {

enum class Elem { kHalf, kBf16, kFloat, kInt8 };  // A / B element kinds the rule tells apart

struct L1Input {
  // Single-core extents in elements (singleCoreM / N / K) and the whole K (GetSingleK: SetShape's
  // K, else orgKa).
  int32_t single_m = 0, single_n = 0, single_k = 0, whole_k = 0;
  int32_t base_m = 0, base_n = 0, base_k = 0;
  Elem a = Elem::kHalf, b = Elem::kHalf;
  bool a_trans = false, b_trans = false;
  // CANN's coreStatus m / n / k: the single-core extents in fractals as the core split found them
  // (FindBestSingleCore may round them); 0 takes ceil(single / fractal).
  int32_t core_m = 0, core_n = 0, core_k = 0;
  bool ab_nd = true;     // A and B both ND (the ND K-full-load check of GetL1Factors)
  bool bias = false;     // EnableBias
  int32_t bias_bytes = 4;  // the bias element (DTYPE_BYTE_TAB of SetBiasType's type)
  int32_t l1_bytes = 512 * 1024;
  bool soc_910b = false;  // UpdateDepthB1's float-B correction applies to ASCEND910B only
  // GetMultiCoreScenario's SPLIT_MN / SPLIT_SMALL_MN: CalcL1Tiling instead of GetL1Factors.
  bool split_mn_scenario = false;
};

struct L1Factors {
  int32_t step_m = 1, step_n = 1, step_ka = 1, step_kb = 1;
  int32_t depth_a1 = 1, depth_b1 = 1;
};

// GetL1Factors + UpdateTiling (or CalcL1Tiling + UpdateTiling in the split scenarios). Returns
// false where the rule yields a zero factor (a base block that does not fit L1), leaving `out` as
// it was.
bool ComputeL1Factors(const L1Input& in, L1Factors* out);

// GetMultiCoreScenario: true for SPLIT_MN and SPLIT_SMALL_MN (M and N are the original shape).
bool SplitScenario(bool split_mn_soc, bool split_k, bool set_shape, bool single_shape,
                   int32_t block_dim, int64_t m, int64_t n);

}  // namespace l1
}  // namespace matmul_tiling

#endif  // ASCSIM_SRC_HOST_TILING_MATMUL_L1_FACTORS_H_
