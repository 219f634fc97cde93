// The default sanitizer (race,init) on correct code from Ascend's documentation, and what the init
// check does report:
//  - an advanced API's outputs are written, whatever their names (SoftMax's sumTensor and
//    maxTensor are documented outputs: "dst、sum、max为目的操作数");
//  - definedness travels with copies (as Valgrind's memcheck tracks it through moves): copying a
//    result out in whole 32-byte blocks (ReduceSum into one element, then DataCopy of 16 halves,
//    as Ascend's ReduceSum example does) is not a use of the block's other bytes; a vector op over
//    unused lanes passes their undefinedness on to its results. A report comes when undefined
//    bytes decide something (a scalar read) or reach the result as a whole 32-byte block that
//    was computed from them, or as a copy out of nothing but blocks nothing wrote; blocks nothing
//    wrote beside results (output padding, as the official Reduce sample copies out) warn.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"
#include "tiling/softmax_tiling.h"

namespace {

using ascsim_test::DeviceBuffer;

constexpr uint32_t kRaceInit = ascsim::kSanitizeRace | ascsim::kSanitizeInit;

// The launch's fault message ("" when it passed); its warnings appended to `warnings` if given.
std::string RunSanitized(const char* kernel, std::function<void()> body, uint32_t flags = kRaceInit,
                         std::vector<std::string>* warnings = nullptr, bool strict = false) {
  ascsim_test::SanitizedRun run =
      ascsim_test::LaunchSanitized(kernel, 1, flags, std::move(body), strict);
  if (warnings != nullptr)
    warnings->insert(warnings->end(), run.warnings.begin(), run.warnings.end());
  return run.message;
}

// SoftMax in the shape of the API docs' example: x in through a queue, dst, sum and max freshly
// allocated from the output queues, all three copied out.
TEST(SanitizerDefinedness, SoftMaxOutputsAreWrittenNotRead) {
  constexpr uint32_t m = 4, k = 64;  // float rows
  constexpr uint32_t blk = 8;        // floats per 32 B block: sum and max are [m, 8]
  DeviceBuffer x(m * k * 4), y(m * k * 4), sum(m * blk * 4), mx(m * blk * 4);
  for (uint32_t i = 0; i < m * k; ++i) x.as<float>()[i] = static_cast<float>(i % 7);
  AscendC::SoftMaxTiling tiling;
  AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), sizeof(float),
                             AscendC::GetSoftMaxMinTmpSize(ge::Shape({m, k}), 4, false), tiling);
  const std::string msg = RunSanitized("softmax_doc", [&] {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue, sumQueue, maxQueue;
    AscendC::GlobalTensor<float> xGm, yGm, sumGm, maxGm;
    xGm.SetGlobalBuffer(x.as<float>(), m * k);
    yGm.SetGlobalBuffer(y.as<float>(), m * k);
    sumGm.SetGlobalBuffer(sum.as<float>(), m * blk);
    maxGm.SetGlobalBuffer(mx.as<float>(), m * blk);
    pipe.InitBuffer(inQueue, 1, m * k * sizeof(float));
    pipe.InitBuffer(outQueue, 1, m * k * sizeof(float));
    pipe.InitBuffer(sumQueue, 1, m * blk * sizeof(float));
    pipe.InitBuffer(maxQueue, 1, m * blk * sizeof(float));
    AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, m * k);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    AscendC::LocalTensor<float> sumLocal = sumQueue.AllocTensor<float>();
    AscendC::LocalTensor<float> maxLocal = maxQueue.AllocTensor<float>();
    AscendC::SoftMaxShapeInfo shape{m, k, m, k};
    AscendC::SoftMax<float>(yLocal, sumLocal, maxLocal, xLocal, tiling, shape);
    outQueue.EnQue(yLocal);
    sumQueue.EnQue(sumLocal);
    maxQueue.EnQue(maxLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    sumLocal = sumQueue.DeQue<float>();
    maxLocal = maxQueue.DeQue<float>();
    AscendC::DataCopy(yGm, yLocal, m * k);
    AscendC::DataCopy(sumGm, sumLocal, m * blk);
    AscendC::DataCopy(maxGm, maxLocal, m * blk);
    outQueue.FreeTensor(yLocal);
    sumQueue.FreeTensor(sumLocal);
    maxQueue.FreeTensor(maxLocal);
  });
  EXPECT_EQ(msg, "");
  EXPECT_EQ(mx.as<float>()[0], 6.0f);  // row 0 holds 0..6 repeating
}

// Ascend's ReduceSum example: the sum lands in element 0 of dst; the whole 32-byte block goes out.
TEST(SanitizerDefinedness, ReduceSumIntoOneElementThenAWholeBlockOut) {
  constexpr uint32_t n = 288;  // halves
  DeviceBuffer x(n * 2), z(32);
  for (uint32_t i = 0; i < n; ++i) x.as<half>()[i] = half(1.0f);
  const std::string msg = RunSanitized("reduce_sum_doc", [&] {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::GlobalTensor<half> xGm, zGm;
    xGm.SetGlobalBuffer(x.as<half>(), n);
    zGm.SetGlobalBuffer(z.as<half>(), 16);
    pipe.InitBuffer(inQueue, 1, n * sizeof(half));
    pipe.InitBuffer(outQueue, 1, 32);
    pipe.InitBuffer(workBuf, 32 * sizeof(half));
    AscendC::LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
    AscendC::DataCopy(xLocal, xGm, n);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<half>();
    AscendC::LocalTensor<half> zLocal = outQueue.AllocTensor<half>();
    AscendC::LocalTensor<half> work = workBuf.Get<half>();
    AscendC::ReduceSum<half>(zLocal, xLocal, work, n);
    outQueue.EnQue(zLocal);
    inQueue.FreeTensor(xLocal);
    zLocal = outQueue.DeQue<half>();
    AscendC::DataCopy(zGm, zLocal, 16);  // element 0 is the sum, 1..15 were never written
    outQueue.FreeTensor(zLocal);
  });
  EXPECT_EQ(msg, "");
  EXPECT_EQ(static_cast<float>(z.as<half>()[0]), 288.0f);
}

// A vector op over a whole block whose other lanes are unused: their undefinedness goes to the
// op's results, which go out in the same block as the defined lane.
TEST(SanitizerDefinedness, UnusedLanesThroughAVectorOpAndOut) {
  DeviceBuffer z(32);
  auto run = [&](bool read_lane_3) {
    return RunSanitized("unused_lanes", [&, read_lane_3] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> buf, outBuf;
      AscendC::GlobalTensor<float> zGm;
      zGm.SetGlobalBuffer(z.as<float>(), 8);
      pipe.InitBuffer(buf, 32);
      pipe.InitBuffer(outBuf, 32);
      AscendC::LocalTensor<float> v = buf.Get<float>();
      AscendC::LocalTensor<float> out = outBuf.Get<float>();
      v.SetValue(0, 2.0f);             // one lane defined
      AscendC::Muls(out, v, 3.0f, 8);  // all 8 lanes of the block: 7 are unused
      if (read_lane_3) {
        // A scalar read decides something: lane 3 was computed from nothing.
        (void)out.GetValue(3);
      }
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::DataCopy(zGm, out, 8);
    });
  };
  EXPECT_EQ(run(false), "");
  EXPECT_EQ(z.as<float>()[0], 6.0f);
  const std::string msg = run(true);
  EXPECT_NE(msg.find("unused_lanes: block 0/1: uninitialized read: S LocalTensor::GetValue"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("V Muls (call "), std::string::npos) << msg;  // where the bytes came from
}

// A copy out whose other blocks hold results carries padding along: the official Reduce sample
// (0_introduction 14_reduce) sums 4096 floats into one with WholeReduceSum and copies 32 out, and
// its host reads element 0. The blocks nothing wrote warn (an error under ASCSIM_STRICT=1).
TEST(SanitizerDefinedness, ReduceResultCopiedOutWithItsPaddingOnlyWarns) {
  constexpr uint32_t n = 64, out_len = 32;
  DeviceBuffer x(n * 4), z(out_len * 4);
  double want = 0;
  for (uint32_t i = 0; i < n; ++i) {
    x.as<float>()[i] = static_cast<float>(i % 5) + 0.25f;
    want += x.as<float>()[i];
  }
  auto body = [&] {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer(x.as<float>(), n);
    zGm.SetGlobalBuffer(z.as<float>(), out_len);
    pipe.InitBuffer(inQueue, 1, n * sizeof(float));
    pipe.InitBuffer(outQueue, 1, out_len * sizeof(float));
    AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, n);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outQueue.AllocTensor<float>();
    AscendC::WholeReduceSum<float>(zLocal, xLocal, static_cast<int32_t>(n), 1, 1, 1, 8);
    outQueue.EnQue<float>(zLocal);
    inQueue.FreeTensor(xLocal);
    zLocal = outQueue.DeQue<float>();
    AscendC::DataCopy(zGm, zLocal, out_len);
    outQueue.FreeTensor(zLocal);
  };
  std::vector<std::string> warnings;
  EXPECT_EQ(RunSanitized("reduce_padding", body, kRaceInit, &warnings), "");
  EXPECT_NEAR(z.as<float>()[0], want, 1e-3);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("reduce_padding: block 0/1: MTE3 DataCopy UB->GM (call "),
            std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("copies out UB [0x120, 0x140) of buffer 0 of VECOUT queue, which "
                             "nothing wrote since AllocTensor (call "),
            std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("output padding the host may not read"), std::string::npos);
  // Strict mode turns it into the launch's error.
  const std::string strict = RunSanitized("reduce_padding", body, kRaceInit, nullptr, true);
  EXPECT_NE(strict.find("copies out UB [0x120, 0x140)"), std::string::npos) << strict;
  EXPECT_NE(strict.find("[strict mode]"), std::string::npos) << strict;
  // With the init check off there is nothing to say.
  warnings.clear();
  EXPECT_EQ(RunSanitized("reduce_padding", body, ascsim::kSanitizeRace, &warnings), "");
  EXPECT_TRUE(warnings.empty());
}

// What is still reported: a copy out of nothing but blocks nothing wrote, a block computed from
// undefined bytes, and GM bytes so copied read back by the scalar unit.
TEST(SanitizerDefinedness, WholeUndefinedBlocksOutAndScalarReadsAreReported) {
  DeviceBuffer z(64);
  std::vector<std::string> warnings;
  const std::string padded = RunSanitized(
      "fresh_out",
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        AscendC::GlobalTensor<float> zGm;
        zGm.SetGlobalBuffer(z.as<float>(), 16);
        pipe.InitBuffer(buf, 64);
        AscendC::LocalTensor<float> v = buf.Get<float>();
        v.SetValue(0, 1.0f);  // block 0 has a defined byte, block 1 none: padding
        AscendC::DataCopy(zGm, v, 16);
      },
      kRaceInit, &warnings);
  EXPECT_EQ(padded, "");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("UB [0x20, 0x40) of the VECCALC TBuf, which nothing wrote since "
                             "InitBuffer"),
            std::string::npos)
      << warnings[0];

  const std::string fresh = RunSanitized("nothing_out", [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer(z.as<float>(), 16);
    pipe.InitBuffer(buf, 64);
    AscendC::DataCopy(zGm, buf.Get<float>(), 16);  // no block holds anything
  });
  EXPECT_NE(fresh.find("nothing_out: block 0/1: uninitialized read: MTE3 DataCopy UB->GM"),
            std::string::npos)
      << fresh;
  EXPECT_NE(fresh.find("UB [0x0, 0x20)"), std::string::npos) << fresh;
  EXPECT_NE(fresh.find("nothing wrote since InitBuffer"), std::string::npos) << fresh;

  const std::string computed = RunSanitized("computed_from_nothing", [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, out;
    AscendC::GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer(z.as<float>(), 8);
    pipe.InitBuffer(in, 32);
    pipe.InitBuffer(out, 32);
    AscendC::Adds(out.Get<float>(), in.Get<float>(), 1.0f, 8);  // `in` never written
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zGm, out.Get<float>(), 8);
  });
  EXPECT_NE(computed.find("uninitialized read: MTE3 DataCopy UB->GM"), std::string::npos)
      << computed;
  EXPECT_NE(computed.find("V Adds (call "), std::string::npos) << computed;

  const std::string gm_back = RunSanitized("gm_round_trip", [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer(z.as<float>(), 8);
    pipe.InitBuffer(buf, 32);
    AscendC::LocalTensor<float> v = buf.Get<float>();
    v.SetValue(0, 1.0f);
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zGm, v, 8);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
    (void)zGm.GetValue(0);  // defined
    (void)zGm.GetValue(5);  // copied out from a UB byte nothing wrote
  });
  EXPECT_NE(gm_back.find("gm_round_trip: block 0/1: uninitialized read: S GlobalTensor::GetValue"),
            std::string::npos)
      << gm_back;
  EXPECT_NE(gm_back.find("MTE3 DataCopy UB->GM (call "), std::string::npos) << gm_back;
}

}  // namespace
