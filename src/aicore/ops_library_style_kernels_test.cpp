// Kernels written as ops-nn / ops-math kernels are, with the names production kernels use (held
// out: written apart from the work that added those names), run through ICPU_RUN_KF and compared
// with float64 references (both dtypes, odd sizes):
//   tpl_add_relu      a template kernel selected by tiling key: ASCENDC_TPL_ARGS_DECL / SEL in a
//                     tiling-key section, GET_TPL_TILING_KEY on the host, every key of
//                     ASCSIM_TPL_TILING_KEYS launched through a lambda as the kernel UTs do;
//                     TQue<pos, 0>, TBuf queue calls, IsSameType, likely, AscendC::Std, AlignUp,
//                     the DT_* numbers (the op build's ORIG_DTYPE_* compare with them)
//   compact_rows      GatherMask in counter mode packing padded rows, InitGlobalMemory,
//   ArithProgression mix_sum           a MIX_AIC_1_2 kernel whose AIVs meet at SyncAll, g_coreType
//   row_broadcast     BroadCast (CANN's spelling), TQueSync, a user `namespace tik2`,
//                     GetSysWorkSpacePtr called unqualified, the kernel_operator_intf.h header path
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "aicore_test_util.h"
#include "ascendc/host_api/tiling/template_argument.h"
#include "kernel_operator_intf.h"
#include "tikicpulib.h"

// ------------------------------------------------------------------ tpl_add_relu (tiling-key
// header)
#define TPL_SCH_QUEUE 0
#define TPL_SCH_INPLACE 1
ASCENDC_TPL_ARGS_DECL(TplAddRelu, ASCENDC_TPL_DATATYPE_DECL(D_T, C_DT_FLOAT, C_DT_FLOAT16),
                      ASCENDC_TPL_UINT_DECL(SCH, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST,
                                            TPL_SCH_QUEUE, TPL_SCH_INPLACE),
                      ASCENDC_TPL_BOOL_DECL(RELU, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
                                     ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT, C_DT_FLOAT16),
                                     ASCENDC_TPL_UINT_SEL(SCH, ASCENDC_TPL_UI_LIST, TPL_SCH_QUEUE,
                                                          TPL_SCH_INPLACE),
                                     ASCENDC_TPL_BOOL_SEL(RELU, 0, 1)));

struct TplAddReluTilingData {
  uint32_t perCore;  // elements per block
  uint32_t tile;     // elements per tile (a multiple of 32 B)
};

namespace {
using namespace AscendC;

template <typename T, uint32_t SCH, bool RELU>
class KernelTplAddRelu {
  static_assert(IsSameType<T, half>::value || IsSameType<T, float>::value, "half or float");
  // SCH_INPLACE: depth-0 input queues used in place; SCH_QUEUE: the classic depth-1 queues.
  using InQue = Std::conditional_t<SCH == TPL_SCH_INPLACE, TQue<TPosition::VECIN, 0>,
                                   TQue<TPosition::VECIN, 1>>;

 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const TplAddReluTilingData& t,
                              TPipe* pipe) {
    perCore_ = t.perCore;
    tile_ = t.tile;
    const uint64_t base = GetBlockIdx() * perCore_;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + base, perCore_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + base, perCore_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + base, perCore_);
    pipe->InitBuffer(xQ_, 2, tile_ * sizeof(T));
    pipe->InitBuffer(yQ_, 2, tile_ * sizeof(T));
    pipe->InitBuffer(zQ_, 2, tile_ * sizeof(T));
    pipe->InitBuffer(calc_, AlignUp(tile_ * sizeof(T), ONE_BLK_SIZE));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < perCore_; off += tile_) {
      const uint32_t len = Std::min(tile_, perCore_ - off);
      const DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
      LocalTensor<T> a = Alloc(xQ_);
      LocalTensor<T> b = Alloc(yQ_);
      DataCopyPad(a, xGm_[off], cp, DataCopyPadExtParams<T>{false, 0, 0, T(0)});
      DataCopyPad(b, yGm_[off], cp, DataCopyPadExtParams<T>{false, 0, 0, T(0)});
      xQ_.EnQue(a);
      yQ_.EnQue(b);
      DeQue(xQ_, a);
      DeQue(yQ_, b);
      // x staged through the TBuf's queue calls (a TBuf hands out its whole buffer).
      LocalTensor<T> tmp = calc_.AllocTensor<T>();
      Adds(tmp, a, T(0), len);
      calc_.EnQue(tmp);
      tmp = calc_.DeQue<T>();
      LocalTensor<T> c = zQ_.template AllocTensor<T>();
      Add(c, tmp, b, len);
      calc_.FreeTensor(tmp);
      if constexpr (RELU) Relu(c, c, len);
      xQ_.FreeTensor(a);
      yQ_.FreeTensor(b);
      zQ_.EnQue(c);
      c = zQ_.template DeQue<T>();
      if (likely(len == tile_)) {
        DataCopy(zGm_[off], c, len);
      } else {
        DataCopyPad(zGm_[off], c, cp);
      }
      zQ_.FreeTensor(c);
    }
  }

 private:
  __aicore__ inline LocalTensor<T> Alloc(InQue& q) {
    if constexpr (SCH == TPL_SCH_INPLACE) {
      LocalTensor<T> t;
      q.AllocTensor(t);
      return t;
    } else {
      return q.template AllocTensor<T>();
    }
  }
  __aicore__ inline void DeQue(InQue& q, LocalTensor<T>& t) {
    if constexpr (SCH == TPL_SCH_INPLACE) {
      q.DeQue(t);
    } else {
      t = q.template DeQue<T>();
    }
  }

  InQue xQ_, yQ_;
  TQue<TPosition::VECOUT, 1> zQ_;
  TBuf<TPosition::VECCALC> calc_;
  GlobalTensor<T> xGm_, yGm_, zGm_;
  uint32_t perCore_ = 0, tile_ = 0;
};

}  // namespace

template <int D_T, uint32_t SCH, bool RELU>
__global__ __aicore__ void tpl_add_relu(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                        GM_ADDR tiling) {
  (void)workspace;
  using T = AscendC::Std::conditional_t<D_T == DT_FLOAT16, half, float>;
  TplAddReluTilingData t;
  std::memcpy(&t, tiling, sizeof(t));
  AscendC::TPipe pipe;
  KernelTplAddRelu<T, SCH, RELU> op;
  op.Init(x, y, z, t, &pipe);
  op.Process();
}

// ------------------------------------------------------------------ compact_rows
// rows x 16 padded halves -> rows x valid, packed; out[rows * valid ...] gets 0..n-1 as indices;
// the tail of z is cleared first.
extern "C" __global__ __aicore__ void compact_rows(GM_ADDR x, GM_ADDR z, GM_ADDR idx, uint32_t rows,
                                                   uint32_t valid) {
  using namespace AscendC;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, rows * 16 * sizeof(int32_t) + 64);  // the rows, then as many int32 ids
  GlobalTensor<half> gx, gz;
  GlobalTensor<int32_t> gi;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x), rows * 16);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z), rows * 16);
  gi.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(idx), AlignUp(rows * valid, 8));
  InitGlobalMemory(gz, rows * 16, half(-1.0f));
  LocalTensor<half> t = buf.Get<half>();
  DataCopy(t, gx, rows * 16);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  uint64_t kept = 0;
  GatherMask(t, t, static_cast<uint8_t>(7), true, valid, {1, static_cast<uint16_t>(rows), 1, 0},
             kept);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  PipeBarrier<PIPE_MTE3>();  // after InitGlobalMemory's copies
  DataCopyPad(gz, t, DataCopyExtParams{1, static_cast<uint32_t>(kept * sizeof(half)), 0, 0, 0});
  PipeBarrier<PIPE_ALL>();
  LocalTensor<int32_t> ids = buf.GetWithOffset<int32_t>(AlignUp(static_cast<uint32_t>(kept), 8), 0);
  ArithProgression<int32_t>(ids, 0, 1, static_cast<int32_t>(kept));
  SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
  DataCopyPad(gi, ids,
              DataCopyExtParams{1, static_cast<uint32_t>(kept * sizeof(int32_t)), 0, 0, 0});
}

// ------------------------------------------------------------------ mix_sum
// Each AIV sums its slice of x into workspace[i]; after SyncAll, AIV 0 adds the partial sums.
extern "C" __global__ __aicore__ void mix_sum(GM_ADDR x, GM_ADDR out, GM_ADDR workspace,
                                              uint32_t perAiv) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if (g_coreType == AscendC::AIC) return;
  AscendC::GlobalTensor<float> gx, ws, go;
  const int64_t me = AscendC::GetBlockIdx();
  const int64_t aivs = AscendC::GetBlockNum() * AscendC::GetSubBlockNum();
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + me * perAiv, perAiv);
  ws.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace), aivs);
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 1);
  float s = 0;
  for (uint32_t i = 0; i < perAiv; ++i) s += gx.GetValue(i);
  ws.SetValue(me, s);
  AscendC::SyncAll();
  if (me == 0) {
    float total = 0;
    for (int64_t i = 0; i < aivs; ++i) total += ws.GetValue(i);
    go.SetValue(0, total);
  }
}

// ------------------------------------------------------------------ row_broadcast
namespace tik2 {
constexpr uint32_t kUserConstant = 3;  // a user namespace of the old name must still open
}  // namespace tik2

extern "C" __global__ __aicore__ void row_broadcast(GM_ADDR row, GM_ADDR out, GM_ADDR workspace,
                                                    uint32_t m, uint32_t k) {
  AscendC::SetSysWorkspace(workspace);
  if (GetSysWorkSpacePtr() != workspace) return;  // unqualified, as the Matmul samples call it
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> src, dst;
  pipe.InitBuffer(src, k * sizeof(float));
  pipe.InitBuffer(dst, m * k * sizeof(float));
  AscendC::GlobalTensor<float> gr, go;
  gr.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(row), k);
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), m * k);
  AscendC::LocalTensor<float> s = src.Get<float>(), d = dst.Get<float>();
  AscendC::DataCopy(s, gr, k);
  AscendC::TQueSync<PIPE_MTE2, PIPE_V> toV;
  toV.SetFlag(0);
  toV.WaitFlag(0);
  const uint32_t dstShape[2] = {m, k}, srcShape[2] = {1, k};
  AscendC::BroadCast<float, 2, 0>(d, s, dstShape, srcShape);
  AscendC::Muls(d, d, float(tik2::kUserConstant), m * k);
  AscendC::TQueSync<PIPE_V, PIPE_MTE3> toMte3;
  toMte3.SetFlag(0);
  toMte3.WaitFlag(0);
  AscendC::DataCopy(go, d, m * k);
}

namespace {

using ascsim_test::Bits;
using ascsim_test::DeviceBuffer;

template <class T>
void RunTplAddRelu(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR), bool relu,
                   uint32_t blocks, uint32_t perCore, uint32_t tile) {
  const uint32_t n = blocks * perCore;
  DeviceBuffer x(n * sizeof(T)), y(n * sizeof(T)), z(n * sizeof(T)), ws(64),
      tiling(sizeof(TplAddReluTilingData));
  const auto vx = ascsim_test::RandomVector<T>(n, -3, 3, perCore);
  const auto vy = ascsim_test::RandomVector<T>(n, -3, 3, perCore + 1);
  std::memcpy(x.gm(), vx.data(), x.bytes());
  std::memcpy(y.gm(), vy.data(), y.bytes());
  const TplAddReluTilingData t{perCore, tile};
  std::memcpy(tiling.gm(), &t, sizeof(t));
  ICPU_RUN_KF(kernel, blocks, x.gm(), y.gm(), z.gm(), ws.gm(), tiling.gm());
  const T* out = z.as<T>();
  for (uint32_t i = 0; i < n; ++i) {
    // Adds(x, 0) keeps x; the add rounds once to T.
    T want = T(float(vx[i]) + float(vy[i]));
    if (relu && float(want) < 0) want = T(0.0f);
    ASSERT_EQ(Bits(out[i]), Bits(want)) << i;
  }
}

TEST(OpsLibraryStyleKernels, TemplateKernelSelectedByTilingKey) {
  const auto keys = ASCSIM_TPL_TILING_KEYS();
  ASSERT_EQ(keys.size(), 8u);
  int launched = 0;
  for (const auto& c : keys) {
    const uint64_t key = GET_TPL_TILING_KEY(c.args[0], c.args[1], c.args[2]);
    ASSERT_EQ(key, c.tilingKey);
    // The key's layout: D_T in bits 0-7, SCH's index in bits 8-9, RELU in bit 10.
    ASSERT_EQ(key, c.args[0] | (c.args[1] << 8) | (c.args[2] << 10));
    const bool half_t = c.args[0] == C_DT_FLOAT16, inplace = c.args[1] == TPL_SCH_INPLACE,
               relu = c.args[2];
    // The kernel UT style: a lambda instantiating the template kernel for this key.
#define ASCSIM_TPL_CASE(DT, SCH, RELU)                                        \
  if (c.args[0] == DT && c.args[1] == SCH && c.args[2] == RELU) {             \
    auto kernel = [](GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, GM_ADDR t) { \
      tpl_add_relu<DT, SCH, RELU>(x, y, z, w, t);                             \
    };                                                                        \
    if (half_t)                                                               \
      RunTplAddRelu<half>(+kernel, relu, 3, 333, 128);                        \
    else                                                                      \
      RunTplAddRelu<float>(+kernel, relu, 2, 101, 64);                        \
    ++launched;                                                               \
  }
    ASCSIM_TPL_CASE(C_DT_FLOAT, TPL_SCH_QUEUE, 0)
    ASCSIM_TPL_CASE(C_DT_FLOAT, TPL_SCH_QUEUE, 1)
    ASCSIM_TPL_CASE(C_DT_FLOAT, TPL_SCH_INPLACE, 0)
    ASCSIM_TPL_CASE(C_DT_FLOAT, TPL_SCH_INPLACE, 1)
    ASCSIM_TPL_CASE(C_DT_FLOAT16, TPL_SCH_QUEUE, 0)
    ASCSIM_TPL_CASE(C_DT_FLOAT16, TPL_SCH_QUEUE, 1)
    ASCSIM_TPL_CASE(C_DT_FLOAT16, TPL_SCH_INPLACE, 0)
    ASCSIM_TPL_CASE(C_DT_FLOAT16, TPL_SCH_INPLACE, 1)
#undef ASCSIM_TPL_CASE
    (void)inplace;
  }
  EXPECT_EQ(launched, 8);
}

TEST(OpsLibraryStyleKernels, CompactRows) {
  for (uint32_t rows : {1u, 5u, 37u}) {
    for (uint32_t valid : {1u, 13u, 16u}) {
      DeviceBuffer x(rows * 16 * 2), z(rows * 16 * 2), idx((rows * valid + 8) * 4);
      std::vector<half> vx(rows * 16);
      for (uint32_t i = 0; i < rows * 16; ++i) vx[i] = half(float(i % 1024));
      std::memcpy(x.gm(), vx.data(), x.bytes());
      ICPU_RUN_KF(compact_rows, 1, x.gm(), z.gm(), idx.gm(), rows, valid);
      const half* out = z.as<half>();
      const int32_t* ids = idx.as<int32_t>();
      for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t e = 0; e < valid; ++e)
          ASSERT_EQ(float(out[r * valid + e]), float(vx[r * 16 + e])) << rows << " " << valid;
      for (uint32_t i = rows * valid; i < rows * 16; ++i) ASSERT_EQ(float(out[i]), -1.0f) << i;
      for (uint32_t i = 0; i < rows * valid; ++i) ASSERT_EQ(ids[i], static_cast<int32_t>(i)) << i;
    }
  }
}

TEST(OpsLibraryStyleKernels, MixKernelMeetsAtSyncAll) {
  for (uint32_t blocks : {1u, 3u}) {
    const uint32_t per = 37, aivs = blocks * 2;
    DeviceBuffer x(aivs * per * 4), out(4), ws(aivs * 4);
    std::vector<float> vx = ascsim_test::RandomVector<float>(aivs * per, -1, 1, blocks);
    std::memcpy(x.gm(), vx.data(), x.bytes());
    ICPU_RUN_KF(mix_sum, blocks, x.gm(), out.gm(), ws.gm(), per);
    double want = 0;
    for (float v : vx) want += v;
    EXPECT_NEAR(*out.as<float>(), want, 1e-4);
  }
}

TEST(OpsLibraryStyleKernels, RowBroadcast) {
  for (uint32_t m : {1u, 3u, 9u}) {
    const uint32_t k = 24;
    DeviceBuffer row(k * 4), out(m * k * 4), ws(64);
    std::vector<float> vr = ascsim_test::RandomVector<float>(k, -2, 2, m);
    std::memcpy(row.gm(), vr.data(), row.bytes());
    std::memset(out.gm(), 0, out.bytes());
    ICPU_RUN_KF(row_broadcast, 1, row.gm(), out.gm(), ws.gm(), m, k);
    for (uint32_t i = 0; i < m * k; ++i) ASSERT_EQ(out.as<float>()[i], vr[i % k] * 3.0f) << i;
  }
}

}  // namespace
