// The Matmul API under CFG_MDL: its GM -> L1 copies carry stepM x stepKa base blocks of A and
// stepKb x stepN of B, and the blocks inside a tile are read from L1 (a tile holding the whole K
// serves every block it covers). The results must be those of CFG_NORM bit for bit (the same
// Mmads in the same order) and match a float64 reference; the copies must be fewer and larger.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/profile.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

#undef DT_FLOAT
#undef DT_FLOAT16

namespace {

using ascsim_test::DeviceBuffer;
using ascsim_test::RandomVector;

__aicore__ inline void CopyTilingFromGm(TCubeTiling* tiling, GM_ADDR tilingGm) {
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

// One AIC computes the whole C = op(A) x op(B) (+ bias); `trans` bit 0: A stored K x M, bit 1: B
// stored N x K.
template <class T, const auto& CFG>
__aicore__ inline void OneCoreMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                     GM_ADDR tilingGm, uint32_t trans) {
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  CopyTilingFromGm(&tiling, tilingGm);
  using AT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;
  using CT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
  AscendC::Matmul<AT, AT, CT, CT, CFG> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::GlobalTensor<T> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> cGlobal, biasGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), tiling.M * tiling.Ka);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), tiling.Kb * tiling.N);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
  biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), tiling.N);
  mm.SetTensorA(aGlobal, (trans & 1) != 0);
  mm.SetTensorB(bGlobal, (trans & 2) != 0);
  if (tiling.isBias) mm.SetBias(biasGlobal);
  mm.IterateAll(cGlobal);
  mm.End();
}

}  // namespace

#define ASCSIM_MDL_KERNEL(name, T, CFG)                                                     \
  extern "C" __global__ __aicore__ void name(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, \
                                             GM_ADDR t, uint32_t trans) {                   \
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);                                         \
    OneCoreMatmul<T, CFG>(a, b, bias, c, t, trans);                                         \
  }
ASCSIM_MDL_KERNEL(mm_mdl_half_norm, half, CFG_NORM)
ASCSIM_MDL_KERNEL(mm_mdl_half_mdl, half, CFG_MDL)
ASCSIM_MDL_KERNEL(mm_mdl_float_norm, float, CFG_NORM)
ASCSIM_MDL_KERNEL(mm_mdl_float_mdl, float, CFG_MDL)

namespace {

struct Case {
  int32_t m, n, k;
  int32_t base_m, base_n, base_k;
  int32_t step_m, step_n, step_ka, step_kb, depth_a1, depth_b1;
  uint32_t trans;  // bit 0: A is K x M, bit 1: B is N x K
  bool bias;
  int32_t iterate_order;  // 0: M first (ORDER_M), 1: N first
};

std::vector<uint8_t> Tiling(const Case& c, bool is_float) {
  using namespace matmul_tiling;
  using Format = matmul_tiling::CubeFormat;
  const DataType in = is_float ? DataType::DT_FLOAT : DataType::DT_FLOAT16;
  MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetDim(1);
  api.SetAType(TPosition::GM, Format::ND, in, (c.trans & 1) != 0);
  api.SetBType(TPosition::GM, Format::ND, in, (c.trans & 2) != 0);
  api.SetCType(TPosition::GM, Format::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, Format::ND, DataType::DT_FLOAT);
  api.SetShape(c.m, c.n, c.k);
  api.SetOrgShape(c.m, c.n, c.k);
  api.SetBias(c.bias);
  api.SetFixSplit(c.base_m, c.base_n, c.base_k);
  optiling::TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  t.set_stepM(c.step_m);
  t.set_stepN(c.step_n);
  t.set_stepKa(c.step_ka);
  t.set_stepKb(c.step_kb);
  t.set_depthA1(c.depth_a1);
  t.set_depthB1(c.depth_b1);
  t.set_iterateOrder(c.iterate_order);
  std::vector<uint8_t> bytes(t.GetDataSize());
  t.SaveToBuffer(bytes.data(), bytes.size());
  return bytes;
}

using Runner = void (*)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, uint32_t);
#define ASCSIM_MDL_RUNNER(kernel)                                                \
  [](GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR t, uint32_t trans) { \
    ICPU_RUN_KF(kernel, 1, a, b, bias, c, t, trans);                             \
  }

struct Run {
  std::vector<float> c;
  uint64_t mte2_copies = 0, mte2_bytes = 0;
};

// Runs `run` on A, B, bias from fixed seeds; C and the launch's MTE2 copies.
template <class T>
Run RunOnce(Runner run, const Case& c, const std::vector<T>& a, const std::vector<T>& b,
            const std::vector<float>& bias) {
  const std::vector<uint8_t> tiling = Tiling(c, std::is_same<T, float>::value);
  DeviceBuffer da(a.size() * sizeof(T)), db(b.size() * sizeof(T)), dbias(bias.size() * 4),
      dc(size_t(c.m) * c.n * 4), dt(tiling.size());
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  std::memcpy(dbias.gm(), bias.data(), dbias.bytes());
  std::memcpy(dt.gm(), tiling.data(), dt.bytes());
  std::memset(dc.gm(), 0xff, dc.bytes());
  ascsim::Profiler prof;
  run(da.gm(), db.gm(), dbias.gm(), dc.gm(), dt.gm(), c.trans);
  prof.Stop();
  Run out;
  out.c.resize(size_t(c.m) * c.n);
  std::memcpy(out.c.data(), dc.gm(), dc.bytes());
  const ascsim::LaunchEstimate e = prof.Summary().at(0);
  out.mte2_copies = e.memory.mte2_transfers;
  out.mte2_bytes = e.memory.mte2_bytes;
  return out;
}

template <class T>
void CheckMdl(Runner norm, Runner mdl, const Case& c, const std::string& what) {
  SCOPED_TRACE(what);
  const auto a = RandomVector<T>(size_t(c.m) * c.k, -1, 1, 71);
  const auto b = RandomVector<T>(size_t(c.k) * c.n, -1, 1, 72);
  const auto bias = RandomVector<float>(size_t(c.n), -1, 1, 73);
  const Run rn = RunOnce<T>(norm, c, a, b, bias);
  const Run rm = RunOnce<T>(mdl, c, a, b, bias);
  ASSERT_EQ(rn.c.size(), rm.c.size());
  EXPECT_EQ(std::memcmp(rn.c.data(), rm.c.data(), rn.c.size() * 4), 0)
      << "CFG_MDL and CFG_NORM results differ";
  // float64 reference: A[i][p] at i * K + p (p * M + i when transposed), B[p][j] at p * N + j
  // (j * K + p when transposed).
  size_t bad = 0;
  for (int32_t i = 0; i < c.m; ++i) {
    for (int32_t j = 0; j < c.n; ++j) {
      double want = c.bias ? bias[j] : 0.0;
      for (int32_t p = 0; p < c.k; ++p) {
        const T av = (c.trans & 1) ? a[size_t(p) * c.m + i] : a[size_t(i) * c.k + p];
        const T bv = (c.trans & 2) ? b[size_t(j) * c.k + p] : b[size_t(p) * c.n + j];
        want += double(static_cast<float>(av)) * double(static_cast<float>(bv));
      }
      const double got = rm.c[size_t(i) * c.n + j];
      if (!(std::fabs(got - want) <= 1e-4 * std::sqrt(double(c.k)) + 1e-5) && bad++ < 5) {
        ADD_FAILURE() << "C[" << i << "][" << j << "] = " << got << ", want " << want;
      }
    }
  }
  EXPECT_EQ(bad, 0u);
  // Fewer copies under MDL, never more bytes (a whole-K tile is read once for all its blocks).
  EXPECT_LT(rm.mte2_copies, rn.mte2_copies);
  EXPECT_LE(rm.mte2_bytes, rn.mte2_bytes);
}

TEST(MatmulMdl, HalfKInStepsOfSeveralBaseBlocks) {
  // K = 300 in 10 base steps (the last 12 wide): A in tiles of 2 base blocks of K (two buffers),
  // B in single ones (one buffer); odd M and N tails; transposes; bias; both iterate orders.
  for (uint32_t trans = 0; trans < 4; ++trans) {
    const Case c{70, 90, 300, 32, 32, 32, 1, 1, 2, 1, 4, 1, trans, trans == 1, int32_t(trans & 1)};
    CheckMdl<half>(ASCSIM_MDL_RUNNER(mm_mdl_half_norm), ASCSIM_MDL_RUNNER(mm_mdl_half_mdl), c,
                   "trans " + std::to_string(trans));
  }
  // stepKb a multiple of stepKa: B's tile serves two of A's.
  const Case c{48, 64, 256, 16, 32, 32, 1, 1, 2, 4, 2, 8, 0, false, 0};
  CheckMdl<half>(ASCSIM_MDL_RUNNER(mm_mdl_half_norm), ASCSIM_MDL_RUNNER(mm_mdl_half_mdl), c,
                 "stepKb 4");
}

TEST(MatmulMdl, HalfWholeKTilesServeSeveralBlocks) {
  // K = 40 (3 base steps of 16): A tiles of 2 x 4 base blocks hold all of K for two blocks of M
  // (M = 100: the second group is 36 rows); B tiles of 3 x 2 for two blocks of N.
  for (uint32_t trans = 0; trans < 4; ++trans) {
    for (int32_t order = 0; order < 2; ++order) {
      const Case c{100, 120, 40, 32, 32, 16, 2, 2, 4, 3, 8, 12, trans, order == 1, order};
      CheckMdl<half>(ASCSIM_MDL_RUNNER(mm_mdl_half_norm), ASCSIM_MDL_RUNNER(mm_mdl_half_mdl), c,
                     "trans " + std::to_string(trans) + ", order " + std::to_string(order));
    }
  }
}

TEST(MatmulMdl, FloatWithTransposedB) {
  // float inputs (K0 = 8; B must be N x K): partial-K tiles of A, whole-K tiles of B.
  const Case partial{33, 40, 72, 16, 16, 16, 1, 1, 2, 2, 4, 4, 2, true, 0};
  CheckMdl<float>(ASCSIM_MDL_RUNNER(mm_mdl_float_norm), ASCSIM_MDL_RUNNER(mm_mdl_float_mdl),
                  partial, "partial K");
  const Case whole{33, 40, 24, 16, 16, 8, 1, 2, 1, 3, 2, 6, 2, false, 1};
  CheckMdl<float>(ASCSIM_MDL_RUNNER(mm_mdl_float_norm), ASCSIM_MDL_RUNNER(mm_mdl_float_mdl), whole,
                  "whole K of B");
}

}  // namespace
