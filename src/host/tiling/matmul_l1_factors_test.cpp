// CANN's L1 factors in GetTiling (matmul_l1_factors.h), against factors traced by hand from
// asc-devkit 82b89a15f impl/adv_api/tiling/matmul/matmul_tiling_algorithm.cpp (GetL1Factors and
// the candidates it calls, CalcL1Tiling, UpdateTiling). Units in the traces are CANN's: M and N
// in fractals of 16, K in fractals of 32 B of A's type; "L1" is 512 KB (Ascend910B).
#include "matmul_l1_factors.h"

#include <gtest/gtest.h>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace {

using matmul_tiling::CubeFormat;
using matmul_tiling::DataType;
using matmul_tiling::TPosition;
using platform_ascendc::PlatformAscendCManager;

struct Factors {
  int32_t step_ka, depth_a1, step_kb, depth_b1, step_m, step_n;
};

void ExpectFactors(const optiling::TCubeTiling& t, const Factors& want, const char* what) {
  EXPECT_EQ(t.get_stepKa(), want.step_ka) << what;
  EXPECT_EQ(t.get_depthA1(), want.depth_a1) << what;
  EXPECT_EQ(t.get_stepKb(), want.step_kb) << what;
  EXPECT_EQ(t.get_depthB1(), want.depth_b1) << what;
  EXPECT_EQ(t.get_stepM(), want.step_m) << what;
  EXPECT_EQ(t.get_stepN(), want.step_n) << what;
}

// The host code of the T document (asc-devkit docs/zh/guide/算子实践参考/优秀实践/
// Matmul性能调优案例/Matmul算子优化Tiling策略.md): MIX over 40 AIVs of an Ascend910B3, half A and
// B, float C, SetShape, SetFixSplit(128, 256, -1).
optiling::TCubeTiling TDocument(bool trans_b, DataType in, DataType out) {
  using namespace matmul_tiling;
  MultiCoreMatmulTiling api(*PlatformAscendCManager::GetInstance("Ascend910B3"));
  api.SetDim(40);
  api.SetAType(TPosition::GM, CubeFormat::ND, in, false);
  api.SetBType(TPosition::GM, CubeFormat::ND, in, trans_b);
  api.SetCType(TPosition::GM, CubeFormat::ND, out);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(4096, 5120, 4096);
  api.SetShape(4096, 5120, 4096);
  api.SetFixSplit(128, 256, -1);
  optiling::TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

// (a) T document, base 128/256/64: mL0 8, nL0 16, kL0 4, k 256, allTimes 64; maxKBL1 =
// max(32 / (4 + 8), ceil((ceil(32/16) + 3) / 4)) = 2. A's whole K is 256 x 8 fractals = 1 MB, B's
// 2 MB: neither full-load candidate fits. NeitherFullLoadKforND (neither transposed: A's K
// first): B one double-buffered block (4 x 16 x 512 B x 2 = 64 KB), A (512 - 64) KB / (8 x 512 B
// x 2) = 56 fractals = 14 base K, nearest divisor of 64: 8 (kAL1 32, 256 KB); B from the 256 KB
// left: 16 fractals = 4 base K, held to maxKBL1 = 2 (kBL1 8). NeitherFullLoadMN: neither K whole,
// stepM = stepN = 1. UpdateTiling: depth = steps x 2 (double-buffered).
TEST(MatmulL1Factors, TDocumentShapeNeitherInputFitsL1) {
  const optiling::TCubeTiling t = TDocument(false, DataType::DT_FLOAT16, DataType::DT_FLOAT);
  ASSERT_EQ(t.get_baseM(), 128);
  ASSERT_EQ(t.get_baseN(), 256);
  ASSERT_EQ(t.get_baseK(), 64);
  ExpectFactors(t, {8, 16, 2, 4, 1, 1}, "T document");
}

// (d) The same with B transposed: !transA && transB with mL0 8 <= nL0 16 grows B's K first
// (kMaxAxis 2). A one double-buffered block (4 x 8 x 512 B x 2 = 32 KB); B (512 - 32) KB / (16 x
// 512 B x 2) = 30 fractals = 7 base K, nearest divisor of 64: 4 (kBL1 16, 256 KB); A from the
// 256 KB left: 32 fractals = 8 base K, held to maxKAL1 = max(2, ceil((4 + 3) / 4)) = 2 (kAL1 8).
// kBL1 16 is a multiple of kAL1 8: no change.
TEST(MatmulL1Factors, TransposedBGrowsBsKFirst) {
  const optiling::TCubeTiling t = TDocument(true, DataType::DT_FLOAT16, DataType::DT_FLOAT);
  ASSERT_EQ(t.get_baseK(), 64);
  ExpectFactors(t, {2, 4, 4, 8, 1, 1}, "T document, B transposed");
}

// The MDL document's shape (Matmul高阶API使能MDL模板.md: M=128, N=30720, K=1024 on 24 AICs, base
// 128/256/64), host code as in asc-devkit's matmul_unitflag example (SetShape, SetOrgShape).
optiling::TCubeTiling MdlDocument(bool set_shape, bool bias) {
  using namespace matmul_tiling;
  MultiCoreMatmulTiling api(*PlatformAscendCManager::GetInstance("Ascend910B1"));
  api.SetDim(24);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(128, 30720, 1024);
  if (set_shape) api.SetShape(128, 30720, 1024);
  api.SetBias(bias);
  api.SetFixSplit(128, 256, 64);
  optiling::TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

// (b) With SetShape (GetMultiCoreScenario: OTHERS, so GetL1Factors): singleCoreN 1280 (n 80),
// m 8, k 64; allTimes 16, maxKBL1 2. Both whole: B alone is 5 x 16 x 512 B x 64 = 2.5 MB, no.
// A whole (L1StatusAl1FullLoad): 8 x 512 B x 64 = 256 KB, fits; B double-buffered in the 256 KB
// left: 16 fractals = 4 base K, held to 2 (kBL1 8); GM traffic m + 1 x n = 88. Neither:
// NeitherFullLoadKforND gives kAL1 8 base K (of 14 that fit), kBL1 2; traffic 8 x 5 + 80 x 1 =
// 120. The ND check (ceil(64 / kAL1 64) = 1) keeps A's candidate, with the fewer traffic: stepKa
// 16, one buffer (depthA1 16), stepKb 2 double-buffered (depthB1 4). The document prints stepKa =
// stepKb = 4, depthA1 = depthB1 = 8: not what this GetTiling gives for its shape.
TEST(MatmulL1Factors, MdlDocumentShapeLoadsAWholeWithSetShape) {
  const optiling::TCubeTiling t = MdlDocument(true, false);
  ASSERT_EQ(t.get_singleCoreN(), 1280);
  ExpectFactors(t, {16, 16, 2, 4, 1, 1}, "MDL document, SetShape");
}

// The CUBE document's shape (Matmul高阶API使能纯Cube模式.md: K = 64, one base K; m 8, n 80, k 4 =
// kL0): both whole in one buffer each (8 x 512 B x 4 + 5 x 16 x 512 B x 4 = 176 KB), all of
// singleCoreN's 5 blocks of B in one tile; A whole and B whole cost the same traffic (88), so the
// last candidate, both whole, stays: stepKa = stepKb = 1, depthA1 1, stepN 5, depthB1 5. The
// document prints stepKa = stepKb = 4, depth 8, stepN 1.
TEST(MatmulL1Factors, CubeDocumentShapeKeepsAllOfBsBlocks) {
  using namespace matmul_tiling;
  MultiCoreMatmulTiling api(*PlatformAscendCManager::GetInstance("Ascend910B1"));
  api.SetDim(24);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(128, 30720, 64);
  api.SetShape(128, 30720, 64);
  api.SetFixSplit(128, 256, 64);
  optiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  ASSERT_EQ(t.get_singleCoreN(), 1280);
  ExpectFactors(t, {1, 1, 1, 5, 1, 5}, "CUBE document, SetShape");
}

// Without SetShape on a 910B the SPLIT_MN scenario applies (M 128 >= 128, M x N > 26214 x 24) and
// CalcL1Tiling fills L1 regardless of K: A 512 KB / 2 / (128 x 64) x 8 / 16 = 16 blocks, B
// (512 KB + 256) / 2 / (256 x 64) x 8 / 16 = 8 blocks; 16 x 16 KB + 8 x 32 KB = 512 KB fits
// without a bias (stepKa 8, stepKb 4, double-buffered). A float bias row (256 x 4 B) tips it over
// and A's blocks are halved (A's height 128 <= B's width 256): stepKa = stepKb = 4, depth 8 --
// the figures the MDL and CUBE documents print.
TEST(MatmulL1Factors, SplitMnScenarioFillsL1AsCalcL1Tiling) {
  ExpectFactors(MdlDocument(false, false), {8, 16, 4, 8, 1, 1}, "SPLIT_MN, no bias");
  ExpectFactors(MdlDocument(false, true), {4, 8, 4, 8, 1, 1}, "SPLIT_MN, bias");
}

// (c) One core, M=128, N=256, K=512 half: ascsim's base 128/256/64 (m 8, n 16, k 32, kL0 4). Both
// whole in one buffer each: 8 x 512 B x 32 + 16 x 512 B x 32 = 384 KB fits; traffic m + n = 24.
// A whole (kBL1 2 base K within maxKBL1) and B whole (kAL1 2 base K) cost 24 too and neither
// candidate's traffic is lower; ties go to the later candidate, both whole last: stepKa = stepKb
// = 8 (the whole K), depth 8, stepM = stepN = 1 (the whole M and N are one block each).
TEST(MatmulL1Factors, SmallShapeLoadsBothWhole) {
  using namespace matmul_tiling;
  MatmulApiTiling api(*PlatformAscendCManager::GetInstance("Ascend910B1"));
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(128, 256, 512);
  optiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  ASSERT_EQ(t.get_baseM(), 128);
  ASSERT_EQ(t.get_baseN(), 256);
  ASSERT_EQ(t.get_baseK(), 64);
  ExpectFactors(t, {8, 8, 8, 8, 1, 1}, "both whole");
}

// (e) float A and B (not transposed), one core, M = N = 128, K = 1024 (k 128 fractals of 8
// floats). float doubles each fractal's L1 bytes (IsNeedAlign): A's whole K is 8 x 1 KB x 128 =
// 1 MB, B's too; no full load, so NeitherFullLoadKforND (axis 1), where a float B's block counts
// kBL1 x nL0 x 16 x alignK bytes with alignK the bytes of a whole base K row (Align(kL0 x 8, 16) x
// 4 B).
//  - ascsim's base 128/128/64 (kL0 8, allTimes 16): B's one double-buffered block is 8 x 8 x 16 x
//    256 B x 2 = 512 KB, all of L1, so A gets 0 fractals, raised to one base K; B then 448 KB /
//    (8 x 16 x 2 x 256 B) = 7 fractals, less than a base K, raised to one. stepKa = stepKb = 1,
//    double-buffered.
//  - SetFixSplit(-1, -1, 32) (kL0 4, allTimes 32, alignK 128 B): B's block 128 KB; A 384 KB /
//    (8 x 512 B x 2) = 48 fractals = 12 base K, nearest divisor of 32: 8 (256 KB); B 256 KB /
//    (8 x 16 x 2 x 128 B) = 8 fractals = 2 base K, maxKBL1 = max(32 / (4 + 8), 1) = 2.
//    UpdateDepthB1 (float B on the 910B): (16 x 32 x 128 + 32 x 128 x 4) x 4 B = 320 KB fits.
optiling::TCubeTiling FloatTiling(int32_t base_k) {
  using namespace matmul_tiling;
  MatmulApiTiling api(*PlatformAscendCManager::GetInstance("Ascend910B1"));
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(128, 128, 1024);
  api.SetFixSplit(-1, -1, base_k);
  optiling::TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

TEST(MatmulL1Factors, FloatInputsCountKInPairsOfFractals) {
  const optiling::TCubeTiling t = FloatTiling(-1);
  ASSERT_EQ(t.get_baseM(), 128);
  ASSERT_EQ(t.get_baseN(), 128);
  ASSERT_EQ(t.get_baseK(), 64);
  ExpectFactors(t, {1, 2, 1, 2, 1, 1}, "float, base K 64");
  const optiling::TCubeTiling t32 = FloatTiling(32);
  ASSERT_EQ(t32.get_baseK(), 32);
  ExpectFactors(t32, {8, 16, 2, 4, 1, 1}, "float, base K 32");
}

// The rule alone: CANN's neither-full-load candidate raises each K tile to one base K even where
// that does not fit (the caller checks the buffers: ChooseBase keeps its own depths then), single
// buffers when two do not fit; a base K off the fractal has no factors.
TEST(MatmulL1Factors, OneBlockEachWhereL1IsTooSmall) {
  using namespace matmul_tiling;
  l1::L1Input in;
  in.single_m = in.single_n = in.single_k = in.whole_k = 4096;
  in.base_m = 256;
  in.base_n = 256;
  in.base_k = 512;
  in.l1_bytes = 64 * 1024;  // one block of A is 256 KB
  l1::L1Factors f;
  ASSERT_TRUE(l1::ComputeL1Factors(in, &f));
  EXPECT_EQ(f.step_ka, 1);
  EXPECT_EQ(f.step_kb, 1);
  EXPECT_EQ(f.depth_a1, 1);
  EXPECT_EQ(f.depth_b1, 1);
  f.step_ka = 7;
  in.base_k = 40;  // not a multiple of a half's 16-element K fractal
  EXPECT_FALSE(l1::ComputeL1Factors(in, &f));
  EXPECT_EQ(f.step_ka, 7);
}

// Where CANN's factors would give ascsim's CFG_NORM more A1 / B1 tiles than it takes (32 each:
// one TPipe holds 64 buffers), GetTiling keeps one block per tile. One core, M = N = 16, K = 8192
// half, base 16/16/16 (k 512 = 512 base K): both whole fit exactly (16 x 8192 x 2 B twice = 512
// KB) and cost the least traffic, i.e. stepKa = stepKb = 512; that falls back to steps 1, depth 2.
TEST(MatmulL1Factors, TooManyNormTilesFallBackToOneBlockPerTile) {
  using namespace matmul_tiling;
  l1::L1Input in;
  in.single_m = in.single_n = 16;
  in.single_k = in.whole_k = 8192;
  in.base_m = in.base_n = in.base_k = 16;
  l1::L1Factors f;
  ASSERT_TRUE(l1::ComputeL1Factors(in, &f));
  EXPECT_EQ(f.step_ka, 512);
  EXPECT_EQ(f.depth_a1, 512);
  EXPECT_EQ(f.step_kb, 512);
  EXPECT_EQ(f.depth_b1, 512);
  MatmulApiTiling api(*PlatformAscendCManager::GetInstance("Ascend910B1"));
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(16, 16, 8192);
  api.SetFixSplit(16, 16, 16);
  optiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  ExpectFactors(t, {1, 2, 1, 2, 1, 1}, "fallback");
}

// GetMultiCoreScenario: only on a SPLIT_MN SoC, without SetShape or split K, over several cores.
TEST(MatmulL1Factors, SplitScenarioNeedsNoSetShapeAndSeveralCores) {
  using matmul_tiling::l1::SplitScenario;
  EXPECT_TRUE(SplitScenario(true, false, false, false, 24, 128, 30720));   // SPLIT_MN
  EXPECT_TRUE(SplitScenario(true, false, false, false, 24, 64, 64));       // SPLIT_SMALL_MN
  EXPECT_FALSE(SplitScenario(true, false, false, false, 24, 100, 262140));  // between: OTHERS
  EXPECT_FALSE(SplitScenario(true, false, true, false, 24, 128, 30720));
  EXPECT_FALSE(SplitScenario(true, true, false, false, 24, 128, 30720));
  EXPECT_FALSE(SplitScenario(false, false, false, false, 24, 128, 30720));
  EXPECT_FALSE(SplitScenario(true, false, false, false, 1, 128, 30720));
}

}  // namespace
