// Held-out set 2, kernel 4: one entry, three tiling keys (10: y = max(x, a), 20: y = min(x, a),
// 30: y = x + a), int32 and float, an AIV-only kernel that returns on AIC and takes its core count
// from GetBlockNum.
//
// Names and the source each use follows:
// - TILING_KEY_IS across several keys, REGISTER_TILING_DEFAULT + GET_TILING_DATA in the entry:
//   asc-devkit docs SIMD-API/基础API/Kernel-Tiling/TILING_KEY_IS.md, GET_TILING_DATA.md.
// - KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY): docs .../Kernel-Tiling/设置Kernel类型.md.
// - `if ASCEND_IS_AIC { return; }` and `g_coreType == AscendC::AIV`: asc-devkit impl/utils/
//   sys_macros.h (ASCEND_IS_AIV / ASCEND_IS_AIC defined on g_coreType) and its use in
//   include/basic_api/kernel_common.h.
// - GetBlockNum: docs 基础API/工具接口/系统资源与变量/GetBlockNum.md.
// - Maxs / Mins / Adds on int32_t and float: docs 基础API/Memory矢量计算/标量双目.
// - ICPU_SET_TILING_KEY, SetKernelMode(KernelMode::AIV_MODE): docs 调试接口/CPU孪生调试.
#include "heldout_util.h"

namespace h2_keys {

struct KeysTiling {
  uint32_t totalLength;
  uint32_t tileLength;
  float a;
};

template <typename T, uint32_t KEY>
class KernelKeys {
 public:
  __aicore__ inline KernelKeys() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const KeysTiling& t) {
    // The host launches as many cores as it likes; the split is read back on the device.
    const uint32_t blocks = AscendC::GetBlockNum();
    const uint32_t per = (t.totalLength + blocks - 1) / blocks;
    const uint32_t start = AscendC::GetBlockIdx() * per;
    len_ = start >= t.totalLength ? 0 : AscendC::Std::min(per, t.totalLength - start);
    tile_ = t.tileLength;
    a_ = static_cast<T>(t.a);
    xGm_.SetGlobalBuffer((__gm__ T*)x + start, len_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + start, len_);
    pipe_.InitBuffer(inQ_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(outQ_, 2, tile_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    if (g_coreType != AscendC::AIV) {
      return;
    }
    for (uint32_t off = 0; off < len_; off += tile_) {
      const uint32_t n = AscendC::Std::min(tile_, len_ - off);
      CopyIn(off, n);
      Compute(n);
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
  __aicore__ inline void Compute(uint32_t n) {
    AscendC::LocalTensor<T> xl = inQ_.DeQue<T>();
    AscendC::LocalTensor<T> yl = outQ_.AllocTensor<T>();
    if constexpr (KEY == 10) {
      AscendC::Maxs(yl, xl, a_, n);
    } else if constexpr (KEY == 20) {
      AscendC::Mins(yl, xl, a_, n);
    } else {
      AscendC::Adds(yl, xl, a_, n);
    }
    outQ_.EnQue(yl);
    inQ_.FreeTensor(xl);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> yl = outQ_.DeQue<T>();
    AscendC::DataCopyPad(yGm_[off], yl, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    outQ_.FreeTensor(yl);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQ_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
  uint32_t len_ = 0, tile_ = 0;
  T a_;
};

template <typename T, uint32_t KEY>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y, const KeysTiling& t) {
  KernelKeys<T, KEY> op;
  op.Init(x, y, t);
  op.Process();
}

}  // namespace h2_keys

#define H2_KEYS_ENTRY(NAME, T)                                                              \
  extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,        \
                                             GM_ADDR tiling) {                               \
    (void)workspace;                                                                         \
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);                                          \
    if ASCEND_IS_AIC {                                                                       \
      return;                                                                                \
    }                                                                                        \
    REGISTER_TILING_DEFAULT(h2_keys::KeysTiling);                                            \
    GET_TILING_DATA(t, tiling);                                                              \
    if (TILING_KEY_IS(10)) {                                                                 \
      h2_keys::Run<T, 10>(x, y, t);                                                          \
    } else if (TILING_KEY_IS(20)) {                                                          \
      h2_keys::Run<T, 20>(x, y, t);                                                          \
    } else if (TILING_KEY_IS(30)) {                                                          \
      h2_keys::Run<T, 30>(x, y, t);                                                          \
    }                                                                                        \
  }
H2_KEYS_ENTRY(h2_keys_int32, int32_t)
H2_KEYS_ENTRY(h2_keys_float, float)

namespace {

using heldout::GmBuf;

template <class T>
void RunKeys(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint64_t key, uint32_t total,
             uint32_t blockDim, float a) {
  std::vector<T> x(total);
  std::mt19937 gen(key * 31 + total);
  std::uniform_int_distribution<int32_t> d(-5000, 5000);
  for (auto& v : x) v = static_cast<T>(d(gen)) / (std::is_same<T, float>::value ? T(4) : T(1));
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), ws(64), tiling(sizeof(h2_keys::KeysTiling));
  heldout::Upload(gx, x);
  *tiling.as<h2_keys::KeysTiling>() = {total, 72, a};
  ICPU_SET_TILING_KEY(key);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), ws.get(), tiling.get());
  // Max, min and the add of a value a quarter-integer below 2^13 are exact in int32 and float.
  const T at = static_cast<T>(a);
  std::vector<T> want(total);
  for (uint32_t i = 0; i < total; ++i) {
    want[i] = key == 10 ? std::max(x[i], at) : key == 20 ? std::min(x[i], at) : x[i] + at;
  }
  EXPECT_EQ(heldout::Download<T>(gy, total), want)
      << "key " << key << " total " << total << " blockDim " << blockDim;
}

TEST(Heldout2KeysAiv, Int32EveryKey) {
  for (uint64_t key : {10u, 20u, 30u}) {
    RunKeys<int32_t>(h2_keys_int32, key, 1013, 3, 17.0f);
    RunKeys<int32_t>(h2_keys_int32, key, 5, 8, -3.0f);
  }
}

TEST(Heldout2KeysAiv, FloatEveryKey) {
  for (uint64_t key : {10u, 20u, 30u}) RunKeys<float>(h2_keys_float, key, 2222, 7, 0.75f);
}

TEST(Heldout2KeysAiv, UnknownKeyLeavesOutputUntouched) {
  const uint32_t total = 64;
  GmBuf gx(total * sizeof(float)), gy(total * sizeof(float)), ws(64),
      tiling(sizeof(h2_keys::KeysTiling));
  heldout::Upload(gx, std::vector<float>(total, 5.0f));
  heldout::Upload(gy, std::vector<float>(total, -1.0f));
  *tiling.as<h2_keys::KeysTiling>() = {total, 72, 1.0f};
  ICPU_SET_TILING_KEY(40);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(h2_keys_float, 2, gx.get(), gy.get(), ws.get(), tiling.get());
  EXPECT_EQ(heldout::Download<float>(gy, total), std::vector<float>(total, -1.0f));
}

}  // namespace
