// Held-out kernel 17: C = A * B (+ bias) on several cores with the Matmul advanced API in MIX mode,
// the host tiling from MultiCoreMatmulTiling with SetDim: each AIV takes the [singleCoreM,
// singleCoreN] tile its block index gives (M tiles first), sets the tail of the last row and
// column of tiles, and lets the AIC compute it.
//
// Names and the source each use follows:
// - matmul_tiling::MultiCoreMatmulTiling(PlatformAscendC), SetDim (the AIV cores it may use; A2
//   separates AIC and AIV, so blockDim is half the used count), SetAType/SetBType/SetCType/
//   SetBiasType, SetShape, SetOrgShape, SetBias, SetBufferSpace(-1, -1, -1),
//   GetTiling(AscendC::tiling::TCubeTiling&): asc-devkit docs 高阶API/矩阵计算/Matmul-Tiling类/
//   {SetDim,GetTiling}.md (SetDim's example); in matmul_multicore_tiling.cpp, a host-only file.
// - "lib/matmul_intf.h", MatmulType<TPosition::GM, CubeFormat::ND, T>, Matmul<A, B, C, Bias>,
//   REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling), SetTensorA/SetTensorB/SetBias,
//   SetTail, IterateAll, End: docs Matmul-Kernel侧接口/Matmul使用说明.md, REGIST_MATMUL_OBJ.md,
//   SetTail.md.
// - KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2), AscendC::SetKernelMode(KernelMode::MIX_MODE)
//   and ICPU_RUN_KF: docs 设置Kernel类型 / CPU孪生调试.
#include "heldout_util.h"
#include "lib/matmul_intf.h"
#include "matmul_multicore_tiling.h"

namespace heldout_mm {

struct MmTilingData {
  uint32_t withBias;
  TCubeTiling cube;
};

using AType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

class KernelMatmul {
 public:
  __aicore__ inline KernelMatmul() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                              const TCubeTiling& tiling, bool withBias) {
    tiling_ = tiling;
    withBias_ = withBias;
    aGm_.SetGlobalBuffer((__gm__ half*)a, tiling.M * tiling.Ka);
    bGm_.SetGlobalBuffer((__gm__ half*)b, tiling.Kb * tiling.N);
    cGm_.SetGlobalBuffer((__gm__ float*)c, tiling.M * tiling.N);
    biasGm_.SetGlobalBuffer((__gm__ float*)bias, tiling.N);
  }
  template <class MM>
  __aicore__ inline void Process(MM& mm) {
    const int32_t idx = AscendC::GetBlockIdx();
    if (idx >= tiling_.usedCoreNum) return;
    const int32_t mBlocks = (tiling_.M + tiling_.singleCoreM - 1) / tiling_.singleCoreM;
    const int32_t mIdx = idx % mBlocks;
    const int32_t nIdx = idx / mBlocks;
    const int32_t m0 = mIdx * tiling_.singleCoreM, n0 = nIdx * tiling_.singleCoreN;
    const int32_t tailM = AscendC::Std::min(tiling_.M - m0, tiling_.singleCoreM);
    const int32_t tailN = AscendC::Std::min(tiling_.N - n0, tiling_.singleCoreN);
    if (tailM <= 0 || tailN <= 0) return;
    mm.SetTail(tailM, tailN);
    mm.SetTensorA(aGm_[m0 * tiling_.Ka]);
    mm.SetTensorB(bGm_[n0]);
    if (withBias_) mm.SetBias(biasGm_[n0]);
    mm.IterateAll(cGm_[m0 * tiling_.N + n0]);
    mm.End();
  }

 private:
  AscendC::GlobalTensor<half> aGm_, bGm_;
  AscendC::GlobalTensor<float> cGm_, biasGm_;
  TCubeTiling tiling_;
  bool withBias_ = false;
};

}  // namespace heldout_mm

extern "C" __global__ __aicore__ void heldout_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                     GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  REGISTER_TILING_DEFAULT(heldout_mm::MmTilingData);
  GET_TILING_DATA(t, tiling);
  AscendC::SetSysWorkspace(workspace);
  AscendC::TPipe pipe;
  AscendC::Matmul<heldout_mm::AType, heldout_mm::BType, heldout_mm::CType, heldout_mm::BiasType>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.cube);
  heldout_mm::KernelMatmul op;
  op.Init(a, b, bias, c, t.cube, t.withBias != 0);
  op.Process(mm);
}

namespace {

using heldout::GmBuf;

void RunMatmul(int32_t M, int32_t N, int32_t K, int32_t dim, bool withBias) {
  SCOPED_TRACE("M " + std::to_string(M) + " N " + std::to_string(N) + " K " + std::to_string(K) +
               " dim " + std::to_string(dim));
  const auto a = heldout::Random<half>(size_t(M) * K, -1, 1, M * 3 + K);
  const auto b = heldout::Random<half>(size_t(K) * N, -1, 1, N * 5 + K);
  const auto bias = heldout::Random<float>(N, -1, 1, N);
  GmBuf tiling(sizeof(heldout_mm::MmTilingData));
  heldout_mm::MmTilingData* t = tiling.as<heldout_mm::MmTilingData>();
  t->withBias = withBias ? 1 : 0;
  ASSERT_NE(heldout_mm::MultiCoreTiling(M, N, K, dim, withBias, t->cube), -1);
  ASSERT_GE(t->cube.usedCoreNum, 1);
  ASSERT_LE(t->cube.usedCoreNum, dim);
  GmBuf ga(a.size() * sizeof(half)), gb(b.size() * sizeof(half)), gbias(N * sizeof(float)),
      gc(size_t(M) * N * sizeof(float)), ws(64 * 1024 * 1024);
  heldout::Upload(ga, a);
  heldout::Upload(gb, b);
  heldout::Upload(gbias, bias);
  // A2: one AI core is one AIC and two AIVs; the tiling counts AIVs.
  const uint32_t blockDim = (t->cube.usedCoreNum + 1) / 2;
  AscendC::SetKernelMode(KernelMode::MIX_MODE);
  ICPU_RUN_KF(heldout_matmul, blockDim, ga.get(), gb.get(), gbias.get(), gc.get(), ws.get(),
              tiling.get());
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  std::vector<double> want(size_t(M) * N);
  for (int32_t i = 0; i < M; ++i) {
    for (int32_t j = 0; j < N; ++j) {
      double acc = withBias ? bias[j] : 0.0;
      for (int32_t k = 0; k < K; ++k) {
        acc += heldout::ToDouble(a[size_t(i) * K + k]) * heldout::ToDouble(b[size_t(k) * N + j]);
      }
      want[size_t(i) * N + j] = acc;
    }
  }
  // half products are exact in float; K float additions of terms <= 1: K * 2^-24 * K relative.
  EXPECT_TRUE(heldout::Near(heldout::Download<float>(gc, size_t(M) * N), want, 1e-4, 1e-5));
}

TEST(HeldoutMatmulMultiCore, SetDimSplitsAndEveryTileIsComputed) {
  RunMatmul(96, 80, 64, 2, false);
  RunMatmul(130, 70, 48, 4, true);
  RunMatmul(33, 257, 40, 8, true);
}

}  // namespace
