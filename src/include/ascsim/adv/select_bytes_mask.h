// Select with a byte mask, the advanced API of asc-devkit
// include/adv_api/select/selectwithbytesmask.h
// (`Select`; production kernels call it by its earlier name `SelectWithBytesMask`, which
// impl/adv_api/detail/select/selectwithbytesmask/selectwithbytesmask_impl.h still declares with
// the same parameters). Row r of [firstAxis, srcLastAxis] (docs 数据过滤/Select-95.md):
//   Select(dst, srcTensor, scalar, mask, ...): dst = mask == 0 ? srcTensor : scalar
//   Select(dst, scalar, srcTensor, mask, ...): dst = mask == 0 ? scalar : srcTensor
// reading the first srcLastAxis of the row's maskLastAxis mask elements. The checks are
// impl/adv_api/detail/api_check/kernel_check/select/selectwithbytesmask/
// selectwithbytesmaskcheck_common.h's (sizes equal to firstAxis * the last axes, maskLastAxis >=
// srcLastAxis, maskLastAxis 32 B aligned and a multiple of 16, srcLastAxis 32 B aligned) and the
// 1024 B minimum of sharedTmpBuffer of selectwithbytesmask_impl.h. The computation is the
// per-row path of the docs' 实现原理 as basic-API calls: the mask cast to half (1- and 2-byte
// masks) or float (4-byte masks), CompareScalar against 0, Select in VSEL_TENSOR_SCALAR_MODE, in
// pieces the temporary buffer holds. The mask is never modified (isReuseMask only permits it).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/aicore/compare_select.h"
#include "ascsim/aicore/vector_masked.h"

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

namespace detail {

// The type the mask is compared in, and the type it is cast from (unsigned masks are read as
// their signed twins: zero stays zero and nothing else becomes zero).
template <class U>
using BytesMaskCmpT = std::conditional_t<sizeof(U) == 4, float, half>;
template <class U>
using BytesMaskCastT =
    std::conditional_t<sizeof(U) == 1,
                       std::conditional_t<std::is_same_v<U, int8_t>, int8_t, uint8_t>,
                       std::conditional_t<sizeof(U) == 2, int16_t, int32_t>>;

template <class T, class U>
void SelectWithBytesMaskRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalar,
                            const LocalTensor<U>& mask, const LocalTensor<uint8_t>& tmp,
                            const SelectWithBytesMaskShapeInfo& info, bool scalar_first) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "Select (byte mask) takes half or float");
  static_assert(std::is_same_v<U, bool> || std::is_same_v<U, uint8_t> ||
                    std::is_same_v<U, int8_t> || std::is_same_v<U, uint16_t> ||
                    std::is_same_v<U, int16_t> || std::is_same_v<U, uint32_t> ||
                    std::is_same_v<U, int32_t>,
                "Select (byte mask): the mask is bool, uint8_t, int8_t, uint16_t, int16_t, "
                "uint32_t or int32_t");
  namespace ai = ascsim::aicore;
  constexpr const char* api = "Select";
  if (ai::OnCubeCoreOnly()) return;
  const uint64_t rows = info.firstAxis, k = info.srcLastAxis, mk = info.maskLastAxis;
  const auto bad = [&](const std::string& what) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, " (byte mask): ", what, " (firstAxis ", rows, ", srcLastAxis ", k,
                      ", maskLastAxis ", mk, ")"));
  };
  if (src.GetSize() != rows * k) {
    bad(ai::Str("firstAxis * srcLastAxis is ", rows * k, ", not the srcTensor size ",
                src.GetSize()));
  }
  if (mask.GetSize() != rows * mk) {
    bad(ai::Str("firstAxis * maskLastAxis is ", rows * mk, ", not the mask size ", mask.GetSize()));
  }
  if (mk < k) bad("maskLastAxis is smaller than srcLastAxis");
  if ((mk * sizeof(U)) % ONE_BLK_SIZE != 0 || mk % 16 != 0) {
    bad("maskLastAxis must be 32 B aligned and a multiple of 16");
  }
  if ((k * sizeof(T)) % ONE_BLK_SIZE != 0) bad("srcLastAxis must be 32 B aligned");
  const uint64_t n = rows * k;
  if (dst.GetSize() < n) {
    ai::Fault(ascsim::ErrorKind::kOutOfBounds,
              ai::Str(api, " (byte mask): dst holds ", dst.GetSize(), " elements; ", n, " needed"));
  }
  ai::CheckUbRole(api, "srcTensor", src, n, ai::Access::kRead);
  ai::CheckUbRole(api, "mask", mask, rows * mk, ai::Access::kRead);
  ai::CheckUbRole(api, "dst", dst, n, ai::Access::kWrite);
  constexpr uint64_t kMinTmp = 1024;  // selectwithbytesmask_impl.h MIN_REQUIRED_BUFFER
  ai::TensorAccess::CheckLive(tmp, api, "sharedTmpBuffer");
  if (tmp.GetSize() < kMinTmp) ai::FaultTmpTooSmall(api, tmp.GetSize(), kMinTmp, "the API needs");
  ai::CheckTmp(api, tmp, tmp.GetSize());
  ai::CheckTmpDisjoint(api, tmp, "srcTensor", src, n);
  ai::CheckTmpDisjoint(api, tmp, "mask", mask, rows * mk);
  ai::CheckTmpDisjoint(api, tmp, "dst", dst, n);

  using C = BytesMaskCmpT<U>;
  using M = BytesMaskCastT<U>;
  // The last 256 B hold the compare bits (2048 elements at most), the rest the converted mask.
  constexpr uint32_t kBitsBytes = 256;
  const uint64_t bits_at = (tmp.GetSize() - kBitsBytes) / ONE_BLK_SIZE * ONE_BLK_SIZE;
  uint64_t piece = bits_at / sizeof(C) / 64 * 64;
  if (piece > kBitsBytes * 8) piece = kBitsBytes * 8;
  const LocalTensor<C> conv = tmp.ReinterpretCast<C>();
  const LocalTensor<uint8_t> bits = tmp[bits_at];
  const LocalTensor<M> m = mask.template ReinterpretCast<M>();
  // mask == 0 picks the tensor (bit 1 takes src0 in VSEL_TENSOR_SCALAR_MODE); scalar first: != 0.
  const CMPMODE mode = scalar_first ? CMPMODE::NE : CMPMODE::EQ;
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t off = 0; off < k; off += piece) {
      const uint32_t len = static_cast<uint32_t>(k - off < piece ? k - off : piece);
      Cast(conv, m[r * mk + off], RoundMode::CAST_NONE, len);
      SetMaskCount();
      SetVectorMask<C, MaskMode::COUNTER>(0, len);
      CompareScalar<C, uint8_t, false>(bits, conv, C(0), mode, MASK_PLACEHOLDER, 1,
                                       UnaryRepeatParams());
      SetVectorMask<T, MaskMode::COUNTER>(0, len);
      Select<T, uint8_t, false>(dst[r * k + off], bits, src[r * k + off], scalar,
                                SELMODE::VSEL_TENSOR_SCALAR_MODE, MASK_PLACEHOLDER, 1,
                                BinaryRepeatParams());
      SetMaskNorm();
      ResetMask();
    }
  }
}

}  // namespace detail

template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
            const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const SelectWithBytesMaskShapeInfo& info) {
  detail::SelectWithBytesMaskRun<T, U>(dst, src0, src1, mask, sharedTmpBuffer, info, false);
}
template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
            const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const SelectWithBytesMaskShapeInfo& info) {
  detail::SelectWithBytesMaskRun<T, U>(dst, src1, src0, mask, sharedTmpBuffer, info, true);
}
template <typename T, typename U, bool isReuseMask = true>
void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
                         const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                         const SelectWithBytesMaskShapeInfo& info) {
  detail::SelectWithBytesMaskRun<T, U>(dst, src0, src1, mask, sharedTmpBuffer, info, false);
}
template <typename T, typename U, bool isReuseMask = true>
void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
                         const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                         const SelectWithBytesMaskShapeInfo& info) {
  detail::SelectWithBytesMaskRun<T, U>(dst, src1, src0, mask, sharedTmpBuffer, info, true);
}

}  // namespace AscendC
