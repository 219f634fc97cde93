// Host side of the Matmul calibration tests (model_calibration_matmul_test.cpp, cube-only, and
// model_calibration_matmul_mix_test.cpp, MIX): the published configurations as tilings, the
// device buffers, and the published figures. Kernels stay in the two test files, because the
// Matmul API is a mix or a cube-only one per translation unit (ASCENDC_CUBE_ONLY).
//
// Sources (repository mirror-cann/asc-devkit):
//  - T: docs/zh/guide/算子实践参考/优秀实践/Matmul性能调优案例/Matmul算子优化Tiling策略.md
//    (M=4096, N=5120, K=4096, half in, float out, MIX, on a 20-core A2: 4 against 20 blocks,
//    base [64, 64, 256] against [128, 256, 64], then CFG_MDL);
//  - MDL: .../Matmul高阶API使能MDL模板.md (M=128, N=30720, K=1024 on 24 AICs, cube only,
//    base 128/256/64, stepKa = stepKb = 4, depthA1 = depthB1 = 8: CFG_NORM against CFG_MDL);
//  - CUBE: .../Matmul高阶API使能纯Cube模式.md (M=128, N=30720, K=64: MIX split over 48 AIVs
//    against ASCENDC_CUBE_ONLY over 24 AICs, same base and L1 figures).
// The figures these documents print are the largest aic_time of the cores ("多个核中最大算子执行
// 耗时", MDL and CUBE) or Task Duration (T), and per-pipe means (aic_mte2_time, aic_scalar_time).
#ifndef ASCSIM_TESTS_CPP_CALIBRATION_MATMUL_H_
#define ASCSIM_TESTS_CPP_CALIBRATION_MATMUL_H_

#include <array>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ascsim/profile.h"
#include "ascsim/runtime.h"
#include "tiling/tiling_api.h"

#undef DT_FLOAT
#undef DT_FLOAT16

namespace calibration_mm {

struct MmShape {
  int32_t m, n, k;
  int32_t dim;  // SetDim: the AICs (cube only) or the AIVs (MIX) the tiling splits over
  int32_t base_m, base_n, base_k;
  // L1 factors set over what GetTiling computes (when stepKa > 0; stepM = stepN = 1): stepKa,
  // depthA1, stepKb, depthB1. Only kPublishedL1, for the documents that print other figures than
  // GetTiling gives for the host code below; elsewhere GetTiling's (CANN's rule).
  std::array<int32_t, 4> l1 = {0, 0, 0, 0};
};
// stepKa = stepKb = 4, depthA1 = depthB1 = 8, as the MDL and CUBE documents print them. GetTiling
// with SetShape and no bias (the host code below) gives the MDL shape stepKa 16, depthA1 16,
// stepKb 2, depthB1 4 (A's whole K in L1) and the CUBE shape (K = 64) stepKa = stepKb = 1,
// depthA1 1, stepN 5, depthB1 5 (both whole); the printed ones are what CANN's GetTiling gives
// without SetShape and with a float bias (CalcL1Tiling of the SPLIT_MN scenario;
// src/host/tiling/matmul_l1_factors_test.cpp).
constexpr std::array<int32_t, 4> kPublishedL1 = {4, 8, 4, 8};

// The tiling as the documents' host code builds it: MultiCoreMatmulTiling, SetDim, SetShape,
// SetOrgShape, SetFixSplit; half A [M, K], half B [K, N] (ND, not transposed), float C.
inline std::vector<uint8_t> Tiling(const MmShape& s) {
  using namespace matmul_tiling;
  using Format = matmul_tiling::CubeFormat;
  MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetDim(s.dim);
  api.SetAType(TPosition::GM, Format::ND, DataType::DT_FLOAT16, false);
  api.SetBType(TPosition::GM, Format::ND, DataType::DT_FLOAT16, false);
  api.SetCType(TPosition::GM, Format::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, Format::ND, DataType::DT_FLOAT);
  api.SetShape(s.m, s.n, s.k);
  api.SetOrgShape(s.m, s.n, s.k);
  api.SetBias(false);
  api.SetFixSplit(s.base_m, s.base_n, s.base_k);
  optiling::TCubeTiling tiling;
  EXPECT_EQ(api.GetTiling(tiling), 0);
  if (s.l1[0] > 0) {
    tiling.set_stepM(1);
    tiling.set_stepN(1);
    tiling.set_stepKa(s.l1[0]);
    tiling.set_depthA1(s.l1[1]);
    tiling.set_stepKb(s.l1[2]);
    tiling.set_depthB1(s.l1[3]);
  }
  std::vector<uint8_t> bytes(tiling.GetDataSize());
  tiling.SaveToBuffer(bytes.data(), bytes.size());
  return bytes;
}

// The host tiling of asc-devkit's matmul_high_performance example (held-out set N,
// model_calibration_matmul_heldout_test.cpp): M = N = K = 8192, half A, B transposed ([N, K]),
// half C, no bias, MultiCoreMatmulTiling over 24 AICs with its single shape, base 128/256/64;
// then the L1 figures the case sets (0: one block, as the example's SetL1).
inline std::vector<uint8_t> ExampleTiling8192(int32_t single_m, int32_t single_n, int32_t depth_a1,
                                              int32_t step_ka, int32_t depth_b1, int32_t step_kb) {
  using namespace matmul_tiling;
  using Format = matmul_tiling::CubeFormat;
  MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetDim(24);
  api.SetSingleShape(single_m, single_n, 8192);
  api.SetAType(TPosition::GM, Format::ND, DataType::DT_FLOAT16, false);
  api.SetBType(TPosition::GM, Format::ND, DataType::DT_FLOAT16, true);
  api.SetCType(TPosition::GM, Format::ND, DataType::DT_FLOAT16);
  api.SetBiasType(TPosition::GM, Format::ND, DataType::DT_FLOAT16);
  api.SetOrgShape(8192, 8192, 8192);
  api.SetShape(8192, 8192, 8192);
  api.EnableBias(false);
  api.SetBufferSpace(-1, -1, -1);
  api.SetFixSplit(128, 256, 64);
  optiling::TCubeTiling tiling;
  EXPECT_EQ(api.GetTiling(tiling), 0);
  tiling.set_stepM(1);
  tiling.set_stepN(1);
  tiling.set_depthA1(depth_a1 > 0 ? depth_a1 : 1);
  tiling.set_stepKa(step_ka > 0 ? step_ka : 1);
  tiling.set_depthB1(depth_b1 > 0 ? depth_b1 : 1);
  tiling.set_stepKb(step_kb > 0 ? step_kb : 1);
  std::vector<uint8_t> bytes(tiling.GetDataSize());
  tiling.SaveToBuffer(bytes.data(), bytes.size());
  return bytes;
}

// A, B (zeros: the estimate does not depend on values), C, a workspace and the tiling.
struct MmBuffers {
  explicit MmBuffers(const MmShape& s) {
    const size_t sizes[] = {size_t(s.m) * s.k * 2, size_t(s.k) * s.n * 2, size_t(s.m) * s.n * 4,
                            size_t{16} << 20};
    for (int i = 0; i < 4; ++i) {
      p[i] = static_cast<uint8_t*>(ascsim::DeviceMalloc(sizes[i]));
      std::memset(p[i], 0, i == 2 ? 0 : sizes[i]);
    }
    const std::vector<uint8_t> t = Tiling(s);
    p[4] = static_cast<uint8_t*>(ascsim::DeviceMalloc(t.size()));
    std::memcpy(p[4], t.data(), t.size());
  }
  ~MmBuffers() {
    for (uint8_t* q : p) ascsim::DeviceFree(q);
  }
  MmBuffers(const MmBuffers&) = delete;
  MmBuffers& operator=(const MmBuffers&) = delete;
  uint8_t* p[5] = {};
};

// Per-core mean busy time of a pipe over the cores of one kind ("AIC" / "AIV"): msprof's
// aic_*_time; and the largest core time (msprof's max aic_time).
inline double PipeMean(const ascsim::LaunchEstimate& e, const char* pipe, bool aic) {
  double sum = 0;
  int n = 0;
  for (const ascsim::CoreEstimate& c : e.cores) {
    if (c.cube != aic) continue;
    auto it = c.busy_us.find(pipe);
    sum += it == c.busy_us.end() ? 0 : it->second;
    ++n;
  }
  return n == 0 ? 0 : sum / n;
}
inline double MaxCoreTime(const ascsim::LaunchEstimate& e, bool aic) {
  double t = 0;
  for (const ascsim::CoreEstimate& c : e.cores) {
    if (c.cube == aic) t = std::max(t, c.end_us);
  }
  return t;
}

inline double Error(double estimate, double published) { return estimate / published - 1; }

// Within `bound` of the published figure, or a documented miss: the error it has now (+-5
// points), so that a change of the model shows up here (docs/calibration.md says why).
inline void Check(const char* what, double estimate, double published, double bound,
                  double missed_error = 0) {
  std::printf("| %s | %.2f | %.2f | %+.1f%% |\n", what, estimate, published,
              100 * Error(estimate, published));
  if (missed_error != 0) {
    EXPECT_NEAR(Error(estimate, published), missed_error, 0.05)
        << what << ": estimated " << estimate << " us, published " << published
        << " us; the documented miss has moved: update docs/calibration.md";
  } else {
    EXPECT_LE(std::fabs(Error(estimate, published)), bound)
        << what << ": estimated " << estimate << " us, published " << published << " us";
  }
}

}  // namespace calibration_mm

#endif  // ASCSIM_TESTS_CPP_CALIBRATION_MATMUL_H_
