// The gated linear unit activations of asc-devkit include/adv_api/activation/{swiglu.h, geglu.h,
// reglu.h} (docs/zh/api/SIMD-API/高阶API/激活函数/{SwiGLU,GeGLU,ReGlu}接口), dst = src0 * f(src1):
//   SwiGLU  f(x) = x / (1 + e^(-beta x))                        (Swish)
//   GeGLU   f(x) = x / (1 + e^(COEFF0 (x^2 + COEFF1) x))        (the tanh form of GeLU)
//   ReGlu   f(x) = max(x, 0)
// written, as the Atlas A2/A3 implementations write them (impl/adv_api/detail/activation/
// {swiglu/swiglu_common_impl.h, geglu/geglu_common_impl.h, reglu/reglu_common_impl.h and
// reglu_v220_impl.h}), as the same basic-API calls, so each step rounds as on the device:
//   - float: the steps in dst (SwiGLU, GeGLU; ReGlu: Maxs then Mul), the temporary buffer unused;
//   - half (and bfloat16_t for ReGlu): src0 and src1 cast to float in sharedTmpBuffer, the steps in
//     float, the result cast back (CAST_NONE, round to nearest even; bfloat16_t CAST_RINT), in
//     pieces of what the buffer holds: SwiGLU 3 floats per element (pieces of whole 32 B of T),
//     GeGLU 2 floats (8 B), ReGlu 3 floats (pieces of whole 32 floats).
// The forms without sharedTmpBuffer take the UB above the TPipe's buffers (PopStackBuffer).
// As on the device, dst may not overlap src1 on the float path (it is written before src1 is read
// again); ascsim computes what the device's steps give.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"

namespace AscendC {

namespace detail {

// CANN's kernel checks of the three (src0 and src1 the same size, calCount inside the operands),
// with the UB role checks of the neighbours.
template <class T>
void GluCheck(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
              const LocalTensor<T>& src1, uint32_t calCount) {
  namespace ai = ascsim::aicore;
  if (src0.GetSize() != src1.GetSize()) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": size of src0 (", src0.GetSize(), ") is not equal to size of src1 (",
                      src1.GetSize(), ")"));
  }
  ai::CheckCalCount(api, calCount, src0.GetSize(), dst.GetSize());
  ai::CheckUbRole(api, "srcTensor0", src0, calCount, ai::Access::kRead);
  ai::CheckUbRole(api, "srcTensor1", src1, calCount, ai::Access::kRead);
  ai::CheckUbRole(api, "dstTensor", dst, calCount, ai::Access::kWrite);
}

// The float steps of one piece of n elements: `x` the float src1, `y` the result (SwiGLU's
// SwishCalcSimplified then Mul; the float src0 `a` multiplied in by the caller).
inline void SwishSteps(const LocalTensor<float>& y, const LocalTensor<float>& x, float neg_beta,
                       uint32_t n) {
  Muls(y, x, neg_beta, n);
  Exp(y, y, n);
  Adds(y, y, 1.0f, n);
  Div(y, x, y, n);
}

// GeGLU's constants (geglu_common_impl.h COEFF0 / COEFF1).
inline constexpr float kGeGluCoeff0 = -0.0713548162726f;
inline constexpr float kGeGluCoeff1 = 2.2363860002236e1f;

template <class T>
void GeluTanhSteps(const LocalTensor<T>& y, const LocalTensor<T>& x, uint32_t n) {
  Mul(y, x, x, n);
  Adds(y, y, static_cast<T>(kGeGluCoeff1), n);
  Mul(y, y, x, n);
  Muls(y, y, static_cast<T>(kGeGluCoeff0), n);
  Exp(y, y, n);
  Adds(y, y, static_cast<T>(1.0f), n);
  Div(y, x, y, n);
}

inline uint32_t RoundDownElems(uint64_t elems, uint32_t elem_bytes) {
  return static_cast<uint32_t>(elems * elem_bytes / 32 * 32 / elem_bytes);
}
inline uint32_t RoundUpElems(uint64_t elems, uint32_t elem_bytes) {
  return static_cast<uint32_t>((elems * elem_bytes + 31) / 32 * 32 / elem_bytes);
}

template <class T>
void SwiGLUCompute(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, float beta, const LocalTensor<uint8_t>& tmp,
                   uint32_t calCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SwiGLU takes half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  GluCheck("SwiGLU", dst, src0, src1, calCount);
  const float neg_beta = -1.0f * beta;
  if constexpr (std::is_same_v<T, float>) {
    // swiglu_common_impl.h splits a float call at calCount rounded down to whole blocks; every
    // piece runs the same element-wise steps, so one pass over calCount is the same.
    SwishSteps(dst, src1, neg_beta, calCount);
    Mul(dst, src0, dst, calCount);
  } else {
    if (calCount == 0) return;
    // 3 floats per element, whole 32 B of half; 16 elements when that is 0 (CANN), which then
    // needs 3 * 16 floats of the buffer.
    uint32_t stack = RoundDownElems(tmp.GetSize() / sizeof(float) / 3, sizeof(T));
    if (stack == 0) stack = 32 / sizeof(T);
    if (uint64_t{3} * stack * sizeof(float) > tmp.GetSize()) {
      ai::FaultTmpTooSmall("SwiGLU", tmp.GetSize(), uint64_t{3} * stack * sizeof(float),
                           "a half call needs (3 floats for each of 16 elements at least);");
    }
    ai::CheckTmpDisjoint("SwiGLU", tmp, "srcTensor0", src0, calCount);
    ai::CheckTmpDisjoint("SwiGLU", tmp, "srcTensor1", src1, calCount);
    ai::CheckTmpDisjoint("SwiGLU", tmp, "dstTensor", dst, calCount);
    const LocalTensor<float> f = tmp.ReinterpretCast<float>();
    for (uint32_t off = 0; off < calCount; off += stack) {
      const uint32_t n = calCount - off < stack ? calCount - off : stack;
      // The buffers sit at the piece's size (the tail's rounded up to whole blocks).
      const uint32_t at = n == stack ? stack : RoundUpElems(n, sizeof(T));
      const LocalTensor<float> x1 = f, y = f[at], x0 = f[2 * at];
      Cast(x1, src1[off], RoundMode::CAST_NONE, n);
      SwishSteps(y, x1, neg_beta, n);
      Cast(x0, src0[off], RoundMode::CAST_NONE, n);
      Mul(y, x0, y, n);
      Cast(dst[off], y, RoundMode::CAST_NONE, n);
    }
  }
}

template <class T>
void GeGLUCompute(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                  const LocalTensor<T>& src1, const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GeGLU takes half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  GluCheck("GeGLU", dst, src0, src1, calCount);
  if constexpr (std::is_same_v<T, float>) {
    GeluTanhSteps(dst, src1, calCount);
    Mul(dst, src0, dst, calCount);
  } else {
    if (calCount == 0) return;
    // 8 B per element, whole 32 B of half (geglu_common_impl.h GEGLU_HALF_BUFFER_SIZE); CANN
    // loops forever when that is 0.
    const uint32_t piece = RoundDownElems(tmp.GetSize() / 8, sizeof(T));
    if (piece == 0) {
      ai::FaultTmpTooSmall("GeGLU", tmp.GetSize(), 8 * 16,
                           "a half call needs (2 floats for each of 16 elements at least; with "
                           "less the device's loop makes no progress);");
    }
    ai::CheckTmpDisjoint("GeGLU", tmp, "srcTensor0", src0, calCount);
    ai::CheckTmpDisjoint("GeGLU", tmp, "srcTensor1", src1, calCount);
    ai::CheckTmpDisjoint("GeGLU", tmp, "dstTensor", dst, calCount);
    const LocalTensor<float> f = tmp.ReinterpretCast<float>();
    for (uint32_t off = 0; off < calCount; off += piece) {
      const uint32_t n = calCount - off < piece ? calCount - off : piece;
      const LocalTensor<float> x = f, y = f[RoundUpElems(n, sizeof(T))];
      Cast(x, src1[off], RoundMode::CAST_NONE, n);
      GeluTanhSteps(y, x, n);
      Cast(x, src0[off], RoundMode::CAST_NONE, n);
      Mul(y, x, y, n);
      Cast(dst[off], y, RoundMode::CAST_NONE, n);
    }
  }
}

template <class T>
void ReGluCompute(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                  const LocalTensor<T>& src1, const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> ||
                    std::is_same_v<T, bfloat16_t>,
                "ReGlu takes half, bfloat16_t or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  GluCheck("ReGlu", dst, src0, src1, calCount);
  if constexpr (std::is_same_v<T, float>) {
    Maxs(dst, src1, 0.0f, calCount);
    Mul(dst, src0, dst, calCount);
  } else {
    // reglu_common_impl.h: tmp floats / 3, whole 32 floats ("stackSize must > 0!").
    const uint32_t stack = static_cast<uint32_t>(tmp.GetSize() / sizeof(float) / 3 / 32 * 32);
    if (stack == 0) {
      ai::FaultTmpTooSmall("ReGlu", tmp.GetSize(), 3 * 32 * sizeof(float),
                           "a half or bfloat16_t call needs (stackSize must > 0: 3 floats for "
                           "each of 32 elements at least);");
    }
    if (calCount == 0) return;
    ai::CheckTmpDisjoint("ReGlu", tmp, "srcTensor0", src0, calCount);
    ai::CheckTmpDisjoint("ReGlu", tmp, "srcTensor1", src1, calCount);
    ai::CheckTmpDisjoint("ReGlu", tmp, "dstTensor", dst, calCount);
    const LocalTensor<float> f = tmp.ReinterpretCast<float>();
    const LocalTensor<float> x0 = f, x1 = f[stack], y = f[2 * stack];
    const RoundMode back = std::is_same_v<T, half> ? RoundMode::CAST_NONE : RoundMode::CAST_RINT;
    for (uint32_t off = 0; off < calCount; off += stack) {
      const uint32_t n = calCount - off < stack ? calCount - off : stack;
      Cast(x0, src0[off], RoundMode::CAST_NONE, n);
      Cast(x1, src1[off], RoundMode::CAST_NONE, n);
      Maxs(y, x1, 0.0f, n);
      Mul(y, x0, y, n);
      Cast(dst[off], y, back, n);
    }
  }
}

}  // namespace detail

// ============================================================================ SwiGLU (swiglu.h)
template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::SwiGLUCompute(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer, calCount);
}

template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue,
            const LocalTensor<uint8_t>& sharedTmpBuffer) {
  detail::SwiGLUCompute(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer,
                        srcTensor0.GetSize());
}

template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::SwiGLUCompute(dstTensor, srcTensor0, srcTensor1, scalarValue,
                        detail::AdvStack("SwiGLU"), calCount);
}

template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, LocalTensor<T>& srcTensor0, LocalTensor<T>& srcTensor1,
            const float& scalarValue) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::SwiGLUCompute(dstTensor, srcTensor0, srcTensor1, scalarValue,
                        detail::AdvStack("SwiGLU"), srcTensor0.GetSize());
}

// ============================================================================== GeGLU (geglu.h)
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
           uint32_t calCount) {
  detail::GeGLUCompute(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, calCount);
}

template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, uint32_t calCount) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::GeGLUCompute(dstTensor, srcTensor0, srcTensor1, detail::AdvStack("GeGLU"), calCount);
}

template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  detail::GeGLUCompute(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize());
}

template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::GeGLUCompute(dstTensor, srcTensor0, srcTensor1, detail::AdvStack("GeGLU"),
                       srcTensor0.GetSize());
}

// ============================================================================== ReGlu (reglu.h)
template <typename T, bool isReuseSource = false>
void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
           const uint32_t calCount) {
  detail::ReGluCompute(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, calCount);
}

template <typename T, bool isReuseSource = false>
void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const uint32_t calCount) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::ReGluCompute(dstTensor, srcTensor0, srcTensor1, detail::AdvStack("ReGlu"), calCount);
}

}  // namespace AscendC
