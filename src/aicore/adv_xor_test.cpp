// Xor (ascsim/adv/math_xor.h) through its include paths, both types, against the scalar ^, and
// its host temporary sizes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "adv_api/math/kernel_operator_xor_intf.h"
#include "adv_api/math/xor.h"
#include "adv_api/math/xor_tiling.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/math/xor.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ::testing::HasSubstr;

template <class T>
void CheckXor(uint32_t n, uint32_t cal, uint32_t tmp_bytes, bool stack) {
  SCOPED_TRACE(std::string(std::is_signed_v<T> ? "int16" : "uint16") + " n=" + std::to_string(n) +
               " cal=" + std::to_string(cal) + " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(64 * 1024);
  auto a = fx.Take<T>(n), b = fx.Take<T>(n), d = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes == 0 ? 32 : tmp_bytes);
  std::mt19937 rng(n + cal);
  std::vector<T> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<T>(rng()), y[i] = static_cast<T>(rng());
  Fill(a, x);
  Fill(b, y);
  Fill(d, std::vector<T>(n, T(0x5a5a)));
  if (stack && cal == n)
    AscendC::Xor<T>(d, a, b);
  else if (stack)
    AscendC::Xor<T>(d, a, b, cal);
  else if (cal == n)
    AscendC::Xor<T>(d, a, b, tmp);
  else
    AscendC::Xor<T, false>(d, a, b, tmp, cal);
  for (uint32_t i = 0; i < n; ++i) {
    const T want = i < cal ? static_cast<T>(x[i] ^ y[i]) : T(0x5a5a);
    ASSERT_EQ(d.GetValue(i), want) << i;
  }
}

TEST(AdvXor, BothTypesEveryForm) {
  CheckXor<uint16_t>(1000, 1000, 256, false);  // pieces of 128
  CheckXor<int16_t>(333, 317, 64, false);      // pieces of 32
  CheckXor<int16_t>(77, 77, 0, true);
  CheckXor<uint16_t>(200, 3, 0, true);
  CheckXor<int16_t>(96, 96, 512, false);
}

TEST(AdvXor, ErrorsNameTheCallAndTheCause) {
  CoreFixture fx(64 * 1024);
  auto a = fx.Take<uint16_t>(64), b = fx.Take<uint16_t>(48), d = fx.Take<uint16_t>(64);
  auto tmp = fx.Take<uint8_t>(256);
  EXPECT_THAT(ErrorOf([&] { AscendC::Xor(d, a, b, tmp); }),
              HasSubstr("Xor: Failed to check src0Tensor size 64 and src1Tensor size 48"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Xor(d, a, b, tmp, 49); }),
              HasSubstr("Xor: calCount 49 exceeds src0 (64), src1 (48) or dst (64)"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Xor(d, a, b, tmp[224], 16); }),
              HasSubstr("Xor: sharedTmpBuffer holds 32 B, less than the 64 B"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Xor(d, a, b, a.ReinterpretCast<uint8_t>(), 16); }),
              HasSubstr("Xor: sharedTmpBuffer UB"));
}

TEST(AdvXorTiling, HostSizesAreCanns) {
  uint32_t maxv = 0, minv = 0, nodes = 0, extra = 9;
  AscendC::GetXorMaxMinTmpSize(ge::Shape({10, 100}), 2, false, maxv, minv);
  EXPECT_EQ(minv, 256u);
  EXPECT_EQ(maxv, 2000u);
  AscendC::GetXorMaxMinTmpSize(ge::Shape({10}), 2, false, maxv, minv);
  EXPECT_EQ(maxv, 256u);
  AscendC::GetXorTmpBufferFactorSize(2, nodes, extra);
  EXPECT_EQ(nodes, 1u);
  EXPECT_EQ(extra, 0u);
}

}  // namespace
