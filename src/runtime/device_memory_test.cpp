// The device memory registry's guarantee behind the GM bounds check: a pointer just past the end
// of one allocation never is the start of another, so an overrun (x + n) is reported as outside
// its allocation instead of silently resolving into the neighbouring buffer (which allocators
// that pack equal sizes back to back, like the sanitizers', would otherwise allow).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ascsim/runtime.h"

namespace {

TEST(DeviceMemoryGuard, NoAllocationStartsWhereAnotherEnds) {
  for (size_t bytes : {size_t{1}, size_t{512}, size_t{4096}, size_t{32768}, size_t{1} << 20}) {
    std::vector<void*> blocks;
    for (int i = 0; i < 64; ++i) blocks.push_back(ascsim::DeviceMalloc(bytes));
    for (void* p : blocks) {
      const auto* end = static_cast<const uint8_t*>(p) + bytes;
      EXPECT_EQ(ascsim::DeviceAllocationSize(end), 0u) << bytes << " B at " << p;
    }
    for (void* p : blocks) ascsim::DeviceFree(p);
    // Reused from the cache: still separated.
    blocks.clear();
    for (int i = 0; i < 64; ++i) blocks.push_back(ascsim::DeviceMalloc(bytes));
    for (void* p : blocks) {
      EXPECT_EQ(ascsim::DeviceAllocationSize(static_cast<const uint8_t*>(p) + bytes), 0u);
    }
    for (void* p : blocks) ascsim::DeviceFree(p);
  }
}

}  // namespace

namespace {

// A request whose size class would wrap around SIZE_MAX (rounding up to 512 B, 1 MiB steps, the
// guard bytes) must fail like any other size the host cannot give, not register a small block
// under a huge size.
TEST(DeviceMemorySize, SizesThatWouldWrapFail) {
  const ascsim::MemoryStats before = ascsim::GetMemoryStats();
  for (size_t bytes : {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 511, SIZE_MAX - (size_t{1} << 20) + 2,
                       SIZE_MAX - (size_t{1} << 20) - 511, size_t{1} << 63, size_t{1} << 62}) {
    try {
      void* p = ascsim::DeviceMalloc(bytes);
      ADD_FAILURE() << "DeviceMalloc(" << bytes << ") returned " << p << " registered as "
                    << ascsim::DeviceAllocationSize(p) << " B";
      ascsim::DeviceFree(p);
    } catch (const ascsim::OutOfDeviceMemory& e) {
      EXPECT_NE(std::string(e.what()).find("cannot allocate " + std::to_string(bytes) + " B"),
                std::string::npos)
          << e.what();
    }
  }
  const ascsim::MemoryStats after = ascsim::GetMemoryStats();
  EXPECT_EQ(after.allocations, before.allocations);
  EXPECT_EQ(after.in_use_bytes, before.in_use_bytes);
  // The largest sizes that still round without wrapping are refused too, and small ones work.
  void* p = ascsim::DeviceMalloc(100);
  EXPECT_EQ(ascsim::DeviceAllocationSize(p), 100u);
  ascsim::DeviceFree(p);
}

}  // namespace
