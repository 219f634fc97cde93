// The call-record format: what a core records of each Ascend C API call while a launch is
// traced (profiling, ASCSIM_TRACE, the sanitizer), and what the cost model and reports read back.
// It is the one format the aicore layer (which writes records), the runtime (which collects one
// CoreTrace per block into a LaunchRecord) and the model (which replays them) share, so it is a
// public header: tools outside ascsim may read LaunchRecord::traces too.
//
// A record describes one call: its name, kind and pipe, how much it moved or computed, and the
// UB buffers it read and wrote (ids unique per core and launch) for dependencies. Recording never
// changes results; with no observer installed nothing is recorded.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ascsim/soc.h"

namespace ascsim::trace {

// The AI core's instruction pipes: S scalar, V vector, MTE2 GM->local, MTE3 local->GM, MTE1
// L1->L0, M cube, FIX L0C->out (DESIGN.md, "Facts about the hardware").
enum class Pipe : uint8_t { kS, kV, kMte1, kMte2, kMte3, kM, kFix, kNone };

// "S", "V", "MTE1", "MTE2", "MTE3", "M", "FIX"; "-" for kNone.
constexpr const char* PipeName(Pipe pipe) {
  switch (pipe) {
    case Pipe::kS:
      return "S";
    case Pipe::kV:
      return "V";
    case Pipe::kMte1:
      return "MTE1";
    case Pipe::kMte2:
      return "MTE2";
    case Pipe::kMte3:
      return "MTE3";
    case Pipe::kM:
      return "M";
    case Pipe::kFix:
      return "FIX";
    case Pipe::kNone:
      break;
  }
  return "-";
}

enum class CallKind : uint8_t {
  kVector,       // a vector instruction on UB operands (pipe V)
  kCopy,         // DataCopy / DataCopyPad (MTE2 GM->UB, MTE3 UB->GM, V for UB->UB)
  kScalar,       // GetValue / SetValue on GM or UB (pipe S)
  kAllocTensor,  // queue protocol; no pipe time, but ordering
  kEnQue,
  kDeQue,
  kFreeTensor,
  kSetFlag,
  kWaitFlag,
  kPipeBarrier,
  kSyncAll,
  kMmad,           // a cube Mmad (pipe M): elements = padded MACs, dtype_bytes = input size
  kCrossCoreSet,   // CrossCoreSetFlag: event = flag key, pipe = the pipe it waits for
  kCrossCoreWait,  // CrossCoreWaitFlag: event = flag key
};

// The data path of a cube-side copy, for its rate (SocProfile's MTE1 / FIX figures).
// kLocal: a copy between local memories of one core (UB <-> L1, Fill) that touches no GM.
enum class CubePath : uint8_t { kNone, kL1ToL0A, kL1ToL0B, kL1ToBt, kL0cOut, kLocal };

// Vector throughput classes (elements per cycle per core, from the SoC profile table).
// kGather: element-wise indexed reads (Gather); kSort: the sort/merge instructions (Sort32,
// MrgSort, ...), costed per element of the sorted lists.
enum class VectorClass : uint8_t {
  kSimple,
  kTranscendental,
  kReduce,
  kCast,
  kNone,
  kGather,
  kSort
};

constexpr uint32_t kNoBuffer = 0xFFFFFFFFu;
constexpr uint32_t kNoUbAddr = 0xFFFFFFFFu;

// The GlobalTensor::SetL2CacheHint mode of a copy's GM side, as the cost model sees it (the
// values of AscendC::CacheMode: asc-devkit kernel_utils_macros.h).
enum class L2Mode : uint8_t { kDisable = 0, kNormal = 1, kLast = 2, kPersistent = 4 };

struct ApiCall {
  const char* name;  // "Add", "DataCopy", "EnQue", ...: a string literal
  CallKind kind;
  Pipe pipe;
  VectorClass vector_class = VectorClass::kNone;
  uint8_t dtype_bytes = 0;          // element size of the operation
  uint64_t elements = 0;            // elements processed (vector) or moved (copy)
  uint64_t bytes = 0;               // bytes moved (copy) or touched (vector)
  uint32_t dst_buffer = kNoBuffer;  // buffer ids (unique per core and launch) for dependencies
  uint32_t src_buffers[2] = {kNoBuffer, kNoBuffer};
  uint32_t event = 0;  // SetFlag/WaitFlag: (src pipe, dst pipe, id) packed; PipeBarrier: pipe
  Pipe wait_src = Pipe::kNone;  // SetFlag/WaitFlag: producing pipe
  Pipe wait_dst = Pipe::kNone;  // SetFlag/WaitFlag: consuming pipe
  bool on_gm = false;           // a scalar access to GM (through the scalar cache), not to UB
  CubePath cube_path = CubePath::kNone;  // MTE1 / FIX copies: which path (rates differ)
  L2Mode l2_mode = L2Mode::kNormal;      // copies to/from GM: the GM tensor's L2 cache hint
  // Copies to/from GM: the device address of the first GM byte, and the GM side's layout as
  // `gm_rows` contiguous runs of `gm_run` bytes, `gm_pitch` bytes apart (one run: gm_rows 1).
  uint64_t gm_addr = 0;
  uint32_t gm_rows = 0;
  uint32_t gm_run = 0;
  uint64_t gm_pitch = 0;
  // UB byte offsets of dst, src0, src1 (kNoUbAddr: none), for UB bank conflicts: a vector
  // instruction reads and writes 8 blocks of 32 B per repeat from these addresses on.
  uint32_t ub_addr[3] = {kNoUbAddr, kNoUbAddr, kNoUbAddr};
  // Each operand's block stride and repeat stride in 32 B blocks, as the mask/repeat forms set
  // them (BinaryRepeatParams, UnaryRepeatParams, CopyRepeatParams); the defaults are contiguous
  // blocks, 8 per repeat.
  uint16_t ub_block_stride[3] = {1, 1, 1};
  uint16_t ub_repeat_stride[3] = {8, 8, 8};
  // kScalar: the cycles of scalar work the call stands for (an API's own bookkeeping); 0: one
  // GetValue/SetValue access.
  uint32_t work_cycles = 0;
};

// A scalar GetValue/SetValue (pipe S) on GM (`buffer` kNoBuffer) or on a UB buffer.
inline ApiCall ScalarCall(const char* name, uint8_t elem, bool write, bool on_gm, uint32_t buffer) {
  ApiCall call{};
  call.name = name;
  call.kind = CallKind::kScalar;
  call.pipe = Pipe::kS;
  call.dtype_bytes = elem;
  call.elements = 1;
  call.bytes = elem;
  call.on_gm = on_gm;
  if (write)
    call.dst_buffer = buffer;
  else
    call.src_buffers[0] = buffer;
  return call;
}

// Scalar work of an API (pipe S) of `cycles`. `blocking`: nothing after it is issued before it
// ends (work the next instructions depend on); otherwise it runs beside the other pipes.
inline ApiCall ScalarWorkCall(const char* name, uint32_t cycles, bool blocking) {
  ApiCall call{};
  call.name = name;
  call.kind = CallKind::kScalar;
  call.pipe = Pipe::kS;
  call.on_gm = blocking;
  call.work_cycles = cycles;
  return call;
}

// The calls of one core (one logical block) in program order.
struct CoreTrace {
  uint32_t block_idx = 0;
  // Mix launches record one trace per sub-core: the AIC (unit 1) and each AIV (unit 2,
  // sub_block 0/1) of the block; single-unit launches leave unit 0 (the block's only core).
  uint8_t unit = 0;
  uint8_t sub_block = 0;
  std::vector<ApiCall> calls;
};

}  // namespace ascsim::trace

namespace ascsim {

// What every launch leaves behind for observers (the profiler): the per-block call traces when
// recording was requested, and the wall time of the functional run.
struct LaunchRecord {
  std::string kernel;
  uint32_t block_dim = 0;
  const SocProfile* soc = nullptr;
  double wall_us = 0;
  bool failed = false;
  std::shared_ptr<const std::vector<trace::CoreTrace>> traces;  // one per block
};

}  // namespace ascsim
