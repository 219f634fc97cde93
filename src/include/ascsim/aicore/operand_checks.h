// Operand checks shared by DataCopy and the vector ops: O(1) per call, never per element.
#pragma once

#include <cstdint>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/sanitizer_hooks.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/trace.h"

namespace ascsim::aicore {

// A count argument: negative counts are rejected rather than wrapped to huge ones.
inline uint64_t CheckCount(const char* call, int64_t count) {
  if (count < 0) [[unlikely]]
    FaultNegativeCount(call, count);
  return static_cast<uint64_t>(count);
}

// How an instruction uses a UB operand, for the sanitizer (sanitizer_hooks.h): on `pipe`, in the
// direction its role names (or `access`), over its first `count` elements or over `footprint`.
struct OperandUse {
  trace::Pipe pipe = trace::Pipe::kV;
  const Footprint* footprint = nullptr;
  Access access = Access::kAuto;
};

// A UB operand of `count` elements from its start: live, inside its tensor, `align_bytes`
// aligned (32 for most operands; some instructions take less, e.g. a reduction's dst); a
// vector-pipe access of those elements for the sanitizer (count 0 records nothing: the caller
// describes the bytes itself).
template <class T>
T* CheckUbOperand(const char* call, const char* role, const AscendC::LocalTensor<T>& t,
                  uint64_t count, uint32_t align_bytes) {
  T* p = ascsim::aicore::TensorAccess::Checked(t, call, role, 0, count);
  // The vector unit and the UB DMAs only reach the Unified Buffer (an L1 or L0 tensor here is a
  // wrong TPosition).
  if (ascsim::aicore::TensorAccess::MemoryOf(t) != Memory::kUb) [[unlikely]] {
    FaultNotUb(call, role, ascsim::aicore::TensorAccess::Slot(t));
  }
  // The UB arena is page aligned, so the host address has the UB offset's low bits.
  if (reinterpret_cast<uintptr_t>(p) % align_bytes != 0) [[unlikely]] {
    FaultUnalignedUb(call, role, ascsim::aicore::TensorAccess::UbOffset(t), align_bytes);
  }
  const BufferSlot* slot = ascsim::aicore::TensorAccess::Slot(t);
  if (slot->sanitizer != nullptr) [[unlikely]] {
    SanitizeLocalOperand(slot, trace::Pipe::kV, Access::kAuto, p, count * sizeof(T), nullptr, call,
                         role);
  }
  return p;
}
template <class T>
T* CheckUbOperand(const char* call, const char* role, const AscendC::LocalTensor<T>& t,
                  uint64_t count) {
  return CheckUbOperand(call, role, t, count, AscendC::ONE_BLK_SIZE);
}
// The same for another pipe, direction or footprint (DataCopy, Axpy's dst, ...).
template <class T>
T* CheckUbOperand(const char* call, const char* role, const AscendC::LocalTensor<T>& t,
                  uint64_t count, const OperandUse& use) {
  T* p = ascsim::aicore::TensorAccess::Checked(t, call, role, 0, count);
  if (reinterpret_cast<uintptr_t>(p) % AscendC::ONE_BLK_SIZE != 0) [[unlikely]] {
    FaultUnalignedUb(call, role, ascsim::aicore::TensorAccess::UbOffset(t));
  }
  const BufferSlot* slot = ascsim::aicore::TensorAccess::Slot(t);
  if (slot->sanitizer != nullptr) [[unlikely]] {
    SanitizeLocalOperand(slot, use.pipe, use.access, p, count * sizeof(T), use.footprint, call,
                         role);
  }
  return p;
}

// Source and destination must be the same range or disjoint: a partial overlap gives
// order-dependent results on the device.
inline void CheckOverlap(const char* call, const char* dst_role, const void* dst,
                         uint64_t dst_bytes, const char* src_role, const void* src,
                         uint64_t src_bytes) {
  const auto* d = static_cast<const uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  if (d == s || dst_bytes == 0 || src_bytes == 0) return;
  if (d < s + src_bytes && s < d + dst_bytes) {
    CoreContext& core = CurrentCore();
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", dst_role, " UB [", Hex(d - core.ub), ", ", Hex(d + dst_bytes - core.ub),
              ") partially overlaps ", src_role, " UB [", Hex(s - core.ub), ", ",
              Hex(s + src_bytes - core.ub), ")"));
  }
}

// For ops whose dst and src extents differ (widening Cast, Brcb, mixed-precision Axpy): in place
// is allowed only as a 100% overlap, the same start *and* extent. The general address-overlap
// rule of the SIMD API ("单次迭代内：源操作数与目的操作数必须100%完全重叠") and Cast's note that
// widening in place gives wrong results (asc-devkit docs: SIMD-API/通用说明和约束.md,
// Memory矢量计算/类型转换/Cast.md).
inline void CheckOverlapExact(const char* call, const char* dst_role, const void* dst,
                              uint64_t dst_bytes, const char* src_role, const void* src,
                              uint64_t src_bytes) {
  const auto* d = static_cast<const uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  if (dst_bytes == 0 || src_bytes == 0 || (d == s && dst_bytes == src_bytes)) return;
  if (d < s + src_bytes && s < d + dst_bytes) {
    CoreContext& core = CurrentCore();
    Fault(
        ErrorKind::kInvalidArgument,
        Str(call, ": ", dst_role, " UB [", Hex(d - core.ub), ", ", Hex(d + dst_bytes - core.ub),
            ") overlaps ", src_role, " UB [", Hex(s - core.ub), ", ", Hex(s + src_bytes - core.ub),
            "); in place needs the same range for both (here the extents differ, so "
            "elements are overwritten before they are read)"));
  }
}

// The operand for a call record: buffer id and UB offset (a sub-view keeps its own offset).
template <class T>
BufferRef BufferId(const AscendC::LocalTensor<T>& t) {
  return BufferRef(
      TensorAccess::Slot(t) ? TensorAccess::Slot(t)->id : trace::kNoBuffer,
      TensorAccess::MemoryOf(t) == Memory::kUb ? TensorAccess::UbOffset(t) : trace::kNoUbAddr);
}

}  // namespace ascsim::aicore
