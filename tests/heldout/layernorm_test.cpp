// Held-out kernel 6: LayerNorm over [B, S, H] with one batch per core, the LayerNorm tiling
// computed on the host for the per-core shape [1, S, H] and carried inside the operator's tiling
// struct, outputs y, mean and variance.
//
// Names and the source each use follows:
// - LayerNorm(output, outputMean, outputVariance, inputX, gamma, beta, sharedTmpBuffer, epsilon,
//   tiling) for [B, S, H] (H 32 B aligned, not split): asc-devkit docs
//   高阶API/归一化操作/LayerNorm.md (formula: y = (x - E[x]) / sqrt(Var[x] + eps) * gamma + beta,
//   mean and variance along H, variance the biased one).
// - GetLayerNormMaxMinTmpSize(shape, typeSize, isReuseSource, max, min) and
//   GetLayerNormNDTilingInfo(shape {B, S, storageHLength, originHLength}, stackBufferSize,
//   typeSize, isReuseSource, AscendC::tiling::LayerNormTiling&): docs LayerNorm-Tiling.md (the standard-C++ tiling struct
//   overload); the tiling struct as a member of the operator's TilingData (its step 1).
// - GET_TILING_DATA + REGISTER_TILING_DEFAULT: docs Kernel-Tiling; DataCopyPad for the S-long
//   mean/variance rows (not 32 B whole).
#include "heldout_util.h"
#include "tiling/tiling_api.h"

namespace heldout_ln {

struct LnTilingData {
  uint32_t seqLength;  // S
  uint32_t hidden;     // H (32 B aligned)
  uint32_t tmpBytes;
  float epsilon;
  AscendC::tiling::LayerNormTiling lnTiling;
};

template <typename T>
class KernelLayerNorm {
 public:
  __aicore__ inline KernelLayerNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                              GM_ADDR var, const LnTilingData& t) {
    s_ = t.seqLength;
    h_ = t.hidden;
    eps_ = static_cast<T>(t.epsilon);
    tiling_ = t.lnTiling;
    const uint32_t b = AscendC::GetBlockIdx();
    xGm_.SetGlobalBuffer((__gm__ T*)x + b * s_ * h_, s_ * h_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + b * s_ * h_, s_ * h_);
    gammaGm_.SetGlobalBuffer((__gm__ T*)gamma, h_);
    betaGm_.SetGlobalBuffer((__gm__ T*)beta, h_);
    meanGm_.SetGlobalBuffer((__gm__ T*)mean + b * s_, s_);
    varGm_.SetGlobalBuffer((__gm__ T*)var + b * s_, s_);
    pipe_.InitBuffer(inQueueX_, 1, s_ * h_ * sizeof(T));
    pipe_.InitBuffer(inQueueGB_, 1, 2 * h_ * sizeof(T));
    pipe_.InitBuffer(outQueueY_, 1, s_ * h_ * sizeof(T));
    pipe_.InitBuffer(outQueueStat_, 1, 2 * AlignedS() * sizeof(T));
    pipe_.InitBuffer(tmpBuf_, t.tmpBytes);
  }
  __aicore__ inline void Process() {
    CopyIn();
    Compute();
    CopyOut();
  }

 private:
  __aicore__ inline uint32_t AlignedS() const {
    const uint32_t per = 32 / sizeof(T);
    return (s_ + per - 1) / per * per;
  }
  __aicore__ inline void CopyIn() {
    AscendC::LocalTensor<T> x = inQueueX_.AllocTensor<T>();
    AscendC::LocalTensor<T> gb = inQueueGB_.AllocTensor<T>();
    AscendC::DataCopy(x, xGm_, s_ * h_);
    AscendC::DataCopy(gb, gammaGm_, h_);
    AscendC::DataCopy(gb[h_], betaGm_, h_);
    inQueueX_.EnQue(x);
    inQueueGB_.EnQue(gb);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<T> x = inQueueX_.DeQue<T>();
    AscendC::LocalTensor<T> gb = inQueueGB_.DeQue<T>();
    AscendC::LocalTensor<T> y = outQueueY_.AllocTensor<T>();
    AscendC::LocalTensor<T> stat = outQueueStat_.AllocTensor<T>();
    AscendC::LocalTensor<T> mean = stat;
    AscendC::LocalTensor<T> var = stat[AlignedS()];
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf_.Get<uint8_t>();
    AscendC::LayerNorm<T, false>(y, mean, var, x, gb, gb[h_], tmp, eps_, tiling_);
    outQueueY_.EnQue(y);
    outQueueStat_.EnQue(stat);
    inQueueX_.FreeTensor(x);
    inQueueGB_.FreeTensor(gb);
  }
  __aicore__ inline void CopyOut() {
    AscendC::LocalTensor<T> y = outQueueY_.DeQue<T>();
    AscendC::LocalTensor<T> stat = outQueueStat_.DeQue<T>();
    AscendC::DataCopy(yGm_, y, s_ * h_);
    AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(s_ * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(meanGm_, stat, p);
    AscendC::DataCopyPad(varGm_, stat[AlignedS()], p);
    outQueueY_.FreeTensor(y);
    outQueueStat_.FreeTensor(stat);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX_, inQueueGB_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueY_, outQueueStat_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf_;
  AscendC::GlobalTensor<T> xGm_, yGm_, gammaGm_, betaGm_, meanGm_, varGm_;
  uint32_t s_ = 0, h_ = 0;
  T eps_;
  AscendC::tiling::LayerNormTiling tiling_;
};

}  // namespace heldout_ln

extern "C" __global__ __aicore__ void heldout_layernorm_half(GM_ADDR x, GM_ADDR gamma,
                                                             GM_ADDR beta, GM_ADDR y,
                                                             GM_ADDR mean, GM_ADDR var,
                                                             GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_ln::LnTilingData);
  GET_TILING_DATA(t, tiling);
  heldout_ln::KernelLayerNorm<half> op;
  op.Init(x, gamma, beta, y, mean, var, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_layernorm_float(GM_ADDR x, GM_ADDR gamma,
                                                              GM_ADDR beta, GM_ADDR y,
                                                              GM_ADDR mean, GM_ADDR var,
                                                              GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_ln::LnTilingData);
  GET_TILING_DATA(t, tiling);
  heldout_ln::KernelLayerNorm<float> op;
  op.Init(x, gamma, beta, y, mean, var, t);
  op.Process();
}

namespace {

using heldout::GmBuf;
using KernelFn = void (*)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);

template <class T>
void RunLn(KernelFn kernel, uint32_t B, uint32_t S, uint32_t H) {
  const float eps = 1e-5f;
  const auto x = heldout::Random<T>(B * S * H, -2, 3, 31 * H + S);
  const auto gamma = heldout::Random<T>(H, 0.5, 1.5, 7);
  const auto beta = heldout::Random<T>(H, -0.5, 0.5, 8);
  GmBuf gx(x.size() * sizeof(T)), gg(H * sizeof(T)), gbt(H * sizeof(T)),
      gy(x.size() * sizeof(T)), gm(B * S * sizeof(T)), gv(B * S * sizeof(T)), ws(1024),
      tiling(sizeof(heldout_ln::LnTilingData));
  heldout::Upload(gx, x);
  heldout::Upload(gg, gamma);
  heldout::Upload(gbt, beta);
  std::vector<int64_t> shapeVec{1, S, H, H};  // {B, S, storageHLength, originHLength}
  AscendC::TensorShape shape(shapeVec);
  uint32_t mx = 0, mn = 0;
  AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(T), false, mx, mn);
  ASSERT_GT(mn, 0u);
  heldout_ln::LnTilingData* t = tiling.as<heldout_ln::LnTilingData>();
  t->seqLength = S;
  t->hidden = H;
  t->tmpBytes = mn;
  t->epsilon = eps;
  AscendC::GetLayerNormNDTilingInfo(shape, mn, sizeof(T), false, t->lnTiling);
  ICPU_RUN_KF(kernel, B, gx.get(), gg.get(), gbt.get(), gy.get(), gm.get(), gv.get(), ws.get(),
              tiling.get());
  std::vector<double> wy(x.size()), wm(B * S), wv(B * S);
  for (uint32_t r = 0; r < B * S; ++r) {
    double m = 0, v = 0;
    for (uint32_t h = 0; h < H; ++h) m += heldout::ToDouble(x[r * H + h]);
    m /= H;
    for (uint32_t h = 0; h < H; ++h) {
      const double d = heldout::ToDouble(x[r * H + h]) - m;
      v += d * d;
    }
    v /= H;
    wm[r] = m;
    wv[r] = v;
    for (uint32_t h = 0; h < H; ++h) {
      wy[r * H + h] = (heldout::ToDouble(x[r * H + h]) - m) / std::sqrt(v + eps) *
                          heldout::ToDouble(gamma[h]) +
                      heldout::ToDouble(beta[h]);
    }
  }
  // Sums of H terms and a rsqrt in T: half keeps ~3 significant digits of a value of magnitude
  // <= 4 (2e-2 absolute), float ~1e-5 relative on sums of 40 terms.
  const double atol = sizeof(T) == 2 ? 2e-2 : 1e-4;
  const double rtol = sizeof(T) == 2 ? 1e-2 : 1e-4;
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gm, B * S), wm, atol, rtol)) << "mean";
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gv, B * S), wv, atol, rtol)) << "variance";
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gy, x.size()), wy, atol, rtol)) << "y";
}

TEST(HeldoutLayerNorm, BshHalfAndFloatOneBatchPerCore) {
  RunLn<half>(heldout_layernorm_half, 3, 5, 48);
  RunLn<float>(heldout_layernorm_float, 2, 7, 40);
}

}  // namespace
