// Erfc (ascsim/adv/math_erfc.h) through the include paths production kernels use, against a
// scalar replica of the device's steps and against erfc in double, and its host temporary-space
// sizes (tiling/adv_math_tiling.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "adv_api/math/erfc.h"
#include "adv_api/math/kernel_operator_erfc_intf.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/math/erfc.h"
#include "lib/math/kernel_operator_erfc_intf.h"
#include "tiling/adv_math_tiling.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

// erfc_common_impl.h's steps in scalar float, on one element (exp from the C library: the
// vector Exp may differ from it by an ulp, so the comparison allows a few).
float ErfcSteps(float x) {
  x = std::fmax(std::fmin(x, 10.0f), -10.0f);
  const float xa = std::fabs(x) + 2.168404344971009e-19f;
  const float sign = x / xa;
  const float r[] = {0.1735313680e-7f, -0.9856738394e-6f, 0.2517003236e-4f,
                     -0.3848015171e-3f, 0.5681528564e0f,  0.5245623129e1f,
                     0.2107740710e2f,  0.4212761755e2f,   0.4380524149e2f};
  float rz = xa * r[0] + r[1];
  for (int i = 2; i < 9; ++i) rz = xa * rz + r[i];
  const float s[] = {0.9349684299e1f, 0.3756930664e2f, 0.8058268949e2f, 0.9155653738e2f,
                     0.4380524152e2f};
  float sz = xa + s[0];
  for (int i = 1; i < 5; ++i) sz = xa * sz + s[i];
  const float e = std::exp((xa * xa) * -1.0f);
  return (e * (rz / sz)) * sign + (sign * -1.0f + 1.0f);
}

template <class T>
void CheckErfc(uint32_t n, uint32_t tmp_bytes, float lo, float hi) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " n=" + std::to_string(n) +
               " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(160 * 1024);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  auto x = RandomVector<T>(n, lo, hi, n + tmp_bytes);
  if (n > 4) {
    x[0] = T(0.0f);
    x[1] = T(-30.0f);  // clipped to -10: 2
    x[2] = T(30.0f);   // clipped to 10: 2e-45, a float denormal, 0 in half
    x[3] = T(1.0f);
  }
  Fill(src, x);
  AscendC::Erfc<T>(dst, src, tmp, n);
  for (uint32_t i = 0; i < n; ++i) {
    const float xi = float(x[i]);
    const float got = float(dst.GetValue(i));
    const float replica = ErfcSteps(xi);
    const double exact = std::erfc(double(std::fmax(std::fmin(xi, 10.0f), -10.0f)));
    if (sizeof(T) == 4) {
      ASSERT_NEAR(got, replica, 4 * std::nextafter(std::fabs(replica), INFINITY) -
                                    4 * std::fabs(replica) + 1e-44f)
          << "x=" << xi;
      // The approximation itself: about 1e-6 relative where erfc is not tiny.
      ASSERT_NEAR(got, exact, 2e-6 * exact + 1e-30) << "x=" << xi;
    } else {
      // Rounded once from the float result (CAST_ROUND): within one half ulp of the replica.
      ASSERT_NEAR(got, replica, std::ldexp(1.0, -10) * std::fabs(replica) + 6e-8f) << "x=" << xi;
      ASSERT_NEAR(got, exact, 2e-3 * exact + 6e-8) << "x=" << xi;
    }
  }
}

TEST(AdvErfc, MatchesTheDevicesStepsAndErfcInBothTypes) {
  CheckErfc<float>(1000, 5 * 256 * 4, -4, 4);  // pieces of 256 floats
  CheckErfc<float>(77, 7 * 256, -12, 12);      // the minimum: pieces of 64, clipping
  CheckErfc<half>(333, 16 * 256, -4, 4);       // pieces of 160 halves
  CheckErfc<half>(65, 20 * 256, -3, 3);       // pieces of 192
}

TEST(AdvErfc, StackFormAndWholeTensorForms) {
  CoreFixture fx(64 * 1024);
  const uint32_t n = 96;
  auto src = fx.Take<float>(n), dst = fx.Take<float>(n), dst2 = fx.Take<float>(n);
  auto tmp = fx.Take<uint8_t>(7 * 256);
  Fill(src, RandomVector<float>(n, -3, 3, 11));
  AscendC::Erfc(dst, src, tmp);
  AscendC::Erfc(dst2, src);
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(dst.GetValue(i), dst2.GetValue(i));
    EXPECT_NEAR(dst.GetValue(i), std::erfc(double(src.GetValue(i))), 1e-5);
  }
}

TEST(AdvErfc, ErrorsNameTheCall) {
  CoreFixture fx(64 * 1024);
  auto src = fx.Take<float>(64), dst = fx.Take<float>(64);
  auto small = fx.Take<uint8_t>(6 * 256);
  EXPECT_THAT(ErrorOf([&] { AscendC::Erfc<float>(dst, src, small, 64); }), HasSubstr("Erfc"));
  auto tmp = fx.Take<uint8_t>(7 * 256);
  EXPECT_THAT(ErrorOf([&] { AscendC::Erfc<float>(dst, src, tmp, 65); }), HasSubstr("Erfc"));
  auto hs = fx.Take<half>(32), hd = fx.Take<half>(32);
  EXPECT_THAT(ErrorOf([&] { AscendC::Erfc<half>(hd, hs, tmp, 32); }), HasSubstr("Erfc"));
}

TEST(AdvErfcTiling, HostSizesAreCannsFactors) {
  uint32_t maxv = 0, minv = 0, nodes = 0, extra = 1;
  AscendC::GetErfcMaxMinTmpSize(ge::Shape({1000}), 4, false, maxv, minv);
  EXPECT_EQ(minv, 7u * 256u);
  EXPECT_EQ(maxv, 7u * 4000u);
  AscendC::GetErfcMaxMinTmpSize(ge::Shape({10}), 2, false, maxv, minv);
  EXPECT_EQ(minv, 16u * 256u);
  EXPECT_EQ(maxv, 16u * 256u);
  AscendC::GetErfcTmpBufferFactorSize(2, nodes, extra);
  EXPECT_EQ(nodes, 16u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetErfcTmpBufferFactorSize(4, nodes, extra);
  EXPECT_EQ(nodes, 7u);
}

}  // namespace
