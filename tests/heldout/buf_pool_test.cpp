// Held-out kernel 14: two serial stages whose queues share one region of UB through two TBufPools
// (the second reuses the first's start and length): stage 1 writes sum = x + y, stage 2 writes
// prod = x * y, each stage double-buffered inside its pool, the first pool Reset before the second
// takes over.
//
// Names and the source each use follows:
// - TBufPool<TPosition::VECCALC>, TPipe::InitBufPool(pool, len) and InitBufPool(pool, len,
//   shareBuf), TBufPool::InitBuffer(que, num, len), TBufPool::Reset(): asc-devkit docs
//   基础API/资源管理/TBufPool/{TBufPool简介,InitBuffer-56,Reset-57}.md and TPipe/InitBufPool.md
//   (its example: tbufPool2 reuses tbufPool1, serial CopyIn/Compute/CopyOut, Reset between).
// - TQue AllocTensor/EnQue/DeQue/FreeTensor pairs inside each pool (the doc's constraint 4).
#include "heldout_util.h"

namespace heldout_pool {

struct PoolTiling {
  uint32_t totalLength;
  uint32_t tileLength;
};

template <typename T>
class KernelTwoStage {
 public:
  __aicore__ inline KernelTwoStage() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR prod,
                              const PoolTiling& t) {
    t_ = t;
    const uint32_t per = (t.totalLength + AscendC::GetBlockNum() - 1) / AscendC::GetBlockNum();
    const uint32_t start = AscendC::GetBlockIdx() * per;
    len_ = start >= t.totalLength ? 0 : (t.totalLength - start < per ? t.totalLength - start : per);
    xGm_.SetGlobalBuffer((__gm__ T*)x + start, len_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + start, len_);
    sumGm_.SetGlobalBuffer((__gm__ T*)sum + start, len_);
    prodGm_.SetGlobalBuffer((__gm__ T*)prod + start, len_);
    const uint32_t bytes = t.tileLength * sizeof(T);
    pipe_.InitBufPool(pool1_, 6 * bytes);
    pipe_.InitBufPool(pool2_, 6 * bytes, pool1_);
  }
  __aicore__ inline void Process() {
    const uint32_t bytes = t_.tileLength * sizeof(T);
    pool1_.InitBuffer(xQue_, 2, bytes);
    pool1_.InitBuffer(yQue_, 2, bytes);
    pool1_.InitBuffer(outQue_, 2, bytes);
    Stage1();
    pool1_.Reset();
    pool2_.InitBuffer(xQue2_, 2, bytes);
    pool2_.InitBuffer(yQue2_, 2, bytes);
    pool2_.InitBuffer(outQue2_, 2, bytes);
    Stage2();
    pool2_.Reset();
  }

 private:
  __aicore__ inline void Stage1() {
    for (uint32_t off = 0; off < len_; off += t_.tileLength) {
      const uint32_t n = len_ - off < t_.tileLength ? len_ - off : t_.tileLength;
      AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
      AscendC::LocalTensor<T> x = xQue_.AllocTensor<T>();
      AscendC::LocalTensor<T> y = yQue_.AllocTensor<T>();
      AscendC::DataCopyPad(x, xGm_[off], p, {false, 0, 0, 0});
      AscendC::DataCopyPad(y, yGm_[off], p, {false, 0, 0, 0});
      xQue_.EnQue(x);
      yQue_.EnQue(y);
      x = xQue_.DeQue<T>();
      y = yQue_.DeQue<T>();
      AscendC::LocalTensor<T> z = outQue_.AllocTensor<T>();
      AscendC::Add(z, x, y, n);
      outQue_.EnQue(z);
      xQue_.FreeTensor(x);
      yQue_.FreeTensor(y);
      z = outQue_.DeQue<T>();
      AscendC::DataCopyPad(sumGm_[off], z, p);
      outQue_.FreeTensor(z);
    }
  }
  __aicore__ inline void Stage2() {
    for (uint32_t off = 0; off < len_; off += t_.tileLength) {
      const uint32_t n = len_ - off < t_.tileLength ? len_ - off : t_.tileLength;
      AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
      AscendC::LocalTensor<T> x = xQue2_.AllocTensor<T>();
      AscendC::LocalTensor<T> y = yQue2_.AllocTensor<T>();
      AscendC::DataCopyPad(x, xGm_[off], p, {false, 0, 0, 0});
      AscendC::DataCopyPad(y, yGm_[off], p, {false, 0, 0, 0});
      xQue2_.EnQue(x);
      yQue2_.EnQue(y);
      x = xQue2_.DeQue<T>();
      y = yQue2_.DeQue<T>();
      AscendC::LocalTensor<T> z = outQue2_.AllocTensor<T>();
      AscendC::Mul(z, x, y, n);
      outQue2_.EnQue(z);
      xQue2_.FreeTensor(x);
      yQue2_.FreeTensor(y);
      z = outQue2_.DeQue<T>();
      AscendC::DataCopyPad(prodGm_[off], z, p);
      outQue2_.FreeTensor(z);
    }
  }

  AscendC::TPipe pipe_;
  AscendC::TBufPool<AscendC::TPosition::VECCALC> pool1_, pool2_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> xQue_, yQue_, xQue2_, yQue2_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQue_, outQue2_;
  AscendC::GlobalTensor<T> xGm_, yGm_, sumGm_, prodGm_;
  PoolTiling t_{};
  uint32_t len_ = 0;
};

}  // namespace heldout_pool

extern "C" __global__ __aicore__ void heldout_pool_half(GM_ADDR x, GM_ADDR y, GM_ADDR sum,
                                                        GM_ADDR prod, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_pool::PoolTiling);
  GET_TILING_DATA(t, tiling);
  heldout_pool::KernelTwoStage<half> op;
  op.Init(x, y, sum, prod, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_pool_float(GM_ADDR x, GM_ADDR y, GM_ADDR sum,
                                                         GM_ADDR prod, GM_ADDR workspace,
                                                         GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_pool::PoolTiling);
  GET_TILING_DATA(t, tiling);
  heldout_pool::KernelTwoStage<float> op;
  op.Init(x, y, sum, prod, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

template <class T>
void RunPool(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR),
             uint32_t total, uint32_t blockDim) {
  const auto x = heldout::Random<T>(total, -4, 4, total + 17);
  const auto y = heldout::Random<T>(total, -4, 4, total + 18);
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), gs(total * sizeof(T)),
      gp(total * sizeof(T)), ws(1024), tiling(sizeof(heldout_pool::PoolTiling));
  heldout::Upload(gx, x);
  heldout::Upload(gy, y);
  *tiling.as<heldout_pool::PoolTiling>() = {total, 208};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), gs.get(), gp.get(), ws.get(), tiling.get());
  std::vector<double> ws_(total), wp(total);
  for (uint32_t i = 0; i < total; ++i) {
    ws_[i] = heldout::ToDouble(x[i]) + heldout::ToDouble(y[i]);
    wp[i] = heldout::ToDouble(x[i]) * heldout::ToDouble(y[i]);
  }
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gs, total), ws_, heldout::Tol<T>::kAbs,
                            heldout::Tol<T>::kRel)) << "sum";
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gp, total), wp, heldout::Tol<T>::kAbs,
                            heldout::Tol<T>::kRel)) << "prod";
}

TEST(HeldoutBufPool, TwoStagesShareUbThroughTBufPools) {
  RunPool<half>(heldout_pool_half, 1501, 3);
  RunPool<float>(heldout_pool_float, 733, 2);
}

}  // namespace
