// Settings: one table in the process object, validated as a whole, and one snapshot per launch
// taken when the launch is issued (a launch queued on a stream runs with the settings of the
// moment it was queued, whatever changes before it runs).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace {

using ::testing::HasSubstr;

TEST(Settings, ScopedSettingsRestoresEveryValue) {
  const ascsim::Settings before = ascsim::GetSettings();
  {
    ascsim::ScopedSettings scope;
    ascsim::SetSoc("Ascend310P3");
    ascsim::SetStrict(!before.strict);
    ascsim::SetSerial(!before.serial);
    ascsim::SetLaunchTimeout(12.5);
    ascsim::SetSanitize(ascsim::kSanitizeRace);
    const ascsim::Settings during = ascsim::GetSettings();
    EXPECT_STREQ(during.soc->name, "Ascend310P3");
    EXPECT_EQ(during.strict, !before.strict);
    EXPECT_EQ(during.serial, !before.serial);
    EXPECT_EQ(during.timeout_seconds, 12.5);
    EXPECT_EQ(during.sanitize, ascsim::kSanitizeRace);
  }
  const ascsim::Settings after = ascsim::GetSettings();
  EXPECT_EQ(after.soc, before.soc);
  EXPECT_EQ(after.strict, before.strict);
  EXPECT_EQ(after.serial, before.serial);
  EXPECT_EQ(after.timeout_seconds, before.timeout_seconds);
  EXPECT_EQ(after.sanitize, before.sanitize);
}

TEST(Settings, InvalidValuesAreRejectedAndChangeNothing) {
  ascsim::ScopedSettings scope;
  const ascsim::Settings before = ascsim::GetSettings();
  ascsim::Settings bad = before;
  bad.soc = nullptr;
  EXPECT_THROW(ascsim::SetSettings(bad), ascsim::InvalidArgument);
  for (double t : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    bad = before;
    bad.timeout_seconds = t;
    try {
      ascsim::SetSettings(bad);
      ADD_FAILURE() << "timeout " << t << " accepted";
    } catch (const ascsim::InvalidArgument& e) {
      EXPECT_THAT(e.what(), HasSubstr("launch timeout must be a finite number of seconds >= 0"));
    }
  }
  bad = before;
  bad.sanitize = 1u << 7;
  EXPECT_THROW(ascsim::SetSettings(bad), ascsim::InvalidArgument);
  EXPECT_THROW(ascsim::SetLaunchTimeout(-0.5), ascsim::InvalidArgument);
  EXPECT_THROW(ascsim::SetSoc("Ascend999"), ascsim::InvalidArgument);
  const ascsim::Settings after = ascsim::GetSettings();
  EXPECT_EQ(after.soc, before.soc);
  EXPECT_EQ(after.timeout_seconds, before.timeout_seconds);
  EXPECT_EQ(after.sanitize, before.sanitize);
}

TEST(Settings, SanitizeSpecParses) {
  EXPECT_EQ(ascsim::ParseSanitizeFlags(""), 0u);
  EXPECT_EQ(ascsim::ParseSanitizeFlags("0"), 0u);
  EXPECT_EQ(ascsim::ParseSanitizeFlags("none"), 0u);
  EXPECT_EQ(ascsim::ParseSanitizeFlags("1"), ascsim::kSanitizeAll);
  EXPECT_EQ(ascsim::ParseSanitizeFlags("all"), ascsim::kSanitizeAll);
  EXPECT_EQ(ascsim::ParseSanitizeFlags("race"), ascsim::kSanitizeRace);
  EXPECT_EQ(ascsim::ParseSanitizeFlags("init, sync"),
            ascsim::kSanitizeInit | ascsim::kSanitizeSync);
  try {
    ascsim::ParseSanitizeFlags("race,rcae");
    ADD_FAILURE() << "a misspelt check was accepted";
  } catch (const ascsim::InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown sanitizer check 'rcae'"));
  }
}

// A launch queued behind a blocked one runs later, after the settings changed: it must still use
// the strict mode and the SoC of the moment it was issued.
TEST(Settings, AQueuedLaunchRunsWithTheSettingsOfItsIssue) {
  ascsim::ScopedSettings scope;
  ascsim::Stream stream;
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  stream.Enqueue([&] {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return release; });
  });

  ascsim::SetSoc("Ascend310P3");
  ascsim::SetStrict(true);
  std::string seen_soc;
  ascsim::Launch(
      "snapshot", 1,
      [&] {
        // UB size of the profile this block runs on.
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> all;
        pipe.InitBuffer(all, 256 * 1024);  // fits 310P3 (256 KiB), not 910B1 (192 KiB)
        seen_soc = "fits";
        // A warning is an error in strict mode.
        ascsim::aicore::Warn("snapshot warning");
      },
      &stream);
  ascsim::SetSoc("Ascend910B1");
  ascsim::SetStrict(false);
  {
    std::lock_guard<std::mutex> lock(mu);
    release = true;
  }
  cv.notify_all();
  try {
    stream.Synchronize();
    ADD_FAILURE() << "the strict-mode warning did not fail the launch";
  } catch (const ascsim::KernelError& e) {
    EXPECT_EQ(seen_soc, "fits");
    EXPECT_THAT(e.what(), HasSubstr("snapshot warning [strict mode]"));
  }
}

TEST(Settings, AnObserverAddedAfterIssueDoesNotSeeTheQueuedLaunch) {
  ascsim::Stream stream;
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  stream.Enqueue([&] {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return release; });
  });
  ascsim::Launch(
      "before_observer", 1, [] {}, &stream);
  std::vector<std::string> seen;
  const int id =
      ascsim::AddLaunchObserver([&](const ascsim::LaunchRecord& r) { seen.push_back(r.kernel); });
  ascsim::Launch(
      "after_observer", 1, [] {}, &stream);
  {
    std::lock_guard<std::mutex> lock(mu);
    release = true;
  }
  cv.notify_all();
  stream.Synchronize();
  ascsim::RemoveLaunchObserver(id);
  EXPECT_EQ(seen, std::vector<std::string>{"after_observer"});
}

}  // namespace
