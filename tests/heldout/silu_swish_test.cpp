// Held-out kernel 4: a gated-activation front end computing silu(x) and swish_beta(x) of one input
// into two outputs, the scalar beta carried in the tiling data.
//
// Names and the source each use follows:
// - Silu(dst, src, dataSize): asc-devkit docs 高阶API/激活函数/Silu接口/Silu.md; silu(x) =
//   x / (1 + exp(-x)) (its example: silu(-1) = -0.2689, silu(1) = 0.7311).
// - Swish(dst, src, dataSize, scalarValue): docs Swish接口/Swish.md; swish(x) = x / (1 + e^(-beta
//   x)) as asc-devkit include/adv_api/activation/swish.h documents it ("swish(0.5312) is 0.3784"
//   with beta = 1.702). Neither API allows dst to overlap src: separate output queues.
// - GET_TILING_DATA_MEMBER for the scalar only, GET_TILING_DATA for the rest: docs Kernel-Tiling.
// - float16_t / float32_t (CANN's aliases of half / float) as the kernel's element types.
#include "heldout_util.h"

namespace heldout_silu {

struct SiluTiling {
  uint32_t totalLength;
  uint32_t tileLength;
  float beta;
};

template <typename T>
class KernelSiluSwish {
 public:
  __aicore__ inline KernelSiluSwish() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR silu, GM_ADDR swish, uint32_t total,
                              uint32_t tile, float beta) {
    const uint32_t per = (total + AscendC::GetBlockNum() - 1) / AscendC::GetBlockNum();
    const uint32_t start = AscendC::GetBlockIdx() * per;
    length_ = start >= total ? 0 : (total - start < per ? total - start : per);
    tile_ = tile;
    beta_ = static_cast<T>(beta);
    xGm_.SetGlobalBuffer((__gm__ T*)x + start, length_);
    siluGm_.SetGlobalBuffer((__gm__ T*)silu + start, length_);
    swishGm_.SetGlobalBuffer((__gm__ T*)swish + start, length_);
    pipe_.InitBuffer(inQueue_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(siluQueue_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(swishQueue_, 2, tile_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < length_; off += tile_) {
      const uint32_t n = length_ - off < tile_ ? length_ - off : tile_;
      AscendC::LocalTensor<T> x = inQueue_.AllocTensor<T>();
      AscendC::DataCopyPad(x, xGm_[off], {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                           {false, 0, 0, 0});
      inQueue_.EnQue(x);
      x = inQueue_.DeQue<T>();
      AscendC::LocalTensor<T> s = siluQueue_.AllocTensor<T>();
      AscendC::LocalTensor<T> w = swishQueue_.AllocTensor<T>();
      AscendC::Silu(s, x, n);
      AscendC::Swish(w, x, n, beta_);
      siluQueue_.EnQue(s);
      swishQueue_.EnQue(w);
      inQueue_.FreeTensor(x);
      s = siluQueue_.DeQue<T>();
      w = swishQueue_.DeQue<T>();
      AscendC::DataCopyPad(siluGm_[off], s, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
      AscendC::DataCopyPad(swishGm_[off], w, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
      siluQueue_.FreeTensor(s);
      swishQueue_.FreeTensor(w);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> siluQueue_, swishQueue_;
  AscendC::GlobalTensor<T> xGm_, siluGm_, swishGm_;
  uint32_t length_ = 0, tile_ = 0;
  T beta_;
};

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR silu, GM_ADDR swish, uint32_t total, uint32_t tile,
                           float beta) {
  KernelSiluSwish<T> op;
  op.Init(x, silu, swish, total, tile, beta);
  op.Process();
}

}  // namespace heldout_silu

extern "C" __global__ __aicore__ void heldout_silu_swish_f16(GM_ADDR x, GM_ADDR silu,
                                                             GM_ADDR swish, GM_ADDR workspace,
                                                             GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_silu::SiluTiling);
  GET_TILING_DATA(t, tiling);
  GET_TILING_DATA_MEMBER(heldout_silu::SiluTiling, beta, beta, tiling);
  heldout_silu::Run<float16_t>(x, silu, swish, t.totalLength, t.tileLength, beta);
}

extern "C" __global__ __aicore__ void heldout_silu_swish_f32(GM_ADDR x, GM_ADDR silu,
                                                             GM_ADDR swish, GM_ADDR workspace,
                                                             GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_silu::SiluTiling);
  GET_TILING_DATA(t, tiling);
  GET_TILING_DATA_MEMBER(heldout_silu::SiluTiling, beta, beta, tiling);
  heldout_silu::Run<float32_t>(x, silu, swish, t.totalLength, t.tileLength, beta);
}

namespace {

using heldout::GmBuf;

template <class T>
void RunSilu(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t total,
             uint32_t blockDim, float beta) {
  const auto x = heldout::Random<T>(total, -8, 8, 77 + total);
  GmBuf gx(total * sizeof(T)), gs(total * sizeof(T)), gw(total * sizeof(T)), ws(1024),
      tiling(sizeof(heldout_silu::SiluTiling));
  heldout::Upload(gx, x);
  *tiling.as<heldout_silu::SiluTiling>() = {total, 192, beta};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gs.get(), gw.get(), ws.get(), tiling.get());
  const double b = heldout::ToDouble(heldout::FromDouble<T>(beta));  // beta as the kernel holds it
  std::vector<double> silu(total), swish(total);
  for (uint32_t i = 0; i < total; ++i) {
    const double v = heldout::ToDouble(x[i]);
    silu[i] = v / (1.0 + std::exp(-v));
    swish[i] = v / (1.0 + std::exp(-b * v));
  }
  // exp, add, div evaluated in T: three roundings plus exp's own error.
  const double atol = sizeof(T) == 2 ? 1e-2 : 1e-5;
  const double rtol = sizeof(T) == 2 ? 1e-2 : 1e-5;
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gs, total), silu, atol, rtol)) << "silu " << total;
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gw, total), swish, atol, rtol)) << "swish " << total;
}

TEST(HeldoutSiluSwish, SiluAndSwishHalfAndFloat) {
  RunSilu<half>(heldout_silu_swish_f16, 999, 4, 1.702f);
  RunSilu<float>(heldout_silu_swish_f32, 1025, 3, 0.75f);
  RunSilu<half>(heldout_silu_swish_f16, 7, 1, 2.0f);
}

}  // namespace
