// Matmul's scratch matrix comes from the allocator the runtime installs in the launch
// (LaunchShared::alloc_gm / free_gm), never from a call up into the runtime.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "aicore_test_util.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "runtime/device_memory_internal.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;

// A launch allocator that counts what Matmul asks of it.
struct Counts {
  int allocs = 0;
  int frees = 0;
  size_t bytes = 0;
  void* last_freed = nullptr;
};
Counts counts;

void* CountingAlloc(size_t bytes) {
  ++counts.allocs;
  counts.bytes += bytes;
  return ascsim::DeviceMalloc(bytes);
}

void CountingFree(void* p) {
  ++counts.frees;
  counts.last_freed = p;
  ascsim::DeviceFree(p);
}

TEST(MatmulScratch, ComesFromTheLaunchAllocatorZeroedAndGoesBackToIt) {
  counts = {};
  CoreFixture fx;
  fx.core().launch().alloc_gm = CountingAlloc;
  fx.core().launch().free_gm = CountingFree;
  const size_t in_use = ascsim::GetMemoryStats().in_use_bytes;
  uint8_t* p = ascsim::matmul::ScratchAlloc(1000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(counts.allocs, 1);
  EXPECT_EQ(counts.bytes, 1000u);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(p[i], 0) << "byte " << i;
  // Device memory, so a GlobalTensor over it resolves like any allocation.
  ascsim::GmRange range;
  ASSERT_TRUE(ascsim::runtime::FindDeviceMemory(p + 10, &range));
  EXPECT_EQ(range.begin, p);
  EXPECT_GE(ascsim::GetMemoryStats().in_use_bytes, in_use + 1000);
  ascsim::matmul::ScratchFree(p);
  EXPECT_EQ(counts.frees, 1);
  EXPECT_EQ(counts.last_freed, p);
  EXPECT_EQ(ascsim::GetMemoryStats().in_use_bytes, in_use);
}

TEST(MatmulScratch, ALaunchWithoutAnAllocatorFaultsAtTheCall) {
  CoreFixture fx;  // a hand-made launch: the runtime installed nothing
  const std::string msg = ErrorOf([] { ascsim::matmul::ScratchAlloc(64); });
  EXPECT_NE(msg.find("Matmul: this launch has no device memory allocator for the scratch matrix"),
            std::string::npos)
      << msg;
}

TEST(MatmulScratch, FreeOutsideACoreTouchesNothing) {
  counts = {};
  uint8_t* p = nullptr;
  {
    CoreFixture fx;
    fx.core().launch().alloc_gm = CountingAlloc;
    fx.core().launch().free_gm = CountingFree;
    p = ascsim::matmul::ScratchAlloc(64);
  }
  ascsim::matmul::ScratchFree(p);  // no current core, so no launch allocator to return it to
  EXPECT_EQ(counts.frees, 0);
  ascsim::DeviceFree(p);
}

}  // namespace
