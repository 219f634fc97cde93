// The guards of the kernel API against misuse the device would not survive: negative and
// wrapping GM indices, in-place widening Cast and Brcb, tensors of a destroyed TPipe, a second
// live TPipe, Cast round modes the device does (not) offer, HardEvent::MAX, atomic copies to
// misaligned GM. Each runs on one simulated core.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim::ErrorKind;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

using AscendC::LocalTensor;
using AscendC::TPosition;

// ---- negative and wrapping GM indices -----------------------------------------------------------

TEST(ApiGuards, NegativeAndWrappingGmIndicesAreOutOfBounds) {
  ascsim_test::CoreFixture f;
  DeviceBuffer buf(64 * sizeof(float));
  float* base = buf.as<float>();
  for (int i = 0; i < 64; ++i) base[i] = static_cast<float>(i);
  AscendC::GlobalTensor<float> block1;  // block 1's slice of a 4 x 16 allocation
  block1.SetGlobalBuffer(base + 16, 16);
  ErrorKind kind{};
  EXPECT_THAT(ErrorOf([&] { block1.GetValue(static_cast<uint64_t>(-1)); }, &kind),
              HasSubstr("GlobalTensor::GetValue read"));
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
  EXPECT_THAT(ErrorOf([&] { block1.SetValue(static_cast<uint64_t>(-1), 0.0f); }),
              HasSubstr("GlobalTensor::SetValue write"));
  LocalTensor<float> l = f.Take<float>(8);
  EXPECT_THAT(ErrorOf([&] { AscendC::DataCopy(l, block1[static_cast<uint64_t>(-8)], 8); }, &kind),
              HasSubstr("DataCopy"));
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
  EXPECT_THAT(ErrorOf([&] { block1[static_cast<uint64_t>(-8)].GetValue(0); }),
              HasSubstr("GlobalTensor::GetValue read"));
  // Unsized: only the device allocation bounds the access; index * sizeof(T) must not wrap.
  AscendC::GlobalTensor<half> unsized;
  unsized.SetGlobalBuffer(reinterpret_cast<half*>(base));
  EXPECT_THAT(ErrorOf([&] { unsized.GetValue(1ull << 63); }, &kind),
              HasSubstr("GlobalTensor::GetValue read"));
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
  AscendC::GlobalTensor<float> unsized_slice;
  unsized_slice.SetGlobalBuffer(base + 16);
  EXPECT_THAT(ErrorOf([&] { unsized_slice.GetValue(static_cast<uint64_t>(-1)); }),
              HasSubstr("GlobalTensor::GetValue read"));
  // In-range accesses still work.
  EXPECT_EQ(block1.GetValue(15), 31.0f);
  EXPECT_EQ(unsized_slice.GetValue(47), 63.0f);
  AscendC::DataCopy(l, block1[8], 8);
  EXPECT_EQ(l.GetValue(7), 31.0f);
}

// ---- in-place widening Cast and in-place Brcb ---------------------------------------------------

TEST(ApiGuards, InPlaceWideningCastAndBrcbAreRejected) {
  ascsim_test::CoreFixture f;
  LocalTensor<float> wide = f.Take<float>(128);
  LocalTensor<half> narrow = wide.ReinterpretCast<half>();
  ErrorKind kind{};
  // Two repeats: the first writes the second's source (one repeat alone runs in order, with a
  // warning: cast_overlap_test.cpp).
  EXPECT_THAT(
      ErrorOf([&] { AscendC::Cast(wide, narrow, AscendC::RoundMode::CAST_NONE, 128); }, &kind),
      HasSubstr("Cast: dst UB [0x0, 0x200) overlaps src UB [0x0, 0x100)"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  LocalTensor<float> b = f.Take<float>(128);
  EXPECT_THAT(ErrorOf([&] { AscendC::Brcb(b, b, 2, AscendC::BrcbRepeatParams(1, 8)); }),
              HasSubstr("Brcb: dst UB"));
  // Same-size element types in place (100% overlap) stay allowed.
  LocalTensor<int32_t> ints = wide.ReinterpretCast<int32_t>();
  for (int i = 0; i < 64; ++i) wide.SetValue(i, 1.5f + i);
  AscendC::Cast(ints, wide, AscendC::RoundMode::CAST_FLOOR, 64);
  EXPECT_EQ(ints.GetValue(3), 4);
}

// ---- TPipe lifetime -----------------------------------------------------------------------------

TEST(ApiGuards, TensorOfADestroyedPipeIsStaleAfterANewPipe) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  LocalTensor<float> kept;
  {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    kept = buf.Get<float>();
    kept.SetValue(0, 1.0f);
  }
  AscendC::TPipe pipe2;
  AscendC::TBuf<TPosition::VECCALC> buf2;
  pipe2.InitBuffer(buf2, 256);
  LocalTensor<float> fresh = buf2.Get<float>();
  fresh.SetValue(0, 7.0f);
  EXPECT_THAT(ErrorOf([&] { kept.SetValue(0, 2.0f); }), HasSubstr("its TPipe was destroyed"));
  EXPECT_THAT(ErrorOf([&] { kept.GetValue(0); }), HasSubstr("its TPipe was destroyed"));
  EXPECT_EQ(fresh.GetValue(0), 7.0f);
}

TEST(ApiGuards, ASecondLiveTPipeIsAnErrorAndDestroyAllowsTheNext) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  AscendC::TPipe first;
  AscendC::TBuf<TPosition::VECCALC> a;
  first.InitBuffer(a, 256);
  ErrorKind kind{};
  EXPECT_THAT(ErrorOf([&] { AscendC::TPipe second; }, &kind),
              HasSubstr("TPipe: another TPipe is still alive on this core"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  LocalTensor<float> old = a.Get<float>();
  first.Destroy();  // as the tpipe_reuse sample does before constructing the next TPipe
  AscendC::TPipe next;
  AscendC::TBuf<TPosition::VECCALC> b;
  next.InitBuffer(b, 256);
  EXPECT_EQ(b.Get<float>().GetPhyAddr(), 0u);
  EXPECT_THAT(ErrorOf([&] { old.GetValue(0); }), HasSubstr("its TPipe was destroyed"));
  EXPECT_EQ(AscendC::GetTPipePtr(), &next);
}

// ---- Cast rounding modes for float->bf16, int32->float and float->float -------------------------

uint16_t BitsOf(bfloat16_t v) {
  uint16_t b;
  std::memcpy(&b, &v, 2);
  return b;
}

TEST(ApiGuards, CastHonoursTheRoundModeForBf16AndInt32ToFloat) {
  using AscendC::RoundMode;
  ascsim_test::CoreFixture f;
  LocalTensor<float> src = f.Take<float>(8);
  LocalTensor<bfloat16_t> bf = f.Take<bfloat16_t>(16);
  const float values[] = {1.01171875f, -1.01171875f, 1.01171875f, 1.0f};
  for (int i = 0; i < 4; ++i) src.SetValue(i, values[i]);
  // 1.01171875 = 0x3f818000: exactly between 0x3f81 and 0x3f82.
  const std::pair<RoundMode, std::vector<uint16_t>> expected[] = {
      {RoundMode::CAST_RINT, {0x3f82, 0xbf82, 0x3f82, 0x3f80}},
      {RoundMode::CAST_FLOOR, {0x3f81, 0xbf82, 0x3f81, 0x3f80}},
      {RoundMode::CAST_CEIL, {0x3f82, 0xbf81, 0x3f82, 0x3f80}},
      {RoundMode::CAST_ROUND, {0x3f82, 0xbf82, 0x3f82, 0x3f80}},
      {RoundMode::CAST_TRUNC, {0x3f81, 0xbf81, 0x3f81, 0x3f80}},
  };
  for (const auto& [mode, bits] : expected) {
    AscendC::Cast(bf, src, mode, 4);
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(BitsOf(bf.GetValue(i)), bits[i]) << static_cast<int>(mode) << " " << i;
    }
  }
  LocalTensor<int32_t> ints = f.Take<int32_t>(8);
  LocalTensor<float> fl = f.Take<float>(8);
  ints.SetValue(0, 16777217);
  ints.SetValue(1, -16777217);
  ints.SetValue(2, 16777219);
  ints.SetValue(3, 5);
  const std::pair<RoundMode, std::vector<float>> to_float[] = {
      {RoundMode::CAST_NONE, {16777216.0f, -16777216.0f, 16777220.0f, 5.0f}},
      {RoundMode::CAST_RINT, {16777216.0f, -16777216.0f, 16777220.0f, 5.0f}},
      {RoundMode::CAST_FLOOR, {16777216.0f, -16777218.0f, 16777218.0f, 5.0f}},
      {RoundMode::CAST_CEIL, {16777218.0f, -16777216.0f, 16777220.0f, 5.0f}},
      {RoundMode::CAST_ROUND, {16777218.0f, -16777218.0f, 16777220.0f, 5.0f}},
      {RoundMode::CAST_TRUNC, {16777216.0f, -16777216.0f, 16777218.0f, 5.0f}},
  };
  for (const auto& [mode, want] : to_float) {
    AscendC::Cast(fl, ints, mode, 4);
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(fl.GetValue(i), want[i]) << static_cast<int>(mode) << " " << i;
    }
  }
  // float -> float rounds to an integral value under the mode.
  LocalTensor<float> rounded = f.Take<float>(8);
  src.SetValue(0, 2.5f);
  src.SetValue(1, -2.5f);
  src.SetValue(2, 1.25f);
  src.SetValue(3, -0.75f);
  AscendC::Cast(rounded, src, RoundMode::CAST_FLOOR, 4);
  EXPECT_EQ(rounded.GetValue(0), 2.0f);
  EXPECT_EQ(rounded.GetValue(1), -3.0f);
  EXPECT_EQ(rounded.GetValue(2), 1.0f);
  EXPECT_EQ(rounded.GetValue(3), -1.0f);
  AscendC::Cast(rounded, src, RoundMode::CAST_RINT, 4);
  EXPECT_EQ(rounded.GetValue(0), 2.0f);
  EXPECT_EQ(rounded.GetValue(1), -2.0f);
}

TEST(ApiGuards, CastRejectsRoundModesTheDeviceDoesNotOffer) {
  using AscendC::RoundMode;
  ascsim_test::CoreFixture f;
  LocalTensor<float> fl = f.Take<float>(16);
  LocalTensor<bfloat16_t> bf = f.Take<bfloat16_t>(16);
  LocalTensor<half> h = f.Take<half>(16);
  LocalTensor<int32_t> i32 = f.Take<int32_t>(16);
  ErrorKind kind{};
  EXPECT_THAT(ErrorOf([&] { AscendC::Cast(bf, fl, RoundMode::CAST_NONE, 16); }, &kind),
              HasSubstr("Cast float -> bfloat16_t: CAST_NONE is not supported on Ascend910B1 "
                        "(supported: CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC)"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  EXPECT_THAT(ErrorOf([&] { AscendC::Cast(bf, fl, RoundMode::CAST_ODD, 16); }),
              HasSubstr("CAST_ODD is not supported"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Cast(fl, h, RoundMode::CAST_FLOOR, 16); }),
              HasSubstr("Cast half -> float: CAST_FLOOR is not supported"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Cast(i32, fl, RoundMode::CAST_NONE, 16); }),
              HasSubstr("Cast float -> int32_t: CAST_NONE is not supported"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Cast(bf, i32, RoundMode::CAST_RINT, 16); }),
              HasSubstr("Cast int32_t -> bfloat16_t is not a conversion Ascend910B1 offers"));
  // The documented pairs and modes pass.
  AscendC::Cast(h, fl, RoundMode::CAST_ODD, 16);
  AscendC::Cast(fl, h, RoundMode::CAST_NONE, 16);
  AscendC::Cast(fl, i32, RoundMode::CAST_NONE, 16);
}

// ---- HardEvent::MAX, atomics on misaligned GM ---------------------------------------------------

TEST(ApiGuards, HardEventMaxIsNotAnEvent) {
  ascsim_test::CoreFixture f;
  EXPECT_THAT(ErrorOf([] { AscendC::SetFlag<AscendC::HardEvent::MAX>(0); }),
              HasSubstr("SetFlag<MAX>: HardEvent::MAX is not an event"));
  EXPECT_THAT(ErrorOf([] { AscendC::WaitFlag<AscendC::HardEvent::MAX>(0); }),
              HasSubstr("WaitFlag<MAX>: HardEvent::MAX is not an event"));
}

TEST(ApiGuards, AtomicCopyToAMisalignedGmAddressIsReported) {
  ascsim_test::CoreFixture f;
  DeviceBuffer buf(256);
  std::memset(buf.gm(), 0, 256);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<float*>(buf.gm() + 2), 32);
  LocalTensor<float> l = f.Take<float>(8);
  AscendC::Duplicate(l, 1.0f, 8);
  AscendC::SetAtomicAdd<float>();
  EXPECT_THAT(ErrorOf([&] { AscendC::DataCopy(g, l, 8); }),
              HasSubstr("is not aligned to the 4 B of float"));
  AscendC::SetAtomicNone();
}

}  // namespace
