// Held-out kernel 9: top-k of each row by a full descending Sort of (score, index) pairs; the row
// is padded to a whole number of 32-element sort repeats with the lowest value, the indices come
// from ArithProgression, and the top k pairs are read back by scalar through GetSortOffset.
//
// Names and the source each use follows:
// - Sort<T, isFullSort = true>(dst, concat, index (uint32), tmp, repeatTime): asc-devkit docs
//   高阶API/排序操作/Sort.md (A2: 32 elements per repeat, (score, index) pairs of 8 B, index in the
//   high 4 B, score in the low bytes; concat is the score tensor [n]).
// - GetSortLen<T>(elemCount) and GetSortOffset<T>(elemOffset): docs 排序操作/GetSortLen.md,
//   GetSortOffset.md. The pages say bytes; asc-devkit's code (impl/basic_api/
//   kernel_operator_proposal_intf_impl.h: elemCount * halfSortedDataSize (4) or
//   floatSortedDataSize (2)) counts elements of T, which is what the device does.
// - GetSortTmpSize(PlatformAscendC, elemCount, dataTypeSize) on the host, the platform from
//   platform_ascendc::PlatformAscendCManager::GetInstance(): docs GetSortTmpSize.md,
//   Utils-API/平台信息获取/PlatformAscendCManager.md.
// - ArithProgression<int32_t>: asc-devkit include/adv_api/index/arithprogression.h.
// - SetFlag/WaitFlag V_S and S_MTE3 around the scalar reads and writes: docs 同步控制.
#include "heldout_util.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace heldout_topk {

struct TopkTilingData {
  uint32_t rowLength;
  uint32_t paddedLength;  // rowLength rounded up to 32
  uint32_t k;
  uint32_t tmpBytes;
};

template <typename T>
class KernelTopk {
 public:
  __aicore__ inline KernelTopk() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices,
                              const TopkTilingData& t) {
    t_ = t;
    const uint32_t row = AscendC::GetBlockIdx();
    xGm_.SetGlobalBuffer((__gm__ T*)x + row * t.rowLength, t.rowLength);
    valGm_.SetGlobalBuffer((__gm__ T*)values + row * t.k, t.k);
    idxGm_.SetGlobalBuffer((__gm__ uint32_t*)indices + row * t.k, t.k);
    pipe_.InitBuffer(inQueue_, 1, t.paddedLength * sizeof(T));
    pipe_.InitBuffer(sortedBuf_, AscendC::GetSortLen<T>(t.paddedLength) * sizeof(T));
    pipe_.InitBuffer(idxBuf_, t.paddedLength * sizeof(uint32_t));
    pipe_.InitBuffer(tmpBuf_, t.tmpBytes);
    pipe_.InitBuffer(outValQueue_, 1, t.k * sizeof(T) < 32 ? 32 : t.k * sizeof(T));
    pipe_.InitBuffer(outIdxQueue_, 1, t.k * sizeof(uint32_t) < 32 ? 32 : t.k * sizeof(uint32_t));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<T> x = inQueue_.AllocTensor<T>();
    // The padding ranks last: the lowest finite value of T.
    const T lowest = AscendC::IsSameType<T, half>::value ? static_cast<T>(-65504.0f)
                                                         : static_cast<T>(-3.0e38f);
    AscendC::Duplicate(x, lowest, t_.paddedLength);
    event_t vToMte2 = static_cast<event_t>(pipe_.FetchEventID(AscendC::HardEvent::V_MTE2));
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(vToMte2);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(vToMte2);
    AscendC::DataCopyPad(x, xGm_, {1, static_cast<uint32_t>(t_.rowLength * sizeof(T)), 0, 0, 0},
                         {false, 0, 0, 0});
    inQueue_.EnQue(x);
    x = inQueue_.DeQue<T>();

    AscendC::LocalTensor<int32_t> idx = idxBuf_.Get<int32_t>();
    AscendC::ArithProgression<int32_t>(idx, 0, 1, static_cast<int32_t>(t_.paddedLength));
    AscendC::LocalTensor<T> sorted = sortedBuf_.Get<T>();
    AscendC::LocalTensor<T> tmp = tmpBuf_.Get<T>();
    AscendC::Sort<T, true>(sorted, x, idx.ReinterpretCast<uint32_t>(), tmp,
                           static_cast<int32_t>(t_.paddedLength / 32));
    inQueue_.FreeTensor(x);

    event_t vToS = static_cast<event_t>(pipe_.FetchEventID(AscendC::HardEvent::V_S));
    AscendC::SetFlag<AscendC::HardEvent::V_S>(vToS);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(vToS);
    AscendC::LocalTensor<T> outVal = outValQueue_.AllocTensor<T>();
    AscendC::LocalTensor<uint32_t> outIdx = outIdxQueue_.AllocTensor<uint32_t>();
    AscendC::LocalTensor<uint32_t> pairs = sorted.template ReinterpretCast<uint32_t>();
    for (uint32_t j = 0; j < t_.k; ++j) {
      const uint32_t off = AscendC::GetSortOffset<T>(j);  // in elements of T
      outVal.SetValue(j, sorted.GetValue(off));
      outIdx.SetValue(j, pairs.GetValue(off * sizeof(T) / sizeof(uint32_t) + 1));  // high 4 B
    }
    // The results were written by the scalar unit: MTE3 must wait for it (the queue orders V).
    event_t sToMte3 = static_cast<event_t>(pipe_.FetchEventID(AscendC::HardEvent::S_MTE3));
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(sToMte3);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(sToMte3);
    outValQueue_.EnQue(outVal);
    outIdxQueue_.EnQue(outIdx);
    outVal = outValQueue_.DeQue<T>();
    outIdx = outIdxQueue_.DeQue<uint32_t>();
    AscendC::DataCopyPad(valGm_, outVal, {1, static_cast<uint32_t>(t_.k * sizeof(T)), 0, 0, 0});
    AscendC::DataCopyPad(idxGm_, outIdx,
                         {1, static_cast<uint32_t>(t_.k * sizeof(uint32_t)), 0, 0, 0});
    outValQueue_.FreeTensor(outVal);
    outIdxQueue_.FreeTensor(outIdx);
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outValQueue_, outIdxQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> sortedBuf_, idxBuf_, tmpBuf_;
  AscendC::GlobalTensor<T> xGm_, valGm_;
  AscendC::GlobalTensor<uint32_t> idxGm_;
  TopkTilingData t_{};
};

}  // namespace heldout_topk

extern "C" __global__ __aicore__ void heldout_topk_half(GM_ADDR x, GM_ADDR values,
                                                        GM_ADDR indices, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_topk::TopkTilingData);
  GET_TILING_DATA(t, tiling);
  heldout_topk::KernelTopk<half> op;
  op.Init(x, values, indices, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_topk_float(GM_ADDR x, GM_ADDR values,
                                                         GM_ADDR indices, GM_ADDR workspace,
                                                         GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_topk::TopkTilingData);
  GET_TILING_DATA(t, tiling);
  heldout_topk::KernelTopk<float> op;
  op.Init(x, values, indices, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

template <class T>
void RunTopk(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t rows,
             uint32_t len, uint32_t k) {
  // Distinct values (a shuffled ramp), so the order and the indices are unambiguous.
  std::vector<T> x(rows * len);
  std::mt19937 gen(len * 7 + k);
  for (uint32_t r = 0; r < rows; ++r) {
    std::vector<int> perm(len);
    for (uint32_t i = 0; i < len; ++i) perm[i] = static_cast<int>(i);
    std::shuffle(perm.begin(), perm.end(), gen);
    for (uint32_t i = 0; i < len; ++i) {
      x[r * len + i] = heldout::FromDouble<T>((perm[i] - static_cast<int>(len) / 2) * 0.25);
    }
  }
  const uint32_t padded = (len + 31) / 32 * 32;
  GmBuf gx(x.size() * sizeof(T)), gv(rows * k * sizeof(T)), gi(rows * k * sizeof(uint32_t)),
      ws(1024), tiling(sizeof(heldout_topk::TopkTilingData));
  heldout::Upload(gx, x);
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
  ASSERT_NE(plat, nullptr);
  const uint32_t tmp = AscendC::GetSortTmpSize(*plat, padded, sizeof(T));
  *tiling.as<heldout_topk::TopkTilingData>() = {len, padded, k, std::max(tmp, 32u)};
  ICPU_RUN_KF(kernel, rows, gx.get(), gv.get(), gi.get(), ws.get(), tiling.get());
  const auto vals = heldout::Download<T>(gv, rows * k);
  const auto idx = heldout::Download<uint32_t>(gi, rows * k);
  for (uint32_t r = 0; r < rows; ++r) {
    std::vector<uint32_t> order(len);
    for (uint32_t i = 0; i < len; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return heldout::ToDouble(x[r * len + a]) > heldout::ToDouble(x[r * len + b]);
    });
    for (uint32_t j = 0; j < k; ++j) {
      ASSERT_EQ(idx[r * k + j], order[j]) << "row " << r << " rank " << j;
      ASSERT_EQ(heldout::ToDouble(vals[r * k + j]), heldout::ToDouble(x[r * len + order[j]]))
          << "row " << r << " rank " << j;
    }
  }
}

TEST(HeldoutSortTopk, FullSortTopKHalfAndFloat) {
  RunTopk<half>(heldout_topk_half, 3, 100, 7);
  RunTopk<float>(heldout_topk_float, 2, 77, 5);
}

}  // namespace
