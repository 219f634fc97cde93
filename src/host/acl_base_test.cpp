// acl_base.h conversions and sizes, the device queries, and the toolkit's SoC choice.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "acl/acl.h"
#include "ascsim/runtime.h"
#include "ascsim/soc.h"
#include "ascsim/toolkit.h"

namespace {

using ::testing::HasSubstr;

uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

TEST(AclFloat16, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto h = static_cast<aclFloat16>(bits);
    const float f = aclFloat16ToFloat(h);
    const bool nan = (bits & 0x7C00u) == 0x7C00u && (bits & 0x3FFu) != 0;
    if (nan) {
      ASSERT_TRUE(std::isnan(f)) << bits;
      ASSERT_TRUE(std::isnan(aclFloat16ToFloat(aclFloatToFloat16(f)))) << bits;
    } else {
      ASSERT_EQ(aclFloatToFloat16(f), h) << bits;
    }
  }
}

TEST(AclFloat16, KnownValuesAndRounding) {
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
  EXPECT_EQ(aclFloatToFloat16(-2.0f), 0xC000);
  EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7BFF);                // largest finite half
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7C00);                // rounds up to +inf
  EXPECT_EQ(aclFloatToFloat16(5.9604644775390625e-8f), 0x0001);  // smallest subnormal
  EXPECT_EQ(aclFloatToFloat16(2.98e-8f), 0x0000);                // below half of it: zero
  // Ties go to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(aclFloatToFloat16(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  EXPECT_EQ(aclFloatToFloat16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(FloatBits(aclFloat16ToFloat(0x8000)), 0x80000000u);  // -0 stays -0
  EXPECT_EQ(aclFloat16ToFloat(0x3555), 0.333251953125f);
}

TEST(AclDataTypeSize, AsCannReportsThem) {
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_BOOL), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT4), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(aclDataTypeSize(ACL_STRING), 0u);
  EXPECT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0u);
}

TEST(AclDevice, RunModeAndSocName) {
  aclrtRunMode mode = ACL_DEVICE;
  EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_HOST);
  EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("runMode is null"));
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 1u);
  if (ascsim::toolkit::RequestedSoc() == nullptr) {
    ascsim::ScopedSettings restore;
    ascsim::SetSoc("Ascend310P3");
    EXPECT_STREQ(aclrtGetSocName(), "Ascend310P3");
  }
}

// SelectSoc keeps its choice for the process (aclrtGetSocName reports it from then on), so the
// checks run in a child process.
TEST(ToolkitSelectSoc, UnmodelledNameIsSimulatedAsItsProfileAndSaidOnce) {
  EXPECT_EXIT(
      {
        unsetenv("ASCSIM_SOC");
        ascsim::toolkit::SelectSoc("Ascend910B4", "Ascend910B3", "20 AI cores, as the 910B3");
        ascsim::toolkit::SelectSoc("Ascend910B4", "Ascend910B3", "20 AI cores, as the 910B3");
        const bool ok = std::strcmp(aclrtGetSocName(), "Ascend910B4") == 0 &&
                        std::strcmp(ascsim::CurrentSoc().name, "Ascend910B3") == 0;
        std::_Exit(ok ? 0 : 1);  // _Exit: no exit-time output (LeakSanitizer) in the child
      },
      ::testing::ExitedWithCode(0),
      "^ascsim: Ascend910B4 is not modelled; simulating it as Ascend910B3 \\(20 AI cores, as "
      "the 910B3\\)\n$");
}

TEST(ToolkitSelectSoc, AscsimSocInTheEnvironmentWins) {
  EXPECT_EXIT(
      {
        // (The runtime reads ASCSIM_SOC when it starts; here it may have started already, so
        // the check is that SelectSoc leaves the choice alone.)
        setenv("ASCSIM_SOC", "Ascend310P3", 1);
        const std::string before = ascsim::CurrentSoc().name;
        ascsim::toolkit::SelectSoc("Ascend910B3", "Ascend910B3", "");
        const bool ok = ascsim::toolkit::RequestedSoc() == nullptr &&
                        before == ascsim::CurrentSoc().name && before == aclrtGetSocName();
        std::_Exit(ok ? 0 : 1);  // _Exit: no exit-time output (LeakSanitizer) in the child
      },
      ::testing::ExitedWithCode(0), "^$");
}

TEST(ToolkitSelectSoc, UnknownProfileIsReportedNotThrown) {
  EXPECT_EXIT(
      {
        unsetenv("ASCSIM_SOC");
        ascsim::toolkit::SelectSoc("Ascend999", "Ascend999", "");
        std::_Exit(ascsim::toolkit::RequestedSoc() == nullptr ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "ascsim: cannot simulate Ascend999: unknown SoC 'Ascend999'");
}

}  // namespace
