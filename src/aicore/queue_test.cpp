// TPipe, TQue/TQueBind and TBuf on one simulated core: UB layout, the queue protocol in normal
// use (double buffering, FIFO order, buffer rotation) and TBuf views.
#include <cstring>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TPosition;
using ascsim_test::ErrorOf;
using ::testing::AllOf;
using ::testing::HasSubstr;

class Queues : public ::testing::Test {
 protected:
  Queues() : core_(ascsim::FindSocProfile("Ascend910B1")) {}
  ascsim::aicore::SingleCore core_;
};

TEST_F(Queues, InitBufferRoundsLengthsUpTo32BytesAndPacksBuffers) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 2> in;
  AscendC::TBuf<TPosition::VECCALC> tmp;
  pipe.InitBuffer(in, 2, 100);  // 100 B -> 128 B each
  pipe.InitBuffer(tmp, 33);     // 33 B -> 64 B
  EXPECT_EQ(pipe.used_bytes(), 2u * 128u + 64u);
  EXPECT_EQ(pipe.buffer_count(), 3u);
  LocalTensor<half> a = in.AllocTensor<half>();
  LocalTensor<half> b = in.AllocTensor<half>();
  EXPECT_EQ(a.GetPhyAddr(), 0u);
  EXPECT_EQ(b.GetPhyAddr(), 128u);
  EXPECT_EQ(a.GetSize(), 64u);  // the whole rounded buffer
  EXPECT_EQ(tmp.Get<float>().GetPhyAddr(), 256u);
  EXPECT_EQ(tmp.Get<float>().GetSize(), 16u);
}

TEST_F(Queues, DoubleBufferingRotatesThroughTheBuffers) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 2> in;
  pipe.InitBuffer(in, 2, 256);
  uint64_t addrs[4];
  for (int i = 0; i < 4; ++i) {
    LocalTensor<float> t = in.AllocTensor<float>();
    addrs[i] = t.GetPhyAddr();
    t.SetValue(0, float(i));
    in.EnQue(t);
    LocalTensor<float> u = in.DeQue<float>();
    EXPECT_EQ(u.GetValue(0), float(i));
    in.FreeTensor(u);
  }
  EXPECT_NE(addrs[0], addrs[1]);
  EXPECT_EQ(addrs[0], addrs[2]);
  EXPECT_EQ(addrs[1], addrs[3]);
}

// A queue keeps up to four buffer records inline and moves them to the heap beyond: six buffers
// rotate in order, and after Reset the same queue starts over with two.
TEST_F(Queues, ADeepQueueRotatesThroughEveryBufferAndStartsOverAfterReset) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 6> in;
  pipe.InitBuffer(in, 6, 64);
  EXPECT_EQ(pipe.buffer_count(), 6u);
  LocalTensor<float> held[6];
  for (int i = 0; i < 6; ++i) {
    held[i] = in.AllocTensor<float>();
    EXPECT_EQ(held[i].GetPhyAddr(), 64u * i);
    held[i].SetValue(0, float(10 + i));
    in.EnQue(held[i]);
  }
  EXPECT_THAT(ErrorOf([&] { in.AllocTensor<float>(); }), HasSubstr("all 6 buffers are in use"));
  for (int i = 0; i < 6; ++i) {  // FIFO order
    LocalTensor<float> u = in.DeQue<float>();
    EXPECT_EQ(u.GetPhyAddr(), 64u * i);
    EXPECT_EQ(u.GetValue(0), float(10 + i));
    in.FreeTensor(u);
  }
  pipe.Reset();
  pipe.InitBuffer(in, 2, 32);
  EXPECT_EQ(pipe.buffer_count(), 2u);
  EXPECT_EQ(in.AllocTensor<float>().GetPhyAddr(), 0u);
  EXPECT_EQ(in.AllocTensor<float>().GetPhyAddr(), 32u);
}

TEST_F(Queues, QueryFunctionsFollowTheState) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECOUT, 2> out;
  pipe.InitBuffer(out, 2, 64);
  EXPECT_TRUE(out.HasIdleBuffer());
  EXPECT_FALSE(out.HasTensorInQue());
  LocalTensor<half> a = out.AllocTensor<half>();
  LocalTensor<half> b = out.AllocTensor<half>();
  EXPECT_FALSE(out.HasIdleBuffer());
  out.EnQue(a);
  EXPECT_TRUE(out.HasTensorInQue());
  EXPECT_EQ(out.GetTensorCountInQue(), 1);
  EXPECT_TRUE(out.VacantInQue());
  out.EnQue(b);
  EXPECT_FALSE(out.VacantInQue());
  LocalTensor<half> a2 = out.DeQue<half>();
  LocalTensor<half> b2 = out.DeQue<half>();
  out.FreeTensor(a2);
  out.FreeTensor(b2);
  EXPECT_TRUE(out.HasIdleBuffer());
}

TEST_F(Queues, TQueBindMovesATensorFromVecinToVecout) {
  AscendC::TPipe pipe;
  AscendC::TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bind;
  pipe.InitBuffer(bind, 1, 64);
  LocalTensor<int32_t> t = bind.AllocTensor<int32_t>();
  t.SetValue(3, 77);
  bind.EnQue(t);
  LocalTensor<int32_t> u = bind.DeQue<int32_t>();
  EXPECT_EQ(u.GetValue(3), 77);
  bind.FreeTensor(u);
  EXPECT_THAT(ErrorOf([&] { bind.DeQue<int32_t>(); }), HasSubstr("DeQue on VECIN->VECOUT queue"));
}

TEST_F(Queues, ADequeuedTensorCanBeEnqueuedAgain) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 32);
  LocalTensor<half> t = q.AllocTensor<half>();
  q.EnQue(t);
  LocalTensor<half> u = q.DeQue<half>();
  q.EnQue(u);
  LocalTensor<half> v = q.DeQue<half>();
  q.FreeTensor(v);
}

// FreeAllEvent (asc-devkit kernel_tquebind_impl.h): after a full Alloc/EnQue/DeQue/Free round the
// queue's pending free events are released and the queue is used again as before; a buffer that
// is only allocated holds no enqueue event and is allowed; an enqueued one is refused.
TEST_F(Queues, FreeAllEventReleasesTheEventsOfFreedBuffers) {
  AscendC::TPipe pipe;
  AscendC::TQueBind<TPosition::VECOUT, TPosition::GM, 4> que;
  pipe.InitBuffer(que, 4, 1024);
  LocalTensor<half> t = que.AllocTensor<half>();
  t.SetValue(5, half(2.5f));
  que.EnQue(t);
  t = que.DeQue<half>();
  EXPECT_EQ(float(t.GetValue(5)), 2.5f);
  que.FreeTensor<half>(t);
  que.FreeAllEvent();
  LocalTensor<half> held = que.AllocTensor<half>();  // allocated, not enqueued: allowed
  que.FreeAllEvent();
  que.EnQue(held);
  EXPECT_THAT(ErrorOf([&] { que.FreeAllEvent(); }),
              AllOf(HasSubstr("FreeAllEvent on VECOUT->GM queue"), HasSubstr("still enqueued"),
                    HasSubstr("DeQue it first")));
  LocalTensor<half> back = que.DeQue<half>();
  que.FreeTensor(back);
  que.FreeAllEvent();
  EXPECT_EQ(que.GetTensorCountInQue(), 0);
  EXPECT_TRUE(que.HasIdleBuffer());
}

// The same in a launch of two blocks under every sanitizer check: a kernel that gives its queues'
// events back with FreeAllEvent at the end of each tile loop (as ops-nn conv3d_v2 and
// fp8_dynamic_quant do in their End/Destroy) runs clean and computes the right values.
TEST(QueueLaunch, FreeAllEventBetweenTileLoopsIsCleanUnderTheSanitizer) {
  std::vector<float> x(2 * 256), y(2 * 256, 0.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i) * 0.5f;
  ascsim_test::DeviceBuffer dx(x.size() * sizeof(float)), dy(y.size() * sizeof(float));
  std::memcpy(dx.as<float>(), x.data(), x.size() * sizeof(float));
  const ascsim_test::SanitizedRun run = ascsim_test::LaunchSanitized(
      "free_all_event", 2, ascsim::kSanitizeAll, [&] {
        AscendC::TPipe pipe;
        AscendC::TQue<TPosition::VECIN, 2> in;
        AscendC::TQue<TPosition::VECOUT, 2> out;
        pipe.InitBuffer(in, 2, 64 * sizeof(float));
        pipe.InitBuffer(out, 2, 64 * sizeof(float));
        AscendC::GlobalTensor<float> xg, yg;
        const uint32_t base = AscendC::GetBlockIdx() * 256;
        xg.SetGlobalBuffer(dx.as<float>() + base, 256);
        yg.SetGlobalBuffer(dy.as<float>() + base, 256);
        for (int pass = 0; pass < 2; ++pass) {
          for (uint32_t t = 0; t < 2; ++t) {
            const uint32_t off = pass * 128 + t * 64;
            LocalTensor<float> a = in.AllocTensor<float>();
            AscendC::DataCopy(a, xg[off], 64);
            in.EnQue(a);
            a = in.DeQue<float>();
            LocalTensor<float> b = out.AllocTensor<float>();
            AscendC::Muls(b, a, 3.0f, 64);
            in.FreeTensor(a);
            out.EnQue(b);
            b = out.DeQue<float>();
            AscendC::DataCopy(yg[off], b, 64);
            out.FreeTensor(b);
          }
          in.FreeAllEvent();
          out.FreeAllEvent();
        }
      });
  EXPECT_EQ(run.message, "");
  EXPECT_TRUE(run.warnings.empty()) << run.warnings.front();
  std::memcpy(y.data(), dy.as<float>(), y.size() * sizeof(float));
  for (size_t i = 0; i < y.size(); ++i) ASSERT_EQ(y[i], x[i] * 3.0f) << i;
}

TEST_F(Queues, TBufViews) {
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  EXPECT_EQ(buf.Get<float>(100).GetSize(), 100u);
  LocalTensor<half> view = buf.GetWithOffset<half>(32, 64);
  EXPECT_EQ(view.GetPhyAddr(), 64u);
  EXPECT_EQ(view.GetSize(), 32u);
  EXPECT_THAT(
      ErrorOf([&] { buf.Get<float>(257); }),
      HasSubstr("TBuf::Get: 257 elements of 4 B at byte offset 0 exceed the TBuf's 1024 B"));
  EXPECT_THAT(ErrorOf([&] { buf.GetWithOffset<half>(16, 48); }),
              HasSubstr("offset 48 B is not 32-byte aligned"));
  AscendC::TBuf<TPosition::VECCALC> never_initialised;
  EXPECT_THAT(ErrorOf([&] { never_initialised.Get<half>(); }),
              HasSubstr("TBuf has no buffer (call pipe.InitBuffer first)"));
}

TEST_F(Queues, InitBufferArgumentErrors) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 2> q;
  EXPECT_THAT(ErrorOf([&] { q.AllocTensor<half>(); }),
              HasSubstr("the queue has no buffers (call pipe.InitBuffer first)"));
  EXPECT_THAT(ErrorOf([&] { pipe.InitBuffer(q, 0, 64); }), HasSubstr("needs num >= 1"));
  pipe.InitBuffer(q, 2, 64);
  EXPECT_THAT(ErrorOf([&] { pipe.InitBuffer(q, 2, 64); }), HasSubstr("already has buffers"));
}

TEST_F(Queues, LocalTensorViewsAreBoundsChecked) {
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  LocalTensor<half> t = buf.Get<half>();
  EXPECT_EQ(t[16].GetSize(), 16u);
  EXPECT_THAT(ErrorOf([&] { (void)t[33]; }),
              HasSubstr("LocalTensor::operator[] offset 33 exceeds tensor size 32 of half"));
  EXPECT_THAT(
      ErrorOf([&] { t.GetValue(32); }),
      HasSubstr("LocalTensor::GetValue: index [32, 33) of half exceeds LocalTensor size 32"));
  LocalTensor<half> small = t;
  small.SetSize(8);
  small.SetSize(32);  // regrowing within the buffer is fine
  EXPECT_THAT(ErrorOf([&] { small.SetSize(33); }), HasSubstr("SetSize 33 exceeds the 32 half"));
  EXPECT_EQ(t.ReinterpretCast<float>().GetSize(), 16u);
}

TEST_F(Queues, TPipeResetMakesOutstandingTensorsStale) {
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  LocalTensor<half> t = buf.Get<half>();
  pipe.Reset();
  EXPECT_EQ(pipe.used_bytes(), 0u);
  // A tensor from before Reset must be caught, not read through a dangling buffer record --
  // also after the pipe has handed out new buffers at the same UB address.
  EXPECT_THAT(ErrorOf([&] { t.GetValue(0); }), HasSubstr("used after FreeTensor"));
  AscendC::TBuf<TPosition::VECCALC> again;
  pipe.InitBuffer(again, 64);
  EXPECT_EQ(again.Get<half>().GetPhyAddr(), 0u);
  EXPECT_THAT(ErrorOf([&] { t.GetValue(0); }), HasSubstr("used after FreeTensor"));
}

}  // namespace
