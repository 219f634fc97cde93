// Held-out kernel 12: one operator, three ways production code drives local memory:
//   out1 = x * scale, through a TQueBind<VECIN, VECOUT, 1> (copy in, compute in place, hand the
//          same buffer to MTE3 with EnQue<TPosition::VECOUT, TPosition::GM, T>);
//   out2 = float(x), through depth-0 queues and the in-place AllocTensor<T>(tensor) /
//          DeQue<T>(tensor) forms (member tensors, as ops-math cast_v3 keeps them);
//   out3 = x + 1, the constant in a TBuf taken with TBuf::AllocTensor and returned with FreeTensor.
//
// Names and the source each use follows:
// - TQueBind<TPosition::VECIN, TPosition::VECOUT, 1>, EnQue<TPosition::VECOUT, TPosition::GM, T>,
//   DeQue<TPosition::VECOUT, TPosition::GM, T>: hicann ops-math grouped_bias_add_grad
//   op_kernel/arch35/grouped_bias_add_grad_cut_gh.h (outQue_); asc-devkit docs 资源管理/TQueBind.
// - TQue<pos, 0> with AllocTensor<T>(LocalTensor<T>&), EnQue, DeQue<T>(LocalTensor<T>&): docs
//   TQueBind/AllocTensor-64.md and DeQue-67.md ("inplace接口 ... depth模板参数设置为0"); ops-math
//   experimental/math/cast_v3/op_kernel/cast_base.h.
// - TBuf<VECCALC>::AllocTensor<T>() / FreeTensor: ops-math sort op_kernel/arch35/
//   sort_merge_sort.h (indeXLocalTbuf_.AllocTensor<uint32_t>()).
// - Cast(float <- half, CAST_NONE), Muls, Adds, Duplicate: basic API.
#include "heldout_util.h"

namespace heldout_que {

struct QueTiling {
  uint32_t totalLength;
  uint32_t tileLength;
  float scale;
};

template <typename T>
class KernelQueueForms {
 public:
  __aicore__ inline KernelQueueForms() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR out1, GM_ADDR out2, GM_ADDR out3,
                              const QueTiling& t) {
    t_ = t;
    xGm_.SetGlobalBuffer((__gm__ T*)x, t.totalLength);
    out1Gm_.SetGlobalBuffer((__gm__ T*)out1, t.totalLength);
    out2Gm_.SetGlobalBuffer((__gm__ float*)out2, t.totalLength);
    out3Gm_.SetGlobalBuffer((__gm__ T*)out3, t.totalLength);
    pipe_.InitBuffer(bindQue_, 1, t.tileLength * sizeof(T));
    pipe_.InitBuffer(xQue_, 1, t.tileLength * sizeof(T));
    pipe_.InitBuffer(yQue_, 1, t.tileLength * sizeof(float));
    pipe_.InitBuffer(oneBuf_, t.tileLength * sizeof(T));
    pipe_.InitBuffer(in3Que_, 1, t.tileLength * sizeof(T));
    pipe_.InitBuffer(out3Que_, 1, t.tileLength * sizeof(T));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<T> ones = oneBuf_.AllocTensor<T>();
    AscendC::Duplicate(ones, static_cast<T>(1.0f), t_.tileLength);
    const uint32_t tiles = (t_.totalLength + t_.tileLength - 1) / t_.tileLength;
    for (uint32_t i = AscendC::GetBlockIdx(); i < tiles; i += AscendC::GetBlockNum()) {
      const uint32_t off = i * t_.tileLength;
      const uint32_t n =
          t_.totalLength - off < t_.tileLength ? t_.totalLength - off : t_.tileLength;
      ScaleThroughBind(off, n);
      CastInPlaceQueues(off, n);
      AddOnes(ones, off, n);
    }
    oneBuf_.FreeTensor(ones);
  }

 private:
  __aicore__ inline AscendC::DataCopyExtParams Bytes(uint32_t n, uint32_t size) const {
    return {1, n * size, 0, 0, 0};
  }
  __aicore__ inline void ScaleThroughBind(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> buf = bindQue_.AllocTensor<T>();
    AscendC::DataCopyPad(buf, xGm_[off], Bytes(n, sizeof(T)), {false, 0, 0, 0});
    // The plain EnQue/DeQue of a VECIN->VECOUT bind orders MTE2 before MTE3 (copy-through);
    // computing on the buffer needs the GM->VECIN (MTE2 -> V) hand-over first.
    bindQue_.EnQue<AscendC::TPosition::GM, AscendC::TPosition::VECIN, T>(buf);
    buf = bindQue_.DeQue<AscendC::TPosition::GM, AscendC::TPosition::VECIN, T>();
    AscendC::Muls(buf, buf, static_cast<T>(t_.scale), n);
    bindQue_.EnQue<AscendC::TPosition::VECOUT, AscendC::TPosition::GM, T>(buf);
    buf = bindQue_.DeQue<AscendC::TPosition::VECOUT, AscendC::TPosition::GM, T>();
    AscendC::DataCopyPad(out1Gm_[off], buf, Bytes(n, sizeof(T)));
    bindQue_.FreeTensor(buf);
  }
  __aicore__ inline void CastInPlaceQueues(uint32_t off, uint32_t n) {
    xQue_.template AllocTensor<T>(xLocal_);
    AscendC::DataCopyPad(xLocal_, xGm_[off], Bytes(n, sizeof(T)), {false, 0, 0, 0});
    xQue_.EnQue(xLocal_);
    xQue_.template DeQue<T>(xLocal_);
    yQue_.template AllocTensor<float>(yLocal_);
    if constexpr (AscendC::IsSameType<T, float>::value) {
      AscendC::Adds(yLocal_, xLocal_, 0.0f, n);
    } else {
      AscendC::Cast(yLocal_, xLocal_, AscendC::RoundMode::CAST_NONE, n);
    }
    yQue_.EnQue(yLocal_);
    xQue_.FreeTensor(xLocal_);
    yQue_.template DeQue<float>(yLocal_);
    AscendC::DataCopyPad(out2Gm_[off], yLocal_, Bytes(n, sizeof(float)));
    yQue_.FreeTensor(yLocal_);
  }
  __aicore__ inline void AddOnes(const AscendC::LocalTensor<T>& ones, uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> x = in3Que_.AllocTensor<T>();
    AscendC::DataCopyPad(x, xGm_[off], Bytes(n, sizeof(T)), {false, 0, 0, 0});
    in3Que_.EnQue(x);
    x = in3Que_.DeQue<T>();
    AscendC::LocalTensor<T> z = out3Que_.AllocTensor<T>();
    AscendC::Add(z, x, ones, n);
    out3Que_.EnQue(z);
    in3Que_.FreeTensor(x);
    z = out3Que_.DeQue<T>();
    AscendC::DataCopyPad(out3Gm_[off], z, Bytes(n, sizeof(T)));
    out3Que_.FreeTensor(z);
  }

  AscendC::TPipe pipe_;
  AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> bindQue_;
  AscendC::TQue<AscendC::QuePosition::VECIN, 0> xQue_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 0> yQue_;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> in3Que_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> out3Que_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> oneBuf_;
  AscendC::LocalTensor<T> xLocal_;
  AscendC::LocalTensor<float> yLocal_;
  AscendC::GlobalTensor<T> xGm_, out1Gm_, out3Gm_;
  AscendC::GlobalTensor<float> out2Gm_;
  QueTiling t_{};
};

}  // namespace heldout_que

extern "C" __global__ __aicore__ void heldout_queues_half(GM_ADDR x, GM_ADDR o1, GM_ADDR o2,
                                                          GM_ADDR o3, GM_ADDR workspace,
                                                          GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_que::QueTiling);
  GET_TILING_DATA(t, tiling);
  heldout_que::KernelQueueForms<half> op;
  op.Init(x, o1, o2, o3, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_queues_float(GM_ADDR x, GM_ADDR o1, GM_ADDR o2,
                                                           GM_ADDR o3, GM_ADDR workspace,
                                                           GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_que::QueTiling);
  GET_TILING_DATA(t, tiling);
  heldout_que::KernelQueueForms<float> op;
  op.Init(x, o1, o2, o3, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

template <class T>
void RunQueues(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR),
               uint32_t total, uint32_t blockDim, float scale) {
  const auto x = heldout::Random<T>(total, -50, 50, total + 5);
  GmBuf gx(total * sizeof(T)), g1(total * sizeof(T)), g2(total * sizeof(float)),
      g3(total * sizeof(T)), ws(1024), tiling(sizeof(heldout_que::QueTiling));
  heldout::Upload(gx, x);
  *tiling.as<heldout_que::QueTiling>() = {total, 160, scale};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), g1.get(), g2.get(), g3.get(), ws.get(), tiling.get());
  std::vector<double> w1(total), w2(total), w3(total);
  const double s = heldout::ToDouble(heldout::FromDouble<T>(scale));
  for (uint32_t i = 0; i < total; ++i) {
    const double v = heldout::ToDouble(x[i]);
    w1[i] = v * s;
    w2[i] = v;  // exact: every half and float is a float
    w3[i] = v + 1.0;
  }
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(g1, total), w1, heldout::Tol<T>::kAbs,
                            heldout::Tol<T>::kRel)) << "scale";
  EXPECT_TRUE(heldout::Near(heldout::Download<float>(g2, total), w2, 0, 0)) << "cast";
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(g3, total), w3, heldout::Tol<T>::kAbs,
                            heldout::Tol<T>::kRel)) << "add one";
}

TEST(HeldoutQueueForms, BindQueueInPlaceQueuesAndTBufAllocTensor) {
  RunQueues<half>(heldout_queues_half, 1003, 3, -0.375f);
  RunQueues<float>(heldout_queues_float, 389, 2, 2.5f);
}

}  // namespace
