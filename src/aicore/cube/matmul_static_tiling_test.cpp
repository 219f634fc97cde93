// Constant Matmul tiling: GetMatmulApiTiling of a MatmulConfig that carries the shapes gives a
// MatmulApiStaticTiling, which a kernel passes as the MM_CFG of Matmul<...> and then initialises
// with a null tiling (fully constant) or with a runtime TCubeTiling whose fields the constant ones
// override (partly constant). The results must be those of the same Matmul driven by a runtime
// tiling with the same fields, bit for bit, and match a float64 reference.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"

namespace {

using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;

template <class T>
using GmNd = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;

// A fully constant MDL configuration of the shape (m, n, k) in (bm, bn, bk) blocks.
constexpr MatmulConfig FullCfg(uint32_t m, uint32_t n, uint32_t k, uint32_t bm, uint32_t bn,
                               uint32_t bk, bool bias) {
  MatmulConfig c = GetMDLConfig();
  c.singleCoreM = m;
  c.singleCoreN = n;
  c.singleCoreK = k;
  c.basicM = bm;
  c.basicN = bn;
  c.basicK = bk;
  c.enableSetBias = bias;
  return c;
}

// half, 70 x 90 x 300 in 32 x 32 x 64 blocks, with a bias: everything fits L1 whole.
constexpr MatmulConfig kHalfCfg = FullCfg(70, 90, 300, 32, 32, 64, true);
constexpr MatmulApiStaticTiling kHalfTiling =
    AscendC::GetMatmulApiTiling<GmNd<half>, GmNd<half>, GmNd<float>, GmNd<float>>(kHalfCfg);
// float, 33 x 40 x 72 in 16 x 16 x 16 blocks, no bias.
constexpr MatmulConfig kFloatCfg = FullCfg(33, 40, 72, 16, 16, 16, false);
constexpr MatmulApiStaticTiling kFloatTiling =
    AscendC::GetMatmulApiTiling<GmNd<float>, GmNd<float>, GmNd<float>, GmNd<float>>(kFloatCfg);
// half, constant for at most 128 x 256 x 4096 (as ops-transformer grouped_matmul sizes it): the
// kernel sets the real shape with SetOrgShape / SetSingleShape.
constexpr MatmulConfig kBigCfg = FullCfg(128, 256, 4096, 64, 128, 64, false);
constexpr MatmulApiStaticTiling kBigTiling =
    AscendC::GetMatmulApiTiling<GmNd<half>, GmNd<half>, GmNd<float>, GmNd<float>>(kBigCfg);
// Partly constant: only the base block (the shapes come from the runtime tiling).
constexpr MatmulConfig PartCfg() {
  MatmulConfig c = GetMDLConfig();
  c.basicM = 32;
  c.basicN = 32;
  c.basicK = 32;
  c.enableSetBias = false;
  return c;
}
constexpr MatmulApiStaticTiling kPartTiling =
    AscendC::GetMatmulApiTiling<GmNd<half>, GmNd<half>, GmNd<float>, GmNd<float>>(PartCfg());

// Kernel parameters in GM: m, n, k, trans (bit 0 A is K x M, bit 1 B is N x K), bias.
struct Params {
  uint32_t m, n, k, trans, bias;
};

__aicore__ inline Params ReadParams(GM_ADDR p) {
  auto src = reinterpret_cast<__gm__ uint32_t*>(p);
  return Params{src[0], src[1], src[2], src[3], src[4]};
}

template <class T>
__aicore__ inline void Bind(const Params& p, GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                            AscendC::GlobalTensor<T>& ag, AscendC::GlobalTensor<T>& bg,
                            AscendC::GlobalTensor<float>& biasg,
                            AscendC::GlobalTensor<float>& cg) {
  ag.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), p.m * p.k);
  bg.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), p.k * p.n);
  cg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), p.m * p.n);
  biasg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), p.n);
}

// The constant tiling: REGIST_MATMUL_OBJ with a null tiling; the shapes of the call set by
// SetOrgShape / SetSingleShape when `setShape` (a constant larger than the matrix).
template <class T, const auto& TILING>
__aicore__ inline void StaticMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR prm,
                                    bool setShape) {
  const Params p = ReadParams(prm);
  AscendC::TPipe pipe;
  AscendC::Matmul<GmNd<T>, GmNd<T>, GmNd<float>, GmNd<float>, TILING> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, (TCubeTiling*)nullptr);
  AscendC::GlobalTensor<T> ag, bg;
  AscendC::GlobalTensor<float> biasg, cg;
  Bind<T>(p, a, b, bias, c, ag, bg, biasg, cg);
  if (setShape) {
    mm.SetOrgShape(p.m, p.n, p.k);
    mm.SetSingleShape(p.m, p.n, p.k);
  }
  mm.SetTensorA(ag, (p.trans & 1) != 0);
  mm.SetTensorB(bg, (p.trans & 2) != 0);
  if (p.bias) mm.SetBias(biasg);
  mm.IterateAll(cg);
  mm.End();
}

// The same Matmul under CFG_MDL with a runtime tiling read from GM (after the parameters).
template <class T>
__aicore__ inline void RuntimeMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR prm) {
  const Params p = ReadParams(prm);
  TCubeTiling tiling;
  auto src = reinterpret_cast<__gm__ uint32_t*>(prm) + 8;
  uint32_t* dst = reinterpret_cast<uint32_t*>(&tiling);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
  AscendC::TPipe pipe;
  AscendC::Matmul<GmNd<T>, GmNd<T>, GmNd<float>, GmNd<float>, CFG_MDL> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::GlobalTensor<T> ag, bg;
  AscendC::GlobalTensor<float> biasg, cg;
  Bind<T>(p, a, b, bias, c, ag, bg, biasg, cg);
  mm.SetTensorA(ag, (p.trans & 1) != 0);
  mm.SetTensorB(bg, (p.trans & 2) != 0);
  if (p.bias) mm.SetBias(biasg);
  mm.IterateAll(cg);
  mm.End();
}

// Partly constant: the runtime tiling (read from GM) gives the shapes, the constant the blocks.
__aicore__ inline void PartMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR prm,
                                  bool nullTiling) {
  const Params p = ReadParams(prm);
  TCubeTiling tiling;
  auto src = reinterpret_cast<__gm__ uint32_t*>(prm) + 8;
  uint32_t* dst = reinterpret_cast<uint32_t*>(&tiling);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
  AscendC::TPipe pipe;
  AscendC::Matmul<GmNd<half>, GmNd<half>, GmNd<float>, GmNd<float>, kPartTiling> mm;
  mm.Init(nullTiling ? nullptr : &tiling, &pipe);
  AscendC::GlobalTensor<half> ag, bg;
  AscendC::GlobalTensor<float> biasg, cg;
  Bind<half>(p, a, b, bias, c, ag, bg, biasg, cg);
  mm.SetTensorA(ag, (p.trans & 1) != 0);
  mm.SetTensorB(bg, (p.trans & 2) != 0);
  mm.IterateAll(cg);
  mm.End();
}

}  // namespace

#define ASCSIM_ST_KERNEL(name, body)                                                          \
  extern "C" __global__ __aicore__ void name(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, \
                                             GM_ADDR prm) {                                 \
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);                                         \
    body;                                                                                   \
  }
ASCSIM_ST_KERNEL(mm_static_half, (StaticMatmul<half, kHalfTiling>(a, b, bias, c, prm, false)))
ASCSIM_ST_KERNEL(mm_static_float, (StaticMatmul<float, kFloatTiling>(a, b, bias, c, prm, false)))
ASCSIM_ST_KERNEL(mm_static_big, (StaticMatmul<half, kBigTiling>(a, b, bias, c, prm, true)))
ASCSIM_ST_KERNEL(mm_runtime_half, (RuntimeMatmul<half>(a, b, bias, c, prm)))
ASCSIM_ST_KERNEL(mm_runtime_float, (RuntimeMatmul<float>(a, b, bias, c, prm)))
ASCSIM_ST_KERNEL(mm_part_half, (PartMatmul(a, b, bias, c, prm, false)))
ASCSIM_ST_KERNEL(mm_part_null, (PartMatmul(a, b, bias, c, prm, true)))

namespace {

// A runtime TCubeTiling of the given shape with every field the constant tiling fixes.
TCubeTiling RuntimeOf(const MatmulApiStaticTiling& s, int32_t m, int32_t n, int32_t k, bool bias) {
  TCubeTiling t{};
  t.usedCoreNum = 1;
  t.M = t.singleCoreM = m;
  t.N = t.singleCoreN = n;
  t.Ka = t.Kb = t.singleCoreK = k;
  t.baseM = s.baseM;
  t.baseN = s.baseN;
  t.baseK = s.baseK;
  t.depthA1 = s.depthA1;
  t.depthB1 = s.depthB1;
  t.stepM = s.stepM;
  t.stepN = s.stepN;
  t.stepKa = s.stepKa;
  t.stepKb = s.stepKb;
  t.isBias = bias ? 1 : 0;
  t.iterateOrder = s.iterateOrder;
  t.dbL0A = s.dbL0A;
  t.dbL0B = s.dbL0B;
  t.dbL0C = 1;
  return t;
}

using Kernel = void (*)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);

template <class T>
std::vector<float> RunKernel(Kernel kernel, const Params& p, const TCubeTiling* tiling,
                             const std::vector<T>& a, const std::vector<T>& b,
                             const std::vector<float>& bias) {
  std::vector<uint32_t> prm(8 + sizeof(TCubeTiling) / 4, 0);
  std::memcpy(prm.data(), &p, sizeof(p));
  if (tiling != nullptr) std::memcpy(prm.data() + 8, tiling, sizeof(TCubeTiling));
  DeviceBuffer da(a.size() * sizeof(T)), db(b.size() * sizeof(T)), dbias(bias.size() * 4),
      dc(size_t(p.m) * p.n * 4), dp(prm.size() * 4);
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  std::memcpy(dbias.gm(), bias.data(), dbias.bytes());
  std::memcpy(dp.gm(), prm.data(), dp.bytes());
  std::memset(dc.gm(), 0xff, dc.bytes());
  ICPU_RUN_KF(kernel, 1, da.gm(), db.gm(), dbias.gm(), dc.gm(), dp.gm());
  std::vector<float> c(size_t(p.m) * p.n);
  std::memcpy(c.data(), dc.gm(), dc.bytes());
  return c;
}

template <class T>
void ExpectReference(const std::vector<float>& c, const Params& p, const std::vector<T>& a,
                     const std::vector<T>& b, const std::vector<float>& bias) {
  size_t bad = 0;
  for (uint32_t i = 0; i < p.m; ++i) {
    for (uint32_t j = 0; j < p.n; ++j) {
      double want = p.bias ? bias[j] : 0.0;
      for (uint32_t q = 0; q < p.k; ++q) {
        const T av = (p.trans & 1) ? a[size_t(q) * p.m + i] : a[size_t(i) * p.k + q];
        const T bv = (p.trans & 2) ? b[size_t(j) * p.k + q] : b[size_t(q) * p.n + j];
        want += double(static_cast<float>(av)) * double(static_cast<float>(bv));
      }
      const double got = c[size_t(i) * p.n + j];
      if (!(std::fabs(got - want) <= 1e-4 * std::sqrt(double(p.k)) + 1e-5) && bad++ < 5) {
        ADD_FAILURE() << "C[" << i << "][" << j << "] = " << got << ", want " << want;
      }
    }
  }
  EXPECT_EQ(bad, 0u);
}

// Static and runtime tilings of one shape give the same bits, and the reference.
template <class T>
void CheckSame(Kernel stat, Kernel runtime, const MatmulApiStaticTiling& s, const Params& p) {
  const auto a = RandomVector<T>(size_t(p.m) * p.k, -1, 1, 91);
  const auto b = RandomVector<T>(size_t(p.k) * p.n, -1, 1, 92);
  const auto bias = RandomVector<float>(p.n, -1, 1, 93);
  const TCubeTiling rt = RuntimeOf(s, p.m, p.n, p.k, p.bias != 0);
  const std::vector<float> cs = RunKernel<T>(stat, p, nullptr, a, b, bias);
  const std::vector<float> cr = RunKernel<T>(runtime, p, &rt, a, b, bias);
  EXPECT_EQ(std::memcmp(cs.data(), cr.data(), cs.size() * 4), 0)
      << "constant and runtime tilings give different results";
  ExpectReference<T>(cs, p, a, b, bias);
}

int32_t CeilDiv(int32_t a, int32_t b) { return (a + b - 1) / b; }

// The fields of a fully constant tiling against their definitions, for a shape whose inputs fit
// L1 whole (one buffer each, every block of M / N and all of K in one tile).
void ExpectWholeInL1(const MatmulApiStaticTiling& s, const MatmulConfig& c, int32_t c0,
                     int32_t inBytes) {
  EXPECT_EQ(s.M, int32_t(c.singleCoreM));
  EXPECT_EQ(s.N, int32_t(c.singleCoreN));
  EXPECT_EQ(s.Ka, int32_t(c.singleCoreK));
  EXPECT_EQ(s.Kb, int32_t(c.singleCoreK));
  EXPECT_EQ(s.singleCoreK, int32_t(c.singleCoreK));
  EXPECT_EQ(s.baseM, int32_t(c.basicM));
  EXPECT_EQ(s.baseK, int32_t(c.basicK));
  const int32_t kSteps = CeilDiv(CeilDiv(c.singleCoreK, c0), c.basicK / c0);
  EXPECT_EQ(s.stepKa, kSteps);
  EXPECT_EQ(s.stepKb, kSteps);
  EXPECT_EQ(s.stepM, CeilDiv(CeilDiv(c.singleCoreM, 16), CeilDiv(c.basicM, 16)));
  EXPECT_EQ(s.stepN, CeilDiv(CeilDiv(c.singleCoreN, 16), CeilDiv(c.basicN, 16)));
  EXPECT_EQ(s.depthA1, s.stepKa * s.stepM);
  EXPECT_EQ(s.depthB1, s.stepKb * s.stepN);
  EXPECT_EQ(s.isBias, c.enableSetBias ? 1 : 0);
  EXPECT_EQ(s.dbL0A, int32_t(c.basicM * c.basicK) * inBytes > 32 * 1024 ? 1 : 2);
  EXPECT_EQ(s.dbL0B, int32_t(c.basicN * c.basicK) * inBytes > 32 * 1024 ? 1 : 2);
  EXPECT_EQ(s.dbL0C, 1);
  EXPECT_EQ(s.shareL0CSize, int32_t(c.basicM * c.basicN) * 4);
  EXPECT_EQ(s.cfg.doMultiDataLoad, c.doMultiDataLoad);
}

TEST(MatmulStaticTiling, FullyConstantFieldsFollowTheConfig) {
  ExpectWholeInL1(kHalfTiling, kHalfCfg, 16, 2);
  ExpectWholeInL1(kFloatTiling, kFloatCfg, 8, 4);
  // Both whole: the iterate order reloads the smaller input (M first when N's tiles are fewer).
  const int32_t sm = kHalfCfg.singleCoreM, sn = kHalfCfg.singleCoreN;
  const int32_t mLoop = CeilDiv(sm, kHalfTiling.stepM * kHalfTiling.baseM);
  const int32_t nLoop = CeilDiv(sn, kHalfTiling.stepN * kHalfTiling.baseN);
  EXPECT_EQ(kHalfTiling.iterateOrder, (sm + sn * mLoop) < (sn + sm * nLoop) ? 1 : 0);
}

TEST(MatmulStaticTiling, LargeKFallsBackToOneBaseBlockPerTileDoubleBuffered) {
  // 128 x 4096 of A and 256 x 4096 of B (3 MiB) cannot sit in 512 KiB of L1.
  EXPECT_EQ(kBigTiling.stepKa, 1);
  EXPECT_EQ(kBigTiling.stepKb, 1);
  EXPECT_EQ(kBigTiling.stepM, 1);
  EXPECT_EQ(kBigTiling.stepN, 1);
  EXPECT_EQ(kBigTiling.depthA1, 2);
  EXPECT_EQ(kBigTiling.depthB1, 2);
  EXPECT_EQ(kBigTiling.iterateOrder, 0);
  // 128 x 64 of half is 16 KiB: L0B (64 KiB) double-buffers it; 64 x 64 too.
  EXPECT_EQ(kBigTiling.dbL0A, 2);
  EXPECT_EQ(kBigTiling.dbL0B, 2);
  // A smaller L1 budget leaves a single buffer.
  constexpr MatmulApiStaticTiling small =
      AscendC::GetMatmulApiTiling<GmNd<half>, GmNd<half>, GmNd<float>, GmNd<float>>(kBigCfg,
                                                                                    3 * 8192);
  EXPECT_EQ(small.depthA1, 1);
  EXPECT_EQ(small.depthB1, 1);
}

TEST(MatmulStaticTiling, PartlyConstantFixesOnlyTheBaseBlock) {
  EXPECT_EQ(kPartTiling.baseM, 32);
  EXPECT_EQ(kPartTiling.baseN, 32);
  EXPECT_EQ(kPartTiling.baseK, 32);
  EXPECT_EQ(kPartTiling.isBias, 0);
  EXPECT_EQ(kPartTiling.dbL0A, 2);
  EXPECT_EQ(kPartTiling.M, -1);
  EXPECT_EQ(kPartTiling.singleCoreK, -1);
  EXPECT_EQ(kPartTiling.depthA1, -1);
  EXPECT_EQ(kPartTiling.stepKa, -1);
  // Without basicM/N/K nothing is fixed.
  constexpr MatmulApiStaticTiling none =
      AscendC::GetMatmulApiTiling<GmNd<half>, GmNd<half>, GmNd<float>, GmNd<float>>(CFG_NORM);
  EXPECT_EQ(none.baseM, -1);
  EXPECT_EQ(none.isBias, -1);
  EXPECT_TRUE(none.cfg.doNorm);
}

TEST(MatmulStaticTiling, HalfRunsAsWithTheRuntimeTiling) {
  for (uint32_t trans = 0; trans < 4; ++trans) {
    SCOPED_TRACE("trans " + std::to_string(trans));
    CheckSame<half>(mm_static_half, mm_runtime_half, kHalfTiling, Params{70, 90, 300, trans, 1});
  }
}

TEST(MatmulStaticTiling, FloatRunsAsWithTheRuntimeTiling) {
  CheckSame<float>(mm_static_float, mm_runtime_float, kFloatTiling, Params{33, 40, 72, 2, 0});
}

TEST(MatmulStaticTiling, ConstantLargerThanTheMatrixTakesTheShapeFromSetOrgShape) {
  // The tiling is constant for 128 x 256 x 4096; the call is 77 x 150 x 200.
  const Params p{77, 150, 200, 0, 0};
  CheckSame<half>(mm_static_big, mm_runtime_half, kBigTiling, p);
}

TEST(MatmulStaticTiling, PartlyConstantTakesTheRestFromTheRuntimeTiling) {
  const Params p{50, 70, 100, 1, 0};
  const auto a = RandomVector<half>(size_t(p.m) * p.k, -1, 1, 94);
  const auto b = RandomVector<half>(size_t(p.k) * p.n, -1, 1, 95);
  const std::vector<float> bias(p.n, 0.0f);
  // The runtime tiling says 64 x 64 x 64 blocks; the constant 32 x 32 x 32 wins.
  TCubeTiling rt = RuntimeOf(kHalfTiling, p.m, p.n, p.k, false);
  rt.baseM = rt.baseN = rt.baseK = 64;
  rt.stepM = rt.stepN = rt.stepKa = rt.stepKb = 1;
  rt.depthA1 = rt.depthB1 = 2;
  const std::vector<float> c = RunKernel<half>(mm_part_half, p, &rt, a, b, bias);
  ExpectReference<half>(c, p, a, b, bias);
  TCubeTiling same = rt;
  same.baseM = same.baseN = same.baseK = 32;
  const std::vector<float> cr = RunKernel<half>(mm_runtime_half, p, &same, a, b, bias);
  EXPECT_EQ(std::memcmp(c.data(), cr.data(), c.size() * 4), 0);
}

TEST(MatmulStaticTilingRules, PartlyConstantNeedsTheRuntimeTiling) {
  const Params p{50, 70, 100, 0, 0};
  const auto a = RandomVector<half>(size_t(p.m) * p.k, -1, 1, 96);
  const auto b = RandomVector<half>(size_t(p.k) * p.n, -1, 1, 97);
  const std::vector<float> bias(p.n, 0.0f);
  const std::string msg =
      ErrorOf([&] { RunKernel<half>(mm_part_null, p, nullptr, a, b, bias); });
  EXPECT_NE(msg.find("block 0/1 AIC: Matmul::Init: the tiling pointer is null and the "
                     "constant tiling leaves M, N, Ka, Kb, singleCoreM, singleCoreN, singleCoreK, "
                     "depthA1, depthB1, stepM, stepN, stepKa, stepKb open (-1)"),
            std::string::npos)
      << msg;
}

}  // namespace
