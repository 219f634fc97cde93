// Whole-tensor expressions, `dst = a + b;` (+ - * / | & and the comparisons), through the
// SymbolOverride* types of kernel_tensor.h: the count-form op over dst.GetSize() elements
// (src0.GetSize() for comparisons).
// Sources: asc-devkit include/basic_api/kernel_tensor.h and
// impl/basic_api/kernel_operator_symbol_override_impl.h (SymbolOverride*).
#pragma once

#include <cstdint>

#include "ascsim/aicore/compare_select.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/vector_ops.h"

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

}  // namespace AscendC
