// Held-out set 2, kernel 6: split interleaved pairs [a0, b0, a1, b1, ...] into a and b with
// GatherMask's built-in patterns in normal mode (half, float, int32).
//
// Names and the source each use follows:
// - GatherMask(dst, src0, uint8_t src1Pattern, reduceMode = false, mask = 0, GatherMaskParams
//   {src0BlockStride = 1, repeatTimes, src0RepeatStride = 8, src1RepeatStride = 0}, rsvdCnt):
//   asc-devkit docs 基础API/Memory矢量计算/比较与选择/GatherMask.md — built-in pattern 1 takes the
//   even-indexed elements of each repeat, 2 the odd ones; in normal mode each repeat reads 256 B
//   and mask is ignored; rsvdCnt is the count kept.
// - The host pads the interleaved input to whole tiles (the kernel always loads whole tiles) and
//   the kernel writes back only the valid pairs with DataCopyPad.
#include "heldout_util.h"

namespace h2_gather {

struct GatherTiling {
  uint32_t totalPairs;
  uint32_t blockPairs;  // pairs per core, a multiple of tilePairs (padded input)
  uint32_t tilePairs;   // 2 * tilePairs * sizeof(T) a multiple of 256
};

template <typename T>
class KernelDeinterleave {
 public:
  __aicore__ inline KernelDeinterleave() {}
  __aicore__ inline void Init(GM_ADDR xy, GM_ADDR a, GM_ADDR b, GM_ADDR cnt,
                              const GatherTiling& t) {
    const uint32_t idx = AscendC::GetBlockIdx();
    const uint32_t start = idx * t.blockPairs;
    valid_ = start >= t.totalPairs ? 0 : AscendC::Std::min(t.blockPairs, t.totalPairs - start);
    tile_ = t.tilePairs;
    xyGm_.SetGlobalBuffer((__gm__ T*)xy + 2 * start, 2 * t.blockPairs);
    aGm_.SetGlobalBuffer((__gm__ T*)a + start, valid_);
    bGm_.SetGlobalBuffer((__gm__ T*)b + start, valid_);
    cntGm_.SetGlobalBuffer((__gm__ uint64_t*)cnt + idx, 1);
    pipe_.InitBuffer(inQ_, 2, 2 * tile_ * sizeof(T));
    pipe_.InitBuffer(outA_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(outB_, 2, tile_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    uint64_t kept = 0;
    for (uint32_t off = 0; off < valid_; off += tile_) {
      const uint32_t n = AscendC::Std::min(tile_, valid_ - off);
      AscendC::LocalTensor<T> in = inQ_.AllocTensor<T>();
      AscendC::DataCopy(in, xyGm_[2 * off], 2 * tile_);
      inQ_.EnQue(in);
      kept += Compute();
      CopyOut(off, n);
    }
    cntGm_.SetValue(0, kept);
  }

 private:
  __aicore__ inline uint64_t Compute() {
    AscendC::LocalTensor<T> in = inQ_.DeQue<T>();
    AscendC::LocalTensor<T> al = outA_.AllocTensor<T>();
    AscendC::LocalTensor<T> bl = outB_.AllocTensor<T>();
    const uint8_t repeats = static_cast<uint8_t>(2 * tile_ * sizeof(T) / 256);
    uint64_t ca = 0, cb = 0;
    AscendC::GatherMask(al, in, static_cast<uint8_t>(1), false, 0, {1, repeats, 8, 0}, ca);
    AscendC::GatherMask(bl, in, static_cast<uint8_t>(2), false, 0, {1, repeats, 8, 0}, cb);
    outA_.EnQue(al);
    outB_.EnQue(bl);
    inQ_.FreeTensor(in);
    return ca + cb;
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    AscendC::LocalTensor<T> al = outA_.DeQue<T>();
    AscendC::LocalTensor<T> bl = outB_.DeQue<T>();
    const AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(aGm_[off], al, cp);
    AscendC::DataCopyPad(bGm_[off], bl, cp);
    outA_.FreeTensor(al);
    outB_.FreeTensor(bl);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outA_, outB_;
  AscendC::GlobalTensor<T> xyGm_, aGm_, bGm_;
  AscendC::GlobalTensor<uint64_t> cntGm_;
  uint32_t valid_ = 0, tile_ = 0;
};

}  // namespace h2_gather

#define H2_GATHER_ENTRY(NAME, T)                                                            \
  extern "C" __global__ __aicore__ void NAME(GM_ADDR xy, GM_ADDR a, GM_ADDR b, GM_ADDR cnt,  \
                                             GM_ADDR workspace, GM_ADDR tiling) {            \
    (void)workspace;                                                                         \
    REGISTER_TILING_DEFAULT(h2_gather::GatherTiling);                                        \
    GET_TILING_DATA(t, tiling);                                                              \
    h2_gather::KernelDeinterleave<T> op;                                                     \
    op.Init(xy, a, b, cnt, t);                                                               \
    op.Process();                                                                            \
  }
H2_GATHER_ENTRY(h2_gather_half, half)
H2_GATHER_ENTRY(h2_gather_float, float)
H2_GATHER_ENTRY(h2_gather_int32, int32_t)

namespace {

using heldout::GmBuf;

template <class T>
void RunGather(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR),
               uint32_t pairs, uint32_t blockDim, uint32_t tilePairs) {
  const uint32_t per = (pairs + blockDim - 1) / blockDim;
  const uint32_t blockPairs = (per + tilePairs - 1) / tilePairs * tilePairs;
  const uint32_t padded = blockPairs * blockDim;
  std::vector<T> xy(2 * padded, T(0));
  std::mt19937 gen(pairs + tilePairs);
  std::uniform_int_distribution<int32_t> d(-2000, 2000);
  for (uint32_t i = 0; i < 2 * pairs; ++i) xy[i] = static_cast<T>(static_cast<float>(d(gen)));
  GmBuf gxy(xy.size() * sizeof(T)), ga(pairs * sizeof(T)), gb(pairs * sizeof(T)),
      gc(blockDim * sizeof(uint64_t)), ws(64), tiling(sizeof(h2_gather::GatherTiling));
  heldout::Upload(gxy, xy);
  *tiling.as<h2_gather::GatherTiling>() = {pairs, blockPairs, tilePairs};
  ICPU_RUN_KF(kernel, blockDim, gxy.get(), ga.get(), gb.get(), gc.get(), ws.get(), tiling.get());
  // A gather copies: exact.
  const auto a = heldout::Download<T>(ga, pairs), b = heldout::Download<T>(gb, pairs);
  size_t bad = 0;
  for (uint32_t i = 0; i < pairs; ++i) {
    if (!(a[i] == xy[2 * i] && b[i] == xy[2 * i + 1]) && bad++ == 0) {
      ADD_FAILURE() << "pair " << i << ": got (" << heldout::ToDouble(a[i]) << ", "
                    << heldout::ToDouble(b[i]) << "), want (" << heldout::ToDouble(xy[2 * i])
                    << ", " << heldout::ToDouble(xy[2 * i + 1]) << ")";
    }
  }
  EXPECT_EQ(bad, 0u) << "pairs " << pairs << " blockDim " << blockDim;
  // Each tile keeps all of its 2 * tilePairs loaded elements (pattern 1 plus pattern 2).
  const auto cnt = heldout::Download<uint64_t>(gc, blockDim);
  for (uint32_t c = 0; c < blockDim; ++c) {
    const uint32_t start = c * blockPairs;
    const uint32_t valid = start >= pairs ? 0 : std::min(blockPairs, pairs - start);
    const uint32_t tiles = (valid + tilePairs - 1) / tilePairs;
    EXPECT_EQ(cnt[c], 2ull * tiles * tilePairs) << "core " << c << " pairs " << pairs;
  }
}

TEST(Heldout2GatherDeinterleave, HalfFloatInt32OnOddCounts) {
  for (uint32_t pairs : {1u, 77u, 1001u}) {
    RunGather<half>(h2_gather_half, pairs, 3, 128);   // 2 * 128 * 2 B = 2 repeats
    RunGather<float>(h2_gather_float, pairs, 4, 96);  // 2 * 96 * 4 B = 3 repeats
    RunGather<int32_t>(h2_gather_int32, pairs, 2, 64);
  }
}

}  // namespace
