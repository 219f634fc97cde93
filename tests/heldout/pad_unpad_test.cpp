// Held-out kernel 10: rows of an unaligned width w are loaded with a strided DataCopyPad into
// 32 B-aligned rows of width W, the redundant columns are filled with Pad (so a row-wise
// ReduceMax over W sees only real data or the pad value), 1.0 is added, and UnPad packs the rows
// back to width w for a dense copy out. The padded [h, W] matrix is written out too.
//
// Names and the source each use follows:
// - Pad(dst, src, PadParams{leftPad, rightPad, padValue}, sharedTmpBuffer, PadTiling&): asc-devkit
//   docs 高阶API/张量变换/Pad.md, scenario 2 ("width 已 32B 对齐，但是有部分冗余数据 ... 只支持在
//   右边进行pad"); PadTilingFunc(srcShape [h, W], oriSrcShape [h, w], stackBufferSize, typeSize,
//   AscendC::tiling::PadTiling&) and GetPadMaxMinTmpSize: docs Pad-Tiling.md.
// - UnPad(dst, src, UnPadParams{leftPad, rightPad}, sharedTmpBuffer, UnPadTiling&) [h, W] ->
//   [h, w]: docs UnPad.md; UnPadTilingFunc and GetUnPadMaxMinTmpSize(PlatformAscendC, ...): docs
//   UnPad-Tiling.md; the platform from PlatformAscendCManager::GetInstance().
// - DataCopyPad GM->UB with blockCount = h rows of blockLen = w * sizeof(T) bytes (each UB row
//   starts on a 32 B block): docs 数据搬运/DataCopyPad(GMToUB).
// - Adds (count form) on the padded matrix.
#include "heldout_util.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace heldout_pad {

struct PadTilingData {
  uint32_t height;
  uint32_t width;        // w
  uint32_t widthAlign;   // W
  uint32_t tmpBytes;
  float padValue;
  AscendC::tiling::PadTiling padTiling;
  AscendC::tiling::UnPadTiling unPadTiling;
};

template <typename T>
class KernelPadUnPad {
 public:
  __aicore__ inline KernelPadUnPad() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR padded, GM_ADDR y, const PadTilingData& t) {
    t_ = t;
    const uint32_t b = AscendC::GetBlockIdx();
    const uint32_t dense = t.height * t.width;
    const uint32_t aligned = t.height * t.widthAlign;
    xGm_.SetGlobalBuffer((__gm__ T*)x + b * dense, dense);
    yGm_.SetGlobalBuffer((__gm__ T*)y + b * dense, dense);
    paddedGm_.SetGlobalBuffer((__gm__ T*)padded + b * aligned, aligned);
    pipe_.InitBuffer(inQueue_, 1, aligned * sizeof(T));
    pipe_.InitBuffer(padQueue_, 1, aligned * sizeof(T));
    pipe_.InitBuffer(outQueue_, 1, (dense * sizeof(T) + 31) / 32 * 32);
    pipe_.InitBuffer(tmpBuf_, t.tmpBytes);
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<T> x = inQueue_.AllocTensor<T>();
    AscendC::DataCopyExtParams rows{static_cast<uint16_t>(t_.height),
                                    static_cast<uint32_t>(t_.width * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(x, xGm_, rows, {false, 0, 0, 0});
    inQueue_.EnQue(x);
    x = inQueue_.DeQue<T>();

    AscendC::LocalTensor<T> p = padQueue_.AllocTensor<T>();
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf_.Get<uint8_t>();
    AscendC::PadParams padParams{0, static_cast<uint16_t>(t_.widthAlign - t_.width),
                                 static_cast<int32_t>(t_.padValue)};
    AscendC::Pad(p, x, padParams, tmp, t_.padTiling);
    AscendC::Adds(x, p, static_cast<T>(1.0f), t_.height * t_.widthAlign);
    padQueue_.EnQue(p);

    AscendC::LocalTensor<T> y = outQueue_.AllocTensor<T>();
    AscendC::UnPadParams unPadParams{0, static_cast<uint16_t>(t_.widthAlign - t_.width)};
    AscendC::UnPad(y, x, unPadParams, tmp, t_.unPadTiling);
    outQueue_.EnQue(y);
    inQueue_.FreeTensor(x);

    p = padQueue_.DeQue<T>();
    AscendC::DataCopy(paddedGm_, p, t_.height * t_.widthAlign);
    padQueue_.FreeTensor(p);
    y = outQueue_.DeQue<T>();
    AscendC::DataCopyPad(yGm_, y,
                         {1, static_cast<uint32_t>(t_.height * t_.width * sizeof(T)), 0, 0, 0});
    outQueue_.FreeTensor(y);
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> padQueue_, outQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf_;
  AscendC::GlobalTensor<T> xGm_, paddedGm_, yGm_;
  PadTilingData t_{};
};

}  // namespace heldout_pad

extern "C" __global__ __aicore__ void heldout_pad_half(GM_ADDR x, GM_ADDR padded, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_pad::PadTilingData);
  GET_TILING_DATA(t, tiling);
  heldout_pad::KernelPadUnPad<half> op;
  op.Init(x, padded, y, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_pad_float(GM_ADDR x, GM_ADDR padded, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_pad::PadTilingData);
  GET_TILING_DATA(t, tiling);
  heldout_pad::KernelPadUnPad<float> op;
  op.Init(x, padded, y, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

template <class T>
void RunPad(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t blocks,
            uint32_t h, uint32_t w, int32_t padValue) {
  const uint32_t per = 32 / sizeof(T);
  const uint32_t W = (w + per - 1) / per * per;
  const auto x = heldout::Random<T>(blocks * h * w, -8, 8, h * 13 + w);
  GmBuf gx(x.size() * sizeof(T)), gp(blocks * h * W * sizeof(T)), gy(x.size() * sizeof(T)),
      ws(1024), tiling(sizeof(heldout_pad::PadTilingData));
  heldout::Upload(gx, x);
  std::vector<int64_t> src{h, W}, ori{h, w};
  AscendC::TensorShape srcShape(src), oriShape(ori);
  uint32_t padMax = 0, padMin = 0, unMax = 0, unMin = 0;
  AscendC::GetPadMaxMinTmpSize(srcShape, sizeof(T), padMax, padMin);
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
  ASSERT_NE(plat, nullptr);
  AscendC::GetUnPadMaxMinTmpSize(*plat, srcShape, sizeof(T), unMax, unMin);
  const uint32_t tmp = std::max({padMin, unMin, 32u});
  heldout_pad::PadTilingData* t = tiling.as<heldout_pad::PadTilingData>();
  t->height = h;
  t->width = w;
  t->widthAlign = W;
  t->tmpBytes = tmp;
  t->padValue = static_cast<float>(padValue);
  AscendC::PadTilingFunc(srcShape, oriShape, tmp, sizeof(T), t->padTiling);
  AscendC::UnPadTilingFunc(srcShape, tmp, sizeof(T), t->unPadTiling);
  ICPU_RUN_KF(kernel, blocks, gx.get(), gp.get(), gy.get(), ws.get(), tiling.get());
  std::vector<double> wantPadded(blocks * h * W), wantY(x.size());
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t r = 0; r < h; ++r) {
      for (uint32_t c = 0; c < W; ++c) {
        wantPadded[(b * h + r) * W + c] =
            c < w ? heldout::ToDouble(x[(b * h + r) * w + c]) : static_cast<double>(padValue);
      }
      for (uint32_t c = 0; c < w; ++c) {
        wantY[(b * h + r) * w + c] = heldout::ToDouble(x[(b * h + r) * w + c]) + 1.0;
      }
    }
  }
  // Pad copies (exact); y is one add in T.
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gp, wantPadded.size()), wantPadded, 0, 0))
      << "padded h " << h << " w " << w;
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gy, wantY.size()), wantY, heldout::Tol<T>::kAbs,
                            heldout::Tol<T>::kRel))
      << "y h " << h << " w " << w;
}

TEST(HeldoutPadUnPad, RightPadThenUnPadHalfAndFloat) {
  RunPad<half>(heldout_pad_half, 2, 16, 15, 321);
  RunPad<half>(heldout_pad_half, 3, 9, 37, -7);
  RunPad<float>(heldout_pad_float, 2, 11, 13, 5);
}

}  // namespace
