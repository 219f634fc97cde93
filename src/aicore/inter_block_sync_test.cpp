// IBSet / IBWait (ascsim/aicore/soft_sync_all.h): blocks hand GM data to each other in a chain
// and back and forth, on the 310P and on Atlas A2; the flags and the UB copy end as the device
// leaves them; a wait that nobody can end is reported at once, naming kernel, block, blockIdx,
// eventID and the flag; every argument error with its message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"

namespace {

using ::testing::HasSubstr;
using ascsim_test::FaultOf;

class SocGuard : ascsim::ScopedSettings {
 public:
  explicit SocGuard(const char* name) { ascsim::SetSoc(name); }
};

// Each block, in block order, appends its index to a GM log (round 0, event 0), then in reverse
// order (round 1, event 1): block b waits for block b-1 (b+1), appends, and sets its own flag.
// The flags live at sync[blocks * 8 * event + block * 8].
void RunChain(const char* soc, uint32_t blocks) {
  SCOPED_TRACE(std::string(soc) + " x" + std::to_string(blocks));
  SocGuard guard(soc);
  const uint32_t flag_ints = blocks * 8 * 2;
  ascsim_test::DeviceBuffer sync(flag_ints * 4), log(64 * 4), last_ub(blocks * 8 * 4);
  std::memset(sync.as<int32_t>(), 0, flag_ints * 4);
  std::memset(log.as<int32_t>(), 0, 64 * 4);
  int32_t* s = sync.as<int32_t>();
  int32_t* l = log.as<int32_t>();
  int32_t* u = last_ub.as<int32_t>();
  ascsim::Launch("ib_chain", blocks, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> work;
    pipe.InitBuffer(work, 32);
    AscendC::GlobalTensor<int32_t> syncGm, logGm, ubGm;
    syncGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(s), flag_ints);
    logGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(l), 64);
    ubGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(u), blocks * 8);
    AscendC::LocalTensor<int32_t> ub = work.Get<int32_t>();
    const int32_t me = static_cast<int32_t>(AscendC::GetBlockIdx());
    const int32_t n = static_cast<int32_t>(AscendC::GetBlockNum());
    // Round 0: up the chain. logGm[0] counts the entries.
    if (me > 0) AscendC::IBWait(syncGm, ub, me - 1, 0);
    int32_t at = logGm.GetValue(0);
    logGm.SetValue(1 + at, me);
    logGm.SetValue(0, at + 1);
    if (me < n - 1) AscendC::IBSet(syncGm, ub, me, 0);
    // Round 1: down the chain.
    if (me < n - 1) AscendC::IBWait(syncGm, ub, me + 1, 1);
    at = logGm.GetValue(0);
    logGm.SetValue(1 + at, 100 + me);
    logGm.SetValue(0, at + 1);
    if (me > 0) AscendC::IBSet(syncGm, ub, me, 1);
    if (n > 1) {
      for (int i = 0; i < 8; ++i) ubGm.SetValue(me * 8 + i, ub.GetValue(i));
    }
  });
  ASSERT_EQ(l[0], static_cast<int32_t>(2 * blocks));
  for (uint32_t b = 0; b < blocks; ++b) {
    EXPECT_EQ(l[1 + b], static_cast<int32_t>(b)) << b;
    EXPECT_EQ(l[1 + blocks + b], static_cast<int32_t>(100 + blocks - 1 - b)) << b;
  }
  // Every set was waited for: the flags are 0 again. The last IB call of each block left the
  // flag value it wrote in ub[0] (block 0 last waited, the others last set).
  for (uint32_t i = 0; i < flag_ints; ++i) EXPECT_EQ(s[i], 0) << i;
  if (blocks > 1) {
    EXPECT_EQ(u[0], 0);
    for (uint32_t b = 1; b < blocks; ++b) EXPECT_EQ(u[b * 8], 1) << b;
  }
}

TEST(InterBlockSync, ChainsUpAndDown) {
  RunChain("Ascend310P3", 4);
  RunChain("Ascend310P3", 7);
  RunChain("Ascend910B1", 5);
  RunChain("Ascend910B1", 1);
}

// A producer and a consumer hand three values over with two flags (event 0: "written", event 1:
// "read"), each set and cleared three times; the consumer sees every value.
TEST(InterBlockSync, HandshakeReusesTheFlags) {
  SocGuard guard("Ascend310P3");
  ascsim_test::DeviceBuffer sync(4 * 8 * 4), data(8 * 4), seen(8 * 4);
  std::memset(sync.as<int32_t>(), 0, 4 * 8 * 4);
  int32_t* s = sync.as<int32_t>();
  int32_t* d = data.as<int32_t>();
  int32_t* o = seen.as<int32_t>();
  ascsim::Launch("ib_pingpong", 2, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> work;
    pipe.InitBuffer(work, 64);
    AscendC::GlobalTensor<int32_t> syncGm, dataGm, seenGm;
    syncGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(s), 32);
    dataGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(d), 8);
    seenGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(o), 8);
    AscendC::LocalTensor<int32_t> ub = work.Get<int32_t>();
    for (int32_t round = 0; round < 3; ++round) {
      if (AscendC::GetBlockIdx() == 0) {
        dataGm.SetValue(0, 10 + round);
        AscendC::IBSet(syncGm, ub, 0, 0);
        AscendC::IBWait(syncGm, ub, 1, 1);
      } else {
        AscendC::IBWait(syncGm, ub, 0, 0);
        seenGm.SetValue(round, dataGm.GetValue(0));
        AscendC::IBSet(syncGm, ub, 1, 1);
      }
    }
  });
  EXPECT_EQ(o[0], 10);
  EXPECT_EQ(o[1], 11);
  EXPECT_EQ(o[2], 12);
  EXPECT_EQ(s[0], 0);
  EXPECT_EQ(s[24], 0);  // blockNum 2 * 8 * eventID 1 + blockIdx 1 * 8
}

// Runs `body` on `blocks` blocks of the 310P with a zeroed flag area of `gm_ints` and a UB copy
// of `ub_ints`, and returns the launch's error.
std::string IbFault(const char* kernel, uint32_t blocks, uint32_t gm_ints, uint32_t ub_ints,
                    const std::function<void(const AscendC::GlobalTensor<int32_t>&,
                                             const AscendC::LocalTensor<int32_t>&)>& body) {
  SocGuard guard("Ascend310P3");
  ascsim_test::DeviceBuffer sync(4096);
  std::memset(sync.as<int32_t>(), 0, 4096);
  int32_t* s = sync.as<int32_t>();
  return FaultOf(kernel, blocks, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> work;
    pipe.InitBuffer(work, 256);
    AscendC::GlobalTensor<int32_t> syncGm;
    syncGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(s), gm_ints);
    body(syncGm, work.GetWithOffset<int32_t>(ub_ints, 0));
  });
}

TEST(InterBlockSync, AWaitNobodyCanEndIsAHang) {
  // Block 1 waits for block 0's flag of event 1, which block 0 never sets.
  EXPECT_EQ(IbFault("ib_hang", 2, 64, 8,
                    [](auto& gm, auto& ub) {
                      if (AscendC::GetBlockIdx() == 1) AscendC::IBWait(gm, ub, 0, 1);
                    }),
            "ib_hang: block 1/2: IBWait(gmWorkspace, ubWorkspace, blockIdx 0, eventID 1) on "
            "block 1: the flag at gmWorkspace[16] is 0 and no block of the launch can set it any "
            "more (an IBSet of it would) - every other block has finished or waits too; the "
            "device would spin until the AI-core timeout");
  // Two IBSets of one flag with no IBWait: the second can never see it cleared.
  EXPECT_THAT(IbFault("ib_double_set", 3, 64, 8,
                      [](auto& gm, auto& ub) {
                        if (AscendC::GetBlockIdx() == 2) {
                          AscendC::IBSet(gm, ub, 2, 0);
                          AscendC::IBSet(gm, ub, 2, 0);
                        }
                      }),
              HasSubstr("ib_double_set: block 2/3: IBSet(gmWorkspace, ubWorkspace, blockIdx 2, "
                        "eventID 0) on block 2: the flag at gmWorkspace[16] is 1 and no block of "
                        "the launch can clear it any more (an IBWait of it would)"));
  // Two blocks waiting for each other.
  EXPECT_THAT(IbFault("ib_cycle", 2, 64, 8,
                      [](auto& gm, auto& ub) {
                        const int32_t me = static_cast<int32_t>(AscendC::GetBlockIdx());
                        AscendC::IBWait(gm, ub, 1 - me, 0);
                        AscendC::IBSet(gm, ub, me, 0);
                      }),
              HasSubstr("ib_cycle: block 0/2: IBWait(gmWorkspace, ubWorkspace, blockIdx 1, "
                        "eventID 0) on block 0: the flag at gmWorkspace[8] is 0"));
  // A block that faults while another waits for it: its fault is the launch's error.
  EXPECT_THAT(IbFault("ib_fault", 2, 64, 8,
                      [](auto& gm, auto& ub) {
                        if (AscendC::GetBlockIdx() == 1) {
                          AscendC::IBWait(gm, ub, 0, 0);
                        } else {
                          gm.GetValue(2000);  // out of its device allocation
                        }
                      }),
              HasSubstr("ib_fault: block 0/2: GlobalTensor::GetValue"));
}

// The cross-block race check orders GM accesses by IBSet / IBWait as well as by SyncAll: the
// chain and the handshake above (a read of what the previous block wrote, transitively up to six
// blocks back; a write after the other block's read, ordered through the flag it set after
// reading) run with the check on and report nothing. An access that no chain orders is a race.
// Block 0 writes data[0] and sets its flag; block `reader` reads data[0] after waiting for block
// `waited_for`'s flag (or before any wait when `read_first`). Every block sets its own flag once.
std::string IbRace(uint32_t blocks, uint32_t reader, int32_t waited_for, bool read_first,
                   bool serial) {
  SocGuard guard("Ascend310P3");
  ascsim::Settings settings = ascsim::GetSettings();
  settings.serial = serial;
  ascsim::SetSettings(settings);
  ascsim_test::DeviceBuffer sync(blocks * 8 * 4), data(8 * 4), seen(8 * 4);
  std::memset(sync.as<int32_t>(), 0, blocks * 8 * 4);
  int32_t* s = sync.as<int32_t>();
  int32_t* d = data.as<int32_t>();
  int32_t* o = seen.as<int32_t>();
  return FaultOf("ib_race", blocks, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> work;
    pipe.InitBuffer(work, 64);
    AscendC::GlobalTensor<int32_t> syncGm, dataGm, seenGm;
    syncGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(s), blocks * 8);
    dataGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(d), 8);
    seenGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(o), 8);
    AscendC::LocalTensor<int32_t> ub = work.Get<int32_t>();
    const uint32_t me = AscendC::GetBlockIdx();
    if (me == 0) dataGm.SetValue(0, 42);
    if (me == reader) {
      if (read_first) seenGm.SetValue(0, dataGm.GetValue(0));
      AscendC::IBWait(syncGm, ub, waited_for, 0);
      if (!read_first) seenGm.SetValue(0, dataGm.GetValue(0));
    }
    AscendC::IBSet(syncGm, ub, static_cast<int32_t>(me), 0);
  });
}

TEST(InterBlockSync, AnAccessNoFlagOrdersIsARace) {
  for (bool serial : {false, true}) {
    SCOPED_TRACE(serial ? "serial" : "parallel");
    // Waiting for the writer's flag orders the read.
    EXPECT_EQ(IbRace(2, 1, 0, false, serial), "");
    // Reading before the wait is a race.
    const std::string early = IbRace(2, 1, 0, true, serial);
    EXPECT_THAT(early, HasSubstr("ib_race: block 1/2: race: S GlobalTensor::GetValue"));
    EXPECT_THAT(early, HasSubstr("which block 0 wrote with S GlobalTensor::SetValue"));
    EXPECT_THAT(early, HasSubstr("with no SyncAll between them and no IBSet / IBWait chain from "
                                 "one to the other"));
    // Waiting for another block's flag orders nothing against block 0.
    const std::string wrong = IbRace(3, 1, 2, false, serial);
    EXPECT_THAT(wrong, HasSubstr("ib_race: block 1/3: race: S GlobalTensor::GetValue"));
    EXPECT_THAT(wrong, HasSubstr("which block 0 wrote"));
    EXPECT_THAT(wrong, HasSubstr("what would order them: block 0 setting, after its access, a "
                                 "flag that block 1 waits for before its access"));
  }
}

TEST(InterBlockSync, ArgumentErrors) {
  auto call = [](bool set, int32_t idx, int32_t event) {
    return [=](auto& gm, auto& ub) {
      if (set) {
        AscendC::IBSet(gm, ub, idx, event);
      } else {
        AscendC::IBWait(gm, ub, idx, event);
      }
    };
  };
  EXPECT_EQ(IbFault("ib_idx", 2, 64, 8, call(true, 2, 0)),
            "ib_idx: block 0/2: IBSet(blockIdx 2, eventID 0): blockIdx must be in [0, 2) (the "
            "launch's blockDim)");
  EXPECT_EQ(IbFault("ib_event", 2, 64, 8, call(false, 1, -1)),
            "ib_event: block 0/2: IBWait(blockIdx 1, eventID -1): eventID must not be negative");
  EXPECT_EQ(IbFault("ib_gm", 2, 40, 8, call(false, 1, 2)),
            "ib_gm: block 0/2: IBWait(blockIdx 1, eventID 2): its flag block is "
            "gmWorkspace[40, 48) but gmWorkspace holds 40 int32_t (the docs ask for cores * 32 B * "
            "eventID_max + blockIdx_max * 32 B + 32 B)");
  EXPECT_EQ(IbFault("ib_ub", 2, 64, 4, call(true, 0, 0)),
            "ib_ub: block 0/2: IBSet: ubWorkspace holds 4 int32_t; it needs 8 (32 B, one flag "
            "block)");
  // More blocks than the 310P's 8 cores cannot all be resident: the device would hang.
  EXPECT_THAT(IbFault("ib_wave", 9, 1024, 8, call(true, 0, 0)),
              HasSubstr("IBSet with blockDim 9 exceeds the 8 physical vector cores of "
                        "Ascend310P3"));
}

}  // namespace
