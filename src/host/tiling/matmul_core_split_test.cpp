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

}  // namespace
}  // namespace matmul_tiling::split
