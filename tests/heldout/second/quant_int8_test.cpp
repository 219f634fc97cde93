// Held-out set 2, kernel 8: symmetric int8 quantization and its dequantization,
// q = rint(x / s) (through half), d = q * s, from half or float input.
//
// Names and the source each use follows:
// - Cast float -> half (CAST_NONE), half -> int8_t (CAST_RINT: round half to even), int8_t -> half
//   (CAST_NONE), half -> float (CAST_NONE): asc-devkit docs 基础API/Memory矢量计算/类型转换/
//   Cast.md, the A2 table of conversions and their round modes.
// - Muls in half and float: docs 标量双目/Muls.
// - TBuf::Get<int8_t> / Get<half> sub-views and DataCopyPad of int8_t with a byte count that is not a
//   multiple of 32: docs TBuf/Get.md, DataCopyPad.
#include "heldout_util.h"

namespace h2_quant {

struct QuantTiling {
  uint32_t totalLength;
  uint32_t blockLength;
  uint32_t tileLength;  // a multiple of 32
  float invScale;
  float scale;
};

template <typename T>
class KernelQuant {
 public:
  __aicore__ inline KernelQuant() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR q, GM_ADDR d, const QuantTiling& t) {
    const uint32_t start = AscendC::GetBlockIdx() * t.blockLength;
    len_ = start >= t.totalLength ? 0 : AscendC::Std::min(t.blockLength, t.totalLength - start);
    tile_ = t.tileLength;
    invScale_ = t.invScale;
    scale_ = t.scale;
    xGm_.SetGlobalBuffer((__gm__ T*)x + start, len_);
    qGm_.SetGlobalBuffer((__gm__ int8_t*)q + start, len_);
    dGm_.SetGlobalBuffer((__gm__ T*)d + start, len_);
    pipe_.InitBuffer(inQ_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(qQ_, 2, tile_ * sizeof(int8_t));
    pipe_.InitBuffer(dQ_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(halfBuf_, 2 * tile_ * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < len_; off += tile_) {
      const uint32_t n = AscendC::Std::min(tile_, len_ - off);
      AscendC::LocalTensor<T> xl = inQ_.AllocTensor<T>();
      AscendC::DataCopyPad(xl, xGm_[off], {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                           {false, 0, 0, 0});
      inQ_.EnQue(xl);
      Compute(n);
      CopyOut(off, n);
    }
  }

 private:
  __aicore__ inline void Compute(uint32_t n) {
    AscendC::LocalTensor<T> xl = inQ_.DeQue<T>();
    AscendC::LocalTensor<int8_t> ql = qQ_.AllocTensor<int8_t>();
    AscendC::LocalTensor<T> dl = dQ_.AllocTensor<T>();
    AscendC::LocalTensor<half> h = halfBuf_.Get<half>();
    AscendC::LocalTensor<half> h2 = h[tile_];
    if constexpr (AscendC::IsSameType<T, half>::value) {
      AscendC::Muls(h, xl, static_cast<half>(invScale_), n);
    } else {
      AscendC::Muls(xl, xl, invScale_, n);
      AscendC::Cast(h, xl, AscendC::RoundMode::CAST_NONE, n);
    }
    AscendC::Cast(ql, h, AscendC::RoundMode::CAST_RINT, n);
    AscendC::Cast(h2, ql, AscendC::RoundMode::CAST_NONE, n);
    if constexpr (AscendC::IsSameType<T, half>::value) {
      AscendC::Muls(dl, h2, static_cast<half>(scale_), n);
    } else {
      AscendC::Cast(dl, h2, AscendC::RoundMode::CAST_NONE, n);
      AscendC::Muls(dl, dl, scale_, n);
    }
    qQ_.EnQue(ql);
    dQ_.EnQue(dl);
    inQ_.FreeTensor(xl);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<int8_t> ql = qQ_.DeQue<int8_t>();
    AscendC::LocalTensor<T> dl = dQ_.DeQue<T>();
    AscendC::DataCopyPad(qGm_[off], ql, {1, n, 0, 0, 0});
    AscendC::DataCopyPad(dGm_[off], dl, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    qQ_.FreeTensor(ql);
    dQ_.FreeTensor(dl);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> qQ_, dQ_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> halfBuf_;
  AscendC::GlobalTensor<T> xGm_, dGm_;
  AscendC::GlobalTensor<int8_t> qGm_;
  uint32_t len_ = 0, tile_ = 0;
  float invScale_ = 1, scale_ = 1;
};

}  // namespace h2_quant

#define H2_QUANT_ENTRY(NAME, T)                                                             \
  extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR q, GM_ADDR d,                \
                                             GM_ADDR workspace, GM_ADDR tiling) {            \
    (void)workspace;                                                                         \
    REGISTER_TILING_DEFAULT(h2_quant::QuantTiling);                                          \
    GET_TILING_DATA(t, tiling);                                                              \
    h2_quant::KernelQuant<T> op;                                                             \
    op.Init(x, q, d, t);                                                                     \
    op.Process();                                                                            \
  }
H2_QUANT_ENTRY(h2_quant_half, half)
H2_QUANT_ENTRY(h2_quant_float, float)

namespace {

using heldout::GmBuf;

template <class T>
void RunQuant(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t total,
              uint32_t blockDim) {
  // s = 1/16 and 1/s = 16 are exact in half and float, so x / s rounds only where T cannot hold
  // 16 x (never for |x| < 7.9) and the half of a float x * 16 rounds once; q is then rint of
  // that half, d = q / 16 exact.
  const float s = 0.0625f, inv = 16.0f;
  const auto x = heldout::Random<T>(total, -7.9, 7.9, 21 * total + blockDim);
  GmBuf gx(total * sizeof(T)), gq(total), gd(total * sizeof(T)), ws(64),
      tiling(sizeof(h2_quant::QuantTiling));
  heldout::Upload(gx, x);
  *tiling.as<h2_quant::QuantTiling>() = {total, (total + blockDim - 1) / blockDim, 224, inv, s};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gq.get(), gd.get(), ws.get(), tiling.get());
  const auto q = heldout::Download<int8_t>(gq, total);
  const auto d = heldout::Download<T>(gd, total);
  size_t bad = 0;
  for (uint32_t i = 0; i < total; ++i) {
    const double h = heldout::ToDouble(heldout::FromDouble<half>(heldout::ToDouble(x[i]) * inv));
    const int wantQ = static_cast<int>(std::nearbyint(h));  // default rounding: half to even
    const double wantD = wantQ * static_cast<double>(s);
    if ((q[i] != wantQ || heldout::ToDouble(d[i]) != wantD) && bad++ == 0) {
      ADD_FAILURE() << "at " << i << " x " << heldout::ToDouble(x[i]) << ": q " << int(q[i])
                    << " (want " << wantQ << "), d " << heldout::ToDouble(d[i]) << " (want "
                    << wantD << ")";
    }
  }
  EXPECT_EQ(bad, 0u) << "total " << total << " blockDim " << blockDim;
}

TEST(Heldout2QuantInt8, HalfOnOddSplits) {
  for (uint32_t total : {5u, 1003u, 2500u}) RunQuant<half>(h2_quant_half, total, 3);
}

TEST(Heldout2QuantInt8, FloatOnOddSplits) {
  for (uint32_t total : {1u, 641u, 3333u}) RunQuant<float>(h2_quant_float, total, 5);
}

}  // namespace
