// Cast with partially overlapping operands (operand_checks.h CheckCastOverlap): computed repeat by
// repeat, as the device's pipeline does, when no repeat writes bytes a later repeat reads (a
// widening Cast with its source in the back half of its destination, a narrowing one over the
// front of its source), with a once-per-call-site warning; refused when an earlier repeat's write
// reaches a later repeat's source. The reference below runs the repeats in order on a copy of the
// bytes, each repeat reading its whole source before writing, converting element by element.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace {

using ascsim::ErrorKind;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

using AscendC::LocalTensor;
using ascsim_test::WarningCapture;
using AscendC::RoundMode;

// One element, converted the scalar way.
template <class D, class S>
D Convert(S v, RoundMode mode) {
  if constexpr (std::is_same_v<D, int32_t>) {
    EXPECT_EQ(mode, RoundMode::CAST_ROUND);
    return static_cast<int32_t>(std::round(float(v)));
  } else {
    return D(float(v));  // exact for the values used (widening, or halves that fit)
  }
}

// The in-order result: `bytes` holds the region, src at byte `src_at`, dst at byte `dst_at`.
template <class D, class S>
void ReferenceInOrder(std::vector<uint8_t>& bytes, uint64_t dst_at, uint64_t src_at, uint64_t n,
                      RoundMode mode) {
  const uint64_t per = 256 / std::max(sizeof(D), sizeof(S));
  for (uint64_t i = 0; i < n; i += per) {
    const uint64_t len = std::min(per, n - i);
    std::vector<S> from(len);
    std::memcpy(from.data(), bytes.data() + src_at + i * sizeof(S), len * sizeof(S));
    for (uint64_t k = 0; k < len; ++k) {
      const D v = Convert<D>(from[k], mode);
      std::memcpy(bytes.data() + dst_at + (i + k) * sizeof(D), &v, sizeof(D));
    }
  }
}

template <class S>
S Value(uint64_t i) {
  if constexpr (std::is_integral_v<S>) {
    return static_cast<S>(static_cast<int>(i % 200) - 100);
  } else {
    return S(static_cast<float>(static_cast<int>(i % 301) - 150) * 0.25f);  // exact in 16 bits
  }
}

// Runs Cast<D, S> with dst at `dst_at` and src at `src_at` bytes of one UB region and compares
// every byte of the region with the in-order reference.
template <class D, class S>
void ExpectInOrder(uint64_t n, uint64_t dst_at, uint64_t src_at, RoundMode mode) {
  CoreFixture f;
  const uint64_t region = std::max(dst_at + n * sizeof(D), src_at + n * sizeof(S));
  LocalTensor<uint8_t> all = f.Take<uint8_t>(static_cast<uint32_t>(region));
  std::vector<uint8_t> expect(region);
  for (uint64_t i = 0; i < region; ++i) expect[i] = static_cast<uint8_t>(i * 7 + 3);
  for (uint64_t i = 0; i < n; ++i) {
    const S v = Value<S>(i);
    std::memcpy(expect.data() + src_at + i * sizeof(S), &v, sizeof(S));
  }
  uint8_t* ub = ascsim::aicore::CurrentCore().ub + all.GetPhyAddr();
  std::memcpy(ub, expect.data(), region);
  ReferenceInOrder<D, S>(expect, dst_at, src_at, n, mode);
  LocalTensor<D> dst = all[dst_at].template ReinterpretCast<D>();
  LocalTensor<S> src = all[src_at].template ReinterpretCast<S>();
  AscendC::Cast(dst, src, mode, static_cast<uint32_t>(n));
  for (uint64_t i = 0; i < region; ++i) {
    ASSERT_EQ(ub[i], expect[i]) << "byte " << i << " of n " << n << " dst_at " << dst_at
                                << " src_at " << src_at;
  }
}

uint64_t AlignUp32(uint64_t x) { return (x + 31) / 32 * 32; }

// Widening with the source in the back half of its destination (at the first 32 B aligned
// offset where no repeat writes a later repeat's source), the layout of Ascend's own operators.
template <class D, class S>
void WideningBackHalf(RoundMode mode) {
  for (uint64_t n : {1u, 7u, 63u, 64u, 65u, 127u, 129u, 300u, 1001u, 4097u}) {
    const uint64_t at = AlignUp32(n * (sizeof(D) - sizeof(S)));
    ExpectInOrder<D, S>(n, 0, at, mode);
  }
}

TEST(CastOverlap, WideningHalfToFloatFromTheBackHalfRunsInOrder) {
  WideningBackHalf<float, half>(RoundMode::CAST_NONE);
}
TEST(CastOverlap, WideningBfloat16ToFloatFromTheBackHalfRunsInOrder) {
  WideningBackHalf<float, bfloat16_t>(RoundMode::CAST_NONE);
}
TEST(CastOverlap, WideningInt8ToHalfFromTheBackHalfRunsInOrder) {
  WideningBackHalf<half, int8_t>(RoundMode::CAST_NONE);
}
TEST(CastOverlap, WideningHalfToInt32FromTheBackHalfRunsInOrder) {
  WideningBackHalf<int32_t, half>(RoundMode::CAST_ROUND);
}

TEST(CastOverlap, WideningFromTheSameStartInOneRepeatRunsInOrder) {
  // One repeat reads all of its source before it writes (group_normalization_grad casts one
  // element this way).
  for (uint64_t n : {1u, 2u, 33u, 64u}) ExpectInOrder<float, half>(n, 0, 0, RoundMode::CAST_NONE);
}

TEST(CastOverlap, WideningWhereOnlyTheLastRepeatOverlapsItselfRunsInOrder) {
  // 128 half -> float with src 128 B in: repeat 0 writes [0, 256), repeat 1 reads [256, 384).
  ExpectInOrder<float, half>(128, 0, 128, RoundMode::CAST_NONE);
}

TEST(CastOverlap, NarrowingOverTheFrontOfItsSourceRunsInOrder) {
  for (uint64_t n : {1u, 5u, 64u, 65u, 200u, 1000u, 4099u}) {
    ExpectInOrder<half, float>(n, 0, 0, RoundMode::CAST_NONE);
  }
}

TEST(CastOverlap, DisjointAndSameRangeCastsStillWork) {
  ExpectInOrder<float, half>(300, 0, AlignUp32(300 * 4), RoundMode::CAST_NONE);
  ExpectInOrder<int32_t, float>(300, 0, 0, RoundMode::CAST_ROUND);  // 100% overlap
}

TEST(CastOverlap, AnEarlierRepeatWritingALaterSourceIsRefused) {
  CoreFixture f;
  LocalTensor<float> wide = f.Take<float>(256);
  LocalTensor<uint8_t> bytes = wide.ReinterpretCast<uint8_t>();
  ErrorKind kind{};
  // Same start, two repeats: repeat 0 writes [0x0, 0x100), repeat 1 reads [0x80, 0x100).
  EXPECT_THAT(
      ErrorOf([&] { AscendC::Cast(wide, wide.ReinterpretCast<half>(), RoundMode::CAST_NONE, 128); },
              &kind),
      HasSubstr("Cast: dst UB [0x0, 0x200) overlaps src UB [0x0, 0x100): repeat 0 (of 2, 64 "
                "elements each) writes UB [0x0, 0x100), which repeat 1 reads as its source, so the "
                "result depends on the device's pipeline (the SIMD API's address-overlap rule: an "
                "earlier repeat's dst must not overlap a later repeat's src; asc-devkit "
                "SIMD-API/通用说明和约束.md)"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  // Source 64 B in: repeat 0 writes [0x0, 0x100), repeat 1 reads [0xc0, 0x140).
  EXPECT_THAT(ErrorOf([&] {
                AscendC::Cast(wide, bytes[64].ReinterpretCast<half>(), RoundMode::CAST_NONE, 128);
              }),
              HasSubstr("repeat 0 (of 2, 64 elements each) writes UB [0x0, 0x100), which repeat 1 "
                        "reads as its source"));
  // Narrowing with dst 256 B into its source: repeat 0 writes [0x100, 0x180), repeat 1's source.
  EXPECT_THAT(ErrorOf([&] {
                AscendC::Cast(bytes[256].ReinterpretCast<half>(), wide, RoundMode::CAST_NONE, 192);
              }),
              HasSubstr("Cast: dst UB [0x100, 0x280) overlaps src UB [0x0, 0x300): repeat 0 (of "
                        "3, 64 elements each) writes UB [0x100, 0x180), which repeat 1 reads as "
                        "its source"));
}

// ---- mask/repeat form ----

// The in-order reference of the repeat form: the first `mask` elements of each repeat, each
// operand laid out by its own block and repeat strides (in 32 B blocks of its own type).
template <class D, class S>
void ReferenceRepeats(std::vector<uint8_t>& bytes, uint64_t dst_at, uint64_t src_at, uint32_t mask,
                      uint32_t repeats, const AscendC::UnaryRepeatParams& p, RoundMode mode) {
  const uint32_t dpb = 32 / sizeof(D), spb = 32 / sizeof(S);
  for (uint32_t r = 0; r < repeats; ++r) {
    std::vector<S> from(mask);
    for (uint32_t e = 0; e < mask; ++e) {
      const uint64_t at = src_at + r * p.srcRepStride * 32 + (e / spb) * p.srcBlkStride * 32 +
                          (e % spb) * sizeof(S);
      std::memcpy(&from[e], bytes.data() + at, sizeof(S));
    }
    for (uint32_t e = 0; e < mask; ++e) {
      const D v = Convert<D>(from[e], mode);
      const uint64_t at = dst_at + r * p.dstRepStride * 32 + (e / dpb) * p.dstBlkStride * 32 +
                          (e % dpb) * sizeof(D);
      std::memcpy(bytes.data() + at, &v, sizeof(D));
    }
  }
}

template <class D, class S>
void ExpectRepeatsInOrder(uint64_t region, uint64_t dst_at, uint64_t src_at, uint32_t mask,
                          uint32_t repeats, const AscendC::UnaryRepeatParams& p, RoundMode mode) {
  CoreFixture f;
  LocalTensor<uint8_t> all = f.Take<uint8_t>(static_cast<uint32_t>(region));
  std::vector<uint8_t> expect(region);
  for (uint64_t i = 0; i < region; ++i) expect[i] = static_cast<uint8_t>(i * 7 + 3);
  for (uint64_t i = src_at; i + sizeof(S) <= region; i += sizeof(S)) {
    const S v = Value<S>(i / sizeof(S));
    std::memcpy(expect.data() + i, &v, sizeof(S));
  }
  uint8_t* ub = ascsim::aicore::CurrentCore().ub + all.GetPhyAddr();
  std::memcpy(ub, expect.data(), region);
  ReferenceRepeats<D, S>(expect, dst_at, src_at, mask, repeats, p, mode);
  LocalTensor<D> dst = all[dst_at].template ReinterpretCast<D>();
  LocalTensor<S> src = all[src_at].template ReinterpretCast<S>();
  AscendC::Cast(dst, src, mode, uint64_t{mask}, static_cast<uint8_t>(repeats), p);
  for (uint64_t i = 0; i < region; ++i) {
    ASSERT_EQ(ub[i], expect[i]) << "byte " << i << " mask " << mask << " repeats " << repeats;
  }
}

TEST(CastOverlap, RepeatFormDisjointMatchesTheReference) {
  // Dense: {dstBlk, srcBlk, dstRep, srcRep} = {1, 1, 8, 4} for half -> float.
  for (uint32_t mask : {64u, 37u, 1u}) {
    for (uint32_t repeats : {1u, 3u}) {
      ExpectRepeatsInOrder<float, half>(4096, 0, 2048, mask, repeats, {1, 1, 8, 4},
                                        RoundMode::CAST_NONE);
      ExpectRepeatsInOrder<half, float>(4096, 0, 2048, mask, repeats, {1, 1, 4, 8},
                                        RoundMode::CAST_NONE);
    }
  }
  // Strided blocks and repeats, and bfloat16 -> float.
  ExpectRepeatsInOrder<float, half>(8192, 0, 4096, 50, 3, {2, 1, 20, 5}, RoundMode::CAST_NONE);
  ExpectRepeatsInOrder<float, bfloat16_t>(8192, 0, 4096, 64, 4, {1, 2, 8, 8}, RoundMode::CAST_NONE);
}

TEST(CastOverlap, RepeatFormWideningFromTheBackHalfRunsInOrder) {
  // 5 repeats of 64: dst [0, 1280), src [640, 1280), as the count form with its source behind.
  ExpectRepeatsInOrder<float, half>(1280, 0, 640, 64, 5, {1, 1, 8, 4}, RoundMode::CAST_NONE);
  ExpectRepeatsInOrder<float, half>(1280, 0, 640, 41, 5, {1, 1, 8, 4}, RoundMode::CAST_NONE);
  ExpectRepeatsInOrder<int32_t, half>(1280, 0, 640, 64, 5, {1, 1, 8, 4}, RoundMode::CAST_ROUND);
}

TEST(CastOverlap, RepeatFormEarlierRepeatWritingALaterSourceIsRefused) {
  CoreFixture f;
  LocalTensor<float> wide = f.Take<float>(256);
  EXPECT_THAT(ErrorOf([&] {
                AscendC::Cast(wide, wide.ReinterpretCast<half>(), RoundMode::CAST_NONE,
                              uint64_t{64}, 2, {1, 1, 8, 4});
              }),
              HasSubstr("Cast: dst UB [0x0, 0x200) overlaps src UB [0x0, 0x100): repeat 0 (of 2, "
                        "64 elements each) writes UB [0x0, 0x100), which repeat 1 reads as its "
                        "source"));
}

// A kernel in the official style: the input tile is loaded into the back half of a float
// buffer and widened in place, as ops-math's axpy_v2 and logical_and do.
void WidenTile(AscendC::GlobalTensor<half>& xGm, AscendC::GlobalTensor<float>& yGm, uint32_t n,
               int casts) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  const uint32_t bytes = (n * sizeof(float) + 31) / 32 * 32;
  pipe.InitBuffer(buf, bytes);
  LocalTensor<float> wide = buf.Get<float>();
  LocalTensor<half> back = wide.ReinterpretCast<half>()[bytes / sizeof(half) / 2];
  for (int i = 0; i < casts; ++i) {
    AscendC::DataCopy(back, xGm, n);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Cast(wide, back, RoundMode::CAST_NONE, n);  // the one call site
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, wide, n);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
}

TEST(CastOverlap, WarnsOncePerCallSiteCitingTheRule) {
  constexpr uint32_t n = 1024;
  ascsim_test::DeviceBuffer x(n * sizeof(half)), y(2 * n * sizeof(float));
  for (uint32_t i = 0; i < n; ++i) x.as<half>()[i] = Value<half>(i);
  WarningCapture warnings;
  ascsim::Launch("widen_back_half", 2, [&] {
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer(x.as<half>(), n);
    yGm.SetGlobalBuffer(y.as<float>() + n * AscendC::GetBlockIdx(), n);
    WidenTile(xGm, yGm, n, 3);
  });
  for (uint32_t i = 0; i < 2 * n; ++i) {
    ASSERT_EQ(y.as<float>()[i], float(Value<half>(i % n))) << i;
  }
  ASSERT_EQ(warnings.lines.size(), 1u);
  EXPECT_THAT(warnings.lines[0], StartsWith("widen_back_half: block 0/2: Cast half -> float at "));
  EXPECT_THAT(warnings.lines[0], HasSubstr("cast_overlap_test.cpp:"));
  EXPECT_THAT(warnings.lines[0],
              HasSubstr(": dst UB [0x0, 0x1000) overlaps src UB [0x800, 0x1000) without being the "
                        "same range; the SIMD API's address-overlap rule asks for a 100% overlap "
                        "within a repeat (asc-devkit SIMD-API/通用说明和约束.md, 通用地址重叠约束; "
                        "Cast.md: widening in place may give wrong results). No repeat writes "
                        "bytes a later repeat reads, so ascsim computes it repeat by repeat (16 of "
                        "64 elements, each reading its source before writing) as the device's "
                        "pipeline does (ASCSIM_STRICT=1 makes this an error)"));
}

TEST(CastOverlap, TwoCallSitesWarnTwice) {
  constexpr uint32_t n = 64;
  WarningCapture warnings;
  ascsim::Launch("two_sites", 1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    LocalTensor<float> wide = buf.Get<float>();
    AscendC::Duplicate(wide, 1.0f, n);
    LocalTensor<half> back = wide.ReinterpretCast<half>()[n];
    AscendC::Cast(wide, back, RoundMode::CAST_NONE, n);
    AscendC::Cast(wide, back, RoundMode::CAST_NONE, n);
  });
  ASSERT_EQ(warnings.lines.size(), 2u);
  EXPECT_NE(warnings.lines[0], warnings.lines[1]);  // the lines differ by the call site's line
}

TEST(CastOverlap, IsAnErrorInStrictMode) {
  constexpr uint32_t n = 64;
  ascsim::ScopedSettings settings;
  ascsim::SetStrict(true);
  ErrorKind kind{};
  const std::string msg = ErrorOf(
      [&] {
        ascsim::Launch("strict_widen", 1, [&] {
          AscendC::TPipe pipe;
          AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
          pipe.InitBuffer(buf, n * sizeof(float));
          LocalTensor<float> wide = buf.Get<float>();
          AscendC::Duplicate(wide, 1.0f, n);
          AscendC::Cast(wide, wide.ReinterpretCast<half>()[n], RoundMode::CAST_NONE, n);
        });
      },
      &kind);
  EXPECT_EQ(kind, ErrorKind::kStrictWarning);
  EXPECT_THAT(msg, HasSubstr("strict_widen: block 0/1: Cast half -> float at "));
  EXPECT_THAT(msg, HasSubstr("(ASCSIM_STRICT=1 makes this an error) [strict mode]"));
}

}  // namespace
