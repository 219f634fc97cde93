// Whole kernels in the official style that use the API-breadth names and the old spellings, run
// through ICPU_RUN_KF on several blocks and compared with float64 references:
//   old_add_custom       the 2023 sample shape: tik2, set_flag/wait_flag, block_idx, z = x + y
//   silu_gate_custom     GetUserWorkspace, InitOutput, Sigmoid, DataCacheCleanAndInvalid
//   rms_norm_custom      RmsNorm with host tiling (GetRmsNormTilingInfo) passed in GM, as
//                        production kernels receive their tiling
//   topk_custom          Concat, Sort<float, true>, Extract
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "aicore_test_util.h"
#include "tikicpulib.h"
#include "tiling/rmsnorm_tiling.h"

// --------------------------------------------------------------------------- old_add_custom
namespace {
constexpr int32_t OLD_BLOCK_LENGTH = 1024;
constexpr int32_t OLD_TILE = 256;

class KernelOldAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ half*)x + OLD_BLOCK_LENGTH * block_idx, OLD_BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ half*)y + OLD_BLOCK_LENGTH * block_idx, OLD_BLOCK_LENGTH);
    zGm.SetGlobalBuffer((__gm__ half*)z + OLD_BLOCK_LENGTH * block_idx, OLD_BLOCK_LENGTH);
    pipe.InitBuffer(xBuf, OLD_TILE * sizeof(half));
    pipe.InitBuffer(yBuf, OLD_TILE * sizeof(half));
    pipe.InitBuffer(zBuf, OLD_TILE * sizeof(half));
  }
  __aicore__ inline void Process() {
    tik2::LocalTensor<half> xLocal = xBuf.Get<half>(), yLocal = yBuf.Get<half>(),
                            zLocal = zBuf.Get<half>();
    for (int32_t i = 0; i < OLD_BLOCK_LENGTH / OLD_TILE; ++i) {
      tik2::DataCopy(xLocal, xGm[i * OLD_TILE], OLD_TILE);
      tik2::DataCopy(yLocal, yGm[i * OLD_TILE], OLD_TILE);
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      zLocal = xLocal + yLocal;
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      tik2::DataCopy(zGm[i * OLD_TILE], zLocal, OLD_TILE);
      pipe_barrier(PIPE_ALL);
    }
  }

 private:
  tik2::TPipe pipe;
  tik2::TBuf<tik2::QuePosition::VECCALC> xBuf, yBuf, zBuf;
  tik2::GlobalTensor<half> xGm, yGm, zGm;
};
}  // namespace

extern "C" __global__ __aicore__ void old_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelOldAdd op;
  op.Init(x, y, z);
  op.Process();
}

// ------------------------------------------------------------------------- silu_gate_custom
// out = x * sigmoid(g), with the partial rows staged in the user workspace first (zeroed with
// InitOutput), as ops-nn's gated activations do.
extern "C" __global__ __aicore__ void silu_gate_custom(GM_ADDR x, GM_ADDR g, GM_ADDR out,
                                                       GM_ADDR workspace, uint32_t perBlock) {
  using namespace AscendC;
  GM_ADDR user = GetUserWorkspace(workspace);
  const int64_t b = GetBlockIdx();
  GlobalTensor<float> xGm, gGm, outGm, wsGm;
  xGm.SetGlobalBuffer((__gm__ float*)x + b * perBlock, perBlock);
  gGm.SetGlobalBuffer((__gm__ float*)g + b * perBlock, perBlock);
  outGm.SetGlobalBuffer((__gm__ float*)out + b * perBlock, perBlock);
  wsGm.SetGlobalBuffer((__gm__ float*)user + b * perBlock, perBlock);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inX, inG;
  TQue<QuePosition::VECOUT, 1> outQ;
  TBuf<QuePosition::VECCALC> tmpBuf;
  pipe.InitBuffer(inX, 1, perBlock * sizeof(float));
  pipe.InitBuffer(inG, 1, perBlock * sizeof(float));
  pipe.InitBuffer(outQ, 1, perBlock * sizeof(float));
  pipe.InitBuffer(tmpBuf, 1024);
  InitOutput<float>(wsGm, perBlock, 0.0f);
  SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
  WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
  LocalTensor<float> xl = inX.AllocTensor<float>(), gl = inG.AllocTensor<float>();
  DataCopy(xl, xGm, perBlock);
  DataCopy(gl, gGm, perBlock);
  inX.EnQue(xl);
  inG.EnQue(gl);
  xl = inX.DeQue<float>();
  gl = inG.DeQue<float>();
  LocalTensor<float> ol = outQ.AllocTensor<float>();
  Sigmoid(ol, gl, tmpBuf.Get<uint8_t>(), perBlock);
  Mul(ol, ol, xl, perBlock);
  outQ.EnQue(ol);
  inX.FreeTensor(xl);
  inG.FreeTensor(gl);
  ol = outQ.DeQue<float>();
  DataCopy(wsGm, ol, perBlock);
  DataCopy(outGm, ol, perBlock);
  outQ.FreeTensor(ol);
  DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(wsGm);
}

// -------------------------------------------------------------------------- rms_norm_custom
struct RmsNormCustomTilingData {
  uint32_t rowsPerBlock;
  uint32_t h;
  uint32_t tmpBytes;
  float epsilon;
  AscendC::tiling::RmsNormTiling rmsnorm;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y,
                                                      GM_ADDR tiling) {
  using namespace AscendC;
  RmsNormCustomTilingData t;
  std::memcpy(&t, tiling, sizeof(t));  // GET_TILING_DATA's copy of the tiling from GM
  const uint32_t n = t.rowsPerBlock * t.h;
  GlobalTensor<half> xGm, gGm, yGm;
  xGm.SetGlobalBuffer((__gm__ half*)x + GetBlockIdx() * n, n);
  gGm.SetGlobalBuffer((__gm__ half*)gamma, t.h);
  yGm.SetGlobalBuffer((__gm__ half*)y + GetBlockIdx() * n, n);
  TPipe pipe;
  TBuf<QuePosition::VECCALC> xb, gb, yb, tb;
  pipe.InitBuffer(xb, n * sizeof(half));
  pipe.InitBuffer(gb, t.h * sizeof(half));
  pipe.InitBuffer(yb, n * sizeof(half));
  pipe.InitBuffer(tb, t.tmpBytes);
  LocalTensor<half> xl = xb.Get<half>(), gl = gb.Get<half>(), yl = yb.Get<half>();
  DataCopy(xl, xGm, n);
  DataCopy(gl, gGm, t.h);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  RmsNorm(yl, xl, gl, tb.Get<uint8_t>(), half(t.epsilon), t.rmsnorm);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(yGm, yl, n);
}

// ------------------------------------------------------------------------------ topk_custom
// Each block sorts its 96 scores (descending) with their indices.
extern "C" __global__ __aicore__ void topk_custom(GM_ADDR score, GM_ADDR value, GM_ADDR index) {
  using namespace AscendC;
  constexpr uint32_t n = 96;
  const int64_t b = GetBlockIdx();
  GlobalTensor<float> sGm, vGm;
  GlobalTensor<uint32_t> iGm;
  sGm.SetGlobalBuffer((__gm__ float*)score + b * n, n);
  vGm.SetGlobalBuffer((__gm__ float*)value + b * n, n);
  iGm.SetGlobalBuffer((__gm__ uint32_t*)index + b * n, n);
  TPipe pipe;
  TBuf<QuePosition::VECCALC> sb, ib, sorted, tmp, vb, ob;
  pipe.InitBuffer(sb, n * 4);
  pipe.InitBuffer(ib, n * 4);
  pipe.InitBuffer(sorted, n * 8);
  pipe.InitBuffer(tmp, n * 8);
  pipe.InitBuffer(vb, n * 4);
  pipe.InitBuffer(ob, n * 4);
  LocalTensor<float> s = sb.Get<float>(), srt = sorted.Get<float>(), t = tmp.Get<float>(),
                     v = vb.Get<float>();
  LocalTensor<uint32_t> idx = ib.Get<uint32_t>(), o = ob.Get<uint32_t>();
  DataCopy(s, sGm, n);
  CreateVecIndex(idx.ReinterpretCast<int32_t>(), 0, n);
  PipeBarrier<PIPE_ALL>();
  LocalTensor<float> concat;
  Concat(concat, s, t, n / 16);
  Sort<float, true>(srt, concat, idx, t, n / 32);
  Extract(v, o, srt, n / 32);
  PipeBarrier<PIPE_ALL>();
  DataCopy(vGm, v, n);
  DataCopy(iGm, o, n);
}

namespace {

TEST(OfficialStyleKernels, OldSpellingAdd) {
  constexpr uint32_t blocks = 4, n = blocks * OLD_BLOCK_LENGTH;
  auto* x = static_cast<half*>(AscendC::GmAlloc(n * 2));
  auto* y = static_cast<half*>(AscendC::GmAlloc(n * 2));
  auto* z = static_cast<half*>(AscendC::GmAlloc(n * 2));
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = half(float(i % 97) * 0.25f);
    y[i] = half(-float(i % 13));
  }
  ICPU_RUN_KF(old_add_custom, blocks, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z);
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(float(z[i]), float(half(float(x[i]) + float(y[i])))) << i;
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
}

TEST(OfficialStyleKernels, SiluGateWithWorkspace) {
  constexpr uint32_t blocks = 3, per = 200, n = blocks * per;
  auto* x = static_cast<float*>(AscendC::GmAlloc(n * 4));
  auto* g = static_cast<float*>(AscendC::GmAlloc(n * 4));
  auto* out = static_cast<float*>(AscendC::GmAlloc(n * 4));
  const size_t ws_bytes = (16u << 20) + n * 4;  // system workspace + user workspace
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(ws_bytes));
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = float(i % 17) - 8.0f;
    g[i] = float(i % 23) * 0.4f - 4.0f;
  }
  ICPU_RUN_KF(silu_gate_custom, blocks, (GM_ADDR)x, (GM_ADDR)g, (GM_ADDR)out, (GM_ADDR)ws, per);
  const float* user = reinterpret_cast<const float*>(ws + (16u << 20));
  for (uint32_t i = 0; i < n; ++i) {
    const double want = x[i] / (1.0 + std::exp(-double(g[i])));
    ASSERT_NEAR(out[i], want, 4e-6 * std::max(1.0, std::fabs(want))) << i;
    ASSERT_EQ(user[i], out[i]) << i;
  }
  AscendC::GmFree(x);
  AscendC::GmFree(g);
  AscendC::GmFree(out);
  AscendC::GmFree(ws);
}

TEST(OfficialStyleKernels, RmsNormWithHostTiling) {
  constexpr uint32_t blocks = 2, rows = 5, h = 96, n = blocks * rows * h;
  RmsNormCustomTilingData t{};
  t.rowsPerBlock = rows;
  t.h = h;
  t.epsilon = 1e-6f;
  uint32_t mx = 0, mn = 0;
  ASSERT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({1, rows, h}), 2, mx, mn));
  t.tmpBytes = (mn + mx) / 2 / 32 * 32;
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(ge::Shape({1, rows, h}), ge::Shape({1, rows, h}),
                                            t.tmpBytes, 2, t.rmsnorm));
  auto* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(t)));
  std::memcpy(tiling, &t, sizeof(t));
  auto* x = static_cast<half*>(AscendC::GmAlloc(n * 2));
  auto* gamma = static_cast<half*>(AscendC::GmAlloc(h * 2));
  auto* y = static_cast<half*>(AscendC::GmAlloc(n * 2));
  for (uint32_t i = 0; i < n; ++i) x[i] = half(float((i * 37) % 101) / 25.0f - 2.0f);
  for (uint32_t j = 0; j < h; ++j) gamma[j] = half(0.5f + float(j % 7) * 0.1f);
  ICPU_RUN_KF(rms_norm_custom, blocks, (GM_ADDR)x, (GM_ADDR)gamma, (GM_ADDR)y, (GM_ADDR)tiling);
  for (uint32_t r = 0; r < blocks * rows; ++r) {
    double ss = 0;
    for (uint32_t j = 0; j < h; ++j) ss += double(float(x[r * h + j])) * float(x[r * h + j]);
    const double rstd = 1.0 / std::sqrt(ss / h + double(float(half(1e-6f))));
    for (uint32_t j = 0; j < h; ++j) {
      const double want = double(float(x[r * h + j])) * rstd * float(gamma[j]);
      ASSERT_NEAR(float(y[r * h + j]), want, std::fabs(want) * 1e-3 + 1e-3) << r << "," << j;
    }
  }
  for (void* p : {(void*)tiling, (void*)x, (void*)gamma, (void*)y}) AscendC::GmFree(p);
}

TEST(OfficialStyleKernels, TopkSort) {
  constexpr uint32_t blocks = 2, n = 96;
  auto* s = static_cast<float*>(AscendC::GmAlloc(blocks * n * 4));
  auto* v = static_cast<float*>(AscendC::GmAlloc(blocks * n * 4));
  auto* idx = static_cast<uint32_t*>(AscendC::GmAlloc(blocks * n * 4));
  for (uint32_t i = 0; i < blocks * n; ++i) s[i] = float((i * 53) % 61) - 30.0f;
  ICPU_RUN_KF(topk_custom, blocks, (GM_ADDR)s, (GM_ADDR)v, (GM_ADDR)idx);
  for (uint32_t b = 0; b < blocks; ++b) {
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t c) { return s[b * n + a] > s[b * n + c]; });
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(idx[b * n + i], order[i]) << b << "," << i;
      ASSERT_EQ(v[b * n + i], s[b * n + order[i]]) << b << "," << i;
    }
  }
  for (void* p : {(void*)s, (void*)v, (void*)idx}) AscendC::GmFree(p);
}

}  // namespace
