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

}  // namespace
