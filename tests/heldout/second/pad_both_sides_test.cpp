// Held-out set 2, kernel 9: pad dense rows of an unaligned width w on both sides (left L, right R
// columns of a constant, L + w + R the 32 B-aligned width), tiles of whole rows over several cores.
//
// Names and the source each use follows:
// - Pad(dst, src, PadParams{leftPad, rightPad, padValue}, sharedTmpBuffer, PadTiling&) in its
//   "场景1" (width not 32 B aligned; left and right pad both allowed; the padded width at most the
//   aligned width; src data 32 B whole): asc-devkit docs 高阶API/张量变换/Pad.md; padValue is an
//   int32 cast to T (impl/adv_api/detail/pad/pad/pad_base_impl.h static_cast<T>(padValue)).
// - GetPadMaxMinTmpSize(TensorShape, typeSize, max, min), PadTilingFunc(srcShape, oriSrcShape,
//   stackBufferSize, typeSize, AscendC::tiling::PadTiling&), PadTiling carried in the tiling struct:
//   docs 高阶API/张量变换/Pad-Tiling.md.
// - GET_TILING_DATA_PTR_WITH_STRUCT: docs Kernel-Tiling/GET_TILING_DATA_PTR_WITH_STRUCT.md.
#include "heldout_util.h"
#include "tiling/tiling_api.h"

namespace h2_pad {

struct PadBothTiling {
  uint32_t rows;      // total rows
  uint32_t width;     // w
  uint32_t tileRows;  // rows per tile; tileRows * w * sizeof(T) is 32 B whole
  uint32_t blockTiles;
  uint32_t tmpBytes;
  uint16_t leftPad;
  uint16_t rightPad;
  int32_t padValue;
  AscendC::tiling::PadTiling padTiling;
};

template <typename T>
class KernelPadBoth {
 public:
  __aicore__ inline KernelPadBoth() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const PadBothTiling* t) {
    t_ = t;
    w_ = t->width;
    wOut_ = t->leftPad + t->width + t->rightPad;
    tileRows_ = t->tileRows;
    const uint32_t totalTiles = t->rows / t->tileRows;
    const uint32_t first = AscendC::GetBlockIdx() * t->blockTiles;
    tiles_ = first >= totalTiles ? 0 : AscendC::Std::min(t->blockTiles, totalTiles - first);
    xGm_.SetGlobalBuffer((__gm__ T*)x + first * tileRows_ * w_, tiles_ * tileRows_ * w_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + first * tileRows_ * wOut_, tiles_ * tileRows_ * wOut_);
    pipe_.InitBuffer(inQ_, 2, tileRows_ * w_ * sizeof(T));
    pipe_.InitBuffer(outQ_, 2, tileRows_ * wOut_ * sizeof(T));
    pipe_.InitBuffer(tmpBuf_, t->tmpBytes);
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tiles_; ++i) {
      AscendC::LocalTensor<T> xl = inQ_.AllocTensor<T>();
      AscendC::DataCopy(xl, xGm_[i * tileRows_ * w_], tileRows_ * w_);
      inQ_.EnQue(xl);
      Compute();
      AscendC::LocalTensor<T> yl = outQ_.DeQue<T>();
      AscendC::DataCopy(yGm_[i * tileRows_ * wOut_], yl, tileRows_ * wOut_);
      outQ_.FreeTensor(yl);
    }
  }

 private:
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<T> xl = inQ_.DeQue<T>();
    AscendC::LocalTensor<T> yl = outQ_.AllocTensor<T>();
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf_.Get<uint8_t>();
    AscendC::PadParams params{t_->leftPad, t_->rightPad, t_->padValue};
    AscendC::tiling::PadTiling tiling = t_->padTiling;
    AscendC::Pad(yl, xl, params, tmp, tiling);
    outQ_.EnQue(yl);
    inQ_.FreeTensor(xl);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQ_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
  const PadBothTiling* t_ = nullptr;
  uint32_t w_ = 0, wOut_ = 0, tileRows_ = 0, tiles_ = 0;
};

}  // namespace h2_pad

#define H2_PAD_ENTRY(NAME, T)                                                               \
  extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,        \
                                             GM_ADDR tiling) {                               \
    (void)workspace;                                                                         \
    GET_TILING_DATA_PTR_WITH_STRUCT(h2_pad::PadBothTiling, t, tiling);                       \
    h2_pad::KernelPadBoth<T> op;                                                             \
    op.Init(x, y, t);                                                                        \
    op.Process();                                                                            \
  }
H2_PAD_ENTRY(h2_pad_both_half, half)
H2_PAD_ENTRY(h2_pad_both_float, float)

namespace {

using heldout::GmBuf;

template <class T>
void RunPad(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t rows, uint32_t w,
            uint16_t left, uint16_t right, uint32_t tileRows, uint32_t blockDim) {
  const uint32_t wOut = left + w + right;
  ASSERT_EQ(wOut * sizeof(T) % 32, 0u);
  ASSERT_EQ(rows % tileRows, 0u);
  const auto x = heldout::Random<T>(rows * w, -50, 50, rows * 131 + w);
  GmBuf gx(x.size() * sizeof(T)), gy(rows * wOut * sizeof(T)), ws(64),
      tiling(sizeof(h2_pad::PadBothTiling));
  heldout::Upload(gx, x);
  auto* t = tiling.as<h2_pad::PadBothTiling>();
  const uint32_t tiles = rows / tileRows;
  t->rows = rows;
  t->width = w;
  t->tileRows = tileRows;
  t->blockTiles = (tiles + blockDim - 1) / blockDim;
  t->leftPad = left;
  t->rightPad = right;
  t->padValue = -7;
  AscendC::TensorShape shape(std::vector<int64_t>{tileRows, w});
  uint32_t maxTmp = 0, minTmp = 0;
  AscendC::GetPadMaxMinTmpSize(shape, sizeof(T), maxTmp, minTmp);
  t->tmpBytes = std::max<uint32_t>(minTmp, 32);
  AscendC::PadTilingFunc(shape, shape, t->tmpBytes, sizeof(T), t->padTiling);
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), ws.get(), tiling.get());
  // Pad copies and fills: exact.
  const auto y = heldout::Download<T>(gy, rows * wOut);
  size_t bad = 0;
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < wOut; ++c) {
      const double want = (c < left || c >= left + w) ? -7.0 : heldout::ToDouble(x[r * w + c - left]);
      if (heldout::ToDouble(y[r * wOut + c]) != want && bad++ == 0) {
        ADD_FAILURE() << "row " << r << " col " << c << ": got " << heldout::ToDouble(y[r * wOut + c])
                      << ", want " << want << " (w " << w << " L " << left << " R " << right << ")";
      }
    }
  }
  EXPECT_EQ(bad, 0u) << "rows " << rows << " w " << w;
}

TEST(Heldout2PadBothSides, HalfOddWidths) {
  RunPad<half>(h2_pad_both_half, 48, 13, 2, 1, 16, 3);
  RunPad<half>(h2_pad_both_half, 80, 21, 3, 8, 16, 2);
}

TEST(Heldout2PadBothSides, FloatOddWidths) {
  RunPad<float>(h2_pad_both_float, 56, 5, 1, 2, 8, 4);
  RunPad<float>(h2_pad_both_float, 24, 11, 4, 1, 8, 3);
}

}  // namespace
