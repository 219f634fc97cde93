// Held-out kernel 5: y = clamp(a * sin(x) + b * cos(x), lo, hi), a phase-shifted sinusoid with a
// saturating output, over the trigonometric and clamp APIs with host-sized scratch.
//
// Names and the source each use follows:
// - Sin / Cos with sharedTmpBuffer and calCount (inputs within [-65504, 65504]): asc-devkit docs
//   高阶API/数学计算/Sin接口/Sin.md, Cos接口/Cos.md.
// - ClampMax(dst, src, sharedTmpBuffer, scalar, calCount) replaces values above scalar by scalar;
//   ClampMin likewise below: docs 数学计算/Clamp接口/ClampMax.md, ClampMin.md.
// - GetSinMaxMinTmpSize / GetCosMaxMinTmpSize / GetClampMaxMinTmpSize(shape, typeSize,
//   isReuseSource, max, min): the Get*MaxMinTmpSize pages beside them; the kernel takes the largest
//   minimum as one shared scratch (each call's scratch is dead after it returns).
// - Muls / Add (count form), TBuf::Get<uint8_t>, GET_TILING_DATA: basic API, Kernel-Tiling.
#include "heldout_util.h"
#include "tiling/tiling_api.h"

namespace heldout_trig {

struct TrigTiling {
  uint32_t totalLength;
  uint32_t tileLength;
  uint32_t tmpBytes;
  float a, b, lo, hi;
};

template <typename T>
class KernelSinCosClamp {
 public:
  __aicore__ inline KernelSinCosClamp() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TrigTiling& t) {
    t_ = t;
    xGm_.SetGlobalBuffer((__gm__ T*)x, t.totalLength);
    yGm_.SetGlobalBuffer((__gm__ T*)y, t.totalLength);
    pipe_.InitBuffer(inQueue_, 1, t.tileLength * sizeof(T));
    pipe_.InitBuffer(outQueue_, 1, t.tileLength * sizeof(T));
    pipe_.InitBuffer(calcBuf_, 2 * t.tileLength * sizeof(T));
    pipe_.InitBuffer(tmpBuf_, t.tmpBytes);
  }
  __aicore__ inline void Process() {
    const uint32_t tiles = (t_.totalLength + t_.tileLength - 1) / t_.tileLength;
    for (uint32_t i = AscendC::GetBlockIdx(); i < tiles; i += AscendC::GetBlockNum()) {
      const uint32_t off = i * t_.tileLength;
      const uint32_t n =
          t_.totalLength - off < t_.tileLength ? t_.totalLength - off : t_.tileLength;
      CopyIn(off, n);
      Compute(n);
      CopyOut(off, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> x = inQueue_.AllocTensor<T>();
    AscendC::DataCopyPad(x, xGm_[off], {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                         {false, 0, 0, 0});
    inQueue_.EnQue(x);
  }
  __aicore__ inline void Compute(uint32_t n) {
    AscendC::LocalTensor<T> x = inQueue_.DeQue<T>();
    AscendC::LocalTensor<T> y = outQueue_.AllocTensor<T>();
    AscendC::LocalTensor<T> s = calcBuf_.Get<T>();
    AscendC::LocalTensor<T> c = s[t_.tileLength];
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf_.Get<uint8_t>();
    AscendC::Sin(s, x, tmp, n);
    AscendC::Cos(c, x, tmp, n);
    AscendC::Muls(s, s, static_cast<T>(t_.a), n);
    AscendC::Muls(c, c, static_cast<T>(t_.b), n);
    AscendC::Add(s, s, c, n);
    AscendC::ClampMax(c, s, tmp, static_cast<T>(t_.hi), n);
    AscendC::ClampMin(y, c, tmp, static_cast<T>(t_.lo), n);
    outQueue_.EnQue(y);
    inQueue_.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> y = outQueue_.DeQue<T>();
    AscendC::DataCopyPad(yGm_[off], y, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    outQueue_.FreeTensor(y);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> calcBuf_, tmpBuf_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
  TrigTiling t_{};
};

}  // namespace heldout_trig

extern "C" __global__ __aicore__ void heldout_trig_half(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_trig::TrigTiling);
  GET_TILING_DATA(t, tiling);
  heldout_trig::KernelSinCosClamp<half> op;
  op.Init(x, y, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_trig_float(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                         GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_trig::TrigTiling);
  GET_TILING_DATA(t, tiling);
  heldout_trig::KernelSinCosClamp<float> op;
  op.Init(x, y, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

template <class T>
void RunTrig(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t total,
             uint32_t blockDim) {
  const uint32_t tile = 320;
  const auto x = heldout::Random<T>(total, -10, 10, 4242 + total);
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), ws(1024),
      tiling(sizeof(heldout_trig::TrigTiling));
  heldout::Upload(gx, x);
  std::vector<int64_t> shapeVec{tile};
  AscendC::TensorShape shape(shapeVec);
  uint32_t mx = 0, mn = 0, need = 0;
  AscendC::GetSinMaxMinTmpSize(shape, sizeof(T), false, mx, mn);
  need = std::max(need, mn);
  AscendC::GetCosMaxMinTmpSize(shape, sizeof(T), false, mx, mn);
  need = std::max(need, mn);
  AscendC::GetClampMaxMinTmpSize(shape, sizeof(T), false, mx, mn);
  need = std::max(need, mn);
  heldout_trig::TrigTiling t{total, tile, need, 1.5f, -0.75f, -1.25f, 1.0f};
  *tiling.as<heldout_trig::TrigTiling>() = t;
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), ws.get(), tiling.get());
  std::vector<double> want(total);
  for (uint32_t i = 0; i < total; ++i) {
    const double v = heldout::ToDouble(x[i]);
    const double r = 1.5 * std::sin(v) - 0.75 * std::cos(v);
    want[i] = std::min(std::max(r, -1.25), 1.0);
  }
  // sin/cos of |x| <= 10 in T (range reduction in T loses ~|x| ulps of T), two scalings and an
  // add: half to ~1e-2 absolute on outputs of magnitude <= 1.7, float to ~1e-5.
  const double atol = sizeof(T) == 2 ? 1.5e-2 : 2e-5;
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gy, total), want, atol, 0.0))
      << "total " << total << " dtype size " << sizeof(T);
}

TEST(HeldoutSinCosClamp, SinusoidClampedHalfAndFloat) {
  RunTrig<half>(heldout_trig_half, 1283, 3);
  RunTrig<float>(heldout_trig_float, 641, 2);
}

}  // namespace
