// Asinh (ascsim/adv/math_asinh.h) through its include paths, bit-exact against a scalar replica of
// the device's steps (the logarithm taken from ascsim's vector Ln, the basic API the
// implementation calls), close to std::asinh, and its host temporary sizes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "adv_api/math/asinh.h"
#include "adv_api/math/asinh_tiling.h"
#include "adv_api/math/kernel_operator_asinh_intf.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/math/asinh.h"
#include "lib/math/kernel_operator_asinh_intf.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

template <class T>
void CheckAsinh(uint32_t n, uint32_t cal, uint32_t tmp_bytes, float lo, float hi, bool stack) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " n=" + std::to_string(n) +
               " cal=" + std::to_string(cal) + " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(128 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes == 0 ? 32 : tmp_bytes);
  auto x = RandomVector<T>(n, lo, hi, n + tmp_bytes);
  x[0] = T(0.0f);
  if (n > 2) x[1] = T(-1.0f), x[2] = T(hi * 10);
  Fill(src, x);
  const T sentinel = T(55.0f);
  Fill(dst, std::vector<T>(n, sentinel));
  if (stack && cal == n)
    AscendC::Asinh<T>(dst, src);
  else if (stack)
    AscendC::Asinh<T>(dst, src, cal);
  else if (cal == n)
    AscendC::Asinh<T>(dst, src, tmp);
  else
    AscendC::Asinh<T, false>(dst, src, tmp, cal);
  // The argument of Ln, step by step in float, then Ln through the vector unit.
  auto scratch = fx.Take<float>(n);
  for (uint32_t i = 0; i < n; ++i) {
    const float a = std::fabs(float(x[i]));
    float s = a * a;
    s = s + 1.0f;
    s = std::sqrt(s);
    scratch.SetValue(i, s + a);
  }
  AscendC::Ln(scratch, scratch, n);
  for (uint32_t i = 0; i < n; ++i) {
    if (i >= cal) {
      ASSERT_EQ(Bits(dst.GetValue(i)), Bits(sentinel)) << i;
      continue;
    }
    const float big = float(x[i]) * 4611686018427387904.0f;
    const float sign = big / (std::fabs(big) + 2.168404344971009e-19f);
    const float want = scratch.GetValue(i) * sign;
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(T(want)))
        << i << ": x=" << float(x[i]) << " got " << float(dst.GetValue(i)) << " want " << want;
    const double tol = (sizeof(T) == 2 ? 4e-3 : 1e-5) * std::max(1.0, std::fabs(double(want)));
    ASSERT_NEAR(float(dst.GetValue(i)), std::asinh(double(float(x[i]))), tol);
  }
}

TEST(AdvAsinh, BothTypesEveryFormAgainstTheDevicesSteps) {
  CheckAsinh<float>(1000, 1000, 3 * 4 * 128, -5, 5, false);  // pieces of 128, tail 104
  CheckAsinh<float>(333, 300, 3 * 4 * 32, -1000, 1000, false);
  CheckAsinh<float>(77, 77, 0, -2, 2, true);
  CheckAsinh<half>(1000, 1000, 3 * 256, -8, 8, false);  // pieces of 64
  CheckAsinh<half>(99, 97, 0, -100, 100, true);
  CheckAsinh<half>(64, 64, 3 * 4 * 64, -0.01f, 0.01f, false);
}

TEST(AdvAsinh, ErrorsNameTheCallAndTheCause) {
  CoreFixture fx(64 * 1024);
  auto src = fx.Take<float>(128), dst = fx.Take<float>(64);
  auto tmp = fx.Take<uint8_t>(512);
  EXPECT_THAT(ErrorOf([&] { AscendC::Asinh<float>(dst, src, tmp[160], 64); }),
              HasSubstr("Asinh: sharedTmpBuffer holds 352 B, less than the 384 B"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Asinh<float>(dst, src, tmp, 65); }),
              HasSubstr("Asinh: calCount 65 exceeds the src (128) or dst (64) tensor size"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Asinh<float>(dst, src, src.ReinterpretCast<uint8_t>(), 8); }),
              HasSubstr("Asinh: sharedTmpBuffer UB"));
}

TEST(AdvAsinhTiling, HostSizesAreCanns) {
  uint32_t maxv = 0, minv = 0, nodes = 0, extra = 9;
  AscendC::GetAsinhMaxMinTmpSize(ge::Shape({1000}), 2, false, maxv, minv);
  EXPECT_EQ(minv, 3u * 256u);
  EXPECT_EQ(maxv, 3u * 2000u);
  AscendC::GetAsinhMaxMinTmpSize(ge::Shape({10}), 4, false, maxv, minv);
  EXPECT_EQ(maxv, 3u * 256u);
  AscendC::GetAsinhTmpBufferFactorSize(2, nodes, extra);
  EXPECT_EQ(nodes, 3u);
  EXPECT_EQ(extra, 0u);
}

}  // namespace
