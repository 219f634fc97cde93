// ReduceSum<T, pattern, isReuseSource>: the advanced API that sums a 2-D tensor along the axes its
// pattern marks R (asc-devkit include/adv_api/reduce/reduce.h and reduce_common.h;
// docs/zh/api/SIMD-API/高阶API/归约操作/ReduceSum接口/ReduceSum-90.md). On Atlas A2/A3:
//   - pattern Pattern::Reduce::AR (sum each row: dst[i] = sum_j src[i][j], shape {a, r}) or
//     Pattern::Reduce::RA (sum each column: dst[j] = sum_i src[i][j], shape {r, a});
//   - T float; srcInnerPad true only (the rows of src are padded to 32 B, so row i starts at
//     i * AlignUp(srcShape[1], 8));
//   - src and dst may not overlap, nor either with sharedTmpBuffer.
// Computed with the basic API as a kernel would: AR reduces each row with the count-form
// ReduceSum into the temporary buffer and the scalar unit stores the sum; RA adds the rows with
// Add. The form without sharedTmpBuffer takes its space from the reserved stack (AdvStack).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/aicore/reduce_ops.h"
#include "ascsim/aicore/vector_ops.h"

namespace AscendC {
namespace Pattern {
namespace Reduce {
// The two patterns Atlas A2/A3 support (reduce_common.h declares more for later parts).
struct AR {};
struct RA {};
}  // namespace Reduce
}  // namespace Pattern

namespace detail {
[[noreturn]] inline void FaultReducePattern(const char* api, const std::string& what) {
  namespace ai = ascsim::aicore;
  ai::Fault(ascsim::ErrorKind::kInvalidArgument, ai::Str(api, ": ", what));
}
// dst (`nd` elements) and src (`ns`) may not share a byte (the doc's
// "不支持源操作数与目的操作数地址 重叠").
template <class T>
void CheckReduceDisjoint(const char* api, const LocalTensor<T>& d, uint64_t nd,
                         const LocalTensor<T>& s, uint64_t ns) {
  namespace ai = ascsim::aicore;
  const uint64_t dlo = ai::TensorAccess::UbOffset(d), dhi = dlo + nd * sizeof(T);
  const uint64_t slo = ai::TensorAccess::UbOffset(s), shi = slo + ns * sizeof(T);
  if (dlo < shi && slo < dhi) [[unlikely]] {
    ai::FaultOperandOverlap(api, "dstTensor", dlo, dhi, "srcTensor", slo, shi);
  }
}
}  // namespace detail

// Temporary bytes ReduceSum<float, AR> needs for rows of `r` elements: one block for the row sum,
// then the count-form ReduceSum's work area.
inline uint64_t ReduceSumPatternTmpBytes(bool ar, uint32_t r) {
  return ar ? (8 + ascsim::aicore::ReduceWorkElements<float>(r)) * sizeof(float) : 0;
}

template <class T, class pattern, bool isReuseSource = false>
void ReduceSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],
               bool srcInnerPad) {
  constexpr bool kAR = std::is_same_v<pattern, Pattern::Reduce::AR>;
  static_assert(kAR || std::is_same_v<pattern, Pattern::Reduce::RA>,
                "ReduceSum: pattern must be Pattern::Reduce::AR or Pattern::Reduce::RA (the ones "
                "Atlas A2/A3 support)");
  static_assert(std::is_same_v<T, float>, "ReduceSum<T, pattern>: T must be float on Atlas A2/A3");
  namespace ai = ascsim::aicore;
  const char* api =
      kAR ? "ReduceSum<float, Pattern::Reduce::AR>" : "ReduceSum<float, Pattern::Reduce::RA>";
  if (!srcInnerPad) {
    detail::FaultReducePattern(api,
                               "srcInnerPad false is not supported on Atlas A2/A3 (pad "
                               "src's rows to 32 B and pass true)");
  }
  const uint32_t rows = srcShape[0], cols = srcShape[1];
  if (rows == 0 || cols == 0) {
    detail::FaultReducePattern(api, ai::Str("srcShape {", rows, ", ", cols, "} has an empty axis"));
  }
  const uint32_t stride = (cols + 7) / 8 * 8;
  const uint64_t src_elems = uint64_t{rows - 1} * stride + cols;
  const uint32_t out = kAR ? rows : cols;
  if (src_elems > srcTensor.GetSize() || out > dstTensor.GetSize()) {
    detail::FaultReducePattern(api, ai::Str("srcShape {", rows, ", ", cols, "} needs ", src_elems,
                                            " src and ", out, " dst elements; the tensors hold ",
                                            srcTensor.GetSize(), " and ", dstTensor.GetSize()));
  }
  ai::CheckUbRole(api, "srcTensor", srcTensor, src_elems, ai::Access::kRead);
  ai::CheckUbRole(api, "dstTensor", dstTensor, out, ai::Access::kWrite);
  detail::CheckReduceDisjoint(api, dstTensor, out, srcTensor, src_elems);
  if constexpr (kAR) {
    const uint64_t need = ReduceSumPatternTmpBytes(true, cols);
    ai::TensorAccess::CheckLive(sharedTmpBuffer, api, "sharedTmpBuffer");
    if (sharedTmpBuffer.GetSize() < need) {
      ai::FaultTmpTooSmall(api, sharedTmpBuffer.GetSize(), need,
                           "the row sum and its work area need");
    }
    ai::CheckTmp(api, sharedTmpBuffer, need);
    ai::CheckTmpDisjoint(api, sharedTmpBuffer, "srcTensor", srcTensor, src_elems);
    ai::CheckTmpDisjoint(api, sharedTmpBuffer, "dstTensor", dstTensor, out);
    const LocalTensor<float> sum = sharedTmpBuffer.ReinterpretCast<float>();
    const LocalTensor<float> work = sum[8];
    for (uint32_t i = 0; i < rows; ++i) {
      ReduceSum(sum, srcTensor[i * stride], work, static_cast<int32_t>(cols));
      detail::VectorToScalar();
      dstTensor.SetValue(i, sum.GetValue(0));
      detail::ScalarToVector();
    }
  } else {
    Adds(dstTensor, srcTensor, 0.0f, static_cast<int32_t>(cols));
    for (uint32_t i = 1; i < rows; ++i) {
      PipeBarrier<PIPE_V>();
      Add(dstTensor, dstTensor, srcTensor[i * stride], static_cast<int32_t>(cols));
    }
  }
}

template <class T, class pattern, bool isReuseSource = false>
void ReduceSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const uint32_t srcShape[], bool srcInnerPad) {
  ReduceSum<T, pattern, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("ReduceSum"),
                                       srcShape, srcInnerPad);
}

}  // namespace AscendC
