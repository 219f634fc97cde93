// Fill(GlobalTensor, size, value) (ascsim/adv/fill.h): every element set, in half, float and the
// integer types, odd sizes, sizes past one 255-repeat burst, after InitBuffer (the UB above the
// TPipe stages the value), under SetAtomicAdd, on the 310P path (32-byte copies and SetValue), and
// its errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"

namespace {

using ::testing::HasSubstr;

using ascsim_test::FaultOf;

// Each of `blocks` blocks fills its slice of `per` elements with value + block; the element after
// the last slice is a guard that must stay untouched.
template <class T>
void CheckFill(uint32_t blocks, uint64_t per, float value, bool after_init_buffer) {
  const uint64_t n = blocks * per + 1;
  ascsim_test::DeviceBuffer buf(n * sizeof(T));
  T* host = buf.as<T>();
  for (uint64_t i = 0; i < n; ++i) host[i] = static_cast<T>(7);
  ascsim::Launch("fill", blocks, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tbuf;
    if (after_init_buffer) pipe.InitBuffer(tbuf, 4096);
    AscendC::GlobalTensor<T> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(host) + per * AscendC::GetBlockIdx(), per);
    AscendC::Fill(gm, per, static_cast<T>(value + static_cast<float>(AscendC::GetBlockIdx())));
  });
  for (uint32_t b = 0; b < blocks; ++b) {
    const T expected = static_cast<T>(value + static_cast<float>(b));
    for (uint64_t i = 0; i < per; ++i) {
      ASSERT_EQ(ascsim_test::Bits(host[b * per + i]), ascsim_test::Bits(expected))
          << "block " << b << " element " << i;
    }
  }
  EXPECT_EQ(ascsim_test::Bits(host[n - 1]), ascsim_test::Bits(static_cast<T>(7)));
}

TEST(AdvFill, EveryElementInHalfFloatAndIntegerTypes) {
  CheckFill<half>(3, 1, 1.5f, false);
  CheckFill<half>(2, 333, -2.25f, true);
  CheckFill<float>(4, 17, 0.125f, false);
  CheckFill<float>(1, 70000, 3.0f, true);  // several bursts of 255 x 256 B
  CheckFill<int32_t>(5, 9, -4.0f, false);
  CheckFill<uint16_t>(2, 15, 9.0f, false);
}

TEST(AdvFill, OnThe310PCopiesBlocksAndSetsTheTail) {
  ascsim::ScopedSettings settings;
  ascsim::SetSoc("Ascend310P3");
  CheckFill<half>(2, 50, 2.5f, true);
  CheckFill<float>(3, 7, -1.0f, false);
}

TEST(AdvFill, AccumulatesUnderSetAtomicAdd) {
  ascsim_test::DeviceBuffer buf(64 * sizeof(float));
  float* host = buf.as<float>();
  for (int i = 0; i < 64; ++i) host[i] = static_cast<float>(i);
  ascsim::Launch("fill_atomic", 1, [&] {
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<float> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(host), 64);
    AscendC::SetAtomicAdd<float>();
    AscendC::Fill(gm, 40, 0.5f);
    AscendC::SetAtomicNone();
  });
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(host[i], static_cast<float>(i) + (i < 40 ? 0.5f : 0.0f)) << i;
  }
}

TEST(AdvFill, Errors) {
  ascsim_test::DeviceBuffer buf(64 * sizeof(float));
  float* host = buf.as<float>();
  EXPECT_THAT(FaultOf("fill_size", 1,
                      [&] {
                        AscendC::TPipe pipe;
                        AscendC::GlobalTensor<float> gm;
                        gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(host), 64);
                        AscendC::Fill(gm, 65, 1.0f);
                      }),
              HasSubstr("exceeds GlobalTensor size 64"));
  EXPECT_THAT(FaultOf("fill_nopipe", 1,
                      [&] {
                        AscendC::GlobalTensor<float> gm;
                        gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(host), 64);
                        AscendC::Fill(gm, 8, 1.0f);
                      }),
              HasSubstr("Fill(GlobalTensor): no TPipe"));
  EXPECT_THAT(FaultOf("fill_type", 1,
                      [&] {
                        AscendC::TPipe pipe;
                        AscendC::GlobalTensor<int8_t> gm;
                        gm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(host), 64);
                        AscendC::Fill(gm, 8, static_cast<int8_t>(1));
                      }),
              HasSubstr("Fill(GlobalTensor) of int8_t: Ascend910B1 supports uint16_t, int16_t, "
                        "half, uint32_t, int32_t and float"));
}

}  // namespace
