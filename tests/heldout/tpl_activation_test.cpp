// Held-out kernel 2: a template kernel selected by tiling-template arguments, as ops-nn's
// arch-independent operators declare them, run the way their kernel unit tests run it (a lambda
// instantiating the template, the key from GET_TPL_TILING_KEY, AIV kernel mode).
//
// Names and the source each use follows:
// - "ascendc/host_api/tiling/template_argument.h", ASCENDC_TPL_ARGS_DECL, ASCENDC_TPL_DATATYPE_DECL
//   (C_DT_FLOAT16, C_DT_FLOAT), ASCENDC_TPL_UINT_DECL(..., ASCENDC_TPL_UI_LIST, ...),
//   ASCENDC_TPL_BOOL_DECL, ASCENDC_TPL_SEL / ASCENDC_TPL_ARGS_SEL / *_SEL, GET_TPL_TILING_KEY:
//   asc-devkit docs/zh/api/Utils-API/Tiling模板编程/模板参数定义.md and GET_TPL_TILING_KEY.md; the
//   header-per-operator layout of hicann ops-nn experimental/activation/prelu/op_kernel/
//   prelu_tiling_key.h.
// - ICPU_SET_TILING_KEY(GET_TPL_TILING_KEY(...)), AscendC::SetKernelMode(KernelMode::AIV_MODE),
//   ICPU_RUN_KF with a captureless lambda: ops-nn prelu tests/ut/op_kernel/test_prelu.cpp.
// - g_coreType == AscendC::AIC early return, `#ifdef __CCE_AICORE__` / `__CCE_AICORE__ >= 220`:
//   production kernels (ops-nn, ops-math op_kernel sources).
// - AscendC::Std::conditional<...>::type, AscendC::Std::min: docs Utils-API/CPP标准库
//   (conditional.md, min-268.md).
// - Relu, Abs, LeakyRelu, Adds (count form): docs 基础API/Memory矢量计算.
#include "ascendc/host_api/tiling/template_argument.h"
#include "heldout_util.h"

#define HELDOUT_ACT_RELU 0
#define HELDOUT_ACT_ABS 1
#define HELDOUT_ACT_LEAKY 2

ASCENDC_TPL_ARGS_DECL(HeldoutAct, ASCENDC_TPL_DATATYPE_DECL(D_T, C_DT_FLOAT16, C_DT_FLOAT),
                      ASCENDC_TPL_UINT_DECL(ACT, 2, ASCENDC_TPL_UI_LIST, HELDOUT_ACT_RELU,
                                            HELDOUT_ACT_ABS, HELDOUT_ACT_LEAKY),
                      ASCENDC_TPL_BOOL_DECL(HAS_BIAS, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT16, C_DT_FLOAT),
                                     ASCENDC_TPL_UINT_SEL(ACT, ASCENDC_TPL_UI_LIST,
                                                          HELDOUT_ACT_RELU, HELDOUT_ACT_ABS,
                                                          HELDOUT_ACT_LEAKY),
                                     ASCENDC_TPL_BOOL_SEL(HAS_BIAS, 0, 1)));

namespace heldout_tpl {

struct ActTiling {
  uint32_t totalLength;
  uint32_t blockLength;  // elements per core (the last core takes the rest)
  uint32_t tileLength;
  float bias;
  float slope;
};

template <typename T, uint32_t ACT, bool HAS_BIAS>
class KernelAct {
 public:
  __aicore__ inline KernelAct() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ActTiling& t) {
    const uint32_t idx = AscendC::GetBlockIdx();
    const uint32_t start = idx * t.blockLength;
    length_ = start >= t.totalLength ? 0 : AscendC::Std::min(t.blockLength, t.totalLength - start);
    tileLength_ = t.tileLength;
    bias_ = static_cast<T>(t.bias);
    slope_ = static_cast<T>(t.slope);
    xGm_.SetGlobalBuffer((__gm__ T*)x + start, length_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + start, length_);
    pipe_.InitBuffer(inQueue_, 2, tileLength_ * sizeof(T));
    pipe_.InitBuffer(outQueue_, 2, tileLength_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < length_; off += tileLength_) {
      const uint32_t n = AscendC::Std::min(tileLength_, length_ - off);
      CopyIn(off, n);
      Compute(n);
      CopyOut(off, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> xLocal = inQueue_.AllocTensor<T>();
#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 220
    AscendC::DataCopyPad(xLocal, xGm_[off], {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                         {false, 0, 0, 0});
#else
    AscendC::DataCopy(xLocal, xGm_[off], n);  // 310P: the host keeps tiles 32 B whole
#endif
    inQueue_.EnQue(xLocal);
  }
  __aicore__ inline void Compute(uint32_t n) {
    AscendC::LocalTensor<T> xLocal = inQueue_.DeQue<T>();
    AscendC::LocalTensor<T> yLocal = outQueue_.AllocTensor<T>();
    if constexpr (ACT == HELDOUT_ACT_RELU) {
      AscendC::Relu(yLocal, xLocal, n);
    } else if constexpr (ACT == HELDOUT_ACT_ABS) {
      AscendC::Abs(yLocal, xLocal, n);
    } else {
      AscendC::LeakyRelu(yLocal, xLocal, slope_, n);
    }
    if constexpr (HAS_BIAS) {
      AscendC::Adds(yLocal, yLocal, bias_, n);
    }
    outQueue_.EnQue(yLocal);
    inQueue_.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> yLocal = outQueue_.DeQue<T>();
#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 220
    AscendC::DataCopyPad(yGm_[off], yLocal, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
#else
    AscendC::DataCopy(yGm_[off], yLocal, n);
#endif
    outQueue_.FreeTensor(yLocal);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueue_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
  uint32_t length_ = 0;
  uint32_t tileLength_ = 0;
  T bias_;
  T slope_;
};

}  // namespace heldout_tpl

template <uint32_t D_T, uint32_t ACT, bool HAS_BIAS>
__global__ __aicore__ void heldout_tpl_act(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                           GM_ADDR tiling) {
  (void)workspace;
  if (g_coreType == AscendC::AIC) {
    return;
  }
  REGISTER_TILING_DEFAULT(heldout_tpl::ActTiling);
  GET_TILING_DATA_WITH_STRUCT(heldout_tpl::ActTiling, t, tiling);
  using T = typename AscendC::Std::conditional<D_T == C_DT_FLOAT16, half, float>::type;
  heldout_tpl::KernelAct<T, ACT, HAS_BIAS> op;
  op.Init(x, y, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

double Act(uint32_t act, double x, double slope) {
  if (act == HELDOUT_ACT_RELU) return x > 0 ? x : 0;
  if (act == HELDOUT_ACT_ABS) return std::fabs(x);
  return x >= 0 ? x : x * slope;
}

template <class T, uint32_t D_T, uint32_t ACT, bool HAS_BIAS>
void RunTpl(uint32_t total, uint32_t blockDim, std::vector<uint64_t>* keys) {
  const auto x = heldout::Random<T>(total, -3, 3, 5 * total + ACT);
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), ws(1024),
      tiling(sizeof(heldout_tpl::ActTiling));
  heldout::Upload(gx, x);
  heldout_tpl::ActTiling* t = tiling.as<heldout_tpl::ActTiling>();
  t->totalLength = total;
  t->blockLength = (total + blockDim - 1) / blockDim;
  t->tileLength = 128;
  t->bias = 0.5f;
  t->slope = 0.125f;
  const uint64_t key = GET_TPL_TILING_KEY(D_T, ACT, HAS_BIAS);
  keys->push_back(key);
  auto kernel = [](GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR tl) {
    ::heldout_tpl_act<D_T, ACT, HAS_BIAS>(a, b, w, tl);
  };
  ICPU_SET_TILING_KEY(key);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), ws.get(), tiling.get());
  std::vector<double> want(total);
  for (uint32_t i = 0; i < total; ++i) {
    // The activation is exact in T; the bias add rounds once.
    want[i] = Act(ACT, heldout::ToDouble(x[i]), heldout::ToDouble(heldout::FromDouble<T>(0.125))) +
              (HAS_BIAS ? 0.5 : 0.0);
  }
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gy, total), want, heldout::Tol<T>::kAbs,
                            heldout::Tol<T>::kRel))
      << "D_T " << D_T << " ACT " << ACT << " bias " << HAS_BIAS << " total " << total;
}

template <class T, uint32_t D_T>
void RunAllModes(uint32_t total, uint32_t blockDim, std::vector<uint64_t>* keys) {
  RunTpl<T, D_T, HELDOUT_ACT_RELU, false>(total, blockDim, keys);
  RunTpl<T, D_T, HELDOUT_ACT_RELU, true>(total, blockDim, keys);
  RunTpl<T, D_T, HELDOUT_ACT_ABS, false>(total, blockDim, keys);
  RunTpl<T, D_T, HELDOUT_ACT_ABS, true>(total, blockDim, keys);
  RunTpl<T, D_T, HELDOUT_ACT_LEAKY, false>(total, blockDim, keys);
  RunTpl<T, D_T, HELDOUT_ACT_LEAKY, true>(total, blockDim, keys);
}

TEST(HeldoutTplActivation, EveryTemplateCombinationComputesItsActivation) {
  std::vector<uint64_t> keys;
  RunAllModes<half, C_DT_FLOAT16>(1111, 3, &keys);
  RunAllModes<float, C_DT_FLOAT>(517, 4, &keys);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  // Twelve combinations, twelve different keys.
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::unique(keys.begin(), keys.end()) - keys.begin(), 12);
}

TEST(HeldoutTplActivation, KeyIsStableAcrossCalls) {
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT, HELDOUT_ACT_ABS, 1),
            GET_TPL_TILING_KEY(C_DT_FLOAT, HELDOUT_ACT_ABS, 1));
  EXPECT_NE(GET_TPL_TILING_KEY(C_DT_FLOAT, HELDOUT_ACT_ABS, 1),
            GET_TPL_TILING_KEY(C_DT_FLOAT16, HELDOUT_ACT_ABS, 1));
}

}  // namespace
