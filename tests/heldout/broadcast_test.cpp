// Held-out kernel 11: y[m, k] = x[m, k] * s[m] + b[k], a per-row scale and a per-column bias,
// both expanded to [m, k] with the advanced BroadCast before two elementwise ops.
//
// Names and the source each use follows:
// - BroadCast<T, dim = 2, axis>(dst, src, dstShape[2], srcShape[2]): CANN's spelling as hicann
//   ops-math mul_addn op_kernel calls it (AscendC::BroadCast<T, dimNum, 1>(dst, src, dstShape,
//   srcShape)); semantics and constraints from asc-devkit docs 高阶API/张量变换/Broadcast.md
//   ([m, 1] -> [m, k] along axis 1; axis 0 needs srcShape[1] 32 B aligned).
// - Mul / Add (count form), DataCopy / DataCopyPad: basic API.
// - GET_TILING_DATA_PTR_WITH_STRUCT for the shape (docs Kernel-Tiling).
#include "heldout_util.h"

namespace heldout_brc {

struct BrcTiling {
  uint32_t m;
  uint32_t k;  // 32 B aligned (axis-0 broadcast of the bias row)
};

template <typename T>
class KernelScaleBias {
 public:
  __aicore__ inline KernelScaleBias() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR s, GM_ADDR bias, GM_ADDR y, uint32_t m,
                              uint32_t k) {
    m_ = m;
    k_ = k;
    const uint32_t b = AscendC::GetBlockIdx();
    xGm_.SetGlobalBuffer((__gm__ T*)x + b * m * k, m * k);
    yGm_.SetGlobalBuffer((__gm__ T*)y + b * m * k, m * k);
    sGm_.SetGlobalBuffer((__gm__ T*)s + b * m, m);
    bGm_.SetGlobalBuffer((__gm__ T*)bias, k);
    pipe_.InitBuffer(inQueueX_, 1, m * k * sizeof(T));
    pipe_.InitBuffer(inQueueS_, 1, (m * sizeof(T) + 31) / 32 * 32);
    pipe_.InitBuffer(inQueueB_, 1, k * sizeof(T));
    pipe_.InitBuffer(outQueue_, 1, m * k * sizeof(T));
    pipe_.InitBuffer(brcBuf_, m * k * sizeof(T));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<T> x = inQueueX_.AllocTensor<T>();
    AscendC::LocalTensor<T> s = inQueueS_.AllocTensor<T>();
    AscendC::LocalTensor<T> bias = inQueueB_.AllocTensor<T>();
    AscendC::DataCopy(x, xGm_, m_ * k_);
    AscendC::DataCopyPad(s, sGm_, {1, static_cast<uint32_t>(m_ * sizeof(T)), 0, 0, 0},
                         {false, 0, 0, 0});
    AscendC::DataCopy(bias, bGm_, k_);
    inQueueX_.EnQue(x);
    inQueueS_.EnQue(s);
    inQueueB_.EnQue(bias);
    x = inQueueX_.DeQue<T>();
    s = inQueueS_.DeQue<T>();
    bias = inQueueB_.DeQue<T>();

    AscendC::LocalTensor<T> y = outQueue_.AllocTensor<T>();
    AscendC::LocalTensor<T> brc = brcBuf_.Get<T>();
    const uint32_t dstShape[2] = {m_, k_};
    const uint32_t rowShape[2] = {m_, 1};
    const uint32_t colShape[2] = {1, k_};
    AscendC::BroadCast<T, 2, 1>(brc, s, dstShape, rowShape);
    AscendC::Mul(y, x, brc, m_ * k_);
    AscendC::BroadCast<T, 2, 0>(brc, bias, dstShape, colShape);
    AscendC::Add(y, y, brc, m_ * k_);
    outQueue_.EnQue(y);
    inQueueX_.FreeTensor(x);
    inQueueS_.FreeTensor(s);
    inQueueB_.FreeTensor(bias);

    y = outQueue_.DeQue<T>();
    AscendC::DataCopy(yGm_, y, m_ * k_);
    outQueue_.FreeTensor(y);
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX_, inQueueS_, inQueueB_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> brcBuf_;
  AscendC::GlobalTensor<T> xGm_, sGm_, bGm_, yGm_;
  uint32_t m_ = 0, k_ = 0;
};

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR s, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
  GET_TILING_DATA_PTR_WITH_STRUCT(heldout_brc::BrcTiling, t, tiling);
  KernelScaleBias<T> op;
  op.Init(x, s, b, y, t->m, t->k);
  op.Process();
}

}  // namespace heldout_brc

extern "C" __global__ __aicore__ void heldout_scale_bias_half(GM_ADDR x, GM_ADDR s, GM_ADDR b,
                                                              GM_ADDR y, GM_ADDR workspace,
                                                              GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_brc::BrcTiling);
  heldout_brc::Run<half>(x, s, b, y, tiling);
}

extern "C" __global__ __aicore__ void heldout_scale_bias_float(GM_ADDR x, GM_ADDR s, GM_ADDR b,
                                                               GM_ADDR y, GM_ADDR workspace,
                                                               GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_brc::BrcTiling);
  heldout_brc::Run<float>(x, s, b, y, tiling);
}

namespace {

using heldout::GmBuf;

template <class T>
void RunBrc(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR),
            uint32_t blocks, uint32_t m, uint32_t k) {
  const auto x = heldout::Random<T>(blocks * m * k, -2, 2, m * k);
  const auto s = heldout::Random<T>(blocks * m, 0.5, 2, m + 1);
  const auto b = heldout::Random<T>(k, -1, 1, k + 2);
  GmBuf gx(x.size() * sizeof(T)), gs(s.size() * sizeof(T)), gb(b.size() * sizeof(T)),
      gy(x.size() * sizeof(T)), ws(1024), tiling(sizeof(heldout_brc::BrcTiling));
  heldout::Upload(gx, x);
  heldout::Upload(gs, s);
  heldout::Upload(gb, b);
  *tiling.as<heldout_brc::BrcTiling>() = {m, k};
  ICPU_RUN_KF(kernel, blocks, gx.get(), gs.get(), gb.get(), gy.get(), ws.get(), tiling.get());
  std::vector<double> want(x.size());
  for (uint32_t bl = 0; bl < blocks; ++bl) {
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t c = 0; c < k; ++c) {
        const size_t i = (static_cast<size_t>(bl) * m + r) * k + c;
        // The product is rounded to T before the add.
        const double prod = heldout::ToDouble(
            heldout::FromDouble<T>(heldout::ToDouble(x[i]) * heldout::ToDouble(s[bl * m + r])));
        want[i] = prod + heldout::ToDouble(b[c]);
      }
    }
  }
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gy, x.size()), want, heldout::Tol<T>::kAbs,
                            heldout::Tol<T>::kRel))
      << "m " << m << " k " << k;
}

TEST(HeldoutBroadCast, RowScaleAndColumnBiasHalfAndFloat) {
  RunBrc<half>(heldout_scale_bias_half, 2, 7, 48);
  RunBrc<float>(heldout_scale_bias_float, 3, 5, 24);
  RunBrc<half>(heldout_scale_bias_half, 1, 1, 16);
}

}  // namespace
