// Held-out kernel 7: the first pass of a Welford LayerNorm over long rows: the reduce axis R of
// each row is cut into chunks of abLength, and WelfordUpdate folds chunk after chunk into running
// per-position mean and M2 (float), ping-ponging between two buffers; the last chunk is partial
// (abComputeLength < abLength) and the positions it does not reach keep their values
// (isInplace = true copies them from the inputs).
//
// Names and the source each use follows:
// - WelfordUpdate<T, float, false, config>(outputMean, outputVariance, inputMean, inputVariance,
//   inputX, sharedTmpBuffer, WelfordUpdateParam{rnLength = 1, abLength, abComputeLength,
//   nRec = 1/i}) and WelfordUpdateConfig{isInplace}: asc-devkit docs
//   高阶API/归一化操作/WelfordUpdate.md (formula checked against its example: mean_i = mean_{i-1} +
//   (x - mean_{i-1}) * nRec, M_i = M_{i-1} + (x - mean_{i-1}) * (x - mean_i); out of range the
//   outputs are copied from the inputs when isInplace: asc-devkit layernorm_common_impl.h
//   WelfordUpdateInplace; no output may overlap an input: welfordupdate_check_common.h).
// - GetWelfordUpdateMaxMinTmpSize(shape, sizeof(T), sizeof(U), isReuseSource, isInplace, max,
//   min): docs WelfordUpdate-Tiling.md.
// - Duplicate to zero the initial mean/M2 (the doc: "Meant0 and M0 ... 取值全0").
#include "heldout_util.h"
#include "tiling/tiling_api.h"

namespace heldout_welford {

struct WelfordTiling {
  uint32_t rowLength;  // R
  uint32_t abLength;   // chunk
  uint32_t tmpBytes;
};

constexpr AscendC::WelfordUpdateConfig WF_INPLACE_CFG = {true};

template <typename T>
class KernelWelford {
 public:
  __aicore__ inline KernelWelford() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR mean, GM_ADDR m2, const WelfordTiling& t) {
    r_ = t.rowLength;
    k_ = t.abLength;
    const uint32_t row = AscendC::GetBlockIdx();
    xGm_.SetGlobalBuffer((__gm__ T*)x + row * r_, r_);
    meanGm_.SetGlobalBuffer((__gm__ float*)mean + row * k_, k_);
    m2Gm_.SetGlobalBuffer((__gm__ float*)m2 + row * k_, k_);
    pipe_.InitBuffer(inQueue_, 2, k_ * sizeof(T));
    pipe_.InitBuffer(outQueue_, 1, 2 * k_ * sizeof(float));
    pipe_.InitBuffer(tmpBuf_, t.tmpBytes);
    pipe_.InitBuffer(pingBuf_, 2 * k_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    // Two (mean, M2) pairs in turn: the API takes no output overlapping its inputs (CANN checks
    // it too); with isInplace the positions past abComputeLength are copied over.
    AscendC::LocalTensor<float> stat = outQueue_.AllocTensor<float>();
    AscendC::LocalTensor<float> mean = stat;
    AscendC::LocalTensor<float> m2 = stat[k_];
    AscendC::LocalTensor<float> mean2 = pingBuf_.Get<float>();
    AscendC::LocalTensor<float> m22 = mean2[k_];
    AscendC::Duplicate(stat, 0.0f, 2 * k_);
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf_.Get<uint8_t>();
    const uint32_t chunks = (r_ + k_ - 1) / k_;
    for (uint32_t i = 0; i < chunks; ++i) {
      const uint32_t n = r_ - i * k_ < k_ ? r_ - i * k_ : k_;
      AscendC::LocalTensor<T> x = inQueue_.AllocTensor<T>();
      AscendC::DataCopyPad(x, xGm_[i * k_], {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                           {false, 0, 0, 0});
      inQueue_.EnQue(x);
      x = inQueue_.DeQue<T>();
      AscendC::WelfordUpdateParam para{1, k_, n, 1.0f / static_cast<float>(i + 1)};
      // Odd steps read stat and write the spare pair, even steps the other way round.
      if (i % 2 == 0) {
        AscendC::WelfordUpdate<T, float, false, WF_INPLACE_CFG>(mean2, m22, mean, m2, x, tmp, para);
      } else {
        AscendC::WelfordUpdate<T, float, false, WF_INPLACE_CFG>(mean, m2, mean2, m22, x, tmp, para);
      }
      inQueue_.FreeTensor(x);
    }
    if (chunks % 2 == 1) {
      AscendC::DataCopy(stat, mean2, 2 * k_);  // the last step wrote the spare pair
    }
    outQueue_.EnQue(stat);
    stat = outQueue_.DeQue<float>();
    AscendC::DataCopy(meanGm_, stat, k_);
    AscendC::DataCopy(m2Gm_, stat[k_], k_);
    outQueue_.FreeTensor(stat);
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf_, pingBuf_;
  AscendC::GlobalTensor<T> xGm_;
  AscendC::GlobalTensor<float> meanGm_, m2Gm_;
  uint32_t r_ = 0, k_ = 0;
};

}  // namespace heldout_welford

extern "C" __global__ __aicore__ void heldout_welford_half(GM_ADDR x, GM_ADDR mean, GM_ADDR m2,
                                                           GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_welford::WelfordTiling);
  GET_TILING_DATA(t, tiling);
  heldout_welford::KernelWelford<half> op;
  op.Init(x, mean, m2, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_welford_float(GM_ADDR x, GM_ADDR mean, GM_ADDR m2,
                                                            GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_welford::WelfordTiling);
  GET_TILING_DATA(t, tiling);
  heldout_welford::KernelWelford<float> op;
  op.Init(x, mean, m2, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

template <class T>
void RunWelford(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t rows,
                uint32_t R, uint32_t k) {
  const auto x = heldout::Random<T>(rows * R, -3, 5, R * 3 + k);
  GmBuf gx(x.size() * sizeof(T)), gm(rows * k * sizeof(float)), gv(rows * k * sizeof(float)),
      ws(1024), tiling(sizeof(heldout_welford::WelfordTiling));
  heldout::Upload(gx, x);
  std::vector<int64_t> shapeVec{1, k};
  AscendC::TensorShape shape(shapeVec);
  uint32_t mx = 0, mn = 0;
  AscendC::GetWelfordUpdateMaxMinTmpSize(shape, sizeof(T), sizeof(float), false, true, mx, mn);
  *tiling.as<heldout_welford::WelfordTiling>() = {R, k, std::max(mn, 32u)};
  ICPU_RUN_KF(kernel, rows, gx.get(), gm.get(), gv.get(), ws.get(), tiling.get());
  // Per position j of a row: the samples x[c * k + j] of every chunk c that reaches j.
  std::vector<double> wm(rows * k), wv(rows * k);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < k; ++j) {
      double s = 0;
      uint32_t c = 0;
      for (uint32_t p = j; p < R; p += k, ++c) s += heldout::ToDouble(x[r * R + p]);
      const double m = c ? s / c : 0;
      double q = 0;
      for (uint32_t p = j; p < R; p += k) {
        const double d = heldout::ToDouble(x[r * R + p]) - m;
        q += d * d;
      }
      wm[r * k + j] = m;
      wv[r * k + j] = q;
    }
  }
  // The running statistics are float whatever T is: a few float roundings per chunk.
  EXPECT_TRUE(heldout::Near(heldout::Download<float>(gm, rows * k), wm, 1e-5, 1e-5)) << "mean";
  EXPECT_TRUE(heldout::Near(heldout::Download<float>(gv, rows * k), wv, 1e-4, 1e-5)) << "M2";
}

TEST(HeldoutWelford, RunningMeanAndM2OverChunksWithPartialLastChunk) {
  RunWelford<half>(heldout_welford_half, 3, 5 * 64 + 24, 64);
  RunWelford<float>(heldout_welford_float, 2, 4 * 72 + 40, 72);
}

}  // namespace
