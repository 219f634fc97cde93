// Held-out kernel 13: z = x * y + x written in the static-tensor style (no TPipe, no queues):
// UB carved by LocalMemAllocator<Hardware::UB>, one tensor made with the LocalTensor(TPosition,
// addr, tileSize) constructor at the allocator's current address, pipes ordered by hand with
// SetFlag/WaitFlag, tile sizes rounded with AlignUp.
//
// Names and the source each use follows:
// - LocalMemAllocator<AscendC::Hardware::UB>, Alloc<TPosition, T>(tileSize), GetCurAddr(): asc-devkit
//   docs 基础API/资源管理/LocalMemAllocator/{LocalMemAllocator简介,Alloc,GetCurAddr-72}.md
//   ("不可以与TPipe等接口混用").
// - LocalTensor<T>(TPosition pos, uint32_t addr, uint32_t tileSize) (addr in bytes, tileSize in
//   elements): docs 数据结构/LocalTensor/LocalTensor构造函数.md.
// - SetFlag/WaitFlag<HardEvent::MTE2_V / V_MTE3 / MTE3_MTE2> with EVENT_ID0: docs 同步控制/核内同步.
// - AscendC::AlignUp(a, b): asc-devkit impl/basic_api/utils/kernel_utils_ceil_oom_que.h.
// - GET_TILING_DATA_WITH_STRUCT: docs Kernel-Tiling.
#include "heldout_util.h"

namespace heldout_static {

struct StaticTiling {
  uint32_t totalLength;
  uint32_t tileLength;
};

template <typename T>
__aicore__ inline void StaticFma(GM_ADDR x, GM_ADDR y, GM_ADDR z, const StaticTiling& t) {
  const uint32_t per = (t.totalLength + AscendC::GetBlockNum() - 1) / AscendC::GetBlockNum();
  const uint32_t start = AscendC::GetBlockIdx() * per;
  if (start >= t.totalLength) return;
  const uint32_t len = t.totalLength - start < per ? t.totalLength - start : per;
  AscendC::GlobalTensor<T> xGm, yGm, zGm;
  xGm.SetGlobalBuffer((__gm__ T*)x + start, len);
  yGm.SetGlobalBuffer((__gm__ T*)y + start, len);
  zGm.SetGlobalBuffer((__gm__ T*)z + start, len);

  const uint32_t tile = AscendC::AlignUp(t.tileLength, 32 / sizeof(T));
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  AscendC::LocalTensor<T> xL = ub.Alloc<AscendC::TPosition::VECIN, T>(tile);
  AscendC::LocalTensor<T> yL = ub.Alloc<AscendC::TPosition::VECIN, T>(tile);
  AscendC::LocalTensor<T> zL(AscendC::TPosition::VECOUT, ub.GetCurAddr(), tile);

  for (uint32_t off = 0; off < len; off += tile) {
    const uint32_t n = len - off < tile ? len - off : tile;
    AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(xL, xGm[off], p, {false, 0, 0, 0});
    AscendC::DataCopyPad(yL, yGm[off], p, {false, 0, 0, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Mul(zL, xL, yL, n);
    AscendC::Add(zL, zL, xL, n);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopyPad(zGm[off], zL, p);
    // The next tile's copy-in overwrites xL/yL (read by V, already waited) and its compute
    // overwrites zL, which MTE3 is reading: wait for the copy-out first.
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
  }
}

}  // namespace heldout_static

extern "C" __global__ __aicore__ void heldout_static_half(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                          GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_static::StaticTiling);
  GET_TILING_DATA_WITH_STRUCT(heldout_static::StaticTiling, t, tiling);
  heldout_static::StaticFma<half>(x, y, z, t);
}

extern "C" __global__ __aicore__ void heldout_static_float(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                           GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_static::StaticTiling);
  GET_TILING_DATA_WITH_STRUCT(heldout_static::StaticTiling, t, tiling);
  heldout_static::StaticFma<float>(x, y, z, t);
}

namespace {

using heldout::GmBuf;

template <class T>
void RunStatic(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t total,
               uint32_t blockDim, uint32_t tile) {
  const auto x = heldout::Random<T>(total, -3, 3, total * 2 + 1);
  const auto y = heldout::Random<T>(total, -3, 3, total * 2 + 2);
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), gz(total * sizeof(T)), ws(1024),
      tiling(sizeof(heldout_static::StaticTiling));
  heldout::Upload(gx, x);
  heldout::Upload(gy, y);
  *tiling.as<heldout_static::StaticTiling>() = {total, tile};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), gz.get(), ws.get(), tiling.get());
  std::vector<double> want(total);
  for (uint32_t i = 0; i < total; ++i) {
    const double xv = heldout::ToDouble(x[i]);
    // x*y rounds to T before the add.
    want[i] = heldout::ToDouble(heldout::FromDouble<T>(xv * heldout::ToDouble(y[i]))) + xv;
  }
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gz, total), want, heldout::Tol<T>::kAbs,
                            heldout::Tol<T>::kRel))
      << "total " << total << " tile " << tile;
}

TEST(HeldoutStaticTensor, LocalMemAllocatorAndStaticCtorHalfAndFloat) {
  RunStatic<half>(heldout_static_half, 2001, 3, 250);  // 250 rounds up to 256
  RunStatic<float>(heldout_static_float, 999, 4, 100);  // 100 rounds up to 104
}

}  // namespace
