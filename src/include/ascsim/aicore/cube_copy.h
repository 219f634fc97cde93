// DataCopy on the cube side: GM <-> L1 (contiguous and in 32 B blocks, MTE2 in / MTE3 out), the
// local paths between memories (L1 -> BiasTable, UB <-> L1 on a coupled core, L0C -> UB with
// DataCopyEnhancedParams on 310P), and the ND -> NZ conversion on the way into L1 (Nd2NzParams).
// data_copy.h sends every DataCopy whose local operand is not in the Unified Buffer here.
//
// Sources (asc-devkit docs, 矩阵计算（ISASI）): "GMToL1连续数据搬运（DataCopy）",
// "GMToL1随路转换-ND2NZ搬运（DataCopy）", "L1ToGM连续数据搬运（DataCopy）",
// "L1ToBiasTable-Buffer数据搬运（DataCopy）", "L0C到UB数据搬运（DataCopy）"; unit tables in
// impl/basic_api/utils/kernel_utils_mode_cpu.h (src/dst burst and stride units per path).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/cube_params.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/gm_side.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/simd/vector_math.h"
#include "ascsim/aicore/tensor_access.h"

namespace AscendC {
struct DataCopyParams;
}

namespace ascsim::aicore::cube {

// A local operand resolved once for the out-of-line cube functions: its bytes, where it lives and
// its buffer id (for the call record).
struct Operand {
  uint8_t* data = nullptr;  // first element
  uint64_t bytes = 0;       // bytes from `data` to the end of the tensor view
  uint64_t offset = 0;      // byte offset of `data` in its memory
  Memory memory = Memory::kNone;
  uint8_t position = 0;  // AscendC::TPosition of its buffer
  uint32_t buffer = trace::kNoBuffer;
  const BufferSlot* slot = nullptr;
  simd::DType dtype = simd::DType::kU8;
};

template <class T>
Operand Local(const AscendC::LocalTensor<T>& t, const char* call, const char* role) {
  TensorAccess::CheckLive(t, call, role);
  const BufferSlot* s = TensorAccess::Slot(t);
  Operand o;
  o.data = reinterpret_cast<uint8_t*>(TensorAccess::Data(t));
  o.bytes = uint64_t{t.GetSize()} * sizeof(T);
  o.offset = s->mem_offset + static_cast<uint64_t>(o.data - s->addr);
  o.memory = s->memory;
  o.position = static_cast<uint8_t>(s->position);
  o.buffer = s->id;
  o.slot = s;
  // bool tensors (byte masks) move as bytes and double ones (ops-nn foreach_copy copies float64
  // tensors through UB) as 8-byte words: DataCopy instantiates this path for them too, and no cube
  // operation takes either type.
  using Moved = std::conditional_t<std::is_same_v<T, bool>, uint8_t,
                                   std::conditional_t<std::is_same_v<T, double>, uint64_t, T>>;
  o.dtype = simd::DTypeOf<Moved>();
  return o;
}

// Faults unless `op` is in `memory` (naming the TPositions that are), and unless its memory
// offset is aligned to `align` bytes.
void RequireMemory(const char* call, const char* role, const Operand& op, Memory memory,
                   const char* positions);
void RequireAligned(const char* call, const char* role, const Operand& op, uint32_t align);
// Faults unless [0, bytes) of `op` lies inside its tensor (elements of its type).
void RequireExtent(const char* call, const char* role, const Operand& op, uint64_t bytes);

// Blocks of `len` bytes: `count` of them, `src_pitch` / `dst_pitch` bytes apart.
struct BlockCopy {
  uint64_t count = 0;
  uint64_t len = 0;
  uint64_t src_pitch = 0;
  uint64_t dst_pitch = 0;
  uint64_t SrcExtent() const { return count == 0 ? 0 : (count - 1) * src_pitch + len; }
  uint64_t DstExtent() const { return count == 0 ? 0 : (count - 1) * dst_pitch + len; }
};

// GM -> L1 (MTE2). `src` has been checked for the copy's extent; `gm`: its tensor's (gm_side.h).
void CopyGmToL1(const char* call, const Operand& dst, const uint8_t* src, const BlockCopy& copy,
                const GmSide& gm);
// L1 -> GM (MTE3); faults under SetAtomicAdd & co. (atomic L1 stores are not simulated).
void CopyL1ToGm(const char* call, uint8_t* dst, const Operand& src, const BlockCopy& copy,
                const GmSide& gm);
// Between two local memories (the path decides the pipe and which pairs exist).
void CopyLocal(const char* call, const Operand& dst, const Operand& src,
               const AscendC::DataCopyParams* params, uint64_t count_bytes);
// GM -> L1 with ND -> NZ (MTE2). `src` points at the first source element, checked.
void Nd2Nz(const char* call, const Operand& dst, const uint8_t* src, const AscendC::Nd2NzParams& p,
           const GmSide& gm);
// Extent in elements that Nd2Nz reads from GM.
inline uint64_t Nd2NzSrcExtent(const AscendC::Nd2NzParams& p) {
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return 0;
  return uint64_t{p.ndNum - 1u} * p.srcNdMatrixStride + uint64_t{p.nValue - 1u} * p.srcDValue +
         p.dValue;
}
// The GM rows Nd2Nz reads, for the sanitizer: one matrix is nValue rows of dValue elements,
// srcDValue apart; several matrices are taken as their whole extent.
inline Footprint Nd2NzSrcFootprint(const AscendC::Nd2NzParams& p, uint64_t elem) {
  if (p.ndNum == 1 && p.nValue > 1 && p.srcDValue >= p.dValue) {
    return Footprint::Rows(p.nValue, uint64_t{p.dValue} * elem, uint64_t{p.srcDValue} * elem);
  }
  return Footprint::Bytes(Nd2NzSrcExtent(p) * elem);
}
// L0C -> UB (CO1 -> CO2) with DataCopyEnhancedParams (310P).
void CopyL0cToUb(const char* call, const Operand& dst, const Operand& src, uint16_t block_count,
                 uint16_t block_len, uint16_t src_stride, uint16_t dst_stride,
                 const AscendC::DataCopyEnhancedParams& enhanced);

// The GM pointer of `src` for `count` elements, checked by the GlobalTensor; `footprint` (bytes,
// null: all `count` elements) is what the sanitizer logs, `pipe` the pipe that moves them (kNone:
// MTE2 for a read, MTE3 for a write).
template <class T>
const uint8_t* GmRead(const AscendC::GlobalTensor<T>& src, const char* call, uint64_t count,
                      const Footprint* footprint = nullptr) {
  return reinterpret_cast<const uint8_t*>(TensorAccess::CheckedAddress(
      src, call, "read", 0, count, trace::Pipe::kNone, footprint));
}
template <class T>
uint8_t* GmWrite(const AscendC::GlobalTensor<T>& dst, const char* call, uint64_t count,
                 trace::Pipe pipe = trace::Pipe::kNone, const Footprint* footprint = nullptr) {
  return reinterpret_cast<uint8_t*>(
      TensorAccess::CheckedAddress(dst, call, "write", 0, count, pipe, footprint));
}

// DataCopy GM -> local memory other than UB: `count` elements (already rounded as the device
// rounds contiguous copies) or blocks of `p`.
template <class T>
void DataCopyIn(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                const BlockCopy& copy, const char* call) {
  CoreContext& core = CurrentCore();
  (void)core;
  const Operand d = Local(dst, call, "dst");
  RequireMemory(call, "dst", d, Memory::kL1, "A1/B1/C1/TSCM");
  if (copy.count == 0 || copy.len == 0) return;
  const uint8_t* s = GmRead(src, call, copy.SrcExtent() / sizeof(T));
  CopyGmToL1(call, d, s, copy, GmSideOf(src));
}

template <class T>
void DataCopyOut(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                 const BlockCopy& copy, const char* call) {
  const Operand s = Local(src, call, "src");
  RequireMemory(call, "src", s, Memory::kL1, "A1/B1/C1/TSCM");
  if (copy.count == 0 || copy.len == 0) return;
  uint8_t* d = GmWrite(dst, call, copy.DstExtent() / sizeof(T));
  CopyL1ToGm(call, d, s, copy, GmSideOf(dst));
}

}  // namespace ascsim::aicore::cube

namespace AscendC {

// GM -> L1 with ND -> NZ on the way. SetL2CacheHint applies to it as to any GM access: on the
// device the hint is in the tensor's address bits (asc-devkit 82b89a15f,
// impl/basic_api/kernel_tensor_impl.h GlobalTensor::SetL2CacheHint, L2CacheAlter), which every
// instruction given that address carries.
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "DataCopy GM->L1 (Nd2NzParams)";
  const ai::cube::Operand d = ai::cube::Local(dst, call, "dst");
  const uint64_t extent = ai::cube::Nd2NzSrcExtent(p);
  const ai::Footprint rows = ai::cube::Nd2NzSrcFootprint(p, sizeof(T));
  const uint8_t* s = extent == 0 ? nullptr : ai::cube::GmRead(src, call, extent, &rows);
  ai::cube::Nd2Nz(call, d, s, p, ai::GmSideOf(src));
}

// L0C -> UB (CO1 -> CO2, 310P) with DataCopyEnhancedParams; T and U may differ (float -> half).
template <class T, class U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params,
              const DataCopyEnhancedParams& enhanced);

}  // namespace AscendC
