// Pad and UnPad (ascsim/adv/pad.h) with the host tiling (tiling/pad_tiling.h): the aligned and
// unaligned Pad and UnPad against scalar references in 16- and 32-bit types, odd heights, with and
// without sharedTmpBuffer, in place; the tiling formulas of asc-devkit; and every error. Included
// through every path production kernels use (ops-nn: lib/pad/kernel_operator_pad_intf.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "adv_api/pad/kernel_operator_pad_intf.h"
#include "adv_api/pad/pad.h"
#include "adv_api/pad/pad_tiling.h"
#include "aicore_test_util.h"
#include "lib/pad/kernel_operator_pad_intf.h"
#include "lib/pad/pad.h"
#include "tiling/pad_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace {

using ::testing::HasSubstr;

using ascsim_test::FaultOf;

template <class T>
T Val(uint32_t i) {
  return static_cast<T>(static_cast<float>(i % 97) - 40.0f);
}

// Aligned Pad: [h, w] rows with ori valid columns; rightPad of the rest set to `value`.
template <class T>
void CheckAlignedPad(uint32_t h, uint32_t w, uint32_t ori, uint16_t right, int32_t value) {
  AscendC::PadTiling tiling;
  AscendC::PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, ori}), 0, sizeof(T), tiling);
  std::vector<T> out(h * w);
  ascsim::Launch("pad_aligned", 1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sb, db;
    pipe.InitBuffer(sb, h * w * sizeof(T));
    pipe.InitBuffer(db, h * w * sizeof(T));
    AscendC::LocalTensor<T> src = sb.Get<T>(), dst = db.Get<T>();
    for (uint32_t i = 0; i < h * w; ++i) src.SetValue(i, Val<T>(i));
    AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);  // the scalar fills before the vector
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
    AscendC::PadParams p{0, right, value};
    AscendC::Pad(dst, src, p, tiling);
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);  // the vector result before GetValue
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    for (uint32_t i = 0; i < h * w; ++i) out[i] = dst.GetValue(i);
  });
  for (uint32_t r = 0; r < h; ++r) {
    for (uint32_t c = 0; c < w; ++c) {
      const T expected = c >= ori && c < ori + right ? static_cast<T>(value) : Val<T>(r * w + c);
      ASSERT_EQ(ascsim_test::Bits(out[r * w + c]), ascsim_test::Bits(expected))
          << "row " << r << " column " << c;
    }
  }
}

TEST(AdvPad, AlignedWidthPadsTheRedundantColumns) {
  CheckAlignedPad<half>(16, 16, 7, 9, 0);
  CheckAlignedPad<half>(5, 32, 30, 1, 321);
  CheckAlignedPad<float>(300, 16, 13, 3, -2);  // more rows than one Duplicate repeats
  CheckAlignedPad<int32_t>(3, 8, 1, 7, 9);
  CheckAlignedPad<int16_t>(7, 48, 40, 5, -7);
}

// Unaligned Pad: packed rows of w become rows of the aligned width: left, row, right.
template <class T>
void CheckUnalignedPad(uint32_t h, uint32_t w, uint16_t left, uint16_t right, int32_t value,
                       bool shared_tmp) {
  const uint32_t per_block = 32 / sizeof(T);
  const uint32_t aligned = (w + per_block - 1) / per_block * per_block;
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetPadMaxMinTmpSize(ge::Shape({h, w}), sizeof(T), max_tmp, min_tmp);
  AscendC::PadTiling tiling;
  AscendC::PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, w}), min_tmp, sizeof(T), tiling);
  std::vector<T> out(h * aligned);
  ascsim::Launch("pad_unaligned", 1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sb, db, tb;
    pipe.InitBuffer(sb, h * w * sizeof(T));
    pipe.InitBuffer(db, h * aligned * sizeof(T));
    pipe.InitBuffer(tb, min_tmp);
    AscendC::LocalTensor<T> src = sb.Get<T>(), dst = db.Get<T>();
    for (uint32_t i = 0; i < h * w; ++i) src.SetValue(i, Val<T>(i));
    for (uint32_t i = 0; i < h * aligned; ++i) dst.SetValue(i, static_cast<T>(99));
    AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);  // the scalar fills before the vector
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
    AscendC::PadParams p{left, right, value};
    if (shared_tmp) {
      AscendC::Pad(dst, src, p, tb.Get<uint8_t>(), tiling);
    } else {
      AscendC::Pad(dst, src, p, tiling);
    }
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);  // the vector result before GetValue
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    for (uint32_t i = 0; i < h * aligned; ++i) out[i] = dst.GetValue(i);
  });
  for (uint32_t r = 0; r < h; ++r) {
    for (uint32_t c = 0; c < aligned; ++c) {
      T expected = static_cast<T>(99);  // columns after the padding are not written
      if (c < left || (c >= left + w && c < left + w + right)) expected = static_cast<T>(value);
      if (c >= left && c < left + w) expected = Val<T>(r * w + c - left);
      ASSERT_EQ(ascsim_test::Bits(out[r * aligned + c]), ascsim_test::Bits(expected))
          << "row " << r << " column " << c;
    }
  }
}

TEST(AdvPad, UnalignedWidthWidensEveryRow) {
  CheckUnalignedPad<half>(16, 15, 0, 1, 321, true);
  CheckUnalignedPad<half>(32, 13, 2, 1, -1, false);
  CheckUnalignedPad<float>(8, 5, 1, 2, 4, true);
  CheckUnalignedPad<uint16_t>(48, 7, 3, 6, 11, false);
}

// UnPad: rows lose rightPad elements and are packed.
template <class T>
void CheckUnPad(uint32_t h, uint32_t w, uint16_t right, bool in_place) {
  AscendC::UnPadTiling tiling;
  AscendC::UnPadTilingFunc(ge::Shape({h, w}), 0, sizeof(T), tiling);
  const uint32_t kept = w - right;
  std::vector<T> out(h * kept);
  ascsim::Launch("unpad", 1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sb, db;
    pipe.InitBuffer(sb, h * w * sizeof(T));
    pipe.InitBuffer(db, h * w * sizeof(T));
    AscendC::LocalTensor<T> src = sb.Get<T>();
    AscendC::LocalTensor<T> dst = in_place ? src : db.Get<T>();
    for (uint32_t i = 0; i < h * w; ++i) src.SetValue(i, Val<T>(i));
    AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);  // the scalar fills before the vector
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
    AscendC::UnPadParams p{0, right};
    AscendC::UnPad(dst, src, p, tiling);
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);  // the vector result before GetValue
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    for (uint32_t i = 0; i < h * kept; ++i) out[i] = dst.GetValue(i);
  });
  for (uint32_t r = 0; r < h; ++r) {
    for (uint32_t c = 0; c < kept; ++c) {
      ASSERT_EQ(ascsim_test::Bits(out[r * kept + c]), ascsim_test::Bits(Val<T>(r * w + c)))
          << "row " << r << " column " << c;
    }
  }
}

TEST(AdvPad, UnPadDropsTheLastColumnsOfEachRow) {
  CheckUnPad<half>(16, 16, 1, false);
  CheckUnPad<half>(7, 32, 15, true);
  CheckUnPad<float>(9, 24, 3, false);
  CheckUnPad<int32_t>(5, 8, 7, true);
}

TEST(AdvPad, HostTilingFollowsTheDocumentedFormulas) {
  uint32_t max_v = 0, min_v = 0;
  AscendC::GetPadMaxMinTmpSize(ge::Shape({320, 63}), 2, max_v, min_v);
  // ((320*63-1)/16+1)*16 * (32/2) * 2 * 2 and 16 * 16 * 2 * 2
  EXPECT_EQ(max_v, 1260u * 16 * 16 * 2 * 2);
  EXPECT_EQ(min_v, 1024u);
  AscendC::GetPadMaxMinTmpSize(ge::Shape({3, 5}), 4, max_v, min_v);
  EXPECT_EQ(max_v, 16u * 8 * 2 * 4);
  EXPECT_EQ(min_v, 16u * 8 * 2 * 4);

  optiling::PadTiling t;
  AscendC::PadTilingFunc(ge::Shape({600, 32}), ge::Shape({600, 30}), 4096, 2, t);
  EXPECT_EQ(t.get_srcHeight(), 600u);
  EXPECT_EQ(t.get_srcWidth(), 32u);
  EXPECT_EQ(t.get_srcOriWidth(), 30u);
  EXPECT_EQ(t.get_widthWithoutLastBlock(), 16u);
  EXPECT_EQ(t.get_blocksPerRow(), 2u);
  EXPECT_EQ(t.get_heightTiling(), 255u);
  EXPECT_EQ(t.get_heightFractal(), 2u);
  EXPECT_EQ(t.get_heightFractalTail(), 90u);
  EXPECT_EQ(t.get_mainLoopOffset(), 255u * 32);
  EXPECT_EQ(t.get_tailBlockOffset(), 2u * 255 * 32 + 16);
  // 4096 B of temporary: 4096 / 2 / 256 / 2 = 4 blocks of 16 rows
  EXPECT_EQ(t.get_tmpBuffer1BlockNum(), 4u);
  EXPECT_EQ(t.get_tmpBuffer1RowNum(), 64u);
  EXPECT_EQ(t.get_tmpBuffer2Offset(), 4u * 256);
  EXPECT_EQ(t.get_widthTiling(), 64u);
  EXPECT_EQ(t.get_widthFractal(), 0u);
  EXPECT_EQ(t.get_widthFractalTail(), 32u);
  EXPECT_EQ(t.get_widthFractalTailAlingned(), 32u);
  EXPECT_EQ(t.get_brcbFractal(), 600u * 32 / 64);
  EXPECT_EQ(t.get_maxRepeatTimes(), 254u);
  EXPECT_EQ(t.GetDataSize(), sizeof(AscendC::PadTiling));
  AscendC::PadTiling kernel_side;
  t.SaveToBuffer(&kernel_side, sizeof(kernel_side));
  EXPECT_EQ(kernel_side.tailBlockOffset, t.get_tailBlockOffset());

  optiling::UnPadTiling u;
  AscendC::UnPadTilingFunc(ge::Shape({10, 48}), 2048, 2, u);
  EXPECT_EQ(u.get_srcHeight(), 10u);
  EXPECT_EQ(u.get_tmpBuffer1BlockNum(), 2u);
  EXPECT_EQ(u.get_widthTiling(), 32u);
  EXPECT_EQ(u.get_widthFractal(), 2u);  // 48 = 32 + a tail of 16
  EXPECT_EQ(u.get_widthFractalTail(), 16u);
  platform_ascendc::PlatformAscendC* a2 =
      platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  ASSERT_NE(a2, nullptr);
  AscendC::GetUnPadMaxMinTmpSize(*a2, ge::Shape({10, 48}), 2, max_v, min_v);
  EXPECT_EQ(max_v, 0u);
  EXPECT_EQ(min_v, 0u);
}

TEST(AdvPad, HostTilingRejectsBadShapesOnStderr) {
  uint32_t max_v = 123, min_v = 456;
  testing::internal::CaptureStderr();
  AscendC::GetPadMaxMinTmpSize(ge::Shape({2, 3, 4}), 2, max_v, min_v);
  AscendC::GetPadMaxMinTmpSize(ge::Shape({2, 3}), 3, max_v, min_v);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, HasSubstr("[Pad][GetPadMaxMinTmpSize] The dims of srcShape is 3, should be 2."));
  EXPECT_THAT(err, HasSubstr("[Pad][GetPadMaxMinTmpSize] The value of typeSize is 3, should be 2 "
                             "or 4."));
  EXPECT_EQ(max_v, 123u);  // left unset
  EXPECT_EQ(min_v, 456u);
}

TEST(AdvPad, KernelErrors) {
  auto pad = [](uint32_t h, uint32_t w, uint32_t ori, AscendC::PadParams p, uint32_t stack) {
    return [=]() mutable {
      AscendC::PadTiling tiling;
      AscendC::PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, ori}), stack, 2, tiling);
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> sb, db;
      pipe.InitBuffer(sb, 4096);
      pipe.InitBuffer(db, 4096);
      AscendC::LocalTensor<half> src = sb.Get<half>(), dst = db.Get<half>();
      AscendC::Pad(dst, src, p, tiling);
    };
  };
  EXPECT_THAT(FaultOf("pad", pad(4, 16, 10, {1, 2, 0}, 0)),
              HasSubstr("Pad: leftPad 1 with a 32-byte aligned width 16"));
  EXPECT_THAT(FaultOf("pad", pad(4, 32, 10, {0, 2, 0}, 0)),
              HasSubstr("Pad: srcOriWidth 10 of width 32: with an aligned width the redundant "
                        "columns must be 1 to 16"));
  EXPECT_THAT(FaultOf("pad", pad(4, 16, 10, {0, 7, 0}, 0)),
              HasSubstr("Pad: rightPad 7 after 10 valid columns of 16: it must be 1 to 6"));
  EXPECT_THAT(FaultOf("pad", pad(16, 15, 15, {0, 1, 0}, 0)),
              HasSubstr("needs temporary space, but the tiling was made with stackBufferSize 0"));
  EXPECT_THAT(FaultOf("pad", pad(16, 15, 15, {1, 1, 0}, 1024)),
              HasSubstr("Pad: leftPad 1 + width 15 + rightPad 1 exceeds the width rounded up to "
                        "32 bytes, 16"));
  EXPECT_THAT(FaultOf("pad", pad(3, 15, 15, {0, 1, 0}, 1024)),
              HasSubstr("Pad: the source holds 3 x 15 elements of 2 B, not a multiple of 32"));
  auto unpad = [](uint32_t h, uint32_t w, uint16_t right) {
    return [=] {
      AscendC::UnPadTiling tiling;
      AscendC::UnPadTilingFunc(ge::Shape({h, w}), 0, 2, tiling);
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> sb;
      pipe.InitBuffer(sb, 4096);
      AscendC::LocalTensor<half> t = sb.Get<half>();
      AscendC::UnPadParams p{0, right};
      AscendC::UnPad(t, t, p, tiling);
    };
  };
  EXPECT_THAT(FaultOf("unpad", unpad(4, 15, 1)),
              HasSubstr("UnPad: width 15 of 2-byte elements is not 32-byte aligned"));
  EXPECT_THAT(FaultOf("unpad", unpad(4, 16, 16)),
              HasSubstr("UnPad: rightPad 16 must be more than 0 and under 32 bytes (1 to 15 "
                        "elements)"));
  EXPECT_THAT(FaultOf("unpad", unpad(200, 32, 1)), HasSubstr("UnPad"));  // 12800 B > 4096 B
}

}  // namespace
