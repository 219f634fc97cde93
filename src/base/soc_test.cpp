// SoC names: every name the toolkit's SOC_VERSION accepts (src/base/soc_names.inc) finds the
// profile it is simulated as, in either case; a name that is none of them is refused, never
// silently replaced by the default profile.
#include "ascsim/soc.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "ascsim/error.h"

namespace {

TEST(SocNames, EveryNameFindsTheProfileItIsSimulatedAs) {
  ASSERT_GE(ascsim::SocNames().size(), 20u);
  for (const ascsim::SocName& n : ascsim::SocNames()) {
    const ascsim::SocProfile& p = ascsim::FindSocProfile(n.name);
    EXPECT_STREQ(p.name, n.profile) << n.name;
    std::string lower = n.name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_STREQ(ascsim::FindSocProfile(lower).name, n.profile) << lower;
    // A name that is not a profile's own says why it is simulated as another.
    EXPECT_EQ(std::string(n.why).empty(), std::string(n.name) == n.profile) << n.name;
  }
}

TEST(SocNames, TheIssuesNamesMapAsTheToolkitMapsThem) {
  EXPECT_STREQ(ascsim::FindSocProfile("Ascend310P1").name, "Ascend310P3");
  EXPECT_EQ(ascsim::FindSocProfile("Ascend310P1").arch, 2002);
  EXPECT_STREQ(ascsim::FindSocProfile("Ascend910B4").name, "Ascend910B3");
  EXPECT_STREQ(ascsim::FindSocProfile("ascend910b3").name, "Ascend910B3");
  EXPECT_STREQ(ascsim::FindSocProfile("ascend310p").name, "Ascend310P3");
  EXPECT_STREQ(ascsim::FindSocProfile("Ascend910_9391").name, "Ascend910B1");
  EXPECT_STREQ(ascsim::FindSocProfile("Ascend910B1").name, "Ascend910B1");
}

TEST(SocNames, UnknownNamesAreRefused) {
  for (const char* bad : {"Ascend999", "", "910B1", "Ascend910B1x"}) {
    try {
      ascsim::FindSocProfile(bad);
      ADD_FAILURE() << bad;
    } catch (const ascsim::InvalidArgument& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("unknown SoC '" + std::string(bad) + "'"));
      EXPECT_THAT(e.what(), ::testing::HasSubstr("Ascend910B1, Ascend910B3, Ascend310P3"));
    }
  }
}

}  // namespace
