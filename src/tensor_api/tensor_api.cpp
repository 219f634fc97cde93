// The tensor API's copies and Mmad (ascsim/tensor_api/runtime.h) on ascsim's cube memories.
//
// What each does, from asc-devkit impl/tensor_api/arch/cube (at 82b89a1):
//   CopyGM2L1   gm_to_l1/routing.h: ND -> NZ (copy_impl/nd2nz.h, nValue x dValue from the src
//               layout), ND -> ZN (nd2zn.h), ND -> ND (nd2nd.h); the rows of an NZ fractal are
//               padded to 32 B with 0 as the ND2NZ DMA does (ascsim's DataCopy Nd2Nz too).
//   CopyL12L0A  l1_to_l0a/copy_impl/nz2nz.h: the dst layout's fractals (mStep x kStep) from the
//               src's, in NZ: on arch 3510 L0A holds Nz fractals (docs "Cube矩阵计算编程").
//   CopyL12L0B  l1_to_l0b/copy_impl/nz2zn.h, zn2zn.h: the dst's fractals in ZN.
//   CopyL0C2GM  l0c_to_gm/copy_impl/data_copy.h: min(src, dst) rows x columns, NZ -> ND, the
//               quantisation given by the types (F322F16 / F322BF16 / none), relu by the trait.
//   Mmad        mmad/mmad_impl/mmad.h -> MmadInstr::Mmad(dst, fm, filter, m, k, n, unitFlag,
//               disableGemv, cmatrixSource, cmatrixInitVal): C = A * B (cmatrixInitVal) or
//               C += A * B, half / bfloat16_t / float into float, int8_t into int32_t.
// Each element goes where its tensor's layout puts it (View::Index), so a layout the device
// would read differently from how it was written shows up in the results as it would there.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/memory.h"
#include "ascsim/aicore/sanitizer_hooks.h"
#include "ascsim/half.h"
#include "ascsim/tensor_api/runtime.h"

namespace ascsim::tensor_api {

using aicore::CoreContext;
using aicore::CurrentCore;
using aicore::Fault;
using aicore::Footprint;
using aicore::Memory;
using aicore::Str;

const char* LocName(Loc loc) {
  static const char* const kNames[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C"};
  return kNames[static_cast<int>(loc)];
}

const char* PtnName(Ptn ptn) {
  static const char* const kNames[] = {"other", "ND", "DN", "NDExt", "DNExt", "NZ", "ZN", "ZZ"};
  return kNames[static_cast<int>(ptn)];
}

namespace {

Memory MemOf(Loc loc) {
  switch (loc) {
    case Loc::kUb:
      return Memory::kUb;
    case Loc::kL1:
      return Memory::kL1;
    case Loc::kL0A:
      return Memory::kL0A;
    case Loc::kL0B:
      return Memory::kL0B;
    case Loc::kL0C:
      return Memory::kL0C;
    case Loc::kGm:
      break;
  }
  return Memory::kGm;
}

AscendC::TPosition PosOf(Loc loc) {
  switch (loc) {
    case Loc::kL1:
      return AscendC::TPosition::A1;
    case Loc::kL0A:
      return AscendC::TPosition::A2;
    case Loc::kL0B:
      return AscendC::TPosition::B2;
    case Loc::kL0C:
      return AscendC::TPosition::CO1;
    default:
      return AscendC::TPosition::VECCALC;
  }
}

const char* Qualifier(Loc loc) {
  switch (loc) {
    case Loc::kL1:
      return "__cbuf__";
    case Loc::kL0A:
      return "__ca__";
    case Loc::kL0B:
      return "__cb__";
    case Loc::kL0C:
      return "__cc__";
    default:
      return "__ubuf__";
  }
}

// The memories of `loc` on this core: the cube's are made on first use, on the AIC.
CoreContext& RequireMemory(Loc loc, const char* call) {
  CoreContext& core = CurrentCore();
  aicore::EnterApiCall(core);
  const Memory m = MemOf(loc);
  if (m != Memory::kUb) {
    aicore::RevealCubeUse(core, call);
    aicore::EnsureCubeMemories(core);
  }
  if (!aicore::UnitHasMemory(core.unit, m) || core.mem_base[static_cast<int>(m)] == nullptr) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": the ", aicore::CoreUnitName(core.unit), " of ", core.launch->soc->name,
              " has no ", aicore::MemoryLongName(m),
              m == Memory::kUb ? "" : " (cube code runs on the AIC: a __cube__ kernel)",
              aicore::KernelModeNote()));
  }
  return core;
}

// The largest index a view's first `rows` x `cols` elements reach (non-negative strides: the
// largest row index plus the largest column index).
int64_t MaxIndex(const View& v, uint64_t rows, uint64_t cols) {
  auto largest = [](uint64_t n, uint64_t s0, int64_t d0, int64_t d1) {
    if (n == 0) return int64_t{0};
    auto at = [&](uint64_t i) {
      return static_cast<int64_t>(i % s0) * d0 + static_cast<int64_t>(i / s0) * d1;
    };
    int64_t best = at(n - 1);
    if (n > s0) best = std::max(best, at((n - 1) / s0 * s0 - 1));
    return best;
  };
  return largest(rows, v.rs[0], v.rd[0], v.rd[1]) + largest(cols, v.cs[0], v.cd[0], v.cd[1]);
}

// The bytes a view's rows x cols touch, as runs for the sanitizer: the rows of an ND layout, the
// column stripes of an NZ one, the row stripes of a ZN one; else one run over the whole extent.
Footprint FootprintOf(const View& v, uint64_t rows, uint64_t cols) {
  const uint64_t es = v.elem;
  if (rows == 0 || cols == 0) return Footprint{};
  const bool flat_rows = v.rs[0] == 1, flat_cols = v.cs[0] == 1;
  if (flat_rows && flat_cols && v.cd[1] == 1) {  // ND
    return Footprint::Rows(rows, cols * es, static_cast<uint64_t>(v.rd[1]) * es);
  }
  if (v.ptn == Ptn::kNZ && v.cd[0] == 1 && v.rd[0] == static_cast<int64_t>(v.cs[0]) &&
      v.rd[1] == static_cast<int64_t>(v.cs[0] * v.rs[0])) {
    const uint64_t stripes = (cols + v.cs[0] - 1) / v.cs[0];
    return Footprint::Rows(stripes, rows * v.cs[0] * es, static_cast<uint64_t>(v.cd[1]) * es);
  }
  if (v.ptn == Ptn::kZN && v.rd[0] == 1 && v.cd[0] == static_cast<int64_t>(v.rs[0]) &&
      v.cd[1] == static_cast<int64_t>(v.rs[0] * v.cs[0])) {
    const uint64_t stripes = (rows + v.rs[0] - 1) / v.rs[0];
    return Footprint::Rows(stripes, cols * v.rs[0] * es, static_cast<uint64_t>(v.rd[1]) * es);
  }
  return Footprint::Bytes(static_cast<uint64_t>(MaxIndex(v, rows, cols) + 1) * es);
}

// A local operand: inside its memory on this core, aligned as that memory needs, the rows x cols
// the call touches inside the memory. Returns its buffer record (the whole memory's).
const aicore::BufferSlot* CheckLocal(CoreContext& core, const char* call, const char* role,
                                     const View& v, uint64_t rows, uint64_t cols) {
  const Memory m = MemOf(v.loc);
  uint8_t* base = core.mem_base[static_cast<int>(m)];
  const uint64_t size = core.mem_size[static_cast<int>(m)];
  if (v.data < base || v.data >= base + size) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", role, " is an ", LocName(v.loc), " tensor whose pointer ",
              aicore::Hex(reinterpret_cast<uint64_t>(v.data)), " is not in this core's ",
              aicore::MemoryLongName(m), " (make it from a ", Qualifier(v.loc),
              " array or MakeMemPtr<Location::", LocName(v.loc), ", T>(addr))"));
  }
  const uint64_t offset = static_cast<uint64_t>(v.data - base);
  const uint32_t align = aicore::MemoryAlignment(m);
  if (offset % align != 0) {
    Fault(ErrorKind::kInvalidArgument, Str(call, ": ", role, " ", LocName(v.loc), " address ",
                                           aicore::Hex(offset), " is not ", align,
                                           "-byte aligned"));
  }
  const uint64_t extent = static_cast<uint64_t>(MaxIndex(v, rows, cols) + 1) * v.elem;
  if (offset + extent > size) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, ": ", role, " bytes [", offset, ", ", offset + extent, ") of ", LocName(v.loc),
              " exceed its ", size, " B (", rows, " x ", cols, " elements of a ", PtnName(v.ptn),
              " layout)"));
  }
  return aicore::WholeMemorySlot(core, PosOf(v.loc));
}

// A GM operand: inside one device allocation. Returns it.
GmRange CheckGm(CoreContext& core, const char* call, const char* role, const View& v,
                uint64_t rows, uint64_t cols) {
  GmRange alloc;
  if (core.launch->find_gm == nullptr || !core.launch->find_gm(v.data, &alloc)) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", role, " is a GM tensor whose pointer ",
              aicore::Hex(reinterpret_cast<uint64_t>(v.data)),
              " is not device memory (aclrtMalloc / GmAlloc)"));
  }
  const uint64_t extent = static_cast<uint64_t>(MaxIndex(v, rows, cols) + 1) * v.elem;
  if (v.data + extent > alloc.end) {
    const uint64_t first = static_cast<uint64_t>(v.data - alloc.begin);
    Fault(ErrorKind::kOutOfBounds,
          Str(call, ": ", role, " GM bytes [", first, ", ", first + extent,
              ") exceed the allocation of ", static_cast<uint64_t>(alloc.end - alloc.begin),
              " B (", rows, " x ", cols, " elements of a ", PtnName(v.ptn), " layout)"));
  }
  return alloc;
}

// A fractal layout in a cube buffer holds C0 elements of 32 B per fractal row; a layout made
// with another C0 (MakeFrameLayout<NZLayoutPtn> is 16 elements, the C0 of 2-byte types, unless
// given a type or a C0) would be written and read by the instructions at other places.
void CheckC0(const char* call, const char* role, const View& v, uint32_t want) {
  if (v.c0 == want) return;
  Fault(ErrorKind::kInvalidArgument,
        Str(call, ": ", role, " is a ", PtnName(v.ptn), " layout with C0 ", v.c0, " elements; ",
            simd::DTypeName(v.dtype), " in ", LocName(v.loc), " needs C0 ", want,
            " (make it with MakeFrameLayout<", PtnName(v.ptn), "LayoutPtn, ",
            simd::DTypeName(v.dtype), ">(rows, cols))"));
}

void RequireCubeUnit(CoreContext& core, const char* call) {
  aicore::RevealCubeUse(core, call);
  if (core.unit == aicore::CoreUnit::kAiv) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": cube instructions run on the AIC; this is an AIV of ",
              core.launch->soc->name, " (declare the kernel __cube__ or guard the code with "
              "ASCEND_IS_AIC)", aicore::KernelModeNote()));
  }
  aicore::EnsureCubeMemories(core);
}

void SanitizeLocal(const aicore::BufferSlot* slot, trace::Pipe pipe, aicore::Access access,
                   const View& v, uint64_t rows, uint64_t cols, const char* call,
                   const char* role) {
  if (slot->sanitizer == nullptr) return;
  const Footprint f = FootprintOf(v, rows, cols);
  aicore::SanitizeLocal(slot->sanitizer, pipe, access, slot, v.data, f, call, role);
}

void SanitizeGm(CoreContext& core, trace::Pipe pipe, aicore::Access access, const GmRange& alloc,
                const View& v, uint64_t rows, uint64_t cols, const char* call) {
  if (core.sanitizer == nullptr) return;
  aicore::SanitizeGm(core.sanitizer, pipe, access, alloc, v.data, FootprintOf(v, rows, cols),
                     call);
}

trace::ApiCall CubeCall(const char* name, trace::CallKind kind, trace::Pipe pipe, uint64_t bytes,
                        uint32_t elem, trace::CubePath path, bool on_gm) {
  trace::ApiCall call{};
  call.name = name;
  call.kind = kind;
  call.pipe = pipe;
  call.dtype_bytes = static_cast<uint8_t>(elem);
  call.bytes = bytes;
  call.elements = elem != 0 ? bytes / elem : 0;
  call.cube_path = path;
  call.on_gm = on_gm;
  return call;
}

uint8_t* At(const View& v, uint64_t r, uint64_t c) {
  return v.data + v.Index(r, c) * static_cast<int64_t>(v.elem);
}

// Element by element between two views of one type: dst (r, c) = src (r, c).
void CopyElements(const View& dst, const View& src, uint64_t rows, uint64_t cols) {
  const uint32_t es = dst.elem;
  for (uint64_t c = 0; c < cols; ++c) {
    for (uint64_t r = 0; r < rows; ++r) std::memcpy(At(dst, r, c), At(src, r, c), es);
  }
}

float LoadFloat(const View& v, uint64_t r, uint64_t c) {
  const uint8_t* p = At(v, r, c);
  switch (v.dtype) {
    case simd::DType::kF16: {
      half h;
      std::memcpy(&h, p, 2);
      return static_cast<float>(h);
    }
    case simd::DType::kBF16: {
      bfloat16_t h;
      std::memcpy(&h, p, 2);
      return static_cast<float>(h);
    }
    default: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
  }
}

}  // namespace

void CopyGm2L1(const View& dst, const View& src) {
  const char* call = "Copy(CopyGM2L1)";
  CoreContext& core = CurrentCore();
  aicore::EnterApiCall(core);
  RequireCubeUnit(core, call);
  const uint64_t n = src.Rows(), d = src.Cols();
  const uint32_t c0 = 32 / dst.elem;
  const bool nz = dst.ptn == Ptn::kNZ, zn = dst.ptn == Ptn::kZN;
  if (nz || zn) CheckC0(call, "dst", dst, c0);
  if (n > dst.Rows() || d > dst.Cols()) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, ": the src's ", n, " x ", d, " elements do not fit the dst's ", dst.Rows(),
              " x ", dst.Cols(), " ", PtnName(dst.ptn), " layout"));
  }
  // The rows of each 32-byte C0 block are written whole, the columns past the source's padded
  // with 0 (NZ); ZN pads the source rows to C0 likewise.
  const uint64_t rows = zn ? std::min<uint64_t>((n + c0 - 1) / c0 * c0, dst.Rows()) : n;
  const uint64_t cols = nz ? std::min<uint64_t>((d + c0 - 1) / c0 * c0, dst.Cols()) : d;
  const aicore::BufferSlot* slot = CheckLocal(core, call, "dst", dst, rows, cols);
  const GmRange alloc = CheckGm(core, call, "src", src, n, d);
  SanitizeGm(core, trace::Pipe::kMte2, aicore::Access::kRead, alloc, src, n, d, call);
  SanitizeLocal(slot, trace::Pipe::kMte2, aicore::Access::kWrite, dst, rows, cols, call, "dst");
  CopyElements(dst, src, n, d);
  for (uint64_t c = 0; c < cols; ++c) {
    for (uint64_t r = (c < d ? n : 0); r < rows; ++r) std::memset(At(dst, r, c), 0, dst.elem);
  }
  aicore::Record(core, [&] {
    return CubeCall("Copy(CopyGM2L1)", trace::CallKind::kCopy, trace::Pipe::kMte2,
                    n * d * src.elem, src.elem, trace::CubePath::kNone, true);
  });
}

namespace {
void CopyL1ToL0(const char* call, const View& dst, const View& src, trace::CubePath path) {
  CoreContext& core = CurrentCore();
  aicore::EnterApiCall(core);
  RequireCubeUnit(core, call);
  const uint32_t c0 = 32 / dst.elem;
  CheckC0(call, "dst", dst, c0);
  CheckC0(call, "src", src, c0);
  // The dst layout's fractals are the copy (mStep x kStep of nz2nz.h), read from the src at its
  // strides: past a smaller src slice (a K tail) the device reads on into L1, and so does this;
  // the Mmad that follows uses only its k columns.
  const uint64_t rows = dst.Rows(), cols = dst.Cols();
  const aicore::BufferSlot* dslot = CheckLocal(core, call, "dst", dst, rows, cols);
  const aicore::BufferSlot* sslot = CheckLocal(core, call, "src", src, rows, cols);
  SanitizeLocal(sslot, trace::Pipe::kMte1, aicore::Access::kRead, src, rows, cols, call, "src");
  SanitizeLocal(dslot, trace::Pipe::kMte1, aicore::Access::kWrite, dst, rows, cols, call, "dst");
  CopyElements(dst, src, rows, cols);
  aicore::Record(core, [&] {
    return CubeCall(call, trace::CallKind::kCopy, trace::Pipe::kMte1, rows * cols * dst.elem,
                    dst.elem, path, false);
  });
}
}  // namespace

void CopyL12L0A(const View& dst, const View& src) {
  CopyL1ToL0("Copy(CopyL12L0A)", dst, src, trace::CubePath::kL1ToL0A);
}

void CopyL12L0B(const View& dst, const View& src) {
  CopyL1ToL0("Copy(CopyL12L0B)", dst, src, trace::CubePath::kL1ToL0B);
}

void CopyL0C2Gm(const View& dst, const View& src, bool relu) {
  const char* call = "Copy(CopyL0C2GM)";
  CoreContext& core = CurrentCore();
  aicore::EnterApiCall(core);
  RequireCubeUnit(core, call);
  CheckC0(call, "src", src, 16);  // L0C fractals are 16 x 16 whatever the type
  if (core.sys.atomic_op != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": under SetAtomicAdd/Max/Min is not simulated; call SetAtomicNone first"));
  }
  const uint64_t m = std::min(src.Rows(), dst.Rows()), n = std::min(src.Cols(), dst.Cols());
  const aicore::BufferSlot* slot = CheckLocal(core, call, "src", src, m, n);
  const GmRange alloc = CheckGm(core, call, "dst", dst, m, n);
  SanitizeLocal(slot, trace::Pipe::kFix, aicore::Access::kRead, src, m, n, call, "src");
  SanitizeGm(core, trace::Pipe::kFix, aicore::Access::kWrite, alloc, dst, m, n, call);
  for (uint64_t r = 0; r < m; ++r) {
    for (uint64_t c = 0; c < n; ++c) {
      uint8_t* out = At(dst, r, c);
      if (src.dtype == simd::DType::kI32) {
        int32_t x;
        std::memcpy(&x, At(src, r, c), 4);
        if (relu) x = std::max(x, 0);
        if (dst.dtype == simd::DType::kF16) {
          const half h(static_cast<float>(x));
          std::memcpy(out, &h, 2);
        } else {
          std::memcpy(out, &x, 4);
        }
        continue;
      }
      float x;
      std::memcpy(&x, At(src, r, c), 4);
      if (relu) x = std::max(x, 0.0f);
      if (dst.dtype == simd::DType::kF16) {
        const half h(x);
        std::memcpy(out, &h, 2);
      } else if (dst.dtype == simd::DType::kBF16) {
        const bfloat16_t h(x);
        std::memcpy(out, &h, 2);
      } else {
        std::memcpy(out, &x, 4);
      }
    }
  }
  aicore::Record(core, [&] {
    return CubeCall(call, trace::CallKind::kCopy, trace::Pipe::kFix, m * n * dst.elem, dst.elem,
                    trace::CubePath::kL0cOut, true);
  });
}

void Mmad(const View& c, const View& a, const View& b, const MmadArgs& args) {
  const char* call = "Mmad";
  CoreContext& core = CurrentCore();
  aicore::EnterApiCall(core);
  RequireCubeUnit(core, call);
  // MmadParams' ranges on the A2 cube (docs "Mmad": m, n, k in [0, 4095]).
  auto check = [&](const char* name, uint32_t value) {
    if (value > 4095) {
      Fault(ErrorKind::kInvalidArgument,
            Str(call, ": MmadParams.", name, " ", value, " is outside [0, 4095]"));
    }
  };
  check("m", args.m);
  check("n", args.n);
  check("k", args.k);
  if (args.unit_flag != 0 && args.unit_flag != 2 && args.unit_flag != 3) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": MmadParams.unitFlag ", static_cast<int>(args.unit_flag),
              " is not 0, 2 or 3"));
  }
  if (args.cmatrix_source) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": MmadTrait.cmatrixSource (C from the bias table) is not simulated"));
  }
  if (!args.disable_gemv && args.m == 1) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": m = 1 with MmadTrait.disableGemv false is the GEMV mode, not simulated"));
  }
  const uint32_t c0 = 32 / a.elem;
  CheckC0(call, "fm", a, c0);
  CheckC0(call, "filter", b, c0);
  CheckC0(call, "dst", c, 16);
  auto fits = [&](const char* what, uint32_t value, const char* role, const char* dim,
                  uint64_t have) {
    if (value > have) {
      Fault(ErrorKind::kOutOfBounds, Str(call, ": ", what, " ", value, " exceeds the ", have,
                                         " ", dim, " of ", role));
    }
  };
  fits("m", args.m, "fm", "rows", a.Rows());
  fits("k", args.k, "fm", "columns", a.Cols());
  fits("k", args.k, "filter", "rows", b.Rows());
  fits("n", args.n, "filter", "columns", b.Cols());
  fits("m", args.m, "dst", "rows", c.Rows());
  fits("n", args.n, "dst", "columns", c.Cols());
  if (args.m == 0 || args.n == 0 || args.k == 0) return;  // nothing to compute
  const uint64_t m = args.m, n = args.n, k = args.k;
  // The cube works on whole fractals: 16-row, C0-column pieces of A, C0 x 16 of B, 16 x 16 of C.
  const uint64_t m16 = (m + 15) / 16 * 16, n16 = (n + 15) / 16 * 16;
  const uint64_t kc0 = (k + c0 - 1) / c0 * c0;
  const aicore::BufferSlot* as = CheckLocal(core, call, "fm", a, std::min(m16, a.Rows()),
                                            std::min(kc0, a.Cols()));
  const aicore::BufferSlot* bs = CheckLocal(core, call, "filter", b, std::min(kc0, b.Rows()),
                                            std::min(n16, b.Cols()));
  const aicore::BufferSlot* cs =
      CheckLocal(core, call, "dst", c, std::min(m16, c.Rows()), std::min(n16, c.Cols()));
  SanitizeLocal(as, trace::Pipe::kM, aicore::Access::kRead, a, m, k, call, "fm");
  SanitizeLocal(bs, trace::Pipe::kM, aicore::Access::kRead, b, k, n, call, "filter");
  SanitizeLocal(cs, trace::Pipe::kM,
                args.cmatrix_init_val ? aicore::Access::kWrite : aicore::Access::kReadWrite, c, m,
                n, call, "dst");
  if (a.dtype == simd::DType::kI8) {
    std::vector<int32_t> bt(k * n);
    for (uint64_t p = 0; p < k; ++p) {
      for (uint64_t j = 0; j < n; ++j) bt[j * k + p] = static_cast<int8_t>(*At(b, p, j));
    }
    std::vector<int32_t> arow(k);
    for (uint64_t i = 0; i < m; ++i) {
      for (uint64_t p = 0; p < k; ++p) arow[p] = static_cast<int8_t>(*At(a, i, p));
      for (uint64_t j = 0; j < n; ++j) {
        int32_t acc = 0;
        if (!args.cmatrix_init_val) std::memcpy(&acc, At(c, i, j), 4);
        const int32_t* bj = &bt[j * k];
        for (uint64_t p = 0; p < k; ++p) acc += arow[p] * bj[p];
        std::memcpy(At(c, i, j), &acc, 4);
      }
    }
  } else {
    std::vector<float> bt(k * n);
    for (uint64_t p = 0; p < k; ++p) {
      for (uint64_t j = 0; j < n; ++j) bt[j * k + p] = LoadFloat(b, p, j);
    }
    std::vector<float> arow(k);
    for (uint64_t i = 0; i < m; ++i) {
      for (uint64_t p = 0; p < k; ++p) arow[p] = LoadFloat(a, i, p);
      for (uint64_t j = 0; j < n; ++j) {
        float acc = 0.0f;
        if (!args.cmatrix_init_val) std::memcpy(&acc, At(c, i, j), 4);
        const float* bj = &bt[j * k];
        float sum = 0.0f;
        for (uint64_t p = 0; p < k; ++p) sum += arow[p] * bj[p];
        acc += sum;
        std::memcpy(At(c, i, j), &acc, 4);
      }
    }
  }
  aicore::Record(core, [&] {
    trace::ApiCall rec =
        CubeCall(call, trace::CallKind::kMmad, trace::Pipe::kM, 0, a.elem, trace::CubePath::kNone,
                 false);
    rec.elements = m16 * n16 * kc0;
    rec.bytes = 0;
    return rec;
  });
}

uint8_t* LocalBase(Loc loc, uint64_t addr, uint64_t bytes, const char* call) {
  CoreContext& core = RequireMemory(loc, call);
  const Memory m = MemOf(loc);
  const uint64_t size = core.mem_size[static_cast<int>(m)];
  if (addr + bytes > size) {
    Fault(ErrorKind::kOutOfBounds, Str(call, "<Location::", LocName(loc), ">(", addr,
                                       "): the address is past the ", size, " B of ",
                                       aicore::MemoryLongName(m)));
  }
  return core.mem_base[static_cast<int>(m)] + addr;
}

namespace {
// The next free byte of each memory for kernel arrays, on this thread: each array's scope
// returns its bytes, so a block starts from 0.
thread_local uint64_t g_array_top[6] = {};
}  // namespace

uint8_t* PushLocalArray(Loc loc, uint64_t bytes, const char* name, uint64_t* mark) {
  CoreContext& core = RequireMemory(loc, Qualifier(loc));
  const Memory m = MemOf(loc);
  const uint64_t size = core.mem_size[static_cast<int>(m)];
  const uint32_t align = aicore::MemoryAlignment(m);
  uint64_t& top = g_array_top[static_cast<int>(loc)];
  const uint64_t offset = (top + align - 1) / align * align;
  if (offset + bytes > size) {
    Fault(ErrorKind::kOutOfBounds,
          Str(Qualifier(loc), " array ", name, ": ", bytes, " B at ", LocName(loc), " offset ",
              offset, " exceed the ", size, " B of ", aicore::MemoryLongName(m),
              " (the kernel's ", Qualifier(loc), " arrays do not fit; the device's compiler "
              "refuses them)"));
  }
  *mark = top;
  top = offset + bytes;
  return core.mem_base[static_cast<int>(m)] + offset;
}

void PopLocalArray(Loc loc, uint64_t mark) { g_array_top[static_cast<int>(loc)] = mark; }

void FaultSlice(uint64_t row, uint64_t col, uint64_t rows, uint64_t cols) {
  Fault(ErrorKind::kOutOfBounds, Str("Tensor::Slice: the coordinate (", row, ", ", col,
                                     ") is outside the tensor's ", rows, " x ", cols,
                                     " elements"));
}

}  // namespace ascsim::tensor_api
