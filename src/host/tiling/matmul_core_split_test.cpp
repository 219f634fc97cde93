// CANN's multi-core matmul split (matmul_core_split.h), against tilings worked out by hand from
// the rule in asc-devkit impl/adv_api/tiling/matmul/matmul_tiling_algorithm.cpp (GetDims) and
// math_util.cpp.
#include "matmul_core_split.h"

#include <gtest/gtest.h>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace matmul_tiling::split {
namespace {

SplitInput Half(int32_t m, int32_t n, int32_t k, int32_t dim) {
  SplitInput in;
  in.m = m;
  in.n = n;
  in.k = k;
  in.block_dim = dim;
  in.l1_bytes = 512 * 1024;  // Ascend910B
  in.l0a_bytes = 64 * 1024;
  in.l0c_bytes = 128 * 1024;
  return in;
}

TEST(MatmulCoreSplit, MapShapeRoundsToTheNextPowerOfTwoAboveTheSeed) {
  EXPECT_EQ(MapShape(7), 7);  // below 16: itself
  EXPECT_EQ(MapShape(32), 32);
  EXPECT_EQ(MapShape(40), 64);
  EXPECT_EQ(MapShape(40, false), 32);
  EXPECT_EQ(MapShape(2000), 2048);  // the seed stops at 1024
}

TEST(MatmulCoreSplit, FactorRichExtentsAreChosen) {
  EXPECT_TRUE(CheckFactorNumSatisfy(8));    // small: always
  EXPECT_FALSE(CheckFactorNumSatisfy(11));  // a prime: divisors 1 and 11 only
  EXPECT_TRUE(CheckFactorNumSatisfy(20));   // 20 has 6 divisors
  EXPECT_EQ(FindBestSingleCore(64, 64, 24), 3);
  EXPECT_EQ(FindBestSingleCore(40, 64, 2), 20);
  EXPECT_EQ(FindBestSingleCore(22, 32, 2), 12);  // 11 is prime: one step towards 32 / 2
  EXPECT_EQ(FindBestSingleCore(7, 7, 1), 7);
}

TEST(MatmulCoreSplit, TwoCoresOnASquareSplitM) {
  // m32 = n32 = 32: both (1 x 2) and (2 x 1) load 96 fractal rows; M is tried first and N
  // neither loads less nor takes fewer L0 steps.
  const SplitResult r = SplitMN(Half(512, 512, 128, 2));
  EXPECT_EQ(r.m_dim, 2);
  EXPECT_EQ(r.n_dim, 1);
  EXPECT_EQ(r.single_core_m, 256);
  EXPECT_EQ(r.single_core_n, 512);
}

TEST(MatmulCoreSplit, TwoCoresOnAWideMatrixStillSplitMWhenNLoadsMore) {
  // 512 x 1024 x 512: K does not fit L1 whole; splitting N loads 64 + 256 = 320 against 288.
  const SplitResult r = SplitMN(Half(512, 1024, 512, 2));
  EXPECT_EQ(r.m_dim, 2);
  EXPECT_EQ(r.n_dim, 1);
  EXPECT_EQ(r.single_core_m, 256);
  EXPECT_EQ(r.single_core_n, 1024);
}

TEST(MatmulCoreSplit, AMiniShapeStaysOnOneCore) {
  const SplitResult r = SplitMN(Half(64, 64, 64, 48));  // 4 x 4 fractals fit L0
  EXPECT_EQ(r.m_dim, 1);
  EXPECT_EQ(r.n_dim, 1);
  EXPECT_EQ(r.single_core_m, 64);
  EXPECT_EQ(r.single_core_n, 64);
}

TEST(MatmulCoreSplit, OddSizesSplitOverPaddedFractals) {
  // m32 = 7, n32 = 5: every candidate keeps the "big package" update, so the last one, 1 x 4,
  // wins; FindBestSingleCore(5, 5, 4) = 2 fractals per core gives 3 cores along N, and the single
  // shapes are ceil(16 * fractals / cores): 112 (past M = 100) and 27.
  const SplitResult r = SplitMN(Half(100, 70, 33, 4));
  EXPECT_EQ(r.m_dim, 1);
  EXPECT_EQ(r.n_dim, 3);
  EXPECT_EQ(r.single_core_m, 112);
  EXPECT_EQ(r.single_core_n, 27);
}

TEST(MatmulCoreSplit, TheMatmulLeakyReluSampleShape) {
  // M = 1024, N = 640, K = 256 over 48 cores (the 0_introduction MatmulLeakyRelu TilingFunc):
  // the search settles on 24 x 2; FindBestSingleCore(64, 64, 24) = 3 fractals of M per core makes
  // 22 cores along M (47 rows each), FindBestSingleCore(40, 64, 2) = 20 makes 2 along N.
  const SplitResult r = SplitMN(Half(1024, 640, 256, 48));
  EXPECT_EQ(r.m_dim, 22);
  EXPECT_EQ(r.n_dim, 2);
  EXPECT_EQ(r.single_core_m, 47);
  EXPECT_EQ(r.single_core_n, 320);
}

TEST(MatmulCoreSplit, OneCoreTakesTheWholeMatrix) {
  const SplitResult r = SplitMN(Half(100, 70, 33, 1));
  EXPECT_EQ(r.m_dim, 1);
  EXPECT_EQ(r.n_dim, 1);
  EXPECT_EQ(r.single_core_m, 100);
  EXPECT_EQ(r.single_core_n, 70);
}

TEST(MatmulCoreSplit, MultiCoreMatmulTilingReportsTheSplit) {
  using namespace matmul_tiling;
  MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1"));
  api.SetDim(48);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(1024, 640, 256);
  api.SetOrgShape(1024, 640, 256);
  api.SetFixSplit(-1, 160, -1);
  api.SetBias(true);
  AscendC::tiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.usedCoreNum, 44);
  EXPECT_EQ(t.singleCoreM, 47);
  EXPECT_EQ(t.singleCoreN, 320);
  EXPECT_EQ(t.singleCoreK, 256);
  EXPECT_EQ(t.baseN, 160);
  int32_t dim = 0, m_dim = 0, n_dim = 0;
  api.GetCoreNum(dim, m_dim, n_dim);
  EXPECT_EQ(dim, 44);
  EXPECT_EQ(m_dim, 22);  // ceil(1024 / 47)
  EXPECT_EQ(n_dim, 2);
}

// The SPLIT_MN scenario (DoMultiCoreSplitMNTiling -> CalcMultiCoreDims), worked by hand from
// CalcComputeIntensity / CalcTotalCycleMemory / CalcBaseBlockBandRatio / AlignSingleShape.
// 512 x 128 x 128 on 2 cores with SetFixSplit(128, 64): both pairs run 4 blocks of 128 x 64 x 64,
// but for 1 x 2 the 128-aligned N (N % 128 == 0, B not transposed) cannot be aligned per core
// (Align(64, 128) = 128 leaves the second core nothing), which doubles its traffic: 2 x 1 wins.
TEST(MatmulCoreSplit, SplitMnScenarioPicksByIntensityThenBandRatio) {
  SplitInput in = Half(512, 128, 128, 2);
  in.split_mn_soc = true;
  in.fix_base_m = 128;
  in.fix_base_n = 64;
  int32_t m_dim = 0, n_dim = 0;
  ASSERT_TRUE(SplitMNScenarioDims(in, &m_dim, &n_dim));
  EXPECT_EQ(m_dim, 2);
  EXPECT_EQ(n_dim, 1);
  const SplitResult r = SplitMN(in);
  EXPECT_EQ(r.m_dim, 2);
  EXPECT_EQ(r.n_dim, 1);
  EXPECT_EQ(r.single_core_m, 256);
  EXPECT_EQ(r.single_core_n, 128);
  // N = 112 is not 128-aligned: no alignment; 1 x 2 runs 4 blocks of 128 x 56, 2 x 1 two of
  // 128 x 64 and two of 128 x 48: the same cycles (448) and traffic (94208 B), and the band ratio
  // decides (128 / 384 for 1 x 2 against 64 / 384): N is split.
  SplitInput narrow = Half(512, 112, 128, 2);
  narrow.split_mn_soc = true;
  narrow.fix_base_m = 128;
  narrow.fix_base_n = 64;
  ASSERT_TRUE(SplitMNScenarioDims(narrow, &m_dim, &n_dim));
  EXPECT_EQ(m_dim, 1);
  EXPECT_EQ(n_dim, 2);
  // 512 x 512 x 128 with the basic block 128 x 256: a tie again, and 2 x 1 has the larger band
  // ratio (256 / 768): M is split (asc-devkit's matmul_advanced_api example).
  SplitInput sq = Half(512, 512, 128, 2);
  sq.split_mn_soc = true;
  ASSERT_TRUE(SplitMNScenarioDims(sq, &m_dim, &n_dim));
  EXPECT_EQ(m_dim, 2);
  EXPECT_EQ(n_dim, 1);
  // 300 x 400 x 64 on 2 cores, odd sizes, basic block 128 x 256 x 64: both pairs take 937.5
  // cycles; 1 x 2 (sm = 300 = 2 x 128 + 44, sn = 200: tails only) moves 115200 B, 2 x 1 (150 x 400:
  // a main block, an N tail, an M tail and a corner) 140800 B: N is split.
  SplitInput odd = Half(300, 400, 64, 2);
  odd.split_mn_soc = true;
  ASSERT_TRUE(SplitMNScenarioDims(odd, &m_dim, &n_dim));
  EXPECT_EQ(m_dim, 1);
  EXPECT_EQ(n_dim, 2);
  // Where CANN does not take this path.
  SplitInput other = in;
  other.split_mn_soc = false;  // e.g. ASCEND310P
  EXPECT_FALSE(SplitMNScenarioDims(other, &m_dim, &n_dim));
  other = in;
  other.split_k = true;
  EXPECT_FALSE(SplitMNScenarioDims(other, &m_dim, &n_dim));
  other = in;
  other.set_shape = true;  // SetShape sets singleM / singleN: the GetDims scenario
  EXPECT_FALSE(SplitMNScenarioDims(other, &m_dim, &n_dim));
  other = Half(100, 4096, 128, 2);  // M < 128
  other.split_mn_soc = true;
  EXPECT_FALSE(SplitMNScenarioDims(other, &m_dim, &n_dim));
  other = Half(256, 200, 128, 2);  // M * N = 51200 <= 26214 * 2: SPLIT_SMALL_MN
  other.split_mn_soc = true;
  EXPECT_FALSE(SplitMNScenarioDims(other, &m_dim, &n_dim));
}

// A tiling given SetOrgShape alone (no SetShape) on Ascend910B takes the SPLIT_MN scenario.
TEST(MatmulCoreSplit, MultiCoreMatmulTilingTakesSplitMnWithoutSetShape) {
  using namespace matmul_tiling;
  MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1"));
  api.SetDim(2);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  api.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(512, 112, 128);
  api.EnableBias(true);
  api.SetFixSplit(128, 64, 128);
  AscendC::tiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.usedCoreNum, 2);
  EXPECT_EQ(t.singleCoreM, 512);  // SPLIT_MN: 1 x 2
  EXPECT_EQ(t.singleCoreN, 56);
}

}  // namespace
}  // namespace matmul_tiling::split
