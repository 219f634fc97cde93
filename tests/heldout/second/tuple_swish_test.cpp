// Held-out set 2, kernel 7: y = swish_beta(x) + |c|, with the local tensors of a stage carried in an
// AscendC::Std::tuple and the scalar prepared with AscendC::Std helpers.
//
// Names and the source each use follows:
// - Swish<T>(dst, src, dataSize, scalarValue) (beta last): asc-devkit docs 高阶API/激活函数/
//   Swish接口/Swish.md; swish_beta(x) = x / (1 + exp(-beta x)).
// - AscendC::Std::make_tuple, AscendC::Std::tuple, AscendC::Std::get<N>, AscendC::Std::tuple_size:
//   docs Utils-API/CPP标准库/容器函数/tuple.md, make_tuple.md, get1.md (the page's example carries
//   LocalTensors in a tuple).
// - AscendC::Std::abs (float), AscendC::Std::max: docs .../数学函数/abs1.md, 算法/max-267.md.
#include "heldout_util.h"

namespace h2_tuple {

struct SwishTiling {
  uint32_t totalLength;
  uint32_t blockLength;
  uint32_t tileLength;
  float beta;
  float c;
};

template <typename T>
class KernelTupleSwish {
 public:
  __aicore__ inline KernelTupleSwish() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SwishTiling& t) {
    const uint32_t start = AscendC::GetBlockIdx() * t.blockLength;
    len_ = start >= t.totalLength ? 0 : AscendC::Std::min(t.blockLength, t.totalLength - start);
    tile_ = AscendC::Std::max(t.tileLength, 16u);
    beta_ = static_cast<T>(t.beta);
    bias_ = static_cast<T>(AscendC::Std::abs(t.c));
    xGm_.SetGlobalBuffer((__gm__ T*)x + start, len_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + start, len_);
    pipe_.InitBuffer(inQ_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(outQ_, 2, tile_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < len_; off += tile_) {
      const uint32_t n = AscendC::Std::min(tile_, len_ - off);
      AscendC::LocalTensor<T> xl = inQ_.AllocTensor<T>();
      AscendC::DataCopyPad(xl, xGm_[off], {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                           {false, 0, 0, 0});
      inQ_.EnQue(xl);
      auto stage = AscendC::Std::make_tuple(inQ_.DeQue<T>(), outQ_.AllocTensor<T>());
      static_assert(AscendC::Std::tuple_size<decltype(stage)>::value == 2, "two tensors");
      Compute(stage, n);
      outQ_.EnQue(AscendC::Std::get<1>(stage));
      inQ_.FreeTensor(AscendC::Std::get<0>(stage));
      AscendC::LocalTensor<T> yl = outQ_.DeQue<T>();
      AscendC::DataCopyPad(yGm_[off], yl, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
      outQ_.FreeTensor(yl);
    }
  }

 private:
  __aicore__ inline void Compute(
      AscendC::Std::tuple<AscendC::LocalTensor<T>, AscendC::LocalTensor<T>>& stage, uint32_t n) {
    AscendC::LocalTensor<T> xl = AscendC::Std::get<0>(stage);
    AscendC::LocalTensor<T> yl = AscendC::Std::get<1>(stage);
    AscendC::Swish<T>(yl, xl, n, beta_);
    AscendC::Adds(yl, yl, bias_, n);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQ_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
  uint32_t len_ = 0, tile_ = 0;
  T beta_, bias_;
};

}  // namespace h2_tuple

#define H2_TUPLE_ENTRY(NAME, T)                                                             \
  extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,        \
                                             GM_ADDR tiling) {                               \
    (void)workspace;                                                                         \
    REGISTER_TILING_DEFAULT(h2_tuple::SwishTiling);                                          \
    GET_TILING_DATA(t, tiling);                                                              \
    h2_tuple::KernelTupleSwish<T> op;                                                        \
    op.Init(x, y, t);                                                                        \
    op.Process();                                                                            \
  }
H2_TUPLE_ENTRY(h2_tuple_swish_half, half)
H2_TUPLE_ENTRY(h2_tuple_swish_float, float)

namespace {

using heldout::GmBuf;

template <class T>
void RunSwish(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), uint32_t total,
              uint32_t blockDim, float beta, float c, double atol, double rtol) {
  const auto x = heldout::Random<T>(total, -6, 6, 13 * total + blockDim);
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), ws(64), tiling(sizeof(h2_tuple::SwishTiling));
  heldout::Upload(gx, x);
  *tiling.as<h2_tuple::SwishTiling>() = {total, (total + blockDim - 1) / blockDim, 144, beta, c};
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), ws.get(), tiling.get());
  const double b = heldout::ToDouble(heldout::FromDouble<T>(beta));
  const double bias = heldout::ToDouble(heldout::FromDouble<T>(std::fabs(c)));
  std::vector<double> want(total);
  for (uint32_t i = 0; i < total; ++i) {
    const double v = heldout::ToDouble(x[i]);
    want[i] = v / (1.0 + std::exp(-b * v)) + bias;
  }
  EXPECT_TRUE(heldout::Near(heldout::Download<T>(gy, total), want, atol, rtol))
      << "total " << total << " blockDim " << blockDim;
}

// Tolerances: swish evaluated in T (exp, add, divide) then one add: ~1e-2 in half on |y| <= 7,
// ~1e-5 in float, as the first set holds its exp-class APIs.
TEST(Heldout2TupleSwish, HalfOnOddSplits) {
  for (uint32_t total : {17u, 1000u, 2301u}) {
    RunSwish<half>(h2_tuple_swish_half, total, 3, 1.5f, -0.25f, 1e-2, 1e-2);
  }
}

TEST(Heldout2TupleSwish, FloatOnOddSplits) {
  for (uint32_t total : {1u, 999u, 4097u}) {
    RunSwish<float>(h2_tuple_swish_float, total, 4, 0.7f, 2.5f, 1e-5, 1e-5);
  }
}

}  // namespace
