// Every kernel-side check: its error class, its kind and its one-line message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace {

using ascsim::ErrorKind;
using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

using AscendC::LocalTensor;
using AscendC::TPosition;
using ascsim_test::WarningCapture;

// Runs `body` as kernel `name` over `block_dim` blocks and returns the KernelError message.
template <class F>
std::string LaunchError(const char* name, uint32_t block_dim, F body, ErrorKind* kind) {
  try {
    ascsim::Launch(name, block_dim, body);
  } catch (const ascsim::KernelError& e) {
    *kind = e.fault_kind();
    EXPECT_EQ(e.kind(), ErrorKind::kKernel);
    return e.what();
  }
  ADD_FAILURE() << "launch of " << name << " did not fail";
  return "";
}

// ---- GM bounds ----

TEST(GmChecks, ReadPastGlobalTensorSizeNamesKernelBlockAndRange) {
  DeviceBuffer x(8 * 2048 * sizeof(half));
  ErrorKind kind{};
  const std::string msg = LaunchError("my_add", 8, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048 * sizeof(half));
    AscendC::GlobalTensor<half> xGm;
    const int64_t b = AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer(x.as<half>() + 2048 * b, 2048);
    // Block 7 reads one tile too far, past the allocation (inside it, the read of a neighbour's
    // slice is a warning: src/aicore/global_tensor_past_size_test.cpp).
    AscendC::DataCopy(buf.Get<half>(), xGm[b == 7 ? 2048 : 0], 2048);
  }, &kind);
  EXPECT_EQ(msg, "my_add: block 7/8: DataCopy GM->UB read [2048, 4096) of half exceeds "
                 "GlobalTensor size 2048");
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
}

TEST(GmChecks, WritePastGlobalTensorSize) {
  CoreFixture f;
  DeviceBuffer z(100 * sizeof(float));  // the write runs past the allocation too
  AscendC::GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer(z.as<float>(), 100);
  auto ub = f.Take<float>(64);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { AscendC::DataCopy(zGm[40], ub, 64); }, &kind);
  EXPECT_EQ(msg, "test: block 0/1: DataCopy UB->GM write [40, 104) of float exceeds GlobalTensor "
                 "size 100");
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
}

TEST(GmChecks, AccessPastTheDeviceAllocation) {
  CoreFixture f;
  DeviceBuffer x(1024);
  AscendC::GlobalTensor<half> xGm;
  xGm.SetGlobalBuffer(x.as<half>(), 4096);  // claims more than was allocated
  auto ub = f.Take<half>(1024);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { AscendC::DataCopy(ub, xGm[256], 512); }, &kind);
  EXPECT_THAT(msg, StartsWith("test: block 0/1: DataCopy GM->UB read [256, 768) of half runs "
                              "outside its device allocation of 1024 B"));
  EXPECT_THAT(msg, HasSubstr("(bytes [512, 1536))"));
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
  // GetValue goes through the same check.
  EXPECT_THAT(ErrorOf([&] { xGm.GetValue(512); }), HasSubstr("GlobalTensor::GetValue read"));
}

TEST(GmChecks, PointerThatIsNotDeviceMemory) {
  CoreFixture f;
  std::vector<half> host(64);
  AscendC::GlobalTensor<half> xGm;
  xGm.SetGlobalBuffer(host.data(), 64);
  auto ub = f.Take<half>(64);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { AscendC::DataCopy(ub, xGm, 64); }, &kind);
  EXPECT_THAT(msg, HasSubstr("DataCopy GM->UB read at 0x"));
  EXPECT_THAT(msg, HasSubstr("address is not device memory"));
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
}

// ---- UB and TPipe ----

TEST(PipeChecks, UbOverflowAtInitBufferNamesBytesAndSoc) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 2> que;
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { pipe.InitBuffer(que, 2, 100 * 1024); }, &kind);
  EXPECT_THAT(msg, HasSubstr("InitBuffer: VECIN queue needs 2 x 102400 B at UB offset 0"));
  EXPECT_THAT(msg, HasSubstr("196608 B on Ascend910B1"));
  EXPECT_EQ(kind, ErrorKind::kUbOverflow);
}

// TSCM<pos> is CANN's alias of TQueBind<pos, TSCM> (kernel_tpipe.h); its L1 buffers and the AIV's
// GM staging copy into them are not modelled, so InitBuffer says so instead of carving UB.
static_assert(std::is_same_v<AscendC::TSCM<TPosition::VECIN>,
                             AscendC::TQueBind<TPosition::VECIN, TPosition::TSCM, 1, 0>>);
static_assert(std::is_same_v<AscendC::TSCM<TPosition::GM, 2>,
                             AscendC::TQueBind<TPosition::GM, TPosition::TSCM, 2, 0>>);
TEST(PipeChecks, TscmQueueInitBufferIsNotSimulated) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  AscendC::TPipe pipe;
  AscendC::TSCM<TPosition::VECIN> scm;
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { pipe.InitBuffer(scm, 1, 1024); }, &kind);
  EXPECT_THAT(msg, HasSubstr("InitBuffer: VECIN->TSCM queue: a TSCM queue (L1 Buffer written "
                             "from VECIN or GM for the Cube) is not simulated"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  // The pipe stays usable.
  AscendC::TQue<TPosition::VECIN, 1> que;
  EXPECT_TRUE(pipe.InitBuffer(que, 1, 1024));
}

TEST(PipeChecks, UbOverflowOnTheSmallerSocIsReportedWithItsName) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend310P3"));
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 200 * 1024);
  const std::string msg = ErrorOf([&] { pipe.InitBuffer(b, 100 * 1024); });
  EXPECT_THAT(msg, HasSubstr("TBuf needs 102400 B at UB offset 204800"));
  EXPECT_THAT(msg, HasSubstr("262144 B on Ascend310P3"));
}

TEST(PipeChecks, AtMost64BuffersPerTPipe) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  AscendC::TPipe pipe;
  std::vector<AscendC::TBuf<TPosition::VECCALC>> bufs(65);
  for (int i = 0; i < 64; ++i) pipe.InitBuffer(bufs[i], 32);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { pipe.InitBuffer(bufs[64], 32); }, &kind);
  EXPECT_THAT(msg, HasSubstr("at most 64 buffers"));
  EXPECT_EQ(kind, ErrorKind::kUbOverflow);
  // Queues count too (on the next TPipe: the first must be destroyed before it).
  pipe.Destroy();
  AscendC::TPipe pipe2;
  std::vector<AscendC::TQue<TPosition::VECIN, 2>> queues(33);
  for (int i = 0; i < 32; ++i) pipe2.InitBuffer(queues[i], 2, 32);
  EXPECT_THAT(ErrorOf([&] { pipe2.InitBuffer(queues[32], 2, 32); }),
              HasSubstr("one TPipe holds at most 64 (64 in use)"));
}

// ---- queue protocol ----

class QueueChecks : public ::testing::Test {
 protected:
  QueueChecks() : core_(ascsim::FindSocProfile("Ascend910B1")) {
    pipe_.InitBuffer(inQueue_, 2, 1024);
    pipe_.InitBuffer(outQueue_, 2, 1024);
  }
  ascsim::aicore::SingleCore core_;
  AscendC::TPipe pipe_;
  AscendC::TQue<TPosition::VECIN, 2> inQueue_;
  AscendC::TQue<TPosition::VECOUT, 2> outQueue_;
};

TEST_F(QueueChecks, TheNormalProtocolWorks) {
  for (int round = 0; round < 5; ++round) {
    LocalTensor<half> a = inQueue_.AllocTensor<half>();
    LocalTensor<half> b = inQueue_.AllocTensor<half>();
    inQueue_.EnQue(a);
    inQueue_.EnQue(b);
    EXPECT_EQ(inQueue_.GetTensorCountInQue(), 2);
    LocalTensor<half> a2 = inQueue_.DeQue<half>();
    EXPECT_EQ(a2.GetPhyAddr(), a.GetPhyAddr());  // FIFO order
    LocalTensor<half> b2 = inQueue_.DeQue<half>();
    inQueue_.FreeTensor(a2);
    inQueue_.FreeTensor(b2);
  }
}

TEST_F(QueueChecks, DeQueOfAnEmptyQueue) {
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { inQueue_.DeQue<half>(); }, &kind);
  EXPECT_EQ(msg,
            "test: block 0/1: DeQue on VECIN queue: the queue is empty (2 buffers, none "
            "enqueued); the device would hang until the AI-core timeout (507014)");
  EXPECT_EQ(kind, ErrorKind::kQueueMisuse);
}

TEST_F(QueueChecks, AllocTensorWithEveryBufferInUse) {
  inQueue_.AllocTensor<half>();
  LocalTensor<half> b = inQueue_.AllocTensor<half>();
  inQueue_.EnQue(b);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { inQueue_.AllocTensor<half>(); }, &kind);
  EXPECT_THAT(msg, HasSubstr("AllocTensor on VECIN queue: all 2 buffers are in use (1 allocated, "
                             "1 queued, 0 dequeued; missing FreeTensor?)"));
  EXPECT_EQ(kind, ErrorKind::kQueueMisuse);
}

TEST_F(QueueChecks, FreeTensorOfAForeignTensor) {
  LocalTensor<half> t = inQueue_.AllocTensor<half>();
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { outQueue_.FreeTensor(t); }, &kind);
  EXPECT_THAT(msg, HasSubstr("FreeTensor on VECOUT queue: the tensor belongs to buffer 0 of VECIN "
                             "queue"));
  EXPECT_EQ(kind, ErrorKind::kQueueMisuse);
}

TEST_F(QueueChecks, DoubleFreeTensor) {
  LocalTensor<half> t = inQueue_.AllocTensor<half>();
  LocalTensor<half> copy = t;
  inQueue_.FreeTensor(t);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { inQueue_.FreeTensor(copy); }, &kind);
  EXPECT_THAT(msg, HasSubstr("is already free (double FreeTensor)"));
  EXPECT_EQ(kind, ErrorKind::kQueueMisuse);
}

TEST_F(QueueChecks, FreeTensorStillQueued) {
  LocalTensor<half> t = inQueue_.AllocTensor<half>();
  inQueue_.EnQue(t);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { inQueue_.FreeTensor(t); }, &kind);
  EXPECT_THAT(msg, HasSubstr("is still in the queue (DeQue it first)"));
  EXPECT_EQ(kind, ErrorKind::kQueueMisuse);
}

TEST_F(QueueChecks, EnQueOfAFreedTensor) {
  LocalTensor<half> t = inQueue_.AllocTensor<half>();
  LocalTensor<half> stale = t;
  inQueue_.FreeTensor(t);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { inQueue_.EnQue(stale); }, &kind);
  EXPECT_THAT(msg, HasSubstr("EnQue on VECIN queue: LocalTensor used after FreeTensor (buffer 0 "
                             "of VECIN queue)"));
  EXPECT_EQ(kind, ErrorKind::kQueueMisuse);
}

TEST_F(QueueChecks, UseOfALocalTensorAfterFreeTensor) {
  LocalTensor<half> x = inQueue_.AllocTensor<half>();
  LocalTensor<half> y = outQueue_.AllocTensor<half>();
  LocalTensor<half> stale = x;
  inQueue_.FreeTensor(x);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { AscendC::Add(y, stale, stale, 64); }, &kind);
  EXPECT_EQ(msg, "test: block 0/1: Add: src0 LocalTensor used after FreeTensor (buffer 0 of VECIN "
                 "queue)");
  EXPECT_EQ(kind, ErrorKind::kQueueMisuse);
  // Reallocating the buffer does not revive the stale view.
  inQueue_.AllocTensor<half>();
  inQueue_.AllocTensor<half>();
  EXPECT_THAT(ErrorOf([&] { stale.GetValue(0); }), HasSubstr("used after FreeTensor"));
}

// ---- vector operands ----

TEST(OperandChecks, CountBeyondTensorSize) {
  CoreFixture f;
  auto a = f.Take<half>(128), b = f.Take<half>(128), d = f.Take<half>(128);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { AscendC::Add(d, a, b, 144); }, &kind);
  EXPECT_EQ(msg, "test: block 0/1: Add: dst [0, 144) of half exceeds LocalTensor size 128");
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
}

TEST(OperandChecks, NegativeCount) {
  CoreFixture f;
  auto a = f.Take<float>(64), d = f.Take<float>(64);
  ErrorKind kind{};
  EXPECT_THAT(ErrorOf([&] { AscendC::Exp(d, a, -1); }, &kind), HasSubstr("Exp: count -1 is negative"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  EXPECT_THAT(ErrorOf([&] { AscendC::Muls(d, a, 2.0f, -5); }), HasSubstr("count -5 is negative"));
}

TEST(OperandChecks, MisalignedUbOperand) {
  CoreFixture f;
  auto a = f.Take<half>(128), d = f.Take<half>(128);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { AscendC::Abs(d, a[3], 64); }, &kind);
  EXPECT_THAT(msg, HasSubstr("Abs: src UB address 0x"));
  EXPECT_THAT(msg, HasSubstr("is not 32-byte aligned"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  // An offset of a whole 32 B block is fine.
  AscendC::Abs(d, a[16], 64);
}

TEST(OperandChecks, PartialOverlapOfSourceAndDestination) {
  CoreFixture f;
  auto a = f.Take<half>(256);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] { AscendC::Relu(a[16], a, 64); }, &kind);
  EXPECT_THAT(msg, HasSubstr("Relu: dst UB ["));
  EXPECT_THAT(msg, HasSubstr("partially overlaps src UB ["));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  AscendC::Relu(a, a, 64);  // the same range is fine
}

TEST(OperandChecks, UnboundLocalTensor) {
  CoreFixture f;
  auto a = f.Take<half>(64);
  LocalTensor<half> unbound;
  EXPECT_THAT(ErrorOf([&] { AscendC::Add(unbound, a, a, 16); }),
              HasSubstr("dst LocalTensor is not bound to a buffer"));
}

TEST(OperandChecks, ReduceSumWorkLocalTooSmall) {
  CoreFixture f;
  auto src = f.Take<float>(1024), dst = f.Take<float>(8), work = f.Take<float>(8);
  // 1000 float = 16 repeats of 64 -> 16 work elements needed.
  const std::string msg = ErrorOf([&] { AscendC::ReduceSum(dst, src, work, 1000); });
  EXPECT_THAT(msg, HasSubstr("ReduceSum: workLocal [0, 16) of float exceeds LocalTensor size 8"));
}

// ---- DataCopy length traps ----

TEST(CopyChecks, DataCopyNotMultipleOf32BytesRoundsDownAndWarns) {
  DeviceBuffer x(64 * sizeof(half));
  for (int i = 0; i < 64; ++i) x.as<half>()[i] = half(float(i + 1));
  WarningCapture warnings;
  std::vector<float> seen(32);
  ascsim::Launch("short_copy", 2, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    LocalTensor<half> ub = buf.Get<half>();
    AscendC::Duplicate(ub, half(-1.0f), 32);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer(x.as<half>(), 64);
    AscendC::DataCopy(ub, xGm, 17);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
    if (AscendC::GetBlockIdx() == 0) {
      for (int i = 0; i < 32; ++i) seen[i] = float(ub.GetValue(i));
    }
  });
  for (int i = 0; i < 16; ++i) EXPECT_EQ(seen[i], float(i + 1));
  for (int i = 16; i < 32; ++i) EXPECT_EQ(seen[i], -1.0f) << i;
  ASSERT_EQ(warnings.lines.size(), 1u);  // both blocks hit it: one line with a count
  EXPECT_THAT(warnings.lines[0],
              HasSubstr("DataCopy GM->UB count 17 of half (34 B) is not a multiple of 32 B; the "
                        "device copies 32 B (16 elements)"));
  EXPECT_THAT(warnings.lines[0], HasSubstr("(x2)"));
  EXPECT_THAT(warnings.lines[0], StartsWith("short_copy: block 0/2: "));
}

TEST(CopyChecks, WarningLinesDoNotDependOnWhichBlockRanFirst) {
  // Block 0 warns last in time; its line must still be the one printed, and first.
  DeviceBuffer x(64 * sizeof(half));
  WarningCapture warnings;
  ascsim::Launch("late_warner", 8, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer(x.as<half>(), 64);
    const int64_t b = AscendC::GetBlockIdx();
    if (b == 0) std::this_thread::sleep_for(std::chrono::milliseconds(30));
    AscendC::DataCopy(buf.Get<half>(), xGm, b == 1 ? 9 : 7);  // block 1 raises its own line
  });
  const std::vector<std::string> expected = {
      "late_warner: block 0/8: DataCopy GM->UB count 7 of half (14 B) is not a multiple of 32 B; "
      "the device copies 0 B (0 elements) and drops the rest (use DataCopyPad) (x7)",
      "late_warner: block 1/8: DataCopy GM->UB count 9 of half (18 B) is not a multiple of 32 B; "
      "the device copies 0 B (0 elements) and drops the rest (use DataCopyPad)"};
  EXPECT_EQ(warnings.lines, expected);
}

TEST(CopyChecks, DataCopyNotMultipleOf32BytesIsAnErrorInStrictMode) {
  DeviceBuffer x(64 * sizeof(half));
  ascsim::ScopedSettings settings;
  ascsim::SetStrict(true);
  ErrorKind kind{};
  const std::string msg = LaunchError(
      "short_copy", 1,
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 64);
        AscendC::GlobalTensor<half> xGm;
        xGm.SetGlobalBuffer(x.as<half>(), 64);
        AscendC::DataCopy(xGm, buf.Get<half>(), 7);
      },
      &kind);
  EXPECT_THAT(msg, HasSubstr("DataCopy UB->GM count 7 of half (14 B) is not a multiple of 32 B"));
  EXPECT_THAT(msg, HasSubstr("[strict mode]"));
  EXPECT_EQ(kind, ErrorKind::kStrictWarning);
}

TEST(CopyChecks, DataCopyPadIsNotAvailableOn310P) {
  CoreFixture f(64 * 1024, "Ascend310P3");
  DeviceBuffer x(64 * sizeof(half));
  AscendC::GlobalTensor<half> xGm;
  xGm.SetGlobalBuffer(x.as<half>(), 64);
  auto ub = f.Take<half>(64);
  ErrorKind kind{};
  const std::string msg = ErrorOf([&] {
    AscendC::DataCopyPad(ub, xGm, AscendC::DataCopyExtParams(1, 14, 0, 0, 0),
                         AscendC::DataCopyPadExtParams<half>(false, 0, 0, half(0.0f)));
  }, &kind);
  EXPECT_EQ(msg, "test: block 0/1: DataCopyPad GM->UB: DataCopyPad is not available on Ascend310P3");
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  EXPECT_THAT(ErrorOf([&] { AscendC::DataCopyPad(xGm, ub, AscendC::DataCopyExtParams(1, 14, 0, 0, 0)); }),
              HasSubstr("DataCopyPad UB->GM: DataCopyPad is not available on Ascend310P3"));
}

TEST(CopyChecks, BlockCountAboveTheDeviceLimit) {
  CoreFixture f;
  DeviceBuffer x(4096 * 32);
  AscendC::GlobalTensor<half> xGm;
  xGm.SetGlobalBuffer(x.as<half>());
  auto ub = f.Take<half>(64);
  EXPECT_THAT(ErrorOf([&] { AscendC::DataCopy(ub, xGm, AscendC::DataCopyParams(4096, 1, 0, 0)); }),
              HasSubstr("blockCount 4096 exceeds the device limit 4095"));
}

// ---- synchronisation ----

TEST(SyncChecks, WaitFlagWithoutSetFlag) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  ErrorKind kind{};
  const std::string msg =
      ErrorOf([&] { AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1); }, &kind);
  EXPECT_EQ(msg,
            "test: block 0/1: WaitFlag<MTE2_V>(EVENT_ID1) has no matching SetFlag; the device "
            "would hang until the AI-core timeout (507014)");
  EXPECT_EQ(kind, ErrorKind::kSyncMisuse);
  // A matched pair is fine, once.
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  EXPECT_THAT(ErrorOf([&] { AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0); }),
              HasSubstr("no matching SetFlag"));
}

TEST(SyncChecks, SetFlagNeverWaitedIsAWarning) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(ascsim::kSanitizeRace | ascsim::kSanitizeInit);  // `sync` makes it a fault
  WarningCapture warnings;
  ascsim::Launch("flags", 1, [] { AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID2); });
  ASSERT_EQ(warnings.lines.size(), 1u);
  EXPECT_EQ(warnings.lines[0], "flags: block 0/1: SetFlag<MTE3_V>(EVENT_ID2) was never waited for "
                               "(1 pending at kernel end); every SetFlag needs its WaitFlag");
}

TEST(SyncChecks, EventIdOutOfRange) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  ErrorKind kind{};
  EXPECT_THAT(ErrorOf([&] { AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(8); }, &kind),
              HasSubstr("SetFlag<V_MTE3>(8): event id must be in EVENT_ID0..EVENT_ID7"));
  EXPECT_EQ(kind, ErrorKind::kSyncMisuse);
  EXPECT_THAT(ErrorOf([&] { AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(-1); }),
              HasSubstr("WaitFlag<V_MTE3>(-1): event id must be in EVENT_ID0..EVENT_ID7"));
}

// ---- misc ----

TEST(KernelChecks, AssertInAKernel) {
  ErrorKind kind{};
  const std::string msg = LaunchError("asserting", 4, [] {
    const int64_t b = AscendC::GetBlockIdx();
    ASSERT(b != 2);
  }, &kind);
  EXPECT_THAT(msg, StartsWith("asserting: block 2/4: ASSERT(b != 2) failed at "));
  EXPECT_THAT(msg, HasSubstr("checks_test.cpp:"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
}

TEST(KernelChecks, GetTPipePtrWithoutATPipe) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  EXPECT_EQ(ErrorOf([] { AscendC::GetTPipePtr(); }),
            "test: block 0/1: GetTPipePtr: no TPipe has been constructed in this kernel");
  AscendC::TPipe pipe;
  EXPECT_EQ(AscendC::GetTPipePtr(), &pipe);
}

TEST(KernelChecks, KernelApiOutsideAnyLaunch) {
  ASSERT_EQ(ascsim::aicore::TryCurrentCore(), nullptr);
  ErrorKind kind{};
  EXPECT_THAT(ErrorOf([] { AscendC::GetBlockIdx(); }, &kind),
              HasSubstr("Ascend C kernel API called outside a kernel launch"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  EXPECT_THAT(ErrorOf([] { AscendC::TPipe pipe; }), HasSubstr("outside a kernel launch"));
}

}  // namespace
