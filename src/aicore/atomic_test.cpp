// SetAtomicAdd/Max/Min: UB->GM copies combine with GM, correctly when 48 blocks hit one range.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ascsim/error.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace {

constexpr uint32_t kLen = 256;

// Every block copies `value(b, i)` into the same kLen elements of `out` with the atomic mode on.
template <class T, class ValueFn>
void AccumulateFromBlocks(uint32_t block_dim, T* out, ValueFn value, bool use_pad = false) {
  ascsim::Launch("atomic_acc", block_dim, [=] {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(outQueue, 1, kLen * sizeof(T));
    AscendC::GlobalTensor<T> outGm;
    outGm.SetGlobalBuffer(out, kLen);
    AscendC::LocalTensor<T> local = outQueue.AllocTensor<T>();
    const auto b = static_cast<uint32_t>(AscendC::GetBlockIdx());
    for (uint32_t i = 0; i < kLen; ++i) local.SetValue(i, value(b, i));
    // The queue orders V before MTE3; scalar writes need their own flag.
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    outQueue.EnQue(local);
    local = outQueue.DeQue<T>();
    AscendC::SetAtomicAdd<T>();
    if (use_pad) {
      AscendC::DataCopyPad(outGm, local,
                           AscendC::DataCopyExtParams(1, (kLen - 3) * sizeof(T), 0, 0, 0));
    } else {
      AscendC::DataCopy(outGm, local, kLen);
    }
    AscendC::SetAtomicNone();
    outQueue.FreeTensor(local);
  });
}

TEST(AtomicCopy, FloatAddFrom48BlocksMatchesReference) {
  auto* out = static_cast<float*>(ascsim::DeviceMalloc(kLen * sizeof(float)));
  for (uint32_t i = 0; i < kLen; ++i) out[i] = 0.5f;  // GM is not cleared by SetAtomicAdd
  auto value = [](uint32_t b, uint32_t i) { return static_cast<float>((b * 7 + i) % 13) - 6.0f; };
  for (int rep = 0; rep < 3; ++rep) AccumulateFromBlocks<float>(48, out, value);
  for (uint32_t i = 0; i < kLen; ++i) {
    float expected = 0.5f;
    for (int rep = 0; rep < 3; ++rep)
      for (uint32_t b = 0; b < 48; ++b) expected += value(b, i);
    ASSERT_EQ(out[i], expected) << "element " << i;
  }
  ascsim::DeviceFree(out);
}

TEST(AtomicCopy, HalfAddFrom48BlocksMatchesReference) {
  auto* out = static_cast<half*>(ascsim::DeviceMalloc(kLen * sizeof(half)));
  for (uint32_t i = 0; i < kLen; ++i) out[i] = half(0.0f);
  // Quarter steps keep every partial sum exact in half, so the order of adds does not matter.
  auto value = [](uint32_t b, uint32_t i) { return half(static_cast<float>((b + i) % 8) * 0.25f); };
  AccumulateFromBlocks<half>(48, out, value);
  for (uint32_t i = 0; i < kLen; ++i) {
    half expected(0.0f);
    for (uint32_t b = 0; b < 48; ++b) expected = half(float(expected) + float(value(b, i)));
    ASSERT_EQ(float(out[i]), float(expected)) << "element " << i;
  }
  ascsim::DeviceFree(out);
}

TEST(AtomicCopy, HalfAddRoundsAfterEveryAdd) {
  // 2048 + 1 is not representable in half (spacing 2 there): each add of 1 rounds back to 2048
  // (ties to even), so 8 adds leave 2048; a float accumulator would give 2056.
  auto* out = static_cast<half*>(ascsim::DeviceMalloc(kLen * sizeof(half)));
  for (uint32_t i = 0; i < kLen; ++i) out[i] = half(2048.0f);
  AccumulateFromBlocks<half>(8, out, [](uint32_t, uint32_t) { return half(1.0f); });
  EXPECT_EQ(float(out[0]), 2048.0f);
  ascsim::DeviceFree(out);
}

TEST(AtomicCopy, DataCopyPadAddsOnlyTheCopiedBytes) {
  auto* out = static_cast<float*>(ascsim::DeviceMalloc(kLen * sizeof(float)));
  for (uint32_t i = 0; i < kLen; ++i) out[i] = 1.0f;
  AccumulateFromBlocks<float>(4, out, [](uint32_t b, uint32_t) { return float(b + 1); }, true);
  EXPECT_EQ(out[0], 11.0f);
  EXPECT_EQ(out[kLen - 4], 11.0f);
  EXPECT_EQ(out[kLen - 3], 1.0f);  // past blockLen: untouched
  ascsim::DeviceFree(out);
}

TEST(AtomicCopy, WithoutAtomicTheCopyOverwrites) {
  auto* out = static_cast<float*>(ascsim::DeviceMalloc(kLen * sizeof(float)));
  for (uint32_t i = 0; i < kLen; ++i) out[i] = 100.0f;
  ascsim::Launch("plain", 1, [=] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kLen * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::Duplicate(t, 2.0f, kLen);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(out, kLen);
    AscendC::SetAtomicMax<float>();
    AscendC::DataCopy(g, t, kLen);  // max(100, 2) = 100
    // Copies out to the same GM bytes may overlap in flight (and Max then Min do not commute).
    AscendC::PipeBarrier<PIPE_MTE3>();
    AscendC::SetAtomicMin<float>();
    AscendC::DataCopy(g, t, kLen);  // min(100, 2) = 2
    AscendC::SetAtomicNone();
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    AscendC::Duplicate(t, 7.0f, kLen);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(g, t, kLen);  // overwrite
  });
  EXPECT_EQ(out[0], 7.0f);
  ascsim::DeviceFree(out);
}

TEST(AtomicCopy, TypeMismatchIsAFault) {
  auto* out = static_cast<half*>(ascsim::DeviceMalloc(kLen * sizeof(half)));
  try {
    ascsim::Launch("mismatch", 1, [=] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, kLen * sizeof(half));
      AscendC::Duplicate(buf.Get<half>(), half(1.0f), kLen);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::GlobalTensor<half> g;
      g.SetGlobalBuffer(out, kLen);
      AscendC::SetAtomicAdd<float>();
      AscendC::DataCopy(g, buf.Get<half>(), kLen);
    });
    FAIL() << "expected a fault";
  } catch (const ascsim::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "mismatch: block 0/1: DataCopy UB->GM of half while SetAtomicAdd<float> is set"),
              std::string::npos)
        << e.what();
  }
  ascsim::DeviceFree(out);
}

TEST(AtomicCopy, UnsupportedTypeOn310PIsAFault) {
  ascsim::ScopedSettings settings;
  ascsim::SetSoc("Ascend310P3");
  try {
    ascsim::Launch("atomic_i32", 1, [] { AscendC::SetAtomicAdd<int32_t>(); });
    ADD_FAILURE() << "expected a fault";
  } catch (const ascsim::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("SetAtomicAdd<int32_t>: Ascend310P3 cannot combine int32_t"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
