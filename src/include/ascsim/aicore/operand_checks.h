// Operand checks shared by DataCopy and the vector ops: O(1) per call, never per element.
#pragma once

#include <cstdint>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/limits.h"
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

// Cast with partially overlapping operands (a widening Cast whose source sits in the back half of
// its destination, a narrowing one writing over the front of its source: Ascend's own operators
// lay tiles out this way). The SIMD API's address-overlap rule (asc-devkit docs
// SIMD-API/通用说明和约束.md, 通用地址重叠约束) asks within one repeat for a 100% overlap and
// across repeats that no earlier repeat's dst overlaps a later repeat's src; Cast.md says
// widening in place "may give wrong results". The device runs the repeats in order, each
// reading its source before writing: when no repeat writes bytes a later repeat reads, that
// order gives one answer, which ascsim computes (CastInOrder) after a once-per-call-site
// warning that cites the rule (an error in strict mode). When an earlier repeat's write does
// reach a later repeat's source, the result depends on the pipeline: refused.
// One Cast operand as its repeats lay it out: repeat r covers [p + r * repeat_stride, + span),
// clipped to the operand's `bytes`.
struct CastOperand {
  const uint8_t* p;
  uint64_t bytes;
  uint64_t repeat_stride;
  uint64_t span;
  const char* type;
};
// The overlapping case (cold): refuses, or warns once per call site and returns true.
[[gnu::cold]] [[gnu::noinline]] bool CastOverlapSlow(const CastOperand& dst, const CastOperand& src,
                                                     uint64_t repeats, uint64_t per,
                                                     const char* file, int line);
// True when dst and src overlap without being the same range, so the Cast must run repeat by
// repeat (`repeats` of `per` elements); false for disjoint operands or a 100% overlap.
inline bool CheckCastOverlap(const CastOperand& dst, const CastOperand& src, uint64_t repeats,
                             uint64_t per, const char* file, int line) {
  if (dst.bytes == 0 || src.bytes == 0 || (dst.p == src.p && dst.bytes == src.bytes) ||
      dst.p >= src.p + src.bytes || src.p >= dst.p + dst.bytes) {
    return false;
  }
  return CastOverlapSlow(dst, src, repeats, per, file, line);
}
// The count form: `n` elements back to back, 256 B of the wider type per repeat.
inline bool CheckCastOverlap(const void* dst, uint32_t dst_elem, const char* dst_type,
                             const void* src, uint32_t src_elem, const char* src_type, uint64_t n,
                             const char* file, int line) {
  const uint64_t per = kRepeatBytes / (dst_elem > src_elem ? dst_elem : src_elem);
  const CastOperand d{static_cast<const uint8_t*>(dst), n * dst_elem, per * dst_elem,
                      per * dst_elem, dst_type};
  const CastOperand s{static_cast<const uint8_t*>(src), n * src_elem, per * src_elem,
                      per * src_elem, src_type};
  return CheckCastOverlap(d, s, (n + per - 1) / per, per, file, line);
}

// The operand for a call record: buffer id and UB offset (a sub-view keeps its own offset).
template <class T>
BufferRef BufferId(const AscendC::LocalTensor<T>& t) {
  return BufferRef(
      TensorAccess::Slot(t) ? TensorAccess::Slot(t)->id : trace::kNoBuffer,
      TensorAccess::MemoryOf(t) == Memory::kUb ? TensorAccess::UbOffset(t) : trace::kNoUbAddr);
}

}  // namespace ascsim::aicore
