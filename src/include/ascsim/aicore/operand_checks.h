// Operand checks shared by DataCopy and the vector ops: O(1) per call, never per element.
#pragma once

#include <cstdint>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/trace.h"

namespace ascsim::aicore {

// A count argument: negative counts are rejected rather than wrapped to huge ones.
inline uint64_t CheckCount(const char* call, int64_t count) {
  if (count < 0) [[unlikely]]
    FaultNegativeCount(call, count);
  return static_cast<uint64_t>(count);
}

// A UB operand of `count` elements from its start: live, inside its tensor, 32-byte aligned.
template <class T>
T* CheckUbOperand(const char* call, const char* role, const AscendC::LocalTensor<T>& t,
                  uint64_t count) {
  T* p = ascsim::aicore::TensorAccess::Checked(t, call, role, 0, count);
  // The vector unit and the UB DMAs only reach the Unified Buffer (an L1 or L0 tensor here is a
  // wrong TPosition).
  if (ascsim::aicore::TensorAccess::MemoryOf(t) != Memory::kUb) [[unlikely]] {
    FaultNotUb(call, role, ascsim::aicore::TensorAccess::Slot(t));
  }
  // The UB arena is page aligned, so the host address has the UB offset's low bits.
  if (reinterpret_cast<uintptr_t>(p) % AscendC::ONE_BLK_SIZE != 0) [[unlikely]] {
    FaultUnalignedUb(call, role, ascsim::aicore::TensorAccess::UbOffset(t));
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

template <class T>
uint32_t BufferId(const AscendC::LocalTensor<T>& t) {
  return ascsim::aicore::TensorAccess::Slot(t) ? ascsim::aicore::TensorAccess::Slot(t)->id
                                               : trace::kNoBuffer;
}

}  // namespace ascsim::aicore
