// Cosh, the math advanced API of asc-devkit include/adv_api/math/cosh.h (Atlas A2/A3 forms:
// template <T, isReuseSource>, with or without sharedTmpBuffer and calCount). The algorithm is
// impl/adv_api/detail/math/cosh/cosh_common_impl.h's as the same basic-API calls:
//   cosh x = (e^x + e^-x) / 2 = y1 + 0.25 / y1, y1 = e^(x - ln 2)
// in T for float, in float for half (cast in with CAST_NONE, out with CAST_ROUND as
// cosh_v220_impl.h's CoshCast does). The checks are CheckFuncClassMathCommon's: dst, src and
// sharedTmpBuffer may not share a byte.
// Temporary space (cosh_common_impl.h, impl/adv_api/tiling/math/cosh_tiling_impl.cpp): pieces of
// tmpBytes / sizeof(T) / procedures elements rounded down to 32, two procedures for float (y1 and
// y2; dst holds the 0.25 constant) and six half-sized ones for half (three float pieces: y1, y2
// and the converted x); at least one 256 B repeat per procedure.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/math.h"

namespace AscendC {
namespace detail {

// -ln 2, cosh_common_impl.h's SCALAR_LN2 (the float nearest it).
constexpr float kCoshMinusLn2 = -0.69314718055994530941723212145818f;

// CoshCompute: dst = y1 + 0.25 / y1 with y1 = e^(x - ln 2); dst holds 0.25 in between, so it may
// be the converted x of the half path.
inline void CoshFloat(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                      const LocalTensor<float>& y1, const LocalTensor<float>& y2, uint32_t n) {
  Adds(y2, src, kCoshMinusLn2, n);
  Exp(y1, y2, n);
  Duplicate(dst, 0.25f, n);
  Div(y2, dst, y1, n);
  Add(dst, y1, y2, n);
}

template <class T, bool isReuseSource>
void CoshRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
             uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Cosh takes half or float");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr uint32_t procs = kHalf ? 6 : 2;
  AdvPrologue("Cosh", dst, src, tmp, calCount, uint64_t{procs} * 256);
  ai::CheckNoOverlap("Cosh", "dstTensor", dst, "srcTensor", src, calCount);
  const uint32_t split = tmp.GetSize() / sizeof(T) / procs / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<float> all = tmp.ReinterpretCast<float>();
  ForEachPiece("Cosh", calCount, split, [&](uint32_t off, uint32_t n) {
    if constexpr (kHalf) {
      const LocalTensor<float> x = all[2 * split];
      Cast(x, src[off], RoundMode::CAST_NONE, n);
      CoshFloat(x, x, all, all[split], n);
      Cast(dst[off], x, RoundMode::CAST_ROUND, n);
    } else {
      CoshFloat(dst[off], src[off], all, all[split], n);
    }
  });
}

}  // namespace detail

template <typename T, bool isReuseSource = false>
void Cosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::CoshRun<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void Cosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Cosh<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Cosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount) {
  Cosh<T, isReuseSource>(dstTensor, srcTensor, detail::AdvStack("Cosh"), calCount);
}
template <typename T, bool isReuseSource = false>
void Cosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Cosh<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
