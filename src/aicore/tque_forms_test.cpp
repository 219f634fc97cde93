// The queue forms production kernels use beyond AllocTensor -> EnQue -> DeQue -> FreeTensor:
// TQue<pos, 0> with in-place AllocTensor(tensor) / EnQue(tensor) / DeQue(tensor), EnQue / DeQue
// with user positions, and TBuf's queue calls (CANN's TBuf is a depth-0 TQueBind). A kernel using
// them against a scalar reference in both dtypes and odd sizes, and each misuse with its message.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

namespace {

using AscendC::TPosition;
using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;

// y = 2 * x + 1 through a depth-0 input queue, a TBuf driven by its queue calls, and a VECCALC
// queue handing the result from one vector stage to the next with user positions (VECOUT ->
// VECIN); `n` elements per block, tiles of 64.
template <class T>
__aicore__ inline void InPlaceQueues(GM_ADDR x, GM_ADDR y, uint32_t n) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 0> in;
  AscendC::TQue<TPosition::VECCALC, 1> mid;
  AscendC::TQue<TPosition::VECOUT, 1> out;
  AscendC::TBuf<TPosition::VECCALC> tmp;
  constexpr uint32_t kTile = 64;
  pipe.InitBuffer(in, 2, kTile * sizeof(T));
  pipe.InitBuffer(mid, 2, kTile * sizeof(T));
  pipe.InitBuffer(out, 2, kTile * sizeof(T));
  pipe.InitBuffer(tmp, kTile * sizeof(T));
  AscendC::GlobalTensor<T> gx, gy;
  const uint64_t base = AscendC::GetBlockIdx() * n;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + base, n);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + base, n);
  for (uint32_t off = 0; off < n; off += kTile) {
    const uint32_t len = n - off < kTile ? n - off : kTile;
    const AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
    AscendC::LocalTensor<T> a;
    in.AllocTensor(a);
    AscendC::DataCopyPad(a, gx[off], cp, AscendC::DataCopyPadExtParams<T>{false, 0, 0, T(0)});
    in.EnQue(a);
    in.DeQue(a);
    AscendC::LocalTensor<T> t = tmp.AllocTensor<T>();
    AscendC::Muls(t, a, T(2), len);
    in.FreeTensor(a);
    tmp.EnQue(t);
    t = tmp.DeQue<T>();
    AscendC::LocalTensor<T> b = mid.AllocTensor<T>();
    AscendC::Adds(b, t, T(1), len);
    tmp.FreeTensor(t);
    mid.template EnQue<TPosition::VECOUT, TPosition::VECIN, T>(b);
    b = mid.template DeQue<TPosition::VECOUT, TPosition::VECIN, T>();
    AscendC::LocalTensor<T> c = out.AllocTensor<T>();
    AscendC::Adds(c, b, T(0), len);
    mid.FreeTensor(b);
    out.EnQue(c);
    c = out.DeQue<T>();
    AscendC::DataCopyPad(gy[off], c, cp);
    out.FreeTensor(c);
  }
}

}  // namespace

extern "C" __global__ __aicore__ void inplace_queues_half(GM_ADDR x, GM_ADDR y, uint32_t n) {
  InPlaceQueues<half>(x, y, n);
}
extern "C" __global__ __aicore__ void inplace_queues_float(GM_ADDR x, GM_ADDR y, uint32_t n) {
  InPlaceQueues<float>(x, y, n);
}

namespace {

template <class T>
void RunInPlace(void (*kernel)(GM_ADDR, GM_ADDR, uint32_t), uint32_t blocks, uint32_t n) {
  DeviceBuffer x(blocks * n * sizeof(T)), y(blocks * n * sizeof(T));
  std::vector<T> vx = ascsim_test::RandomVector<T>(blocks * n, -4, 4, n);
  std::memcpy(x.gm(), vx.data(), x.bytes());
  ICPU_RUN_KF(kernel, blocks, x.gm(), y.gm(), n);
  const T* out = y.as<T>();
  for (uint32_t i = 0; i < blocks * n; ++i) {
    const T twice = T(2.0f * float(vx[i]));  // Muls rounds to T, then Adds
    ASSERT_EQ(Bits(out[i]), Bits(T(float(twice) + 1.0f))) << i;
  }
}

TEST(QueueForms, DepthZeroUserPositionsAndTBufCalls) {
  RunInPlace<half>(inplace_queues_half, 3, 200);    // tiles of 64 and a 8-element tail
  RunInPlace<float>(inplace_queues_float, 2, 129);  // an odd tail
  RunInPlace<float>(inplace_queues_float, 1, 64);
}

TEST(QueueForms, TBufQueueCallsHandOutTheWholeBuffer) {
  CoreFixture fx(64 * 1024);
  AscendC::TBuf<TPosition::VECCALC> b;
  fx.pipe().InitBuffer(b, 96);
  auto t = b.AllocTensor<float>();
  EXPECT_EQ(t.GetSize(), 24u);
  t.SetValue(23, 7.0f);
  b.EnQue(t);
  auto u = b.DeQue<float>();
  EXPECT_EQ(u.GetValue(23), 7.0f);  // the same bytes
  b.FreeTensor(u);
  EXPECT_EQ(b.Get<float>().GetValue(23), 7.0f);  // FreeTensor does not release a TBuf
}

// A TQue passed by value (ops-nn apply_fused_ema_adam's ScalarPow): the copy allocates from the
// original's buffers, frees what it allocated, and the original sees the same buffer states.
float SumThroughCopy(AscendC::TQue<TPosition::VECIN, 1> que, uint32_t n) {
  AscendC::LocalTensor<float> t = que.AllocTensor<float>();
  AscendC::Duplicate(t, 1.5f, n);
  float sum = 0;
  for (uint32_t i = 0; i < n; ++i) sum += t.GetValue(i);
  que.FreeTensor(t);
  return sum;
}

TEST(QueueForms, ACopiedTQueSharesTheBuffers) {
  CoreFixture fx(64 * 1024);
  AscendC::TQue<TPosition::VECIN, 1> q;
  fx.pipe().InitBuffer(q, 2, 256);
  EXPECT_EQ(SumThroughCopy(q, 64), 96.0f);
  EXPECT_EQ(SumThroughCopy(q, 33), 49.5f);
  // Both buffers are free again for the original; a tensor of the copy frees through it.
  auto a = q.AllocTensor<float>(), b = q.AllocTensor<float>();
  AscendC::TQue<TPosition::VECIN, 1> copy(q);
  EXPECT_NE(ErrorOf([&] { copy.AllocTensor<float>(); }).find("all 2 buffers are in use"),
            std::string::npos);
  copy.FreeTensor(a);
  auto c = copy.AllocTensor<float>();
  EXPECT_EQ(c.GetPhyAddr(), a.GetPhyAddr());
  q.FreeTensor(c);
  q.FreeTensor(b);
  // A tensor of another queue is still refused by the copy.
  AscendC::TQue<TPosition::VECIN, 1> other;
  fx.pipe().InitBuffer(other, 1, 256);
  auto o = other.AllocTensor<float>();
  EXPECT_NE(
      ErrorOf([&] { copy.FreeTensor(o); }).find("the tensor belongs to buffer 0 of VECIN queue"),
      std::string::npos);
  // A queue holding enqueued tensors is not copied.
  auto e = q.AllocTensor<float>();
  q.EnQue(e);
  EXPECT_EQ(ErrorOf([&] { AscendC::TQue<TPosition::VECIN, 1> late(q); }),
            "test: block 0/1: copy of VECIN queue: it holds 1 enqueued tensor(s); two queues "
            "sharing enqueued buffers are not simulated (pass the TQue by reference)");
  auto d = q.DeQue<float>();
  q.FreeTensor(d);
  other.FreeTensor(o);
}

// A TQue member assigned from a parameter (ops-math isin_part_v1's GmInCache::Init): the member
// works the original's buffers through its own FIFO, as the copy constructor's copy does.
template <class T>
class CachedQueue {
 public:
  void Init(AscendC::TQue<TPosition::VECIN, 1>& q) { queue_ = q; }
  // Fills a buffer with `v` through AllocTensor / EnQue / DeQue and returns element `i`.
  T Round(T v, uint32_t n, uint32_t i) {
    AscendC::LocalTensor<T> t = queue_.template AllocTensor<T>();
    AscendC::Duplicate(t, v, n);
    queue_.EnQue(t);
    AscendC::LocalTensor<T> u = queue_.template DeQue<T>();
    const T out = u.GetValue(i);
    queue_.FreeTensor(u);
    return out;
  }
  AscendC::TQue<TPosition::VECIN, 1>& queue() { return queue_; }

 private:
  AscendC::TQue<TPosition::VECIN, 1> queue_;
};

template <class T>
void CheckAssignedQueue() {
  CoreFixture fx(64 * 1024);
  AscendC::TQue<TPosition::VECIN, 1> q;
  fx.pipe().InitBuffer(q, 1, 96);
  CachedQueue<T> cache;
  // Before Init the member has no buffers.
  EXPECT_NE(ErrorOf([&] { cache.queue().template AllocTensor<T>(); })
                .find("the queue has no buffers (call pipe.InitBuffer first)"),
            std::string::npos);
  cache.Init(q);
  const uint32_t n = 96 / sizeof(T) - 3;  // odd, within the buffer
  EXPECT_EQ(static_cast<float>(cache.Round(T(2.5f), n, n - 1)), 2.5f);
  EXPECT_EQ(static_cast<float>(cache.Round(T(-1.0f), n, 0)), -1.0f);
  // The original sees the member's allocation: its one buffer is in use.
  AscendC::LocalTensor<T> held = cache.queue().template AllocTensor<T>();
  EXPECT_NE(ErrorOf([&] { q.template AllocTensor<T>(); }).find("all 1 buffers are in use"),
            std::string::npos);
  q.FreeTensor(held);  // a tensor of the member frees through the original
  // A queue holding enqueued tensors is neither the source nor the target of an assignment.
  AscendC::LocalTensor<T> e = q.template AllocTensor<T>();
  q.EnQue(e);
  EXPECT_EQ(ErrorOf([&] { cache.Init(q); }),
            "test: block 0/1: assignment from VECIN queue: it holds 1 enqueued tensor(s); two "
            "queues sharing enqueued buffers are not simulated (keep a reference to the TQue)");
  AscendC::TQue<TPosition::VECIN, 1> empty;
  EXPECT_EQ(ErrorOf([&] { q = empty; }),
            "test: block 0/1: assignment to VECIN queue: it holds 1 enqueued tensor(s), which "
            "would never be dequeued (DeQue them first)");
  AscendC::LocalTensor<T> d = q.template DeQue<T>();
  q.FreeTensor(d);
}

TEST(QueueForms, AnAssignedTQueSharesTheBuffersHalf) { CheckAssignedQueue<half>(); }
TEST(QueueForms, AnAssignedTQueSharesTheBuffersFloat) { CheckAssignedQueue<float>(); }

// The non-template DeQue() hands over the oldest enqueued buffer as its handle; the kernel keeps
// using its own LocalTensor (ops-nn rms_norm: EnQue(t); DeQue(); then reads t).
TEST(QueueForms, HandleDeQueKeepsTheTensor) {
  CoreFixture fx(64 * 1024);
  AscendC::TQue<TPosition::VECIN, 2> q;
  fx.pipe().InitBuffer(q, 2, 256);
  auto a = q.AllocTensor<float>(), b = q.AllocTensor<float>();
  a.SetValue(5, 2.5f);
  q.EnQue(a);
  q.EnQue(b);
  EXPECT_EQ(q.DeQue(), a.GetBufferHandle());  // FIFO order
  EXPECT_EQ(a.GetValue(5), 2.5f);
  EXPECT_EQ(q.DeQue(), b.GetBufferHandle());
  q.FreeTensor(a);
  q.FreeTensor(b);
  EXPECT_NE(ErrorOf([&] { q.DeQue(); }).find("DeQue on VECIN queue"), std::string::npos);
}

TEST(QueueForms, DepthZeroMisuse) {
  CoreFixture fx(64 * 1024);
  AscendC::TQue<TPosition::VECIN, 0> q;
  fx.pipe().InitBuffer(q, 1, 256);
  AscendC::LocalTensor<float> t;
  q.AllocTensor(t);
  EXPECT_EQ(ErrorOf([&] { q.DeQue(t); }),
            "test: block 0/1: DeQue(tensor) on VECIN queue: buffer 0 of VECIN queue is allocated, "
            "not enqueued; the device would hang until the AI-core timeout (507014)");
  q.EnQue(t);
  q.DeQue(t);
  q.FreeTensor(t);
  EXPECT_EQ(ErrorOf([&] { q.DeQue(t); }),
            "test: block 0/1: DeQue on VECIN queue: LocalTensor used after FreeTensor (buffer 0 "
            "of VECIN queue)");
  AscendC::LocalTensor<float> other;
  EXPECT_EQ(ErrorOf([&] { q.DeQue(other); }),
            "test: block 0/1: DeQue on VECIN queue: the LocalTensor is not bound to a buffer");
  // A depth-0 EnQue does not go through a FIFO: a second allocation takes the next free buffer.
  AscendC::LocalTensor<float> a, b;
  q.AllocTensor(a);
  EXPECT_NE(ErrorOf([&] { q.AllocTensor(b); }).find("all 1 buffers are in use"), std::string::npos);
}

TEST(QueueForms, UserPositionEnQueOrdersTheNamedPipes) {
  CoreFixture fx(64 * 1024);
  AscendC::TQue<TPosition::VECCALC, 2> q;
  fx.pipe().InitBuffer(q, 2, 256);
  auto a = q.AllocTensor<half>();
  q.EnQue<TPosition::VECOUT, TPosition::VECIN, half>(a);
  auto b = q.DeQue<TPosition::VECOUT, TPosition::VECIN, half>();
  q.FreeTensor(b);
  EXPECT_EQ(ErrorOf([&] { (void)q.DeQue<TPosition::VECOUT, TPosition::VECIN, half>(); }),
            "test: block 0/1: DeQue on VECCALC queue: the queue is empty (2 buffers, none "
            "enqueued); the device would hang until the AI-core timeout (507014)");
}

}  // namespace
