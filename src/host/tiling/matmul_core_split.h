// The multi-core split of MultiCoreMatmulTiling::GetTiling: how many cores go along M and N.
//
// This is CANN's rule (asc-devkit impl/adv_api/tiling/matmul/matmul_tiling_algorithm.cpp,
// MatmulTilingAlgorithm::Process -> FillParam, NonFactorMap, GetDims with PreProcessMiniShape,
// GenDimsMapFactors, GetDimsHelper, CalcLoadSize, FindBestSingleCore, UpdateMultiCore; then
// GetSingleShape; helpers from math_util.cpp), restated for the non-batched, non-split-K case.
// The custom-op samples' kernels compute their GM offsets from usedCoreNum / singleCoreM /
// singleCoreN (e.g. mIdx = blockIdx % ceil(M / singleCoreM)) and iterate in baseM x baseN steps, so
// only the split CANN picks keeps their offsets and copies inside the output.
#ifndef ASCSIM_SRC_HOST_TILING_MATMUL_CORE_SPLIT_H_
#define ASCSIM_SRC_HOST_TILING_MATMUL_CORE_SPLIT_H_

#include <cstdint>

namespace matmul_tiling {
namespace split {

struct SplitInput {
  int32_t m = 0, n = 0, k = 0;  // the single shape SetShape gave (the whole matrix on one call)
  int32_t block_dim = 1;        // SetDim (numOfBlock_)
  int32_t a_bits = 16;          // element width of A and B in bits
  int32_t b_bits = 16;
  int32_t c_bits = 32;
  bool a_trans = false, b_trans = false;
  bool ab_nz = false;  // A or B in NZ: the single shape is aligned as in the split scenarios
  bool c_nz = false;
  int32_t l1_bytes = 0;
  int32_t l0a_bytes = 0;
  int32_t l0c_bytes = 0;
  // GetMultiCoreScenario's inputs: the SoC is one of the SPLIT_MN SoCs (ASCEND910B, ASCEND950,
  // ASCEND350), multi-core split K is on, SetShape was called (it sets singleM / singleN, which
  // rules the scenario out), and the SetFixSplit base sizes (-1: none).
  bool split_mn_soc = false;
  bool split_k = false;
  bool set_shape = false;
  int32_t fix_base_m = -1, fix_base_n = -1;
};

struct SplitResult {
  int32_t m_dim = 1, n_dim = 1;  // cores along M and N (usedCoreNum = their product)
  int32_t single_core_m = 0, single_core_n = 0;  // TCubeTiling singleCoreM / singleCoreN
  // CANN's coreStatus m / n / k: the per-core extents in fractals (16 rows of M / N, 32 B of K)
  // the split settled on, which the L1 factors start from (matmul_l1_factors.h).
  int32_t core_m = 0, core_n = 0, core_k = 0;
};

// CANN's split for inputs in ND without transposes constraining alignment: the SPLIT_MN scenario
// (DoMultiCoreSplitMNTiling -> CalcMultiCoreDims) where it applies, else the GetDims scenario.
SplitResult SplitMN(const SplitInput& in);

// DoMultiCoreSplitMNTiling's SPLIT_MN scenario (GetMultiCoreScenario: a SPLIT_MN SoC, no split K,
// no SetShape, M >= 128 and M * N > 26214 * cores): the (mDim, nDim) factor pair of the core count
// with the highest compute intensity over the basic block (CalcComputeIntensity; ties by cycles,
// then by band ratio). Returns false when the scenario does not apply.
bool SplitMNScenarioDims(const SplitInput& in, int32_t* m_dim, int32_t* n_dim);

// MathUtil::CheckFactorNumSatisfy / FindBestSingleCore / MapShape, exposed for the tests.
bool CheckFactorNumSatisfy(int32_t dim);
int32_t FindBestSingleCore(int32_t ori_shape, int32_t mapped_shape, int32_t core_num);
int32_t MapShape(int32_t shape, bool round_up = true);

}  // namespace split
}  // namespace matmul_tiling

#endif  // ASCSIM_SRC_HOST_TILING_MATMUL_CORE_SPLIT_H_
