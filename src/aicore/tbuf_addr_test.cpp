// TBuf copies, TBuffAddr (TBuf::GetBufferAddr, LocalTensor::GetBufferHandle / SetAddr) and the
// TPipe copy assignment (ascsim/aicore/tpipe.h, local_tensor.h): a copy reaches the same buffer,
// an address record round-trips to the same bytes for both dtypes and odd sizes, and every error
// names its call.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "aicore_test_util.h"
// CANN's basic-API header by its own names (ops-nn conv3d_backprop_input_v2): compiles.
#include "basic_api/kernel_common.h"
#include "kernel_common.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

// Passed by value, as ops-nn apply_fused_ema_adam's ScalarPow takes its TBufs.
float ReadThroughCopy(AscendC::TBuf<AscendC::TPosition::VECCALC> buf, uint32_t i) {
  return buf.Get<float>().GetValue(i);
}

TEST(TBufCopy, ACopyReachesTheSameBuffer) {
  CoreFixture fx(64 * 1024);
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  fx.pipe().InitBuffer(buf, 96);
  buf.Get<float>().SetValue(5, 2.5f);
  EXPECT_EQ(ReadThroughCopy(buf, 5), 2.5f);
  AscendC::TBuf<AscendC::TPosition::VECCALC> other;
  other = buf;
  EXPECT_EQ(other.Get<float>().GetPhyAddr(), buf.Get<float>().GetPhyAddr());
  EXPECT_EQ(other.Get<float>().GetSize(), 24u);
  AscendC::TBuf<AscendC::TPosition::VECCALC> unset, copy_of_unset(unset);
  EXPECT_THAT(ErrorOf([&] { copy_of_unset.Get<float>(); }),
              HasSubstr("TBuf::Get: TBuf has no buffer (call pipe.InitBuffer first)"));
}

template <class T>
void RoundTrip(uint32_t bytes) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " bytes=" + std::to_string(bytes));
  CoreFixture fx(64 * 1024);
  AscendC::TBuf<AscendC::TPosition::VECCALC> pad, buf;
  fx.pipe().InitBuffer(pad, 32);  // buf does not start at 0
  fx.pipe().InitBuffer(buf, bytes);
  AscendC::LocalTensor<T> t = buf.Get<T>();
  const uint32_t n = t.GetSize();
  for (uint32_t i = 0; i < n; ++i) t.SetValue(i, T(float(i) * 0.5f));
  const AscendC::TBuffAddr a = buf.GetBufferAddr(t.GetBufferHandle());
  EXPECT_EQ(a.bufferAddr, t.GetPhyAddr());
  EXPECT_EQ(a.dataLen, (bytes + 31) / 32 * 32);
  EXPECT_EQ(a.logicPos, static_cast<uint8_t>(AscendC::TPosition::VECCALC));
  EXPECT_EQ(a.bufferHandle, t.GetBufferHandle());
  AscendC::LocalTensor<T> u;
  u.SetAddr(a);
  EXPECT_EQ(u.GetSize(), a.dataLen / sizeof(T));
  EXPECT_EQ(u.GetPhyAddr(), t.GetPhyAddr());
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(float(u.GetValue(i)), float(i) * 0.5f);
  u.SetValue(n - 1, T(-1.0f));
  EXPECT_EQ(float(t.GetValue(n - 1)), -1.0f);
}

TEST(TBuffAddr, RoundTripsToTheSameBytes) {
  RoundTrip<float>(96);
  RoundTrip<float>(100);  // rounded up to 128 B
  RoundTrip<half>(64);
  RoundTrip<half>(200);
}

TEST(TBuffAddr, Errors) {
  CoreFixture fx(64 * 1024);
  AscendC::TBuf<AscendC::TPosition::VECCALC> a, b;
  fx.pipe().InitBuffer(a, 64);
  fx.pipe().InitBuffer(b, 64);
  EXPECT_THAT(ErrorOf([&] { a.GetBufferAddr(b.Get<float>().GetBufferHandle()); }),
              HasSubstr("TBuf::GetBufferAddr: the handle is not this TBuf's buffer"));
  EXPECT_THAT(ErrorOf([&] { a.GetBufferAddr(nullptr); }),
              HasSubstr("TBuf::GetBufferAddr: the handle is null"));
  AscendC::TBuf<AscendC::TPosition::VECCALC> unset;
  EXPECT_THAT(ErrorOf([&] { unset.GetBufferAddr(nullptr); }),
              HasSubstr("TBuf::GetBufferAddr: TBuf has no buffer"));
  AscendC::LocalTensor<float> t;
  AscendC::TBuffAddr none{};
  EXPECT_THAT(ErrorOf([&] { t.SetAddr(none); }),
              HasSubstr("LocalTensor::SetAddr: the TBuffAddr names no buffer"));
  AscendC::TBuffAddr big = a.GetBufferAddr(a.Get<float>().GetBufferHandle());
  big.dataLen = 96;
  EXPECT_THAT(ErrorOf([&] { t.SetAddr(big); }), HasSubstr("are not inside the buffer at"));
}

TEST(TPipeCopy, AssignmentIsNotSimulated) {
  CoreFixture fx(64 * 1024);
  EXPECT_THAT(ErrorOf([&] { fx.pipe() = fx.pipe(); }),
              HasSubstr("TPipe::operator=: copying a TPipe (65536 B of UB in 1 buffers) into "
                        "another is not simulated; ascsim keeps one TPipe per kernel"));
}

}  // namespace
