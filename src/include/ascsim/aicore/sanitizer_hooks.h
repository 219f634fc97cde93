// What the kernel API tells the sanitizer (ASCSIM_SANITIZE=race,init,sync): every operand access
// (pipe, read or write, exact bytes) and every ordering call (queues, flags, barriers, SyncAll).
//
// The shared operand checks call these hooks, so every API call that validates its operands
// through them is covered without code of its own:
//   CheckUbOperand (operand_checks.h)        a UB operand: contiguous, or an explicit Footprint
//   CheckStridedOperand (vector_masked.h)    a mask/repeat operand: the exact elements the plan
//                                            touches (mask, repeats, block and repeat strides)
//   CheckBitOperand (compare_select.h), CheckReduceDst (reduce_ops.h)
//   GlobalTensor::CheckedAddress             every GM access (DataCopy, GetValue, SetValue, ...)
//   LocalTensor::GetValue/SetValue/operator() scalar (pipe S) accesses to UB
// An operand's role names its direction: "dst..." / "out..." and scratch roles (containing "tmp",
// "work", "stack" or "scratch": "workLocal", "sharedTmpBuffer", ...) are writes, every other
// role a read; pass Access::kReadWrite (OperandUse) for a dst the instruction also reads (Axpy).
// The pipe is V unless the call names another (DataCopy: MTE2 / MTE3; GM reads default to MTE2 and
// GM writes to MTE3; pass the pipe for cube paths: MTE1 for LoadData, M for Mmad, FIX for Fixpipe).
//
// Cost when the sanitizer is off: one pointer test per operand (BufferSlot::sanitizer,
// GlobalTensor's sanitizer pointer), never a call.
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/gm_range.h"
#include "ascsim/trace.h"

namespace ascsim::simd {
struct RepeatPlan;
struct Stride;
}  // namespace ascsim::simd

namespace ascsim::aicore {

class CoreSanitizer;  // per block; src/aicore/sanitizer/core_sanitizer.h
struct BufferSlot;
using GmRange = ascsim::GmRange;  // ascsim/gm_range.h

// Direction of an operand access; kAuto derives it from the operand's role (see above).
enum class Access : uint8_t { kAuto, kRead, kWrite, kReadWrite };

// The bytes an operand touches, from its first byte: `count` runs of `run` bytes whose starts are
// `pitch` bytes apart (a contiguous operand is one run). Operands whose bytes follow a mask or
// repeat plan are described by the plan itself (SanitizeUbPlan).
struct Footprint {
  uint64_t run = 0;
  uint64_t pitch = 0;
  uint64_t count = 0;
  static Footprint Bytes(uint64_t bytes) { return Footprint{bytes, bytes, bytes != 0 ? 1u : 0u}; }
  static Footprint Rows(uint64_t count, uint64_t run, uint64_t pitch) {
    return Footprint{run, pitch, run != 0 ? count : 0};
  }
  uint64_t Extent() const { return count == 0 ? 0 : (count - 1) * pitch + run; }
};

// ---- hooks (out of line, in libascsim; called only when a sanitizer is attached) ----

// A UB (or other local buffer) operand at `first`, inside `slot`.
void SanitizeLocal(CoreSanitizer* sanitizer, trace::Pipe pipe, Access access,
                   const BufferSlot* slot, const void* first, const Footprint& footprint,
                   const char* call, const char* role);
// A mask/repeat operand: the elements `plan` activates, laid out with stride `stride`.
void SanitizeLocalPlan(CoreSanitizer* sanitizer, trace::Pipe pipe, Access access,
                       const BufferSlot* slot, const void* first, const simd::RepeatPlan& plan,
                       const simd::Stride& stride, uint32_t elem_bytes, const char* call,
                       const char* role);
// A GM operand at `first` inside the device allocation `alloc`. `pipe` kNone: MTE2 for a read,
// MTE3 for a write. Writes while SetAtomicAdd/Max/Min is on (MTE3, FIX) count as atomic.
void SanitizeGm(CoreSanitizer* sanitizer, trace::Pipe pipe, Access access, const GmRange& alloc,
                const void* first, const Footprint& footprint, const char* call);
// The same two from the operand checks, out of line and cold so that the check inlined into
// every API call stays a pointer test: `bytes` from `first` unless `footprint` is given; a
// `verb` of "read", "write" or "access" (both) for GM.
[[gnu::cold]] [[gnu::noinline]] void SanitizeLocalOperand(const BufferSlot* slot, trace::Pipe pipe,
                                                          Access access, const void* first,
                                                          uint64_t bytes,
                                                          const Footprint* footprint,
                                                          const char* call, const char* role);
[[gnu::cold]] [[gnu::noinline]] void SanitizeGmOperand(CoreSanitizer* sanitizer, trace::Pipe pipe,
                                                       const char* verb, const GmRange& alloc,
                                                       const void* first, uint64_t bytes,
                                                       const Footprint* footprint,
                                                       const char* call);
// The values of a SetAtomicAdd copy: `n` elements of `elem_bytes` from `src` added to GM `dst`.
// Its leading and trailing elements with all bits zero add nothing, and the cross-block race
// check leaves them out (launch_sanitizer.h, AddendRange). One pass over the elements, on the
// path that already combines each element with a compare-and-swap.
[[gnu::cold]] [[gnu::noinline]] void SanitizeAtomicAddend(CoreSanitizer* sanitizer, const void* dst,
                                                          const void* src, uint64_t n,
                                                          uint32_t elem_bytes);
// The current instruction works on packed bit masks, one bit per element (Compare, Select): its
// uninitialised reads are judged by where the bits go, as for any other data (reported when
// what they produce reaches GM, a scalar or a branch). kCompareToBits: the instruction writes
// one bit per element of `elem_bytes` it reads. kSelectByBits: its "selMask" operand picks the
// elements of `elem_bytes` it writes, bit i for element i, or with `period` != 0 the same
// `period` bits again for every repeat (VSEL_CMPMASK_SPR).
enum class MaskBits : uint8_t { kNone, kCompareToBits, kSelectByBits };
void SanitizeMaskBits(CoreSanitizer* sanitizer, MaskBits mode, uint32_t elem_bytes,
                      uint32_t period);
// A scalar (pipe S) GetValue / SetValue / operator() on a local buffer.
void SanitizeScalar(CoreSanitizer* sanitizer, Access access, const BufferSlot* slot, const void* p,
                    uint32_t bytes, const char* call);

}  // namespace ascsim::aicore
