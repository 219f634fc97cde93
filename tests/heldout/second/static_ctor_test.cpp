// Held-out set 2, kernel 5: z = (x + y) * x - y for int32 and float, with no TPipe: tensors placed
// by hand at byte addresses of UB with the static-tensor constructor, the pipes ordered with
// SetFlag / WaitFlag.
//
// Names and the source each use follows:
// - LocalTensor<T>(TPosition pos, uint32_t addr, uint32_t tileSize) (addr in bytes, 32 B aligned;
//   tileSize in elements): asc-devkit docs 基础API/数据结构/LocalTensor/LocalTensor构造函数.md.
// - SetFlag / WaitFlag<HardEvent::MTE2_V / V_MTE3 / MTE3_MTE2 / MTE3_V>(EVENT_ID0): docs
//   基础API/同步控制/核内同步 (SetFlag/WaitFlag), the static-tensor programming guide's ordering
//   of the three pipes without queues.
// - Add / Mul / Sub on int32_t and float (count form): docs 基础API/Memory矢量计算/双目.
#include "heldout_util.h"

namespace h2_static {

struct StaticTiling {
  uint32_t totalLength;
  uint32_t blockLength;
  uint32_t tileLength;  // elements; tileLength * sizeof(T) a multiple of 32
};

template <typename T>
class KernelStatic {
 public:
  __aicore__ inline KernelStatic() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const StaticTiling& t) {
    const uint32_t start = AscendC::GetBlockIdx() * t.blockLength;
    len_ = start >= t.totalLength ? 0 : AscendC::Std::min(t.blockLength, t.totalLength - start);
    tile_ = t.tileLength;
    xGm_.SetGlobalBuffer((__gm__ T*)x + start, len_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + start, len_);
    zGm_.SetGlobalBuffer((__gm__ T*)z + start, len_);
  }
  __aicore__ inline void Process() {
    const uint32_t bytes = tile_ * sizeof(T);
    AscendC::LocalTensor<T> xl(AscendC::TPosition::VECIN, 0, tile_);
    AscendC::LocalTensor<T> yl(AscendC::TPosition::VECIN, bytes, tile_);
    AscendC::LocalTensor<T> sl(AscendC::TPosition::VECCALC, 2 * bytes, tile_);
    AscendC::LocalTensor<T> zl(AscendC::TPosition::VECOUT, 3 * bytes, tile_);
    for (uint32_t off = 0; off < len_; off += tile_) {
      const uint32_t n = AscendC::Std::min(tile_, len_ - off);
      const AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
      AscendC::DataCopyPad(xl, xGm_[off], cp, {false, 0, 0, 0});
      AscendC::DataCopyPad(yl, yGm_[off], cp, {false, 0, 0, 0});
      AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::Add(sl, xl, yl, n);
      AscendC::Mul(sl, sl, xl, n);
      AscendC::Sub(zl, sl, yl, n);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::DataCopyPad(zGm_[off], zl, cp);
      // The next tile's loads overwrite x / y, and its Sub overwrites z which MTE3 reads now; V
      // also read x / y, but V finished before MTE3 started (V_MTE3 above).
      AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
      AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    }
  }

 private:
  AscendC::GlobalTensor<T> xGm_, yGm_, zGm_;
  uint32_t len_ = 0, tile_ = 0;
};

}  // namespace h2_static

#define H2_STATIC_ENTRY(NAME, T)                                                            \
  extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR y, GM_ADDR z,                \
                                             GM_ADDR workspace, GM_ADDR tiling) {            \
    (void)workspace;                                                                         \
    REGISTER_TILING_DEFAULT(h2_static::StaticTiling);                                        \
    GET_TILING_DATA(t, tiling);                                                              \
    h2_static::KernelStatic<T> op;                                                           \
    op.Init(x, y, z, t);                                                                     \
    op.Process();                                                                            \
  }
H2_STATIC_ENTRY(h2_static_int32, int32_t)
H2_STATIC_ENTRY(h2_static_float, float)

namespace {

using heldout::GmBuf;

template <class T>
void RunStatic(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t total,
               uint32_t blockDim, uint32_t tile) {
  std::vector<T> x(total), y(total);
  std::mt19937 gen(total + 5 * blockDim);
  std::uniform_int_distribution<int32_t> d(-1000, 1000);
  for (uint32_t i = 0; i < total; ++i) {
    x[i] = static_cast<T>(d(gen));
    y[i] = static_cast<T>(d(gen));
  }
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), gz(total * sizeof(T)), ws(64),
      tiling(sizeof(h2_static::StaticTiling));
  heldout::Upload(gx, x);
  heldout::Upload(gy, y);
  *tiling.as<h2_static::StaticTiling>() = {total, (total + blockDim - 1) / blockDim, tile};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), gz.get(), ws.get(), tiling.get());
  // Integers below 2^21 in magnitude: every step is exact in int32 and in float.
  std::vector<T> want(total);
  for (uint32_t i = 0; i < total; ++i) want[i] = (x[i] + y[i]) * x[i] - y[i];
  EXPECT_EQ(heldout::Download<T>(gz, total), want) << "total " << total << " blockDim " << blockDim;
}

TEST(Heldout2StaticCtor, Int32OnOddSplits) {
  for (uint32_t total : {3u, 517u, 3000u}) RunStatic<int32_t>(h2_static_int32, total, 3, 128);
}

TEST(Heldout2StaticCtor, FloatOnOddSplits) {
  for (uint32_t total : {1u, 1999u}) RunStatic<float>(h2_static_float, total, 5, 200);
}

}  // namespace
