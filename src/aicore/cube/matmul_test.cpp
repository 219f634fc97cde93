// The Matmul API (lib/matmul_intf.h) in the official kernel-launch style: host tiling from
// tiling/tiling_api.h, the tiling passed through GM, REGIST_MATMUL_OBJ without ASCENDC_CUBE_ONLY
// (so the kernel is a mix kernel whose AIVs are Matmul clients of their AIC), per-core offsets
// and tails; IterateAll, Iterate/GetTensorC to GM and to UB, the asynchronous forms, bias and
// transposed inputs; against a double-precision reference for shapes that are and are not
// multiples of 16, through ICPU_RUN_KF and ACL. Then the faults with their messages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
// The early-2024 path of the same API (ops-math rfft1_d includes both).
#include "lib/matrix/matmul/matmul.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

// kernel_operator.h brings CANN's DT_* macros (kernel_type.h), which would rename
// matmul_tiling::DataType's enumerators here; CANN's kernel UTs keep host tiling in another file,
// this test mixes both in one.
#undef DT_FLOAT
#undef DT_FLOAT16
#undef DT_BF16
#undef DT_INT8
#undef DT_INT32

namespace {

using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;

// How the kernel drives the Matmul (the word after the tiling in the tiling buffer).
enum Flags : uint32_t {
  kTransA = 1,
  kTransB = 2,
  kBias = 4,
  kLoopGm = 8,      // while (Iterate()) GetTensorC(gm)
  kLoopUb = 16,     // while (Iterate()) GetTensorC(ub, 0, true) then DataCopyPad to GM
  kAsyncGm = 32,    // Iterate<false>() then GetTensorC<false>(gm) per block
  kNoSetTail = 64,  // a core's tail is left to the tiling (only when singleCore divides M, N)
};

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

__aicore__ inline void ReadTiling(TCubeTiling* tiling, uint32_t* flags, GM_ADDR tilingGm) {
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
  *flags = src[sizeof(TCubeTiling) / sizeof(uint32_t)];
}

template <typename aType, typename bType, typename cType, typename biasType>
class MatmulTestKernel {
 public:
  __aicore__ inline MatmulTestKernel() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                              const TCubeTiling& tiling, uint32_t flags) {
    tiling_ = tiling;
    flags_ = flags;
    transA_ = (flags & kTransA) != 0;
    transB_ = (flags & kTransB) != 0;
    aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ aType*>(a), tiling.M * tiling.Ka);
    bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ bType*>(b), tiling.Kb * tiling.N);
    cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ cType*>(c), tiling.M * tiling.N);
    biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ biasType*>(bias), tiling.N);
    // This core's block of C: M-blocks first, as the tiling splits M x N.
    const uint32_t mBlocks = CeilDivU(tiling.M, tiling.singleCoreM);
    const uint32_t mIdx = AscendC::GetBlockIdx() % mBlocks;
    const uint32_t nIdx = AscendC::GetBlockIdx() / mBlocks;
    const uint32_t row0 = mIdx * tiling.singleCoreM, col0 = nIdx * tiling.singleCoreN;
    aGlobal = aGlobal[transA_ ? row0 : row0 * tiling.Ka];
    bGlobal = bGlobal[transB_ ? col0 * tiling.Kb : col0];
    cGlobal = cGlobal[row0 * tiling.N + col0];
    biasGlobal = biasGlobal[col0];
    tailM_ = tiling.M - row0 < static_cast<uint32_t>(tiling.singleCoreM) ? tiling.M - row0
                                                                         : tiling.singleCoreM;
    tailN_ = tiling.N - col0 < static_cast<uint32_t>(tiling.singleCoreN) ? tiling.N - col0
                                                                         : tiling.singleCoreN;
  }

  __aicore__ inline void Process(AscendC::TPipe* pipe) {
    if ((flags_ & kNoSetTail) == 0) mm.SetTail(tailM_, tailN_);
    mm.SetTensorA(aGlobal, transA_);
    mm.SetTensorB(bGlobal, transB_);
    if (flags_ & kBias) mm.SetBias(biasGlobal);
    if (flags_ & kLoopGm) {
      while (mm.Iterate()) mm.GetTensorC(cGlobal);
    } else if (flags_ & kLoopUb) {
      LoopThroughUb(pipe);
    } else if (flags_ & kAsyncGm) {
      mm.template Iterate<false>();
      const uint32_t blocks = CeilDivU(tailM_, tiling_.baseM) * CeilDivU(tailN_, tiling_.baseN);
      for (uint32_t i = 0; i < blocks; ++i) mm.template GetTensorC<false>(cGlobal);
    } else {
      mm.IterateAll(cGlobal);
    }
    mm.End();
  }

  AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, aType>,
                  AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, bType>,
                  AscendC::MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, cType>,
                  AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, biasType>>
      mm;
  TCubeTiling tiling_;

 private:
  // Each block lands densely in UB (rows of its width rounded to 32 B) and goes to its place in
  // C with DataCopyPad; blocks come M first (iterateOrder 0).
  __aicore__ inline void LoopThroughUb(AscendC::TPipe* pipe) {
    pipe->InitBuffer(outQueue, 1, tiling_.baseM * tiling_.baseN * sizeof(cType));
    const uint32_t mIter = CeilDivU(tailM_, tiling_.baseM);
    uint32_t count = 0;
    while (mm.template Iterate<true>()) {
      AscendC::LocalTensor<cType> cLocal = outQueue.AllocTensor<cType>();
      mm.template GetTensorC<true>(cLocal, false, true);
      outQueue.EnQue(cLocal);
      cLocal = outQueue.DeQue<cType>();
      const uint32_t mi = count % mIter, ni = count / mIter;
      const uint32_t rows = tailM_ - mi * tiling_.baseM < static_cast<uint32_t>(tiling_.baseM)
                                ? tailM_ - mi * tiling_.baseM
                                : tiling_.baseM;
      const uint32_t cols = tailN_ - ni * tiling_.baseN < static_cast<uint32_t>(tiling_.baseN)
                                ? tailN_ - ni * tiling_.baseN
                                : tiling_.baseN;
      AscendC::DataCopyExtParams params(static_cast<uint16_t>(rows), cols * sizeof(cType), 0,
                                        (tiling_.N - cols) * sizeof(cType), 0);
      AscendC::DataCopyPad(cGlobal[mi * tiling_.baseM * tiling_.N + ni * tiling_.baseN], cLocal,
                           params);
      outQueue.FreeTensor(cLocal);
      ++count;
    }
  }

  AscendC::GlobalTensor<aType> aGlobal;
  AscendC::GlobalTensor<bType> bGlobal;
  AscendC::GlobalTensor<cType> cGlobal;
  AscendC::GlobalTensor<biasType> biasGlobal;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
  uint32_t flags_ = 0;
  bool transA_ = false, transB_ = false;
  uint32_t tailM_ = 0, tailN_ = 0;
};

template <typename aType, typename cType, bool voidTiling = false>
__aicore__ inline void RunMatmulKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                       GM_ADDR workspace, GM_ADDR tilingGm) {
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  uint32_t flags = 0;
  ReadTiling(&tiling, &flags, tilingGm);
  MatmulTestKernel<aType, aType, cType, float> op;
  // A restrict-qualified tiling pointer, as ops-nn deformable_conv2d passes it, is a tiling
  // argument like &tiling.
  const TCubeTiling* __restrict tilingPtr = &tiling;
  if constexpr (voidTiling) {
    // Without ASCENDC_CUBE_ONLY the tiling may be any pointer, as CANN's KFC server takes void*
    // (ops-math rfft1_d passes `(void*)&t1`).
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), op.mm, (void*)&tiling);
  } else {
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), op.mm, tilingPtr);
  }
  // The AIVs beyond usedCoreNum have no block of C.
  if (AscendC::GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) return;
  op.Init(a, b, bias, c, tiling, flags);
  op.Process(&pipe);
  (void)workspace;
}

}  // namespace

extern "C" __global__ __aicore__ void mm_half_float(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    GM_ADDR workspace, GM_ADDR tiling) {
  RunMatmulKernel<half, float>(a, b, bias, c, workspace, tiling);
}
extern "C" __global__ __aicore__ void mm_half_half(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                   GM_ADDR workspace, GM_ADDR tiling) {
  RunMatmulKernel<half, half>(a, b, bias, c, workspace, tiling);
}
extern "C" __global__ __aicore__ void mm_bf16_float(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    GM_ADDR workspace, GM_ADDR tiling) {
  RunMatmulKernel<bfloat16_t, float, true>(a, b, bias, c, workspace, tiling);
}

// Faulty mix kernels: mode 0 declares KERNEL_TYPE_AIV_ONLY (no AIC to serve the Matmul), mode 1
// lets the AIC leave before REGIST_MATMUL_OBJ.
template <uint32_t mode>
__aicore__ inline void MixMisuseKernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
  if constexpr (mode == 0) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  } else {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  }
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  uint32_t flags = 0;
  ReadTiling(&tiling, &flags, tilingGm);
  using HalfType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
  using FloatType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
  AscendC::Matmul<HalfType, HalfType, FloatType, FloatType> mm;
  if (mode == 1 && ASCEND_IS_AIC) return;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), tiling.M * tiling.Ka);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), tiling.Kb * tiling.N);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
  mm.SetTensorA(aGlobal);
  mm.SetTensorB(bGlobal);
  mm.IterateAll(cGlobal);
  mm.End();
}

extern "C" __global__ __aicore__ void mm_aiv_only_misuse(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                         GM_ADDR tiling) {
  MixMisuseKernel<0>(a, b, c, tiling);
}
extern "C" __global__ __aicore__ void mm_aic_leaves_misuse(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                           GM_ADDR tiling) {
  MixMisuseKernel<1>(a, b, c, tiling);
}

// The MatmulLeakyRelu kernel-launch layout: Init (GM views, the VECOUT queue) runs before
// REGIST_MATMUL_OBJ on the AIC as well as on the AIVs; each AIV then takes its blocks of C into
// UB with GetTensorC, applies LeakyRelu and copies them out (full blocks only: M, N multiples of
// the base block, as in the sample).
class MatmulLeakyReluNeo {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm,
                              AscendC::TPipe* pipe) {
    uint32_t flags = 0;
    ReadTiling(&tiling, &flags, tilingGm);
    const uint32_t mBlocks = CeilDivU(tiling.M, tiling.singleCoreM);
    const uint32_t row0 = AscendC::GetBlockIdx() % mBlocks * tiling.singleCoreM;
    const uint32_t col0 = AscendC::GetBlockIdx() / mBlocks * tiling.singleCoreN;
    aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), tiling.M * tiling.Ka);
    bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), tiling.Kb * tiling.N);
    cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
    biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), tiling.N);
    aGlobal = aGlobal[row0 * tiling.Ka];
    bGlobal = bGlobal[col0];
    cGlobal = cGlobal[row0 * tiling.N + col0];
    biasGlobal = biasGlobal[col0];
    pipe->InitBuffer(reluOutQueue_, 1, tiling.baseM * tiling.baseN * sizeof(float));
  }
  __aicore__ inline void Process() {
    matmulObj.SetTensorA(aGlobal);
    matmulObj.SetTensorB(bGlobal);
    matmulObj.SetBias(biasGlobal);
    uint32_t round = 0;
    const uint32_t roundM = tiling.singleCoreM / tiling.baseM;
    while (matmulObj.template Iterate<true>()) {
      AscendC::LocalTensor<float> out = reluOutQueue_.AllocTensor<float>();
      matmulObj.template GetTensorC<true>(out, false, true);
      AscendC::LeakyRelu(out, out, 0.001f, tiling.baseM * tiling.baseN);
      reluOutQueue_.EnQue(out);
      out = reluOutQueue_.DeQue<float>();
      const uint32_t offset =
          round % roundM * tiling.baseM * tiling.N + round / roundM * tiling.baseN;
      AscendC::DataCopyParams params(
          static_cast<uint16_t>(tiling.baseM),
          static_cast<uint16_t>(tiling.baseN * sizeof(float) / AscendC::DEFAULT_C0_SIZE), 0,
          static_cast<uint16_t>((tiling.N - tiling.baseN) * sizeof(float) /
                                AscendC::DEFAULT_C0_SIZE));
      AscendC::DataCopy(cGlobal[offset], out, params);
      reluOutQueue_.FreeTensor(out);
      ++round;
    }
    matmulObj.End();
  }

  AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                  AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                  AscendC::MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>,
                  AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>
      matmulObj;
  TCubeTiling tiling;

 private:
  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> cGlobal, biasGlobal;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> reluOutQueue_;
};

extern "C" __global__ __aicore__ void mm_leakyrelu_neo(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                       GM_ADDR c, GM_ADDR workspace,
                                                       GM_ADDR tilingGm) {
  AscendC::TPipe pipe;
  MatmulLeakyReluNeo op;
  op.Init(a, b, bias, c, tilingGm, &pipe);
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), op.matmulObj, &op.tiling);
  if (AscendC::GetBlockIdx() >= static_cast<uint32_t>(op.tiling.usedCoreNum)) return;
  op.Process();
  (void)workspace;
}

// A vector buffer used on the AIC of a mix kernel.
extern "C" __global__ __aicore__ void mix_vector_work_on_aic(GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> que;
  pipe.InitBuffer(que, 1, 1024);  // booked on every sub-core
  if ASCEND_IS_AIC {
    AscendC::LocalTensor<float> t = que.AllocTensor<float>();
    que.FreeTensor(t);
  }
}

namespace {

struct Case {
  uint32_t m, n, k;
  uint32_t flags;
  int32_t fix_base_m = -1, fix_base_n = -1, fix_base_k = -1;  // SetFixSplit
};

// Host tiling as the samples build it; `aivs` cores (the usedCoreNum of a mix kernel counts
// AIVs). The buffer is the tiling followed by the flags word.
std::vector<uint8_t> HostTiling(const Case& c, matmul_tiling::DataType in,
                                matmul_tiling::DataType out, uint32_t aivs,
                                TCubeTiling* tiling_out = nullptr) {
  using namespace matmul_tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  MultiCoreMatmulTiling api(*platform);
  api.SetDim(static_cast<int32_t>(aivs));
  using Format = matmul_tiling::CubeFormat;
  api.SetAType(TPosition::GM, Format::ND, in, (c.flags & kTransA) != 0);
  api.SetBType(TPosition::GM, Format::ND, in, (c.flags & kTransB) != 0);
  api.SetCType(TPosition::GM, Format::ND, out);
  api.SetBiasType(TPosition::GM, Format::ND, DataType::DT_FLOAT);
  api.SetOrgShape(static_cast<int32_t>(c.m), static_cast<int32_t>(c.n), static_cast<int32_t>(c.k));
  api.SetShape(static_cast<int32_t>(c.m), static_cast<int32_t>(c.n), static_cast<int32_t>(c.k));
  api.SetBias((c.flags & kBias) != 0);
  api.SetTraverse(MatrixTraverse::FIRSTM);
  api.SetFixSplit(c.fix_base_m, c.fix_base_n, c.fix_base_k);
  api.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling tiling;
  EXPECT_EQ(api.GetTiling(tiling), 0);
  std::vector<uint8_t> buf(tiling.GetDataSize() + 4);
  tiling.SaveToBuffer(buf.data(), tiling.GetDataSize());
  std::memcpy(buf.data() + tiling.GetDataSize(), &c.flags, 4);
  if (tiling_out != nullptr) std::memcpy(tiling_out, buf.data(), sizeof(TCubeTiling));
  return buf;
}

// C = op(A) x op(B) (+ bias) in double from the stored inputs; A is M x K (K x M when
// transposed), B is K x N (N x K when transposed).
template <class T>
std::vector<double> Reference(const std::vector<T>& a, const std::vector<T>& b,
                              const std::vector<float>& bias, const Case& c) {
  std::vector<double> out(size_t{c.m} * c.n, 0.0);
  const bool ta = c.flags & kTransA, tb = c.flags & kTransB;
  for (uint32_t i = 0; i < c.m; ++i) {
    for (uint32_t p = 0; p < c.k; ++p) {
      const double av = static_cast<float>(ta ? a[size_t{p} * c.m + i] : a[size_t{i} * c.k + p]);
      for (uint32_t j = 0; j < c.n; ++j) {
        out[size_t{i} * c.n + j] +=
            av * static_cast<float>(tb ? b[size_t{j} * c.k + p] : b[size_t{p} * c.n + j]);
      }
    }
  }
  if (c.flags & kBias) {
    for (uint32_t i = 0; i < c.m; ++i)
      for (uint32_t j = 0; j < c.n; ++j) out[size_t{i} * c.n + j] += bias[j];
  }
  return out;
}

template <class CT>
void ExpectClose(const std::vector<CT>& got, const std::vector<double>& want, double rel,
                 const std::string& what) {
  double scale = 1e-3;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double g = static_cast<float>(got[i]);
    if (!(std::fabs(g - want[i]) <= rel * scale)) {
      if (bad++ < 5) ADD_FAILURE() << what << " element " << i << ": " << g << " vs " << want[i];
    }
  }
  EXPECT_EQ(bad, 0u) << what;
}

// SetKernelMode for one scope (the mode is process-wide, as in CANN's CPU debug library).
struct KernelModeGuard {
  explicit KernelModeGuard(KernelMode mode) { AscendC::SetKernelMode(mode); }
  ~KernelModeGuard() { ascsim::aicore::SetRequestedKernelMode(-1); }
};

uint32_t AivCount() {
  return platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAiv();
}

using KernelRun = void (*)(uint32_t, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);
#define ASCSIM_MM_RUNNER(kernel)                                                               \
  [](uint32_t blockDim, GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR w, GM_ADDR t) { \
    ICPU_RUN_KF(kernel, blockDim, a, b, bias, c, w, t);                                        \
  }

// Runs a kernel on `c` through ICPU_RUN_KF: blockDim counts AICs (each with two AIV clients).
template <class T, class CT>
void RunCase(KernelRun run, const char* name, matmul_tiling::DataType in,
             matmul_tiling::DataType out, const Case& c, double rel, uint32_t aivs = 0) {
  if (aivs == 0) aivs = AivCount();
  TCubeTiling tiling;
  const std::vector<uint8_t> host_tiling = HostTiling(c, in, out, aivs, &tiling);
  auto a = RandomVector<T>(size_t{c.m} * c.k, -1, 1, 11);
  auto b = RandomVector<T>(size_t{c.k} * c.n, -1, 1, 12);
  auto bias = RandomVector<float>(c.n, -1, 1, 13);
  DeviceBuffer da(a.size() * sizeof(T)), db(b.size() * sizeof(T)), dbias(bias.size() * 4),
      dc(size_t{c.m} * c.n * sizeof(CT)), dt(host_tiling.size()), dw(16 * 1024 * 1024);
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  std::memcpy(dbias.gm(), bias.data(), dbias.bytes());
  std::memcpy(dt.gm(), host_tiling.data(), host_tiling.size());
  std::memset(dc.gm(), 0xff, dc.bytes());  // NaN: every element must be written
  const uint32_t block_dim = (static_cast<uint32_t>(tiling.usedCoreNum) + 1) / 2;
  {
    // As the CPU-debug samples do for a mix kernel (ascsim also finds it out by itself).
    KernelModeGuard mode(KernelMode::MIX_MODE);
    run(block_dim, da.gm(), db.gm(), dbias.gm(), dc.gm(), dw.gm(), dt.gm());
  }
  std::vector<CT> got(size_t{c.m} * c.n);
  std::memcpy(got.data(), dc.gm(), dc.bytes());
  ExpectClose(got, Reference(a, b, bias, c), rel,
              std::string(name) + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
                  std::to_string(c.k) + " flags " + std::to_string(c.flags));
}

class MatmulShapes : public ::testing::TestWithParam<Case> {};

TEST_P(MatmulShapes, HalfInFloatOut) {
  RunCase<half, float>(ASCSIM_MM_RUNNER(mm_half_float), "half->float",
                       matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT,
                       GetParam(), 2e-6);
}

TEST_P(MatmulShapes, HalfInHalfOut) {
  RunCase<half, half>(ASCSIM_MM_RUNNER(mm_half_half), "half->half",
                      matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT16,
                      GetParam(), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, MatmulShapes,
    ::testing::Values(Case{16, 16, 16, 0}, Case{64, 64, 64, kNoSetTail}, Case{100, 70, 33, 0},
                      Case{1, 64, 32, 0}, Case{17, 33, 9, kBias}, Case{257, 300, 130, kBias},
                      Case{96, 80, 200, kTransA}, Case{96, 80, 200, kTransB},
                      Case{45, 61, 77, kTransA | kTransB | kBias}, Case{130, 150, 90, kLoopGm},
                      Case{130, 150, 90, kLoopUb | kBias}, Case{200, 96, 64, kAsyncGm},
                      Case{300, 520, 96, kLoopUb, 64, 128, 32}),
    [](const ::testing::TestParamInfo<Case>& info) {
      const Case& c = info.param;
      return std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) + "_f" +
             std::to_string(c.flags) + (c.fix_base_m > 0 ? "_fixed" : "");
    });

TEST(Matmul, Bf16InFloatOutWithBias) {
  RunCase<bfloat16_t, float>(ASCSIM_MM_RUNNER(mm_bf16_float), "bf16->float",
                             matmul_tiling::DataType::DT_BF16, matmul_tiling::DataType::DT_FLOAT,
                             Case{70, 90, 110, kBias}, 2e-6);
}

TEST(Matmul, TwoAivsOfOneAicShareTheWork) {
  // The MatmulInvocationNeo layout: blockDim 1, usedCoreNum 2 (both AIVs of the AIC are clients).
  RunCase<half, float>(ASCSIM_MM_RUNNER(mm_half_float), "neo", matmul_tiling::DataType::DT_FLOAT16,
                       matmul_tiling::DataType::DT_FLOAT, Case{512, 1024, 512, 0}, 2e-6, 2);
}

std::string MixMisuse(uint32_t mode) {
  const Case c{32, 32, 32, 0};
  const auto bytes =
      HostTiling(c, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT, 1);
  DeviceBuffer da(32 * 32 * 2), db(32 * 32 * 2), dc(32 * 32 * 4), dt(bytes.size());
  std::memcpy(dt.gm(), bytes.data(), bytes.size());
  return ErrorOf([&] {
    if (mode == 0) {
      ICPU_RUN_KF(mm_aiv_only_misuse, 1, da.gm(), db.gm(), dc.gm(), dt.gm());
    } else {
      ICPU_RUN_KF(mm_aic_leaves_misuse, 1, da.gm(), db.gm(), dc.gm(), dt.gm());
    }
  });
}

TEST(MatmulRules, AClientNeedsTheAicOfAMixKernel) {
  const std::string aiv_only = MixMisuse(0);
  EXPECT_NE(
      aiv_only.find("mm_aiv_only_misuse: block 0/1: Matmul::Init: Matmul on an AIV needs the AIC "
                    "of a mix kernel (the AIV is its client); this launch runs AIVs only"),
      std::string::npos)
      << aiv_only;
  const std::string aic_left = MixMisuse(1);
  EXPECT_NE(aic_left.find("Matmul: the AIC of this block left the kernel without reaching "
                          "REGIST_MATMUL_OBJ, so no server takes the request; the device would "
                          "hang until the AI-core timeout (507014)"),
            std::string::npos)
      << aic_left;
}

TEST(Matmul, LeakyReluEpilogueOnTheAivsAsTheSampleWritesIt) {
  const Case c{512, 1024, 256, kBias, 128, 256, -1};  // usedCoreNum 2: one AIC, two AIVs
  TCubeTiling tiling;
  const auto bytes = HostTiling(c, matmul_tiling::DataType::DT_FLOAT16,
                                matmul_tiling::DataType::DT_FLOAT, 2, &tiling);
  ASSERT_EQ(tiling.usedCoreNum, 2);
  auto a = RandomVector<half>(size_t{c.m} * c.k, -1, 1, 61);
  auto b = RandomVector<half>(size_t{c.k} * c.n, -1, 1, 62);
  auto bias = RandomVector<float>(c.n, -1, 1, 63);
  DeviceBuffer da(a.size() * 2), db(b.size() * 2), dbias(bias.size() * 4),
      dc(size_t{c.m} * c.n * 4), dt(bytes.size());
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  std::memcpy(dbias.gm(), bias.data(), dbias.bytes());
  std::memcpy(dt.gm(), bytes.data(), bytes.size());
  {
    KernelModeGuard mode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mm_leakyrelu_neo, 1, da.gm(), db.gm(), dbias.gm(), dc.gm(), nullptr, dt.gm());
  }
  std::vector<float> got(size_t{c.m} * c.n);
  std::memcpy(got.data(), dc.gm(), dc.bytes());
  std::vector<double> want = Reference(a, b, bias, c);
  for (double& v : want) v = v >= 0 ? v : v * double(0.001f);
  ExpectClose(got, want, 2e-6, "leakyrelu neo");
}

TEST(MatmulRules, VectorBuffersAreBookedOnTheAicButNotUsable) {
  DeviceBuffer d(64);
  const std::string msg = ErrorOf([&] { ICPU_RUN_KF(mix_vector_work_on_aic, 1, d.gm()); });
  EXPECT_NE(msg.find("mix_vector_work_on_aic: block 0/1 AIC: AllocTensor on VECOUT queue: the "
                     "Unified Buffer is not on the AIC (in a mix kernel vector work runs on the "
                     "AIVs: guard it with ASCEND_IS_AIV)"),
            std::string::npos)
      << msg;
}

TEST(Matmul, AclLaunchMatchesReference) {
  const Case c{150, 200, 70, kBias};
  TCubeTiling tiling;
  const auto host_tiling = HostTiling(c, matmul_tiling::DataType::DT_FLOAT16,
                                      matmul_tiling::DataType::DT_FLOAT, AivCount(), &tiling);
  auto a = RandomVector<half>(size_t{c.m} * c.k, -2, 2, 21);
  auto b = RandomVector<half>(size_t{c.k} * c.n, -2, 2, 22);
  auto bias = RandomVector<float>(c.n, -1, 1, 23);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void *da, *db, *dbias, *dc, *dw, *dt;
  ASSERT_EQ(aclrtMalloc(&da, a.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&db, b.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dbias, bias.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dc, size_t{c.m} * c.n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dw, 16 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dt, host_tiling.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemcpy(da, a.size() * 2, a.data(), a.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(db, b.size() * 2, b.data(), b.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(dbias, bias.size() * 4, bias.data(), bias.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(dt, host_tiling.size(), host_tiling.data(), host_tiling.size(),
              ACL_MEMCPY_HOST_TO_DEVICE);
  const uint32_t block_dim = (static_cast<uint32_t>(tiling.usedCoreNum) + 1) / 2;
  ACLRT_LAUNCH_KERNEL(mm_half_float)(block_dim, stream, da, db, dbias, dc, dw, dt);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  std::vector<float> got(size_t{c.m} * c.n);
  aclrtMemcpy(got.data(), got.size() * 4, dc, got.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  ExpectClose(got, Reference(a, b, bias, c), 2e-6, "acl");
  for (void* p : {da, db, dbias, dc, dw, dt}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

}  // namespace

namespace {
// lib/matmul_intf.h brings CANN's integer helpers into AscendC, beside the tensor Ceil.
TEST(MatmulUtils, CeilAndCeilAlignAsKernelsUseThem) {
  EXPECT_EQ(AscendC::Ceil(512, 128), 4);
  EXPECT_EQ(AscendC::Ceil(513u, 128u), 5u);
  EXPECT_EQ(AscendC::CeilAlign(33, 16), 48);
  EXPECT_EQ(AscendC::CeilT(1, 16), 1);
  EXPECT_EQ(AscendC::CeilAlignT(int64_t{17}, int64_t{8}), 24);
  // Align / AlignDown / MaxValue / MinValue (matmul_utils.h): constexpr; a divisor of 0 gives 0.
  static_assert(AscendC::Align(33u, 16u) == 48u && AscendC::Align(32, 16) == 32);
  static_assert(AscendC::AlignDown(47, 16) == 32 &&
                AscendC::AlignDown(int64_t{-1}, int64_t{8}) == 0);
  static_assert(AscendC::MaxValue(3, 9, 4) == 9 && AscendC::MinValue(7u, 2u, 5u) == 2u);
  static_assert(AscendC::MaxValue(-5) == -5);
  for (uint32_t m = 0; m < 70; m += 3) {
    for (uint32_t n : {1u, 5u, 16u, 64u}) {
      EXPECT_EQ(AscendC::AlignDown(m, n), m - m % n) << m << "," << n;
      EXPECT_EQ(AscendC::Align(m, n), (m + n - 1) / n * n) << m << "," << n;
    }
  }
  EXPECT_EQ(AscendC::AlignDown(17, 0), 0);
  EXPECT_EQ(AscendC::Align(17, 0), 0);
  EXPECT_NE(ErrorOf([] { (void)AscendC::Ceil(4, 0); })
                .find("Ceil: num2 is 0, which should be "
                      "larger than 0"),
            std::string::npos);
}
}  // namespace
