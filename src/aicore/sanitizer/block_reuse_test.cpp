// Block reuse (core_sanitizer.h): a block whose calls match the launch's clean reference block
// skips the checks; wherever a block differs (late, in its length, in data-dependent addresses),
// its report is exactly the one a full check gives. Each kernel runs twice, with reuse off (every
// block checked) and on, and the two outcomes must be identical; the reuse counters show which
// path the blocks took, so a test cannot pass by never reusing.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aicore/sanitizer/launch_sanitizer.h"
#include "aicore_test_util.h"
#include "ascsim/runtime.h"
#include "kernel_launchers.h"
#include "kernel_operator.h"

namespace {

using ascsim::aicore::BlockReuseStats;
using ascsim::aicore::GetBlockReuseStats;
using ascsim_test::DeviceBuffer;

constexpr uint32_t kAll = ascsim::kSanitizeAll;
constexpr uint32_t kRaceInit = ascsim::kSanitizeRace | ascsim::kSanitizeInit;
constexpr uint32_t N = 64;         // floats per tile: 256 B
constexpr uint32_t kMaxTiles = 4;  // GM per block: kMaxTiles tiles

struct Both {
  ascsim_test::SanitizedRun off, on;
  uint64_t recorded = 0, followed = 0, diverged = 0;  // during the run with reuse on
};

// The kernel with every block checked, then with block reuse (serial: blocks run in order, so
// block 0 is the reference; `parallel` runs the reuse pass on the worker pool instead).
Both RunBoth(const char* kernel, uint32_t blocks, uint32_t flags, const std::function<void()>& body,
             bool parallel = false) {
  Both out;
  ascsim::aicore::SetBlockReuse(false);
  out.off = ascsim_test::LaunchSanitized(kernel, blocks, flags, body, false, /*serial=*/true);
  ascsim::aicore::SetBlockReuse(true);
  const BlockReuseStats before = GetBlockReuseStats();
  out.on = ascsim_test::LaunchSanitized(kernel, blocks, flags, body, false, !parallel);
  const BlockReuseStats after = GetBlockReuseStats();
  out.recorded = after.recorded - before.recorded;
  out.followed = after.followed - before.followed;
  out.diverged = after.diverged - before.diverged;
  return out;
}

void ExpectSame(const Both& r) {
  EXPECT_EQ(r.on.message, r.off.message);
  EXPECT_EQ(r.on.kind, r.off.kind);
  EXPECT_EQ(r.on.warnings, r.off.warnings);
}

// ---- a TBuf kernel with explicit flags, tile after tile ----

enum class Bug { kNone, kMissingSync, kUninit, kUnwaitedFlag, kExtraTile, kGmReadBack };

// z = x + 1 over `tiles` tiles of N floats per block, through two TBufs ordered by SetFlag /
// WaitFlag (MTE2_V in, V_MTE3 out, V_MTE2 / MTE3_V from one tile to the next, and a last
// MTE3_V pair on EVENT_ID1). The block `badBlock` has `bug` in its last tile: the MTE2_V pair
// left out, the add reading a TBuf nothing wrote, the last WaitFlag left out (a block one call
// shorter than the others), one tile more than the others, or a copy of the tile just written
// to GM back into UB with no MTE3_MTE2 flag (a GM race inside the block).
// clang-format off
class KernelTileAdds {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t tiles, int32_t badBlock, Bug bug)
    {
        const bool bad = static_cast<int32_t>(AscendC::GetBlockIdx()) == badBlock;
        this->tiles = tiles + (bad && bug == Bug::kExtraTile ? 1 : 0);
        this->bug = bad ? bug : Bug::kNone;
        const uint32_t offset = AscendC::GetBlockIdx() * kMaxTiles * N;
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, kMaxTiles * N);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, kMaxTiles * N);
        pipe.InitBuffer(inBuf, N * sizeof(float));
        pipe.InitBuffer(outBuf, N * sizeof(float));
        pipe.InitBuffer(spareBuf, N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> inLocal = inBuf.Get<float>();
        AscendC::LocalTensor<float> outLocal = outBuf.Get<float>();
        AscendC::LocalTensor<float> spareLocal = spareBuf.Get<float>();
        for (uint32_t t = 0; t < tiles; ++t) {
            const bool last = t + 1 == tiles;
            if (t > 0) {
                AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
            }
            AscendC::DataCopy(inLocal, xGm[t * N], N);
            if (!(last && bug == Bug::kMissingSync)) {
                AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
                AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            }
            if (t > 0) {
                AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
            }
            AscendC::Adds(outLocal, last && bug == Bug::kUninit ? spareLocal : inLocal, 1.0f, N);
            if (!last) {
                AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
            }
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::DataCopy(zGm[t * N], outLocal, N);
            if (last && bug == Bug::kGmReadBack) {
                AscendC::DataCopy(spareLocal, zGm[t * N], N);
            }
            if (!last) {
                AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
            }
            if (last) {
                AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID1);
                if (bug != Bug::kUnwaitedFlag) {
                    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID1);
                }
            }
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf, outBuf, spareBuf;
    AscendC::GlobalTensor<float> xGm, zGm;
    uint32_t tiles = 1;
    Bug bug = Bug::kNone;
};
// clang-format on

struct TileRun {
  uint32_t blocks = 4;
  uint32_t tiles = 3;
  int32_t bad_block = -1;
  Bug bug = Bug::kNone;
  uint32_t flags = kRaceInit;
  bool parallel = false;
};

Both RunTiles(const TileRun& run) {
  DeviceBuffer x(run.blocks * kMaxTiles * N * 4), z(run.blocks * kMaxTiles * N * 4);
  return RunBoth(
      "tile_adds", run.blocks, run.flags,
      [&] {
        KernelTileAdds op;
        op.Init(x.gm(), z.gm(), run.tiles, run.bad_block, run.bug);
        op.Process();
      },
      run.parallel);
}

TEST(SanitizerBlockReuse, CleanBlocksFollowTheFirstAndReportNothing) {
  for (uint32_t flags : {kRaceInit, kAll}) {
    TileRun run;
    run.flags = flags;
    const Both r = RunTiles(run);
    ExpectSame(r);
    EXPECT_EQ(r.on.message, "");
    EXPECT_EQ(r.recorded, 1u);
    EXPECT_EQ(r.followed, 3u);
    EXPECT_EQ(r.diverged, 0u);
  }
}

TEST(SanitizerBlockReuse, LateMissingSyncInALaterBlockIsReportedAsByAFullCheck) {
  for (bool parallel : {false, true}) {
    TileRun run;
    run.bad_block = 2;
    run.bug = Bug::kMissingSync;
    run.parallel = parallel;
    const Both r = RunTiles(run);
    ExpectSame(r);
    EXPECT_NE(r.on.message.find("tile_adds: block 2/4: race: V Adds (call "), std::string::npos)
        << r.on.message;
    EXPECT_NE(r.on.message.find("which MTE2 DataCopy GM->UB (call "), std::string::npos)
        << r.on.message;
    EXPECT_EQ(r.on.kind, ascsim::ErrorKind::kRace);
    if (!parallel) {
      EXPECT_EQ(r.recorded, 1u);
      EXPECT_EQ(r.diverged, 1u);  // block 2; blocks 1 and 3 follow (3 runs after the fault or not)
      EXPECT_GE(r.followed, 1u);
    }
  }
}

TEST(SanitizerBlockReuse, LateUninitializedReadInALaterBlockIsReportedAsByAFullCheck) {
  TileRun run;
  run.bad_block = 3;
  run.bug = Bug::kUninit;
  const Both r = RunTiles(run);
  ExpectSame(r);
  EXPECT_NE(r.on.message.find("tile_adds: block 3/4: uninitialized read: MTE3 DataCopy UB->GM"),
            std::string::npos)
      << r.on.message;
  EXPECT_EQ(r.on.kind, ascsim::ErrorKind::kUninitializedRead);
  EXPECT_EQ(r.recorded, 1u);
  EXPECT_EQ(r.followed, 2u);
  EXPECT_EQ(r.diverged, 1u);
}

// Only block 2 reads back GM it has just written: its GM calls differ from the reference's, and
// the GM check that a full check runs on them finds the race.
TEST(SanitizerBlockReuse, AGmRaceInsideALaterBlockIsReportedAsByAFullCheck) {
  TileRun run;
  run.bad_block = 2;
  run.bug = Bug::kGmReadBack;
  const Both r = RunTiles(run);
  ExpectSame(r);
  EXPECT_NE(r.on.message.find("tile_adds: block 2/4: race: MTE2 DataCopy GM->UB (call "),
            std::string::npos)
      << r.on.message;
  EXPECT_NE(r.on.message.find("GM bytes ["), std::string::npos) << r.on.message;
  EXPECT_NE(r.on.message.find("which MTE3 DataCopy UB->GM (call "), std::string::npos)
      << r.on.message;
  EXPECT_EQ(r.recorded, 1u);
  EXPECT_EQ(r.diverged, 1u);
}

// The block ends one call before the reference does: its end-of-block checks run on the state
// its own calls reached.
TEST(SanitizerBlockReuse, AShorterBlockWithAFlagLeftSetIsReportedAsByAFullCheck) {
  TileRun run;
  run.bad_block = 1;
  run.bug = Bug::kUnwaitedFlag;
  run.flags = kAll;
  const Both r = RunTiles(run);
  ExpectSame(r);
  EXPECT_NE(r.on.message.find("tile_adds: block 1/4: SetFlag<MTE3_V>(EVENT_ID1) (call "),
            std::string::npos)
      << r.on.message;
  EXPECT_NE(r.on.message.find("was never waited for by the end of the kernel"), std::string::npos)
      << r.on.message;
  EXPECT_EQ(r.recorded, 1u);
  EXPECT_EQ(r.diverged, 1u);
}

TEST(SanitizerBlockReuse, LongerAndShorterBlocksAreCheckedFromWhereTheyDiffer) {
  // A block one tile longer than the reference: clean, checked from its extra tile on.
  TileRun longer;
  longer.bad_block = 2;
  longer.bug = Bug::kExtraTile;
  Both r = RunTiles(longer);
  ExpectSame(r);
  EXPECT_EQ(r.on.message, "");
  EXPECT_EQ(r.followed, 2u);
  EXPECT_EQ(r.diverged, 1u);
  // The reference longer than the others (block 0 has the extra tile): each later block ends
  // before the reference does, and its end-of-block checks run on the state it reached.
  TileRun shorter;
  shorter.bad_block = 0;
  shorter.bug = Bug::kExtraTile;
  shorter.flags = kAll;
  r = RunTiles(shorter);
  ExpectSame(r);
  EXPECT_EQ(r.on.message, "");
  EXPECT_EQ(r.followed, 0u);
  EXPECT_EQ(r.diverged, 3u);
}

TEST(SanitizerBlockReuse, AReferenceWithAWarningIsNotReused) {
  // PIPE_ALL after the last copy orders nothing later: every block warns (sync), so no block is
  // clean enough to stand for the others.
  DeviceBuffer x(4 * kMaxTiles * N * 4), z(4 * kMaxTiles * N * 4);
  const Both r = RunBoth("tile_adds_barrier", 4, kAll, [&] {
    KernelTileAdds op;
    op.Init(x.gm(), z.gm(), 2, -1, Bug::kNone);
    op.Process();
    AscendC::PipeBarrier<PIPE_ALL>();
  });
  ExpectSame(r);
  EXPECT_EQ(r.on.message, "");
  ASSERT_EQ(r.on.warnings.size(), 1u);
  EXPECT_NE(r.on.warnings[0].find("PipeBarrier<PIPE_ALL> (call "), std::string::npos)
      << r.on.warnings[0];
  EXPECT_NE(r.on.warnings[0].find("(x4)"), std::string::npos) << r.on.warnings[0];
  EXPECT_EQ(r.recorded, 0u);
  EXPECT_EQ(r.followed, 0u);
}

// ---- the seed's queue kernel shape, with a buffer a later block forgets to free ----

// z = x + y through VECIN / VECOUT queues of two buffers, `tiles` tiles per block; block
// `leakBlock` does not free its x buffer from tile `leakFrom` on, so two tiles later AllocTensor
// finds both buffers in use.
// clang-format off
class KernelQueueAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t tiles, int32_t leakBlock,
                                uint32_t leakFrom)
    {
        const uint32_t offset = AscendC::GetBlockIdx() * kMaxTiles * N;
        this->tiles = tiles;
        const bool leaks = static_cast<int32_t>(AscendC::GetBlockIdx()) == leakBlock;
        this->leakFrom = leaks ? leakFrom : tiles;
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, kMaxTiles * N);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, kMaxTiles * N);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, kMaxTiles * N);
        pipe.InitBuffer(inQueueX, 2, N * sizeof(float));
        pipe.InitBuffer(inQueueY, 2, N * sizeof(float));
        pipe.InitBuffer(outQueueZ, 2, N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < tiles; ++t) {
            AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
            AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
            AscendC::DataCopy(xLocal, xGm[t * N], N);
            AscendC::DataCopy(yLocal, yGm[t * N], N);
            inQueueX.EnQue(xLocal);
            inQueueY.EnQue(yLocal);
            xLocal = inQueueX.DeQue<float>();
            yLocal = inQueueY.DeQue<float>();
            AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
            AscendC::Add(zLocal, xLocal, yLocal, N);
            outQueueZ.EnQue<float>(zLocal);
            if (t < leakFrom) {
                inQueueX.FreeTensor(xLocal);
            }
            inQueueY.FreeTensor(yLocal);
            zLocal = outQueueZ.DeQue<float>();
            AscendC::DataCopy(zGm[t * N], zLocal, N);
            outQueueZ.FreeTensor(zLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQueueZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    uint32_t tiles = 1;
    uint32_t leakFrom = 0;
};
// clang-format on

TEST(SanitizerBlockReuse, AQueueBufferALaterBlockNeverFreesIsReportedAsByAFullCheck) {
  constexpr uint32_t kBlocks = 4;
  DeviceBuffer x(kBlocks * kMaxTiles * N * 4), y(kBlocks * kMaxTiles * N * 4),
      z(kBlocks * kMaxTiles * N * 4);
  auto body = [&](int32_t leak_block) {
    return [&, leak_block] {
      KernelQueueAdd op;
      op.Init(x.gm(), y.gm(), z.gm(), kMaxTiles, leak_block, 1);
      op.Process();
    };
  };
  const Both clean = RunBoth("queue_add", kBlocks, kAll, body(-1));
  ExpectSame(clean);
  EXPECT_EQ(clean.on.message, "");
  EXPECT_EQ(clean.followed, kBlocks - 1);
  const Both r = RunBoth("queue_add", kBlocks, kAll, body(2));
  ExpectSame(r);
  EXPECT_NE(r.on.message.find("queue_add: block 2/4: "), std::string::npos) << r.on.message;
  EXPECT_NE(r.on.message.find("AllocTensor"), std::string::npos) << r.on.message;
  EXPECT_EQ(r.diverged, 1u);
}

// ---- local addresses that depend on data ----

// Each block reads `shift` (elements) from its own GM word, copies a tile into UB at that
// offset, adds 1 over the whole tile and copies it out: with shift 0 everything is written, with
// another shift the first elements were never written. The DataCopy's UB address, and so the
// sequence of the block's calls, depends on data.
// clang-format off
class KernelShiftedCopy {
public:
    __aicore__ inline void Init(GM_ADDR shift, GM_ADDR x, GM_ADDR z)
    {
        const uint32_t block = AscendC::GetBlockIdx();
        shiftGm.SetGlobalBuffer((__gm__ int32_t *)shift + block * 8, 8);
        xGm.SetGlobalBuffer((__gm__ float *)x + block * N, N);
        zGm.SetGlobalBuffer((__gm__ float *)z + block * N, N);
        pipe.InitBuffer(inBuf, 2 * N * sizeof(float));
        pipe.InitBuffer(outBuf, N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        const int32_t shift = shiftGm.GetValue(0);
        AscendC::LocalTensor<float> inLocal = inBuf.Get<float>();
        AscendC::LocalTensor<float> outLocal = outBuf.Get<float>();
        AscendC::DataCopy(inLocal[shift], xGm, N);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::Adds(outLocal, inLocal, 1.0f, N);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(zGm, outLocal, N);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf, outBuf;
    AscendC::GlobalTensor<int32_t> shiftGm;
    AscendC::GlobalTensor<float> xGm, zGm;
};
// clang-format on

// The scalar form: each block copies N floats into the first half of a 2N-float TBuf, then
// sums the elements at `picks` indices it reads from GM with GetValue: an index into the second
// half reads a UB element nothing wrote (a scalar read decides a value: reported at once).
// clang-format off
class KernelScalarPick {
public:
    __aicore__ inline void Init(GM_ADDR index, GM_ADDR x, GM_ADDR z)
    {
        const uint32_t block = AscendC::GetBlockIdx();
        indexGm.SetGlobalBuffer((__gm__ int32_t *)index + block * 8, 8);
        xGm.SetGlobalBuffer((__gm__ float *)x + block * N, N);
        zGm.SetGlobalBuffer((__gm__ float *)z + block * 8, 8);
        pipe.InitBuffer(srcBuf, 2 * N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> srcLocal = srcBuf.Get<float>();
        AscendC::DataCopy(srcLocal, xGm, N);
        float sum = 0;
        for (int32_t i = 0; i < 4; ++i) {
            sum += srcLocal.GetValue(indexGm.GetValue(i));
        }
        zGm.SetValue(0, sum);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> srcBuf;
    AscendC::GlobalTensor<int32_t> indexGm;
    AscendC::GlobalTensor<float> xGm, zGm;
};
// clang-format on

TEST(SanitizerBlockReuse, DataDependentUbAddressesAreComparedAsTheChecksSeeThem) {
  constexpr uint32_t kBlocks = 4;
  DeviceBuffer shift(kBlocks * 32), x(kBlocks * N * 4), z(kBlocks * N * 4);
  auto run = [&](std::vector<int32_t> shifts) {
    for (uint32_t b = 0; b < kBlocks; ++b) shift.as<int32_t>()[b * 8] = shifts[b];
    return RunBoth("shifted_copy", kBlocks, kRaceInit, [&] {
      KernelShiftedCopy op;
      op.Init(shift.gm(), x.gm(), z.gm());
      op.Process();
    });
  };
  // Block 1 copies 8 floats further in: its first 8 elements of the tile were never written.
  Both r = run({0, 8, 0, 0});
  ExpectSame(r);
  EXPECT_NE(r.on.message.find("shifted_copy: block 1/4: uninitialized read: MTE3 DataCopy UB->GM"),
            std::string::npos)
      << r.on.message;
  EXPECT_EQ(r.diverged, 1u);
  // Every block shifted the same way as the reference: all clean, all followed.
  r = run({0, 0, 0, 0});
  ExpectSame(r);
  EXPECT_EQ(r.on.message, "");
  EXPECT_EQ(r.followed, kBlocks - 1);
}

TEST(SanitizerBlockReuse, ScalarIndicesFromDataAreComparedAsTheChecksSeeThem) {
  constexpr uint32_t kBlocks = 3;
  DeviceBuffer index(kBlocks * 32), x(kBlocks * N * 4), z(kBlocks * 32);
  // Blocks 0 and 1 pick the same written elements; block 2's last pick is in the unwritten half.
  const int32_t picks[kBlocks][4] = {{5, 0, 63, 17}, {5, 0, 63, 17}, {5, 0, 63, N + 2}};
  for (uint32_t b = 0; b < kBlocks; ++b) {
    for (uint32_t i = 0; i < 4; ++i) index.as<int32_t>()[b * 8 + i] = picks[b][i];
  }
  const Both r = RunBoth("scalar_pick", kBlocks, kRaceInit, [&] {
    KernelScalarPick op;
    op.Init(index.gm(), x.gm(), z.gm());
    op.Process();
  });
  ExpectSame(r);
  EXPECT_NE(r.on.message.find("scalar_pick: block 2/3: uninitialized read: S "), std::string::npos)
      << r.on.message;
  EXPECT_EQ(r.recorded, 1u);
  EXPECT_EQ(r.followed, 1u);
  EXPECT_EQ(r.diverged, 1u);
}

// Serial: on the pool, a block that starts before block 0 has finished is checked in full (a
// slow machine or ThreadSanitizer makes that common), so the counts would depend on timing.
TEST(SanitizerBlockReuse, SeedAddFollowsTheFirstBlock) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(kRaceInit);
  ascsim::SetSerial(true);
  ascsim::aicore::ForgetKeptReferences();
  DeviceBuffer x(8 * 2048 * 2), y(8 * 2048 * 2), z(8 * 2048 * 2);
  const BlockReuseStats before = GetBlockReuseStats();
  ascsim::kernels::LaunchAddCustom(ascsim::kernels::ElementType::kFloat16, x.gm(), y.gm(), z.gm(),
                                   8 * 2048, 8, nullptr);
  const BlockReuseStats after = GetBlockReuseStats();
  EXPECT_EQ(after.recorded - before.recorded, 1u);
  EXPECT_EQ(after.followed - before.followed, 7u);
  EXPECT_EQ(after.diverged - before.diverged, 0u);
}

// ---- across launches ----

struct Counts {
  uint64_t recorded = 0, followed = 0, diverged = 0;
};
Counts Since(const BlockReuseStats& before) {
  const BlockReuseStats after = GetBlockReuseStats();
  return {after.recorded - before.recorded, after.followed - before.followed,
          after.diverged - before.diverged};
}

// tile_adds launched as a kernel function is (with an identity: the runtime keeps its reference
// for the next launch), with the sanitizer's outcome.
ascsim_test::SanitizedRun LaunchTilesWithId(const TileRun& run, Counts* counts) {
  static const int kKernelId = 0;  // its address names the kernel
  // The same buffers every launch, so that reports name the same allocation.
  constexpr uint32_t kMaxBlocks = 4;
  static DeviceBuffer x(kMaxBlocks * kMaxTiles * N * 4), z(kMaxBlocks * kMaxTiles * N * 4);
  if (run.blocks > kMaxBlocks) ADD_FAILURE() << "LaunchTilesWithId: at most 4 blocks";
  const BlockReuseStats before = GetBlockReuseStats();
  const ascsim_test::SanitizedRun out = ascsim_test::LaunchSanitized(
      "tile_adds", run.blocks, run.flags,
      [&] {
        KernelTileAdds op;
        op.Init(x.gm(), z.gm(), run.tiles, run.bad_block, run.bug);
        op.Process();
      },
      false, !run.parallel, &kKernelId);
  *counts = Since(before);
  return out;
}

// Every block of a repeated launch follows the reference the first launch recorded, including
// the blocks that start at once on the pool (within one launch they would be checked in full).
TEST(SanitizerBlockReuse, ARepeatedLaunchFollowsTheReferenceOfAnEarlierOne) {
  ascsim::aicore::ForgetKeptReferences();
  TileRun run;
  Counts c;
  EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
  EXPECT_EQ(c.recorded, 1u);
  EXPECT_EQ(c.followed, 3u);
  EXPECT_EQ(ascsim::aicore::ReferencesKept(), 1u);
  run.parallel = true;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
    EXPECT_EQ(c.recorded, 0u);
    EXPECT_EQ(c.followed, 4u);
    EXPECT_EQ(c.diverged, 0u);
  }
  // Another sanitizer setting is another reference.
  run.flags = kAll;
  run.parallel = false;
  EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
  EXPECT_EQ(c.recorded, 1u);
  EXPECT_EQ(ascsim::aicore::ReferencesKept(), 2u);
  ascsim::aicore::ForgetKeptReferences();
}

// A later launch with other calls (more tiles) diverges from the kept reference in its first
// block, which is then checked from there; the next block records a new reference for the rest
// of the launch and for the launches after it.
TEST(SanitizerBlockReuse, ALaunchWithOtherCallsRecordsAfreshFromItsNextBlock) {
  ascsim::aicore::ForgetKeptReferences();
  TileRun run;
  Counts c;
  EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
  run.tiles = 4;
  EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
  EXPECT_EQ(c.diverged, 1u);
  EXPECT_EQ(c.recorded, 1u);
  EXPECT_EQ(c.followed, 2u);
  EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
  EXPECT_EQ(c.recorded, 0u);
  EXPECT_EQ(c.followed, 4u);
  ascsim::aicore::ForgetKeptReferences();
}

// A bug that appears only in a later launch (its argument differs) is reported exactly as a full
// check reports it, in every block position, serial and on the pool.
TEST(SanitizerBlockReuse, ABugOnlyALaterLaunchHasIsReportedAsByAFullCheck) {
  for (Bug bug : {Bug::kMissingSync, Bug::kUninit, Bug::kUnwaitedFlag, Bug::kGmReadBack}) {
    for (int32_t bad : {0, 2}) {
      for (bool parallel : {false, true}) {
        ascsim::aicore::ForgetKeptReferences();
        TileRun run;
        run.parallel = parallel;
        Counts c;
        EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
        run.bad_block = bad;
        run.bug = bug;
        const ascsim_test::SanitizedRun reused = LaunchTilesWithId(run, &c);
        EXPECT_GE(c.diverged, 1u);
        ascsim::aicore::SetBlockReuse(false);
        const ascsim_test::SanitizedRun full = LaunchTilesWithId(run, &c);
        ascsim::aicore::SetBlockReuse(true);
        EXPECT_EQ(c.followed, 0u);
        EXPECT_NE(full.message + (full.warnings.empty() ? "" : full.warnings[0]), "")
            << static_cast<int>(bug);
        EXPECT_EQ(reused.message, full.message) << static_cast<int>(bug) << " block " << bad;
        EXPECT_EQ(reused.kind, full.kind);
        EXPECT_EQ(reused.warnings, full.warnings);
      }
    }
  }
  ascsim::aicore::ForgetKeptReferences();
}

// Once a shared object has been unloaded, another kernel's string literals may sit where the
// kept reference's names were: the next launch records afresh.
TEST(SanitizerBlockReuse, AnUnloadedLibraryRetiresTheKeptReferences) {
  ascsim::aicore::ForgetKeptReferences();
  TileRun run;
  Counts c;
  EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
  EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
  EXPECT_EQ(c.followed, 4u);
  // A small glibc library the test binary does not link: loading and closing it unloads it.
  void* lib = dlopen("libresolv.so.2", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) GTEST_SKIP() << "libresolv.so.2 not found: " << dlerror();
  ASSERT_EQ(dlclose(lib), 0);
  EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
  EXPECT_EQ(c.recorded, 1u);
  EXPECT_EQ(c.followed, 3u);
  EXPECT_EQ(LaunchTilesWithId(run, &c).message, "");
  EXPECT_EQ(c.followed, 4u);
  ascsim::aicore::ForgetKeptReferences();
}

// A launch with no kernel identity (a bare body) keeps nothing for later launches.
TEST(SanitizerBlockReuse, ALaunchWithoutAKernelIdentityKeepsNothing) {
  ascsim::aicore::ForgetKeptReferences();
  TileRun run;
  const Both r = RunTiles(run);
  EXPECT_EQ(r.recorded, 1u);
  EXPECT_EQ(ascsim::aicore::ReferencesKept(), 0u);
}

// ---- blocks longer than the 2^16 calls a reference once held ----

// z = x + kSteps over one tile: after the copy in, kSteps Adds on the tile (two operand calls
// each: ~2 * kSteps sanitizer events per block, 144k here). The block `badBlock` has `bug` at
// step kBadStep (API call ~68k, event ~136k: past the old cap of 2^16 events either way): a
// copy into the input tile with no V_MTE2 flag
// after the Adds that read it and no MTE2_V before the Add that reads it (a race), or an Add
// from a TBuf nothing wrote, whose result goes out to GM (an uninitialized read at the copy out).
constexpr uint32_t kSteps = 72000;
constexpr uint32_t kBadStep = 68000;
// clang-format off
class KernelLongBlock {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, int32_t badBlock, Bug bug)
    {
        this->bug = static_cast<int32_t>(AscendC::GetBlockIdx()) == badBlock ? bug : Bug::kNone;
        xGm.SetGlobalBuffer((__gm__ float *)x + AscendC::GetBlockIdx() * N, N);
        zGm.SetGlobalBuffer((__gm__ float *)z + AscendC::GetBlockIdx() * N, N);
        pipe.InitBuffer(inBuf, N * sizeof(float));
        pipe.InitBuffer(outBuf, N * sizeof(float));
        pipe.InitBuffer(spareBuf, N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> inLocal = inBuf.Get<float>();
        AscendC::LocalTensor<float> outLocal = outBuf.Get<float>();
        AscendC::LocalTensor<float> spareLocal = spareBuf.Get<float>();
        AscendC::DataCopy(inLocal, xGm, N);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::Adds(outLocal, inLocal, 1.0f, N);
        for (uint32_t s = 1; s < kSteps; ++s) {
            if (s == kBadStep && bug == Bug::kMissingSync) {
                AscendC::DataCopy(inLocal, xGm, N);
                AscendC::Add(outLocal, outLocal, inLocal, N);
            } else if (s == kBadStep && bug == Bug::kUninit) {
                AscendC::Add(outLocal, outLocal, spareLocal, N);
            } else {
                AscendC::Adds(outLocal, outLocal, 1.0f, N);
            }
        }
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(zGm, outLocal, N);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf, outBuf, spareBuf;
    AscendC::GlobalTensor<float> xGm, zGm;
    Bug bug = Bug::kNone;
};
// clang-format on

constexpr uint32_t kLongBlocks = 4;

Both RunLong(int32_t bad_block, Bug bug, bool parallel) {
  DeviceBuffer x(kLongBlocks * N * 4), z(kLongBlocks * N * 4);
  return RunBoth(
      "long_block", kLongBlocks, kRaceInit,
      [&] {
        KernelLongBlock op;
        op.Init(x.gm(), z.gm(), bad_block, bug);
        op.Process();
      },
      parallel);
}

// More than 2^16 calls per block: the later blocks still follow the first (serial) instead of
// every block being checked in full.
TEST(SanitizerBlockReuse, BlocksLongerThanTheOldCapFollowTheFirst) {
  const Both r = RunLong(-1, Bug::kNone, false);
  ExpectSame(r);
  EXPECT_EQ(r.on.message, "");
  EXPECT_EQ(r.recorded, 1u);
  EXPECT_EQ(r.followed, kLongBlocks - 1);
  EXPECT_EQ(r.diverged, 0u);
}

// A bug late in a long block (after its 70000th call), in the reference's block or a later one,
// serial and on the pool, is reported exactly as a full check reports it.
TEST(SanitizerBlockReuse, ALateBugInALongBlockIsReportedAsByAFullCheck) {
  for (Bug bug : {Bug::kMissingSync, Bug::kUninit}) {
    for (int32_t bad : {0, 2}) {
      for (bool parallel : {false, true}) {
        const Both r = RunLong(bad, bug, parallel);
        const std::string where = "bug " + std::to_string(static_cast<int>(bug)) + " block " +
                                  std::to_string(bad) + (parallel ? " parallel" : " serial");
        ExpectSame(r);
        const std::string head = "long_block: block " + std::to_string(bad) + "/4: ";
        EXPECT_EQ(r.on.message.rfind(head, 0), 0u) << where << ": " << r.on.message;
        if (bug == Bug::kMissingSync) {
          EXPECT_EQ(r.on.kind, ascsim::ErrorKind::kRace) << where;
          EXPECT_NE(r.on.message.find("race: MTE2 DataCopy GM->UB (call "), std::string::npos)
              << where << ": " << r.on.message;
        } else {
          EXPECT_EQ(r.on.kind, ascsim::ErrorKind::kUninitializedRead) << where;
          EXPECT_NE(r.on.message.find("uninitialized read: MTE3 DataCopy UB->GM (call "),
                    std::string::npos)
              << where << ": " << r.on.message;
          EXPECT_NE(r.on.message.find("computed from bytes nothing wrote"), std::string::npos)
              << where << ": " << r.on.message;
        }
        // The call named is past the old cap of 2^16 calls.
        const size_t at = r.on.message.find("(call ");
        ASSERT_NE(at, std::string::npos) << where;
        EXPECT_GT(std::stoull(r.on.message.substr(at + 6)), 65536u) << where;
        if (!parallel && bad == 2) {
          EXPECT_EQ(r.recorded, 1u) << where;  // block 0
          EXPECT_EQ(r.diverged, 1u) << where;  // block 2, at its bug
          EXPECT_GE(r.followed, 1u) << where;  // block 1 (and 3 if it runs after the fault)
        }
        if (!parallel && bad == 0) {
          EXPECT_EQ(r.diverged, 0u) << where;  // block 0 faults while recording
        }
      }
    }
  }
}

// A long block's reference is kept across launches (a repeated launch follows it from its first
// block, on the pool too), and a late bug in a later launch is still reported as a full check
// reports it.
TEST(SanitizerBlockReuse, ALongReferenceIsKeptAcrossLaunches) {
  static const int kKernelId = 0;
  static DeviceBuffer x(kLongBlocks * N * 4), z(kLongBlocks * N * 4);
  auto launch = [&](int32_t bad, Bug bug, bool parallel, Counts* c) {
    const BlockReuseStats before = GetBlockReuseStats();
    const ascsim_test::SanitizedRun out = ascsim_test::LaunchSanitized(
        "long_block", kLongBlocks, kRaceInit,
        [&] {
          KernelLongBlock op;
          op.Init(x.gm(), z.gm(), bad, bug);
          op.Process();
        },
        false, !parallel, &kKernelId);
    *c = Since(before);
    return out;
  };
  ascsim::aicore::ForgetKeptReferences();
  Counts c;
  EXPECT_EQ(launch(-1, Bug::kNone, false, &c).message, "");
  EXPECT_EQ(c.recorded, 1u);
  EXPECT_EQ(ascsim::aicore::ReferencesKept(), 1u);
  // More than the 2^16 calls of 48 B the old cap allowed, within the byte budget.
  EXPECT_GT(ascsim::aicore::ReferenceBytesKept(), size_t{48} << 16);
  EXPECT_LE(ascsim::aicore::ReferenceBytesKept(), ascsim::aicore::kMaxReferenceBytes);
  EXPECT_EQ(launch(-1, Bug::kNone, true, &c).message, "");
  EXPECT_EQ(c.recorded, 0u);
  EXPECT_EQ(c.followed, kLongBlocks);
  for (bool parallel : {false, true}) {
    // A launch that faults after a block diverged drops the kept reference: keep it again.
    EXPECT_EQ(launch(-1, Bug::kNone, false, &c).message, "");
    const ascsim_test::SanitizedRun reused = launch(2, Bug::kMissingSync, parallel, &c);
    EXPECT_EQ(c.diverged, 1u);  // block 2; the blocks before it followed the kept reference
    EXPECT_GE(c.followed, 2u);
    ascsim::aicore::SetBlockReuse(false);
    const ascsim_test::SanitizedRun full = launch(2, Bug::kMissingSync, parallel, &c);
    ascsim::aicore::SetBlockReuse(true);
    EXPECT_NE(full.message, "");
    EXPECT_EQ(reused.message, full.message);
    EXPECT_EQ(reused.kind, full.kind);
    EXPECT_EQ(reused.warnings, full.warnings);
  }
  ascsim::aicore::ForgetKeptReferences();
}

}  // namespace
