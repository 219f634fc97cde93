// The init check through bit masks (Compare / CompareScalar -> mask tensor -> Select): mask bits
// computed from a tile's unwritten tail carry that undefinedness to the elements they select
// (sanitizer_hooks.h MaskBits), so the check judges where they end up, as for any other data. A
// kernel that compares the whole aligned tile and copies out only the elements it loaded is
// correct (ops-math is_close and asinh, ops-nn hard_swish_grad and softshrink_grad do this) and
// passes silently; one that copies the tail's results out, or reads such a mask bit with the
// scalar unit, is reported.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::DeviceBuffer;

constexpr uint32_t kRaceInit = ascsim::kSanitizeRace | ascsim::kSanitizeInit;

// The launch's fault message ("" when it passed); its warnings appended to `warnings` if given.
std::string RunSanitized(const char* kernel, std::function<void()> body,
                         std::vector<std::string>* warnings = nullptr) {
  ascsim_test::SanitizedRun run =
      ascsim_test::LaunchSanitized(kernel, 1, kRaceInit, std::move(body));
  if (warnings != nullptr)
    warnings->insert(warnings->end(), run.warnings.begin(), run.warnings.end());
  return run.message;
}

constexpr uint32_t kLoaded = 100;   // elements the tile holds
constexpr uint32_t kAligned = 128;  // Compare's count: whole 256 B repeats of float

// y[i] = x[i] > 0 ? 1 : 0 (CompareScalar) or x[i] > t[i] ? 1 : 0 (Compare) over the aligned tile,
// `copied` elements of y copied out.
class SignKernel {
 public:
  SignKernel(float* x, float* t, float* y, bool tensor_compare)
      : x_(x), t_(t), y_(y), tensor_compare_(tensor_compare) {}
  void Process(uint32_t copied, int scalar_read = -1) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf, onesBuf, zerosBuf, thresholdBuf;
    pipe.InitBuffer(inQueue, 1, kAligned * sizeof(float));
    pipe.InitBuffer(outQueue, 1, kAligned * sizeof(float));
    pipe.InitBuffer(maskBuf, kAligned / 8);
    pipe.InitBuffer(onesBuf, kAligned * sizeof(float));
    pipe.InitBuffer(zerosBuf, kAligned * sizeof(float));
    pipe.InitBuffer(thresholdBuf, kAligned * sizeof(float));
    AscendC::GlobalTensor<float> xGm, tGm, yGm;
    xGm.SetGlobalBuffer(x_, kLoaded);
    tGm.SetGlobalBuffer(t_, kAligned);
    yGm.SetGlobalBuffer(y_, kAligned);

    AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    AscendC::DataCopyExtParams copyParams{1, kLoaded * sizeof(float), 0, 0, 0};
    AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
    AscendC::DataCopyPad(xLocal, xGm, copyParams,
                         padParams);  // the tail [100, 128) stays unwritten
    inQueue.EnQue(xLocal);

    AscendC::LocalTensor<float> threshold = thresholdBuf.Get<float>();
    AscendC::DataCopy(threshold, tGm, kAligned);
    AscendC::LocalTensor<float> ones = onesBuf.Get<float>();
    AscendC::LocalTensor<float> zeros = zerosBuf.Get<float>();
    AscendC::Duplicate(ones, 1.0f, kAligned);
    AscendC::Duplicate(zeros, 0.0f, kAligned);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);

    xLocal = inQueue.DeQue<float>();
    AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
    if (tensor_compare_) {
      AscendC::Compare(mask, xLocal, threshold, AscendC::CMPMODE::GT, kAligned);
    } else {
      AscendC::CompareScalar(mask, xLocal, 0.0f, AscendC::CMPMODE::GT, kAligned);
    }
    if (scalar_read >= 0) {
      AscendC::PipeBarrier<PIPE_ALL>();
      mask_byte_ = mask.GetValue(scalar_read);
    }
    AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    AscendC::Select(yLocal, mask, ones, zeros, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, kAligned);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);

    yLocal = outQueue.DeQue<float>();
    AscendC::DataCopyExtParams outParams{1, copied * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
    AscendC::DataCopyPad(yGm, yLocal, outParams);
    outQueue.FreeTensor(yLocal);
  }
  uint8_t mask_byte() const { return mask_byte_; }

 private:
  float* x_;
  float* t_;
  float* y_;
  bool tensor_compare_;
  uint8_t mask_byte_ = 0;
};

struct Data {
  DeviceBuffer x{kLoaded * sizeof(float)}, t{kAligned * sizeof(float)}, y{kAligned * sizeof(float)};
  Data() {
    for (uint32_t i = 0; i < kLoaded; ++i) x.as<float>()[i] = static_cast<float>(i % 7) - 3.0f;
    for (uint32_t i = 0; i < kAligned; ++i) t.as<float>()[i] = static_cast<float>(i % 3) - 1.0f;
    for (uint32_t i = 0; i < kAligned; ++i) y.as<float>()[i] = -7.0f;
  }
};

TEST(SanitizerMaskDefinedness, TailComparedButNotCopiedOutIsSilent) {
  for (bool tensor_compare : {false, true}) {
    Data d;
    std::vector<std::string> warnings;
    const std::string msg = RunSanitized(
        "sign_tail_dropped",
        [&] {
          SignKernel(d.x.as<float>(), d.t.as<float>(), d.y.as<float>(), tensor_compare)
              .Process(kLoaded);
        },
        &warnings);
    EXPECT_EQ(msg, "") << tensor_compare;
    EXPECT_TRUE(warnings.empty()) << (warnings.empty() ? "" : warnings[0]);
    for (uint32_t i = 0; i < kLoaded; ++i) {
      const float x = d.x.as<float>()[i];
      const float ref =
          tensor_compare ? (x > d.t.as<float>()[i] ? 1.0f : 0.0f) : (x > 0.0f ? 1.0f : 0.0f);
      ASSERT_EQ(d.y.as<float>()[i], ref) << i;
    }
    for (uint32_t i = kLoaded; i < kAligned; ++i) ASSERT_EQ(d.y.as<float>()[i], -7.0f) << i;
  }
}

TEST(SanitizerMaskDefinedness, TailResultsCopiedOutAreReported) {
  for (bool tensor_compare : {false, true}) {
    Data d;
    const std::string msg = RunSanitized("sign_tail_out", [&] {
      SignKernel(d.x.as<float>(), d.t.as<float>(), d.y.as<float>(), tensor_compare)
          .Process(kAligned);
    });
    // Elements 104..127 were selected by bits computed only from the tail: y's blocks from byte
    // 416 (0x1a0) of the VECOUT buffer at UB 0x200 hold nothing computed from loaded data.
    EXPECT_EQ(msg,
              "sign_tail_out: block 0/1: uninitialized read: MTE3 DataCopyPad UB->GM (call 27) "
              "copies out src UB [0x3a0, 0x3c0) of buffer 0 of VECOUT queue, which V Select (call "
              "23) computed from bytes nothing wrote; every byte of that 32-byte block is "
              "undefined, and the copy takes it to GM (a block holding some result goes out whole "
              "without a report)")
        << tensor_compare;
  }
}

TEST(SanitizerMaskDefinedness, ScalarReadOfATailMaskByteIsReported) {
  Data d;
  // Byte 12 holds the bits of elements 96..103, four of them loaded: defined.
  SignKernel partly(d.x.as<float>(), d.t.as<float>(), d.y.as<float>(), false);
  EXPECT_EQ(RunSanitized("mask_byte_12", [&] { partly.Process(kLoaded, 12); }), "");
  uint8_t expect = 0;
  for (uint32_t i = 96; i < kLoaded; ++i) {
    if (d.x.as<float>()[i] > 0.0f) expect |= static_cast<uint8_t>(1u << (i - 96));
  }
  EXPECT_EQ(partly.mask_byte() & 0x0f, expect);
  // Byte 13 (elements 104..111) comes from the tail alone.
  SignKernel tail(d.x.as<float>(), d.t.as<float>(), d.y.as<float>(), false);
  const std::string msg = RunSanitized("mask_byte_13", [&] { tail.Process(kLoaded, 13); });
  EXPECT_NE(msg.find("mask_byte_13: block 0/1: uninitialized read: S LocalTensor::GetValue"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("which V CompareScalar (call 21) computed from bytes nothing wrote"),
            std::string::npos)
      << msg;
}

// VSEL_CMPMASK_SPR with a selMask tensor: the same 64 bits serve every repeat, so the undefined
// bits 32..63 (compared from the unloaded half of the tile) reach elements 32..63 of each repeat.
void ReusedMaskKernel(float* x, float* y, bool copy_all) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf, maskBuf, onesBuf, zerosBuf, outBuf;
  pipe.InitBuffer(inBuf, 64 * sizeof(float));
  pipe.InitBuffer(maskBuf, 32);
  pipe.InitBuffer(onesBuf, 128 * sizeof(float));
  pipe.InitBuffer(zerosBuf, 128 * sizeof(float));
  pipe.InitBuffer(outBuf, 128 * sizeof(float));
  AscendC::GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer(x, 32);
  yGm.SetGlobalBuffer(y, 128);
  AscendC::LocalTensor<float> in = inBuf.Get<float>();
  AscendC::DataCopy(in, xGm, 32);  // elements 32..63 stay unwritten
  AscendC::LocalTensor<float> ones = onesBuf.Get<float>(), zeros = zerosBuf.Get<float>();
  AscendC::Duplicate(ones, 1.0f, 128);
  AscendC::Duplicate(zeros, 0.0f, 128);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
  AscendC::CompareScalar(mask, in, 0.0f, AscendC::CMPMODE::GT, 64);
  AscendC::LocalTensor<float> out = outBuf.Get<float>();
  AscendC::Select(out, mask, ones, zeros, AscendC::SELMODE::VSEL_CMPMASK_SPR, 64, 2,
                  {1, 1, 1, 8, 8, 8});
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  if (copy_all) {
    AscendC::DataCopy(yGm, out, 128);
  } else {
    AscendC::DataCopy(yGm, out, 32);
    AscendC::DataCopy(yGm[32], out[64], 32);
  }
}

TEST(SanitizerMaskDefinedness, ReusedMaskBitsReachTheSameLanesOfEveryRepeat) {
  DeviceBuffer x(32 * sizeof(float)), y(128 * sizeof(float));
  for (uint32_t i = 0; i < 32; ++i) x.as<float>()[i] = static_cast<float>(i % 5) - 2.0f;
  EXPECT_EQ(RunSanitized("reused_lanes_dropped",
                         [&] { ReusedMaskKernel(x.as<float>(), y.as<float>(), false); }),
            "");
  for (uint32_t i = 0; i < 64; ++i) {
    const float ref = x.as<float>()[i % 32] > 0.0f ? 1.0f : 0.0f;
    ASSERT_EQ(y.as<float>()[i], ref) << i;
  }
  const std::string msg = RunSanitized(
      "reused_lanes_out", [&] { ReusedMaskKernel(x.as<float>(), y.as<float>(), true); });
  EXPECT_NE(msg.find("reused_lanes_out: block 0/1: uninitialized read: MTE3 DataCopy UB->GM"),
            std::string::npos)
      << msg;
  // Elements 32..39 of repeat 0: byte 128 of the output TBuf at UB 0x520.
  EXPECT_NE(msg.find("copies out src UB [0x5a0, 0x5c0) of the VECCALC TBuf, which V Select"),
            std::string::npos)
      << msg;
}

}  // namespace
