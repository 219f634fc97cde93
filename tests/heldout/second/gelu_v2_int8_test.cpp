// Held-out set 2, kernel 2: dequantize int8 activations (x * scale) and apply FastGeluV2, output in
// half (default and high-precision mode) or float.
//
// Names and the source each use follows:
// - FasterGeluV2<T, highPrecision, highPerformance>(dst, src, dataSize), framework-reserved
//   scratch: asc-devkit docs 高阶API/激活函数/Gelu接口/FasterGeluV2.md. The reference formula is
//   the one that page shows as an image, written out in asc-devkit impl/adv_api/detail/activation/
//   gelu/gelu_impl.h comments: x * (sgn(x) * (-0.1444 * (min(|0.7071 x|, 1.769) - 1.769)^2 + 0.5)
//   + 0.5).
// - Cast int8_t -> half (CAST_NONE) and half -> float (CAST_NONE): docs 基础API/Memory矢量计算/
//   类型转换/Cast.md, the A2 table.
// - float16_t as the spelling of half: issue #20's name list / asc-devkit kernel_type headers.
// - DataCopyPad with int8_t (32 B-unaligned byte counts): docs DataCopyPad.
#include "heldout_util.h"

namespace h2_gelu {

struct GeluV2Tiling {
  uint32_t totalLength;
  uint32_t blockLength;
  uint32_t tileLength;  // a multiple of 32 so int8 tiles stay 32 B aligned
  float scale;
};

template <typename T, bool HP>
class KernelGeluV2Int8 {
 public:
  __aicore__ inline KernelGeluV2Int8() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GeluV2Tiling& t) {
    const uint32_t start = AscendC::GetBlockIdx() * t.blockLength;
    len_ = start >= t.totalLength ? 0 : AscendC::Std::min(t.blockLength, t.totalLength - start);
    tile_ = t.tileLength;
    scale_ = static_cast<float16_t>(t.scale);
    xGm_.SetGlobalBuffer((__gm__ int8_t*)x + start, len_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + start, len_);
    pipe_.InitBuffer(inQ_, 2, tile_ * sizeof(int8_t));
    pipe_.InitBuffer(outQ_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(halfBuf_, tile_ * sizeof(float16_t));
    pipe_.InitBuffer(tBuf_, tile_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < len_; off += tile_) {
      const uint32_t n = AscendC::Std::min(tile_, len_ - off);
      CopyIn(off, n);
      Compute(n);
      CopyOut(off, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<int8_t> xl = inQ_.AllocTensor<int8_t>();
    AscendC::DataCopyPad(xl, xGm_[off], {1, n, 0, 0, 0}, {false, 0, 0, 0});
    inQ_.EnQue(xl);
  }
  __aicore__ inline void Compute(uint32_t n) {
    AscendC::LocalTensor<int8_t> xl = inQ_.DeQue<int8_t>();
    AscendC::LocalTensor<T> yl = outQ_.AllocTensor<T>();
    AscendC::LocalTensor<float16_t> xh = halfBuf_.Get<float16_t>();
    AscendC::Cast(xh, xl, AscendC::RoundMode::CAST_NONE, n);
    AscendC::Muls(xh, xh, scale_, n);
    if constexpr (AscendC::IsSameType<T, float16_t>::value) {
      AscendC::FasterGeluV2<T, HP, false>(yl, xh, n);
    } else {
      AscendC::LocalTensor<T> xt = tBuf_.Get<T>();
      AscendC::Cast(xt, xh, AscendC::RoundMode::CAST_NONE, n);
      AscendC::FasterGeluV2<T, HP, false>(yl, xt, n);
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
  AscendC::TBuf<AscendC::TPosition::VECCALC> halfBuf_, tBuf_;
  AscendC::GlobalTensor<int8_t> xGm_;
  AscendC::GlobalTensor<T> yGm_;
  uint32_t len_ = 0, tile_ = 0;
  float16_t scale_;
};

}  // namespace h2_gelu

#define H2_GELU_ENTRY(NAME, T, HP)                                                          \
  extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,        \
                                             GM_ADDR tiling) {                               \
    (void)workspace;                                                                         \
    REGISTER_TILING_DEFAULT(h2_gelu::GeluV2Tiling);                                          \
    GET_TILING_DATA(t, tiling);                                                              \
    h2_gelu::KernelGeluV2Int8<T, HP> op;                                                     \
    op.Init(x, y, t);                                                                        \
    op.Process();                                                                            \
  }
H2_GELU_ENTRY(h2_gelu_v2_int8_half, float16_t, false)
H2_GELU_ENTRY(h2_gelu_v2_int8_half_hp, float16_t, true)
H2_GELU_ENTRY(h2_gelu_v2_int8_float, float32_t, false)

namespace {

using heldout::GmBuf;

double GeluV2(double x) {
  const double c = std::min(std::fabs(0.7071 * x), 1.769) - 1.769;
  const double x1 = -0.1444 * c * c + 0.5;
  const double sgn = x > 0 ? 1.0 : -1.0;
  return x * (sgn * x1 + 0.5);
}

template <class T>
void RunGeluV2(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t total,
               uint32_t blockDim, float scale, double atol, double rtol) {
  // Nonzero int8 values: the sign term is (x + 1e-12) / |x + 1e-12|, which half cannot hold at 0.
  std::mt19937 gen(total + blockDim);
  std::uniform_int_distribution<int> d(-127, 126);
  std::vector<int8_t> x(total);
  for (auto& v : x) {
    const int r = d(gen);
    v = static_cast<int8_t>(r >= 0 ? r + 1 : r);
  }
  GmBuf gx(total), gy(total * sizeof(T)), ws(64), tiling(sizeof(h2_gelu::GeluV2Tiling));
  heldout::Upload(gx, x);
  *tiling.as<h2_gelu::GeluV2Tiling>() = {total, (total + blockDim - 1) / blockDim, 96, scale};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), ws.get(), tiling.get());
  std::vector<double> want(total);
  const double s = heldout::ToDouble(heldout::FromDouble<half>(scale));
  for (uint32_t i = 0; i < total; ++i) {
    // The dequantized value is rounded to half by the kernel (Muls in half), so is the reference.
    want[i] = GeluV2(heldout::ToDouble(heldout::FromDouble<half>(x[i] * s)));
  }
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gy, total), want, atol, rtol))
      << "total " << total << " blockDim " << blockDim;
}

// Tolerances: FastGeluV2 is about eight vector steps (Muls, Abs, Mins, Adds, Mul, Muls, Adds,
// Div, Mul, Adds, Mul); in half each rounds by 2^-11 relative on values up to ~|x|, so ~1e-2
// absolute on |x| <= 6.4 plus 1e-2 relative; in float the same chain stays below 1e-5.
TEST(Heldout2GeluV2Int8, HalfDefaultAndHighPrecision) {
  for (uint32_t total : {33u, 1000u, 3001u}) {
    RunGeluV2<half>(h2_gelu_v2_int8_half, total, 3, 0.05f, 1e-2, 1e-2);
    RunGeluV2<half>(h2_gelu_v2_int8_half_hp, total, 4, 0.05f, 1e-2, 1e-2);
  }
}

TEST(Heldout2GeluV2Int8, FloatOnOddSplits) {
  for (uint32_t total : {1u, 777u, 2049u}) {
    RunGeluV2<float>(h2_gelu_v2_int8_float, total, 6, 0.03f, 1e-5, 1e-5);
  }
}

}  // namespace
