// A block that reaches into a device allocation its launch was not given is stopped before it
// touches it: the allocation is another launch's buffer (here: a live "victim" allocation placed
// where the overrun lands). Addresses read from the tiling struct, an integer argument or an
// allocation's exact start stay reachable.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "ascsim/kernel_launcher.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace {

constexpr int kLen = 256;  // floats per block

// Block b copies x[0, kLen) to z + offset + b * stride (elements), the slice a kernel computing
// its offsets from a wrong length would pick.
extern "C" __global__ __aicore__ void overrun_copy_custom(GM_ADDR x, GM_ADDR z, uint32_t offset,
                                                          uint32_t stride) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kLen * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::GlobalTensor<float> xGm;
  AscendC::GlobalTensor<float> zGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kLen);
  zGm.SetGlobalBuffer(
      reinterpret_cast<__gm__ float*>(z) + offset + AscendC::GetBlockIdx() * uint64_t{stride},
      kLen);
  AscendC::DataCopy(t, xGm, kLen);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopy(zGm, t, kLen);
}

struct AddressTiling {
  uint64_t length;
  __gm__ uint8_t* out;  // an address carried in the tiling struct
};

// Writes x to tiling.out + 4 floats: an address inside an allocation reached through the
// tiling struct, not through a pointer argument.
extern "C" __global__ __aicore__ void tiling_address_custom(GM_ADDR x, AddressTiling tiling) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kLen * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::GlobalTensor<float> xGm;
  AscendC::GlobalTensor<float> outGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kLen);
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(tiling.out) + 8, tiling.length);
  AscendC::DataCopy(t, xGm, kLen);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopy(outGm, t, kLen);
}

// Reads the address of its output from GM (a one-entry table the host wrote, as a tensor list's
// descriptor holds addresses) and writes there.
extern "C" __global__ __aicore__ void table_address_custom(GM_ADDR x, GM_ADDR table) {
  AscendC::GlobalTensor<uint64_t> tableGm;
  tableGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(table), 1);
  __gm__ float* out = reinterpret_cast<__gm__ float*>(tableGm.GetValue(0));
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kLen * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::GlobalTensor<float> xGm;
  AscendC::GlobalTensor<float> outGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kLen);
  outGm.SetGlobalBuffer(out, kLen);
  AscendC::DataCopy(t, xGm, kLen);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopy(outGm, t, kLen);
}

// Reads the address of its output from GM, as a ListTensorDesc entry, and writes its block's
// slice of it (kLen floats per block): addresses inside that allocation, not its start.
extern "C" __global__ __aicore__ void table_slice_custom(GM_ADDR x, GM_ADDR table) {
  AscendC::GlobalTensor<uint64_t> tableGm;
  tableGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(table), 1);
  __gm__ float* out = reinterpret_cast<__gm__ float*>(tableGm.GetValue(0));
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kLen * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::GlobalTensor<float> xGm;
  AscendC::GlobalTensor<float> outGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kLen);
  outGm.SetGlobalBuffer(out + kLen * AscendC::GetBlockIdx(), kLen);
  AscendC::DataCopy(t, xGm, kLen);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopy(outGm, t, kLen);
}

class GmProvenance : public ::testing::Test {
 protected:
  void SetUp() override {
    // Freed device memory is kept per size class and handed out again: in a long process (the
    // whole suite under ASCSIM_SANITIZE=all) hundreds of cached 1 KiB blocks may lie between
    // z_ and the victim, and x_ would keep landing there. Start from the host heap.
    ascsim::ReleaseCachedMemory();
    x_ = static_cast<float*>(ascsim::DeviceMalloc(kLen * sizeof(float)));
    z_ = static_cast<float*>(ascsim::DeviceMalloc(4 * kLen * sizeof(float)));
    victim_ = static_cast<float*>(ascsim::DeviceMalloc(4 * kLen * sizeof(float)));
    // Overruns go up: the victim is the higher of the two.
    if (reinterpret_cast<uintptr_t>(victim_) < reinterpret_cast<uintptr_t>(z_)) {
      std::swap(z_, victim_);
    }
    // The fault names the argument whose allocation ends closest below the write: x_ must not
    // lie between z_ and the victim (the heap reuses freed chunks, more so under the sanitizer).
    std::vector<float*> held;
    const auto between = [this](const float* p) {
      return p > z_ && p < victim_;
    };
    while (between(x_) && held.size() < 4096) {
      held.push_back(x_);
      x_ = static_cast<float*>(ascsim::DeviceMalloc(kLen * sizeof(float)));
    }
    for (float* p : held) ascsim::DeviceFree(p);
    ASSERT_FALSE(between(x_)) << "no allocation of x outside [z, victim) after 4096 tries";
    for (int i = 0; i < kLen; ++i) x_[i] = static_cast<float>(i);
    for (int i = 0; i < 4 * kLen; ++i) victim_[i] = -1.0f;
  }
  void TearDown() override {
    ascsim::DeviceFree(x_);
    ascsim::DeviceFree(z_);
    ascsim::DeviceFree(victim_);
  }
  // Elements from z_ to victim_ + kLen (inside the victim, not at its start).
  uint32_t ToInsideVictim() const {
    const auto gap = reinterpret_cast<uintptr_t>(victim_ + kLen) - reinterpret_cast<uintptr_t>(z_);
    return static_cast<uint32_t>(gap / sizeof(float));
  }
  bool VictimUntouched() const {
    for (int i = 0; i < 4 * kLen; ++i) {
      if (victim_[i] != -1.0f) return false;
    }
    return true;
  }
  float* x_ = nullptr;
  float* z_ = nullptr;
  float* victim_ = nullptr;
};

TEST_F(GmProvenance, OverrunIntoAnotherLiveAllocationFaultsAndLeavesItUntouched) {
  const uint32_t stride = ToInsideVictim();  // block 0 writes z_, block 1 the victim
  for (bool serial : {true, false}) {
    ascsim::ScopedSettings restore;
    ascsim::Settings settings = ascsim::GetSettings();
    settings.serial = serial;
    ascsim::SetSettings(settings);
    try {
      ascsim::MakeKernelLauncher("overrun_copy_custom", &overrun_copy_custom)
          .Run(2, nullptr, x_, z_, 0u, stride);
      FAIL() << "the overrun was not reported";
    } catch (const ascsim::KernelError& e) {
      const std::string message = e.what();
      EXPECT_EQ(e.fault_kind(), ascsim::ErrorKind::kOutOfBounds);
      EXPECT_NE(message.find("overrun_copy_custom: block 1/2: DataCopy UB->GM write of 1024 B at"),
                std::string::npos)
          << message;
      EXPECT_NE(message.find("that this launch was not given (no GM argument points into it)"),
                std::string::npos)
          << message;
      EXPECT_NE(message.find("past the end of the"), std::string::npos) << message;
      // The nearest argument below the address is named: z_ (SetUp keeps x_ out of the gap).
      EXPECT_NE(message.find("of kernel argument index 1"), std::string::npos) << message;
    }
    EXPECT_TRUE(VictimUntouched()) << (serial ? "serial" : "parallel");
  }
}

TEST_F(GmProvenance, TheSameAllocationPassedAsAnArgumentIsReachable) {
  // Given the victim as an argument too, the same write is legitimate.
  const float* before = victim_;
  ascsim::MakeKernelLauncher("overrun_copy_custom", &overrun_copy_custom)
      .Run(1, nullptr, x_, victim_, uint32_t{kLen}, 0u);
  EXPECT_EQ(victim_, before);
  for (int i = 0; i < kLen; ++i) ASSERT_EQ(victim_[kLen + i], static_cast<float>(i)) << i;
}

TEST_F(GmProvenance, AnAddressInTheTilingStructIsReachable) {
  AddressTiling tiling{kLen, reinterpret_cast<__gm__ uint8_t*>(victim_)};
  ascsim::MakeKernelLauncher("tiling_address_custom", &tiling_address_custom)
      .Run(1, nullptr, x_, tiling);
  for (int i = 0; i < kLen; ++i) ASSERT_EQ(victim_[8 + i], static_cast<float>(i)) << i;
  // By pointer, as the generated aclrtlaunch_ launchers take a tiling struct.
  for (int i = 0; i < 4 * kLen; ++i) victim_[i] = -1.0f;
  ascsim::MakeKernelLauncher("tiling_address_custom", &tiling_address_custom)
      .Run(1, nullptr, x_, &tiling);
  for (int i = 0; i < kLen; ++i) ASSERT_EQ(victim_[8 + i], static_cast<float>(i)) << i;
}

TEST_F(GmProvenance, AnAllocationStartReadFromGmIsReachable) {
  auto* table = static_cast<uint64_t*>(ascsim::DeviceMalloc(sizeof(uint64_t)));
  table[0] = reinterpret_cast<uint64_t>(victim_);
  ascsim::MakeKernelLauncher("table_address_custom", &table_address_custom)
      .Run(1, nullptr, x_, table);
  for (int i = 0; i < kLen; ++i) ASSERT_EQ(victim_[i], static_cast<float>(i)) << i;
  ascsim::DeviceFree(table);
}

TEST_F(GmProvenance, EachBlocksSliceOfAnAllocationReadFromATableIsReachable) {
  auto* table = static_cast<uint64_t*>(ascsim::DeviceMalloc(2 * sizeof(uint64_t)));
  table[0] = reinterpret_cast<uint64_t>(victim_);
  table[1] = 0;
  ascsim::MakeKernelLauncher("table_slice_custom", &table_slice_custom).Run(4, nullptr, x_, table);
  for (int i = 0; i < 4 * kLen; ++i) ASSERT_EQ(victim_[i], static_cast<float>(i % kLen)) << i;
  ascsim::DeviceFree(table);
}

TEST_F(GmProvenance, OnAStreamTheArgumentsAreKeptWithTheQueuedLaunch) {
  ascsim::Stream stream;
  for (int i = 0; i < 8; ++i) {
    ascsim::MakeKernelLauncher("overrun_copy_custom", &overrun_copy_custom)
        .Run(1, &stream, x_, z_, 0u, 0u);
  }
  stream.Synchronize();
  for (int i = 0; i < kLen; ++i) ASSERT_EQ(z_[i], static_cast<float>(i)) << i;
  ascsim::MakeKernelLauncher("overrun_copy_custom", &overrun_copy_custom)
      .Run(1, &stream, x_, z_, ToInsideVictim(), 0u);
  EXPECT_THROW(stream.Synchronize(), ascsim::KernelError);
  EXPECT_TRUE(VictimUntouched());
}

}  // namespace
