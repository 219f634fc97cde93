// Round, Trunc and Frac, the rounding advanced APIs of asc-devkit include/adv_api/math/{round.h,
// trunc.h, frac.h} (docs/zh/api/SIMD-API/高阶API/数学计算/{Round,Trunc,Frac}接口), each as the
// Atlas A2/A3 algorithm of impl/adv_api/detail/math/{round,trunc,frac}/*_common_impl.h and
// *_v220_impl.h written as the same basic-API calls:
//   Round  Cast with CAST_RINT (half to even); half through one float piece
//   Trunc  Cast with CAST_TRUNC (toward zero); half through one float piece; float also walks the
//          temporary buffer's pieces as the device does
//   Frac   x - Trunc(x) by Cast CAST_TRUNC and Sub, in float (half through two float pieces)
// The minimum temporary sizes are those of GetRoundMaxMinTmpSize / GetTruncMaxMinTmpSize /
// GetFracMaxMinTmpSize (impl/adv_api/tiling/math/{round,trunc,frac}_tiling_impl.cpp): Round 0
// (float) / 256 B (half), Trunc 256 B / 512 B, Frac 0 / 1024 B. Frac's src and dst may not
// overlap (its documented constraint; on the device the float path would read the truncated
// value back and give 0).
#pragma once

#include <cstdint>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/math.h"

namespace AscendC {
namespace detail {

// Half through float: each piece is cast to float, rounded with `mode`, cast back.
inline void RoundHalfPieces(const char* api, RoundMode mode, const LocalTensor<half>& dst,
                            const LocalTensor<half>& src, const LocalTensor<uint8_t>& tmp,
                            uint32_t calCount, uint64_t min_tmp) {
  AdvPrologue(api, dst, src, tmp, calCount, min_tmp);
  const uint32_t split = tmp.GetSize() / sizeof(float) / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const LocalTensor<float> f = tmp.ReinterpretCast<float>();
  ForEachPiece(api, calCount, split, [&](uint32_t off, uint32_t n) {
    Cast(f, src[off], RoundMode::CAST_NONE, n);
    Cast(f, f, mode, n);
    Cast(dst[off], f, RoundMode::CAST_NONE, n);
  });
}

template <class T>
void RoundImplSim(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  const LocalTensor<uint8_t>* tmp, uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Round takes half or float");
  if constexpr (sizeof(T) == 4) {
    // The float path uses no temporary space (GetRoundMaxMinTmpSize gives 0 on A2/A3).
    ascsim::aicore::CheckCalCount("Round", calCount, src.GetSize(), dst.GetSize());
    Cast(dst, src, RoundMode::CAST_RINT, calCount);
  } else {
    RoundHalfPieces("Round", RoundMode::CAST_RINT, dst, src, tmp ? *tmp : AdvStack("Round"),
                    calCount, 256);
  }
}

template <class T>
void TruncImplSim(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  const LocalTensor<uint8_t>* tmp, uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Trunc takes half or float");
  const LocalTensor<uint8_t> t = tmp ? *tmp : AdvStack("Trunc");
  if constexpr (sizeof(T) == 4) {
    AdvPrologue("Trunc", dst, src, t, calCount, 256);
    const uint32_t split = t.GetSize() / sizeof(float) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    ForEachPiece("Trunc", calCount, split, [&](uint32_t off, uint32_t n) {
      Cast(dst[off], src[off], RoundMode::CAST_TRUNC, n);
    });
  } else {
    RoundHalfPieces("Trunc", RoundMode::CAST_TRUNC, dst, src, t, calCount, 512);
  }
}

template <class T>
void FracImplSim(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                 const LocalTensor<uint8_t>* tmp, uint32_t calCount) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Frac takes half or float");
  namespace ai = ascsim::aicore;
  ai::CheckCalCount("Frac", calCount, src.GetSize(), dst.GetSize());
  const uint64_t s = ai::TensorAccess::UbOffset(src), d = ai::TensorAccess::UbOffset(dst);
  const uint64_t bytes = uint64_t{calCount} * sizeof(T);
  if (calCount != 0 && s < d + bytes && d < s + bytes) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str("Frac: srcTensor [", ai::Hex(s), ", ", ai::Hex(s + bytes),
                      ") and dstTensor [", ai::Hex(d), ", ", ai::Hex(d + bytes),
                      ") overlap; Frac does not support overlapping source and destination "
                      "(its documented constraint)"));
  }
  if constexpr (sizeof(T) == 4) {
    Cast(dst, src, RoundMode::CAST_TRUNC, calCount);
    Sub(dst, src, dst, calCount);
  } else {
    const LocalTensor<uint8_t> t = tmp ? *tmp : AdvStack("Frac");
    AdvPrologue("Frac", dst, src, t, calCount, 4 * 256);
    const uint32_t split = t.GetSize() / sizeof(float) / 2 / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const LocalTensor<float> x = t.ReinterpretCast<float>(), r = x[split];
    ForEachPiece("Frac", calCount, split, [&](uint32_t off, uint32_t n) {
      Cast(x, src[off], RoundMode::CAST_NONE, n);
      Cast(r, x, RoundMode::CAST_TRUNC, n);
      Sub(r, x, r, n);
      Cast(dst[off], r, RoundMode::CAST_NONE, n);
    });
  }
}

}  // namespace detail

#define ASCSIM_ROUNDING_API(Api)                                                          \
  template <class T, bool isReuseSource = false>                                          \
  void Api(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,              \
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {        \
    detail::Api##ImplSim<T>(dstTensor, srcTensor, &sharedTmpBuffer, calCount);            \
  }                                                                                       \
  template <class T, bool isReuseSource = false>                                          \
  void Api(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,              \
           const uint32_t calCount) {                                                     \
    detail::Api##ImplSim<T>(dstTensor, srcTensor, nullptr, calCount);                     \
  }                                                                                       \
  template <class T, bool isReuseSource = false>                                          \
  void Api(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,              \
           const LocalTensor<uint8_t>& sharedTmpBuffer) {                                 \
    detail::Api##ImplSim<T>(dstTensor, srcTensor, &sharedTmpBuffer, srcTensor.GetSize()); \
  }                                                                                       \
  template <class T, bool isReuseSource = false>                                          \
  void Api(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {            \
    detail::Api##ImplSim<T>(dstTensor, srcTensor, nullptr, srcTensor.GetSize());          \
  }

ASCSIM_ROUNDING_API(Round)
ASCSIM_ROUNDING_API(Trunc)
ASCSIM_ROUNDING_API(Frac)
#undef ASCSIM_ROUNDING_API

}  // namespace AscendC
