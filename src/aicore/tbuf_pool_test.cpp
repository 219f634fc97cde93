// TBufPool and TPipe::InitBufPool (ascsim/aicore/tbuf_pool.h): pools carved in order, nested,
// shared (same start), their queues and TBufs placed inside them and working through Reset, the
// TPipe's own buffers after the pool, TPipe::Init after Destroy; and every error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "aicore_test_util.h"

namespace {

using AscendC::TPosition;
using ::testing::HasSubstr;

using ascsim_test::FaultOf;

TEST(TBufPool, PoolsCarveNestAndShare) {
  ascsim::Launch("pools", 1, [] {
    AscendC::TPipe pipe;
    AscendC::TBufPool<TPosition::VECCALC> pool0;
    AscendC::TBufPool<TPosition::VECCALC, 8> pool1, pool2;
    AscendC::TQue<TPosition::VECIN, 1> q0, q1, q2;
    AscendC::TBuf<TPosition::VECCALC> b1, after;
    EXPECT_TRUE(pipe.InitBufPool(pool0, 4000));         // rounded up to 4000 -> 4000 (125 x 32)
    EXPECT_TRUE(pool0.InitBuffer(q0, 1, 1000));         // 1024 B at 0
    EXPECT_TRUE(pool0.InitBufPool(pool1, 1024));        // [1024, 2048)
    EXPECT_TRUE(pool0.InitBufPool(pool2, 512, pool1));  // shares pool1's start
    EXPECT_TRUE(pool1.InitBuffer(q1, 1, 256));
    EXPECT_TRUE(pool1.InitBuffer(b1, 96));
    EXPECT_TRUE(pool2.InitBuffer(q2, 1, 128));
    pipe.InitBuffer(after, 64);  // the pipe's own buffers start after pool0
    EXPECT_EQ(q0.AllocTensor<float>().GetPhyAddr(), 0u);
    AscendC::LocalTensor<float> t1 = q1.AllocTensor<float>();
    EXPECT_EQ(t1.GetPhyAddr(), 1024u);
    EXPECT_EQ(b1.Get<float>().GetPhyAddr(), 1024u + 256);
    EXPECT_EQ(after.Get<float>().GetPhyAddr(), 4000u);
    // pool1's buffers, then Reset, then pool2 reuses the same bytes.
    q1.FreeTensor(t1);
    pool1.Reset();
    AscendC::LocalTensor<float> t2 = q2.AllocTensor<float>();
    EXPECT_EQ(t2.GetPhyAddr(), 1024u);
    q2.FreeTensor(t2);
    pool2.Reset();
    // pool1's queue still works after its Reset.
    AscendC::LocalTensor<float> again = q1.AllocTensor<float>();
    EXPECT_EQ(again.GetPhyAddr(), 1024u);
    q1.FreeTensor(again);
  });
}

TEST(TBufPool, L1PoolsAndPipeInitAfterDestroy) {
  ascsim::Launch("pools_l1", 1, [] {
    AscendC::TPipe pipe;
    AscendC::TBufPool<TPosition::A1> pool;
    AscendC::TQue<TPosition::A1, 1> a1;
    pipe.InitBufPool(pool, 2048);
    pool.InitBuffer(a1, 2, 1024);
    EXPECT_EQ(a1.AllocTensor<half>().GetPhyAddr(), 0u);
    pipe.Destroy();
    pipe.Init();  // the documented reuse: Destroy, then Init
    AscendC::TBuf<TPosition::A1> b;
    pipe.InitBuffer(b, 64);
    EXPECT_EQ(b.Get<half>().GetPhyAddr(), 0u);
  });
}

TEST(TBufPool, Errors) {
  EXPECT_THAT(FaultOf("pool_over",
                      [] {
                        AscendC::TPipe pipe;
                        AscendC::TBufPool<TPosition::VECCALC> pool;
                        AscendC::TQue<TPosition::VECIN, 2> q;
                        pipe.InitBufPool(pool, 1024);
                        pool.InitBuffer(q, 2, 768);
                      }),
              HasSubstr("InitBuffer: VECIN queue needs 2 x 768 B at UB offset 0, exceeding its "
                        "TBufPool [0, 1024)"));
  EXPECT_THAT(FaultOf("pool_nested_over",
                      [] {
                        AscendC::TPipe pipe;
                        AscendC::TBufPool<TPosition::VECCALC> pool, child;
                        pipe.InitBufPool(pool, 1024);
                        pool.InitBufPool(child, 2048);
                      }),
              HasSubstr("TBufPool::InitBufPool: 2048 B at offset 0 exceed the parent TBufPool "
                        "[0, 1024)"));
  EXPECT_THAT(FaultOf("pool_share_long",
                      [] {
                        AscendC::TPipe pipe;
                        AscendC::TBufPool<TPosition::VECCALC> a, b;
                        pipe.InitBufPool(a, 512);
                        pipe.InitBufPool(b, 1024, a);
                      }),
              HasSubstr("1024 B of UB cannot share a TBufPool of 512 B of UB"));
  EXPECT_THAT(FaultOf("pool_uninit",
                      [] {
                        AscendC::TBufPool<TPosition::VECCALC> pool;
                        AscendC::TQue<TPosition::VECIN, 1> q;
                        pool.InitBuffer(q, 1, 64);
                      }),
              HasSubstr("TBufPool::InitBuffer: the TBufPool was not initialised"));
  EXPECT_THAT(FaultOf("pool_ub_full",
                      [] {
                        AscendC::TPipe pipe;
                        AscendC::TBufPool<TPosition::VECCALC> pool;
                        pipe.InitBufPool(pool, 1024 * 1024);
                      }),
              HasSubstr("TPipe::InitBufPool: 1048576 B at UB offset 0 exceed the Unified Buffer"));
  EXPECT_THAT(FaultOf("pool_ids",
                      [] {
                        AscendC::TPipe pipe;
                        AscendC::TBufPool<TPosition::VECCALC> pool;
                        AscendC::TQue<TPosition::VECIN, 1> q[17];
                        pipe.InitBufPool(pool, 17 * 32);
                        for (auto& que : q) pool.InitBuffer(que, 1, 32);
                      }),
              HasSubstr("1 more buffers exceed the 16 a TBufPool holds (16 in use)"));
  EXPECT_THAT(FaultOf("pipe_init_twice",
                      [] {
                        AscendC::TPipe first;
                        first.Destroy();
                        AscendC::TPipe second;
                        first.Init();
                      }),
              HasSubstr("TPipe::Init: another TPipe is alive on this core"));
}

}  // namespace
