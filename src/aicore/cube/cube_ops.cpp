// The cube instructions out of line (cube.h, cube_copy.h): every check with its one-line message,
// the data movement between GM, L1, L0A, L0B, L0C, BiasTable and UB, the Mmad arithmetic
// (mmad_kernel.inc) and the call records for the cost model (pipes MTE1, M, FIX, MTE2, MTE3).
//
// Sources (asc-devkit, docs/zh/api/SIMD-API/基础API/矩阵计算（ISASI）/...): LoadData_2D.md and
// scripts/load2d.py, LoadDataWithTranspose.md and scripts/load_data_with_transpose.py, Mmad.md,
// K-方向对齐约束.md, GEMV.md, GMToL1随路转换-ND2NZ搬运（DataCopy）.md,
// L0C到GM数据搬运（Fixpipe）.md, NZ2ND.md, 随路ReLU.md, L0C到UB数据搬运（DataCopy）.md, Fill.md,
// 通用说明和约束.md (alignment); impl/basic_api/dav_c220/kernel_operator_mm_impl.h (type
// combinations, cmatrixInitVal && !isBias) and kernel_operator_fixpipe_impl.h (the FixpipeParams<T>
// -> hardware parameter mapping).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "aicore/cube/mmad_kernel.h"
#include "aicore/simd/dtype_visit.h"
#include "ascsim/aicore/atomic.h"
#include "ascsim/aicore/cube.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/ceil_align.h"

namespace ascsim::aicore::cube {
namespace {

using AscendC::TPosition;
using simd::DType;

constexpr uint64_t kFractalBytes = 512;  // one L0A/L0B fractal (16 x 32 B)

const char* PositionOf(const Operand& op) {
  return AscendC::PositionName(static_cast<TPosition>(op.position));
}

size_t Elem(DType t) { return simd::DTypeSize(t); }

trace::ApiCall CubeRecord(const char* name, trace::CallKind kind, trace::Pipe pipe, uint64_t bytes,
                          uint8_t elem, uint32_t dst, uint32_t src0, uint32_t src1,
                          trace::CubePath path, bool on_gm) {
  trace::ApiCall call{};
  call.name = name;
  call.kind = kind;
  call.pipe = pipe;
  call.dtype_bytes = elem;
  call.bytes = bytes;
  call.elements = elem ? bytes / elem : 0;
  call.dst_buffer = dst;
  call.src_buffers[0] = src0;
  call.src_buffers[1] = src1;
  call.cube_path = path;
  call.on_gm = on_gm;
  return call;
}

// A cube instruction on an AIV, or on an AIV-assumed block of a probing launch.
void RequireCubeUnit(const char* call) {
  CoreContext& core = CurrentCore();
  RevealCubeUse(core, call);
  if (core.unit == CoreUnit::kAiv) {
    Fault(
        ErrorKind::kInvalidArgument,
        Str(call, ": cube instructions run on the AIC; this is an AIV of ", core.launch->soc->name,
            " (guard the cube code with ASCEND_IS_AIC and declare a mix kernel type, e.g. "
            "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2))",
            KernelModeNote()));
  }
}

[[noreturn]] void FaultParam(const char* call, const char* name, uint64_t value, uint64_t lo,
                             uint64_t hi) {
  Fault(ErrorKind::kInvalidArgument,
        Str(call, ": ", name, " ", value, " is outside [", lo, ", ", hi, "]"));
}

void CheckRange(const char* call, const char* name, uint64_t value, uint64_t lo, uint64_t hi) {
  if (value < lo || value > hi) FaultParam(call, name, value, lo, hi);
}

uint64_t CeilDiv(uint64_t a, uint64_t b) { return ascsim::CeilDiv(a, b); }

void RecordCall(const trace::ApiCall& call) {
  Record(CurrentCore(), [&] { return call; });
}

}  // namespace

// ---- operand checks ----

void RequireMemory(const char* call, const char* role, const Operand& op, Memory memory,
                   const char* positions) {
  if (op.memory == memory) return;
  Fault(ErrorKind::kInvalidArgument,
        Str(call, ": ", role, " is ", DescribeSlot(*op.slot), " in ", MemoryLongName(op.memory),
            " (TPosition::", PositionOf(op), "); it must be in ", MemoryLongName(memory), " (",
            positions, ")"));
}

void RequireAligned(const char* call, const char* role, const Operand& op, uint32_t align) {
  if (op.offset % align == 0) return;
  Fault(ErrorKind::kInvalidArgument, Str(call, ": ", role, " ", MemoryName(op.memory), " address ",
                                         Hex(op.offset), " is not ", align, "-byte aligned"));
}

void RequireExtent(const char* call, const char* role, const Operand& op, uint64_t bytes) {
  if (bytes <= op.bytes) return;
  const uint64_t es = Elem(op.dtype);
  FaultTensorRange(call, role, 0, CeilDiv(bytes, es), simd::DTypeName(op.dtype), op.bytes / es);
}

namespace {

// L0A or L0B destination of a load; returns the MTE1 path.
trace::CubePath RequireL0(const char* call, const Operand& dst) {
  if (dst.memory == Memory::kL0A) return trace::CubePath::kL1ToL0A;
  if (dst.memory == Memory::kL0B) return trace::CubePath::kL1ToL0B;
  Fault(ErrorKind::kInvalidArgument,
        Str(call, ": dst is ", DescribeSlot(*dst.slot), " in ", MemoryLongName(dst.memory),
            " (TPosition::", PositionOf(dst),
            "); it must be in the L0A Buffer (A2) or the L0B Buffer (B2)"));
}

void CopyBlocks(uint8_t* dst, const uint8_t* src, const BlockCopy& c) {
  for (uint64_t b = 0; b < c.count; ++b) {
    std::memcpy(dst + b * c.dst_pitch, src + b * c.src_pitch, c.len);
  }
}

}  // namespace

// ---- GM <-> L1 ----

namespace {
// The UB operands of cube-side paths (the 310P's local copies) tell the sanitizer which bytes
// they touch, as the vector side's operand checks do; L1/L0 bytes are not tracked.
void SanitizeUb(const Operand& op, trace::Pipe pipe, Access access, const Footprint& footprint,
                const char* call, const char* role) {
  if (op.memory != Memory::kUb || op.slot == nullptr || op.slot->sanitizer == nullptr) return;
  SanitizeLocal(op.slot->sanitizer, pipe, access, op.slot, op.data, footprint, call, role);
}
}  // namespace

void CopyGmToL1(const char* call, const Operand& dst, const uint8_t* src, const BlockCopy& copy,
                const GmSide& gm) {
  RequireCubeUnit(call);
  RequireAligned(call, "dst", dst, MemoryAlignment(dst.memory));
  RequireExtent(call, "dst", dst, copy.DstExtent());
  CopyBlocks(dst.data, src, copy);
  trace::ApiCall record = CubeRecord("DataCopy", trace::CallKind::kCopy, trace::Pipe::kMte2,
                                     copy.count * copy.len, static_cast<uint8_t>(Elem(dst.dtype)),
                                     dst.buffer, trace::kNoBuffer, trace::kNoBuffer,
                                     trace::CubePath::kNone, true);
  SetGmSide(record, src, gm, copy.count, copy.len, copy.src_pitch);
  RecordCall(record);
}

void CopyL1ToGm(const char* call, uint8_t* dst, const Operand& src, const BlockCopy& copy,
                const GmSide& gm) {
  RequireCubeUnit(call);
  // MTE3 stores accumulate under SetAtomicAdd/Max/Min on the device; this path copies, so it
  // refuses rather than overwrite what should accumulate.
  if (CurrentCore().sys.atomic_op != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": L1 -> GM under SetAtomicAdd/Max/Min is not simulated (atomic stores are "
                    "simulated for UB -> GM and Fixpipe); call SetAtomicNone first"));
  }
  RequireAligned(call, "src", src, MemoryAlignment(src.memory));
  RequireExtent(call, "src", src, copy.SrcExtent());
  CopyBlocks(dst, src.data, copy);
  trace::ApiCall record = CubeRecord("DataCopy", trace::CallKind::kCopy, trace::Pipe::kMte3,
                                     copy.count * copy.len, static_cast<uint8_t>(Elem(src.dtype)),
                                     trace::kNoBuffer, src.buffer, trace::kNoBuffer,
                                     trace::CubePath::kNone, true);
  SetGmSide(record, dst, gm, copy.count, copy.len, copy.dst_pitch);
  RecordCall(record);
}

// ---- between local memories ----

void CopyLocal(const char* call, const Operand& dst, const Operand& src,
               const AscendC::DataCopyParams* params, uint64_t count_bytes) {
  const SocProfile& soc = *CurrentCore().launch->soc;
  // Units of blockLen / srcStride / dstStride per path (impl/basic_api/utils/
  // kernel_utils_mode_cpu.h, non-3510: L1->BT 64/32/64 B; the UB/L1 paths use 32 B blocks).
  uint64_t len_unit = 32, src_unit = 32, dst_unit = 32;
  trace::Pipe pipe = trace::Pipe::kV;
  trace::CubePath path = trace::CubePath::kNone;
  const Memory s = src.memory, d = dst.memory;
  if (s == Memory::kUb && d == Memory::kUb) {
    pipe = trace::Pipe::kV;
  } else if (s == Memory::kL1 && d == Memory::kBt) {
    len_unit = 64;
    dst_unit = 64;
    pipe = trace::Pipe::kMte1;
    path = trace::CubePath::kL1ToBt;
  } else if (s == Memory::kL1 && d == Memory::kFb) {
    len_unit = 128;
    dst_unit = 128;
    pipe = trace::Pipe::kMte1;
    path = trace::CubePath::kL1ToBt;
  } else if (s == Memory::kUb && d == Memory::kL1) {
    pipe = trace::Pipe::kMte3;
    path = trace::CubePath::kLocal;
  } else if (s == Memory::kL1 && d == Memory::kUb) {
    pipe = trace::Pipe::kMte1;
    path = trace::CubePath::kLocal;
  } else {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", MemoryName(s), " (TPosition::", PositionOf(src), ") -> ", MemoryName(d),
              " (TPosition::", PositionOf(dst), ") is not a DataCopy path on ", soc.name,
              s == Memory::kL1 && (d == Memory::kL0A || d == Memory::kL0B)
                  ? " (L1 -> L0A/L0B is LoadData)"
              : s == Memory::kL0C ? " (L0C results leave through Fixpipe)"
                                  : ""));
  }
  if (s != Memory::kUb || d != Memory::kUb) RequireCubeUnit(call);
  // The one converting path: L1 half -> BiasTable float on A2/A3, blockLen counting 64 B of the
  // source and each block writing twice as many bytes (asc-devkit impl/basic_api/utils/
  // kernel_check_data_copy_util.h: "for copy_cbuf_to_bt half->float", dst burst unit x 2).
  const bool bias_conv = s == Memory::kL1 && d == Memory::kBt && src.dtype == simd::DType::kF16 &&
                         dst.dtype == simd::DType::kF32 && params != nullptr;
  if (src.dtype != dst.dtype && !bias_conv) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": src ", simd::DTypeName(src.dtype), " and dst ", simd::DTypeName(dst.dtype),
              " differ", s == Memory::kL1 && d == Memory::kBt
                             ? " (L1 -> BiasTable converts half to float only)"
                             : ""));
  }
  BlockCopy copy;
  if (params != nullptr) {
    copy.count = params->blockCount;
    copy.len = uint64_t{params->blockLen} * len_unit;
    copy.src_pitch = copy.len + uint64_t{params->srcStride} * src_unit;
    copy.dst_pitch = copy.len + uint64_t{params->dstStride} * dst_unit;
  } else {
    copy.count = 1;
    copy.len = count_bytes;
  }
  if (copy.count == 0 || copy.len == 0) return;
  if (bias_conv) {
    BlockCopy out = copy;  // the float side: twice the bytes per block
    out.len = copy.len * 2;
    out.dst_pitch = out.len + uint64_t{params->dstStride} * dst_unit;
    RequireAligned(call, "dst", dst, MemoryAlignment(d));
    RequireAligned(call, "src", src, MemoryAlignment(s));
    RequireExtent(call, "dst", dst, out.DstExtent());
    RequireExtent(call, "src", src, copy.SrcExtent());
    SanitizeUb(src, pipe, Access::kRead, Footprint::Rows(copy.count, copy.len, copy.src_pitch),
               call, "src");
    SanitizeUb(dst, pipe, Access::kWrite, Footprint::Rows(out.count, out.len, out.dst_pitch), call,
               "dst");
    for (uint64_t b = 0; b < copy.count; ++b) {
      const uint8_t* in = src.data + b * copy.src_pitch;
      uint8_t* o = dst.data + b * out.dst_pitch;
      for (uint64_t i = 0; i < copy.len / 2; ++i) {
        half h;
        std::memcpy(&h, in + 2 * i, 2);
        const float f = static_cast<float>(h);
        std::memcpy(o + 4 * i, &f, 4);
      }
    }
    RecordCall(CubeRecord("DataCopy", trace::CallKind::kCopy, pipe, copy.count * out.len, 4,
                          dst.buffer, src.buffer, trace::kNoBuffer, path, false));
    return;
  }
  RequireAligned(call, "dst", dst, MemoryAlignment(d));
  RequireAligned(call, "src", src, MemoryAlignment(s));
  RequireExtent(call, "dst", dst, copy.DstExtent());
  RequireExtent(call, "src", src, copy.SrcExtent());
  if (s == d && dst.data < src.data + copy.SrcExtent() && src.data < dst.data + copy.DstExtent() &&
      dst.data != src.data) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": dst ", MemoryName(d), " [", Hex(dst.offset), ", ",
              Hex(dst.offset + copy.DstExtent()), ") partially overlaps src [", Hex(src.offset),
              ", ", Hex(src.offset + copy.SrcExtent()), ")"));
  }
  SanitizeUb(src, pipe, Access::kRead, Footprint::Rows(copy.count, copy.len, copy.src_pitch), call,
             "src");
  SanitizeUb(dst, pipe, Access::kWrite, Footprint::Rows(copy.count, copy.len, copy.dst_pitch), call,
             "dst");
  CopyBlocks(dst.data, src.data, copy);
  RecordCall(CubeRecord("DataCopy", trace::CallKind::kCopy, pipe, copy.count * copy.len,
                        static_cast<uint8_t>(Elem(dst.dtype)), dst.buffer, src.buffer,
                        trace::kNoBuffer, path, false));
}

// ---- GM -> L1 with ND -> NZ ----

void Nd2Nz(const char* call, const Operand& dst, const uint8_t* src, const AscendC::Nd2NzParams& p,
           const GmSide& gm) {
  CoreContext& core = CurrentCore();
  const bool coupled = !core.launch->soc->split_cores;
  // 310P also converts on the way into UB (GMToUB随路转换ND2NZ); A2 only into L1.
  if (!(dst.memory == Memory::kL1 || (coupled && dst.memory == Memory::kUb))) {
    RequireMemory(call, "dst", dst, Memory::kL1, "A1/B1/C1/TSCM");
  }
  if (dst.memory == Memory::kL1) RequireCubeUnit(call);
  CheckRange(call, "ndNum", p.ndNum, 0, 4095);
  CheckRange(call, "nValue", p.nValue, 0, 16384);
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;  // a NOP on the device
  CheckRange(call, "srcDValue", p.srcDValue, 1, 65535);
  CheckRange(call, "dstNzC0Stride", p.dstNzC0Stride, 1, 16384);
  CheckRange(call, "dstNzNStride", p.dstNzNStride, 1, 16384);
  CheckRange(call, "dstNzMatrixStride", p.dstNzMatrixStride, 0, 16384);
  const uint64_t es = Elem(dst.dtype);
  if (es == 8) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", simd::DTypeName(dst.dtype), " is not a type of the ND2NZ copy"));
  }
  const uint64_t c0 = 32 / es;  // elements per 32 B C0 block
  const uint64_t blocks = CeilDiv(p.dValue, c0);
  // Adjacent column stripes must not overlap: with one C0 block per row (dstNzNStride 1), the
  // stripes must be at least nValue blocks apart (the device does not detect it; the data would
  // be overwritten in an unspecified order).
  if (blocks > 1 && p.dstNzNStride == 1 && p.dstNzC0Stride < p.nValue) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": dstNzC0Stride ", p.dstNzC0Stride, " is less than nValue ", p.nValue,
              ": the ", blocks, " column stripes of 16 x ", c0,
              " would overlap in L1 (use dstNzC0Stride >= nValue, e.g. the row count rounded up "
              "to 16)"));
  }
  RequireAligned(call, "dst", dst, MemoryAlignment(dst.memory));
  const uint64_t extent =
      (uint64_t{p.ndNum - 1u} * p.dstNzMatrixStride + (blocks - 1) * p.dstNzC0Stride * c0 +
       uint64_t{p.nValue - 1u} * p.dstNzNStride * c0 + c0) *
      es;
  RequireExtent(call, "dst", dst, extent);
  if (dst.memory == Memory::kUb) {  // each row: `blocks` C0 blocks, dstNzC0Stride blocks apart
    for (uint64_t i = 0; i < p.ndNum; ++i) {
      for (uint64_t r = 0; r < p.nValue; ++r) {
        Operand row = dst;
        row.data = dst.data + (i * p.dstNzMatrixStride + r * p.dstNzNStride * c0) * es;
        SanitizeUb(row, trace::Pipe::kMte2, Access::kWrite,
                   Footprint::Rows(blocks, c0 * es, uint64_t{p.dstNzC0Stride} * c0 * es), call,
                   "dst");
      }
    }
  }
  const uint64_t tail = p.dValue % c0;
  for (uint64_t i = 0; i < p.ndNum; ++i) {
    const uint8_t* sm = src + i * p.srcNdMatrixStride * es;
    uint8_t* dm = dst.data + i * p.dstNzMatrixStride * es;
    for (uint64_t r = 0; r < p.nValue; ++r) {
      const uint8_t* srow = sm + r * p.srcDValue * es;
      uint8_t* drow = dm + r * p.dstNzNStride * c0 * es;
      for (uint64_t b = 0; b < blocks; ++b) {
        uint8_t* dblk = drow + b * p.dstNzC0Stride * c0 * es;
        const uint64_t n = (b + 1 == blocks && tail != 0) ? tail : c0;
        std::memcpy(dblk, srow + b * c0 * es, n * es);
        if (n < c0) std::memset(dblk + n * es, 0, (c0 - n) * es);  // padded to 32 B with 0
      }
    }
  }
  trace::ApiCall record = CubeRecord("DataCopy", trace::CallKind::kCopy, trace::Pipe::kMte2,
                                     uint64_t{p.ndNum} * p.nValue * p.dValue * es,
                                     static_cast<uint8_t>(es), dst.buffer, trace::kNoBuffer,
                                     trace::kNoBuffer, trace::CubePath::kNone, true);
  // The GM tensor's L2 cache hint (CACHE_MODE_DISABLE: the read bypasses L2), as vector copies
  // record it.
  record.l2_mode = gm.l2_mode;
  // The GM side (one ND matrix: nValue rows of dValue elements, srcDValue apart), so that the
  // cost model sees which L2 lines a Matmul's A and B blocks touch again.
  if (p.ndNum == 1) SetGmSide(record, src, gm, p.nValue, p.dValue * es, uint64_t{p.srcDValue} * es);
  RecordCall(record);
}

// ---- LoadData ----

namespace {

void Transpose16x16(uint8_t* dst, const uint8_t* src) {
  const uint16_t* s = reinterpret_cast<const uint16_t*>(src);
  uint16_t* d = reinterpret_cast<uint16_t*>(dst);
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) d[r * 16 + c] = s[c * 16 + r];
  }
}

// The fractals one LoadData (2D) moves; shared by the L1 and GM sources.
void RunLoad2D(const char* call, const Operand& dst, const uint8_t* src_base, uint64_t src_bytes,
               const AscendC::LoadData2DParams& p) {
  const uint64_t dst_extent = (uint64_t{p.repeatTimes - 1u} * (p.dstGap + 1u) + 1) * kFractalBytes;
  RequireExtent(call, "dst", dst, dst_extent);
  for (uint64_t i = 0; i < p.repeatTimes; ++i) {
    const uint64_t index = p.addrMode == 0 ? p.startIndex + uint64_t{p.srcStride} * i
                                           : p.startIndex - uint64_t{p.srcStride} * i;
    const uint8_t* s = src_base + index * kFractalBytes;
    uint8_t* d = dst.data + i * (p.dstGap + 1u) * kFractalBytes;
    if (index * kFractalBytes + kFractalBytes > src_bytes) break;  // checked by the caller
    if (p.ifTranspose) {
      Transpose16x16(d, s);
    } else {
      std::memcpy(d, s, kFractalBytes);
    }
  }
}

void CheckLoadCommon(const char* call, const Operand& dst, DType src_t,
                     const AscendC::LoadData2DParams& p, bool from_gm) {
  if (p.ifTranspose && Elem(src_t) != 2) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call,
              ": ifTranspose needs a 16-bit type (half, bfloat16_t, int16_t, uint16_t); "
              "got ",
              simd::DTypeName(src_t), " (use LoadDataWithTranspose for 8- and 32-bit types)"));
  }
  if (p.ifTranspose && from_gm) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ifTranspose is only available from L1 (A1/B1) to L0A/L0B, not from GM"));
  }
  if (p.addrMode != 0 && !(from_gm && dst.memory == Memory::kL1)) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": addrMode ", static_cast<int>(p.addrMode),
              " (decreasing source index) is only available for GM -> L1"));
  }
  if (p.addrMode != 0 && uint64_t{p.srcStride} * (p.repeatTimes - 1u) > p.startIndex) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": addrMode 1 from startIndex ", p.startIndex, " with srcStride ", p.srcStride,
              " x ", static_cast<int>(p.repeatTimes) - 1, " repeats runs below fractal 0"));
  }
  RequireAligned(call, "dst", dst, MemoryAlignment(dst.memory));
}

}  // namespace

void LoadData2D(const char* call, const Operand& dst, const Operand& src,
                const AscendC::LoadData2DParams& p) {
  RequireCubeUnit(call);
  RequireMemory(call, "src", src, Memory::kL1, "A1/B1");
  const trace::CubePath path = RequireL0(call, dst);
  if (p.repeatTimes == 0) return;  // a NOP on the device
  CheckLoadCommon(call, dst, src.dtype, p, false);
  RequireAligned(call, "src", src, MemoryAlignment(src.memory));
  const uint64_t last = p.startIndex + uint64_t{p.srcStride} * (p.repeatTimes - 1u);
  RequireExtent(call, "src", src, (last + 1) * kFractalBytes);
  RunLoad2D(call, dst, src.data, src.bytes, p);
  RecordCall(CubeRecord("LoadData", trace::CallKind::kCopy, trace::Pipe::kMte1,
                        uint64_t{p.repeatTimes} * kFractalBytes,
                        static_cast<uint8_t>(Elem(dst.dtype)), dst.buffer, src.buffer,
                        trace::kNoBuffer, path, false));
}

void LoadData2DFromGm(const char* call, const Operand& dst, const uint8_t* src,
                      const AscendC::LoadData2DParams& p) {
  RequireCubeUnit(call);
  if (dst.memory != Memory::kL1) RequireL0(call, dst);
  if (p.repeatTimes == 0) return;
  CheckLoadCommon(call, dst, dst.dtype, p, true);
  RunLoad2D(call, dst, src, ~uint64_t{0}, p);
  RecordCall(CubeRecord("LoadData", trace::CallKind::kCopy, trace::Pipe::kMte2,
                        uint64_t{p.repeatTimes} * kFractalBytes,
                        static_cast<uint8_t>(Elem(dst.dtype)), dst.buffer, trace::kNoBuffer,
                        trace::kNoBuffer, trace::CubePath::kNone, true));
}

void LoadDataWithTranspose(const char* call, const Operand& dst, const Operand& src,
                           const AscendC::LoadData2dTransposeParams& p) {
  RequireCubeUnit(call);
  CoreContext& core = CurrentCore();
  if (!core.launch->soc->split_cores) {
    Fault(ErrorKind::kInvalidArgument, Str(call, ": not available on ", core.launch->soc->name,
                                           " (use LoadData with ifTranspose for 16-bit types)"));
  }
  RequireMemory(call, "src", src, Memory::kL1, "A1/B1");
  const trace::CubePath path = RequireL0(call, dst);
  if (p.repeatTimes == 0) return;
  const uint64_t es = Elem(src.dtype);
  if (es != 1 && es != 2 && es != 4) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", simd::DTypeName(src.dtype), " is not a type of LoadDataWithTranspose"));
  }
  if (p.addrMode != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": addrMode ", static_cast<int>(p.addrMode), " is not simulated; use 0"));
  }
  RequireAligned(call, "dst", dst, MemoryAlignment(dst.memory));
  RequireAligned(call, "src", src, MemoryAlignment(src.memory));
  // One repeat transposes a square of 512 B (b16: one 16x16 fractal) or 1024 B (b8: 32x32 from
  // two 16x32 fractals; b32: 16x16 from two 16x8 fractals) into one or two destination fractals.
  const uint64_t square = es == 2 ? kFractalBytes : 2 * kFractalBytes;
  const uint64_t fracs = es == 2 ? 1 : 2;
  const uint64_t last = p.startIndex + uint64_t{p.srcStride} * (p.repeatTimes - 1u);
  RequireExtent(call, "src", src, (last + 1) * square);
  const uint64_t dst_extent = uint64_t{p.repeatTimes - 1u} * (p.dstGap + 1u) * kFractalBytes +
                              (fracs - 1) * (p.dstFracGap + 1u) * kFractalBytes + kFractalBytes;
  RequireExtent(call, "dst", dst, dst_extent);
  for (uint64_t i = 0; i < p.repeatTimes; ++i) {
    const uint8_t* sq = src.data + (p.startIndex + uint64_t{p.srcStride} * i) * square;
    uint8_t* base = dst.data + i * (p.dstGap + 1u) * kFractalBytes;
    if (es == 2) {
      Transpose16x16(base, sq);
      continue;
    }
    for (uint64_t j = 0; j < 2; ++j) {
      uint8_t* frac = base + j * (p.dstFracGap + 1u) * kFractalBytes;
      if (es == 1) {  // S is 32 x 32 (row-major); fractal j holds rows 16j..16j+15 of S^T
        for (int k = 0; k < 16; ++k) {
          for (int c = 0; c < 32; ++c) frac[k * 32 + c] = sq[c * 32 + j * 16 + k];
        }
      } else {  // S = [F0 | F1], 16 x 16 of 16 x 8 fractals; fractal j holds S^T's columns 8j..
        const uint32_t* f0 = reinterpret_cast<const uint32_t*>(sq);
        const uint32_t* f1 = f0 + 128;
        uint32_t* d = reinterpret_cast<uint32_t*>(frac);
        for (int k = 0; k < 16; ++k) {  // row k of the destination = column k of S
          for (int c = 0; c < 8; ++c) {
            const int row = static_cast<int>(j) * 8 + c;  // S row
            d[k * 8 + c] = k < 8 ? f0[row * 8 + k] : f1[row * 8 + (k - 8)];
          }
        }
      }
    }
  }
  RecordCall(CubeRecord("LoadDataWithTranspose", trace::CallKind::kCopy, trace::Pipe::kMte1,
                        uint64_t{p.repeatTimes} * square, static_cast<uint8_t>(es), dst.buffer,
                        src.buffer, trace::kNoBuffer, path, false));
}

// ---- Mmad ----

namespace {

struct MmadTypes {
  DType c, a, b;
};

bool SupportedMmad(const SocProfile& soc, DType c, DType a, DType b) {
  const MmadTypes a2[] = {{DType::kI32, DType::kI8, DType::kI8},
                          {DType::kF32, DType::kF16, DType::kF16},
                          {DType::kF32, DType::kF32, DType::kF32},
                          {DType::kF32, DType::kBF16, DType::kBF16}};
  const MmadTypes p310[] = {{DType::kI32, DType::kI8, DType::kI8},
                            {DType::kI32, DType::kU8, DType::kI8},
                            {DType::kI32, DType::kU8, DType::kU8},
                            {DType::kF16, DType::kF16, DType::kF16},
                            {DType::kF32, DType::kF16, DType::kF16}};
  if (soc.split_cores) {
    for (const auto& t : a2) {
      if (t.c == c && t.a == a && t.b == b) return true;
    }
    return false;
  }
  for (const auto& t : p310) {
    if (t.c == c && t.a == a && t.b == b) return true;
  }
  return false;
}

}  // namespace

void Mmad(const char* call, const Operand& dst, const Operand& fm, const Operand& filter,
          const Operand* bias, const AscendC::MmadParams& p) {
  RequireCubeUnit(call);
  CoreContext& core = CurrentCore();
  const SocProfile& soc = *core.launch->soc;
  RequireMemory(call, "dst", dst, Memory::kL0C, "CO1");
  RequireMemory(call, "fm", fm, Memory::kL0A, "A2");
  RequireMemory(call, "filter", filter, Memory::kL0B, "B2");
  if (!SupportedMmad(soc, dst.dtype, fm.dtype, filter.dtype)) {
    Fault(
        ErrorKind::kInvalidArgument,
        Str(call, ": dst ", simd::DTypeName(dst.dtype), " <- fm ", simd::DTypeName(fm.dtype),
            " x filter ", simd::DTypeName(filter.dtype), " is not a type combination of ", soc.name,
            soc.split_cores ? " (float <- half x half, float <- bfloat16_t x bfloat16_t, "
                              "float <- float x float, int32_t <- int8_t x int8_t)"
                            : " (float|half <- half x half, int32_t <- int8_t/uint8_t x "
                              "int8_t/uint8_t)"));
  }
  if (bias != nullptr) {
    if (!soc.split_cores) {
      Fault(ErrorKind::kInvalidArgument,
            Str(call, ": the overload with a bias tensor is not available on ", soc.name));
    }
    RequireMemory(call, "bias", *bias, Memory::kBt, "C2");
    const DType want = dst.dtype == DType::kI32 ? DType::kI32 : DType::kF32;
    if (bias->dtype != want) {
      Fault(ErrorKind::kInvalidArgument,
            Str(call, ": bias is ", simd::DTypeName(bias->dtype), "; for a ",
                simd::DTypeName(dst.dtype), " result it must be ", simd::DTypeName(want)));
    }
  }
  CheckRange(call, "m", p.m, 0, 4095);
  CheckRange(call, "n", p.n, 0, 4095);
  CheckRange(call, "k", p.k, 0, 4095);
  if (p.m == 0 || p.n == 0 || p.k == 0) return;  // a NOP on the device
  if (p.cmatrixSource && bias == nullptr && !(p.cmatrixInitVal && !p.isBias)) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call,
              ": cmatrixSource = true starts C from the BiasTable; pass the bias tensor "
              "(the Mmad overload with a C2 bias) so that the simulator knows which bytes"));
  }
  RequireAligned(call, "dst", dst, MemoryAlignment(Memory::kL0C));
  RequireAligned(call, "fm", fm, MemoryAlignment(Memory::kL0A));
  RequireAligned(call, "filter", filter, MemoryAlignment(Memory::kL0B));
  if (bias != nullptr) RequireAligned(call, "bias", *bias, MemoryAlignment(Memory::kBt));
  const uint64_t ea = Elem(fm.dtype), ec = Elem(dst.dtype);
  const uint64_t k0 = 32 / ea;
  uint64_t k1 = CeilDiv(p.k, k0);
  if (p.kDirectionAlign && fm.dtype == DType::kF32) k1 = CeilDiv(p.k, 16) * 2;  // K to 16
  const uint64_t m1 = CeilDiv(p.m, 16), n1 = CeilDiv(p.n, 16);
  const bool gemv = p.m == 1;  // GEMV: A is a plain 1 x K row (Mmad.md, GEMV.md)
  RequireExtent(call, "fm", fm, gemv ? uint64_t{p.k} * ea : m1 * k1 * kFractalBytes);
  RequireExtent(call, "filter", filter, CeilDiv(p.k, k0) * n1 * kFractalBytes);
  RequireExtent(call, "dst", dst, n1 * m1 * 256 * ec);
  if (bias != nullptr) RequireExtent(call, "bias", *bias, uint64_t{p.n} * 4);

  // cmatrixInitVal && !isBias: C = A x B. Otherwise the C2 bias (BiasTable) or L0C itself.
  // (impl/basic_api/dav_c220/kernel_operator_mm_impl.h MmadCal; the bias overload forces
  // cmatrixSource.)
  const bool init = p.cmatrixInitVal && !p.isBias;
  if (bias != nullptr && init) {
    Warn(Str(call,
             ": a bias tensor with cmatrixInitVal = true: the device starts C from 0 and "
             "ignores the bias (set mmadParams.cmatrixInitVal = false)"),
         "Mmad/bias-ignored");
  }
  MmadJob job;
  job.a = fm.data;
  job.b = filter.data;
  job.c = dst.data;
  job.bias = bias != nullptr ? bias->data : nullptr;
  job.a_t = fm.dtype;
  job.b_t = filter.dtype;
  job.c_t = dst.dtype;
  job.bias_t = bias != nullptr ? bias->dtype : DType::kF32;
  job.m = p.m;
  job.n = p.n;
  job.k = p.k;
  job.a_k1 = static_cast<int>(k1);
  job.gemv = gemv;
  job.init = init ? MmadInit::kZero : (bias != nullptr ? MmadInit::kBias : MmadInit::kAccumulate);
  MmadCompute(job);
  Record(core, [&] {
    // The cube's work: the fractal-padded product (ceil16(m) x ceil16(n) x ceil_k0(k)).
    trace::ApiCall rec =
        CubeRecord("Mmad", trace::CallKind::kMmad, trace::Pipe::kM, 0, static_cast<uint8_t>(ea),
                   dst.buffer, fm.buffer, filter.buffer, trace::CubePath::kNone, false);
    rec.elements = m1 * 16 * n1 * 16 * CeilDiv(p.k, k0) * k0;
    rec.bytes = 0;
    return rec;
  });
}

// ---- Fixpipe ----

void FixpipeFromV220(FixpipeArgs& a, const AscendC::FixpipeParamsV220& p, bool nd) {
  a.n = p.nSize;
  a.m = p.mSize;
  a.src_stride = p.srcStride;
  a.dst_stride = p.dstStride;
  a.nd = nd;
  a.nd_num = nd ? p.ndNum : 1;
  a.src_nd_stride = uint64_t{p.srcNdStride} * 256;  // 16 x C0 units: one 16 x 16 fractal
  a.dst_nd_stride = p.dstNdStride;
  a.quant = p.quantPre;
  a.deq_scalar = p.deqScalar;
  a.relu = p.reluEn;
  a.channel_split = p.isChannelSplit;
}

void FixpipeFromLegacy(FixpipeArgs& a, uint16_t cburst, uint16_t burst_len, uint16_t src_stride,
                       uint32_t dst_stride, const AscendC::QuantParams& q, bool relu,
                       const AscendC::Nz2NdParams& nd, uint32_t dst_elem, uint32_t src_elem) {
  // impl/basic_api/dav_c220/kernel_operator_fixpipe_impl.h FixpipeInfoParams: burstLen counts
  // 32 B of the (4-byte) L0C type per 16-element row, the source gap is in 256-element units.
  const uint32_t m = burst_len * 32u / src_elem / 16u;
  const uint32_t round_m = (m + 15u) / 16u * 16u;
  a.m = m;
  a.n = cburst * 16u;
  a.src_stride = src_stride * 16u + round_m;
  a.nd = nd.nz2ndEn;
  if (nd.nz2ndEn) {
    a.dst_stride = dst_stride;
    a.n = nd.originalNSize;
    a.nd_num = nd.ndNum;
    a.src_nd_stride = uint64_t{nd.srcNdStride} * 256;
    a.dst_nd_stride = nd.dstNdStride;
  } else {
    a.dst_stride = dst_stride + burst_len * dst_elem / src_elem;
    a.nd_num = 1;
  }
  a.quant = q.quantPre;
  a.deq_scalar = q.deqScalar;
  a.relu = relu;
}

uint64_t FixpipeDstExtent(const FixpipeArgs& a, uint64_t dst_elem) {
  if (a.n == 0 || a.m == 0 || a.nd_num == 0) return 0;
  if (a.nd) {
    return uint64_t{a.nd_num - 1u} * a.dst_nd_stride + uint64_t{a.m - 1u} * a.dst_stride + a.n;
  }
  return (CeilDiv(a.n, 16) - 1) * a.dst_stride * 32 / dst_elem + uint64_t{a.m} * 16;
}

Footprint FixpipeDstFootprint(const FixpipeArgs& a, uint64_t dst_elem) {
  if (a.nd && a.nd_num == 1 && a.m > 1 && a.dst_stride >= a.n) {
    return Footprint::Rows(a.m, uint64_t{a.n} * dst_elem, a.dst_stride * dst_elem);
  }
  return Footprint::Bytes(FixpipeDstExtent(a, dst_elem) * dst_elem);
}

namespace {

// The quantPre a source/destination pair needs on A2 (L0C到GM数据搬运（Fixpipe）.md).
QuantMode_t NeededQuant(DType src, DType dst) {
  if (src == dst) return QuantMode_t::NoQuant;
  if (src == DType::kF32) {
    if (dst == DType::kF16) return QuantMode_t::F322F16;
    if (dst == DType::kBF16) return QuantMode_t::F322BF16;
    if (dst == DType::kI8 || dst == DType::kU8) return QuantMode_t::QF322B8_PRE;
  }
  if (src == DType::kI32) {
    if (dst == DType::kF16) return QuantMode_t::DEQF16;
    if (dst == DType::kI8 || dst == DType::kU8) return QuantMode_t::REQ8;
  }
  return static_cast<QuantMode_t>(-1);
}

const char* QuantName(QuantMode_t q) {
  switch (q) {
    case QuantMode_t::NoQuant:
      return "NoQuant";
    case QuantMode_t::F322F16:
      return "F322F16";
    case QuantMode_t::F322BF16:
      return "F322BF16";
    case QuantMode_t::DEQF16:
      return "DEQF16";
    case QuantMode_t::VDEQF16:
      return "VDEQF16";
    case QuantMode_t::QF322B8_PRE:
      return "QF322B8_PRE";
    case QuantMode_t::VQF322B8_PRE:
      return "VQF322B8_PRE";
    case QuantMode_t::REQ8:
      return "REQ8";
    case QuantMode_t::VREQ8:
      return "VREQ8";
  }
  return "?";
}

// The scale of the scalar quant modes: bits [31:13] of deqScalar as a float (the hardware's
// 1-8-10 float; the low 13 mantissa bits are dropped).
float QuantScale(uint64_t deq) { return BitsToFloat(static_cast<uint32_t>(deq) & 0xFFFFE000u); }

int32_t SaturateI(float v, int32_t lo, int32_t hi) {
  if (std::isnan(v)) return 0;
  const float r = std::nearbyint(v);
  return r < lo ? lo : r > hi ? hi : static_cast<int32_t>(r);
}

// One element from L0C (float or int32 bits in `raw`) to `dst`, as the FIX pipe converts it.
template <class Out>
void Store(Out* dst, const uint8_t* raw, DType src_t, const FixpipeArgs& a) {
  float f = 0;
  int32_t i = 0;
  if (src_t == DType::kF32) {
    std::memcpy(&f, raw, 4);
    if (a.relu && f < 0) f = 0;
  } else {
    std::memcpy(&i, raw, 4);
    if (a.relu && i < 0) i = 0;
  }
  if constexpr (std::is_same_v<Out, float>) {
    *dst = f;
  } else if constexpr (std::is_same_v<Out, int32_t>) {
    *dst = i;
  } else if constexpr (std::is_same_v<Out, half>) {
    *dst = half(src_t == DType::kF32 ? f : static_cast<float>(i) * QuantScale(a.deq_scalar));
  } else if constexpr (std::is_same_v<Out, bfloat16_t>) {
    *dst = bfloat16_t(f);
  } else if constexpr (std::is_same_v<Out, int8_t>) {
    const float v = (src_t == DType::kF32 ? f : static_cast<float>(i)) * QuantScale(a.deq_scalar);
    *dst = static_cast<int8_t>(SaturateI(v, -128, 127));
  } else {
    static_assert(std::is_same_v<Out, uint8_t>, "Fixpipe output type");
    const float v = (src_t == DType::kF32 ? f : static_cast<float>(i)) * QuantScale(a.deq_scalar);
    *dst = static_cast<uint8_t>(SaturateI(v, 0, 255));
  }
}

template <class Out>
void StoreAtomic(Out* dst, const uint8_t* raw, DType src_t, const FixpipeArgs& a, AtomicOp op) {
  Out v;
  Store(&v, raw, src_t, a);
  using Bits = std::conditional_t<sizeof(Out) == 1, uint8_t,
                                  std::conditional_t<sizeof(Out) == 2, uint16_t, uint32_t>>;
  AtomicCombineOne<Bits>(dst, v, op);
}

template <class Out>
void Drain(uint8_t* dst_bytes, const Operand& src, const FixpipeArgs& a, AtomicOp op) {
  Out* dst = reinterpret_cast<Out*>(dst_bytes);
  const uint64_t n_stripes = CeilDiv(a.n, 16);
  for (uint64_t i = 0; i < a.nd_num; ++i) {
    const uint8_t* sm = src.data + i * a.src_nd_stride * 4;
    for (uint64_t m = 0; m < a.m; ++m) {
      for (uint64_t s = 0; s < n_stripes; ++s) {
        const uint8_t* row = sm + (s * a.src_stride * 16 + m * 16) * 4;
        const uint64_t cols = std::min<uint64_t>(16, a.n - s * 16);
        Out* out = a.nd ? dst + i * a.dst_nd_stride + m * a.dst_stride + s * 16
                        : dst + s * a.dst_stride * 32 / sizeof(Out) + m * 16;
        for (uint64_t c = 0; c < cols; ++c) {
          if (op == AtomicOp::kNone) {
            Store(out + c, row + c * 4, src.dtype, a);
          } else {
            StoreAtomic(out + c, row + c * 4, src.dtype, a, op);
          }
        }
      }
    }
  }
}

}  // namespace

void FixpipeCheck(const char* call, const Operand& src, DType dst_t, const FixpipeArgs& a,
                  bool to_gm) {
  RequireCubeUnit(call);
  const SocProfile& soc = *CurrentCore().launch->soc;
  if (!soc.split_cores) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": not available on ", soc.name,
              " (L0C goes to UB there: DataCopy CO1 -> CO2 with DataCopyEnhancedParams)"));
  }
  RequireMemory(call, "src", src, Memory::kL0C, "CO1");
  if (src.dtype != DType::kF32 && src.dtype != DType::kI32) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": src is ", simd::DTypeName(src.dtype), "; L0C holds float or int32_t"));
  }
  const QuantMode_t need = NeededQuant(src.dtype, dst_t);
  if (static_cast<int>(need) < 0 || (!to_gm && need == QuantMode_t::NoQuant)) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", simd::DTypeName(src.dtype), " -> ", simd::DTypeName(dst_t),
              " is not a conversion of the FIX pipe", to_gm ? "" : " into L1",
              to_gm ? " (float -> float/half/bfloat16_t/int8_t/uint8_t, int32_t -> "
                      "int32_t/half/int8_t/uint8_t)"
                    : " (L1 takes half, bfloat16_t, int8_t or uint8_t out of L0C)"));
  }
  if (a.quant != need) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", simd::DTypeName(src.dtype), " -> ", simd::DTypeName(dst_t),
              " needs quantPre = ", QuantName(need), " (got ", QuantName(a.quant),
              "); the FIX pipe does not infer it"));
  }
  CheckRange(call, "nSize", a.n, 0, 4095);
  CheckRange(call, "mSize", a.m, 0, a.nd ? 8192 : 65535);
  if (a.n == 0 || a.m == 0 || a.nd_num == 0) return;
  if (!a.nd && a.n % 16 != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": nSize ", a.n, " is not a multiple of 16 (NZ output writes whole fractals)"));
  }
  if (a.channel_split) {
    Fault(ErrorKind::kInvalidArgument, Str(call, ": isChannelSplit is not simulated"));
  }
  const uint64_t round_m = CeilDiv(a.m, 16) * 16;
  if (a.src_stride < round_m && CeilDiv(a.n, 16) > 1) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": srcStride ", a.src_stride, " is less than mSize ", a.m,
              " rounded up to 16 (", round_m, "): the column stripes of L0C would overlap"));
  }
  if (a.nd && a.dst_stride < a.n) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": dstStride ", a.dst_stride, " (elements per ND row) is less than nSize ", a.n,
              ": the rows would overlap"));
  }
  RequireAligned(call, "src", src, MemoryAlignment(Memory::kL0C));
  const uint64_t src_extent = (uint64_t{a.nd_num - 1u} * a.src_nd_stride +
                               (CeilDiv(a.n, 16) - 1) * a.src_stride * 16 + uint64_t{a.m} * 16) *
                              4;
  RequireExtent(call, "src", src, src_extent);
}

namespace {

// The element types Fixpipe writes (float, int32_t, half, bfloat16_t, int8_t, uint8_t); others
// do nothing.
template <class F>
void ByType(DType t, F&& f) {
  simd::VisitDType(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, int32_t> ||
                  std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                  std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
      f(tag);
    }
  });
}

}  // namespace

namespace {

// The GM rows a Fixpipe writes, for its call record: one ND matrix is m rows of n elements,
// dst_stride apart; NZ is one run of m x 16 elements per 16 columns, dst_stride x 32 B apart (the
// layout FixpipeDstExtent counts). Several ND matrices are left without rows (the record's
// gm_addr 0: no L2 lines), as Nd2Nz leaves several source matrices; the L2 hint is kept.
void SetFixpipeGmSide(trace::ApiCall& record, const uint8_t* dst, const GmSide& gm,
                      const FixpipeArgs& a, uint64_t es) {
  record.l2_mode = gm.l2_mode;
  if (a.nd && a.nd_num == 1) {
    SetGmSide(record, dst, gm, a.m, uint64_t{a.n} * es, uint64_t{a.dst_stride} * es);
  } else if (!a.nd) {
    SetGmSide(record, dst, gm, CeilDiv(a.n, 16), uint64_t{a.m} * 16 * es,
              uint64_t{a.dst_stride} * 32);
  }
}

}  // namespace

void FixpipeToGm(const char* call, uint8_t* dst, DType dst_t, const Operand& src,
                 const FixpipeArgs& a, const GmSide& gm) {
  if (a.n == 0 || a.m == 0 || a.nd_num == 0) return;
  CoreContext& core = CurrentCore();
  const auto op = static_cast<AtomicOp>(core.sys.atomic_op);
  if (op != AtomicOp::kNone && std::strcmp(core.sys.atomic_type, simd::DTypeName(dst_t)) != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, " of ", simd::DTypeName(dst_t), " while SetAtomic", AtomicOpName(op), "<",
              core.sys.atomic_type, "> is set; the atomic type must match the written data"));
  }
  ByType(dst_t, [&](auto tag) { Drain<decltype(tag)>(dst, src, a, op); });
  const uint64_t es = Elem(dst_t);
  trace::ApiCall record = CubeRecord("Fixpipe", trace::CallKind::kCopy, trace::Pipe::kFix,
                                     uint64_t{a.nd_num} * a.m * a.n * es, static_cast<uint8_t>(es),
                                     trace::kNoBuffer, src.buffer, trace::kNoBuffer,
                                     trace::CubePath::kL0cOut, true);
  SetFixpipeGmSide(record, dst, gm, a, es);
  RecordCall(record);
}

void FixpipeToLocal(const char* call, const Operand& dst, const Operand& src,
                    const FixpipeArgs& a) {
  RequireMemory(call, "dst", dst, Memory::kL1, "A1/B1/C1");
  FixpipeCheck(call, src, dst.dtype, a, false);
  if (a.n == 0 || a.m == 0 || a.nd_num == 0) return;
  const uint64_t es = Elem(dst.dtype);
  RequireAligned(call, "dst", dst, MemoryAlignment(Memory::kL1));
  RequireExtent(call, "dst", dst, FixpipeDstExtent(a, es) * es);
  ByType(dst.dtype, [&](auto tag) { Drain<decltype(tag)>(dst.data, src, a, AtomicOp::kNone); });
  RecordCall(CubeRecord("Fixpipe", trace::CallKind::kCopy, trace::Pipe::kFix,
                        uint64_t{a.nd_num} * a.m * a.n * es, static_cast<uint8_t>(es), dst.buffer,
                        src.buffer, trace::kNoBuffer, trace::CubePath::kL0cOut, false));
}

// ---- L0C -> UB (310P) ----

void CopyL0cToUb(const char* call, const Operand& dst, const Operand& src, uint16_t block_count,
                 uint16_t block_len, uint16_t src_stride, uint16_t dst_stride,
                 const AscendC::DataCopyEnhancedParams& e) {
  const SocProfile& soc = *CurrentCore().launch->soc;
  if (soc.split_cores) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": L0C -> UB is not a data path on ", soc.name,
              " (the AIC and the AIV are separate cores; use Fixpipe to GM)"));
  }
  RequireMemory(call, "src", src, Memory::kL0C, "CO1");
  RequireMemory(call, "dst", dst, Memory::kUb, "CO2/VECIN/VECOUT/VECCALC");
  using AscendC::BlockMode;
  if (e.blockMode != BlockMode::BLOCK_MODE_MATRIX && e.blockMode != BlockMode::BLOCK_MODE_VECTOR) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": blockMode ", static_cast<int>(e.blockMode),
              " is not supported (BLOCK_MODE_MATRIX or BLOCK_MODE_VECTOR)"));
  }
  if (e.deqScale != AscendC::DeqScale::DEQ_NONE && e.deqScale != AscendC::DeqScale::DEQ) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": deqScale ", static_cast<int>(e.deqScale), " is not simulated"));
  }
  const uint64_t se = Elem(src.dtype), de = Elem(dst.dtype);
  const bool same = src.dtype == dst.dtype;
  const bool f2h = src.dtype == DType::kF32 && dst.dtype == DType::kF16;
  const bool deq =
      e.deqScale == AscendC::DeqScale::DEQ &&
      ((src.dtype == DType::kI32 || src.dtype == DType::kF16) && dst.dtype == DType::kF16);
  if (!(deq || (e.deqScale == AscendC::DeqScale::DEQ_NONE && (same || f2h)))) {
    Fault(
        ErrorKind::kInvalidArgument,
        Str(call, ": ", simd::DTypeName(src.dtype), " -> ", simd::DTypeName(dst.dtype),
            " with deqScale ", static_cast<int>(e.deqScale), " is not a conversion of this path"));
  }
  if (block_count == 0 || block_len == 0) return;
  // Units (L0C到UB数据搬运（DataCopy）.md, 表4): MATRIX blockLen and srcStride in fractals
  // (16 x 16 of the source type), VECTOR blockLen in 1 x 16 rows; dstStride in 32 B.
  const uint64_t frac_src = 256 * se;
  const uint64_t len_src =
      e.blockMode == BlockMode::BLOCK_MODE_MATRIX ? block_len * frac_src : block_len * 16 * se;
  const uint64_t src_pitch = len_src + uint64_t{src_stride} * frac_src;
  const uint64_t len_dst = len_src / se * de;
  const uint64_t dst_pitch = len_dst + uint64_t{dst_stride} * 32;
  RequireAligned(call, "src", src, MemoryAlignment(Memory::kL0C));
  RequireAligned(call, "dst", dst, MemoryAlignment(Memory::kUb));
  RequireExtent(call, "src", src, (block_count - 1u) * src_pitch + len_src);
  RequireExtent(call, "dst", dst, (block_count - 1u) * dst_pitch + len_dst);
  SanitizeUb(dst, trace::Pipe::kV, Access::kWrite, Footprint::Rows(block_count, len_dst, dst_pitch),
             call, "dst");
  const float scale = HalfBitsToFloat(static_cast<uint16_t>(e.deqValue & 0xFFFFu));
  const uint64_t n = len_src / se;
  for (uint64_t b = 0; b < block_count; ++b) {
    const uint8_t* s = src.data + b * src_pitch;
    uint8_t* d = dst.data + b * dst_pitch;
    for (uint64_t i = 0; i < n; ++i) {
      float v;
      if (src.dtype == DType::kF32) {
        std::memcpy(&v, s + i * 4, 4);
      } else if (src.dtype == DType::kI32) {
        int32_t x;
        std::memcpy(&x, s + i * 4, 4);
        v = static_cast<float>(x);
      } else {
        uint16_t h;
        std::memcpy(&h, s + i * 2, 2);
        v = HalfBitsToFloat(h);
      }
      if (deq) v *= scale;
      if (e.isRelu && v < 0) v = 0;
      if (dst.dtype == DType::kF16) {
        const uint16_t h = FloatToHalfBits(v);
        std::memcpy(d + i * 2, &h, 2);
      } else if (dst.dtype == DType::kF32) {
        std::memcpy(d + i * 4, &v, 4);
      } else {  // int32 -> int32 (no conversion; ReLU on the integer)
        int32_t x;
        std::memcpy(&x, s + i * 4, 4);
        if (e.isRelu && x < 0) x = 0;
        std::memcpy(d + i * 4, &x, 4);
      }
    }
  }
  // 310P moves L0C to UB through the vector unit's path (an assumption; see docs/cube.md).
  RecordCall(CubeRecord("DataCopy", trace::CallKind::kCopy, trace::Pipe::kV,
                        uint64_t{block_count} * len_dst, static_cast<uint8_t>(de), dst.buffer,
                        src.buffer, trace::kNoBuffer, trace::CubePath::kNone, false));
}

// ---- Fill ----

void Fill(const char* call, const Operand& dst, const void* value, uint16_t repeat,
          uint16_t block_num, uint16_t dst_gap) {
  RequireCubeUnit(call);
  const SocProfile& soc = *CurrentCore().launch->soc;
  if (dst.memory != Memory::kL1 && dst.memory != Memory::kL0A && dst.memory != Memory::kL0B) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": dst is in ", MemoryLongName(dst.memory), " (TPosition::", PositionOf(dst),
              "); Fill initialises L1 (A1/B1), L0A (A2) or L0B (B2)"));
  }
  const uint64_t es = Elem(dst.dtype);
  if (es == 1 || es == 8) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", simd::DTypeName(dst.dtype), " is not a type of Fill"));
  }
  CheckRange(call, "repeatTimes", repeat, 0, 32767);
  CheckRange(call, "blockNum", block_num, 0, 32767);
  CheckRange(call, "dstGap", dst_gap, 0, 32767);
  // Older profiles fill 512 B per repeat with no gap; A2 takes blockNum blocks of 32 B (L1) or
  // 512 B (L0A/L0B) per repeat, dstGap blocks apart.
  const uint64_t unit = dst.memory == Memory::kL1 ? 32 : 512;
  const uint64_t blocks = soc.split_cores ? block_num : 1;
  const uint64_t gap = soc.split_cores ? dst_gap : 0;
  const uint64_t block_bytes = soc.split_cores ? unit : 512;
  if (repeat == 0 || blocks == 0) return;
  RequireAligned(call, "dst", dst, MemoryAlignment(dst.memory));
  const uint64_t pitch = (blocks + gap) * block_bytes;
  const uint64_t extent = (repeat - 1u) * pitch + blocks * block_bytes;
  RequireExtent(call, "dst", dst, extent);
  for (uint64_t r = 0; r < repeat; ++r) {
    uint8_t* row = dst.data + r * pitch;
    for (uint64_t i = 0; i < blocks * block_bytes / es; ++i) std::memcpy(row + i * es, value, es);
  }
  RecordCall(CubeRecord("Fill", trace::CallKind::kCopy,
                        dst.memory == Memory::kL1 ? trace::Pipe::kMte2 : trace::Pipe::kMte1,
                        repeat * blocks * block_bytes, static_cast<uint8_t>(es), dst.buffer,
                        trace::kNoBuffer, trace::kNoBuffer,
                        dst.memory == Memory::kL0A   ? trace::CubePath::kL1ToL0A
                        : dst.memory == Memory::kL0B ? trace::CubePath::kL1ToL0B
                                                     : trace::CubePath::kLocal,
                        false));
}

}  // namespace ascsim::aicore::cube
