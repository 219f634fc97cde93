// The cost model against the published MIX Matmul points (calibration_matmul.h has the sources),
// and the mix-launch bandwidth rule: a MIX Matmul (the Matmul API called from the AIVs, served by
// their AIC through the message framework, REGIST_MATMUL_OBJ without ASCENDC_CUBE_ONLY) is
// written here in the documents' style: the tiling splits over the AIVs (SetDim(AIV count)),
// blockDim counts AICs, each AIV its own block of C.
#include <string>

#include "calibration_matmul.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"

namespace {

using calibration_mm::Check;
using calibration_mm::MaxCoreTime;
using calibration_mm::MmBuffers;
using calibration_mm::MmShape;
using calibration_mm::PipeMean;

__aicore__ inline void CopyTiling(TCubeTiling* tiling, GM_ADDR tilingGm) {
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

template <const auto& CFG>
__aicore__ inline void MixMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  CopyTiling(&tiling, tilingGm);
  using A_TYPE = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
  using B_TYPE = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
  using C_TYPE = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
  using BIAS_TYPE = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
  AscendC::Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, CFG> matmulObj;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), matmulObj, &tiling);
  if (AscendC::GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) return;
  const uint32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const uint32_t row0 = AscendC::GetBlockIdx() % mBlocks * tiling.singleCoreM;
  const uint32_t col0 = AscendC::GetBlockIdx() / mBlocks * tiling.singleCoreN;
  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), tiling.M * tiling.Ka);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), tiling.Kb * tiling.N);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
  matmulObj.SetTail(std::min<int32_t>(tiling.singleCoreM, tiling.M - row0),
                    std::min<int32_t>(tiling.singleCoreN, tiling.N - col0));
  matmulObj.SetTensorA(aGlobal[row0 * tiling.Ka]);
  matmulObj.SetTensorB(bGlobal[col0]);
  matmulObj.IterateAll(cGlobal[row0 * tiling.N + col0]);
  matmulObj.End();
}

}  // namespace

extern "C" __global__ __aicore__ void calib_mm_mix_norm(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                        GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  MixMatmul<CFG_NORM>(a, b, c, tiling);
}
extern "C" __global__ __aicore__ void calib_mm_mix_mdl(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                       GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  MixMatmul<CFG_MDL>(a, b, c, tiling);
}
// The cube-only kernel of model_calibration_matmul_test.cpp (the same product on the AICs alone).
extern "C" __global__ __aicore__ void calib_mm_cube_norm(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                         GM_ADDR workspace, GM_ADDR tiling);

namespace {

template <class Run>
ascsim::LaunchEstimate Estimate(const MmShape& s, uint32_t block_dim, Run run,
                                const char* soc = "Ascend910B1") {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(0);
  const std::string before = ascsim::CurrentSoc().name;
  ascsim::SetSoc(soc);
  ascsim::LaunchEstimate e;
  {
    MmBuffers buf(s);
    ascsim::Profiler prof;
    run(block_dim, buf.p[0], buf.p[1], buf.p[2], buf.p[3], buf.p[4]);
    prof.Stop();
    e = prof.Summary().at(0);
  }
  ascsim::SetSoc(before);
  return e;
}
#define ASCSIM_CALIB_RUNNER(kernel)                                       \
  [](uint32_t d, GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR w, GM_ADDR t) { \
    ICPU_RUN_KF(kernel, d, a, b, c, w, t);                                \
  }

// Pure Cube document, MIX side: M=128, N=30720, K=64 split over the 48 AIVs, 24 blocks.
TEST(ModelCalibrationMatmul, MixSmallK) {
  const MmShape s{128, 30720, 64, 48, 128, 256, 64, calibration_mm::kPublishedL1};
  const ascsim::LaunchEstimate e = Estimate(s, 24, ASCSIM_CALIB_RUNNER(calib_mm_mix_norm));
  // Each AIC serves two clients: two objects' set-up, six base blocks, and four requests
  // (IterateAll, End) it takes before it issues their work.
  Check("matmul 128x30720x64 MIX: max aic_time", MaxCoreTime(e, true), 17.85, 0.15);
  Check("matmul 128x30720x64 MIX: aic_scalar_time", PipeMean(e, "S", true), 15.02, 0.25);
}

// Tiling-strategy document: M=4096, N=5120, K=4096 as a MIX launch on a 20-core A2 (Ascend910B3
// here: 20 AICs, 40 AIVs), the tiling over twice the blocks. 4 blocks against 20 with base
// [64, 64, 256] (Task Duration), then base [128, 256, 64] (aic_mte2_time), then CFG_MDL.
TEST(ModelCalibrationMatmul, LargeShapeCoresBaseBlockAndMdl) {
  const MmShape four{4096, 5120, 4096, 8, 64, 64, 256};
  const MmShape twenty{4096, 5120, 4096, 40, 64, 64, 256};
  // The document's host code sets no L1 factors: GetTiling computes them as CANN's does
  // (src/host/tiling/matmul_l1_factors.h; for this shape stepKa 8, depthA1 16, stepKb 2,
  // depthB1 4, traced in matmul_l1_factors_test.cpp).
  const MmShape base{4096, 5120, 4096, 40, 128, 256, 64};
  const char* soc = "Ascend910B3";
  const ascsim::LaunchEstimate e4 = Estimate(four, 4, ASCSIM_CALIB_RUNNER(calib_mm_mix_norm), soc);
  const ascsim::LaunchEstimate e20 =
      Estimate(twenty, 20, ASCSIM_CALIB_RUNNER(calib_mm_mix_norm), soc);
  const ascsim::LaunchEstimate eb = Estimate(base, 20, ASCSIM_CALIB_RUNNER(calib_mm_mix_norm), soc);
  const ascsim::LaunchEstimate em = Estimate(base, 20, ASCSIM_CALIB_RUNNER(calib_mm_mix_mdl), soc);
  Check("matmul 4096x5120x4096, 4 blocks, base 64/64/256: Task Duration", e4.task_duration_us,
        12045, 0.15);
  Check("matmul 4096x5120x4096, 20 blocks, base 64/64/256: Task Duration", e20.task_duration_us,
        2532, 0.15);
  Check("matmul 4096x5120x4096, 20 blocks, base 64/64/256: aic_mte2_time",
        PipeMean(e20, "MTE2", true), 2452, 0.25);
  Check("matmul 4096x5120x4096, 20 blocks, base 128/256/64: aic_mte2_time",
        PipeMean(eb, "MTE2", true), 808, 0.25);
  // With CANN's L1 factors CFG_MDL copies 128 rows of 1 KB (A) and of 512 B (B) where CFG_NORM
  // copies 128 rows of 128 B and 64 of 512 B: 2.4x fewer rows for the same bytes.
  Check("matmul 4096x5120x4096, 20 blocks, CFG_MDL: aic_mte2_time", PipeMean(em, "MTE2", true), 591,
        0.25);
  // The differences: 20 blocks against 4 (published 4.76x), the larger base block (3.03x).
  EXPECT_GT(e4.task_duration_us / e20.task_duration_us, 4.0);
  EXPECT_GT(PipeMean(e20, "MTE2", true) / PipeMean(eb, "MTE2", true), 2.4);
}

// The mix-launch rule (issue 24): GM bandwidth goes to the transfers in flight, never to idle
// AIV Matmul clients. A 1024^3 half Matmul as a MIX launch (24 blocks, the tiling over 48 AIVs)
// moves its data on the AICs only: its bound must name the memory the AICs' MTE2 saturate, as
// their utilisation says, and it must not be estimated as if 72 sub-cores shared GM.
TEST(ModelCalibrationMatmul, MixLaunchSharesGmOnlyAmongActiveCores) {
  const MmShape mix_shape{1024, 1024, 1024, 48, 128, 256, 64};
  const MmShape aic_shape{1024, 1024, 1024, 24, 128, 256, 64};
  const ascsim::LaunchEstimate mix =
      Estimate(mix_shape, 24, ASCSIM_CALIB_RUNNER(calib_mm_mix_norm));
  const ascsim::LaunchEstimate aic =
      Estimate(aic_shape, 24, ASCSIM_CALIB_RUNNER(calib_mm_cube_norm));
  double aic_mte2_ratio = 0;
  int aics = 0;
  for (const ascsim::CoreEstimate& c : mix.cores) {
    if (!c.cube) continue;
    aic_mte2_ratio += c.utilisation.at("MTE2");
    ++aics;
    // MTE2 is each AIC's busiest pipe but the scalar one: the Matmul's own scalar work (set-up,
    // blocks, the four client requests) runs beside it and is about as long once L2 hits are
    // read at L2's bandwidth (docs/calibration.md).
    for (const auto& [pipe, ratio] : c.utilisation) {
      if (pipe == "S") continue;
      EXPECT_LE(ratio, c.utilisation.at("MTE2")) << pipe << " of AIC block " << c.block;
    }
  }
  for (const ascsim::CoreEstimate& c : mix.cores) {
    if (c.cube) continue;
    auto it = c.busy_us.find("MTE2");
    EXPECT_TRUE(it == c.busy_us.end() || it->second == 0) << "AIV block " << c.block;
  }
  ASSERT_EQ(aics, 24);
  aic_mte2_ratio /= aics;
  std::printf(
      "| mix 1024^3: %.2f us, bound %s, aic_mte2_ratio %.3f, rows off 512 B %llu | AIC-only: "
      "%.2f us, %s, rows off 512 B %llu |\n",
      mix.estimated_us, mix.bound.c_str(), aic_mte2_ratio,
      static_cast<unsigned long long>(mix.memory.unaligned_rows), aic.estimated_us,
      aic.bound.c_str(), static_cast<unsigned long long>(aic.memory.unaligned_rows));
  // The bound and the utilisation agree: MTE2 busy most of the time means GM-bound. (Each AIC
  // also takes four client requests, 6.6 us in which it issues nothing: MTE2 cannot be busy
  // then.)
  EXPECT_GE(aic_mte2_ratio, 0.70);
  EXPECT_EQ(mix.bound, "GM bandwidth");
  EXPECT_EQ(aic.bound, "GM bandwidth");
  // Each AIC serves its two clients one after the other: the same product per AIC, with the
  // smaller per-client blocks of C re-reading more of A and B; never the 3.7x of the old rule
  // (79 us against 21.5 us).
  EXPECT_LT(mix.estimated_us, 2.5 * aic.estimated_us);
}

}  // namespace
