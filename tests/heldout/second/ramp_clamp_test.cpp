// Held-out set 2, kernel 1: y[i] = clamp(x[i] + step * i, lo, hi) over the global index i, and the
// global index itself as int32, split over cores in equal blocks (the last core takes the rest).
//
// Names and the source each use follows:
// - ArithProgression<T>(dst, firstValue, diffValue, count) for half, float and int32_t: asc-devkit
//   include/adv_api/index/arithprogression.h (the older name of docs 高阶API/索引计算/Arange-94.md,
//   same parameters: first value, difference >= 0, count > 0; int16/half/int32/float on A2).
// - ClampMax / ClampMin, the form where the framework reserves the scratch (dst, src, scalar,
//   calCount; source and destination must not overlap): docs 高阶API/数学计算/Clamp接口/ClampMax.md,
//   ClampMin.md.
// - DataCopyPad GM <-> UB for the odd tail: docs 基础API/.../数据搬运/DataCopyPad.
// - AscendC::Std::min: docs Utils-API/CPP标准库/算法/min-268.md.
// - SetFlag/WaitFlag<HardEvent::V_S> with TPipe::FetchEventID before ArithProgression refills a
//   buffer V read (added after the first run, whose sanitizer pass flagged the race): docs
//   基础API/同步控制/核内同步, TPipe/FetchEventID.md.
#include "heldout_util.h"

namespace h2_ramp {

struct RampTiling {
  uint32_t totalLength;
  uint32_t blockLength;
  uint32_t tileLength;
  float step;
  float lo;
  float hi;
};

template <typename T>
class KernelRampClamp {
 public:
  __aicore__ inline KernelRampClamp() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR idx, const RampTiling& t) {
    start_ = AscendC::GetBlockIdx() * t.blockLength;
    len_ = start_ >= t.totalLength ? 0 : AscendC::Std::min(t.blockLength, t.totalLength - start_);
    tile_ = t.tileLength;
    step_ = t.step;
    lo_ = static_cast<T>(t.lo);
    hi_ = static_cast<T>(t.hi);
    xGm_.SetGlobalBuffer((__gm__ T*)x + start_, len_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + start_, len_);
    idxGm_.SetGlobalBuffer((__gm__ int32_t*)idx + start_, len_);
    pipe_.InitBuffer(inQ_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(outQ_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(idxQ_, 2, tile_ * sizeof(int32_t));
    pipe_.InitBuffer(rampBuf_, tile_ * sizeof(T));
    pipe_.InitBuffer(midBuf_, tile_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < len_; off += tile_) {
      const uint32_t n = AscendC::Std::min(tile_, len_ - off);
      CopyIn(off, n);
      Compute(off, n);
      CopyOut(off, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> xl = inQ_.AllocTensor<T>();
    AscendC::DataCopyPad(xl, xGm_[off], {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                         {false, 0, 0, 0});
    inQ_.EnQue(xl);
  }
  __aicore__ inline void Compute(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> xl = inQ_.DeQue<T>();
    AscendC::LocalTensor<T> yl = outQ_.AllocTensor<T>();
    AscendC::LocalTensor<int32_t> il = idxQ_.AllocTensor<int32_t>();
    AscendC::LocalTensor<T> ramp = rampBuf_.Get<T>();
    AscendC::LocalTensor<T> mid = midBuf_.Get<T>();
    const uint32_t first = start_ + off;
    // ArithProgression writes its first block with scalar SetValue and, for count above one block,
    // does not wait for V itself (asc-devkit impl/adv_api/detail/index/arithprogression/
    // arithprogression_common_impl.h); the previous tile's ClampMin read `ramp` with V.
    const auto vToS = pipe_.FetchEventID(AscendC::HardEvent::V_S);
    AscendC::SetFlag<AscendC::HardEvent::V_S>(vToS);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(vToS);
    AscendC::ArithProgression<T>(ramp, static_cast<T>(step_ * static_cast<float>(first)),
                                 static_cast<T>(step_), static_cast<int32_t>(n));
    AscendC::ArithProgression<int32_t>(il, static_cast<int32_t>(first), 1, static_cast<int32_t>(n));
    AscendC::Add(mid, xl, ramp, n);
    AscendC::ClampMax(ramp, mid, hi_, n);
    AscendC::ClampMin(yl, ramp, lo_, n);
    outQ_.EnQue(yl);
    idxQ_.EnQue(il);
    inQ_.FreeTensor(xl);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> yl = outQ_.DeQue<T>();
    AscendC::LocalTensor<int32_t> il = idxQ_.DeQue<int32_t>();
    AscendC::DataCopyPad(yGm_[off], yl, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    AscendC::DataCopyPad(idxGm_[off], il, {1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0});
    outQ_.FreeTensor(yl);
    idxQ_.FreeTensor(il);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQ_, idxQ_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> rampBuf_, midBuf_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
  AscendC::GlobalTensor<int32_t> idxGm_;
  uint32_t start_ = 0, len_ = 0, tile_ = 0;
  float step_ = 0;
  T lo_, hi_;
};

}  // namespace h2_ramp

#define H2_RAMP_ENTRY(NAME, T)                                                              \
  extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR y, GM_ADDR idx,              \
                                             GM_ADDR workspace, GM_ADDR tiling) {            \
    (void)workspace;                                                                         \
    REGISTER_TILING_DEFAULT(h2_ramp::RampTiling);                                            \
    GET_TILING_DATA(t, tiling);                                                              \
    h2_ramp::KernelRampClamp<T> op;                                                          \
    op.Init(x, y, idx, t);                                                                   \
    op.Process();                                                                            \
  }
H2_RAMP_ENTRY(h2_ramp_clamp_half, half)
H2_RAMP_ENTRY(h2_ramp_clamp_float, float)

namespace {

using heldout::GmBuf;

template <class T>
void RunRamp(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t total,
             uint32_t blockDim, uint32_t tile) {
  // step 0.25 keeps every ramp value exact (in half while it stays below 512, i.e. total <= 2048;
  // in float always), so the ramp adds no error; x + ramp rounds once in T, the clamps are exact.
  const float step = 0.25f, lo = -2.0f, hi = 300.0f;
  const auto x = heldout::Random<T>(total, -8, 8, 3 * total + blockDim);
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), gi(total * sizeof(int32_t)), ws(64),
      tiling(sizeof(h2_ramp::RampTiling));
  heldout::Upload(gx, x);
  auto* t = tiling.as<h2_ramp::RampTiling>();
  *t = {total, (total + blockDim - 1) / blockDim, tile, step, lo, hi};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), gi.get(), ws.get(), tiling.get());
  std::vector<double> want(total);
  std::vector<int32_t> wantIdx(total);
  for (uint32_t i = 0; i < total; ++i) {
    want[i] = std::min<double>(hi, std::max<double>(lo, heldout::ToDouble(x[i]) + step * i));
    wantIdx[i] = static_cast<int32_t>(i);
  }
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gy, total), want, heldout::Tol<T>::kAbs,
                            heldout::Tol<T>::kRel))
      << "total " << total << " blockDim " << blockDim;
  EXPECT_EQ(heldout::Download<int32_t>(gi, total), wantIdx) << "total " << total;
}

TEST(Heldout2RampClamp, HalfRampsAndClampsOnOddSplits) {
  // Half keeps the ramp below 512 (exact spacing 0.25 up to 512).
  for (uint32_t total : {1u, 45u, 1001u, 2047u}) RunRamp<half>(h2_ramp_clamp_half, total, 3, 256);
}

TEST(Heldout2RampClamp, FloatRampsAndClampsOnOddSplits) {
  for (uint32_t total : {7u, 999u, 4099u}) RunRamp<float>(h2_ramp_clamp_float, total, 5, 192);
}

}  // namespace
