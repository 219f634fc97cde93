// workspace.h (GetUserWorkspace, SetSysWorkspace, InitOutput) against scalar references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ascsim_test::Warnings;

// ---------------------------------------------------------------- workspace

TEST(Workspace, UserWorkspaceSkipsTheReservedSystemWorkspace) {
  CoreFixture fx;
  DeviceBuffer ws((16u << 20) + 4096);
  GM_ADDR user = AscendC::GetUserWorkspace(ws.gm());
  EXPECT_EQ(user, ws.gm() + (16u << 20));
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(user), 1024);
  g.SetValue(1023, 2.5f);  // the last user float is inside the allocation
  EXPECT_EQ(g.GetValue(1023), 2.5f);
  EXPECT_EQ(Warnings(fx), "");
}

TEST(Workspace, Reserved310PIsTwoMiB) {
  CoreFixture fx(128 * 1024, "Ascend310P3");
  DeviceBuffer ws((2u << 20) + 64);
  EXPECT_EQ(AscendC::GetUserWorkspace(ws.gm()), ws.gm() + (2u << 20));
}

TEST(Workspace, TooSmallWorkspaceWarnsAndItsUseFaults) {
  CoreFixture fx;
  DeviceBuffer ws(4096);
  GM_ADDR user = AscendC::GetUserWorkspace(ws.gm());
  EXPECT_NE(Warnings(fx).find("GetUserWorkspace: the workspace allocation holds 4096 B from the "
                              "workspace pointer, less than the 16 MiB system workspace"),
            std::string::npos)
      << Warnings(fx);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(user), 16);
  EXPECT_NE(ErrorOf([&] { g.SetValue(0, 1.0f); }).find("is not device memory"), std::string::npos);
}

TEST(Workspace, NullOrForeignWorkspaceFaults) {
  CoreFixture fx;
  EXPECT_EQ(ErrorOf([] { AscendC::GetUserWorkspace(nullptr); }),
            "test: block 0/1: GetUserWorkspace: workspace is nullptr (the host must pass the "
            "workspace it allocated: user bytes + GetLibApiWorkSpaceSize() of system workspace)");
  std::vector<uint8_t> host(64);
  EXPECT_NE(ErrorOf([&] {
              AscendC::GetUserWorkspace(host.data());
            }).find("GetUserWorkspace: workspace 0x"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] {
              AscendC::SetSysWorkspace(nullptr);
            }).find("SetSysWorkspace: workspace can not be nullptr"),
            std::string::npos);
}

TEST(Workspace, SysWorkspacePointerIsSetOnceUnlessForced) {
  CoreFixture fx;
  DeviceBuffer a(64), b(64);
  EXPECT_EQ(AscendC::GetSysWorkSpacePtr(), nullptr);
  AscendC::SetSysWorkspace(a.gm());
  EXPECT_EQ(AscendC::GetSysWorkSpacePtr(), a.gm());
  AscendC::SetSysWorkspace(b.gm());  // g_sysWorkspaceReserved keeps the first
  EXPECT_EQ(AscendC::GetSysWorkSpacePtr(), a.gm());
  AscendC::SetSysWorkspaceForce(b.gm());
  EXPECT_EQ(AscendC::GetSysWorkSpacePtr(), b.gm());
}

// ---------------------------------------------------------------- InitOutput

template <class T>
void CheckInitOutput(uint32_t size, T value) {
  CoreFixture fx;
  DeviceBuffer buf((size + 8) * sizeof(T));
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(buf.as<T>(), size + 8);
  for (uint32_t i = 0; i < size + 8; ++i) g.SetValue(i, T(7));
  AscendC::InitOutput(g[2], size, value);
  for (uint32_t i = 0; i < size + 8; ++i) {
    const T want = (i >= 2 && i < size + 2) ? value : T(7);
    ASSERT_EQ(Bits(g.GetValue(i)), Bits(want)) << i;
  }
}
TEST(InitOutput, FillsGmForBothTypesAndOddSizes) {
  CheckInitOutput<float>(1000, -1.5f);
  CheckInitOutput<float>(3, 0.0f);
  CheckInitOutput<half>(4099, half(2.0f));
  CheckInitOutput<int32_t>(257, 5);
}

TEST(InitOutput, DefaultValueIsZeroAndAtomicAddApplies) {
  CoreFixture fx;
  DeviceBuffer buf(64 * sizeof(float));
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(buf.as<float>(), 64);
  AscendC::InitOutput<float>(g, 64);
  EXPECT_EQ(g.GetValue(63), 0.0f);
  AscendC::SetAtomicAdd<float>();
  AscendC::InitOutput<float>(g, 64, 1.25f);
  AscendC::InitOutput<float>(g, 64, 1.25f);
  AscendC::SetAtomicNone();
  EXPECT_EQ(g.GetValue(10), 2.5f);
}

TEST(InitOutput, Errors) {
  {
    CoreFixture fx;
    DeviceBuffer buf(64 * sizeof(float));
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(buf.as<float>(), 64);
    EXPECT_EQ(ErrorOf([&] { AscendC::InitOutput<float>(g[10], 60, 1.0f); }),
              "test: block 0/1: InitOutput write [10, 70) of float exceeds GlobalTensor size 64");
  }
  {
    CoreFixture fx(192 * 1024);  // the TPipe owns all of UB
    DeviceBuffer buf(64 * sizeof(float));
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(buf.as<float>(), 64);
    EXPECT_NE(ErrorOf([&] {
                AscendC::InitOutput<float>(g, 64, 1.0f);
              }).find("InitOutput: no free UB above the TPipe's buffers (196608 of 196608 B"),
              std::string::npos);
  }
  {
    CoreFixture fx(128 * 1024, "Ascend310P3");
    DeviceBuffer buf(64 * sizeof(float));
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(buf.as<float>(), 64);
    EXPECT_NE(ErrorOf([&] {
                AscendC::InitOutput<float>(g, 64, 1.0f);
              }).find("InitOutput: InitOutput is not available on Ascend310P3"),
              std::string::npos);
  }
}

}  // namespace
