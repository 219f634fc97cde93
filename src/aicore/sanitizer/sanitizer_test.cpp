// The sanitizer (ASCSIM_SANITIZE=race,init,sync): for each check a kernel with the bug and its
// corrected twin, launched through ascsim::Launch like any kernel, with the exact one-line
// message the launch fails with.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aicore_test_util.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/runtime.h"
#include "faulty_kernels.h"
#include "kernel_launchers.h"
#include "kernel_operator.h"

namespace {

using ascsim::ErrorKind;
using ascsim_test::DeviceBuffer;

constexpr uint32_t kAll = ascsim::kSanitizeAll;
constexpr uint32_t kRaceInit = ascsim::kSanitizeRace | ascsim::kSanitizeInit;

using Outcome = ascsim_test::SanitizedRun;

Outcome RunKernel(const char *kernel, uint32_t blocks, uint32_t flags, std::function<void()> body,
                  bool serial = false) {
  return ascsim_test::LaunchSanitized(kernel, blocks, flags, std::move(body), false, serial);
}

std::string HexOf(const void *p) { return ascsim::aicore::Hex(reinterpret_cast<uintptr_t>(p)); }

constexpr uint32_t N = 64;  // floats per tile: 256 B

// ---- MTE2 -> V through a TBuf (an RMSNorm kernel's bug) ----

// x -> inBuf (MTE2), outBuf = inBuf + 1 (V), outBuf -> z (MTE3); `syncIn` writes the MTE2->V
// flag the TBuf needs (a TBuf has no queue to order it).
// clang-format off
class KernelTBufAdds {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, bool syncIn)
    {
        this->syncIn = syncIn;
        xGm.SetGlobalBuffer((__gm__ float *)x, N);
        zGm.SetGlobalBuffer((__gm__ float *)z, N);
        pipe.InitBuffer(inBuf, N * sizeof(float));
        pipe.InitBuffer(outBuf, N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> inLocal = inBuf.Get<float>();
        AscendC::LocalTensor<float> outLocal = outBuf.Get<float>();
        AscendC::DataCopy(inLocal, xGm, N);
        if (syncIn) {
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        }
        AscendC::Adds(outLocal, inLocal, 1.0f, N);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(zGm, outLocal, N);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf, outBuf;
    AscendC::GlobalTensor<float> xGm, zGm;
    bool syncIn = true;
};
// clang-format on

TEST(Sanitizer, Mte2ToVectorThroughTBufWithoutFlagIsARace) {
  DeviceBuffer x(N * 4), z(N * 4);
  auto run = [&](bool sync) {
    return RunKernel("tbuf_adds", 1, kAll, [&, sync] {
      KernelTBufAdds op;
      op.Init(x.gm(), z.gm(), sync);
      op.Process();
    });
  };
  const Outcome bad = run(false);
  // Calls: 1-2 InitBuffer, 3-4 TBuf::Get, 5 DataCopy, 6 Adds.
  EXPECT_EQ(bad.message,
            "tbuf_adds: block 0/1: race: V Adds (call 7) reads src UB [0x0, 0x100) of the VECCALC "
            "TBuf, which MTE2 DataCopy GM->UB (call 6) wrote, with no "
            "SetFlag/WaitFlag<HardEvent::MTE2_V> or queue (EnQue/DeQue) between them");
  EXPECT_EQ(bad.kind, ErrorKind::kRace);
  EXPECT_EQ(run(true).message, "");
}

// ---- The memory a message names comes from the one TPosition -> memory map ----

// x -> a C1 TBuf (MTE2), z = c1 + 1 (V): on the 310P, C1 is in the Unified Buffer (memory.cpp
// PositionMemory), so the race names UB offsets; a copy of the map kept in the sanitizer once
// called it L1.
// clang-format off
class KernelC1Adds {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, N);
        zGm.SetGlobalBuffer((__gm__ float *)z, N);
        pipe.InitBuffer(vecBuf, N * sizeof(float));
        pipe.InitBuffer(c1Buf, N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> c1Local = c1Buf.Get<float>();
        AscendC::LocalTensor<float> outLocal = vecBuf.Get<float>();
        AscendC::DataCopy(c1Local, xGm, N);
        AscendC::Adds(outLocal, c1Local, 1.0f, N);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(zGm, outLocal, N);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> vecBuf;
    AscendC::TBuf<AscendC::TPosition::C1> c1Buf;
    AscendC::GlobalTensor<float> xGm, zGm;
};
// clang-format on

TEST(Sanitizer, RaceOnA310PC1BufferNamesItsUnifiedBufferOffsets) {
  ascsim::ScopedSettings saved;
  ascsim::SetSoc("Ascend310P3");
  DeviceBuffer x(N * 4), z(N * 4);
  const Outcome bad = RunKernel("c1_adds", 1, kAll, [&] {
    KernelC1Adds op;
    op.Init(x.gm(), z.gm());
    op.Process();
  });
  // Calls: 1-2 InitBuffer, 3-4 TBuf::Get, 5 DataCopy, 6 Adds; the C1 TBuf follows the
  // VECCALC one in UB, at 0x100.
  EXPECT_EQ(bad.message,
            "c1_adds: block 0/1: race: V Adds (call 7) reads src UB [0x100, 0x200) of the C1 "
            "TBuf, which MTE2 DataCopy GM->UB (call 6) wrote, with no "
            "SetFlag/WaitFlag<HardEvent::MTE2_V> or queue (EnQue/DeQue) between them");
  EXPECT_EQ(bad.kind, ErrorKind::kRace);
}

// ---- V -> MTE3 ----

// clang-format off
class KernelDupOut {
public:
    __aicore__ inline void Init(GM_ADDR z, bool sync)
    {
        this->sync = sync;
        zGm.SetGlobalBuffer((__gm__ float *)z, N);
        pipe.InitBuffer(buf, N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> local = buf.Get<float>();
        AscendC::Duplicate(local, 2.0f, N);
        if (sync) {
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);
        }
        AscendC::DataCopy(zGm, local, N);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> zGm;
    bool sync = true;
};
// clang-format on

TEST(Sanitizer, VectorToMte3WithoutFlagIsARace) {
  DeviceBuffer z(N * 4);
  auto run = [&](bool sync) {
    return RunKernel("dup_out", 1, kAll, [&, sync] {
      KernelDupOut op;
      op.Init(z.gm(), sync);
      op.Process();
    });
  };
  EXPECT_EQ(run(false).message,
            "dup_out: block 0/1: race: MTE3 DataCopy UB->GM (call 5) reads src UB [0x0, 0x100) of "
            "the VECCALC TBuf, which V Duplicate (call 4) wrote, with no "
            "SetFlag/WaitFlag<HardEvent::V_MTE3> or queue (EnQue/DeQue) between them");
  const Outcome good = run(true);
  EXPECT_EQ(good.message, "");
  EXPECT_EQ(z.as<float>()[N - 1], 2.0f);
}

// ---- V -> S (ReduceSum then GetValue) and S -> V (SetValue then a vector read) ----

// sum = ReduceSum(x); y = x * (1 / sum) with the sum read by the scalar unit, and y[0] patched
// by a scalar SetValue before the vector pipe reads y again.
// clang-format off
class KernelScalarRoundTrip {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, bool syncVS, bool syncSV)
    {
        this->syncVS = syncVS;
        this->syncSV = syncSV;
        xGm.SetGlobalBuffer((__gm__ float *)x, N);
        yGm.SetGlobalBuffer((__gm__ float *)y, N);
        pipe.InitBuffer(inQueue, 1, N * sizeof(float));
        pipe.InitBuffer(outQueue, 1, N * sizeof(float));
        pipe.InitBuffer(sumBuf, 32);
        pipe.InitBuffer(workBuf, 32);
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm, N);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> sumLocal = sumBuf.Get<float>();
        AscendC::LocalTensor<float> workLocal = workBuf.Get<float>();
        AscendC::ReduceSum(sumLocal, xLocal, workLocal, N);
        if (syncVS) {
            AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        }
        float sum = sumLocal.GetValue(0);
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        AscendC::Muls(yLocal, xLocal, 1.0f / sum, N);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
        yLocal.SetValue(0, sum);
        if (syncSV) {
            AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
        }
        AscendC::Adds(yLocal, yLocal, 0.0f, N);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        AscendC::DataCopy(yGm, yLocal, N);
        outQueue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sumBuf, workBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    bool syncVS = true, syncSV = true;
};
// clang-format on

Outcome RunScalarRoundTrip(uint32_t flags, bool sync_vs, bool sync_sv, std::vector<float> *y_out) {
  DeviceBuffer x(N * 4), y(N * 4);
  for (uint32_t i = 0; i < N; ++i) x.as<float>()[i] = 1.0f;
  Outcome out = RunKernel("scalar_round_trip", 1, flags, [&] {
    KernelScalarRoundTrip op;
    op.Init(x.gm(), y.gm(), sync_vs, sync_sv);
    op.Process();
  });
  if (y_out) y_out->assign(y.as<float>(), y.as<float>() + N);
  return out;
}

TEST(Sanitizer, VectorToScalarWithoutFlagIsARaceWhenSyncsMustBeWritten) {
  // Calls: 1-4 InitBuffer, 5 AllocTensor, 6 DataCopy, 7 EnQue, 8 DeQue, 9-10 Get, 11 ReduceSum,
  // 12 GetValue.
  EXPECT_EQ(RunScalarRoundTrip(kAll, false, true, nullptr).message,
            "scalar_round_trip: block 0/1: race: S LocalTensor::GetValue (call 14) reads UB "
            "[0x200, 0x204) of the VECCALC TBuf, which V ReduceSum (call 12) wrote, with no "
            "SetFlag/WaitFlag<HardEvent::V_S> between them (the kernel was built without "
            "--cce-auto-sync; bisheng's "
            "--cce-auto-sync would "
            "insert it)");
  std::vector<float> y;
  EXPECT_EQ(RunScalarRoundTrip(kAll, true, true, &y).message, "");
  EXPECT_EQ(y[0], 64.0f);
  EXPECT_EQ(y[1], 1.0f / 64.0f);
}

TEST(Sanitizer, ScalarToVectorWithoutFlagIsARaceWhenSyncsMustBeWritten) {
  // ... 11 ReduceSum, 12-13 flags, 14 GetValue, 15 AllocTensor, 16 Muls, 17-18 flags,
  // 19 SetValue, 20 Adds (its dst is the first operand it checks).
  EXPECT_EQ(RunScalarRoundTrip(kAll, true, false, nullptr).message,
            "scalar_round_trip: block 0/1: race: V Adds (call 23) writes dst UB [0x100, 0x104) of "
            "buffer 0 of VECOUT queue, which S LocalTensor::SetValue (call 22) wrote, with no "
            "SetFlag/WaitFlag<HardEvent::S_V> between them (the kernel was built without "
            "--cce-auto-sync; bisheng's "
            "--cce-auto-sync would "
            "insert it)");
}

TEST(Sanitizer, ScalarDependenciesFollowBishengAutoSyncWithRaceAlone) {
  // race without sync: the flags bisheng's --cce-auto-sync inserts are assumed, as in a default
  // kernel project.
  EXPECT_EQ(RunScalarRoundTrip(kRaceInit, false, false, nullptr).message, "");
}

// ---- MTE3 -> MTE2 (write after read of the same UB bytes) and MTE2 after a V read ----

// Two tiles through one TBuf: tile i is copied in (MTE2), scaled in place (V) and copied out
// (MTE3). Reusing the TBuf for tile 1 needs MTE3 -> MTE2 (the copy out must have read it).
// clang-format off
class KernelTBufTwoTiles {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, bool syncReuse)
    {
        this->syncReuse = syncReuse;
        xGm.SetGlobalBuffer((__gm__ float *)x, 2 * N);
        zGm.SetGlobalBuffer((__gm__ float *)z, 2 * N);
        pipe.InitBuffer(buf, N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> local = buf.Get<float>();
        for (uint32_t i = 0; i < 2; i++) {
            if (i > 0 && syncReuse) {
                AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
                AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
            }
            AscendC::DataCopy(local, xGm[i * N], N);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::Muls(local, local, 2.0f, N);
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::DataCopy(zGm[i * N], local, N);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> xGm, zGm;
    bool syncReuse = true;
};
// clang-format on

TEST(Sanitizer, Mte3ToMte2WriteAfterReadOfOneBufferIsARace) {
  DeviceBuffer x(2 * N * 4), z(2 * N * 4);
  for (uint32_t i = 0; i < 2 * N; ++i) x.as<float>()[i] = float(i);
  auto run = [&](bool sync) {
    return RunKernel("two_tiles", 1, kAll, [&, sync] {
      KernelTBufTwoTiles op;
      op.Init(x.gm(), z.gm(), sync);
      op.Process();
    });
  };
  // Calls: 1 InitBuffer, 2 Get, 3 DataCopy, 4-5 flags, 6 Muls, 7-8 flags, 9 DataCopy out,
  // 10 DataCopy in (tile 1).
  EXPECT_EQ(run(false).message,
            "two_tiles: block 0/1: race: MTE2 DataCopy GM->UB (call 11) writes dst UB [0x0, 0x100) "
            "of the VECCALC TBuf, which MTE3 DataCopy UB->GM (call 10) read, with no "
            "SetFlag/WaitFlag<HardEvent::MTE3_MTE2> or FreeTensor/AllocTensor between them");
  EXPECT_EQ(run(true).message, "");
  EXPECT_EQ(z.as<float>()[2 * N - 1], 2.0f * float(2 * N - 1));
}

// In and out buffers apart: the copy-in of tile 1 only has to wait for the vector read of tile
// 0 (V -> MTE2), the buffer reused too early when the flag is missing.
// clang-format off
class KernelReuseAfterVectorRead {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, bool syncReuse)
    {
        this->syncReuse = syncReuse;
        xGm.SetGlobalBuffer((__gm__ float *)x, 2 * N);
        zGm.SetGlobalBuffer((__gm__ float *)z, 2 * N);
        pipe.InitBuffer(inBuf, N * sizeof(float));
        pipe.InitBuffer(outQueue, 2, N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> inLocal = inBuf.Get<float>();
        for (uint32_t i = 0; i < 2; i++) {
            if (i > 0 && syncReuse) {
                AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
                AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
            }
            AscendC::DataCopy(inLocal, xGm[i * N], N);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
            AscendC::Muls(outLocal, inLocal, 3.0f, N);
            outQueue.EnQue(outLocal);
            outLocal = outQueue.DeQue<float>();
            AscendC::DataCopy(zGm[i * N], outLocal, N);
            outQueue.FreeTensor(outLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueue;
    AscendC::GlobalTensor<float> xGm, zGm;
    bool syncReuse = true;
};
// clang-format on

TEST(Sanitizer, Mte2WriteAfterVectorReadOfOneBufferIsARace) {
  DeviceBuffer x(2 * N * 4), z(2 * N * 4);
  auto run = [&](bool sync) {
    return RunKernel("reuse_early", 1, kAll, [&, sync] {
      KernelReuseAfterVectorRead op;
      op.Init(x.gm(), z.gm(), sync);
      op.Process();
    });
  };
  // Calls: 1-2 InitBuffer, 3 Get, 4 DataCopy, 5-6 flags, 7 AllocTensor, 8 Muls, 9 EnQue,
  // 10 DeQue, 11 DataCopy out, 12 FreeTensor, 13 DataCopy in (tile 1).
  EXPECT_EQ(run(false).message,
            "reuse_early: block 0/1: race: MTE2 DataCopy GM->UB (call 14) writes dst UB [0x0, "
            "0x100) of the VECCALC TBuf, which V Muls (call 9) read, with no "
            "SetFlag/WaitFlag<HardEvent::V_MTE2> or FreeTensor/AllocTensor between them");
  EXPECT_EQ(run(true).message, "");
}

// ---- the official double-buffered TQue pattern, no explicit flags ----

TEST(Sanitizer, ShippedKernelsAreCleanUnderAll) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(kAll);
  using ascsim::kernels::ElementType;
  // Lengths with full tiles, a DataCopyPad tail, several blocks and one block.
  for (uint32_t n : {1u, 17u, 4096u, 70001u, 1u << 18}) {
    for (uint32_t blocks : {1u, 8u}) {
      const uint32_t room = n < 64 ? 64 : n;  // the unaligned-copy kernel moves 8 or 64 floats
      std::vector<float> xs(room, 1.5f), ys(room, 2.0f);
      DeviceBuffer x(room * 4), y(room * 4), z(room * 4), g(room * 4);
      std::memcpy(x.gm(), xs.data(), room * 4);
      std::memcpy(y.gm(), ys.data(), room * 4);
      ascsim::kernels::LaunchAddCustom(ElementType::kFloat32, x.gm(), y.gm(), z.gm(), n, blocks,
                                       nullptr);
      EXPECT_EQ(z.as<float>()[n - 1], 3.5f);
      ascsim::kernels::LaunchAddCustom(ElementType::kFloat16, x.gm(), y.gm(), z.gm(), n, blocks,
                                       nullptr);
      ascsim::kernels::LaunchGeluCustom(ElementType::kFloat32, x.gm(), g.gm(), n, blocks, nullptr);
      ascsim::kernels::LaunchGeluCustom(ElementType::kFloat16, x.gm(), g.gm(), n, blocks, nullptr);
      ascsim::kernels::testing::LaunchUnalignedCopy(ElementType::kFloat32, x.gm(), z.gm(),
                                                    n < 64 ? 8 : 64, 1, nullptr);
    }
  }
}

// ---- masked and strided forms: exact footprints ----

// MTE2 fills the even 32 B blocks of a buffer (DataCopyParams dstStride 1) while the vector pipe
// fills the odd ones (Duplicate, dstBlockStride 2, starting one block in): interleaved, so no
// race even without a flag between them. With `overlap`, Duplicate starts at block 0 instead
// and writes the very blocks the copy writes.
// clang-format off
class KernelInterleaved {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, bool overlap)
    {
        this->overlap = overlap;
        xGm.SetGlobalBuffer((__gm__ float *)x, N);
        zGm.SetGlobalBuffer((__gm__ float *)z, 2 * N);
        pipe.InitBuffer(buf, 2 * N * sizeof(float));  // 16 blocks
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> local = buf.Get<float>();
        AscendC::DataCopyParams even{8, 1, 0, 1};  // 8 blocks of 32 B, one block gap in UB
        AscendC::DataCopy(local, xGm, even);
        // 64 floats per repeat, blocks 2 apart: blocks 1, 3, ..., 15.
        AscendC::Duplicate(overlap ? local : local[8], 7.0f, 64, 1, 2, 16);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::Muls(local, local, 1.0f, 2 * N);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(zGm, local, 2 * N);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> xGm, zGm;
    bool overlap = false;
};
// clang-format on

TEST(Sanitizer, InterleavedStridedOperandsAreNotARace) {
  DeviceBuffer x(N * 4), z(2 * N * 4);
  for (uint32_t i = 0; i < N; ++i) x.as<float>()[i] = float(i);
  auto run = [&](bool overlap) {
    return RunKernel("interleaved", 1, kAll, [&, overlap] {
      KernelInterleaved op;
      op.Init(x.gm(), z.gm(), overlap);
      op.Process();
    });
  };
  EXPECT_EQ(run(false).message, "");
  EXPECT_EQ(z.as<float>()[0], 0.0f);   // block 0 from x
  EXPECT_EQ(z.as<float>()[8], 7.0f);   // block 1 from Duplicate
  EXPECT_EQ(z.as<float>()[16], 8.0f);  // block 2 from x[8]
  // Calls: 1 InitBuffer, 2 Get, 3 DataCopy, 4 Duplicate.
  EXPECT_EQ(run(true).message,
            "interleaved: block 0/1: race: V Duplicate (call 5) writes dst UB [0x0, 0x20) of the "
            "VECCALC TBuf, which MTE2 DataCopy GM->UB (DataCopyParams) (call 4) wrote, with no "
            "SetFlag/WaitFlag<HardEvent::MTE2_V> or queue (EnQue/DeQue) between them");
}

// A masked vector op reads only the elements its mask enables: the first 8 of each 64-float
// repeat here, which the copy-in wrote; the rest of the buffer is never written.
// clang-format off
class KernelMaskedRead {
public:
    __aicore__ inline void Init(GM_ADDR x, bool syncIn)
    {
        this->syncIn = syncIn;
        xGm.SetGlobalBuffer((__gm__ float *)x, N);
        pipe.InitBuffer(inBuf, 4 * N * sizeof(float));
        pipe.InitBuffer(outBuf, 4 * N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> inLocal = inBuf.Get<float>();
        AscendC::LocalTensor<float> outLocal = outBuf.Get<float>();
        // Block 0 of each of the 4 repeats (256 B apart): 4 rows of 32 B.
        AscendC::DataCopyParams rows{4, 1, 1, 7};
        AscendC::DataCopy(inLocal, xGm, rows);
        if (syncIn) {
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        }
        AscendC::UnaryRepeatParams dense;
        AscendC::Muls(outLocal, inLocal, 2.0f, 8, 4, dense);  // mask: first 8 floats per repeat
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf, outBuf;
    AscendC::GlobalTensor<float> xGm;
    bool syncIn = true;
};
// clang-format on

TEST(Sanitizer, MaskedOperandsTouchOnlyTheirActiveElements) {
  DeviceBuffer x(N * 4);
  auto run = [&](bool sync) {
    return RunKernel("masked", 1, kAll, [&, sync] {
      KernelMaskedRead op;
      op.Init(x.gm(), sync);
      op.Process();
    });
  };
  EXPECT_EQ(run(true).message, "");  // no uninitialised read of the masked-off elements
  // Calls: 1-2 InitBuffer, 3-4 Get, 5 DataCopy, 6 Muls.
  EXPECT_EQ(run(false).message,
            "masked: block 0/1: race: V Muls (call 7) reads src UB [0x0, 0x20) of the VECCALC "
            "TBuf, which MTE2 DataCopy GM->UB (DataCopyParams) (call 6) wrote, with no "
            "SetFlag/WaitFlag<HardEvent::MTE2_V> or queue (EnQue/DeQue) between them");
}

// The same with half: 128 elements per repeat, the mask's first 16 are the repeat's first block;
// a bitwise mask picking the second block reads bytes the copy never wrote.
TEST(Sanitizer, MaskedHalfOperandsTouchOnlyTheirActiveElements) {
  DeviceBuffer x(4 * 32), z(32);
  auto run = [&](bool use_second) {
    return RunKernel("masked_half", 1, kAll, [&, use_second] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf, outBuf;
      AscendC::GlobalTensor<half> xGm, zGm;
      xGm.SetGlobalBuffer(x.as<half>(), 64);
      zGm.SetGlobalBuffer(z.as<half>(), 16);
      pipe.InitBuffer(inBuf, 2 * 256);
      pipe.InitBuffer(outBuf, 2 * 256);
      AscendC::LocalTensor<half> in = inBuf.Get<half>();
      AscendC::LocalTensor<half> out = outBuf.Get<half>();
      AscendC::DataCopy(in, xGm, AscendC::DataCopyParams{2, 1, 0, 7});  // block 0 of 2 repeats
      AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      const uint64_t first_block[2] = {0xFFFF, 0};
      const uint64_t second_block[2] = {0xFFFF0000ull, 0};
      AscendC::UnaryRepeatParams dense;
      AscendC::Adds(out, in, half(1.0f), use_second ? second_block : first_block, 2, dense);
      // The block the mask picked goes out: the Adds read undefined bytes for the second one.
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::DataCopy(zGm, use_second ? out[16] : out, 16);
    });
  };
  EXPECT_EQ(run(false).message, "");
  // Calls: 1-2 InitBuffer, 3-4 Get, 5 DataCopy, 6-7 flags, 8 Adds, 9-10 flags, 11 DataCopy out.
  EXPECT_EQ(run(true).message,
            "masked_half: block 0/1: uninitialized read: MTE3 DataCopy UB->GM (call 12) copies out "
            "src UB [0x220, 0x240) of the VECCALC TBuf, which V Adds (call 9) computed from bytes "
            "nothing wrote; every byte of that 32-byte block is undefined, and the copy takes it "
            "to GM (a block holding some result goes out whole without a report)");
}

// ---- two copies on one MTE pipe into the same bytes ----

TEST(Sanitizer, OverlappingCopiesOnOnePipeNeedAPipeBarrier) {
  DeviceBuffer x(2 * N * 4);
  enum Between { kNothing, kBarrier, kFlag };
  auto run = [&](Between between) {
    return RunKernel("double_copy", 1, kAll, [&, between] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
      AscendC::GlobalTensor<float> xGm;
      xGm.SetGlobalBuffer(x.as<float>(), 2 * N);
      pipe.InitBuffer(buf, N * sizeof(float));
      AscendC::LocalTensor<float> local = buf.Get<float>();
      AscendC::DataCopy(local, xGm, N);
      if (between == kBarrier) AscendC::PipeBarrier<PIPE_MTE2>();
      if (between == kFlag) {
        // A SetFlag on MTE2 waits for every earlier MTE2 copy, so it serialises the pipe too.
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      }
      AscendC::DataCopy(local[N / 2], xGm[N], N / 2);
    });
  };
  EXPECT_EQ(run(kNothing).message,
            "double_copy: block 0/1: race: MTE2 DataCopy GM->UB (call 5) writes dst UB [0x80, "
            "0x100) of the VECCALC TBuf, which MTE2 DataCopy GM->UB (call 4) wrote, with no "
            "PipeBarrier<PIPE_MTE2> between them (copies on one MTE pipe may be in flight "
            "together)");
  EXPECT_EQ(run(kBarrier).message, "");
  EXPECT_EQ(run(kFlag).message, "");
}

// ---- GM within one block: MTE3 writes, MTE2 reads back ----

TEST(Sanitizer, GmReadBackWithinABlockNeedsMte3ToMte2) {
  DeviceBuffer work(N * 4);
  auto run = [&](bool sync) {
    return RunKernel("gm_round_trip", 1, kAll, [&, sync] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> outBuf, inBuf;
      AscendC::GlobalTensor<float> workGm;
      workGm.SetGlobalBuffer(work.as<float>(), N);
      pipe.InitBuffer(outBuf, N * sizeof(float));
      pipe.InitBuffer(inBuf, N * sizeof(float));
      AscendC::LocalTensor<float> out = outBuf.Get<float>();
      AscendC::LocalTensor<float> in = inBuf.Get<float>();
      AscendC::Duplicate(out, 1.0f, N);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::DataCopy(workGm, out, N);
      if (sync) {
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
      }
      AscendC::DataCopy(in, workGm, N);
    });
  };
  EXPECT_EQ(
      run(false).message,
      "gm_round_trip: block 0/1: race: MTE2 DataCopy GM->UB (call 10) reads GM bytes [0, 256) "
      "of the 256 B allocation at " +
          HexOf(work.gm()) +
          ", which MTE3 DataCopy UB->GM (call 9) wrote, with no "
          "SetFlag/WaitFlag<HardEvent::MTE3_MTE2> or FreeTensor/AllocTensor between them");
  EXPECT_EQ(run(true).message, "");
}

// ---- across cores: SyncAll and atomics ----

// Each block writes its 8 floats to GM and then reads its neighbour's (a two-phase kernel).
void NeighbourKernel(float *gm, bool sync_all) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> outBuf, inBuf;
  const uint32_t b = AscendC::GetBlockIdx(), n = AscendC::GetBlockNum();
  AscendC::GlobalTensor<float> mine, next;
  mine.SetGlobalBuffer(gm + 8 * b, 8);
  next.SetGlobalBuffer(gm + 8 * ((b + 1) % n), 8);
  pipe.InitBuffer(outBuf, 32);
  pipe.InitBuffer(inBuf, 32);
  AscendC::LocalTensor<float> out = outBuf.Get<float>();
  AscendC::LocalTensor<float> in = inBuf.Get<float>();
  AscendC::Duplicate(out, float(b), 8);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(mine, out, 8);
  if (sync_all) AscendC::SyncAll();
  AscendC::DataCopy(in, next, 8);
}

TEST(Sanitizer, GmWrittenByOneBlockAndReadByAnotherNeedsSyncAll) {
  DeviceBuffer gm(2 * 32);
  auto run = [&](bool sync_all, bool serial) {
    return RunKernel(
        "neighbours", 2, kAll, [&, sync_all] { NeighbourKernel(gm.as<float>(), sync_all); },
        serial);
  };
  // Block 1's first conflicting access: its write of the slot block 0 read (calls: 1-2
  // InitBuffer, 3-4 Get, 5 Duplicate, 6-7 flags, 8 DataCopy out, 9 DataCopy in).
  const std::string expected =
      "neighbours: block 1/2: race: MTE3 DataCopy UB->GM (call 9) writes GM bytes [32, 64) of the "
      "64 B allocation at " +
      HexOf(gm.gm()) +
      ", which block 0 read with MTE2 DataCopy GM->UB (call 10), with no SyncAll between them";
  const Outcome parallel = run(false, false);
  EXPECT_EQ(parallel.message, expected);
  EXPECT_EQ(parallel.kind, ErrorKind::kRace);
  EXPECT_EQ(run(false, true).message, expected);
  EXPECT_EQ(run(true, false).message, "");
  EXPECT_EQ(run(true, true).message, "");
}

TEST(Sanitizer, CrossBlockFindingIsTheSameInSerialAndParallelRuns) {
  constexpr uint32_t kBlocks = 16;
  DeviceBuffer gm(kBlocks * 32);
  std::string first;
  for (int round = 0; round < 6; ++round) {
    const Outcome o = RunKernel(
        "ring", kBlocks, kAll, [&] { NeighbourKernel(gm.as<float>(), false); }, round % 2 == 1);
    if (round == 0) first = o.message;
    EXPECT_EQ(o.message, first);
  }
  EXPECT_EQ(first.rfind("ring: block 1/16: race: ", 0), 0u) << first;
}

// Every block accumulates into the same 8 floats under SetAtomicAdd: accumulations commute.
void AccumulateKernel(float *gm, bool block0_reads) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::GlobalTensor<float> sumGm;
  sumGm.SetGlobalBuffer(gm, 8);
  pipe.InitBuffer(buf, 32);
  AscendC::LocalTensor<float> local = buf.Get<float>();
  if (block0_reads && AscendC::GetBlockIdx() == 0) {
    AscendC::DataCopy(local, sumGm, 8);  // a plain read in the same epoch
    return;
  }
  AscendC::Duplicate(local, 1.0f, 8);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::SetAtomicAdd<float>();
  AscendC::DataCopy(sumGm, local, 8);
  AscendC::SetAtomicNone();
}

TEST(Sanitizer, BlocksAccumulatingWithSetAtomicAddDoNotRace) {
  DeviceBuffer gm(32);
  std::memset(gm.gm(), 0, 32);
  EXPECT_EQ(
      RunKernel("accumulate", 4, kAll, [&] { AccumulateKernel(gm.as<float>(), false); }).message,
      "");
  EXPECT_EQ(gm.as<float>()[7], 4.0f);
  // A plain read of what other blocks accumulate into, with no SyncAll, is a race (call numbers
  // count every API call of the block, scalar accesses and GetBlockIdx included).
  EXPECT_EQ(
      RunKernel("accumulate", 2, kAll, [&] { AccumulateKernel(gm.as<float>(), true); }).message,
      "accumulate: block 1/2: race: MTE3 DataCopy UB->GM (call 8) accumulates "
      "(SetAtomicAdd) into GM bytes [0, 32) of the 32 B allocation at " +
          HexOf(gm.gm()) +
          ", which block 0 read with MTE2 DataCopy GM->UB (call 4), with no SyncAll "
          "between them");
}

// InitOutput fills GM with zeros through MTE3; reading it back with MTE2 needs MTE3 -> MTE2.
void ZeroFillThenReadKernel(float *gm, bool sync) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::GlobalTensor<float> outGm;
  outGm.SetGlobalBuffer(gm, 8);
  pipe.InitBuffer(buf, 32);
  AscendC::InitOutput<float>(outGm, 8, 0.0f);
  if (sync) {
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
  AscendC::DataCopy(buf.Get<float>(), outGm, 8);
}

TEST(Sanitizer, AReadOfWhatInitOutputStillFillsNamesTheFill) {
  DeviceBuffer gm(32);
  EXPECT_EQ(RunKernel("zero_fill", 1, kAll, [&] { ZeroFillThenReadKernel(gm.as<float>(), true); })
                .message,
            "");
  const std::string message =
      RunKernel("zero_fill", 1, kAll, [&] { ZeroFillThenReadKernel(gm.as<float>(), false); })
          .message;
  EXPECT_NE(message.find("zero_fill: block 0/1: race: MTE2 DataCopy GM->UB"), std::string::npos)
      << message;
  EXPECT_NE(message.find(", which MTE3 InitOutput (call "), std::string::npos) << message;
  EXPECT_NE(message.find(") filled with zeros (InitOutput), with no "), std::string::npos)
      << message;
  EXPECT_EQ(message.find("SetAtomic"), std::string::npos) << message;
}

// The AbsPad pattern (Ascend/samples operator/ascendc/0_introduction/16_unaligned_abs_
// kernellaunch): each block clears its slice of `len` elements with plain writes (GM Fill), then
// adds one 32-byte block at its slice's start under SetAtomicAdd. When the slice is shorter than
// 32 B the block's tail lands in the next block's slice; the kernel pads it with zeros.
// `tail` is the value added there (0: the sample), `tail_again` adds a second, all-`tail_again`
// block at the same place (0: none).
template <class T>
void AtomicTailKernel(T *gm, uint32_t len, float tail, float tail_again) {
  constexpr uint32_t kBlockElems = 32 / sizeof(T);
  const uint32_t b = AscendC::GetBlockIdx();
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::GlobalTensor<T> slice, block;
  slice.SetGlobalBuffer(gm + b * len, len);
  block.SetGlobalBuffer(gm + b * len, kBlockElems);
  AscendC::Fill(slice, len, T(0));
  pipe.InitBuffer(buf, 32);
  AscendC::LocalTensor<T> add = buf.Get<T>();
  for (uint32_t i = 0; i < kBlockElems; ++i) add.SetValue(i, T(i < len ? float(b + 1) : tail));
  AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
  AscendC::SetAtomicAdd<T>();
  AscendC::DataCopy(block, add, kBlockElems);
  if (tail_again != 0.0f) {
    AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
    for (uint32_t i = 0; i < kBlockElems; ++i) add.SetValue(i, T(tail_again));
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::DataCopy(block, add, kBlockElems);
  }
  AscendC::SetAtomicNone();
}

template <class T>
void CheckAtomicZeroTail(const char *type) {
  constexpr uint32_t kBlockElems = 32 / sizeof(T);
  constexpr uint32_t kBlocks = 3;
  for (uint32_t len : {1u, kBlockElems / 2 - 1, kBlockElems - 1}) {
    SCOPED_TRACE(std::string(type) + " len " + std::to_string(len));
    DeviceBuffer gm((kBlocks * len + kBlockElems) * sizeof(T));
    auto run = [&](uint32_t flags, float tail, float again, bool serial) {
      return RunKernel(
          "abs_pad", kBlocks, flags, [&] { AtomicTailKernel<T>(gm.as<T>(), len, tail, again); },
          serial);
    };
    for (uint32_t flags : {kRaceInit, kAll}) {
      for (bool serial : {false, true}) {
        // Zero tails: whatever the order, every slice ends as its own block's values.
        const Outcome ok = run(flags, 0.0f, 0.0f, serial);
        EXPECT_EQ(ok.message, "");
        EXPECT_EQ(ok.warnings.size(), 0u);
        for (uint32_t i = 0; i < kBlocks * len; ++i) {
          ASSERT_EQ(float(gm.as<T>()[i]), float(i / len + 1)) << i;
        }
        // A tail that adds something races the neighbour's plain writes.
        const Outcome bad = run(flags, 1.0f, 0.0f, serial);
        EXPECT_EQ(bad.kind, ErrorKind::kRace);
        EXPECT_NE(bad.message.find("abs_pad: block 1/3: race: "), std::string::npos) << bad.message;
        EXPECT_NE(bad.message.find("which block 0 accumulated into (SetAtomicAdd)"),
                  std::string::npos)
            << bad.message;
        // Zero once and something else later at the same bytes: still a race.
        const Outcome again = run(flags, 0.0f, 2.0f, serial);
        EXPECT_EQ(again.kind, ErrorKind::kRace);
        EXPECT_NE(again.message.find("which block 0 accumulated into (SetAtomicAdd)"),
                  std::string::npos)
            << again.message;
      }
    }
  }
}

TEST(Sanitizer, AtomicAddOfZeroIntoANeighboursSliceIsNoRace) {
  CheckAtomicZeroTail<float>("float");
  CheckAtomicZeroTail<half>("half");
}

// Only addition leaves GM unchanged by a zero: SetAtomicMax of a zero tail over a slice the
// neighbour writes is still a race (max(x, 0) changes a negative x).
TEST(Sanitizer, AtomicMaxOfZeroIntoANeighboursSliceIsARace) {
  DeviceBuffer gm(64);
  const Outcome o = RunKernel("max_tail", 2, kRaceInit, [&] {
    const uint32_t b = AscendC::GetBlockIdx();
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> slice, block;
    slice.SetGlobalBuffer(gm.as<float>() + b * 3, 3);
    block.SetGlobalBuffer(gm.as<float>() + b * 3, 8);
    AscendC::Fill(slice, 3, -1.0f);
    pipe.InitBuffer(buf, 32);
    AscendC::LocalTensor<float> v = buf.Get<float>();
    for (uint32_t i = 0; i < 8; ++i) v.SetValue(i, i < 3 ? 5.0f : 0.0f);
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::SetAtomicMax<float>();
    AscendC::DataCopy(block, v, 8);
    AscendC::SetAtomicNone();
  });
  EXPECT_EQ(o.kind, ErrorKind::kRace);
  EXPECT_NE(o.message.find("which block 0 accumulated into (SetAtomicMax)"), std::string::npos)
      << o.message;
}

// The scalar pipe reading a dequeued VECIN tile: the queue orders MTE2 before V only, so the
// read needs MTE2_S in the source with `sync` (bisheng's auto-sync inserts it otherwise).
TEST(Sanitizer, ScalarReadOfADequeuedTileNeedsMte2ToS) {
  DeviceBuffer x(N * 4);
  auto run = [&](uint32_t flags) {
    return RunKernel("peek", 1, flags, [&] {
      AscendC::TPipe pipe;
      AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
      AscendC::GlobalTensor<float> xGm;
      xGm.SetGlobalBuffer(x.as<float>(), N);
      pipe.InitBuffer(inQueue, 1, N * sizeof(float));
      AscendC::LocalTensor<float> t = inQueue.AllocTensor<float>();
      AscendC::DataCopy(t, xGm, N);
      inQueue.EnQue(t);
      t = inQueue.DeQue<float>();
      (void)t.GetValue(3);
      inQueue.FreeTensor(t);
    });
  };
  EXPECT_EQ(run(kRaceInit).message, "");
  EXPECT_EQ(run(kAll).message,
            "peek: block 0/1: race: S LocalTensor::GetValue (call 8) reads UB [0xc, 0x10) of "
            "buffer 0 of VECIN queue, which MTE2 DataCopy GM->UB (call 4) wrote, with no "
            "SetFlag/WaitFlag<HardEvent::MTE2_S> between them (the kernel was built without "
            "--cce-auto-sync; bisheng's "
            "--cce-auto-sync would "
            "insert it)");
}

// Copies out to overlapping GM bytes (a tail tile moved back over its predecessor) may be in
// flight together on MTE3.
TEST(Sanitizer, OverlappingCopiesOutNeedAPipeBarrier) {
  DeviceBuffer z(N * 4);
  auto run = [&](bool barrier) {
    return RunKernel("overlap_out", 1, kAll, [&, barrier] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
      AscendC::GlobalTensor<float> zGm;
      zGm.SetGlobalBuffer(z.as<float>(), N);
      pipe.InitBuffer(buf, N * sizeof(float));
      AscendC::LocalTensor<float> local = buf.Get<float>();
      AscendC::Duplicate(local, 1.0f, N);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::DataCopy(zGm, local, 40);  // [0, 40) floats
      if (barrier) AscendC::PipeBarrier<PIPE_MTE3>();
      AscendC::DataCopy(zGm[24], local, 40);  // [24, 64): overlaps [24, 40)
    });
  };
  // Calls: 1 InitBuffer, 2 Get, 3 Duplicate, 4-5 flags, 6 DataCopy, 7 DataCopy.
  EXPECT_EQ(run(false).message,
            "overlap_out: block 0/1: race: MTE3 DataCopy UB->GM (call 8) writes GM bytes [96, "
            "160) of the 256 B allocation at " +
                HexOf(z.gm()) +
                ", which MTE3 DataCopy UB->GM (call 7) wrote, with no PipeBarrier<PIPE_MTE3> "
                "between them (copies on one MTE pipe may be in flight together)");
  EXPECT_EQ(run(true).message, "");
}

// A block's own fault and a cross-block finding against it: the earlier call is reported.
TEST(Sanitizer, EarlierOfABlocksFaultAndACrossBlockFindingWins) {
  DeviceBuffer gm(2 * 32);
  const Outcome o = RunKernel("race_then_fault", 2, kAll, [&] {
    NeighbourKernel(gm.as<float>(), false);                   // block 1 races at call 9
    if (AscendC::GetBlockIdx() == 1) AscendC::GetTPipePtr();  // and faults later (no TPipe left)
  });
  EXPECT_EQ(o.kind, ErrorKind::kRace);
  EXPECT_EQ(o.message.rfind("race_then_fault: block 1/2: race: MTE3 DataCopy UB->GM (call 9)", 0),
            0u)
      << o.message;
}

TEST(Sanitizer, ChecksDoNotNeedProfilingAndProfilingStillWorks) {
  DeviceBuffer x(4 * 64 * 4), z(4 * 64 * 4);
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(kAll);
  int launches = 0;
  const int id = ascsim::AddLaunchObserver([&](const ascsim::LaunchRecord &r) {
    ++launches;
    EXPECT_TRUE(r.failed);
    ASSERT_NE(r.traces, nullptr);
    EXPECT_FALSE((*r.traces)[0].calls.empty());
  });
  EXPECT_THROW(ascsim::kernels::testing::LaunchMissingSync(x.gm(), z.gm(), 64, 4, nullptr),
               ascsim::KernelError);
  ascsim::RemoveLaunchObserver(id);
  EXPECT_EQ(launches, 1);
}

// ---- uninitialised reads ----

TEST(Sanitizer, ReadingAFreshTBufIsAnUninitializedRead) {
  DeviceBuffer z(N * 4);
  auto run = [&](bool fill) {
    return RunKernel("fresh_tbuf", 1, kAll, [&, fill] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> aBuf, bBuf;
      pipe.InitBuffer(aBuf, N * sizeof(float));
      pipe.InitBuffer(bBuf, N * sizeof(float));
      AscendC::LocalTensor<float> a = aBuf.Get<float>();
      AscendC::LocalTensor<float> b = bBuf.Get<float>();
      if (fill) AscendC::Duplicate(a, 0.0f, N);
      AscendC::Add(b, a, a, N);  // computes from garbage without a fill: b is undefined too
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::GlobalTensor<float> zGm;
      zGm.SetGlobalBuffer(z.as<float>(), N);
      AscendC::DataCopy(zGm, b, N);  // ... and reaches the result
    });
  };
  const Outcome bad = run(false);
  // Calls: 1-2 InitBuffer, 3-4 Get, 5 Add, 6-7 flags, 8 DataCopy.
  EXPECT_EQ(bad.message,
            "fresh_tbuf: block 0/1: uninitialized read: MTE3 DataCopy UB->GM (call 9) copies out "
            "src UB [0x100, 0x120) of the VECCALC TBuf, which V Add (call 6) computed from bytes "
            "nothing wrote; every byte of that 32-byte block is undefined, and the copy takes it "
            "to GM (a block holding some result goes out whole without a report)");
  EXPECT_EQ(bad.kind, ErrorKind::kUninitializedRead);
  EXPECT_EQ(run(true).message, "");
}

TEST(Sanitizer, AllocTensorHandsOutUninitializedBytes) {
  // The second AllocTensor of a depth-1 queue hands back buffer 0; its old tile is garbage now.
  const Outcome o = RunKernel("stale_tile", 1, kAll, [] {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> queue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(queue, 1, 256);
    pipe.InitBuffer(tmpBuf, 256);
    AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
    AscendC::LocalTensor<float> t = queue.AllocTensor<float>();
    AscendC::Duplicate(t, 1.0f, 64);
    queue.FreeTensor(t);
    t = queue.AllocTensor<float>();
    AscendC::Adds(tmp, t, 1.0f, 64);
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    (void)tmp.GetValue(0);  // the stale tile's garbage decides something here
  });
  EXPECT_EQ(o.message,
            "stale_tile: block 0/1: uninitialized read: S LocalTensor::GetValue (call 13) reads UB "
            "[0x100, 0x104) of the VECCALC TBuf, which V Adds (call 9) computed from bytes nothing "
            "wrote");
}

// DataCopy of 13 floats (52 B) copies 32 B: the 20 bytes it drops are never written, a vector op
// over the aligned-up 16 floats computes from them, and its result goes out to GM. DataCopyPad
// pads the row instead.
// clang-format off
class KernelTail {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, bool pad)
    {
        this->pad = pad;
        xGm.SetGlobalBuffer((__gm__ float *)x, 16);
        zGm.SetGlobalBuffer((__gm__ float *)z, 16);
        pipe.InitBuffer(inQueue, 1, 64);
        pipe.InitBuffer(outQueue, 1, 64);
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        if (pad) {
            AscendC::DataCopyExtParams copyParams{1, 13 * sizeof(float), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xLocal, xGm, copyParams, padParams);
        } else {
            AscendC::DataCopy(xLocal, xGm, 13);
        }
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueue.AllocTensor<float>();
        AscendC::Muls(zLocal, xLocal, 2.0f, 16);
        outQueue.EnQue(zLocal);
        inQueue.FreeTensor(xLocal);
        zLocal = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams outParams{1, 13 * sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(zGm, zLocal, outParams);
        outQueue.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm, zGm;
    bool pad = true;
};
// clang-format on

TEST(Sanitizer, BytesDataCopyRoundedAwayAreUninitialized) {
  DeviceBuffer x(64), z(64);
  for (int i = 0; i < 16; ++i) x.as<float>()[i] = float(i + 1);
  auto run = [&](bool pad) {
    return RunKernel("tail", 1, kAll, [&, pad] {
      KernelTail op;
      op.Init(x.gm(), z.gm(), pad);
      op.Process();
    });
  };
  const Outcome bad = run(false);
  // The 5 floats the copy rounded away go through Muls and out to GM: their 20 bytes of the
  // second block are all undefined (the first block is the 8 floats copied).
  EXPECT_EQ(bad.message,
            "tail: block 0/1: uninitialized read: MTE3 DataCopyPad UB->GM (call 13) copies out "
            "src UB [0x60, 0x74) of buffer 0 of VECOUT queue, which V Muls (call 9) computed from "
            "bytes nothing wrote; every byte of that 32-byte block is undefined, and the copy "
            "takes it to GM (a block holding some result goes out whole without a report)");
  ASSERT_EQ(bad.warnings.size(), 1u);  // and the rounding warning itself
  const Outcome good = run(true);
  EXPECT_EQ(good.message, "");
  EXPECT_EQ(z.as<float>()[12], 26.0f);
}

// ---- sync ----

TEST(Sanitizer, SetFlagNeverWaitedFailsWithSync) {
  auto body = [] { AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1); };
  const Outcome strict = RunKernel("unwaited", 1, kAll, body);
  EXPECT_EQ(strict.message,
            "unwaited: block 0/1: SetFlag<MTE2_V>(EVENT_ID1) (call 1) was never waited "
            "for by the end of the kernel; every SetFlag needs its WaitFlag");
  EXPECT_EQ(strict.kind, ErrorKind::kSyncMisuse);
  const Outcome lenient = RunKernel("unwaited", 1, kRaceInit, body);
  EXPECT_EQ(lenient.message, "");
  ASSERT_EQ(lenient.warnings.size(), 1u);
}

TEST(Sanitizer, AllocEventIdNeverReleasedFailsWithSync) {
  auto run = [](bool release) {
    return RunKernel("event_ids", 1, kAll, [release] {
      AscendC::TPipe pipe;
      AscendC::TEventID first = pipe.AllocEventID<AscendC::HardEvent::V_S>();
      AscendC::TEventID second = pipe.AllocEventID<AscendC::HardEvent::V_S>();
      EXPECT_EQ(first, 0);
      EXPECT_EQ(second, 1);
      EXPECT_EQ(pipe.FetchEventID(AscendC::HardEvent::V_S), 2);  // Fetch does not take it
      EXPECT_EQ(pipe.FetchEventID<AscendC::HardEvent::V_S>(), 2);
      AscendC::SetFlag<AscendC::HardEvent::V_S>(second);
      AscendC::WaitFlag<AscendC::HardEvent::V_S>(second);
      pipe.ReleaseEventID<AscendC::HardEvent::V_S>(first);
      if (release) pipe.ReleaseEventID<AscendC::HardEvent::V_S>(second);
    });
  };
  EXPECT_EQ(run(false).message,
            "event_ids: block 0/1: AllocEventID<V_S>() (call 3) took EVENT_ID1, never "
            "given back with ReleaseEventID; the device has 8 ids per event");
  EXPECT_EQ(run(true).message, "");
}

TEST(Sanitizer, ReleasingAnIdAllocEventIdDidNotGiveFailsWithSync) {
  const Outcome o = RunKernel("bad_release", 1, kAll, [] {
    AscendC::TPipe pipe;
    pipe.ReleaseEventID<AscendC::HardEvent::MTE3_V>(
        pipe.FetchEventID<AscendC::HardEvent::MTE3_V>());
  });
  EXPECT_EQ(o.message,
            "bad_release: block 0/1: ReleaseEventID<MTE3_V>(0): the id was not taken by "
            "AllocEventID (release only what AllocEventID returned)");
}

TEST(Sanitizer, RedundantPipeBarrierIsAWarning) {
  auto run = [](bool dependent) {
    return RunKernel("barriers", 1, kAll, [dependent] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> aBuf, bBuf;
      pipe.InitBuffer(aBuf, 256);
      pipe.InitBuffer(bBuf, 256);
      AscendC::LocalTensor<float> a = aBuf.Get<float>();
      AscendC::LocalTensor<float> b = bBuf.Get<float>();
      AscendC::Duplicate(a, 1.0f, 64);
      AscendC::PipeBarrier<PIPE_V>();
      if (dependent) {
        AscendC::Add(b, a, a, 64);  // reads what the Duplicate wrote
      } else {
        AscendC::Duplicate(b, 2.0f, 64);  // touches nothing the Duplicate before it touched
      }
    });
  };
  const Outcome redundant = run(false);
  EXPECT_EQ(redundant.message, "");
  ASSERT_EQ(redundant.warnings.size(), 1u);
  // A PipeBarrier<PIPE_V> between independent vector instructions...
  // (calls: 1-2 InitBuffer, 3-4 Get, 5 Duplicate, 6 PipeBarrier)
  EXPECT_EQ(redundant.warnings[0],
            "barriers: block 0/1: PipeBarrier<PIPE_V> (call 7) is redundant: no later access "
            "depends on one it waits for, so it only costs time on the device");
  // ... but not between dependent ones (the order bisheng's auto-sync would also insert).
  const Outcome needed = run(true);
  EXPECT_EQ(needed.message, "");
  EXPECT_TRUE(needed.warnings.empty()) << needed.warnings[0];
}

TEST(Sanitizer, PipeBarrierAllBeforeSyncAllIsRedundant) {
  DeviceBuffer gm(2 * 32);
  const Outcome o = RunKernel("barrier_sync_all", 2, kAll, [&] {
    AscendC::PipeBarrier<PIPE_ALL>();
    NeighbourKernel(gm.as<float>(), true);
  });
  EXPECT_EQ(o.message, "");
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_EQ(o.warnings[0],
            "barrier_sync_all: block 0/2: PipeBarrier<PIPE_ALL> (call 1) is redundant: no later "
            "access depends on one it waits for, so it only costs time on the device (x2)");
}

// ---- the same finding through every front door ----

TEST(Sanitizer, FindingsReachAclAndTheTestingKernels) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(kRaceInit);  // the default
  DeviceBuffer x(4 * 64 * 4), z(4 * 64 * 4);
  const std::string expected_tail =
      "race: V Muls (call 7) reads src UB [0x0, 0x100) of the VECCALC TBuf, which MTE2 DataCopy "
      "GM->UB (call 6) wrote, with no SetFlag/WaitFlag<HardEvent::MTE2_V> or queue (EnQue/DeQue) "
      "between them";
  // C++: a KernelError of kind race, lowest block.
  try {
    ascsim::kernels::testing::LaunchMissingSync(x.gm(), z.gm(), 64, 4, nullptr);
    ADD_FAILURE() << "expected a race";
  } catch (const ascsim::KernelError &e) {
    EXPECT_EQ(e.fault_kind(), ErrorKind::kRace);
    EXPECT_EQ(std::string(e.what()), "missing_sync_custom: block 0/4: " + expected_tail);
  }
  // ACL: an aclError at aclrtSynchronizeStream and the line from aclGetRecentErrMsg.
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(missing_sync_custom)(4, stream, x.gm(), z.gm(), 64u), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()), "missing_sync_custom: block 0/4: " + expected_tail);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  // Off: the right answer, as the simulator runs the pipes in order.
  ascsim::SetSanitize(0);
  for (uint32_t i = 0; i < 4 * 64; ++i) x.as<float>()[i] = float(i);
  ascsim::kernels::testing::LaunchMissingSync(x.gm(), z.gm(), 64, 4, nullptr);
  EXPECT_EQ(z.as<float>()[4 * 64 - 1], 2.0f * float(4 * 64 - 1));
}

// ---- switches ----

TEST(Sanitizer, OffMeansNoChecks) {
  DeviceBuffer x(N * 4), z(N * 4);
  EXPECT_EQ(RunKernel("off", 1, 0,
                      [&] {
                        KernelTBufAdds op;
                        op.Init(x.gm(), z.gm(), false);
                        op.Process();
                      })
                .message,
            "");
}

TEST(Sanitizer, ParseSanitizeFlagsAndKindNames) {
  EXPECT_EQ(ascsim::ParseSanitizeFlags("all"), kAll);
  EXPECT_EQ(ascsim::ParseSanitizeFlags("race,init"), kRaceInit);
  EXPECT_EQ(ascsim::ParseSanitizeFlags("0"), 0u);
  EXPECT_STREQ(ascsim::ErrorKindName(ErrorKind::kRace), "race");
  EXPECT_STREQ(ascsim::ErrorKindName(ErrorKind::kUninitializedRead), "uninitialized read");
}

TEST(Sanitizer, UbFillMakesGarbageVisibleWithTheCheckerOff) {
  DeviceBuffer z(N * 4);
  ascsim::ScopedSettings saved;
  ascsim::Settings s = ascsim::GetSettings();
  s.sanitize = 0;
  s.ub_fill = 0xFF;  // ASCSIM_UB_FILL=nan
  ascsim::SetSettings(s);
  ascsim::Launch("fill", 1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer(z.as<float>(), N);
    pipe.InitBuffer(buf, N * sizeof(float));
    AscendC::DataCopy(zGm, buf.Get<float>(), N);  // never written: the fill goes out
  });
  EXPECT_TRUE(std::isnan(z.as<float>()[0]));
  EXPECT_TRUE(std::isnan(z.as<float>()[N - 1]));
  s.ub_fill = 256;
  EXPECT_THROW(ascsim::SetSettings(s), ascsim::InvalidArgument);
}

// An operand's direction is learnt from its role name once and cached by the name's address,
// also for the launch's later blocks; a later launch may run other code at the same addresses (a
// kernel library unloaded and another loaded), so every launch learns it again. The same address
// names a written index first ("dstIndex": no report) and a read one after ("srcIndex", never
// written: an index decides something, so its undefined bytes are reported).
TEST(Sanitizer, EveryLaunchLearnsOperandDirectionsAgain) {
  static char role[16];
  auto body = [] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    AscendC::LocalTensor<int32_t> t = buf.Get<int32_t>();
    const auto* slot = reinterpret_cast<const ascsim::aicore::BufferSlot*>(t.GetBufferHandle());
    ascsim::aicore::SanitizeLocalOperand(slot, ascsim::trace::Pipe::kV,
                                         ascsim::aicore::Access::kAuto, slot->addr, 256, nullptr,
                                         "Probe", role);
  };
  std::strcpy(role, "dstIndex");
  const Outcome written = RunKernel("role_probe", 2, kRaceInit, body, /*serial=*/true);
  EXPECT_EQ(written.message, "");
  std::strcpy(role, "srcIndex");
  const Outcome read = RunKernel("role_probe", 2, kRaceInit, body, /*serial=*/true);
  EXPECT_NE(read.message.find("role_probe: block 0/2: uninitialized read: V Probe (call "),
            std::string::npos)
      << read.message;
  EXPECT_NE(read.message.find("reads srcIndex UB [0x"), std::string::npos) << read.message;
}

}  // namespace
