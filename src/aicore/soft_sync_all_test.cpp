// The software SyncAll(gmWorkspace, ubWorkspace[, usedCores]) (ascsim/aicore/soft_sync_all.h):
// blocks exchange data through GM across it, repeatedly; the flags end as the device leaves them
// (each block's counter, one 32-byte block apart, equal to the number of SyncAlls); and every
// error with its message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"

namespace {

using ::testing::HasSubstr;

using ascsim_test::FaultOf;

// Block b writes b+1 to data[b]; after SyncAll every block sums all of data into out[b]; twice.
void RunExchange(uint32_t blocks, int32_t used_cores) {
  ascsim_test::DeviceBuffer sync(blocks * 32), data(blocks * 4 * 8), out(blocks * 4 * 8);
  std::vector<int32_t> zeros(blocks * 8, 0);
  std::memcpy(sync.as<int32_t>(), zeros.data(), blocks * 32);
  int32_t* d = data.as<int32_t>();
  int32_t* o = out.as<int32_t>();
  int32_t* s = sync.as<int32_t>();
  ascsim::Launch("soft_sync", blocks, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> work;
    pipe.InitBuffer(work, AscendC::GetBlockNum() * 32);
    AscendC::GlobalTensor<int32_t> syncGm, dataGm, outGm;
    syncGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(s), blocks * 8);
    dataGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(d), blocks * 8);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(o), blocks * 8);
    const int64_t me = AscendC::GetBlockIdx();
    for (int round = 1; round <= 2; ++round) {
      dataGm.SetValue(me * 8, static_cast<int32_t>((me + 1) * round));
      AscendC::LocalTensor<int32_t> ub = work.Get<int32_t>();
      if (used_cores == 0) {
        AscendC::SyncAll(syncGm, ub);
      } else {
        AscendC::SyncAll(syncGm, ub, used_cores);
      }
      int32_t sum = 0;
      for (uint32_t b = 0; b < blocks; ++b) sum += dataGm.GetValue(b * 8);
      outGm.SetValue(me * 8 + round - 1, sum);
      AscendC::SyncAll(syncGm, ub);  // nobody rewrites data before everyone has read it
    }
  });
  const int32_t base = static_cast<int32_t>(blocks * (blocks + 1) / 2);
  for (uint32_t b = 0; b < blocks; ++b) {
    EXPECT_EQ(o[b * 8], base) << b;
    EXPECT_EQ(o[b * 8 + 1], 2 * base) << b;
    EXPECT_EQ(s[b * 8], 4) << b;  // four SyncAlls: each block's flag counts them
  }
}

TEST(SoftSyncAll, BlocksSeeEachOthersDataAcrossRepeatedSyncAlls) {
  RunExchange(4, 0);
  RunExchange(3, 3);
  RunExchange(7, 0);
}

TEST(SoftSyncAll, Errors) {
  ascsim_test::DeviceBuffer sync(4 * 32);
  std::memset(sync.as<int32_t>(), 0, 4 * 32);
  int32_t* s = sync.as<int32_t>();
  auto body = [&](uint32_t gm_ints, uint32_t ub_bytes, int32_t used) {
    return [=] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> work;
      pipe.InitBuffer(work, ub_bytes);
      AscendC::GlobalTensor<int32_t> syncGm;
      syncGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(s), gm_ints);
      AscendC::SyncAll(syncGm, work.Get<int32_t>(), used);
    };
  };
  EXPECT_THAT(FaultOf("sync_small_gm", 4, body(16, 128, 0)),
              HasSubstr("SyncAll: gmWorkspace holds 16 int32_t; the flags of 4 blocks need 32"));
  EXPECT_THAT(FaultOf("sync_small_ub", 4, body(32, 64, 0)),
              HasSubstr("SyncAll: ubWorkspace holds 16 int32_t; the flags of 4 blocks need 32"));
  EXPECT_THAT(FaultOf("sync_used", 4, body(32, 128, 5)),
              HasSubstr("usedCores 5): usedCores must be in [0, 4]"));
  EXPECT_THAT(FaultOf("sync_subset", 4, body(32, 128, 2)),
              HasSubstr("synchronising a subset of the blocks is not simulated"));
  // A workspace that was not zeroed: the flags never reach the sum the device waits for.
  for (int i = 0; i < 32; ++i) s[i] = 0;
  s[8] = -5;
  EXPECT_THAT(FaultOf("sync_dirty", 4, body(32, 128, 0)),
              HasSubstr("the device would spin forever (gmWorkspace must be zero"));
}

}  // namespace
