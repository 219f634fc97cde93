// TopK, the sort advanced API of asc-devkit include/adv_api/sort/topk.h (docs 高阶API/排序操作/
// TopK.md), Atlas A2/A3 MERGE_SORT: the k largest (isLargest) or smallest values of each row of an
// [outter, inner] half / float tensor (n of inner real, inner a multiple of 32) and their indices,
// in order; equal values keep their input order, NaN sorts first either way.
//   TOPK_NORMAL  inner <= 4096; row j's k values at dstValueLocal[j * k_pad] (k rounded up to
//                32 B of T) and indices at dstIndexLocal[j * kpad_index] (k rounded up to 8);
//                srcIndexLocal (isInitIndex) is one row of inner indices for every row, else
//                0..inner-1; isHasfinish: a row whose finishLocal is true gets k indices n.
//   TOPK_NSMALL  inner == 32; the outputs are k per row, packed; srcIndexLocal (isInitIndex) has
//                one row of indices per row; no finish flags.
// The algorithm is impl/adv_api/detail/sort/topk/topk_common_impl.h and topk_v220_impl.h's, as
// basic-API calls: indices by ArithProgression, the smallest sorted as the largest of the
// values times -1 (Muls) and multiplied back, Sort32 and MrgSort (ascsim's Sort<T, true> merges
// four lists a pass where CANN's last pass merges two, with the same order), and GatherMask in
// counter mode taking the first k values and indices. The ordering of the results is the
// device's; the number of MrgSort instructions may differ.
// Temporary space (impl/adv_api/tiling/sort/topk_tiling_impl.cpp GetTopKMaxMinTmpSize220):
// normal 16 * inner B (two sorted rows of 8 B pairs) + 4 * inner without isInitIndex; small
// outter * 32 * 8 B + 64 B, + outter * 32 * 4 B for the negated values (!isLargest) and for the
// generated indices (!isInitIndex). RADIX_SELECT (Ascend 950) is refused at compile time.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/adv/index.h"
#include "ascsim/adv/kernel_tiling_structs.h"
#include "ascsim/adv/topk_common_constants.h"
#include "ascsim/adv/topk_types.h"
#include "ascsim/aicore/gather_mask.h"
#include "ascsim/aicore/sort.h"

namespace AscendC {
namespace detail {

constexpr int32_t kTopKNormalInnerMax = 4096;
constexpr int32_t kTopKSmallInner = 32;
constexpr uint32_t kTopKSmallMaskBytes = 64;  // TOPKNSMALL_MASK_BYTES

// The least temporary bytes (GetTopKMaxMinTmpSize220).
inline uint64_t TopKTmpBytes(bool small, int32_t inner, int32_t outter, bool isInitIndex,
                             bool isLargest) {
  const uint64_t in = static_cast<uint64_t>(inner);
  if (!small) return 16 * in + (isInitIndex ? 0 : 4 * in);
  const uint64_t all = in * static_cast<uint64_t>(outter);
  return all * 8 + kTopKSmallMaskBytes + (isLargest ? 0 : all * 4) + (isInitIndex ? 0 : all * 4);
}

// TopkInputCheck (topk_v220_impl.h) and the operand sizes the docs give.
template <class T, bool isInitIndex, bool isHasfinish, bool small>
void TopKCheck(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex,
               const LocalTensor<T>& src, const LocalTensor<int32_t>& srcIndex,
               const LocalTensor<bool>& finish, const LocalTensor<uint8_t>& tmp, int32_t k,
               const TopKInfo& info, bool isLargest) {
  namespace ai = ascsim::aicore;
  constexpr const char* api = "TopK";
  const auto bad = [&](const std::string& what) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument, ai::Str(api, ": ", what));
  };
  if (info.outter < 1) bad(ai::Str("topKInfo.outter ", info.outter, " must be at least 1"));
  if (info.inner <= 0 || info.inner % 32 != 0) {
    bad(ai::Str("topKInfo.inner ", info.inner, " must be a positive multiple of 32"));
  }
  if (!small && info.inner > kTopKNormalInnerMax) {
    bad(ai::Str("topKInfo.inner ", info.inner, " exceeds 4096, the most TOPK_NORMAL sorts"));
  }
  if (small && info.inner != kTopKSmallInner) {
    bad(ai::Str("topKInfo.inner ", info.inner, " must be 32 in TOPK_NSMALL mode"));
  }
  if (info.n < 1 || info.n > info.inner) {
    bad(ai::Str("topKInfo.n ", info.n, " must be in [1, inner ", info.inner, "]"));
  }
  if (k < 1 || k > info.n) bad(ai::Str("k ", k, " must be in [1, n ", info.n, "]"));
  const uint64_t rows = static_cast<uint64_t>(info.outter);
  const uint64_t kk = static_cast<uint64_t>(k);
  const uint64_t kpad_t = (kk * sizeof(T) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE /
                          sizeof(T);
  const uint64_t kpad_i = (kk + 7) / 8 * 8;
  const auto need = [&](const char* role, uint64_t have, uint64_t want) {
    if (have < want) {
      ai::Fault(ascsim::ErrorKind::kOutOfBounds,
                ai::Str(api, ": ", role, " holds ", have, " elements, fewer than the ", want,
                        " the shape needs"));
    }
  };
  need("srcLocal", src.GetSize(), rows * static_cast<uint64_t>(info.inner));
  need("dstValueLocal", dstValue.GetSize(), small ? rows * kk : rows * kpad_t);
  need("dstIndexLocal", dstIndex.GetSize(), small ? rows * kk : rows * kpad_i);
  if (isInitIndex) {
    need("srcIndexLocal", srcIndex.GetSize(),
         small ? rows * kTopKSmallInner : static_cast<uint64_t>(info.inner));
  }
  if (isHasfinish) need("finishLocal", finish.GetSize(), rows);
  ai::CheckNoOverlap(api, "dstValueLocal", dstValue, "srcLocal", src,
                     small ? rows * kk : rows * kpad_t);
  const uint64_t tmp_need = TopKTmpBytes(small, info.inner, info.outter, isInitIndex, isLargest);
  ai::TensorAccess::CheckLive(tmp, api, "tmpLocal");
  if (tmp.GetSize() < tmp_need) {
    ai::FaultTmpTooSmall(api, tmp.GetSize(), tmp_need, "the shape needs (GetTopKMaxMinTmpSize)");
  }
  ai::CheckTmp(api, tmp, tmp_need);
  ai::CheckTmpDisjoint(api, tmp, "srcLocal", src, rows * static_cast<uint64_t>(info.inner));
  ai::CheckTmpDisjoint(api, tmp, "dstValueLocal", dstValue, small ? rows * kk : rows * kpad_t);
  ai::CheckTmpDisjoint(api, tmp, "dstIndexLocal", dstIndex, small ? rows * kk : rows * kpad_i);
}

// The first k (value, index) pairs of `rows` sorted rows of 32 * `row_groups` pairs at `sorted`
// into dstValue / dstIndex, k per row, packed (GatherMask counter mode: pattern 1 / 3 picks the
// value of each float / half pair, pattern 2 of the pairs as floats the index).
template <class T>
void TopKGather(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex,
                const LocalTensor<T>& sorted, uint32_t rows, uint32_t row_groups, int32_t k) {
  constexpr uint32_t pp = ascsim::aicore::kSortPairBytes / sizeof(T);  // T per pair
  const uint16_t stride = static_cast<uint16_t>(row_groups * 8);       // blocks per sorted row
  uint64_t cnt = 0;
  GatherMask(dstValue, sorted, uint8_t(sizeof(T) == 2 ? 3 : 1), true,
             static_cast<uint32_t>(k) * pp, GatherMaskParams(1, static_cast<uint16_t>(rows),
                                                             stride, 0),
             cnt);
  GatherMask(dstIndex.template ReinterpretCast<float>(), sorted.template ReinterpretCast<float>(),
             uint8_t(2), true, static_cast<uint32_t>(k) * 2,
             GatherMaskParams(1, static_cast<uint16_t>(rows), stride, 0), cnt);
}

template <class T, bool isInitIndex, bool isHasfinish, TopKMode mode>
void TopKRun(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex,
             const LocalTensor<T>& src, const LocalTensor<int32_t>& srcIndex,
             const LocalTensor<bool>& finish, const LocalTensor<uint8_t>& tmp, int32_t k,
             const TopKInfo& info, bool isLargest) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "TopK takes half or float");
  constexpr bool small = mode == TopKMode::TOPK_NSMALL;
  static_assert(!(small && isHasfinish), "TopK: TOPK_NSMALL mode takes isHasfinish = false");
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  TopKCheck<T, isInitIndex, isHasfinish, small>(dstValue, dstIndex, src, srcIndex, finish, tmp, k,
                                                 info, isLargest);
  const uint32_t inner = static_cast<uint32_t>(info.inner);
  const uint32_t rows = static_cast<uint32_t>(info.outter);
  const LocalTensor<T> sorted = tmp.ReinterpretCast<T>();
  if constexpr (!small) {
    constexpr uint32_t kpad_t = ONE_BLK_SIZE / sizeof(T);
    const uint32_t value_stride = (static_cast<uint32_t>(k) + kpad_t - 1) / kpad_t * kpad_t;
    const uint32_t index_stride = (static_cast<uint32_t>(k) + 7) / 8 * 8;
    LocalTensor<T> work = tmp[8 * inner].template ReinterpretCast<T>();
    LocalTensor<uint32_t> index = srcIndex.template ReinterpretCast<uint32_t>();
    if constexpr (!isInitIndex) {
      const LocalTensor<int32_t> made = tmp[16 * inner].template ReinterpretCast<int32_t>();
      ArithProgression(made, int32_t{0}, int32_t{1}, static_cast<int32_t>(inner));
      index = made.template ReinterpretCast<uint32_t>();
    }
    for (uint32_t j = 0; j < rows; ++j) {
      LocalTensor<T> values = src[j * inner];
      if (!isLargest) {
        Muls(work, values, T(-1), inner);
        values = work;
      }
      Sort<T, true>(sorted, values, index, work, static_cast<int32_t>(inner / 32));
      TopKGather(dstValue[j * value_stride], dstIndex[j * index_stride], sorted, 1, inner / 32,
                 k);
      if (!isLargest) {
        Muls(dstValue[j * value_stride], dstValue[j * value_stride], T(-1), k);
      }
      if constexpr (isHasfinish) {
        VectorToScalar();  // the finish flag is read on the scalar side after the vector work
        const bool done = finish.GetValue(j);
        ScalarToVector();
        if (done) Duplicate(dstIndex[j * index_stride], info.n, k);
      }
    }
  } else {
    const uint32_t all = rows * kTopKSmallInner;
    uint32_t at = all * 8;  // bytes: the sorted pairs come first
    LocalTensor<T> values = src;
    if (!isLargest) {
      values = tmp[at].template ReinterpretCast<T>();
      Muls(values, src, T(-1), all);
      at += all * sizeof(T);
    }
    at += kTopKSmallMaskBytes;
    LocalTensor<uint32_t> index = srcIndex.template ReinterpretCast<uint32_t>();
    if constexpr (!isInitIndex) {
      const LocalTensor<int32_t> made = tmp[at].template ReinterpretCast<int32_t>();
      ArithProgression(made, int32_t{0}, int32_t{1}, kTopKSmallInner);
      for (uint32_t r = 1; r < rows; ++r) DataCopy(made[r * kTopKSmallInner], made, kTopKSmallInner);
      index = made.template ReinterpretCast<uint32_t>();
    }
    constexpr uint32_t kChunk = 255;  // the most repeats one Sort32 / GatherMask takes
    constexpr uint32_t pp = ascsim::aicore::kSortPairBytes / sizeof(T);
    for (uint32_t r = 0; r < rows; r += kChunk) {
      const uint32_t n = rows - r < kChunk ? rows - r : kChunk;
      const uint32_t first = r * kTopKSmallInner;
      Sort32(sorted[first * pp], values[first], index[first], static_cast<int32_t>(n));
      TopKGather(dstValue[r * static_cast<uint32_t>(k)], dstIndex[r * static_cast<uint32_t>(k)],
                 sorted[first * pp], n, 1, k);
    }
    if (!isLargest) Muls(dstValue, dstValue, T(-1), rows * static_cast<uint32_t>(k));
  }
}

}  // namespace detail

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL,
          const TopKConfig& config = defaultTopKConfig>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal,
          const int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo,
          const bool isLargest = true) {
  static_assert(config.algo == TopKAlgo::MERGE_SORT && config.order == TopKOrder::UNSET,
                "ascsim: TopK's RADIX_SELECT algorithm and TopKConfig::order are Ascend 950 "
                "only; Atlas A2/A3 sort with MERGE_SORT and isLargest");
  (void)tilling;  // its offsets describe CANN's temporary layout; the sizes are checked directly
  detail::TopKRun<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal,
                                                         srcIndexLocal, finishLocal, tmpLocal, k,
                                                         topKInfo, isLargest);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL,
          const TopKConfig& config = defaultTopKConfig>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
          const TopKInfo& topKInfo, const bool isLargest = true) {
  TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config>(
      dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal,
      detail::AdvStack("TopK"), k, tilling, topKInfo, isLargest);
}

}  // namespace AscendC
