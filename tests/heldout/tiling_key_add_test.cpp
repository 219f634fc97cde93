// Held-out kernel 1: an elementwise operator whose host tiling picks one of two kernel branches by
// tiling key, each with its own tiling struct, split over cores the way production operators split
// ("former" cores take one element more than "tail" cores).
//
// Names and the source each use follows:
// - REGISTER_TILING_DEFAULT, REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 2", ...),
//   TILING_KEY_IS, GET_TILING_DATA, GET_TILING_DATA_WITH_STRUCT, GET_TILING_DATA_MEMBER,
//   GET_TILING_DATA_PTR_WITH_STRUCT: asc-devkit docs/zh/api/SIMD-API/基础API/Kernel-Tiling/
//   (REGISTER_TILING_FOR_TILINGKEY.md's example: default struct + one struct per key range, the
//   GET_TILING_DATA_WITH_STRUCT branch per TILING_KEY_IS).
// - ICPU_SET_TILING_KEY before ICPU_RUN_KF: docs .../调试接口/CPU孪生调试/ICPU_SET_TILING_KEY.md.
// - IsSameType<T, half>::value to compute half inputs in float (Cast CAST_NONE up, CAST_ROUND
//   down): the pattern of ops-nn/ops-math kernels (e.g. hicann ops-math grouped_bias_add_grad's
//   PromoteDataT).
// - likely/unlikely around the tail tile: production kernels' branch hints (issue #20 item 2).
// - DataCopyPad with DataCopyExtParams / DataCopyPadExtParams for the unaligned tail: docs
//   基础API/Memory矢量计算/数据搬运/DataCopyPad(GMToUB|UBToGM).
#include "heldout_util.h"

namespace heldout_add {

// Key 1: z = x + y.
struct AddTiling {
  uint32_t totalLength;
  uint32_t formerNum;     // cores that take formerLength elements
  uint32_t formerLength;
  uint32_t tailLength;    // the others take tailLength
  uint32_t tileLength;    // elements per UB tile
};
// Key 2: z = alpha * x + y, with the same split and a scale.
struct AxpyTiling {
  uint32_t totalLength;
  uint32_t formerNum;
  uint32_t formerLength;
  uint32_t tailLength;
  uint32_t tileLength;
  float alpha;
};

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAxpy {
 public:
  __aicore__ inline KernelAxpy() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t formerNum,
                              uint32_t formerLength, uint32_t tailLength, uint32_t tileLength,
                              float alpha) {
    const uint32_t idx = AscendC::GetBlockIdx();
    uint32_t offset;
    if (idx < formerNum) {
      blockLength_ = formerLength;
      offset = idx * formerLength;
    } else {
      blockLength_ = tailLength;
      offset = formerNum * formerLength + (idx - formerNum) * tailLength;
    }
    tileLength_ = tileLength;
    alpha_ = alpha;
    xGm_.SetGlobalBuffer((__gm__ T*)x + offset, blockLength_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + offset, blockLength_);
    zGm_.SetGlobalBuffer((__gm__ T*)z + offset, blockLength_);
    pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(T));
    pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(T));
    pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(T));
    if constexpr (AscendC::IsSameType<T, half>::value) {
      pipe_.InitBuffer(calcBuf_, 3 * tileLength_ * sizeof(float));
    }
  }
  __aicore__ inline void Process() {
    const uint32_t fullTiles = blockLength_ / tileLength_;
    const uint32_t tail = blockLength_ % tileLength_;
    for (uint32_t i = 0; i < fullTiles; ++i) {
      CopyIn(i * tileLength_, tileLength_);
      Compute(tileLength_);
      CopyOut(i * tileLength_, tileLength_);
    }
    if (unlikely(tail > 0)) {
      CopyIn(fullTiles * tileLength_, tail);
      Compute(tail);
      CopyOut(fullTiles * tileLength_, tail);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t offset, uint32_t count) {
    AscendC::LocalTensor<T> xLocal = inQueueX_.AllocTensor<T>();
    AscendC::LocalTensor<T> yLocal = inQueueY_.AllocTensor<T>();
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    AscendC::DataCopyPad(xLocal, xGm_[offset], params, pad);
    AscendC::DataCopyPad(yLocal, yGm_[offset], params, pad);
    inQueueX_.EnQue(xLocal);
    inQueueY_.EnQue(yLocal);
  }
  __aicore__ inline void Compute(uint32_t count) {
    AscendC::LocalTensor<T> xLocal = inQueueX_.DeQue<T>();
    AscendC::LocalTensor<T> yLocal = inQueueY_.DeQue<T>();
    AscendC::LocalTensor<T> zLocal = outQueueZ_.AllocTensor<T>();
    if constexpr (AscendC::IsSameType<T, half>::value) {
      AscendC::LocalTensor<float> xf = calcBuf_.Get<float>();
      AscendC::LocalTensor<float> yf = xf[tileLength_];
      AscendC::LocalTensor<float> zf = xf[2 * tileLength_];
      AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, count);
      AscendC::Cast(yf, yLocal, AscendC::RoundMode::CAST_NONE, count);
      if (likely(alpha_ != 1.0f)) {
        AscendC::Muls(xf, xf, alpha_, count);
      }
      AscendC::Add(zf, xf, yf, count);
      AscendC::Cast(zLocal, zf, AscendC::RoundMode::CAST_ROUND, count);
    } else {
      if (likely(alpha_ != 1.0f)) {
        AscendC::Muls(xLocal, xLocal, static_cast<T>(alpha_), count);
      }
      AscendC::Add(zLocal, xLocal, yLocal, count);
    }
    outQueueZ_.EnQue<T>(zLocal);
    inQueueX_.FreeTensor(xLocal);
    inQueueY_.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t offset, uint32_t count) {
    AscendC::LocalTensor<T> zLocal = outQueueZ_.DeQue<T>();
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(zGm_[offset], zLocal, params);
    outQueueZ_.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX_, inQueueY_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> calcBuf_;
  AscendC::GlobalTensor<T> xGm_, yGm_, zGm_;
  uint32_t blockLength_ = 0;
  uint32_t tileLength_ = 0;
  float alpha_ = 1.0f;
};

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t formerNum,
                           uint32_t formerLength, uint32_t tailLength, uint32_t tileLength,
                           float alpha) {
  KernelAxpy<T> op;
  op.Init(x, y, z, formerNum, formerLength, tailLength, tileLength, alpha);
  op.Process();
}

}  // namespace heldout_add

extern "C" __global__ __aicore__ void heldout_axpy_half(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                        GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_add::AddTiling);
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 2", heldout_add::AxpyTiling);
  if (TILING_KEY_IS(1)) {
    GET_TILING_DATA(t, tiling);
    heldout_add::Run<half>(x, y, z, t.formerNum, t.formerLength, t.tailLength, t.tileLength, 1.0f);
  } else if (TILING_KEY_IS(2)) {
    GET_TILING_DATA_WITH_STRUCT(heldout_add::AxpyTiling, t, tiling);
    GET_TILING_DATA_MEMBER(heldout_add::AxpyTiling, alpha, alpha, tiling);
    GET_TILING_DATA_PTR_WITH_STRUCT(heldout_add::AxpyTiling, tp, tiling);
    heldout_add::Run<half>(x, y, z, t.formerNum, t.formerLength, tp->tailLength, tp->tileLength,
                           alpha);
  }
}

extern "C" __global__ __aicore__ void heldout_axpy_float(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                         GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(heldout_add::AddTiling);
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 2", heldout_add::AxpyTiling);
  if (TILING_KEY_IS(1)) {
    GET_TILING_DATA(t, tiling);
    heldout_add::Run<float>(x, y, z, t.formerNum, t.formerLength, t.tailLength, t.tileLength, 1.0f);
  } else if (TILING_KEY_IS(2)) {
    GET_TILING_DATA_WITH_STRUCT(heldout_add::AxpyTiling, t, tiling);
    GET_TILING_DATA_MEMBER(heldout_add::AxpyTiling, alpha, alpha, tiling);
    GET_TILING_DATA_PTR_WITH_STRUCT(heldout_add::AxpyTiling, tp, tiling);
    heldout_add::Run<float>(x, y, z, t.formerNum, t.formerLength, tp->tailLength, tp->tileLength,
                           alpha);
  }
}

namespace {

using heldout::GmBuf;

// The host tiling: blockDim cores, the first total % blockDim take one element more.
template <class Tiling>
Tiling Split(uint32_t total, uint32_t blockDim, uint32_t tile) {
  Tiling t{};
  t.totalLength = total;
  t.formerNum = total % blockDim;
  t.tailLength = total / blockDim;
  t.formerLength = t.tailLength + 1;
  t.tileLength = tile;
  return t;
}

template <class T>
void RunCase(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint64_t key,
             uint32_t total, uint32_t blockDim, float alpha) {
  const auto x = heldout::Random<T>(total, -4, 4, 11 + total);
  const auto y = heldout::Random<T>(total, -4, 4, 97 + total);
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), gz(total * sizeof(T)), ws(1024);
  heldout::Upload(gx, x);
  heldout::Upload(gy, y);
  std::vector<double> want(total);
  if (key == 1) {
    GmBuf tiling(sizeof(heldout_add::AddTiling));
    *tiling.as<heldout_add::AddTiling>() = Split<heldout_add::AddTiling>(total, blockDim, 256);
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), gz.get(), ws.get(), tiling.get());
    for (uint32_t i = 0; i < total; ++i) want[i] = heldout::ToDouble(x[i]) + heldout::ToDouble(y[i]);
  } else {
    GmBuf tiling(sizeof(heldout_add::AxpyTiling));
    auto t = Split<heldout_add::AxpyTiling>(total, blockDim, 256);
    t.alpha = alpha;
    *tiling.as<heldout_add::AxpyTiling>() = t;
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), gz.get(), ws.get(), tiling.get());
    for (uint32_t i = 0; i < total; ++i) {
      // float kernels scale in T; half kernels promote to float first.
      want[i] = static_cast<double>(alpha) * heldout::ToDouble(x[i]) + heldout::ToDouble(y[i]);
    }
  }
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gz, total), want, heldout::Tol<T>::kAbs,
                            heldout::Tol<T>::kRel))
      << "key " << key << " total " << total << " blockDim " << blockDim;
}

TEST(HeldoutTilingKeyAdd, KeyOneAddsHalfAndFloatOnOddSplits) {
  for (uint32_t total : {1u, 37u, 1000u, 4099u}) {
    RunCase<half>(heldout_axpy_half, 1, total, 3, 1.0f);
    RunCase<float>(heldout_axpy_float, 1, total, 5, 1.0f);
  }
}

TEST(HeldoutTilingKeyAdd, KeyTwoReadsItsOwnStructAndScales) {
  for (uint32_t total : {9u, 777u, 2053u}) {
    RunCase<half>(heldout_axpy_half, 2, total, 4, -1.75f);
    RunCase<float>(heldout_axpy_float, 2, total, 7, 0.3f);
  }
}

}  // namespace
