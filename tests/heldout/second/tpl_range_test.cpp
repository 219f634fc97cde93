// Held-out set 2, kernel 3: y = (NEG ? -1 : 1) * x * 2^SHIFT for int32 or float, the variant chosen
// by tiling-template arguments whose UINT parameter is declared in range mode, each variant's
// tiling key computed with GET_TPL_TILING_KEY and the kernel run as a lambda.
//
// Names and the source each use follows:
// - "ascendc/host_api/tiling/template_argument.h", ASCENDC_TPL_ARGS_DECL, ASCENDC_TPL_DATATYPE_DECL
//   (C_DT_INT32, C_DT_FLOAT), ASCENDC_TPL_UINT_DECL(SHIFT, bw, ASCENDC_TPL_UI_RANGE, 2, 0, 1, 3, 4)
//   (two ranges {0..1} and {3..4}), ASCENDC_TPL_BOOL_DECL, ASCENDC_TPL_SEL / ASCENDC_TPL_ARGS_SEL /
//   ASCENDC_TPL_UINT_SEL(..., ASCENDC_TPL_UI_RANGE, ...): asc-devkit docs Utils-API/Tiling模板编程/
//   模板参数定义.md (the range-mode example).
// - GET_TPL_TILING_KEY(values in declaration order): docs .../GET_TPL_TILING_KEY.md.
// - ICPU_SET_TILING_KEY, ICPU_RUN_KF with a captureless lambda instantiating the template,
//   SetKernelMode(KernelMode::AIV_MODE): the ops-nn kernel unit tests (tests/ut/op_kernel).
// - AscendC::Std::is_same, AscendC::Std::integral_constant: docs Utils-API/CPP标准库/类型特性/
//   is_same.md, integral_constant.md.
// - Muls on int32_t and float: docs 基础API/Memory矢量计算/标量双目/Muls.
#include "ascendc/host_api/tiling/template_argument.h"
#include "heldout_util.h"

ASCENDC_TPL_ARGS_DECL(H2Scale, ASCENDC_TPL_DATATYPE_DECL(D_T, C_DT_INT32, C_DT_FLOAT),
                      ASCENDC_TPL_UINT_DECL(SHIFT, 3, ASCENDC_TPL_UI_RANGE, 2, 0, 1, 3, 4),
                      ASCENDC_TPL_BOOL_DECL(NEG, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_INT32, C_DT_FLOAT),
                                     ASCENDC_TPL_UINT_SEL(SHIFT, ASCENDC_TPL_UI_RANGE, 2, 0, 1, 3,
                                                          4),
                                     ASCENDC_TPL_BOOL_SEL(NEG, 0, 1)));

namespace h2_tpl {

struct ScaleTiling {
  uint32_t totalLength;
  uint32_t blockLength;
  uint32_t tileLength;
};

template <typename T, uint32_t SHIFT, bool NEG>
class KernelScale {
 public:
  __aicore__ inline KernelScale() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaleTiling& t) {
    const uint32_t start = AscendC::GetBlockIdx() * t.blockLength;
    len_ = start >= t.totalLength ? 0 : AscendC::Std::min(t.blockLength, t.totalLength - start);
    tile_ = t.tileLength;
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
      Compute(n);
      AscendC::LocalTensor<T> yl = outQ_.DeQue<T>();
      AscendC::DataCopyPad(yGm_[off], yl, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
      outQ_.FreeTensor(yl);
    }
  }

 private:
  using Factor = AscendC::Std::integral_constant<int32_t, (NEG ? -1 : 1) * (1 << SHIFT)>;

  __aicore__ inline void Compute(uint32_t n) {
    AscendC::LocalTensor<T> xl = inQ_.DeQue<T>();
    AscendC::LocalTensor<T> yl = outQ_.AllocTensor<T>();
    if constexpr (AscendC::Std::is_same<T, int32_t>::value) {
      AscendC::Muls(yl, xl, static_cast<int32_t>(Factor::value), n);
    } else {
      AscendC::Muls(yl, xl, static_cast<float>(Factor::value), n);
    }
    outQ_.EnQue(yl);
    inQ_.FreeTensor(xl);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQ_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
  uint32_t len_ = 0, tile_ = 0;
};

}  // namespace h2_tpl

template <uint32_t D_T, uint32_t SHIFT, bool NEG>
__global__ __aicore__ void h2_tpl_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(h2_tpl::ScaleTiling);
  GET_TILING_DATA_WITH_STRUCT(h2_tpl::ScaleTiling, t, tiling);
  if constexpr (D_T == C_DT_INT32) {
    h2_tpl::KernelScale<int32_t, SHIFT, NEG> op;
    op.Init(x, y, t);
    op.Process();
  } else {
    h2_tpl::KernelScale<float, SHIFT, NEG> op;
    op.Init(x, y, t);
    op.Process();
  }
}

namespace {

using heldout::GmBuf;

template <class T, uint32_t D_T, uint32_t SHIFT, bool NEG>
void RunScale(uint32_t total, uint32_t blockDim, std::vector<uint64_t>* keys) {
  std::vector<T> x(total);
  std::mt19937 gen(total * 7 + SHIFT);
  std::uniform_int_distribution<int32_t> d(-100000, 100000);
  for (auto& v : x) v = static_cast<T>(d(gen)) / (std::is_same<T, float>::value ? T(8) : T(1));
  GmBuf gx(total * sizeof(T)), gy(total * sizeof(T)), ws(64), tiling(sizeof(h2_tpl::ScaleTiling));
  heldout::Upload(gx, x);
  *tiling.as<h2_tpl::ScaleTiling>() = {total, (total + blockDim - 1) / blockDim, 160};
  const uint64_t key = GET_TPL_TILING_KEY(D_T, SHIFT, NEG);
  keys->push_back(key);
  auto kernel = [](GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR tl) {
    ::h2_tpl_scale<D_T, SHIFT, NEG>(a, b, w, tl);
  };
  ICPU_SET_TILING_KEY(key);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(kernel, blockDim, gx.get(), gy.get(), ws.get(), tiling.get());
  // Multiplying by a power of two is exact in int32 (|x| * 16 < 2^31) and in float.
  const auto got = heldout::Download<T>(gy, total);
  size_t bad = 0;
  for (uint32_t i = 0; i < total; ++i) {
    const T want = static_cast<T>(x[i] * static_cast<T>((NEG ? -1 : 1) * (1 << SHIFT)));
    if (got[i] != want && bad++ == 0) {
      ADD_FAILURE() << "D_T " << D_T << " SHIFT " << SHIFT << " NEG " << NEG << " at " << i
                    << ": got " << got[i] << ", want " << want;
    }
  }
  EXPECT_EQ(bad, 0u) << "total " << total;
}

template <class T, uint32_t D_T>
void RunAll(uint32_t total, uint32_t blockDim, std::vector<uint64_t>* keys) {
  RunScale<T, D_T, 0, false>(total, blockDim, keys);
  RunScale<T, D_T, 1, true>(total, blockDim, keys);
  RunScale<T, D_T, 3, false>(total, blockDim, keys);
  RunScale<T, D_T, 4, true>(total, blockDim, keys);
  RunScale<T, D_T, 4, false>(total, blockDim, keys);
}

TEST(Heldout2TplRange, RangeDeclaredShiftsComputeAndKeysDiffer) {
  std::vector<uint64_t> keys;
  RunAll<int32_t, C_DT_INT32>(1237, 3, &keys);
  RunAll<float, C_DT_FLOAT>(301, 4, &keys);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::unique(keys.begin(), keys.end()) - keys.begin(), 10);
}

TEST(Heldout2TplRange, KeyDependsOnEveryArgument) {
  const uint64_t base = GET_TPL_TILING_KEY(C_DT_INT32, 3, 0);
  EXPECT_NE(base, GET_TPL_TILING_KEY(C_DT_FLOAT, 3, 0));
  EXPECT_NE(base, GET_TPL_TILING_KEY(C_DT_INT32, 4, 0));
  EXPECT_NE(base, GET_TPL_TILING_KEY(C_DT_INT32, 3, 1));
  EXPECT_EQ(base, GET_TPL_TILING_KEY(C_DT_INT32, 3, 0));
}

}  // namespace
