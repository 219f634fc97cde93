// The cost model against the published cube-only Matmul points (calibration_matmul.h has the
// sources): CFG_NORM against CFG_MDL at M=128, N=30720, K=1024 on 24 AICs, and the pure Cube
// side of the MIX-against-Cube point at K=64. The kernels are written here in the documents'
// style: ASCENDC_CUBE_ONLY before lib/matmul_intf.h, the AIV side returns, REGIST_MATMUL_OBJ with
// the tiling from GM, each AIC's block of C by its block index, IterateAll to GM.
#define ASCENDC_CUBE_ONLY
#include "calibration_matmul.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"

namespace {

using calibration_mm::Check;
using calibration_mm::MmBuffers;
using calibration_mm::MmShape;

__aicore__ inline void CopyTiling(TCubeTiling* tiling, GM_ADDR tilingGm) {
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

template <const auto& CFG>
__aicore__ inline void CubeMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
  if ASCEND_IS_AIV {
    return;  // pure Cube: the AIVs have nothing to do
  }
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

extern "C" __global__ __aicore__ void calib_mm_cube_norm(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                         GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  (void)workspace;
  CubeMatmul<CFG_NORM>(a, b, c, tiling);
}
extern "C" __global__ __aicore__ void calib_mm_cube_mdl(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                        GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  (void)workspace;
  CubeMatmul<CFG_MDL>(a, b, c, tiling);
}

namespace {

template <class Run>
ascsim::LaunchEstimate Estimate(const MmShape& s, uint32_t block_dim, Run run) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(0);
  MmBuffers buf(s);
  ascsim::Profiler prof;
  run(block_dim, buf.p[0], buf.p[1], buf.p[2], buf.p[3], buf.p[4]);
  prof.Stop();
  return prof.Summary().at(0);
}
#define ASCSIM_CALIB_RUNNER(kernel)                                       \
  [](uint32_t d, GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR w, GM_ADDR t) { \
    ICPU_RUN_KF(kernel, d, a, b, c, w, t);                                \
  }

// MDL document: M=128, N=30720, K=1024 over 24 AICs, base 128/256/64.
const MmShape kMdlShape{128, 30720, 1024, 24, 128, 256, 64, calibration_mm::kPublishedL1};

TEST(ModelCalibrationMatmul, NormAgainstMdlTemplate) {
  const ascsim::LaunchEstimate norm =
      Estimate(kMdlShape, 24, ASCSIM_CALIB_RUNNER(calib_mm_cube_norm));
  const ascsim::LaunchEstimate mdl =
      Estimate(kMdlShape, 24, ASCSIM_CALIB_RUNNER(calib_mm_cube_mdl));
  using calibration_mm::MaxCoreTime;
  using calibration_mm::PipeMean;
  Check("matmul 128x30720x1024 CFG_NORM: max aic_time", MaxCoreTime(norm, true), 83.68, 0.15);
  Check("matmul 128x30720x1024 CFG_NORM: aic_mte2_time", PipeMean(norm, "MTE2", true), 75.64, 0.25);
  // CFG_MDL copies stepKa = stepKb = 4 base blocks at once: a quarter of the copies, each paying
  // the ND2NZ start-up once.
  Check("matmul 128x30720x1024 CFG_MDL: max aic_time", MaxCoreTime(mdl, true), 53.4, 0.15);
  Check("matmul 128x30720x1024 CFG_MDL: aic_mte2_time", PipeMean(mdl, "MTE2", true), 46.24, 0.25);
}

// Pure Cube document: M=128, N=30720, K=64 over 24 AICs (the MIX side is in
// model_calibration_matmul_mix_test.cpp).
TEST(ModelCalibrationMatmul, PureCubeSmallK) {
  const MmShape s{128, 30720, 64, 24, 128, 256, 64, calibration_mm::kPublishedL1};
  const ascsim::LaunchEstimate e = Estimate(s, 24, ASCSIM_CALIB_RUNNER(calib_mm_cube_norm));
  Check("matmul 128x30720x64 pure Cube: max aic_time", calibration_mm::MaxCoreTime(e, true), 11.21,
        0.15);
  // The Matmul API's own scalar work: one object's set-up and five base blocks per AIC.
  Check("matmul 128x30720x64 pure Cube: aic_scalar_time", calibration_mm::PipeMean(e, "S", true),
        5.17, 0.25);
}

}  // namespace
