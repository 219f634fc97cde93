// The cost model and the profiler: numbers of a hand-computed case, calibration against the
// published add measurement, double buffering, waves, trace structure and the ASCSIM_TRACE hook.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ascsim/half.h"
#include "ascsim/profile.h"
#include "ascsim/runtime.h"
#include "host/env_trace.h"
#include "calibration_kernels.h"
#include "kernel_launchers.h"
#include "kernel_operator.h"

namespace {

using ascsim::LaunchEstimate;
using ascsim::Profiler;
using ascsim::TimelineEvent;
using ascsim::kernels::ElementType;
using ascsim::trace::Pipe;

// Device buffers for z = x + y over n halves.
struct AddBuffers {
  explicit AddBuffers(uint64_t n) : n(n) {
    x = ascsim::DeviceMalloc(n * 2);
    y = ascsim::DeviceMalloc(n * 2);
    z = ascsim::DeviceMalloc(n * 2);
    auto* xs = static_cast<half*>(x);
    auto* ys = static_cast<half*>(y);
    for (uint64_t i = 0; i < n; ++i) {
      xs[i] = half(static_cast<float>(i % 251) * 0.25f);
      ys[i] = half(static_cast<float>(i % 13) - 6.0f);
    }
  }
  ~AddBuffers() {
    ascsim::DeviceFree(x);
    ascsim::DeviceFree(y);
    ascsim::DeviceFree(z);
  }
  void Run(uint32_t block_dim) {
    ascsim::kernels::LaunchAddCustom(ElementType::kFloat16, x, y, z, n, block_dim, nullptr);
  }
  uint64_t n;
  void *x, *y, *z;
};

LaunchEstimate ProfileAdd(uint64_t n, uint32_t block_dim) {
  AddBuffers buffers(n);
  Profiler prof;
  buffers.Run(block_dim);
  auto summary = prof.Summary();
  EXPECT_EQ(summary.size(), 1u);
  return summary.at(0);
}

const ascsim::trace::ApiCall& CallOf(const LaunchEstimate& e, const TimelineEvent& ev) {
  return (*e.traces)[ev.block].calls[ev.call_index];
}

// Writes `json` to a temp file and runs a small Python checker over it: valid JSON, a
// "traceEvents" array, "X" events with pid/tid/ts/dur, process and thread names for every
// (pid, tid) used, and no two events of one (pid, tid) overlapping. Prints the number of cores.
std::string CheckTraceWithPython(const std::string& path) {
  const std::string script = path + ".check.py";
  std::ofstream(script) << R"PY(
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
xs = [e for e in ev if e["ph"] == "X"]
assert xs, "no complete events"
procs = {e["pid"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
threads = {(e["pid"], e["tid"]) for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
rows = {}
for e in xs:
    for k in ("name", "ts", "dur", "pid", "tid", "args"):
        assert k in e, k
    assert e["pid"] in procs and (e["pid"], e["tid"]) in threads
    rows.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["dur"]))
for key, spans in rows.items():
    spans.sort()
    for (a, da), (b, _) in zip(spans, spans[1:]):
        assert a + da <= b + 1e-3, ("overlap", key, a, da, b)
print(len(procs), len(rows))
)PY";
  const std::string out_path = path + ".check.out";
  const std::string cmd = "/usr/bin/python3 " + script + " " + path + " > " + out_path + " 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream in(out_path);
  std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(script.c_str());
  std::remove(out_path.c_str());
  return rc == 0 ? out : "FAILED: " + out;
}

std::string TempPath(const char* name) {
  return std::string(::testing::TempDir()) + name;
}

// ---------------------------------------------------------------------------------------------
// Hand-computed case: one block adds 2048 halves in one tile, UB buffers at explicit offsets
// (x at 0, y at 0x4100, z at 0x10000: x and y in different bank groups, z in another bank: one
// beat per repeat), ordered by flags, on Ascend910B1. Profile figures: clock 1.85 GHz; one core
// alone reads at the MTE2 engine rate 43.2 GB/s = 43200 B/us and writes at 51300 B/us (HBM and
// the port are far from full); DMA latency 0.02 us; a vector instruction costs 22 cycles plus
// one cycle per repeat of 256 B; Task Duration adds 5 us.
//   MTE2 x: 4096 B / 43200 = 0.0948148 us, [0, 0.0948148]
//   MTE2 y: after x on the same pipe, [0.0948148, 0.1896296]
//   V Add : MTE2_V flag at y's end + 0.02 latency = 0.2096296; (22 + 16) / 1850 = 0.0205405 us
//   MTE3 z: V_MTE3 flag at the Add's end 0.2301701; 4096 / 51300 = 0.0798441 us -> 0.3100142,
//           + 0.02 latency = 0.3300142
// No resource busy half the time -> bound "latency".
extern "C" __global__ __aicore__ void model_hand_add(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 192 * 1024);
    AscendC::LocalTensor<half> all = ub.Get<half>();
    AscendC::LocalTensor<half> xLocal = all[0];
    AscendC::LocalTensor<half> yLocal = all[0x4100 / 2];
    AscendC::LocalTensor<half> zLocal = all[0x10000 / 2];
    AscendC::GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 2048);
    yGm.SetGlobalBuffer((__gm__ half *)y, 2048);
    zGm.SetGlobalBuffer((__gm__ half *)z, 2048);
    AscendC::DataCopy(xLocal, xGm, 2048);
    AscendC::DataCopy(yLocal, yGm, 2048);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Add(zLocal, xLocal, yLocal, 2048);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zGm, zLocal, 2048);
}

TEST(ModelProfile, HandComputedSingleTile) {
  AddBuffers buffers(2048);
  Profiler prof;
  auto* x = static_cast<GM_ADDR>(buffers.x);
  auto* y = static_cast<GM_ADDR>(buffers.y);
  auto* z = static_cast<GM_ADDR>(buffers.z);
  ascsim::Launch("model_hand_add", 1, [=] { model_hand_add(x, y, z); });
  const LaunchEstimate e = prof.Summary().at(0);
  const double read = 4096.0 / 43200, write = 4096.0 / 51300, add = 38.0 / 1850.0;
  EXPECT_NEAR(e.pipes.at("MTE2"), 2 * read, 1e-9);
  EXPECT_NEAR(e.pipes.at("V"), add, 1e-9);
  EXPECT_NEAR(e.pipes.at("MTE3"), write, 1e-9);
  EXPECT_NEAR(e.pipes.at("S"), 0.0, 1e-12);
  EXPECT_NEAR(e.estimated_us, 2 * read + 0.02 + add + write + 0.02, 1e-9);
  EXPECT_NEAR(e.estimated_us, 0.3300142, 1e-6);
  EXPECT_NEAR(e.task_duration_us, e.estimated_us + 5.0, 1e-9);
  EXPECT_EQ(e.bound, "latency");
  EXPECT_EQ(e.waves, 1u);
  EXPECT_EQ(e.kernel, "model_hand_add");
  EXPECT_EQ(e.soc, "Ascend910B1");
  EXPECT_EQ(e.gm_bytes, 3u * 4096u);
  EXPECT_EQ(e.memory.mte2_transfers, 2u);
  EXPECT_EQ(e.memory.mte3_transfers, 1u);
  EXPECT_EQ(e.memory.l2_hit_bytes, 0u);
  EXPECT_FALSE(e.memory.l2_thrashing);
  EXPECT_NEAR(e.memory.vector_conflict_us, 0.0, 1e-12);
  ASSERT_EQ(e.cores.size(), 1u);
  EXPECT_NEAR(e.cores[0].utilisation.at("V"), add / e.estimated_us, 1e-9);
  ASSERT_EQ(e.events.size(), 4u);  // MTE2, MTE2, V, MTE3
  const TimelineEvent* v = nullptr;
  for (const TimelineEvent& ev : e.events) {
    if (ev.pipe == Pipe::kV) v = &ev;
  }
  ASSERT_NE(v, nullptr);
  EXPECT_NEAR(v->start_us, 2 * read + 0.02, 1e-9);
}

// The UB layout decides the vector time: x and y in the same bank groups read in two beats.
TEST(ModelProfile, BankConflictsFromUbAddresses) {
  auto run = [](uint32_t y_offset) {
    AddBuffers buffers(2048);
    Profiler prof;
    auto* x = static_cast<GM_ADDR>(buffers.x);
    ascsim::Launch("model_bank_add", 1, [=] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 192 * 1024);
      AscendC::LocalTensor<half> all = ub.Get<half>();
      AscendC::GlobalTensor<half> xGm;
      xGm.SetGlobalBuffer((__gm__ half *)x, 2048);
      AscendC::DataCopy(all[0], xGm, 2048);
      AscendC::DataCopy(all[y_offset / 2], xGm, 2048);
      AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::Add(all[0x10000 / 2], all[0], all[y_offset / 2], 2048);
    });
    return prof.Summary().at(0);
  };
  const LaunchEstimate apart = run(0x4100), same_group = run(0x4000);
  // 16 repeats: 22 + 16 cycles apart, 22 + 32 in the same bank groups.
  EXPECT_NEAR(apart.pipes.at("V"), 38.0 / 1850, 1e-9);
  EXPECT_NEAR(same_group.pipes.at("V"), 54.0 / 1850, 1e-9);
  EXPECT_NEAR(same_group.memory.vector_conflict_us, 16.0 / 1850, 1e-9);
}

// The write of the previous repeat (delayed by the hardware) costs a beat only when every beat of
// the repeat reads its bank: asc-devkit bank_conflict_ub README, scenario 5 (1.57x: one-beat
// reads) against scenario 3 (1.74x, the read-read conflict's cost alone).
TEST(ModelProfile, DelayedWriteTakesTheBeatItsBankIsFree) {
  auto vector_cycles = [](uint32_t src1, uint32_t dst) {
    return calibration::BankLayoutAddUs(0, src1, dst) * 1850;  // 1.85 GHz
  };
  // One-beat reads; the delayed write lands in src0's bank: 2 beats per repeat.
  EXPECT_NEAR(vector_cycles(0x10100, 0x4020), 22 + 64 * 2, 1e-6);
  // src0 and src1 in one bank group (two beats); the delayed write in src1's bank takes the beat
  // src0 is read in: still 2 beats.
  EXPECT_NEAR(vector_cycles(0x10000, 0x14100), 22 + 64 * 2, 1e-6);
  // src0 and src1 in one bank (two beats, both reading it); the delayed write in that bank finds
  // no free beat: 3 beats.
  EXPECT_NEAR(vector_cycles(0x4000, 0x8100), 22 + 64 * 3, 1e-6);
  // No conflict at all: 1 beat.
  EXPECT_NEAR(vector_cycles(0x10100, 0x20000), 22 + 64, 1e-6);
}

// A mask/repeat instruction's block strides place the eight blocks of a repeat: blocks that land
// in one UB bank group are read or written one beat each (asc-devkit bank_conflict_nd2nz README:
// a Copy writing its eight blocks 144 blocks apart, all in bank group 0, takes 8 beats a repeat;
// 145 apart, one). The contiguous model gave every stride one beat.
template <class T>
double StridedVectorCycles(const char* op, uint16_t dst_block, uint16_t src_block) {
  constexpr uint32_t kRepeats = 10;
  constexpr uint32_t kPerRepeat = 256 / sizeof(T);
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(0);
  Profiler prof;
  const std::string name = op;
  ascsim::Launch("strided_vector", 1, [=] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 192 * 1024);
    AscendC::LocalTensor<T> all = ub.Get<T>();
    // Sources from byte 0 (bank 0 of each group), the destination from 64 KB (bank 1): no
    // read-write bank conflict, only the strides' group conflicts.
    AscendC::LocalTensor<T> src = all;
    AscendC::LocalTensor<T> dst = all[65536 / sizeof(T)];
    if (name == "Copy") {
      AscendC::CopyRepeatParams p(dst_block, src_block, 1, 8);
      AscendC::Copy(dst, src, static_cast<uint64_t>(kPerRepeat), static_cast<uint8_t>(kRepeats), p);
    } else {
      AscendC::BinaryRepeatParams p;
      p.dstBlkStride = static_cast<uint8_t>(dst_block);
      p.src0BlkStride = static_cast<uint8_t>(src_block);
      p.src1BlkStride = 1;
      p.dstRepStride = 8;
      p.src0RepStride = 8;
      p.src1RepStride = 8;
      AscendC::LocalTensor<T> src1 = all[32768 / sizeof(T)];
      AscendC::Add(dst, src, src1, static_cast<uint64_t>(kPerRepeat),
                   static_cast<uint8_t>(kRepeats), p);
    }
  });
  const double us = calibration::CallUs(prof.Summary().at(0), name);
  EXPECT_GT(us, 0) << op << " not in the trace";
  return us * 1850;  // 1.85 GHz
}

template <class T>
void CheckBlockStrideBeats() {
  SCOPED_TRACE(sizeof(T) == 2 ? "half" : "float");
  // Copy: written blocks 144 apart (one group: 8 beats), 145 apart (8 groups), 8 apart (groups 0
  // and 8: 4 beats), 2 apart (8 groups), contiguous.
  EXPECT_NEAR(StridedVectorCycles<T>("Copy", 144, 1), 22 + 10 * 8, 1e-6);
  EXPECT_NEAR(StridedVectorCycles<T>("Copy", 145, 1), 22 + 10 * 1, 1e-6);
  EXPECT_NEAR(StridedVectorCycles<T>("Copy", 8, 1), 22 + 10 * 4, 1e-6);
  EXPECT_NEAR(StridedVectorCycles<T>("Copy", 2, 1), 22 + 10 * 1, 1e-6);
  EXPECT_NEAR(StridedVectorCycles<T>("Copy", 1, 1), 22 + 10 * 1, 1e-6);
  // Add: src0 read 16 blocks apart (one group, 8 beats; src1 adds one read in that group: 9).
  EXPECT_NEAR(StridedVectorCycles<T>("Add", 1, 16), 22 + 10 * 9, 1e-6);
  // src0 with block stride 0 (one block broadcast to the repeat): one row, read once; it and
  // src1's block 0 share a group: 2 beats.
  EXPECT_NEAR(StridedVectorCycles<T>("Add", 1, 0), 22 + 10 * 2, 1e-6);
  EXPECT_NEAR(StridedVectorCycles<T>("Add", 1, 1), 22 + 10 * 2, 1e-6);
}

TEST(ModelProfile, BlockStridesPlaceARepeatsBlocksInTheirBankGroups) {
  CheckBlockStrideBeats<half>();
  CheckBlockStrideBeats<float>();
}

// The seed's add_custom (queues, BUFFER_NUM 2, no L2 hint) on 8192 x 8192 half over 48 blocks:
// the conditions of the asc-devkit Add best practice's case 4 (double buffer, x, y, z through
// L2), published at 264.02 us (model_calibration_test.cpp has all six published versions).
TEST(ModelProfile, CalibrationAdd8192x8192) {
  const LaunchEstimate e = ProfileAdd(8192ull * 8192ull, 48);
  std::printf("add_custom 8192x8192 fp16, 48 blocks: Task Duration %.1f us (case 4: 264.02 us), "
              "bound %s\n",
              e.task_duration_us, e.bound.c_str());
  EXPECT_GE(e.task_duration_us, 264.02 * 0.85);
  EXPECT_LE(e.task_duration_us, 264.02 * 1.15);
  EXPECT_EQ(e.bound, "GM bandwidth");
  EXPECT_EQ(e.waves, 1u);
  EXPECT_EQ(e.gm_bytes, 3ull * 8192ull * 8192ull * 2ull);
  EXPECT_TRUE(e.memory.l2_thrashing);
}

TEST(ModelProfile, WavesBeyondTheCoreCount) {
  const LaunchEstimate one = ProfileAdd(96 * 8192, 48);
  const LaunchEstimate two = ProfileAdd(96 * 8192, 96);
  EXPECT_EQ(one.waves, 1u);
  EXPECT_EQ(two.waves, 2u);
  ASSERT_EQ(two.cores.size(), 96u);
  EXPECT_EQ(two.cores[48].core, 0u);
  EXPECT_EQ(two.cores[48].wave, 1u);
  // Block 48 runs on core 0 after the first wave ended.
  double wave0_end = 0;
  for (const auto& c : two.cores) {
    if (c.wave == 0) wave0_end = std::max(wave0_end, c.end_us);
  }
  for (const TimelineEvent& ev : two.events) {
    if (ev.wave == 1) {
      EXPECT_GE(ev.start_us, wave0_end - 1e-9);
    }
  }
  // Two waves of half-size blocks pay the DMA latency chain twice.
  EXPECT_GT(two.estimated_us, one.estimated_us);
}

TEST(ModelProfile, TraceStructureAndDependencies) {
  const uint64_t n = 8 * 4 * 8192;  // 8 blocks of 32768 halves: several tiles each
  AddBuffers buffers(n);
  Profiler prof;
  buffers.Run(8);
  const auto summary = prof.Summary();
  ASSERT_EQ(summary.size(), 1u);
  const LaunchEstimate& e = summary[0];

  const std::string path = TempPath("model_trace_structure.json");
  prof.SaveTrace(path);
  const std::string checked = CheckTraceWithPython(path);
  // 8 cores, 3 pipes each.
  EXPECT_EQ(checked, "8 24\n");

  // Every V op starts after the MTE2 that last filled each of its source buffers completed.
  std::map<std::pair<uint32_t, uint32_t>, double> filled;  // (block, buffer) -> data usable
  std::map<Pipe, int> per_pipe;
  for (const TimelineEvent& ev : e.events) ++per_pipe[ev.pipe];
  // One Add per tile; the tile size is the kernel's choice, so count the tiles from the trace.
  const int tiles = per_pipe[Pipe::kV];
  EXPECT_GE(tiles, 2 * 8);
  EXPECT_EQ(per_pipe[Pipe::kMte2], 2 * tiles);
  EXPECT_EQ(per_pipe[Pipe::kMte3], tiles);
  // Events come per block in program order, so a running map is enough.
  int checked_deps = 0;
  for (const TimelineEvent& ev : e.events) {
    const auto& call = CallOf(e, ev);
    if (ev.pipe == Pipe::kMte2) {
      filled[{ev.block, call.dst_buffer}] = ev.start_us + ev.dur_us + ev.latency_us;
    } else if (ev.pipe == Pipe::kV) {
      for (uint32_t src : call.src_buffers) {
        auto it = filled.find({ev.block, src});
        ASSERT_NE(it, filled.end());
        EXPECT_GE(ev.start_us, it->second - 1e-9);
        ++checked_deps;
      }
    }
  }
  EXPECT_EQ(checked_deps, 2 * tiles);
  std::remove(path.c_str());
}

TEST(ModelProfile, ProfilingDoesNotChangeResults) {
  const uint64_t n = 4 * 8192 + 77;
  AddBuffers plain(n), profiled(n);
  plain.Run(4);
  {
    Profiler prof;
    profiled.Run(4);
    EXPECT_EQ(prof.Summary().size(), 1u);
  }
  EXPECT_EQ(std::memcmp(plain.z, profiled.z, n * 2), 0);
}

TEST(ModelProfile, ObserversCoexist) {
  int seen_by_slot = 0;
  const int id = ascsim::AddLaunchObserver([&](const ascsim::LaunchRecord&) { ++seen_by_slot; });
  AddBuffers buffers(8192);
  {
    Profiler a;
    Profiler b;
    buffers.Run(2);
    b.Stop();
    buffers.Run(2);
    EXPECT_EQ(a.Summary().size(), 2u);
    EXPECT_EQ(b.Summary().size(), 1u);
  }
  ascsim::RemoveLaunchObserver(id);
  EXPECT_EQ(seen_by_slot, 2);
}

TEST(ModelProfile, EnvTraceHookWritesTrace) {
  const std::string path = TempPath("model_env_trace.json");
  std::remove(path.c_str());
  ascsim::host::InstallEnvTrace(path);
  Profiler alongside;
  AddBuffers buffers(4 * 2048);
  buffers.Run(4);
  ASSERT_TRUE(ascsim::host::FlushEnvTrace());
  EXPECT_EQ(alongside.Summary().size(), 1u);
  EXPECT_EQ(CheckTraceWithPython(path), "4 12\n");
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"kernel\":\"add_custom\""), std::string::npos);
  std::remove(path.c_str());
}

// ---------------------------------------------------------------------------------------------
// Double buffering. A test-only element-wise kernel in the GELU shape (CopyIn -> several vector
// ops with an Exp and a Div -> CopyOut) with the queue depth as a template parameter.
template <int32_t kBufferNum>
class DepthKernel {
public:
    void Init(GM_ADDR x, GM_ADDR y, uint32_t perBlock, uint32_t tile)
    {
        tileLength = tile;
        tileNum = perBlock / tile;
        const uint32_t start = perBlock * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + start, perBlock);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, perBlock);
        pipe.InitBuffer(inQueue, kBufferNum, tile * sizeof(float));
        pipe.InitBuffer(outQueue, kBufferNum, tile * sizeof(float));
        pipe.InitBuffer(work, tile * sizeof(float));
    }
    void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            AscendC::LocalTensor<float> in = inQueue.template AllocTensor<float>();
            AscendC::DataCopy(in, xGm[i * tileLength], tileLength);
            inQueue.EnQue(in);

            AscendC::LocalTensor<float> x = inQueue.template DeQue<float>();
            AscendC::LocalTensor<float> out = outQueue.template AllocTensor<float>();
            AscendC::LocalTensor<float> t = work.template Get<float>();
            AscendC::Mul(t, x, x, tileLength);
            AscendC::Adds(t, t, 1.0f, tileLength);
            AscendC::Exp(t, t, tileLength);
            AscendC::Div(out, x, t, tileLength);
            outQueue.EnQue(out);
            inQueue.FreeTensor(x);

            AscendC::LocalTensor<float> y = outQueue.template DeQue<float>();
            AscendC::DataCopy(yGm[i * tileLength], y, tileLength);
            outQueue.FreeTensor(y);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> work;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t tileLength = 0, tileNum = 0;
};

template <int32_t kBufferNum>
LaunchEstimate ProfileDepthKernel(uint32_t blocks, uint32_t per_block, uint32_t tile) {
  const uint64_t n = uint64_t{blocks} * per_block;
  void* x = ascsim::DeviceMalloc(n * 4);
  void* y = ascsim::DeviceMalloc(n * 4);
  std::vector<float> host(n, 0.5f);
  std::memcpy(x, host.data(), n * 4);
  Profiler prof;
  auto* gx = static_cast<GM_ADDR>(x);
  auto* gy = static_cast<GM_ADDR>(y);
  ascsim::Launch("depth_kernel", blocks, [=] {
    DepthKernel<kBufferNum> op;
    op.Init(gx, gy, per_block, tile);
    op.Process();
  });
  ascsim::DeviceFree(x);
  ascsim::DeviceFree(y);
  return prof.Summary().at(0);
}

TEST(ModelProfile, DoubleBufferingShortensTheEstimate) {
  const LaunchEstimate single = ProfileDepthKernel<1>(8, 16 * 4096, 4096);
  const LaunchEstimate dual = ProfileDepthKernel<2>(8, 16 * 4096, 4096);
  std::printf("depth kernel: BUFFER_NUM 1 %.2f us, BUFFER_NUM 2 %.2f us\n", single.estimated_us,
              dual.estimated_us);
  EXPECT_LT(dual.estimated_us, single.estimated_us * 0.9);
  // Same work either way: as many bytes moved (the pipe times differ: with two buffers more
  // transfers are in flight at once and share the bandwidth).
  EXPECT_EQ(dual.gm_bytes, single.gm_bytes);
  EXPECT_EQ(dual.memory.mte2_transfers, single.memory.mte2_transfers);
}

// How the load of tile k+1 sits against the compute of tile k on block 0: the k-th MTE2 event
// is tile k's load; the V events of tile k are the k-th group of `v_per_tile` vector calls
// (after `v_setup` vector calls made once before the first tile).
struct TilePairs {
  int prefetched = 0;   // loads of tile k+1 that start before tile k's compute ends
  int overlapping = 0;  // ... and whose [start, end) intersects that compute
  int pairs = 0;
};
TilePairs LoadAgainstCompute(const LaunchEstimate& e, size_t tiles, size_t v_per_tile,
                             size_t v_setup = 0) {
  std::vector<const TimelineEvent*> mte2, vec;
  for (const TimelineEvent& ev : e.events) {
    if (ev.block != 0) continue;
    if (ev.pipe == Pipe::kMte2) mte2.push_back(&ev);
    if (ev.pipe == Pipe::kV) vec.push_back(&ev);
  }
  if (vec.size() >= v_setup) vec.erase(vec.begin(), vec.begin() + static_cast<long>(v_setup));
  TilePairs out;
  EXPECT_EQ(mte2.size(), tiles);
  EXPECT_EQ(vec.size(), tiles * v_per_tile);
  if (mte2.size() != tiles || vec.size() != tiles * v_per_tile) return out;
  for (size_t k = 0; k + 1 < tiles; ++k) {
    const double v_begin = vec[k * v_per_tile]->start_us;
    const TimelineEvent* v_last = vec[(k + 1) * v_per_tile - 1];
    const double v_end = v_last->start_us + v_last->dur_us;
    const double l_begin = mte2[k + 1]->start_us, l_end = l_begin + mte2[k + 1]->dur_us;
    out.prefetched += l_begin < v_end;
    out.overlapping += l_begin < v_end && l_end > v_begin;
    ++out.pairs;
  }
  return out;
}

TEST(ModelProfile, SingleBufferLoadsWaitForCompute) {
  // BUFFER_NUM 1: the load of tile k+1 needs the one input buffer, freed after tile k's compute.
  const TilePairs single = LoadAgainstCompute(ProfileDepthKernel<1>(48, 8 * 4096, 4096), 8, 4);
  EXPECT_EQ(single.prefetched, 0);
  EXPECT_EQ(single.overlapping, 0);
  const TilePairs dual = LoadAgainstCompute(ProfileDepthKernel<2>(48, 8 * 4096, 4096), 8, 4);
  // BUFFER_NUM 2 (this kernel is GM bound at 48 cores, so not every load can start early).
  EXPECT_GT(dual.prefetched, 0);
  EXPECT_GT(dual.overlapping, 0);
}

// The shipped GELU kernel (GELU_BUFFER_NUM = 2) on all 48 cores: the load of tile k+1 never waits
// for the compute of tile k, and runs during it. (In the other pairs it ran even earlier, during
// tile k's own DMA latency: both buffers are loaded back to back.)
TEST(ModelProfile, GeluTraceShowsCopyComputeOverlap) {
  const uint32_t blocks = 48;
  const uint64_t n = uint64_t{blocks} * 8 * 4096;
  void* x = ascsim::DeviceMalloc(n * 2);
  void* y = ascsim::DeviceMalloc(n * 2);
  std::memset(x, 0, n * 2);
  Profiler prof;
  ascsim::kernels::LaunchGeluCustom(ElementType::kFloat16, x, y, n, blocks, nullptr);
  ascsim::DeviceFree(x);
  ascsim::DeviceFree(y);
  const LaunchEstimate e = prof.Summary().at(0);
  // The tile size is the kernel's choice: count the loads of block 0. Once per block: the
  // Duplicate of the clamp bound; per tile: Cast, Max, Mul, Muls, Adds, Mul, Muls, Exp, Adds,
  // Div, Cast.
  size_t loads = 0;
  for (const TimelineEvent& ev : e.events) loads += ev.block == 0 && ev.pipe == Pipe::kMte2;
  ASSERT_GE(loads, 4u);
  const TilePairs pairs = LoadAgainstCompute(e, loads, 11, 1);
  EXPECT_EQ(pairs.prefetched, pairs.pairs);
  EXPECT_GE(pairs.overlapping, pairs.pairs / 2);
}

// Scalar accesses go to pipe S.
extern "C" __global__ __aicore__ void model_scalar_sum(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    yGm.SetGlobalBuffer((__gm__ float *)y, 1);
    float sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        sum += xGm.GetValue(i);
    }
    yGm.SetValue(0, sum);
}

TEST(ModelProfile, ScalarAccessesOnPipeS) {
  const uint32_t n = 64;
  auto* x = static_cast<float*>(ascsim::DeviceMalloc(n * 4));
  auto* y = static_cast<float*>(ascsim::DeviceMalloc(4));
  for (uint32_t i = 0; i < n; ++i) x[i] = 1.0f;
  Profiler prof;
  auto* gx = reinterpret_cast<GM_ADDR>(x);
  auto* gy = reinterpret_cast<GM_ADDR>(y);
  ascsim::Launch("model_scalar_sum", 1, [=] { model_scalar_sum(gx, gy, n); });
  EXPECT_EQ(*y, 64.0f);
  ascsim::DeviceFree(x);
  ascsim::DeviceFree(y);
  const LaunchEstimate e = prof.Summary().at(0);
  // 65 GM scalar accesses of 200 cycles each, one after the other.
  EXPECT_NEAR(e.pipes.at("S"), 65 * 200.0 / 1850.0, 1e-9);
  EXPECT_NEAR(e.estimated_us, 65 * 200.0 / 1850.0, 1e-9);
  EXPECT_EQ(e.bound, "scalar");
}

// SyncAll is a barrier across the blocks: what follows it on any core starts after everything
// before it on every core has completed.
TEST(ModelProfile, SyncAllIsABarrierAcrossCores) {
  Profiler prof;
  ascsim::Launch("model_sync_all", 2, [] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::Duplicate(t, 0.0f, 16384);
    // Block 0 works long before the barrier, block 1 briefly.
    AscendC::Exp(t, t, AscendC::GetBlockIdx() == 0 ? 16384 : 64);
    AscendC::SyncAll();
    AscendC::Adds(t, t, 1.0f, 64);
  });
  const LaunchEstimate e = prof.Summary().at(0);
  double exp0_end = -1, exp0_dur = -1, adds1_start = -1;
  for (const TimelineEvent& ev : e.events) {
    const std::string name = CallOf(e, ev).name;
    if (ev.block == 0 && name == "Exp") {
      exp0_end = ev.start_us + ev.dur_us;
      exp0_dur = ev.dur_us;
    }
    if (ev.block == 1 && name == "Adds") adds1_start = ev.start_us;
  }
  ASSERT_GT(exp0_end, 0);
  EXPECT_NEAR(exp0_dur, (22 + 16384 / 32.0) / 1850.0, 1e-9);  // 32 Exp elements per cycle + head
  EXPECT_GE(adds1_start, exp0_end - 1e-12);
}

// SetFlag/WaitFlag order pipes the way the program says (and only then: TBuf has no queue).
double AddsStartAfterLoad(bool with_flags) {
  float* x = static_cast<float*>(ascsim::DeviceMalloc(4096 * 4));
  std::memset(x, 0, 4096 * 4);
  GM_ADDR gx = reinterpret_cast<GM_ADDR>(x);
  // Without the flags the kernel races on purpose (the model then overlaps copy and compute).
  ascsim::ScopedSettings saved;
  if (!with_flags) ascsim::SetSanitize(0);
  Profiler prof;
  ascsim::Launch("model_flags", 1, [gx, with_flags] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096 * 4);
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)gx, 4096);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xGm, 4096);
    if (with_flags) {
      AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    }
    AscendC::Adds(t, t, 1.0f, 4096);
  });
  ascsim::DeviceFree(x);
  const LaunchEstimate e = prof.Summary().at(0);
  EXPECT_EQ(e.events.size(), 2u);
  return e.events.back().start_us;
}

TEST(ModelProfile, FlagsOrderPipes) {
  // 16 KiB at one core's MTE2 engine rate (43200 B/us), then 0.02 us DMA latency before the
  // data may be read.
  EXPECT_NEAR(AddsStartAfterLoad(true), 16384 / 43200.0 + 0.02, 1e-9);
  EXPECT_NEAR(AddsStartAfterLoad(false), 0.0, 1e-12);
}

TEST(ModelProfile, TableListsEveryLaunch) {
  AddBuffers buffers(2 * 8192);
  Profiler prof;
  buffers.Run(2);
  buffers.Run(1);
  const std::string table = prof.ToTable();
  EXPECT_NE(table.find("estimate_us"), std::string::npos);
  size_t lines = 0, pos = 0;
  while ((pos = table.find("add_custom", pos)) != std::string::npos) ++lines, ++pos;
  EXPECT_EQ(lines, 2u);
}

}  // namespace

namespace {

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

// msprof's op_summary: its column names, a vector launch's aiv_* figures as the per-core means
// of the estimate and N/A for the aic_* columns.
TEST(ModelProfile, OpSummaryCsvInMsprofTerms) {
  AddBuffers buffers(8 * 4096);
  Profiler prof;
  buffers.Run(8);
  prof.Stop();
  const std::vector<LaunchEstimate> launches = prof.Summary();
  const std::string csv = ascsim::OpSummaryCsv(launches);
  std::istringstream in(csv);
  std::string header, row, extra;
  ASSERT_TRUE(std::getline(in, header));
  ASSERT_TRUE(std::getline(in, row));
  EXPECT_FALSE(std::getline(in, extra));
  EXPECT_EQ(header,
            "Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),"
            "Block Dim,Mix Block Dim,aic_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,"
            "aic_scalar_time(us),aic_scalar_ratio,aic_mte1_time(us),aic_mte1_ratio,"
            "aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,"
            "aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),"
            "aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio");
  const std::vector<std::string> names = SplitCsv(header), values = SplitCsv(row);
  ASSERT_EQ(names.size(), values.size());
  std::map<std::string, std::string> v;
  for (size_t i = 0; i < names.size(); ++i) v[names[i]] = values[i];
  const LaunchEstimate& e = launches.at(0);
  EXPECT_EQ(v["Op Name"], "add_custom");
  EXPECT_EQ(v["Task Type"], "AI_VECTOR_CORE");
  EXPECT_EQ(v["Block Dim"], "8");
  EXPECT_NEAR(std::stod(v["Task Duration(us)"]), e.task_duration_us, 1e-3);
  EXPECT_EQ(v["aic_time(us)"], "N/A");
  EXPECT_EQ(v["aic_mte2_ratio"], "N/A");
  double mte2 = 0, time = 0;
  for (const auto& c : e.cores) {
    mte2 += c.busy_us.at("MTE2") / 8;
    time += c.end_us / 8;
  }
  EXPECT_NEAR(std::stod(v["aiv_mte2_time(us)"]), mte2, 1e-3);
  EXPECT_NEAR(std::stod(v["aiv_time(us)"]), time, 1e-3);
  EXPECT_NEAR(std::stod(v["aiv_mte2_ratio"]), mte2 / time, 1e-3);
  EXPECT_EQ(std::stoull(v["aiv_total_cycles"]), static_cast<uint64_t>(time * 1850));
  // Written to a file as well.
  const std::string path = TempPath("op_summary_test.csv");
  prof.SaveOpSummary(path);
  std::ifstream file(path);
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, csv);
  std::remove(path.c_str());
  EXPECT_THROW(prof.SaveOpSummary("/nonexistent-dir/x.csv"), ascsim::InvalidArgument);
}

// explain() names the effects in msprof's terms: the busiest pipe with its ratio, the UB bank
// conflicts of a layout that has them, and what to try.
TEST(ModelProfile, ExplainNamesTheLimitingEffect) {
  AddBuffers buffers(2048);
  Profiler prof;
  auto* x = static_cast<GM_ADDR>(buffers.x);
  ascsim::Launch("model_conflict_add", 1, [=] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 192 * 1024);
    AscendC::LocalTensor<half> all = ub.Get<half>();
    AscendC::GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 2048);
    AscendC::DataCopy(all[0], xGm, 2048);
    AscendC::DataCopy(all[0x4000 / 2], xGm, 2048);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    for (int i = 0; i < 64; ++i) AscendC::Add(all[0x10000 / 2], all[0], all[0x4000 / 2], 2048);
  });
  const std::string text = ascsim::ExplainEstimate(prof.Summary().at(0));
  EXPECT_NE(text.find("Task Duration"), std::string::npos) << text;
  EXPECT_NE(text.find("aiv_vec_time"), std::string::npos) << text;
  EXPECT_NE(text.find("aiv_vec_ratio"), std::string::npos) << text;
  EXPECT_NE(text.find("UB bank conflicts"), std::string::npos) << text;
  EXPECT_NE(text.find("bank group"), std::string::npos) << text;
  EXPECT_NE(text.find("What to try here"), std::string::npos) << text;
}

}  // namespace
