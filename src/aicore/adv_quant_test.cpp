// AscendQuant (ascsim/adv/quant.h) per tensor and per channel, half and float, through its include
// paths, bit-exact against a scalar replica of the A2 steps (everything in half, round to nearest
// even, saturating to int8_t), and its host sizes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "adv_api/quantization/ascend_quant.h"
#include "adv_api/quantization/ascend_quant_tiling.h"
#include "adv_api/quantization/kernel_operator_ascend_quant_intf.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/quantization/ascend_quant.h"
#include "lib/quantization/ascend_quant_utils.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

int8_t ToInt8(half h) {
  const float r = std::nearbyint(float(h));  // the default rounding: to nearest even
  return static_cast<int8_t>(std::fmax(-128.0f, std::fmin(127.0f, r)));
}

half HalfMul(half a, half b) { return half(float(a) * float(b)); }
half HalfAdd(half a, half b) { return half(float(a) + float(b)); }

template <class T>
int8_t QuantRef(T x, half scale, half offset) {
  return ToInt8(HalfAdd(HalfMul(half(float(x)), scale), offset));
}

template <class T>
void CheckPerTensor(uint32_t n, uint32_t cal, uint32_t tmp_bytes, float scale, float offset,
                    bool stack_form) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " n=" + std::to_string(n) +
               " cal=" + std::to_string(cal) + " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(96 * 1024);
  auto src = fx.Take<T>(n);
  auto dst = fx.Take<int8_t>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes == 0 ? 32 : tmp_bytes);
  auto x = RandomVector<T>(n, -30, 30, n + 7);
  x[0] = T(2.5f);  // ties to even
  if (n > 3) x[1] = T(-3.5f), x[2] = T(1000.0f), x[3] = T(-1000.0f);  // saturate
  Fill(src, x);
  Fill(dst, std::vector<int8_t>(n, int8_t{99}));
  if (stack_form && cal == n)
    AscendC::AscendQuant<T>(dst, src, scale, offset);
  else if (stack_form)
    AscendC::AscendQuant<T>(dst, src, scale, offset, cal);
  else if (cal == n)
    AscendC::AscendQuant<T>(dst, src, tmp, scale, offset);
  else
    AscendC::AscendQuant<T>(dst, src, tmp, scale, offset, cal);
  for (uint32_t i = 0; i < n; ++i) {
    const int8_t want = i < cal ? QuantRef(x[i], half(scale), half(offset)) : int8_t{99};
    ASSERT_EQ(int(dst.GetValue(i)), int(want)) << i << ": x=" << float(x[i]);
  }
}

TEST(AdvAscendQuant, PerTensorBothTypesEveryForm) {
  CheckPerTensor<half>(1000, 1000, 512, 1.0f, 0.0f, false);  // pieces of 256
  CheckPerTensor<half>(333, 301, 64, 3.3f, -1.5f, false);    // pieces of 32
  CheckPerTensor<float>(1000, 999, 1024, 0.37f, 2.25f, false);
  CheckPerTensor<float>(96, 96, 0, 4.0f, 0.5f, true);
  CheckPerTensor<half>(64, 40, 0, 1.0f, 0.0f, true);
}

template <class T>
void CheckPerChannel(uint32_t rows, uint32_t channels, uint32_t tmp_bytes, bool offset_tensor,
                     bool explicit_counts) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " rows=" + std::to_string(rows) +
               " channels=" + std::to_string(channels) + " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(96 * 1024);
  const uint32_t n = rows * channels;
  auto src = fx.Take<T>(n);
  auto dst = fx.Take<int8_t>(n);
  auto scale = fx.Take<T>(channels), offset = fx.Take<T>(channels);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  auto x = RandomVector<T>(n, -20, 20, n + 1);
  auto s = RandomVector<T>(channels, 0.1f, 5, channels + 2);
  auto o = RandomVector<T>(channels, -3, 3, channels + 3);
  Fill(src, x);
  Fill(scale, s);
  Fill(offset, o);
  const T off_scalar = T(1.25f);
  if (offset_tensor) {
    if (explicit_counts)
      AscendC::AscendQuant<T>(dst, src, tmp, scale, offset, channels, channels, n);
    else
      AscendC::AscendQuant<T>(dst, src, tmp, scale, offset);
  } else {
    if (explicit_counts)
      AscendC::AscendQuant<T>(dst, src, tmp, scale, off_scalar, channels, n);
    else
      AscendC::AscendQuant<T>(dst, src, tmp, scale, off_scalar);
  }
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t c = i % channels;
    const half hs = half(float(s[c]));
    const half ho = offset_tensor ? half(float(o[c])) : half(float(off_scalar));
    ASSERT_EQ(int(dst.GetValue(i)), int(QuantRef(x[i], hs, ho))) << i << ": x=" << float(x[i]);
  }
  if constexpr (std::is_same_v<T, float>) {
    // The device casts the float scale to half in place (the caller's tensor is overwritten).
    const auto hscale = scale.template ReinterpretCast<half>();
    for (uint32_t c = 0; c < channels; ++c)
      ASSERT_EQ(float(hscale.GetValue(c)), float(half(s[c]))) << c;
  }
}

TEST(AdvAscendQuant, PerChannelBothTypesBothOffsets) {
  CheckPerChannel<half>(5, 64, 64, false, true);   // pieces of 32 within each row
  CheckPerChannel<half>(3, 160, 512, true, false);
  CheckPerChannel<float>(4, 96, 64, true, true);
  CheckPerChannel<float>(7, 32, 256, false, false);
}

TEST(AdvAscendQuant, ErrorsNameTheCallAndTheCause) {
  CoreFixture fx(64 * 1024);
  auto src = fx.Take<half>(128), scale = fx.Take<half>(32), offset = fx.Take<half>(16);
  auto dst = fx.Take<int8_t>(128);
  auto tmp = fx.Take<uint8_t>(256);
  EXPECT_THAT(ErrorOf([&] { AscendC::AscendQuant<half>(dst, src, tmp, 1.0f, 0.0f, 129); }),
              HasSubstr("AscendQuant: calCount is 129, which should not larger than srcTensor"));
  EXPECT_THAT(ErrorOf([&] { AscendC::AscendQuant<half>(dst, src, tmp[224], 1.0f, 0.0f, 64); }),
              HasSubstr("AscendQuant: sharedTmpBuffer holds 32 B, less than the 64 B"));
  EXPECT_THAT(ErrorOf([&] { AscendC::AscendQuant<half>(dst, src, tmp, scale, half(0), 48, 96); }),
              HasSubstr("AscendQuant: scaleCount is 48, which should not larger than scaleTensor "
                        "size 32."));
  EXPECT_THAT(ErrorOf([&] { AscendC::AscendQuant<half>(dst, src, tmp, scale, half(0), 32, 100); }),
              HasSubstr("calCount is 100, which should be integral multiple of scaleCount 32"));
  EXPECT_THAT(ErrorOf([&] { AscendC::AscendQuant<half>(dst, src, tmp, scale, offset, 32, 16, 64); }),
              HasSubstr("scaleCount is 32, which should be equal to offsetCount 16"));
  EXPECT_THAT(ErrorOf([&] { AscendC::AscendQuant<half>(dst, src, tmp, scale, offset, 32, 32, 64); }),
              HasSubstr("offsetCount is 32, which should not larger than offsetTensor size 16."));
  EXPECT_THAT(ErrorOf([&] { AscendC::AscendQuant<half>(dst, src, tmp, scale, half(0), 0, 64); }),
              HasSubstr("scaleCount is 0, which should be not zero."));
  EXPECT_THAT(ErrorOf([&] { AscendC::AscendQuant<half>(dst, src, src.ReinterpretCast<uint8_t>(),
                                                       1.0f, 0.0f, 64); }),
              HasSubstr("AscendQuant: sharedTmpBuffer UB"));
}

TEST(AdvAscendQuantTiling, HostSizesAreCanns) {
  uint32_t maxv = 0, minv = 0, nodes = 0, extra = 9;
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({4, 1024}), 2, maxv, minv);
  EXPECT_EQ(minv, 512u);
  EXPECT_EQ(maxv, 8192u);
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({16}), 4, maxv, minv);
  EXPECT_EQ(maxv, 512u);
  AscendC::GetAscendQuantTmpBufferFactorSize(nodes, extra);
  EXPECT_EQ(nodes, 2u);
  EXPECT_EQ(extra, 0u);
  testing::internal::CaptureStderr();
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({3}), 2, maxv, minv);
  EXPECT_THAT(testing::internal::GetCapturedStderr(),
              HasSubstr("[AscendQuant][GetAscendQuantMaxMinTmpSize] Input Shape size must be 32B "
                        "aligned!."));
}

}  // namespace
