// TPipe lifetime calls and tensor queries that had no test of their own: Destroy / Reset (the
// asc-devkit docs, TPipe/Destroy.md: "释放资源", usable to re-apply and release a TPipe; Reset.md:
// release and return to the initial state), LocalTensor::GetPosition / GetLength, and the
// sub-block queries of a vector-only launch (GetSubBlockIdx / GetSubBlockNum).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "aicore_test_util.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TPosition;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

class PipeLifetime : public ::testing::Test {
 protected:
  PipeLifetime() : core_(ascsim::FindSocProfile("Ascend910B1")) {}
  ascsim::aicore::SingleCore core_;
};

TEST_F(PipeLifetime, DestroyReleasesEveryBufferSoTheUbCanBeCarvedAgain) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECOUT, 2> que;
  AscendC::TBuf<TPosition::VECCALC> tmp;
  pipe.InitBuffer(que, 2, 128);
  pipe.InitBuffer(tmp, 96 * 1024);
  EXPECT_EQ(pipe.used_bytes(), 2u * 128u + 96u * 1024u);
  pipe.Destroy();
  EXPECT_EQ(pipe.used_bytes(), 0u);
  EXPECT_EQ(pipe.buffer_count(), 0u);
  // The whole UB is free again: a buffer as large as the UB fits.
  AscendC::TBuf<TPosition::VECCALC> all;
  pipe.InitBuffer(all, ascsim::MemoryBytes(*core_.launch().soc, ascsim::Memory::kUb));
  EXPECT_EQ(all.Get<uint8_t>().GetPhyAddr(), 0u);
}

TEST_F(PipeLifetime, TensorsFromBeforeDestroyAreStale) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> que;
  pipe.InitBuffer(que, 1, 256);
  LocalTensor<float> t = que.AllocTensor<float>();
  t.SetValue(0, 1.0f);
  pipe.Destroy();
  EXPECT_THAT(ErrorOf([&] { t.GetValue(0); }), HasSubstr("LocalTensor::GetValue"));
}

TEST(SlotStore, AReusedRecordStartsFreshButKeepsCountingGenerations) {
  ascsim::aicore::SlotStore store;
  ascsim::aicore::BufferSlot* first = store.Take();
  first->generation = 5;
  first->bytes = 64;
  first->state = ascsim::aicore::BufferState::kAllocated;
  first->pipe_gone = true;
  ascsim::aicore::BufferSlot* second = store.Take();
  EXPECT_NE(first, second);
  store.Reset();
  ascsim::aicore::BufferSlot* again = store.Take();
  EXPECT_EQ(again, first);
  EXPECT_EQ(again->generation, 6u);
  EXPECT_EQ(again->bytes, 0u);
  EXPECT_EQ(again->state, ascsim::aicore::BufferState::kFree);
  EXPECT_FALSE(again->pipe_gone);
}

TEST(SlotStore, RecordsKeepTheirAddressesWhileTheStoreGrows) {
  ascsim::aicore::SlotStore store;
  std::vector<ascsim::aicore::BufferSlot*> taken;
  for (uint32_t i = 0; i < 1000; ++i) {
    taken.push_back(store.Take());
    taken.back()->bytes = i + 1;
  }
  for (uint32_t i = 0; i < 1000; ++i) EXPECT_EQ(taken[i]->bytes, i + 1);
}

TEST(SlotStore, ATensorKeptFromAnEarlierBlockOnTheThreadIsStale) {
  const ascsim::SocProfile& soc = ascsim::FindSocProfile("Ascend910B1");
  LocalTensor<float> kept;
  {
    ascsim::aicore::SingleCore first(soc);
    AscendC::TPipe pipe;
    AscendC::TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 256);
    kept = que.AllocTensor<float>();
    kept.SetValue(0, 1.0f);
  }
  // The next block on this thread carves its buffer from the same record.
  ascsim::aicore::SingleCore second(soc);
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> que;
  pipe.InitBuffer(que, 1, 256);
  LocalTensor<float> fresh = que.AllocTensor<float>();
  fresh.SetValue(0, 2.0f);
  EXPECT_THAT(ErrorOf([&] { kept.GetValue(0); }), HasSubstr("LocalTensor::GetValue"));
  EXPECT_EQ(fresh.GetValue(0), 2.0f);
}

TEST_F(PipeLifetime, ResetRepeatsTheDocumentedInitProcessResetLoop) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECOUT, 1> que;
  for (int i = 0; i < 3; ++i) {
    pipe.InitBuffer(que, 1, 192 * 1024);  // the whole UB of Ascend910B1, every round
    LocalTensor<half> t = que.AllocTensor<half>();
    EXPECT_EQ(t.GetPhyAddr(), 0u);
    EXPECT_EQ(t.GetSize(), 96u * 1024u);
    que.FreeTensor(t);
    pipe.Reset();
  }
}

TEST_F(PipeLifetime, GetPositionNamesTheQueueOrTBufPosition) {
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> in;
  AscendC::TQue<TPosition::VECOUT, 1> out;
  AscendC::TBuf<TPosition::VECCALC> calc;
  pipe.InitBuffer(in, 1, 64);
  pipe.InitBuffer(out, 1, 64);
  pipe.InitBuffer(calc, 64);
  EXPECT_EQ(in.AllocTensor<half>().GetPosition(), static_cast<int32_t>(TPosition::VECIN));
  EXPECT_EQ(out.AllocTensor<float>().GetPosition(), static_cast<int32_t>(TPosition::VECOUT));
  EXPECT_EQ(calc.Get<int32_t>().GetPosition(), static_cast<int32_t>(TPosition::VECCALC));
  // A view keeps its buffer's position.
  EXPECT_EQ(calc.Get<int32_t>()[8].GetPosition(), static_cast<int32_t>(TPosition::VECCALC));
}

TEST_F(PipeLifetime, GetLengthIsTheViewSizeInBytes) {
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::VECCALC> calc;
  pipe.InitBuffer(calc, 100);  // rounded up to 128 B
  EXPECT_EQ(calc.Get<half>().GetLength(), 128u);
  EXPECT_EQ(calc.Get<float>().GetLength(), 128u);
  EXPECT_EQ(calc.Get<float>(10).GetLength(), 40u);
  LocalTensor<half> view = calc.Get<half>()[16];  // 16 halves = 32 B in
  EXPECT_EQ(view.GetLength(), 128u - 32u);
  view.SetSize(3);
  EXPECT_EQ(view.GetLength(), 6u);
}

// A vector-only launch: every block is one AIV core with no sub-blocks.
TEST(SubBlocks, VectorOnlyLaunchesHaveOneSubBlockPerBlock) {
  std::vector<int64_t> idx(4, -1), num(4, -1);
  ascsim::Launch("sub_blocks", 4, [&] {
    const uint32_t b = AscendC::GetBlockIdx();
    idx[b] = AscendC::GetSubBlockIdx();
    num[b] = AscendC::GetSubBlockNum();
  });
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(idx[b], 0) << "block " << b;
    EXPECT_EQ(num[b], 1) << "block " << b;
  }
}

}  // namespace
