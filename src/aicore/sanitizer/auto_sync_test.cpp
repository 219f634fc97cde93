// bisheng's --cce-auto-sync inserts the SetFlag/WaitFlag pairs a scalar access needs; the
// sanitizer's `sync` check (ASCSIM_SANITIZE=all) requires them in the source only of a kernel
// built without it, and says so. A kernel is declared built with it by the toolkit's compilers
// (ascsim::DeclareCompiledWithAutoSync; toolkit/compiler/auto_sync_test.sh runs it end to end).
#include <gtest/gtest.h>

#include <string>

#include "aicore_test_util.h"
#include "ascsim/kernel_launcher.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace {

// A vector result read by the scalar unit with no V_S flag in the source: the flag
// --cce-auto-sync inserts.
__global__ __aicore__ void vector_then_scalar(GM_ADDR z) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), 8);
  pipe.InitBuffer(buf, 32);
  AscendC::LocalTensor<float> v = buf.Get<float>();
  AscendC::Duplicate(v, 2.0f, 8);
  zGm.SetValue(0, v.GetValue(0) * 3);
}

std::string LaunchWith(uint32_t flags, void* z) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(flags);
  try {
    ascsim::MakeKernelLauncher("vector_then_scalar", &vector_then_scalar).Run(1, nullptr, z);
  } catch (const ascsim::KernelError& e) {
    return e.what();
  }
  return "";
}

TEST(SanitizerAutoSync, TheFlagBuiltWithDecidesWhetherSyncRequiresScalarFlags) {
  ascsim_test::DeviceBuffer z(32);
  // `race` alone assumes the compiler's flags, as --cce-auto-sync is the projects' default.
  EXPECT_EQ(LaunchWith(ascsim::kSanitizeRace | ascsim::kSanitizeInit, z.gm()), "");
  // `all` requires them in the source of a kernel not built with the flag, and says so.
  const std::string msg = LaunchWith(ascsim::kSanitizeAll, z.gm());
  EXPECT_NE(msg.find("race: S LocalTensor::GetValue"), std::string::npos) << msg;
  EXPECT_NE(msg.find("SetFlag/WaitFlag<HardEvent::V_S>"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the kernel was built without --cce-auto-sync"), std::string::npos) << msg;
  // Built with it: the compiler put the flag there.
  EXPECT_TRUE(
      ascsim::DeclareCompiledWithAutoSync(reinterpret_cast<const void*>(&vector_then_scalar)));
  EXPECT_EQ(LaunchWith(ascsim::kSanitizeAll, z.gm()), "");
  EXPECT_EQ(z.as<float>()[0], 6.0f);
}

}  // namespace
