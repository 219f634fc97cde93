// DropOut (ascsim/adv/dropout.h) in its four modes, both types, through its include paths, against
// a scalar reference (mask * src, then * T(1 / keepProb) rounded to T), and its host sizes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "adv_api/filter/dropout.h"
#include "adv_api/filter/dropout_tiling.h"
#include "adv_api/filter/kernel_operator_dropout_intf.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/filter/dropout.h"
#include "lib/filter/kernel_operator_dropout_intf.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

// A mask of `rows` rows of `row_bytes` bytes: 0/1 bytes, or random bits.
std::vector<uint8_t> RandomMask(uint32_t bytes, bool bits, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> m(bytes);
  for (auto& b : m) b = bits ? static_cast<uint8_t>(rng() & 0xff) : static_cast<uint8_t>(rng() & 1);
  return m;
}

template <class T, uint32_t kMode = 0>
void CheckDropOut(uint32_t rows, uint32_t src_last, uint32_t mask_last, bool bits,
                  uint32_t tmp_bytes, float keep, bool with_tmp = true) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " rows=" + std::to_string(rows) +
               " src_last=" + std::to_string(src_last) + " mask_last=" +
               std::to_string(mask_last) + " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(128 * 1024);
  const uint32_t n = rows * src_last;
  auto src = fx.Take<T>(n + 16), dst = fx.Take<T>(n + 16);
  auto mask = fx.Take<uint8_t>(rows * mask_last);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  auto x = RandomVector<T>(n + 16, -8, 8, n + 3);
  Fill(src, x);
  const T sentinel = T(77.0f);
  Fill(dst, std::vector<T>(n + 16, sentinel));
  const auto m = RandomMask(rows * mask_last, bits, n + 5);
  Fill(mask, m);
  AscendC::DropOutShapeInfo info;
  info.firstAxis = rows;
  info.srcLastAxis = src_last;
  info.maskLastAxis = mask_last;
  if (with_tmp)
    AscendC::DropOut<T, false, kMode>(dst, src, mask, tmp, keep, info);
  else
    AscendC::DropOut<T, false, kMode>(dst, src, mask, keep, info);
  const T div = T(1.0f / keep);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < src_last; ++c) {
      const uint32_t i = r * src_last + c;
      const bool keep_it = bits ? ((m[r * mask_last + c / 8] >> (c % 8)) & 1) != 0
                                : m[r * mask_last + c] != 0;
      // Byte mode multiplies by the mask (0 * -x is -0); bit mode selects +0 from CMPMASK.
      const T kept = bits ? (keep_it ? x[i] : T(0.0f))
                          : T(float(m[r * mask_last + c]) * float(x[i]));
      const T want = T(float(kept) * float(div));
      ASSERT_EQ(Bits(dst.GetValue(i)), Bits(want))
          << "row " << r << " col " << c << " x=" << float(x[i]) << " got "
          << float(dst.GetValue(i));
    }
  }
  for (uint32_t i = n; i < n + 16; ++i) ASSERT_EQ(Bits(dst.GetValue(i)), Bits(sentinel)) << i;
}

TEST(AdvDropOut, ByteModeAlignedAndMisalignedBothTypes) {
  CheckDropOut<half>(3, 96, 96, false, 512, 0.9f);         // aligned, pieces of 256
  CheckDropOut<float>(5, 64, 64, false, 6 * 64, 0.7f);     // aligned, pieces of 64
  CheckDropOut<half>(7, 30, 32, false, 512, 0.5f);         // misaligned: the mask packed
  CheckDropOut<float>(4, 50, 64, false, 2048, 0.3f);
  CheckDropOut<half, AscendC::DROPOUT_MODE_BYTE_ALIGN>(1, 333, 333, false, 512, 0.8f);
  CheckDropOut<float>(2, 40, 40, false, 0, 0.6f, false);  // the stack form
}

TEST(AdvDropOut, BitModeAlignedAndMisalignedBothTypes) {
  CheckDropOut<half>(4, 256, 32, true, 256, 0.9f);    // aligned
  CheckDropOut<float>(3, 512, 64, true, 512, 0.25f);
  CheckDropOut<half>(5, 48, 32, true, 256, 0.6f);     // misaligned: 6 of 32 bytes per row
  CheckDropOut<float, AscendC::DROPOUT_MODE_BIT_MISALIGN>(3, 160, 32, true, 256, 0.4f);
  CheckDropOut<half>(2, 128, 16, true, 0, 0.5f, false);  // the stack form
}

TEST(AdvDropOut, ErrorsNameTheCallAndTheCause) {
  CoreFixture fx(64 * 1024);
  auto src = fx.Take<half>(256), dst = fx.Take<half>(256);
  auto mask = fx.Take<uint8_t>(256);
  auto tmp = fx.Take<uint8_t>(512);
  AscendC::DropOutShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 128;
  info.maskLastAxis = 128;
  EXPECT_THAT(ErrorOf([&] { AscendC::DropOut(dst, src, mask, tmp, 1.0f, info); }),
              HasSubstr("DropOut: keepProb should be larger than 0 and smaller than 1"));
  AscendC::DropOutShapeInfo zero;
  EXPECT_THAT(ErrorOf([&] { AscendC::DropOut(dst, src, mask, tmp, 0.5f, zero); }),
              HasSubstr("DropOut: info.firstAxis must > 0!"));
  AscendC::DropOutShapeInfo odd = info;
  odd.srcLastAxis = 100;
  odd.maskLastAxis = 127;
  EXPECT_THAT(ErrorOf([&] { AscendC::DropOut(dst, src, mask, tmp, 0.5f, odd); }),
              HasSubstr("maskLastAxis should be multiples of 2 when dropOutMode is 1 or 4!"));
  AscendC::DropOutShapeInfo big = info;
  big.firstAxis = 3;
  EXPECT_THAT(ErrorOf([&] { AscendC::DropOut(dst, src, mask, tmp, 0.5f, big); }),
              HasSubstr("DropOut: firstAxis * srcLastAxis = 384 exceeds src (256)"));
  AscendC::DropOutShapeInfo bits = info;
  bits.maskLastAxis = 16;
  EXPECT_THAT(ErrorOf([&] { AscendC::DropOut(dst, src, mask, tmp[384], 0.5f, bits); }),
              HasSubstr("DropOut: sharedTmpBuffer holds 128 B, less than the 256 B bit mode"));
  auto fsrc = src.ReinterpretCast<float>(), fdst = dst.ReinterpretCast<float>();
  AscendC::DropOutShapeInfo f = info;
  f.srcLastAxis = f.maskLastAxis = 64;
  EXPECT_THAT(ErrorOf([&] { AscendC::DropOut(fdst, fsrc, mask, tmp[352], 0.5f, f); }),
              HasSubstr("DropOut: sharedTmpBuffer holds 160 B, less than the 192 B byte mode"));
  AscendC::DropOutShapeInfo unaligned = info;
  unaligned.srcLastAxis = 40;
  unaligned.maskLastAxis = 48;
  EXPECT_THAT(ErrorOf([&] { AscendC::DropOut(dst, src, mask, tmp, 0.5f, unaligned); }),
              HasSubstr("DropOut: maskLastAxis 48 is not a multiple of 32"));
  EXPECT_THAT(ErrorOf([&] { AscendC::DropOut(dst, src, mask, src.ReinterpretCast<uint8_t>(), 0.5f,
                                             info); }),
              HasSubstr("DropOut: sharedTmpBuffer UB"));
}

TEST(AdvDropOutTiling, HostSizesAreCanns) {
  uint32_t maxv = 0, minv = 0;
  AscendC::GetDropOutMaxMinTmpSize(ge::Shape({4, 100}), 2, false, maxv, minv);
  EXPECT_EQ(minv, 512u);
  EXPECT_EQ(maxv, 2u * 400u * 4u);
  AscendC::GetDropOutMaxMinTmpSize(ge::Shape({8}), 4, false, maxv, minv);
  EXPECT_EQ(maxv, 512u);
  EXPECT_EQ(AscendC::GetDropOutMinTmpSize(ge::Shape({8}), 4, false), 512u);
  testing::internal::CaptureStderr();
  EXPECT_EQ(AscendC::GetDropOutMaxTmpSize(ge::Shape({1000}), 8, true), 8000u);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, HasSubstr("[DropOut][GetDropOutMaxTmpSize] The value of typeSize is 8"));
  EXPECT_THAT(err, HasSubstr("isReuseSource is true"));
}

}  // namespace
