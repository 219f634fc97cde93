// The device memory registry's guarantee behind the GM bounds check: a pointer just past the end
// of one allocation never is the start of another, so an overrun (x + n) is reported as outside
// its allocation instead of silently resolving into the neighbouring buffer (which allocators
// that pack equal sizes back to back, like the sanitizers', would otherwise allow).
#include <gtest/gtest.h>

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
