// Held-out kernel 3: the three GELU approximations of the advanced API behind one operator whose
// tiling says which to run and how much scratch to give it.
//
// Names and the source each use follows:
// - Gelu / FasterGelu / FasterGeluV2 with a caller-provided sharedTmpBuffer (LocalTensor<uint8_t>)
//   and dataSize: asc-devkit docs 高阶API/激活函数/Gelu接口/{Gelu,FasterGelu,FasterGeluV2}.md.
//   Formulas: Gelu = 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))) (Gelu.md; the simplified form
//   x * sigmoid(1.5958(x + 0.044715x^3))); FasterGelu = x / (1 + exp(-1.702x)) (FasterGelu.md,
//   its example checks against this); FasterGeluV2 = x * (sgn(x) * [-0.1444 (clip(|0.7071x|,
//   max = 1.769) - 1.769)^2 + 0.5] + 0.5) (asc-devkit examples/.../fastergeluv2/README.md).
// - GetGeluMaxMinTmpSize(AscendC::TensorShape, typeSize, max, min) on the host: docs
//   Gelu接口/GetGeluMaxMinTmpSize.md (the scratch must be at least min).
// - TBuf<TPosition::VECCALC>::Get<uint8_t>() as the scratch: docs 资源管理/TBuf.
// - GET_TILING_DATA_WITH_STRUCT, REGISTER_TILING_DEFAULT: docs Kernel-Tiling.
#include "heldout_util.h"
#include "tiling/tiling_api.h"

namespace heldout_gelu {

struct GeluTiling {
  uint32_t totalLength;
  uint32_t tileLength;
  uint32_t tmpBufferSize;  // bytes, from GetGeluMaxMinTmpSize
  uint32_t mode;           // 0 Gelu, 1 FasterGelu, 2 FasterGeluV2
};

template <typename T>
class KernelGeluFamily {
 public:
  __aicore__ inline KernelGeluFamily() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GeluTiling& t) {
    // One row of tiles per core, interleaved: tile i goes to core i % blockNum.
    total_ = t.totalLength;
    tileLength_ = t.tileLength;
    mode_ = t.mode;
    xGm_.SetGlobalBuffer((__gm__ T*)x, total_);
    yGm_.SetGlobalBuffer((__gm__ T*)y, total_);
    pipe_.InitBuffer(inQueue_, 2, tileLength_ * sizeof(T));
    pipe_.InitBuffer(outQueue_, 2, tileLength_ * sizeof(T));
    pipe_.InitBuffer(tmpBuf_, t.tmpBufferSize);
  }
  __aicore__ inline void Process() {
    const uint32_t tiles = (total_ + tileLength_ - 1) / tileLength_;
    for (uint32_t i = AscendC::GetBlockIdx(); i < tiles; i += AscendC::GetBlockNum()) {
      const uint32_t off = i * tileLength_;
      const uint32_t n = total_ - off < tileLength_ ? total_ - off : tileLength_;
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
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf_.Get<uint8_t>();
    if (mode_ == 0) {
      AscendC::Gelu(y, x, tmp, n);
    } else if (mode_ == 1) {
      AscendC::FasterGelu(y, x, tmp, n);
    } else {
      AscendC::FasterGeluV2(y, x, tmp, n);
    }
    outQueue_.EnQue(y);
    inQueue_.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> y = outQueue_.DeQue<T>();
    AscendC::DataCopyPad(yGm_[off], y, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    outQueue_.FreeTensor(y);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
  uint32_t total_ = 0, tileLength_ = 0, mode_ = 0;
};

}  // namespace heldout_gelu

extern "C" __global__ __aicore__ void heldout_gelu_half(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_gelu::GeluTiling);
  GET_TILING_DATA_WITH_STRUCT(heldout_gelu::GeluTiling, t, tiling);
  heldout_gelu::KernelGeluFamily<half> op;
  op.Init(x, y, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_gelu_float(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                         GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_gelu::GeluTiling);
  GET_TILING_DATA_WITH_STRUCT(heldout_gelu::GeluTiling, t, tiling);
  heldout_gelu::KernelGeluFamily<float> op;
  op.Init(x, y, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

double RefGelu(double x, uint32_t mode) {
  if (mode == 0) {
    const double k = std::sqrt(2.0 / M_PI);
    return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
  }
  if (mode == 1) return x / (1.0 + std::exp(-1.702 * x));
  const double sgn = (x + 1e-12) / std::fabs(x + 1e-12);
  const double c = std::min(std::fabs(0.7071 * x), 1.769) - 1.769;
  return x * (sgn * (-0.1444 * c * c + 0.5) + 0.5);
}

template <class T>
void RunGelu(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t mode, uint32_t total,
             uint32_t blockDim) {
  const uint32_t tile = 256;
  const auto x = heldout::Random<T>(total, -5, 5, 1234 + mode + total);
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), ws(1024),
      tiling(sizeof(heldout_gelu::GeluTiling));
  heldout::Upload(gx, x);
  uint32_t maxTmp = 0, minTmp = 0;
  std::vector<int64_t> shapeVec{tile};
  AscendC::TensorShape shape(shapeVec);  // an alias of ge::Shape (docs 高阶API/数据结构/TensorShape.md)
  AscendC::GetGeluMaxMinTmpSize(shape, sizeof(T), maxTmp, minTmp);
  ASSERT_GT(maxTmp, 0u);
  ASSERT_LE(minTmp, maxTmp);
  *tiling.as<heldout_gelu::GeluTiling>() = {total, tile, maxTmp, mode};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), ws.get(), tiling.get());
  std::vector<double> want(total);
  for (uint32_t i = 0; i < total; ++i) want[i] = RefGelu(heldout::ToDouble(x[i]), mode);
  // The approximations are evaluated in T with exp/tanh-class steps: a few ulps of T more than a
  // plain elementwise op, and the half path has no high-precision mode enabled.
  const double atol = sizeof(T) == 2 ? 1e-2 : 1e-5;
  const double rtol = sizeof(T) == 2 ? 1e-2 : 1e-5;
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gy, total), want, atol, rtol))
      << "mode " << mode << " total " << total << " dtype size " << sizeof(T);
}

TEST(HeldoutGeluFamily, GeluFasterGeluFasterGeluV2HalfAndFloat) {
  for (uint32_t mode = 0; mode < 3; ++mode) {
    RunGelu<half>(heldout_gelu_half, mode, 1001, 3);
    RunGelu<float>(heldout_gelu_float, mode, 333, 2);
  }
}

}  // namespace
