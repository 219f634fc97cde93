// The Matmul API on the AICs themselves (ASCENDC_CUBE_ONLY, as cube-only kernels build it):
// float, int8 and bf16 inputs, a declared KERNEL_TYPE_AIC_ONLY kernel and an undeclared one the
// runtime recognises; the BareMix layout (a MIX_AIC_1_2 kernel whose AIC runs the Matmul and
// whose AIVs post-process C after CrossCoreWaitFlag); and the Matmul faults with their messages.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/profile.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

// Kernel and host tiling code share this file: the kernel-side DT_* numbers (CANN's
// kernel_type.h macros) would rewrite matmul_tiling::DataType::DT_*.
#undef DT_BF16
#undef DT_FLOAT
#undef DT_FLOAT16
#undef DT_INT32
#undef DT_INT8

namespace {

using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;

__aicore__ inline void CopyTilingFromGm(TCubeTiling* tiling, GM_ADDR tilingGm) {
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// C = A x B^T (B stored N x K when transB), one AIC per block of C.
template <typename aType, typename cType, typename biasType, bool transB>
__aicore__ inline void CubeOnlyMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                      GM_ADDR tilingGm) {
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  CopyTilingFromGm(&tiling, tilingGm);
  AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, aType>,
                  AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, aType, transB>,
                  AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, cType>,
                  AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, biasType>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  if (AscendC::GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) return;
  const uint32_t mBlocks = CeilDivU(tiling.M, tiling.singleCoreM);
  const uint32_t row0 = AscendC::GetBlockIdx() % mBlocks * tiling.singleCoreM;
  const uint32_t col0 = AscendC::GetBlockIdx() / mBlocks * tiling.singleCoreN;
  AscendC::GlobalTensor<aType> aGlobal;
  AscendC::GlobalTensor<aType> bGlobal;
  AscendC::GlobalTensor<cType> cGlobal;
  AscendC::GlobalTensor<biasType> biasGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ aType*>(a), tiling.M * tiling.Ka);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ aType*>(b), tiling.Kb * tiling.N);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ cType*>(c), tiling.M * tiling.N);
  biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ biasType*>(bias), tiling.N);
  const int32_t tailM = tiling.M - row0 < static_cast<uint32_t>(tiling.singleCoreM)
                            ? tiling.M - row0
                            : tiling.singleCoreM;
  const int32_t tailN = tiling.N - col0 < static_cast<uint32_t>(tiling.singleCoreN)
                            ? tiling.N - col0
                            : tiling.singleCoreN;
  mm.SetTail(tailM, tailN);
  mm.SetTensorA(aGlobal[row0 * tiling.Ka]);
  mm.SetTensorB(bGlobal[transB ? col0 * tiling.Kb : col0], transB);
  if (tiling.isBias) mm.SetBias(biasGlobal[col0]);
  if constexpr (sizeof(aType) == 1 && sizeof(cType) == 2)
    mm.SetQuantScalar(0x3F800000);  // float 1.0
  mm.IterateAll(cGlobal[row0 * tiling.N + col0]);
  mm.End();
}

}  // namespace

extern "C" __global__ __aicore__ void mm_aic_float(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                   GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  CubeOnlyMatmul<float, float, float, true>(a, b, bias, c, tiling);
}
extern "C" __global__ __aicore__ void mm_aic_int8(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                  GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  CubeOnlyMatmul<int8_t, int32_t, int32_t, true>(a, b, bias, c, tiling);
}
extern "C" __global__ __aicore__ void mm_aic_int8_half(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                       GM_ADDR c, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  CubeOnlyMatmul<int8_t, half, int32_t, true>(a, b, bias, c, tiling);
}
// No kernel type: the runtime learns from REGIST_MATMUL_OBJ that it runs on AICs.
extern "C" __global__ __aicore__ void mm_aic_bf16_undeclared(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                             GM_ADDR c, GM_ADDR tiling) {
  CubeOnlyMatmul<bfloat16_t, float, float, false>(a, b, bias, c, tiling);
}

// ---- misuse: one kernel, `mode` picks the mistake ----
enum Misuse : uint32_t {
  kNoSetTensorA = 0,
  kNoSetBias = 1,
  kGetTensorCFirst = 2,
  kLocalC = 3,
  kKernelL0A = 4,
  kShortA = 5,
  kNullTiling = 6,
};

extern "C" __global__ __aicore__ void mm_aic_misuse(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                    GM_ADDR tilingGm, uint32_t mode) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  CopyTilingFromGm(&tiling, tilingGm);
  using AT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
  using CT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
  AscendC::Matmul<AT, AT, CT, CT> mm;
  AscendC::TQue<AscendC::TPosition::A2, 1> l0a;
  if (mode == kKernelL0A) pipe.InitBuffer(l0a, 1, 1024);
  if (mode == kNullTiling) {
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm);
    mm.Init(nullptr);
  }
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a),
                          mode == kShortA ? tiling.M * tiling.Ka / 2 : tiling.M * tiling.Ka);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), tiling.Kb * tiling.N);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
  if (mode != kNoSetTensorA) mm.SetTensorA(aGlobal);
  mm.SetTensorB(bGlobal);
  if (mode == kGetTensorCFirst) mm.GetTensorC(cGlobal);
  if (mode == kLocalC) {
    AscendC::LocalTensor<float> local;
    mm.Iterate();
    mm.GetTensorC(local);
  }
  mm.IterateAll(cGlobal);
  mm.End();
}

// Two Matmul objects on one AIC (they share its L0A/L0B): C1 = A x B and C2 = A x B^T... of
// the same inputs viewed as square matrices.
extern "C" __global__ __aicore__ void mm_aic_two_objects(GM_ADDR a, GM_ADDR b, GM_ADDR c1,
                                                         GM_ADDR c2, GM_ADDR tilingGm) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  CopyTilingFromGm(&tiling, tilingGm);
  using AT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
  using BTT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, true>;
  using CT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
  AscendC::Matmul<AT, AT, CT, CT> mm1;
  AscendC::Matmul<AT, BTT, CT, CT> mm2;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm1, &tiling, mm2, &tiling);
  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<float> c1Global, c2Global;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), tiling.M * tiling.Ka);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), tiling.Kb * tiling.N);
  c1Global.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c1), tiling.M * tiling.N);
  c2Global.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c2), tiling.M * tiling.N);
  mm1.SetTensorA(aGlobal);
  mm1.SetTensorB(bGlobal);
  mm2.SetTensorA(aGlobal);
  mm2.SetTensorB(bGlobal, true);
  // Interleaved: one block of each at a time.
  bool more1 = true, more2 = true;
  while (more1 || more2) {
    if (more1 && (more1 = mm1.Iterate())) mm1.GetTensorC(c1Global);
    if (more2 && (more2 = mm2.Iterate())) mm2.GetTensorC(c2Global);
  }
  mm1.End();
  mm2.End();
}

// The BareMix layout for the cost model: each AIC computes a 64 x 64 x 64 block of C, then
// sets flag 3; its AIVs wait and add 1 to their half of the block.
extern "C" __global__ __aicore__ void mix_matmul_then_vector(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                             GM_ADDR tilingGm) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  CopyTilingFromGm(&tiling, tilingGm);
  const uint32_t block = AscendC::GetBlockIdx() / (ASCEND_IS_AIV ? 2 : 1);
  AscendC::GlobalTensor<float> cGlobal;
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + block * 64 * 64, 64 * 64);
  if ASCEND_IS_AIC {
    using AT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
    using CT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    AscendC::Matmul<AT, AT, CT, CT> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    AscendC::GlobalTensor<half> aGlobal, bGlobal;
    aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), 64 * 64);
    bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), 64 * 64);
    mm.SetTensorA(aGlobal);
    mm.SetTensorB(bGlobal);
    mm.IterateAll(cGlobal);
    mm.End();
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(3);
  }
  if ASCEND_IS_AIV {
    AscendC::TQue<AscendC::TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 32 * 64 * sizeof(float));
    AscendC::CrossCoreWaitFlag(3);
    AscendC::GlobalTensor<float> half = cGlobal[AscendC::GetSubBlockIdx() * 32 * 64];
    AscendC::LocalTensor<float> t = que.AllocTensor<float>();
    AscendC::DataCopy(t, half, 32 * 64);
    que.EnQue(t);
    t = que.DeQue<float>();
    AscendC::Adds(t, t, 1.0f, 32 * 64);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(half, t, 32 * 64);
    que.FreeTensor(t);
  }
}

namespace {

struct Shape {
  uint32_t m, n, k;
  bool bias;
};

std::vector<uint8_t> AicTiling(const Shape& s, matmul_tiling::DataType in,
                               matmul_tiling::DataType out, matmul_tiling::DataType bias_t,
                               bool trans_b, TCubeTiling* t) {
  using namespace matmul_tiling;
  using Format = matmul_tiling::CubeFormat;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  MultiCoreMatmulTiling api(*platform);
  api.SetDim(static_cast<int32_t>(platform->GetCoreNumAic()));
  api.SetAType(TPosition::GM, Format::ND, in, false);
  api.SetBType(TPosition::GM, Format::ND, in, trans_b);
  api.SetCType(TPosition::GM, Format::ND, out);
  api.SetBiasType(TPosition::GM, Format::ND, bias_t);
  api.SetShape(static_cast<int32_t>(s.m), static_cast<int32_t>(s.n), static_cast<int32_t>(s.k));
  api.SetOrgShape(static_cast<int32_t>(s.m), static_cast<int32_t>(s.n), static_cast<int32_t>(s.k));
  api.SetBias(s.bias);
  optiling::TCubeTiling tiling;
  EXPECT_EQ(api.GetTiling(tiling), 0);
  std::vector<uint8_t> buf(tiling.GetDataSize());
  tiling.SaveToBuffer(buf.data(), buf.size());
  std::memcpy(t, buf.data(), sizeof(TCubeTiling));
  return buf;
}

template <class T, class BiasT>
std::vector<double> Reference(const std::vector<T>& a, const std::vector<T>& b,
                              const std::vector<BiasT>& bias, const Shape& s, bool trans_b) {
  std::vector<double> out(size_t{s.m} * s.n, 0.0);
  for (uint32_t i = 0; i < s.m; ++i) {
    for (uint32_t p = 0; p < s.k; ++p) {
      const double av = static_cast<double>(static_cast<float>(a[size_t{i} * s.k + p]));
      for (uint32_t j = 0; j < s.n; ++j) {
        const T bv = trans_b ? b[size_t{j} * s.k + p] : b[size_t{p} * s.n + j];
        out[size_t{i} * s.n + j] += av * static_cast<double>(static_cast<float>(bv));
      }
    }
    if (s.bias) {
      for (uint32_t j = 0; j < s.n; ++j) out[size_t{i} * s.n + j] += static_cast<double>(bias[j]);
    }
  }
  return out;
}

template <class CT>
size_t CountBad(const std::vector<CT>& got, const std::vector<double>& want, double abs_tol) {
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double g = static_cast<double>(static_cast<float>(got[i]));
    if (!(std::fabs(g - want[i]) <= abs_tol)) {
      if (bad++ < 5) ADD_FAILURE() << "element " << i << ": " << g << " vs " << want[i];
    }
  }
  return bad;
}

using Runner = void (*)(uint32_t, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);
#define ASCSIM_AIC_RUNNER(kernel)                                            \
  [](uint32_t d, GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR t) { \
    ICPU_RUN_KF(kernel, d, a, b, bias, c, t);                                \
  }

template <class T, class CT, class BiasT>
void RunAic(Runner run, const Shape& s, matmul_tiling::DataType in, matmul_tiling::DataType out,
            matmul_tiling::DataType bias_t, bool trans_b, float lo, float hi, double abs_tol) {
  TCubeTiling t;
  const auto host_tiling = AicTiling(s, in, out, bias_t, trans_b, &t);
  auto a = RandomVector<T>(size_t{s.m} * s.k, lo, hi, 31);
  auto b = RandomVector<T>(size_t{s.k} * s.n, lo, hi, 32);
  auto bias = RandomVector<BiasT>(s.n, lo, hi, 33);
  DeviceBuffer da(a.size() * sizeof(T)), db(b.size() * sizeof(T)), dbias(bias.size() * 4),
      dc(size_t{s.m} * s.n * sizeof(CT)), dt(host_tiling.size());
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  std::memcpy(dbias.gm(), bias.data(), dbias.bytes());
  std::memcpy(dt.gm(), host_tiling.data(), dt.bytes());
  std::memset(dc.gm(), 0xff, dc.bytes());
  run(static_cast<uint32_t>(t.usedCoreNum), da.gm(), db.gm(), dbias.gm(), dc.gm(), dt.gm());
  std::vector<CT> got(size_t{s.m} * s.n);
  std::memcpy(got.data(), dc.gm(), dc.bytes());
  EXPECT_EQ(CountBad(got, Reference(a, b, bias, s, trans_b), abs_tol), 0u)
      << s.m << "x" << s.n << "x" << s.k;
}

TEST(MatmulCubeOnly, FloatWithTransposedB) {
  for (const Shape& s :
       {Shape{16, 16, 8, false}, Shape{70, 45, 37, true}, Shape{200, 130, 300, true}}) {
    RunAic<float, float, float>(
        ASCSIM_AIC_RUNNER(mm_aic_float), s, matmul_tiling::DataType::DT_FLOAT,
        matmul_tiling::DataType::DT_FLOAT, matmul_tiling::DataType::DT_FLOAT, true, -1, 1,
        1e-5 * std::sqrt(double(s.k)) + 1e-6);
  }
}

TEST(MatmulCubeOnly, Int8IsExactInInt32) {
  for (const Shape& s :
       {Shape{32, 32, 32, false}, Shape{50, 70, 100, true}, Shape{129, 65, 257, true}}) {
    RunAic<int8_t, int32_t, int32_t>(
        ASCSIM_AIC_RUNNER(mm_aic_int8), s, matmul_tiling::DataType::DT_INT8,
        matmul_tiling::DataType::DT_INT32, matmul_tiling::DataType::DT_INT32, true, -128, 127, 0.0);
  }
}

TEST(MatmulCubeOnly, Int8DequantisedToHalf) {
  // Small products so that the half result is exact: DEQF16 with a scale of 1.0.
  RunAic<int8_t, half, int32_t>(ASCSIM_AIC_RUNNER(mm_aic_int8_half), Shape{40, 48, 64, false},
                                matmul_tiling::DataType::DT_INT8,
                                matmul_tiling::DataType::DT_FLOAT16,
                                matmul_tiling::DataType::DT_INT32, true, -3, 3, 0.0);
}

TEST(MatmulCubeOnly, UndeclaredKernelRunsOnAics) {
  RunAic<bfloat16_t, float, float>(ASCSIM_AIC_RUNNER(mm_aic_bf16_undeclared),
                                   Shape{90, 110, 75, true}, matmul_tiling::DataType::DT_BF16,
                                   matmul_tiling::DataType::DT_FLOAT,
                                   matmul_tiling::DataType::DT_FLOAT, false, -1, 1, 1e-4);
}

// One AIC, a 64 x 64 x 64 half tiling (blocks of 32 x 32 x 32 unless `base` says otherwise).
std::vector<uint8_t> SmallTiling(TCubeTiling* t, int32_t base = 32) {
  using namespace matmul_tiling;
  using Format = matmul_tiling::CubeFormat;
  MatmulApiTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetAType(TPosition::GM, Format::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, Format::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, Format::ND, DataType::DT_FLOAT);
  api.SetShape(64, 64, 64);
  api.SetOrgShape(64, 64, 64);
  api.SetFixSplit(base, base, base);
  optiling::TCubeTiling tiling;
  EXPECT_EQ(api.GetTiling(tiling), 0);
  std::vector<uint8_t> buf(tiling.GetDataSize());
  tiling.SaveToBuffer(buf.data(), buf.size());
  std::memcpy(t, buf.data(), sizeof(TCubeTiling));
  return buf;
}

std::string MisuseMessage(uint32_t mode, std::vector<uint8_t> tiling_bytes = {}) {
  TCubeTiling t;
  if (tiling_bytes.empty()) tiling_bytes = SmallTiling(&t);
  DeviceBuffer da(64 * 64 * 2), db(64 * 64 * 2), dc(64 * 64 * 4), dt(tiling_bytes.size());
  std::memcpy(dt.gm(), tiling_bytes.data(), dt.bytes());
  return ErrorOf([&] { ICPU_RUN_KF(mm_aic_misuse, 1, da.gm(), db.gm(), dc.gm(), dt.gm(), mode); });
}

#define EXPECT_HAS(msg, text) EXPECT_NE((msg).find(text), std::string::npos) << (msg)

TEST(MatmulRules, MissingInputsAndOrder) {
  EXPECT_HAS(MisuseMessage(kNoSetTensorA),
             "mm_aic_misuse: block 0/1 AIC: Matmul::IterateAll: SetTensorA was not called");
  EXPECT_HAS(MisuseMessage(kGetTensorCFirst),
             "mm_aic_misuse: block 0/1 AIC: Matmul::GetTensorC: no block in L0C: call Iterate "
             "first (and check that it returned true)");
  EXPECT_HAS(MisuseMessage(kNullTiling),
             "mm_aic_misuse: block 0/1 AIC: Matmul::Init: the tiling pointer is null");
}

TEST(MatmulRules, BiasEnabledByTheTilingNeedsSetBias) {
  TCubeTiling t;
  auto bytes = SmallTiling(&t);
  t.isBias = 1;
  std::memcpy(bytes.data(), &t, sizeof(t));
  EXPECT_HAS(MisuseMessage(kNoSetBias, bytes),
             "Matmul::IterateAll: the tiling enables a bias (isBias) but SetBias was not called "
             "(DisableBias turns it off)");
}

TEST(MatmulRules, LocalCOnAnAicAndL0TakenByTheKernel) {
  EXPECT_HAS(MisuseMessage(kLocalC),
             "Matmul::GetTensorC: C to a local tensor: this core (an AIC) has no Unified Buffer "
             "for the Matmul API; call it from the AIVs of a mix kernel or write C to GM");
  EXPECT_HAS(MisuseMessage(kKernelL0A),
             "Matmul::Init: the Matmul API uses the whole L0A (A2) of the core, as CANN's does, "
             "but the TPipe already holds 1024 B there");
}

TEST(MatmulRules, GlobalTensorTooShortForTheTiling) {
  EXPECT_HAS(MisuseMessage(kShortA), "mm_aic_misuse: block 0/1 AIC: DataCopy GM->L1");
  EXPECT_HAS(MisuseMessage(kShortA), "exceeds GlobalTensor size 2048");
}

TEST(MatmulRules, TilingThatDoesNotFitL0OrIsMalformed) {
  TCubeTiling t;
  auto bytes = SmallTiling(&t);
  t.baseM = 256;
  t.baseN = 256;
  t.baseK = 128;
  std::memcpy(bytes.data(), &t, sizeof(t));
  EXPECT_HAS(MisuseMessage(kNoSetBias, bytes),
             "mm_aic_misuse: block 0/1 AIC: InitBuffer: CO1 queue needs 1 x 262144 B at L0C "
             "offset 0, exceeding the L0C Buffer (131072 B on Ascend910B1)");
  t.baseN = 128;
  std::memcpy(bytes.data(), &t, sizeof(t));
  EXPECT_HAS(MisuseMessage(kNoSetBias, bytes),
             "Matmul::Init: base block 256 x 128 x 128 needs 65536 B of L0A and 32768 B of L0B "
             "per buffer; the core has 32768 B and 32768 B per buffer (dbL0A 2, dbL0B 2)");
  t.baseM = 24;
  std::memcpy(bytes.data(), &t, sizeof(t));
  EXPECT_HAS(MisuseMessage(kNoSetBias, bytes),
             "Matmul::Init: tiling base block 24 x 128 x 128: baseM and baseN must be positive "
             "multiples of 16");
  t = TCubeTiling{};
  std::memcpy(bytes.data(), &t, sizeof(t));
  EXPECT_HAS(MisuseMessage(kNoSetBias, bytes), "must be positive (was GetTiling's result checked");
}

TEST(MatmulRules, NotOn310P) {
  ascsim::ScopedSettings keep;
  ascsim::Settings s = ascsim::GetSettings();
  s.soc = &ascsim::FindSocProfile("Ascend310P3");
  ascsim::SetSettings(s);
  EXPECT_HAS(MisuseMessage(kNoSetBias),
             "Matmul::Init: the Matmul API is simulated on the A2 profiles (split AIC/AIV cores) "
             "only; Ascend310P3 runs Matmul through the Unified Buffer");
}

TEST(MatmulCubeOnly, TwoObjectsShareTheL0Buffers) {
  TCubeTiling t;
  const auto bytes = SmallTiling(&t);
  auto a = RandomVector<half>(64 * 64, -1, 1, 41);
  auto b = RandomVector<half>(64 * 64, -1, 1, 42);
  DeviceBuffer da(a.size() * 2), db(b.size() * 2), dc1(64 * 64 * 4), dc2(64 * 64 * 4),
      dt(bytes.size());
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  std::memcpy(dt.gm(), bytes.data(), dt.bytes());
  ICPU_RUN_KF(mm_aic_two_objects, 1, da.gm(), db.gm(), dc1.gm(), dc2.gm(), dt.gm());
  std::vector<float> c1(64 * 64), c2(64 * 64);
  std::memcpy(c1.data(), dc1.gm(), dc1.bytes());
  std::memcpy(c2.data(), dc2.gm(), dc2.bytes());
  const Shape s{64, 64, 64, false};
  const std::vector<float> none;
  EXPECT_EQ(CountBad(c1, Reference(a, b, none, s, false), 1e-4), 0u);
  EXPECT_EQ(CountBad(c2, Reference(a, b, none, s, true), 1e-4), 0u);
}

TEST(CubeCostModel, MixLaunchWavesCubePipesAndCrossCoreOrder) {
  TCubeTiling t;
  const auto bytes = SmallTiling(&t);  // 64^3 in 32^3 blocks: 2 x 2 x 2 Mmads of 32^3
  auto a = RandomVector<half>(64 * 64, -1, 1, 51);
  auto b = RandomVector<half>(64 * 64, -1, 1, 52);
  const uint32_t block_dim = 30;  // 24 AICs on Ascend910B1: two waves
  DeviceBuffer da(a.size() * 2), db(b.size() * 2), dc(block_dim * 64 * 64 * 4), dt(bytes.size());
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  std::memcpy(dt.gm(), bytes.data(), dt.bytes());
  ascsim::Profiler prof;
  ICPU_RUN_KF(mix_matmul_then_vector, block_dim, da.gm(), db.gm(), dc.gm(), dt.gm());
  const auto summary = prof.Summary();
  ASSERT_EQ(summary.size(), 1u);
  const ascsim::LaunchEstimate& e = summary[0];
  // The functional result: C + 1.
  std::vector<float> c(64 * 64);
  std::memcpy(c.data(), dc.gm() + 29 * 64 * 64 * 4, c.size() * 4);
  EXPECT_EQ(CountBad(
                c,
                [&] {
                  auto r = Reference(a, b, std::vector<float>{}, Shape{64, 64, 64, false}, false);
                  for (double& v : r) v += 1;
                  return r;
                }(),
                1e-4),
            0u);
  EXPECT_EQ(e.waves, 2u);
  EXPECT_EQ(e.cores.size(), block_dim * 3u);  // an AIC and two AIVs per block
  // M: per block 8 Mmads of 32 x 32 x 32 fp16 = 8 cycles each at 16 x 16 x 16 MACs per cycle,
  // plus the per-instruction head.
  const ascsim::SocProfile& soc = ascsim::FindSocProfile("Ascend910B1");
  const double mmad_us = 8 * (soc.mmad_head_cycles + 32.0 * 32 * 32 / 4096) / (soc.clock_ghz * 1e3);
  EXPECT_NEAR(e.pipes.at("M"), block_dim * mmad_us, 1e-6);
  EXPECT_GT(e.pipes.at("MTE1"), 0);
  EXPECT_GT(e.pipes.at("FIX"), 0);
  EXPECT_GT(e.pipes.at("V"), 0);
  // Every AIV's vector work starts after its AIC's last Fixpipe finished.
  std::map<uint32_t, double> fix_end;  // by block
  std::map<uint32_t, double> first_v;  // by block: earliest AIV vector op
  for (const ascsim::TimelineEvent& ev : e.events) {
    const ascsim::trace::CoreTrace& tr = (*e.traces)[ev.block];
    if (tr.unit == 1 && ev.pipe == ascsim::trace::Pipe::kFix) {
      fix_end[tr.block_idx] = std::max(fix_end[tr.block_idx], ev.start_us + ev.dur_us);
    }
    if (tr.unit == 2 && ev.pipe == ascsim::trace::Pipe::kV) {
      auto it = first_v.find(tr.block_idx);
      if (it == first_v.end() || ev.start_us < it->second) first_v[tr.block_idx] = ev.start_us;
    }
  }
  ASSERT_EQ(first_v.size(), block_dim);
  for (const auto& [block, t_v] : first_v) EXPECT_GE(t_v, fix_end.at(block)) << "block " << block;
  // The second wave starts after the first ends.
  double wave0_end = 0;
  for (const ascsim::CoreEstimate& core : e.cores) {
    if (core.wave == 0) wave0_end = std::max(wave0_end, core.end_us);
  }
  for (const ascsim::TimelineEvent& ev : e.events) {
    if (ev.wave == 1) {
      EXPECT_GE(ev.start_us, wave0_end - 1e-9);
    }
  }
}

// One AIC moves its operands with one MTE2 engine (the calibrated 43.2 GB/s of one core,
// docs/calibration.md): this shape is bound by that transfer, the cube busy a quarter of it.
TEST(CubeCostModel, ALargeMatmulOnOneAicIsTransferBound) {
  const Shape s{256, 256, 2048, false};
  using namespace matmul_tiling;
  using Format = matmul_tiling::CubeFormat;
  MatmulApiTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());  // one AIC
  api.SetAType(TPosition::GM, Format::ND, DataType::DT_BF16);
  api.SetBType(TPosition::GM, Format::ND, DataType::DT_BF16);
  api.SetCType(TPosition::GM, Format::ND, DataType::DT_FLOAT);
  api.SetShape(s.m, s.n, s.k);
  api.SetOrgShape(s.m, s.n, s.k);
  optiling::TCubeTiling tiling;
  ASSERT_EQ(api.GetTiling(tiling), 0);
  std::vector<uint8_t> bytes(tiling.GetDataSize());
  tiling.SaveToBuffer(bytes.data(), bytes.size());
  DeviceBuffer da(s.m * s.k * 2), db(s.k * s.n * 2), dbias(s.n * 4), dc(s.m * s.n * 4),
      dt(bytes.size());
  std::memset(da.gm(), 0, da.bytes());
  std::memset(db.gm(), 0, db.bytes());
  std::memcpy(dt.gm(), bytes.data(), dt.bytes());
  ascsim::Profiler prof;
  ICPU_RUN_KF(mm_aic_bf16_undeclared, 1, da.gm(), db.gm(), dbias.gm(), dc.gm(), dt.gm());
  const auto summary = prof.Summary();
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0].bound, "GM bandwidth") << prof.ToTable();
  EXPECT_GT(summary[0].pipes.at("M"), 0.2 * summary[0].pipes.at("MTE2")) << prof.ToTable();
  EXPECT_NE(prof.ToTable().find("M_us"), std::string::npos);
}

}  // namespace
