// Held-out kernel 16: y = 2 * |x| with the kernel-side debugging a developer adds while bringing
// an operator up: printf of per-core facts, DumpTensor of the first result tile, both checked in
// the captured standard output.
//
// Names and the source each use follows:
// - "utils/debug/asc_printf.h" and AscendC::printf(fmt, args...) (%d/%u/%f): asc-devkit docs
//   Utils-API/调测接口/printf.md.
// - DumpTensor(LocalTensor, desc, dumpSize): docs 基础API/调试接口/上板打印/DumpTensor.md
//   (output "DumpTensor: desc=5, ... data_type=float16, position=UB, dump_size=32" then values).
// - AscendC::Std::max: docs Utils-API/CPP标准库/算法/max-267.md.
// - Abs, Muls: basic API.
#include "heldout_util.h"
#include "utils/debug/asc_printf.h"

namespace heldout_dbg {

struct DbgTiling {
  uint32_t totalLength;
  uint32_t tileLength;
};

template <typename T>
class KernelDoubleAbs {
 public:
  __aicore__ inline KernelDoubleAbs() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const DbgTiling& t) {
    const uint32_t per = (t.totalLength + AscendC::GetBlockNum() - 1) / AscendC::GetBlockNum();
    start_ = AscendC::GetBlockIdx() * per;
    len_ = start_ >= t.totalLength ? 0
                                   : (t.totalLength - start_ < per ? t.totalLength - start_ : per);
    tile_ = AscendC::Std::max(t.tileLength, static_cast<uint32_t>(32 / sizeof(T)));
    xGm_.SetGlobalBuffer((__gm__ T*)x + start_, len_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + start_, len_);
    pipe_.InitBuffer(inQueue_, 1, tile_ * sizeof(T));
    pipe_.InitBuffer(outQueue_, 1, tile_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    AscendC::printf("heldout block %d of %d: start %u length %u\n",
                    static_cast<int32_t>(AscendC::GetBlockIdx()),
                    static_cast<int32_t>(AscendC::GetBlockNum()), start_, len_);
    for (uint32_t off = 0; off < len_; off += tile_) {
      const uint32_t n = len_ - off < tile_ ? len_ - off : tile_;
      AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
      AscendC::LocalTensor<T> x = inQueue_.AllocTensor<T>();
      AscendC::DataCopyPad(x, xGm_[off], p, {false, 0, 0, 0});
      inQueue_.EnQue(x);
      x = inQueue_.DeQue<T>();
      AscendC::LocalTensor<T> y = outQueue_.AllocTensor<T>();
      AscendC::Abs(y, x, n);
      AscendC::Muls(y, y, static_cast<T>(2.0f), n);
      if (off == 0 && AscendC::GetBlockIdx() == 0) {
        AscendC::DumpTensor(y, 77, n < 8 ? n : 8);
      }
      outQueue_.EnQue(y);
      inQueue_.FreeTensor(x);
      y = outQueue_.DeQue<T>();
      AscendC::DataCopyPad(yGm_[off], y, p);
      outQueue_.FreeTensor(y);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
  uint32_t start_ = 0, len_ = 0, tile_ = 0;
};

}  // namespace heldout_dbg

extern "C" __global__ __aicore__ void heldout_dbg_half(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                       GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_dbg::DbgTiling);
  GET_TILING_DATA(t, tiling);
  heldout_dbg::KernelDoubleAbs<half> op;
  op.Init(x, y, t);
  op.Process();
}

extern "C" __global__ __aicore__ void heldout_dbg_float(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_dbg::DbgTiling);
  GET_TILING_DATA(t, tiling);
  heldout_dbg::KernelDoubleAbs<float> op;
  op.Init(x, y, t);
  op.Process();
}

namespace {

using heldout::GmBuf;

template <class T>
std::string RunDbg(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t total,
                   uint32_t blockDim) {
  const auto x = heldout::Random<T>(total, -9, 9, total + 3);
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), ws(1024),
      tiling(sizeof(heldout_dbg::DbgTiling));
  heldout::Upload(gx, x);
  *tiling.as<heldout_dbg::DbgTiling>() = {total, 100};
  testing::internal::CaptureStdout();
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), ws.get(), tiling.get());
  std::fflush(stdout);
  const std::string out = testing::internal::GetCapturedStdout();
  std::vector<double> want(total);
  for (uint32_t i = 0; i < total; ++i) want[i] = 2.0 * std::fabs(heldout::ToDouble(x[i]));
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gy, total), want, 0, 0));  // exact in T
  return out;
}

TEST(HeldoutDebugPrint, PrintfAndDumpTensorReachStdout) {
  const std::string h = RunDbg<half>(heldout_dbg_half, 301, 3);
  EXPECT_NE(h.find("heldout block 0 of 3: start 0 length 101"), std::string::npos) << h;
  EXPECT_NE(h.find("heldout block 2 of 3: start 202 length 99"), std::string::npos) << h;
  EXPECT_NE(h.find("desc=77"), std::string::npos) << h;
  const std::string f = RunDbg<float>(heldout_dbg_float, 64, 2);
  EXPECT_NE(f.find("heldout block 1 of 2: start 32 length 32"), std::string::npos) << f;
  EXPECT_NE(f.find("desc=77"), std::string::npos) << f;
}

}  // namespace
