// CumSum, the math advanced API of asc-devkit include/adv_api/math/cumsum.h (with CumSumConfig,
// CumSumInfo and CumSumAlgorithm from include/adv_api/math/cumsum_utils.h; docs 高阶API/数学计算/
// CumSum接口/CumSum.md): the running sum of an [outter, inner] tensor along the last axis (each
// row: dst[r][j] = src[r][0] + ... + src[r][j]) or along the first (each column), with the last
// row of the result also written to lastRowTensor when config.outputLastRow. half and float;
// inner * sizeof(T) a multiple of 32 B. Production kernels call the sharedTmpBuffer form with
// outter 1 along the last axis (ops-nn apply_top_k_top_p_with_sorted, ops-transformer
// moe_distribute_dispatch_v2).
//
// The sums are those of the Atlas A2/A3 algorithm (impl/adv_api/detail/math/cumsum/
// cumsum_common_impl.h), as basic-API calls:
//   last axis: rows in passes of tmpBytes / minimum * 16; each pass is transposed with
//     TransDataTo5HD into the temporary buffer (one row per original column, the row count
//     padded to 16 with repeats of the pass's rows), the transposed rows are added one after the
//     other (float adds; half is cast to float with CAST_NONE and back), transposed back, and
//     copied to dst with Adds(0) as CANN does (so a -0 sum reads +0).
//   first axis: float adds row after row in dst; half through a float copy of the whole tensor
//     in the temporary buffer, cast back with CAST_NONE.
// One TransDataTo5HD per 16 x 16 (half) or 16 x 8 (float) block where CANN repeats one call over
// a row of blocks: the same data movement in more, shorter instructions.
// Temporary space (impl/adv_api/tiling/math/cumsum_tiling.cpp GetCumSumMaxMinTmpSize): last axis
// at least 16 * inner * (6 B half, 8 B float); first axis outter * inner * 4 B for half, none for
// float.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/aicore/ub_movement.h"

namespace AscendC {

enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };

struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};

struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};  // inner * sizeof(T) a multiple of 32 B
};

// cumsum.h's default: along the last axis, with the last row written.
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

namespace detail {

constexpr uint32_t kCumSumRowsPerGroup = 16;  // NCHW_CONV_ADDR_LIST_SIZE

// The least temporary space, in bytes, of a last-axis pass of 16 rows (both transposes, and for
// half the float copy of the transposed rows).
template <class T>
constexpr uint64_t CumSumLastAxisMinTmp(uint32_t inner) {
  return uint64_t{kCumSumRowsPerGroup} * inner * (sizeof(T) == 2 ? 6 : 8);
}

// `rows` x `cols` of `src` (row stride `src_stride` elements) transposed into `dst` (row stride
// `dst_stride`): dst[j][r] = src[r][j]. rows is a multiple of 16, cols of 32 B / sizeof(T); the
// source rows past `valid_rows` repeat earlier rows, as CANN's address lists do (their sums are
// computed and never copied out).
template <class T>
void CumSumTranspose(const LocalTensor<T>& dst, uint32_t dst_stride, const LocalTensor<T>& src,
                     uint32_t src_stride, uint32_t rows, uint32_t valid_rows, uint32_t cols) {
  constexpr uint32_t blk = ONE_BLK_SIZE / sizeof(T);
  uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
  const TransDataTo5HDParams one(false, false, 1, 0, 0);
  for (uint32_t g = 0; g < rows; g += kCumSumRowsPerGroup) {
    const uint32_t valid = valid_rows - g < kCumSumRowsPerGroup ? valid_rows - g
                                                                 : kCumSumRowsPerGroup;
    for (uint32_t c = 0; c < cols; c += blk) {
      if constexpr (sizeof(T) == 2) {
        // b16: dst block i holds element i of the 16 source blocks.
        for (uint32_t n = 0; n < 16; ++n) {
          s[n] = src[(g + n % valid) * src_stride + c].GetPhyAddr();
          d[n] = dst[(c + n) * dst_stride + g].GetPhyAddr();
        }
      } else {
        // b32: dst blocks 2j and 2j + 1 hold element j of source blocks 0-7 and 8-15.
        for (uint32_t n = 0; n < 16; ++n) {
          s[n] = src[(g + n % valid) * src_stride + c].GetPhyAddr();
        }
        for (uint32_t j = 0; j < 8; ++j) {
          d[2 * j] = dst[(c + j) * dst_stride + g].GetPhyAddr();
          d[2 * j + 1] = dst[(c + j) * dst_stride + g + 8].GetPhyAddr();
        }
      }
      TransDataTo5HD<T>(d, s, one);
    }
  }
}

// The transposed pass back: `rows` (a multiple of 16) original rows of `cols` columns from
// `src`, whose row j holds original column j (row stride `src_stride`), into `dst` rows of
// `cols` elements.
template <class T>
void CumSumTransposeBack(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t src_stride,
                         uint32_t rows, uint32_t cols) {
  uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
  const TransDataTo5HDParams one(false, false, 1, 0, 0);
  for (uint32_t g = 0; g < rows; g += kCumSumRowsPerGroup) {
    if constexpr (sizeof(T) == 2) {
      for (uint32_t c = 0; c < cols; c += 16) {
        for (uint32_t n = 0; n < 16; ++n) {
          s[n] = src[(c + n) * src_stride + g].GetPhyAddr();
          d[n] = dst[(g + n) * cols + c].GetPhyAddr();
        }
        TransDataTo5HD<T>(d, s, one);
      }
    } else {
      // Eight transposed rows of 16 values as 16 blocks: block n < 8 is rows g..g+7 of column
      // c + n, block n + 8 rows g+8..g+15; dst blocks 2i and 2i + 1 are rows g + i and g + 8 + i.
      for (uint32_t c = 0; c < cols; c += 8) {
        for (uint32_t n = 0; n < 8; ++n) {
          s[n] = src[(c + n) * src_stride + g].GetPhyAddr();
          s[n + 8] = src[(c + n) * src_stride + g + 8].GetPhyAddr();
          d[2 * n] = dst[(g + n) * cols + c].GetPhyAddr();
          d[2 * n + 1] = dst[(g + 8 + n) * cols + c].GetPhyAddr();
        }
        TransDataTo5HD<T>(d, s, one);
      }
    }
  }
}

// One last-axis pass of `rows` rows.
template <class T>
void CumSumLastAxisPass(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LocalTensor<uint8_t>& tmp, uint32_t rows, uint32_t inner) {
  const uint32_t aligned = (rows + kCumSumRowsPerGroup - 1) / kCumSumRowsPerGroup *
                           kCumSumRowsPerGroup;
  const uint32_t n = aligned * inner;
  const LocalTensor<T> tr = tmp.ReinterpretCast<T>();
  CumSumTranspose(tr, aligned, src, inner, aligned, rows, inner);
  LocalTensor<T> back;
  if constexpr (sizeof(T) == 2) {
    const LocalTensor<float> f = tmp[n * sizeof(T)].template ReinterpretCast<float>();
    Cast(f, tr, RoundMode::CAST_NONE, n);
    for (uint32_t j = 1; j < inner; ++j) {
      Add(f[j * aligned], f[(j - 1) * aligned], f[j * aligned], aligned);
    }
    Cast(tr, f, RoundMode::CAST_NONE, n);
    back = f.template ReinterpretCast<T>();  // the float copy is free again
  } else {
    for (uint32_t j = 1; j < inner; ++j) {
      Add(tr[j * aligned], tr[(j - 1) * aligned], tr[j * aligned], aligned);
    }
    back = tr[n];
  }
  CumSumTransposeBack(back, tr, aligned, aligned, inner);
  Adds(dst, back, T(0), rows * inner);
}

template <class T, const CumSumConfig& config>
void CumSumRun(const LocalTensor<T>& dst, const LocalTensor<T>& lastRow, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& tmp, const CumSumInfo& info) {
  static_assert(ascsim::aicore::kHalfOrFloat<T>, "CumSum takes half or float");
  namespace ai = ascsim::aicore;
  constexpr const char* api = "CumSum";
  if (ai::OnCubeCoreOnly()) return;
  const uint32_t outter = info.outter, inner = info.inner;
  // cumsum_check_common.h's checks.
  if (inner == 0 || outter == 0 || (uint64_t{inner} * sizeof(T)) % ONE_BLK_SIZE != 0) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(api, ": cumSumInfo {outter ", outter, ", inner ", inner,
                      "} needs outter, inner >= 1 and inner * sizeof(T) a multiple of 32 B"));
  }
  const uint64_t total64 = uint64_t{outter} * inner;
  ai::CheckCalCount(api, total64, src.GetSize(), dst.GetSize());
  const uint32_t total = static_cast<uint32_t>(total64);  // inside the tensors, so it fits
  if (config.outputLastRow && lastRow.GetSize() < inner) {
    ai::Fault(ascsim::ErrorKind::kOutOfBounds,
              ai::Str(api, ": lastRowTensor holds ", lastRow.GetSize(), " elements, fewer than ",
                      "cumSumInfo.inner (", inner, ") with config.outputLastRow"));
  }
  ai::CheckUbRole(api, "srcTensor", src, total, ai::Access::kRead);
  ai::CheckUbRole(api, "dstTensor", dst, total, ai::Access::kWrite);
  ai::TensorAccess::CheckLive(tmp, api, "sharedTmpBuffer");
  if constexpr (config.isLastAxis) {
    const uint64_t need = CumSumLastAxisMinTmp<T>(inner);
    if (tmp.GetSize() < need) ai::FaultTmpTooSmall(api, tmp.GetSize(), need, "16 rows of the last axis need");
    ai::CheckTmp(api, tmp, need);
    ai::CheckTmpDisjoint(api, tmp, "dst", dst, total);
    ai::CheckTmpDisjoint(api, tmp, "src", src, total);
    const uint64_t per_pass = tmp.GetSize() / need * kCumSumRowsPerGroup;
    for (uint32_t r = 0; r < outter;) {
      const uint32_t rows = static_cast<uint32_t>(outter - r < per_pass ? outter - r : per_pass);
      CumSumLastAxisPass(dst[r * inner], src[r * inner], tmp, rows, inner);
      r += rows;
    }
  } else if constexpr (sizeof(T) == 2) {
    const uint64_t need = total * sizeof(float);
    if (tmp.GetSize() < need) {
      ai::FaultTmpTooSmall(api, tmp.GetSize(), need, "the outter * inner floats need");
    }
    ai::CheckTmp(api, tmp, need);
    ai::CheckTmpDisjoint(api, tmp, "dst", dst, total);
    ai::CheckTmpDisjoint(api, tmp, "src", src, total);
    const LocalTensor<float> f = tmp.ReinterpretCast<float>();
    Cast(f, src, RoundMode::CAST_NONE, total);
    for (uint32_t r = 1; r < outter; ++r) {
      Add(f[r * inner], f[(r - 1) * inner], f[r * inner], inner);
    }
    Cast(dst, f, RoundMode::CAST_NONE, total);
  } else {
    Adds(dst, src, T(0), inner);
    for (uint32_t r = 1; r < outter; ++r) {
      Add(dst[r * inner], dst[(r - 1) * inner], src[r * inner], inner);
    }
  }
  if constexpr (config.outputLastRow) {
    ai::CheckUbRole(api, "lastRowTensor", lastRow, inner, ai::Access::kWrite);
    Adds(lastRow, dst[(outter - 1) * inner], T(0), inner);
  }
}

}  // namespace detail

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor,
            const LocalTensor<T>& srcTensor, LocalTensor<uint8_t>& sharedTmpBuffer,
            const CumSumInfo& cumSumInfo) {
  detail::CumSumRun<T, config>(dstTensor, lastRowTensor, srcTensor, sharedTmpBuffer, cumSumInfo);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor,
            const LocalTensor<T>& srcTensor, const CumSumInfo& cumSumInfo) {
  detail::CumSumRun<T, config>(dstTensor, lastRowTensor, srcTensor, detail::AdvStack("CumSum"),
                               cumSumInfo);
}

}  // namespace AscendC
