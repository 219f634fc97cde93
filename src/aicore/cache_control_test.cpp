// cache_control.h: DataCacheCleanAndInvalid's checks per architecture.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;

// ---------------------------------------------------------------- cache control

TEST(CacheControl, DataCacheCleanAndInvalidChecksItsTensor) {
  CoreFixture fx;
  DeviceBuffer buf(256);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(buf.as<float>(), 64);
  g.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
  EXPECT_EQ(g.cacheMode_, AscendC::CacheMode::CACHE_MODE_DISABLE);
  g.SetValue(3, 4.0f);
  AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::SINGLE_CACHE_LINE>(g[3]);
  AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE,
                                    AscendC::DcciDst::CACHELINE_OUT>(g);
  EXPECT_EQ(g.GetValue(3), 4.0f);
  AscendC::GlobalTensor<float> unbound;
  EXPECT_EQ(
      ErrorOf([&] {
        AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::SINGLE_CACHE_LINE>(unbound);
      }),
      "test: block 0/1: DataCacheCleanAndInvalid: GlobalTensor has no buffer "
      "(SetGlobalBuffer not called)");
}

TEST(CacheControl, DcciDstFormIsNotOn310P) {
  CoreFixture fx(128 * 1024, "Ascend310P3");
  DeviceBuffer buf(256);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(buf.as<float>(), 64);
  AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE>(g);
  EXPECT_NE(ErrorOf([&] {
              AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE,
                                                AscendC::DcciDst::CACHELINE_ALL>(g);
            }).find("the DcciDst form is not available on Ascend310P3"),
            std::string::npos);
}

TEST(CacheControl, ICachePreLoadLengthStaysBelowTheICache) {
  {
    CoreFixture fx;  // an A2 vector core: 16 KiB of ICache, 8 units of 2 KiB
    AscendC::ICachePreLoad(2);
    AscendC::ICachePreLoad(7);
    EXPECT_EQ(AscendC::GetICachePreloadStatus(), 0);
    EXPECT_NE(ErrorOf([] { AscendC::ICachePreLoad(8); })
                  .find("ICachePreLoad: preFetchLen 8 (units of 2 KiB) must be in [0, 8): the "
                        "AIV's instruction cache holds 16 KiB"),
              std::string::npos);
    EXPECT_NE(ErrorOf([] { AscendC::ICachePreLoad(-1); }).find("preFetchLen -1"),
              std::string::npos);
  }
  // The 310P ignores the length (it prefetches 128 bytes).
  CoreFixture fx(128 * 1024, "Ascend310P3");
  AscendC::ICachePreLoad(100);
}

}  // namespace
