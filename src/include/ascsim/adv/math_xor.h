// Xor, the math advanced API of asc-devkit include/adv_api/math/xor.h
// (docs/zh/api/SIMD-API/高阶API/数学计算/Xor接口): dst = src0 ^ src1 for int16_t / uint16_t, as
// impl/adv_api/detail/math/xor/xor_membase_impl.h writes it for Atlas A2/A3 in basic-API calls:
// (src0 | src1) & ~(src0 & src1), the Or in sharedTmpBuffer, in pieces of its bytes / sizeof(T)
// elements (whole 32 elements). The forms without sharedTmpBuffer take the UB above the TPipe.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"

namespace AscendC {

namespace detail {

template <class T>
void XorCompute(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>,
                "Failed to check the data types, current api support data types are "
                "int16_t/uint16_t.");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  if (calCount > src0.GetSize() || calCount > src1.GetSize() || calCount > dst.GetSize()) {
    ai::Fault(ascsim::ErrorKind::kOutOfBounds,
              ai::Str("Xor: calCount ", calCount, " exceeds src0 (", src0.GetSize(), "), src1 (",
                      src1.GetSize(), ") or dst (", dst.GetSize(), ")"));
  }
  const uint32_t stack = static_cast<uint32_t>(tmp.GetSize() / sizeof(T) / 32 * 32);
  if (stack == 0) {
    ai::FaultTmpTooSmall("Xor", tmp.GetSize(), 32 * sizeof(T), "one piece of 32 elements needs");
  }
  ai::CheckTmpDisjoint("Xor", tmp, "src0Tensor", src0, calCount);
  ai::CheckTmpDisjoint("Xor", tmp, "src1Tensor", src1, calCount);
  ai::CheckTmpDisjoint("Xor", tmp, "dstTensor", dst, calCount);
  const LocalTensor<T> t = tmp.ReinterpretCast<T>();
  for (uint32_t off = 0; off < calCount; off += stack) {
    const uint32_t n = calCount - off < stack ? calCount - off : stack;
    And(dst[off], src0[off], src1[off], n);
    Or(t, src0[off], src1[off], n);
    Not(dst[off], dst[off], n);
    And(dst[off], t, dst[off], n);
  }
}

inline void XorCheckSameSize(uint64_t a, uint64_t b) {
  namespace ai = ascsim::aicore;
  if (a != b) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str("Xor: Failed to check src0Tensor size ", a, " and src1Tensor size ", b,
                      ", should be equal When calCount parameter is not included."));
  }
}

}  // namespace detail

template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const uint32_t calCount) {
  detail::XorCompute(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, calCount);
}

template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  detail::XorCheckSameSize(src0Tensor.GetSize(), src1Tensor.GetSize());
  detail::XorCompute(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}

template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::XorCompute(dstTensor, src0Tensor, src1Tensor, detail::AdvStack("Xor"), calCount);
}

template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::XorCheckSameSize(src0Tensor.GetSize(), src1Tensor.GetSize());
  detail::XorCompute(dstTensor, src0Tensor, src1Tensor, detail::AdvStack("Xor"),
                     src0Tensor.GetSize());
}

}  // namespace AscendC
