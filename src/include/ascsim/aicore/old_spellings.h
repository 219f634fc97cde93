// Spellings of 2023-2024 public samples, mapped onto the same implementation and checks:
//   tik2::...                   the pre-2024 namespace: sees everything in AscendC
//   set_flag / wait_flag        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0): SetFlag/WaitFlag of the
//                               HardEvent named by the pipe pair (same pairing checks)
//   block_idx, block_num        the builtin variables: GetBlockIdx() / GetBlockNum() on read
//   dst = a + b;                whole-tensor expressions (+ - * / | & and the comparisons) through
//                               the SymbolOverride* types of kernel_tensor.h: the count-form op
//                               over dst.GetSize() elements (src0.GetSize() for comparisons)
//   IBSet / IBWait              not simulated (the spin on a GM flag between blocks): rejected at
//                               compile time with a message
// Sources: asc-devkit include/basic_api/kernel_tensor.h and
// impl/basic_api/kernel_operator_symbol_override_impl.h (SymbolOverride*), the CCE intrinsics
// set_flag/wait_flag (pipe, tpipe, event id).
#pragma once

#include <cstdint>

#include "ascsim/aicore/compare_select.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/sync.h"
#include "ascsim/aicore/vector_ops.h"

namespace ascsim::aicore {
// The HardEvent from `src` to `dst` ("MTE2_V" for PIPE_MTE2 -> PIPE_V); faults for a pair that
// has none.
AscendC::HardEvent EventOfPipes(const char* call, pipe_t src, pipe_t dst);
}  // namespace ascsim::aicore

// ------------------------------------------------------------------------------- CCE intrinsics
inline void set_flag(pipe_t pipe, pipe_t tpipe, int32_t pipeID) {
  ascsim::aicore::SetFlagImpl(ascsim::aicore::EventOfPipes("set_flag", pipe, tpipe), pipeID);
}
inline void wait_flag(pipe_t pipe, pipe_t tpipe, int32_t pipeID) {
  ascsim::aicore::WaitFlagImpl(ascsim::aicore::EventOfPipes("wait_flag", pipe, tpipe), pipeID);
}

// block_idx / block_num read as int64_t (e.g. `x + BLOCK_LENGTH * block_idx`).
struct AscsimBlockIdxVar {
  operator int64_t() const { return AscendC::GetBlockIdx(); }  // NOLINT: a builtin variable
};
struct AscsimBlockNumVar {
  operator int64_t() const { return AscendC::GetBlockNum(); }  // NOLINT
};
inline constexpr AscsimBlockIdxVar block_idx{};
inline constexpr AscsimBlockNumVar block_num{};

// tik2 is a namespace of its own that sees all of AscendC (not an alias), so `tik2::TPipe` and
// `using namespace tik2;` work and user code may still open `namespace tik2 { ... }` itself.
namespace tik2 {
using namespace AscendC;
}  // namespace tik2

// ---------------------------------------------------------------------- whole-tensor operators
namespace AscendC {

#define ASCSIM_SYMBOL_OVERRIDE(Name, Api)                                                      \
  template <class T>                                                                           \
  class Name {                                                                                 \
   public:                                                                                     \
    using ascsim_symbol_override = void;                                                       \
    Name(const LocalTensor<T>& src0, const LocalTensor<T>& src1) : src0_(src0), src1_(src1) {} \
    void Process(const LocalTensor<T>& dst) const {                                            \
      Api(dst, src0_, src1_, static_cast<int32_t>(dst.GetSize()));                             \
    }                                                                                          \
                                                                                               \
   private:                                                                                    \
    LocalTensor<T> src0_;                                                                      \
    LocalTensor<T> src1_;                                                                      \
  };
ASCSIM_SYMBOL_OVERRIDE(SymbolOverrideAdd, Add)
ASCSIM_SYMBOL_OVERRIDE(SymbolOverrideSub, Sub)
ASCSIM_SYMBOL_OVERRIDE(SymbolOverrideMul, Mul)
ASCSIM_SYMBOL_OVERRIDE(SymbolOverrideDiv, Div)
ASCSIM_SYMBOL_OVERRIDE(SymbolOverrideOr, Or)
ASCSIM_SYMBOL_OVERRIDE(SymbolOverrideAnd, And)
#undef ASCSIM_SYMBOL_OVERRIDE

template <class T>
class SymbolOverrideCompare {
 public:
  using ascsim_symbol_override = void;
  SymbolOverrideCompare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode)
      : src0_(src0), src1_(src1), cmpMode_(cmpMode) {}
  template <class U>
  void Process(const LocalTensor<U>& dst) const {
    Compare(dst, src0_, src1_, cmpMode_, src0_.GetSize());
  }

 private:
  LocalTensor<T> src0_;
  LocalTensor<T> src1_;
  CMPMODE cmpMode_;
};

#define ASCSIM_TENSOR_OPERATOR(Op, Type)                                        \
  template <class T>                                                            \
  Type<T> operator Op(const LocalTensor<T>& src0, const LocalTensor<T>& src1) { \
    return Type<T>(src0, src1);                                                 \
  }
ASCSIM_TENSOR_OPERATOR(+, SymbolOverrideAdd)
ASCSIM_TENSOR_OPERATOR(-, SymbolOverrideSub)
ASCSIM_TENSOR_OPERATOR(*, SymbolOverrideMul)
ASCSIM_TENSOR_OPERATOR(/, SymbolOverrideDiv)
ASCSIM_TENSOR_OPERATOR(|, SymbolOverrideOr)
ASCSIM_TENSOR_OPERATOR(&, SymbolOverrideAnd)
#undef ASCSIM_TENSOR_OPERATOR

#define ASCSIM_TENSOR_COMPARE(Op, Mode)                                                          \
  template <class T>                                                                             \
  SymbolOverrideCompare<T> operator Op(const LocalTensor<T>& src0, const LocalTensor<T>& src1) { \
    return SymbolOverrideCompare<T>(src0, src1, CMPMODE::Mode);                                  \
  }
ASCSIM_TENSOR_COMPARE(<, LT)
ASCSIM_TENSOR_COMPARE(>, GT)
ASCSIM_TENSOR_COMPARE(==, EQ)
ASCSIM_TENSOR_COMPARE(!=, NE)
ASCSIM_TENSOR_COMPARE(<=, LE)
ASCSIM_TENSOR_COMPARE(>=, GE)
#undef ASCSIM_TENSOR_COMPARE

// ------------------------------------------------------------------------------ not simulated
template <bool isAIVOnly = true>
void IBSet(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, int32_t blockIdx,
           int32_t eventID) {
  static_assert(!isAIVOnly && isAIVOnly,
                "ascsim: IBSet/IBWait (blocks spinning on a GM flag) are not simulated; use "
                "SyncAll() for a barrier across blocks");
  (void)blockIdx, (void)eventID;
}
template <bool isAIVOnly = true>
void IBWait(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, int32_t blockIdx,
            int32_t eventID) {
  static_assert(!isAIVOnly && isAIVOnly,
                "ascsim: IBSet/IBWait (blocks spinning on a GM flag) are not simulated; use "
                "SyncAll() for a barrier across blocks");
  (void)blockIdx, (void)eventID;
}

}  // namespace AscendC
