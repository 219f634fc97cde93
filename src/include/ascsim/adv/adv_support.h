// What the advanced APIs (ascsim/adv/*.h) share: PopStackBuffer (the free UB above the TPipe's
// buffers, which the forms without sharedTmpBuffer compute in), the temporary-buffer checks, and
// the split of a calCount into the pieces that fit the temporary buffer.
//
// The advanced APIs are written, as CANN writes them (asc-devkit impl/adv_api/detail/...), as
// sequences of basic-API calls on the caller's tensors and the temporary buffer, so every piece is
// checked, traced and costed like kernel code, and the results are those of the device's algorithm
// (its rounding at every step included).
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/sync.h"
#include "ascsim/aicore/special_registers.h"
#include "ascsim/aicore/workspace.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/tpipe.h"
#include "ascsim/aicore/vector_masked.h"
#include "ascsim/aicore/vector_ops.h"

namespace ascsim::aicore {

// The element types an advanced API takes: half and float unless the API says otherwise.
template <class T>
constexpr bool kHalfOrFloat = std::is_same_v<T, half> || std::is_same_v<T, float>;

// A fault naming the API when its temporary buffer is smaller than the documented minimum.
[[noreturn]] void FaultTmpTooSmall(const char* api, uint64_t have_bytes, uint64_t need_bytes,
                                   const char* what);
void CheckCalCount(const char* api, uint64_t cal_count, uint64_t src_size, uint64_t dst_size);

// An advanced API's UB operand (live, in UB, 32 B aligned, inside) whose direction for the
// sanitizer is its documented role (input: kRead, output or scratch: kWrite), not its name.
template <class T>
void CheckUbRole(const char* api, const char* role, const AscendC::LocalTensor<T>& t,
                 uint64_t count, Access access) {
  CheckUbOperand(api, role, t, 0);  // the checks; count 0 records no access
  CheckUbOperand(api, role, t, count, OperandUse{trace::Pipe::kV, nullptr, access});
}

// `bytes` of the temporary buffer, checked (live, 32 B aligned, inside) through the operand helper.
inline void CheckTmp(const char* api, const AscendC::LocalTensor<uint8_t>& tmp, uint64_t bytes) {
  CheckUbRole(api, "sharedTmpBuffer", tmp, bytes, Access::kWrite);  // scratch
}

// The temporary buffer may not share any byte with an operand (the APIs' documented constraint):
// unlike operand pairs, not even the same start is allowed.
void FaultTmpOverlap(const char* api, const char* role, uint64_t tmp_lo, uint64_t tmp_hi,
                     uint64_t op_lo, uint64_t op_hi);
template <class T>
void CheckTmpDisjoint(const char* api, const AscendC::LocalTensor<uint8_t>& tmp, const char* role,
                      const AscendC::LocalTensor<T>& op, uint64_t op_elems) {
  const uint8_t* t = TensorAccess::Data(tmp);
  const uint8_t* o = reinterpret_cast<const uint8_t*>(TensorAccess::Data(op));
  const uint64_t tb = tmp.GetSize(), ob = op_elems * sizeof(T);
  if (tb != 0 && ob != 0 && t < o + ob && o < t + tb) [[unlikely]] {
    FaultTmpOverlap(api, role, TensorAccess::UbOffset(tmp), TensorAccess::UbOffset(tmp) + tb,
                    TensorAccess::UbOffset(op), TensorAccess::UbOffset(op) + ob);
  }
}

// Two operands an API documents as not overlapping ("不支持源操作数与目的操作数地址重叠": Silu, Swish,
// Sin, Cos, ClampMax, ClampMin, WelfordUpdate) may not share a byte of their first `elems`
// elements.
void FaultOperandOverlap(const char* api, const char* a_role, uint64_t a_lo, uint64_t a_hi,
                         const char* b_role, uint64_t b_lo, uint64_t b_hi);
template <class A, class B>
void CheckNoOverlap(const char* api, const char* a_role, const AscendC::LocalTensor<A>& a,
                    const char* b_role, const AscendC::LocalTensor<B>& b, uint64_t elems) {
  const uint8_t* pa = reinterpret_cast<const uint8_t*>(TensorAccess::Data(a));
  const uint8_t* pb = reinterpret_cast<const uint8_t*>(TensorAccess::Data(b));
  const uint64_t na = elems * sizeof(A), nb = elems * sizeof(B);
  if (na != 0 && nb != 0 && pa < pb + nb && pb < pa + na) [[unlikely]] {
    FaultOperandOverlap(api, a_role, TensorAccess::UbOffset(a), TensorAccess::UbOffset(a) + na,
                        b_role, TensorAccess::UbOffset(b), TensorAccess::UbOffset(b) + nb);
  }
}

// CANN's vector advanced APIs start with `if ASCEND_IS_AIC { return; }`: on the cube core of a
// mix kernel they do nothing (the 310P's unified core is not AIC there).
inline bool OnCubeCoreOnly() { return CurrentCore().unit == CoreUnit::kAic; }

// The number of elements per piece when each element needs `bytes_per_elem` bytes of the
// temporary buffer (CANN: tmpBufferSize / procedures, rounded down to whole 32 B blocks).
inline uint32_t PieceElems(uint64_t tmp_bytes, uint64_t bytes_per_elem, uint64_t float_bytes = 4) {
  const uint64_t per_buffer = tmp_bytes / (bytes_per_elem / float_bytes);
  return static_cast<uint32_t>(RoundDownToBlock(per_buffer) / float_bytes);
}

}  // namespace ascsim::aicore

namespace AscendC {

// The UB above the TPipe's buffers, as one uint8_t (or T) tensor. Returns false when no TPipe
// exists; faults when no UB is left.
template <class T, TPosition pos = TPosition::LCM>
bool PopStackBuffer(LocalTensor<T>& popLocal) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  if (core.pipe == nullptr) return false;
  ai::BufferSlot* slot = ai::StackSlot(*core.pipe, "PopStackBuffer");
  popLocal = ai::TensorAccess::Bind<T>(slot, slot->bytes / sizeof(T));
  return true;
}

namespace detail {
// The temporary space of an advanced API called without sharedTmpBuffer.
inline LocalTensor<uint8_t> AdvStack(const char* api) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  if (core.pipe == nullptr) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api,
                      ": called without sharedTmpBuffer and without a TPipe; the device takes "
                      "the temporary space from the UB above the TPipe's buffers"));
  }
  ai::BufferSlot* slot = ai::StackSlot(*core.pipe, api);
  return ai::TensorAccess::Bind<uint8_t>(slot, slot->bytes);
}

// Where an advanced API reads a vector result with GetValue, or vector work follows its
// SetValue, it orders the two pipes itself, as CANN's implementations do (impl/adv_api: an id
// from GetTPipePtr()->FetchEventID, then SetFlag/WaitFlag on it), so kernels calling it need no
// sync of their own and ASCSIM_SANITIZE=all finds none missing. Without a TPipe (test fixtures)
// EVENT_ID0 is used.
template <HardEvent evt>
inline void AdvPipeSync() {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  const TEventID id = core.pipe != nullptr ? core.pipe->FetchEventID(evt) : TEventID(0);
  SetFlag<evt>(static_cast<event_t>(id));
  WaitFlag<evt>(static_cast<event_t>(id));
}
inline void VectorToScalar() { AdvPipeSync<HardEvent::V_S>(); }
inline void ScalarToVector() { AdvPipeSync<HardEvent::S_V>(); }
}  // namespace detail

}  // namespace AscendC
