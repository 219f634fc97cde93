// Held-out kernel 8: masked select (x[i] > threshold), compacting the selected values and their
// global indices per core and writing each core's count, the pattern of production filter and
// top-k kernels: Compares builds a bit mask, GatherMask in counter mode (reduceMode = true) uses
// it as a user pattern on the values (16-bit pattern view for half, 32-bit for float) and on an
// int32 index ramp from ArithProgression.
//
// Names and the source each use follows:
// - GatherMask(dst, src0, LocalTensor<U> src1Pattern, reduceMode = true, mask = count,
//   GatherMaskParams{1, 1, 0, 0}, rsvdCnt): asc-devkit docs 基础API/Memory矢量计算/比较与选择/
//   GatherMask.md (counter mode, A2 "配置方式一": one repeat of `mask` elements; rsvdCnt the
//   kept count); the call shape of hicann ops-nn/ops-math kernels (GatherMask(out, x,
//   cmpMask.ReinterpretCast<uint16_t/uint32_t>(), true, curTileLen, {1, 1, 0, 0}, rsvdCnt)).
// - Compares(dst uint8 bits, src, scalar, CMPMODE::GT, count) with count*sizeof(T) 256 B aligned:
//   docs 比较与选择/Compares.md; the tail beyond the data is filled with the threshold first.
// - ArithProgression<int32_t>(dst, first, diff, count): asc-devkit
//   include/adv_api/index/arithprogression.h; production call ArithProgression<int32_t>(idx,
//   offsetPerCore, 1, n).
// - SetFlag/WaitFlag<HardEvent::V_MTE2> with TPipe::FetchEventID, V_S before reading rsvdCnt's
//   data: docs 同步控制.
// - GlobalTensor::SetValue for the per-core count.
#include "heldout_util.h"

namespace heldout_select {

struct SelectTiling {
  uint32_t totalLength;
  uint32_t perCore;  // elements per core (the last takes the rest)
  float threshold;
};

template <typename T, typename PatternT>
class KernelMaskedSelect {
 public:
  __aicore__ inline KernelMaskedSelect() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR counts,
                              const SelectTiling& t) {
    const uint32_t b = AscendC::GetBlockIdx();
    start_ = b * t.perCore;
    n_ = start_ >= t.totalLength ? 0
                                 : (t.totalLength - start_ < t.perCore ? t.totalLength - start_
                                                                       : t.perCore);
    thr_ = static_cast<T>(t.threshold);
    const uint32_t perRepeat = 256 / sizeof(T);
    aligned_ = (t.perCore + perRepeat - 1) / perRepeat * perRepeat;
    xGm_.SetGlobalBuffer((__gm__ T*)x + start_, n_);
    valGm_.SetGlobalBuffer((__gm__ T*)values + start_, n_);
    idxGm_.SetGlobalBuffer((__gm__ int32_t*)indices + start_, n_);
    cntGm_.SetGlobalBuffer((__gm__ int32_t*)counts + b, 1);
    pipe_.InitBuffer(inQueue_, 1, aligned_ * sizeof(T));
    pipe_.InitBuffer(valQueue_, 1, aligned_ * sizeof(T));
    pipe_.InitBuffer(idxQueue_, 1, aligned_ * sizeof(int32_t));
    pipe_.InitBuffer(maskBuf_, aligned_ / 8 < 32 ? 32 : aligned_ / 8);
    pipe_.InitBuffer(rampBuf_, aligned_ * sizeof(int32_t));
  }
  __aicore__ inline void Process() {
    if (n_ == 0) {
      cntGm_.SetValue(0, 0);
      return;
    }
    // CopyIn: the tile holds the threshold beyond n_, so the compare over the aligned length
    // reads defined data and selects nothing there.
    AscendC::LocalTensor<T> x = inQueue_.AllocTensor<T>();
    AscendC::Duplicate(x, thr_, aligned_);
    event_t vToMte2 = static_cast<event_t>(pipe_.FetchEventID(AscendC::HardEvent::V_MTE2));
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(vToMte2);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(vToMte2);
    AscendC::DataCopyPad(x, xGm_, {1, static_cast<uint32_t>(n_ * sizeof(T)), 0, 0, 0},
                         {false, 0, 0, 0});
    inQueue_.EnQue(x);
    x = inQueue_.DeQue<T>();

    // Compute.
    AscendC::LocalTensor<uint8_t> mask = maskBuf_.Get<uint8_t>();
    AscendC::LocalTensor<int32_t> ramp = rampBuf_.Get<int32_t>();
    AscendC::LocalTensor<T> vals = valQueue_.AllocTensor<T>();
    AscendC::LocalTensor<int32_t> idx = idxQueue_.AllocTensor<int32_t>();
    AscendC::Compares(mask, x, thr_, AscendC::CMPMODE::GT, aligned_);
    AscendC::ArithProgression<int32_t>(ramp, static_cast<int32_t>(start_), 1,
                                       static_cast<int32_t>(n_));
    uint64_t kept = 0;
    uint64_t keptIdx = 0;
    AscendC::GatherMask(vals, x, mask.ReinterpretCast<PatternT>(), true, n_, {1, 1, 0, 0}, kept);
    AscendC::GatherMask(idx, ramp, mask.ReinterpretCast<uint32_t>(), true, n_, {1, 1, 0, 0},
                        keptIdx);
    valQueue_.EnQue(vals);
    idxQueue_.EnQue(idx);
    inQueue_.FreeTensor(x);

    // CopyOut.
    vals = valQueue_.DeQue<T>();
    idx = idxQueue_.DeQue<int32_t>();
    if (kept > 0) {
      AscendC::DataCopyPad(valGm_, vals, {1, static_cast<uint32_t>(kept * sizeof(T)), 0, 0, 0});
      AscendC::DataCopyPad(idxGm_, idx,
                           {1, static_cast<uint32_t>(keptIdx * sizeof(int32_t)), 0, 0, 0});
    }
    cntGm_.SetValue(0, static_cast<int32_t>(kept == keptIdx ? kept : -1));
    valQueue_.FreeTensor(vals);
    idxQueue_.FreeTensor(idx);
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> valQueue_, idxQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf_, rampBuf_;
  AscendC::GlobalTensor<T> xGm_, valGm_;
  AscendC::GlobalTensor<int32_t> idxGm_, cntGm_;
  uint32_t start_ = 0, n_ = 0, aligned_ = 0;
  T thr_;
};

}  // namespace heldout_select

extern "C" __global__ __aicore__ void heldout_select_half(GM_ADDR x, GM_ADDR values,
                                                          GM_ADDR indices, GM_ADDR counts,
                                                          GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_select::SelectTiling);
  GET_TILING_DATA(t, tiling);
  heldout_select::KernelMaskedSelect<half, uint16_t> op;
  op.Init(x, values, indices, counts, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_select_float(GM_ADDR x, GM_ADDR values,
                                                           GM_ADDR indices, GM_ADDR counts,
                                                           GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_select::SelectTiling);
  GET_TILING_DATA(t, tiling);
  heldout_select::KernelMaskedSelect<float, uint32_t> op;
  op.Init(x, values, indices, counts, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

template <class T>
void RunSelect(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR),
               uint32_t total, uint32_t blockDim, float threshold) {
  const auto x = heldout::Random<T>(total, -1, 1, 99 + total);
  const uint32_t perCore = (total + blockDim - 1) / blockDim;
  GmBuf gx(total * sizeof(T)), gv(total * sizeof(T)), gi(total * sizeof(int32_t)),
      gc(blockDim * sizeof(int32_t)), ws(1024), tiling(sizeof(heldout_select::SelectTiling));
  heldout::Upload(gx, x);
  *tiling.as<heldout_select::SelectTiling>() = {total, perCore, threshold};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gv.get(), gi.get(), gc.get(), ws.get(), tiling.get());
  const auto vals = heldout::Download<T>(gv, total);
  const auto idx = heldout::Download<int32_t>(gi, total);
  const auto cnt = heldout::Download<int32_t>(gc, blockDim);
  const double thr = heldout::ToDouble(heldout::FromDouble<T>(threshold));
  for (uint32_t b = 0; b < blockDim; ++b) {
    const uint32_t start = b * perCore;
    const uint32_t end = std::min(total, start + perCore);
    std::vector<int32_t> wantIdx;
    for (uint32_t i = start; i < end; ++i) {
      if (heldout::ToDouble(x[i]) > thr) wantIdx.push_back(static_cast<int32_t>(i));
    }
    ASSERT_EQ(cnt[b], static_cast<int32_t>(wantIdx.size())) << "core " << b;
    for (size_t k = 0; k < wantIdx.size(); ++k) {
      ASSERT_EQ(idx[start + k], wantIdx[k]) << "core " << b << " kept " << k;
      // A selected value is copied, never computed: bit-exact.
      ASSERT_EQ(heldout::ToDouble(vals[start + k]), heldout::ToDouble(x[wantIdx[k]]))
          << "core " << b << " kept " << k;
    }
  }
}

TEST(HeldoutMaskedSelect, CounterModeGatherMaskCompactsValuesAndIndices) {
  RunSelect<half>(heldout_select_half, 1001, 3, 0.25f);
  RunSelect<float>(heldout_select_float, 517, 4, -0.1f);
  RunSelect<float>(heldout_select_float, 45, 1, 0.5f);
}

}  // namespace
