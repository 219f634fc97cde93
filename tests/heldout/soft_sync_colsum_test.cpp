// Held-out kernel 15: column sums of x [rows, k] across cores: every core zeroes its share of the
// output columns in GM (InitGlobalMemory, or the newer GM-tensor Fill), all cores meet at a
// software SyncAll over a host-zeroed GM workspace, then each core atomically adds its rows'
// partial column sums (accumulated in float) into the output.
//
// Names and the source each use follows:
// - InitGlobalMemory(GlobalTensor<T>&, size, value) and Fill(GlobalTensor<T>&, size, value):
//   asc-devkit include/adv_api/utils/init_global_memory.h; hicann ops-math tensor_equal
//   op_kernel/arch35/tensor_equal.h (InitGlobalMemory then an MTE3_MTE2 flag, then SyncAll).
// - SyncAll(GlobalTensor<int32_t> gmWorkspace, LocalTensor<int32_t> ubWorkspace) (software form:
//   gmWorkspace >= blockNum * 32 B zeroed by the host, ubWorkspace >= blockNum * 32 B): docs
//   基础API/同步控制/核间同步/SyncAll.md; ops-math add_lora (SyncAll(softSyncGm_, workLocal)).
// - SetAtomicAdd<float>() / SetAtomicNone() around the DataCopyPad to GM: docs 原子操作.
// - Cast half -> float (CAST_NONE), Add: basic API.
#include "heldout_util.h"

namespace heldout_colsum {

struct ColSumTiling {
  uint32_t rows;
  uint32_t cols;
  uint32_t useFill;  // 0: InitGlobalMemory, 1: Fill
};

template <typename T>
class KernelColSum {
 public:
  __aicore__ inline KernelColSum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR out, GM_ADDR syncWs, const ColSumTiling& t) {
    t_ = t;
    const uint32_t b = AscendC::GetBlockIdx();
    const uint32_t nb = AscendC::GetBlockNum();
    const uint32_t rowsPer = (t.rows + nb - 1) / nb;
    rowStart_ = b * rowsPer;
    rowCount_ = rowStart_ >= t.rows ? 0 : (t.rows - rowStart_ < rowsPer ? t.rows - rowStart_
                                                                          : rowsPer);
    const uint32_t colsPer = (t.cols + nb - 1) / nb;
    colStart_ = b * colsPer;
    colCount_ = colStart_ >= t.cols ? 0 : (t.cols - colStart_ < colsPer ? t.cols - colStart_
                                                                          : colsPer);
    xGm_.SetGlobalBuffer((__gm__ T*)x, t.rows * t.cols);
    outGm_.SetGlobalBuffer((__gm__ float*)out, t.cols);
    syncGm_.SetGlobalBuffer((__gm__ int32_t*)syncWs, nb * 8);
    colsAlign_ = (t.cols + 7) / 8 * 8;
    pipe_.InitBuffer(inQueue_, 2, colsAlign_ * sizeof(float));
    pipe_.InitBuffer(accQueue_, 1, colsAlign_ * sizeof(float));
    pipe_.InitBuffer(castBuf_, colsAlign_ * sizeof(float));
    pipe_.InitBuffer(syncBuf_, nb * 32);
  }
  __aicore__ inline void Process() {
    if (colCount_ > 0) {
      AscendC::GlobalTensor<float> mine = outGm_[colStart_];
      if (t_.useFill) {
        AscendC::Fill(mine, colCount_, 0.0f);
      } else {
        AscendC::InitGlobalMemory(mine, colCount_, 0.0f);
      }
      event_t e = static_cast<event_t>(pipe_.FetchEventID(AscendC::HardEvent::MTE3_MTE2));
      AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(e);
      AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(e);
    }
    AscendC::LocalTensor<int32_t> syncLocal = syncBuf_.Get<int32_t>();
    AscendC::SyncAll(syncGm_, syncLocal);

    AscendC::LocalTensor<float> acc = accQueue_.AllocTensor<float>();
    AscendC::Duplicate(acc, 0.0f, colsAlign_);
    for (uint32_t r = 0; r < rowCount_; ++r) {
      AscendC::LocalTensor<T> row = inQueue_.AllocTensor<T>();
      AscendC::DataCopyPad(row, xGm_[(rowStart_ + r) * t_.cols],
                           {1, static_cast<uint32_t>(t_.cols * sizeof(T)), 0, 0, 0},
                           {false, 0, 0, 0});
      inQueue_.EnQue(row);
      row = inQueue_.DeQue<T>();
      if constexpr (AscendC::IsSameType<T, float>::value) {
        AscendC::Add(acc, acc, row, t_.cols);
      } else {
        AscendC::LocalTensor<float> f = castBuf_.Get<float>();
        AscendC::Cast(f, row, AscendC::RoundMode::CAST_NONE, t_.cols);
        AscendC::Add(acc, acc, f, t_.cols);
      }
      inQueue_.FreeTensor(row);
    }
    accQueue_.EnQue(acc);
    acc = accQueue_.DeQue<float>();
    if (rowCount_ > 0) {
      AscendC::SetAtomicAdd<float>();
      AscendC::DataCopyPad(outGm_, acc, {1, static_cast<uint32_t>(t_.cols * sizeof(float)), 0, 0, 0});
      AscendC::SetAtomicNone();
    }
    accQueue_.FreeTensor(acc);
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> accQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> castBuf_, syncBuf_;
  AscendC::GlobalTensor<T> xGm_;
  AscendC::GlobalTensor<float> outGm_;
  AscendC::GlobalTensor<int32_t> syncGm_;
  ColSumTiling t_{};
  uint32_t rowStart_ = 0, rowCount_ = 0, colStart_ = 0, colCount_ = 0, colsAlign_ = 0;
};

}  // namespace heldout_colsum

extern "C" __global__ __aicore__ void heldout_colsum_half(GM_ADDR x, GM_ADDR out,
                                                          GM_ADDR syncWs, GM_ADDR workspace,
                                                          GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_colsum::ColSumTiling);
  GET_TILING_DATA(t, tiling);
  heldout_colsum::KernelColSum<half> op;
  op.Init(x, out, syncWs, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_colsum_float(GM_ADDR x, GM_ADDR out,
                                                           GM_ADDR syncWs, GM_ADDR workspace,
                                                           GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_colsum::ColSumTiling);
  GET_TILING_DATA(t, tiling);
  heldout_colsum::KernelColSum<float> op;
  op.Init(x, out, syncWs, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

template <class T>
void RunColSum(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t rows,
               uint32_t cols, uint32_t blockDim, uint32_t useFill) {
  const auto x = heldout::Random<T>(rows * cols, -1, 1, rows * 31 + cols);
  GmBuf gx(x.size() * sizeof(T)), go(cols * sizeof(float)), sync(blockDim * 32), ws(1024),
      tiling(sizeof(heldout_colsum::ColSumTiling));
  heldout::Upload(gx, x);
  // Stale output: the kernel must zero it before adding.
  std::vector<float> stale(cols, 123.0f);
  heldout::Upload(go, stale);
  *tiling.as<heldout_colsum::ColSumTiling>() = {rows, cols, useFill};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), go.get(), sync.get(), ws.get(), tiling.get());
  std::vector<double> want(cols, 0.0);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) want[c] += heldout::ToDouble(x[r * cols + c]);
  }
  // float accumulation of <= 60 terms of magnitude <= 1, in some order: <= 60 * 6e-8 * 60.
  EXPECT_TRUE(heldout::Near(heldout::Download<float>(go, cols), want, 2e-4, 0))
      << "rows " << rows << " cols " << cols << " blocks " << blockDim << " fill " << useFill;
}

TEST(HeldoutSoftSyncColSum, InitGlobalMemoryOrFillThenSoftSyncAllThenAtomicAdd) {
  RunColSum<half>(heldout_colsum_half, 37, 45, 4, 0);
  RunColSum<float>(heldout_colsum_float, 53, 19, 3, 1);
  RunColSum<half>(heldout_colsum_half, 20, 100, 5, 1);
}

}  // namespace
