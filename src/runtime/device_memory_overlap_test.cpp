// The device memory registry with caller memory (NumPy arrays, ExternalMemory) registered in
// overlapping pieces: views of one buffer passed to one launch, or to launches that overlap in
// time. Every registered byte must resolve to a range holding the whole access, and dropping one
// registration must keep the others.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "ascsim/runtime.h"
#include "kernel_launchers.h"
#include "runtime/device_memory_internal.h"

namespace {

using ascsim::ExternalMemory;
using ascsim::IsDeviceMemory;

// The registered range holding `p` as [begin, end) offsets into `base`, or {-1, -1}.
std::pair<long, long> RangeOf(const float* base, const float* p) {
  ascsim::GmRange r;
  if (!ascsim::runtime::FindDeviceMemory(p, &r)) return {-1, -1};
  const auto* b = reinterpret_cast<const uint8_t*>(base);
  return {static_cast<long>(r.begin - b) / 4, static_cast<long>(r.end - b) / 4};
}

TEST(DeviceMemoryOverlap, OverlappingRegistrationsResolveToTheirUnion) {
  std::vector<float> buf(2000);
  const float* p = buf.data();
  ExternalMemory a(p, 1000 * 4);          // [0, 1000)
  ExternalMemory b(p + 500, 1500 * 4);    // [500, 2000): overlaps a, not identical
  EXPECT_EQ(RangeOf(p, p + 1999), std::make_pair(0L, 2000L));
  EXPECT_EQ(RangeOf(p, p + 600), std::make_pair(0L, 2000L));
  EXPECT_EQ(RangeOf(p, p + 0), std::make_pair(0L, 2000L));
}

TEST(DeviceMemoryOverlap, DroppingOneRegistrationKeepsTheRest) {
  std::vector<float> buf(2000);
  const float* p = buf.data();
  auto a = std::make_unique<ExternalMemory>(p, 1000 * 4);        // [0, 1000)
  auto b = std::make_unique<ExternalMemory>(p + 500, 1500 * 4);  // [500, 2000)
  a.reset();
  EXPECT_EQ(RangeOf(p, p + 1999), std::make_pair(500L, 2000L));
  EXPECT_FALSE(IsDeviceMemory(p + 100));
  b.reset();
  EXPECT_FALSE(IsDeviceMemory(p + 1000));
  EXPECT_FALSE(IsDeviceMemory(p));
}

TEST(DeviceMemoryOverlap, ABridgeMergesTwoRangesAndLeavingSplitsThemAgain) {
  std::vector<float> buf(300);
  const float* p = buf.data();
  ExternalMemory a(p, 100 * 4);        // [0, 100)
  ExternalMemory c(p + 200, 100 * 4);  // [200, 300)
  EXPECT_EQ(RangeOf(p, p + 150), std::make_pair(-1L, -1L));
  {
    ExternalMemory bridge(p + 50, 200 * 4);  // [50, 250)
    EXPECT_EQ(RangeOf(p, p + 10), std::make_pair(0L, 300L));
    EXPECT_EQ(RangeOf(p, p + 150), std::make_pair(0L, 300L));
    EXPECT_EQ(RangeOf(p, p + 299), std::make_pair(0L, 300L));
  }
  EXPECT_EQ(RangeOf(p, p + 10), std::make_pair(0L, 100L));
  EXPECT_EQ(RangeOf(p, p + 250), std::make_pair(200L, 300L));
  EXPECT_FALSE(IsDeviceMemory(p + 150));
}

TEST(DeviceMemoryOverlap, IdenticalAndNestedRegistrationsAreCounted) {
  std::vector<float> buf(100);
  const float* p = buf.data();
  auto outer1 = std::make_unique<ExternalMemory>(p, 100 * 4);
  auto outer2 = std::make_unique<ExternalMemory>(p, 100 * 4);
  auto inner = std::make_unique<ExternalMemory>(p + 10, 10 * 4);
  outer1.reset();
  EXPECT_EQ(RangeOf(p, p + 99), std::make_pair(0L, 100L));
  outer2.reset();
  EXPECT_EQ(RangeOf(p, p + 15), std::make_pair(10L, 20L));
  EXPECT_FALSE(IsDeviceMemory(p + 50));
  inner.reset();
  EXPECT_FALSE(IsDeviceMemory(p + 15));
}

TEST(DeviceMemoryOverlap, ExternalRangeInsideADeviceAllocationLeavesTheAllocationAlone) {
  void* d = ascsim::DeviceMalloc(4096);
  {
    ExternalMemory inside(static_cast<uint8_t*>(d) + 100, 200);
    EXPECT_EQ(ascsim::DeviceAllocationSize(d), 4096u);
    EXPECT_TRUE(IsDeviceMemory(static_cast<uint8_t*>(d) + 4000));
  }
  EXPECT_TRUE(IsDeviceMemory(static_cast<uint8_t*>(d) + 150));
  ascsim::DeviceFree(d);
}

// The bug this fixes, end to end: x and y are overlapping views of one buffer. Before, y was
// silently not registered and its reads resolved to x's range: a false out-of-bounds fault.
TEST(DeviceMemoryOverlap, AddOnOverlappingViewsOfOneBuffer) {
  constexpr uint64_t kN = 8192;
  std::vector<float> buf(kN + kN / 2);
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<float>(i);
  std::vector<float> z(kN);
  const float* x = buf.data();
  const float* y = buf.data() + kN / 2;
  ExternalMemory xm(x, kN * 4), ym(y, kN * 4), zm(z.data(), kN * 4);
  ascsim::kernels::LaunchAddCustom(ascsim::kernels::ElementType::kFloat32, x, y, z.data(), kN, 8,
                                   nullptr);
  for (uint64_t i = 0; i < kN; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
}

}  // namespace
