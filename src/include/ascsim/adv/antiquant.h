// AscendAntiQuant, the quantisation advanced API of asc-devkit include/adv_api/quantization/
// ascend_antiquant.h (docs/zh/api/SIMD-API/高阶API/量化操作/AscendAntiQuant.md): int8_t weights to
// half or bfloat16_t, dst = scale * (src + offset), per channel (offset / scale tensors) or per
// tensor (scalars), with or without offset, src [K, N] (isTranspose false) or [N, K] (true).
//
// The Atlas A2/A3 (arch 2201) algorithm, as impl/adv_api/detail/quantization/antiquant/
// ascend_antiquant_impl.h and ascend_antiquant_c220_impl.h write it, as the same basic-API calls,
// so its roundings and its choices of path are the device's:
//   - half dst: int8 -> half (exact), then Add and Mul in half, each rounded to half;
//   - bfloat16_t dst: int8 -> half -> float, offset and scale -> float, Add and Mul in float, then
//     float -> bfloat16_t with CAST_RINT.
// Paths (each named after CANN's function), and what the device computes on each:
//   - isTranspose false, offset and scale tensors: offset[n] and scale[n] of the first row for
//     every row k < K (AscendAntiQuantNoTranspose's performance path: always for half; for
//     bfloat16_t when sharedTmpBuffer holds scale.GetSize() * 8 + 256 * K bytes). A bfloat16_t call
//     with less temporary space takes AntiQuantNoTransposeImplScalar, which computes only the first
//     K / groupCount rows (groupCount: AntiQuantShapeInfo::scaleHeight, else the scale's
//     ShapeInfo shape[0]), in pieces of sharedTmpBuffer bytes / 8 elements that all read the
//     first piece's offsets and scales. ascsim reproduces both, rows left unwritten included.
//   - isTranspose false, scale only: groupCount groups of K / groupCount rows, group i scaled by
//     scale[i * N + n] (N: scaleWidth, else shape[1]).
//   - scalars (either layout): every element of src.
//   - isTranspose true, half: one offset / scale per row n (brcb of scaleN values: scaleHeight, else
//     shape[0]) when sharedTmpBuffer holds 32 * scaleN (64 * scaleN with offset) bytes and K < 4096;
//     otherwise AntiQuantImplScalar: per row i and group j of K / groupSize (groupSize: K /
//     offsetWidth, else K / the offset's shape[1]; scaleWidth for the scale-only form), the scalar
//     offset[i * L + j] and scale[i * L + j].
//   - isTranspose true, bfloat16_t: one value per row of scale.GetSize() rows when K % 64 == 0 and
//     K <= 2040 (CalcN64ByBrcb; sharedTmpBuffer must hold scale.GetSize() * 80 floats), otherwise
//     AntiQuantImplScalar as above.
// Not simulated: int4b_t src (ascsim has no int4 tensors), the 950-only PER_TOKEN / PER_GROUP form
// (AscendAntiQuantConfig / AscendAntiQuantParam), and brcb-path calls whose row count differs from
// the number of per-row values (the device then reads values of other rows).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/aicore/kernel_utils.h"
#include "ascsim/aicore/scalar.h"

namespace AscendC {

// asc-devkit include/adv_api/quantization/ascend_antiquant_utils.h.
struct AntiQuantShapeInfo {
  uint32_t offsetHeight{0};
  uint32_t offsetWidth{0};
  uint32_t scaleHeight{0};
  uint32_t scaleWidth{0};
};

namespace detail {

template <class S, class D>
constexpr void AntiQuantCheckTypes() {
  static_assert(std::is_same_v<S, int8_t> || std::is_same_v<S, int4b_t>,
                "AscendAntiQuant: src is int8_t or int4b_t on Atlas A2/A3");
  static_assert(std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t>,
                "AscendAntiQuant: dst, offset and scale are half or bfloat16_t on Atlas A2/A3");
}

// One operand value: a tensor piece or a scalar.
template <class D>
struct AntiQuantOperand {
  const LocalTensor<D>* tensor = nullptr;
  D scalar{};
};

// dst[0, n) = (src + offset) * scale on one piece (AntiQuantOuterLoop / AntiQuantInnerLoop).
// bfloat16_t runs in float in sharedTmpBuffer, in pieces of tmp bytes / 8 elements whose offset
// and scale tensors are not advanced (as CANN's loop passes them).
// `whole_blocks`: the caller stands for a CANN path that does not split by the temporary size
// (the per-row brcb paths), so the pieces are whole 32-element blocks (every operand stays 32 B
// aligned); CANN's own split (AntiQuantOuterLoop) uses tmp bytes / 8 as it is.
template <class S, class D, bool withOffset>
void AntiQuantPiece(const LocalTensor<D>& dst, const LocalTensor<S>& src,
                    const AntiQuantOperand<D>& offset, const AntiQuantOperand<D>& scale,
                    const LocalTensor<uint8_t>& tmp, uint32_t n, bool whole_blocks = false) {
  namespace ai = ascsim::aicore;
  if (n == 0) return;
  if constexpr (std::is_same_v<D, half>) {
    Cast(dst, src, RoundMode::CAST_NONE, n);
    if constexpr (withOffset) {
      if (offset.tensor != nullptr)
        Add(dst, *offset.tensor, dst, n);
      else
        Adds(dst, dst, offset.scalar, n);
    }
    if (scale.tensor != nullptr)
      Mul(dst, *scale.tensor, dst, n);
    else
      Muls(dst, dst, scale.scalar, n);
  } else {
    uint32_t piece = tmp.GetSize() / sizeof(bfloat16_t) / 4;
    if (whole_blocks) piece = piece / 32 * 32;
    if (piece == 0) {
      ai::FaultTmpTooSmall("AscendAntiQuant", tmp.GetSize(), 8,
                           "a bfloat16_t result needs 8 bytes per element (CANN divides by the "
                           "piece size, 0 here);");
    }
    for (uint32_t done = 0; done < n; done += piece) {
      const uint32_t m = n - done < piece ? n - done : piece;
      // The piece's float result in [0, 4m), the half copy of src in [4m, 6m), then the float
      // offset or scale in [4m, 8m) once the half copy is consumed.
      const LocalTensor<float> result = tmp.ReinterpretCast<float>();
      const LocalTensor<half> halves = tmp[uint64_t{4} * m].ReinterpretCast<half>();
      const LocalTensor<float> operand = tmp[uint64_t{4} * m].ReinterpretCast<float>();
      Cast(halves, src[done], RoundMode::CAST_NONE, m);
      Cast(result, halves, RoundMode::CAST_NONE, m);
      if constexpr (withOffset) {
        if (offset.tensor != nullptr) {
          Cast(operand, *offset.tensor, RoundMode::CAST_NONE, m);
          Add(result, result, operand, m);
        } else {
          Adds(result, result, ToFloat(offset.scalar), m);
        }
      }
      if (scale.tensor != nullptr) {
        Cast(operand, *scale.tensor, RoundMode::CAST_NONE, m);
        Mul(result, result, operand, m);
      } else {
        Muls(result, result, ToFloat(scale.scalar), m);
      }
      Cast(dst[done], result, RoundMode::CAST_RINT, m);
    }
  }
}

inline uint32_t AntiQuantDim(uint32_t given, const ShapeInfo& info, int dim) {
  return given != 0 ? given : (info.shapeDim > dim ? info.shape[dim] : 0);
}

[[noreturn]] inline void AntiQuantFault(const std::string& what) {
  namespace ai = ascsim::aicore;
  ai::Fault(ascsim::ErrorKind::kInvalidArgument, ai::Str("AscendAntiQuant: ", what));
}

inline void AntiQuantCheckK(uint32_t k, uint64_t src_elems) {
  namespace ai = ascsim::aicore;
  if (k == 0 || src_elems % k != 0) {
    AntiQuantFault(ai::Str("k ", k, " does not divide src's ", src_elems,
                           " elements (src is [K, N], or [N, K] transposed)"));
  }
}

// The device steps through an int8_t src by whole 32-byte blocks per row (repeat strides of
// row bytes / 32, AntiQuantOuterLoop per row): a row that is not whole blocks is refused.
inline void AntiQuantCheckRowBytes(uint32_t elems, const char* what) {
  namespace ai = ascsim::aicore;
  if (elems % 32 != 0) {
    AntiQuantFault(ai::Str(what, " = ", elems,
                           ": an int8_t row of src must be a multiple of 32 B (the device steps "
                           "through src by whole 32-byte blocks per row)"));
  }
}

// The shape of a per-group operand: `groups` groups must divide K.
inline uint32_t AntiQuantGroupSize(uint32_t k, uint32_t groups, const char* what) {
  namespace ai = ascsim::aicore;
  if (groups == 0 || k % groups != 0) {
    AntiQuantFault(ai::Str(what, " is ", groups, ", which does not divide k ", k,
                           " (set AntiQuantShapeInfo, or the tensor's ShapeInfo)"));
  }
  return k / groups;
}

// Tensor offset (or none) and tensor scale.
template <class S, class D, bool isTranspose, bool withOffset>
void AntiQuantTensors(const LocalTensor<D>& dst, const LocalTensor<S>& src,
                      const LocalTensor<D>& offset, const LocalTensor<D>& scale,
                      const LocalTensor<uint8_t>& tmp, uint32_t k, const AntiQuantShapeInfo& info) {
  namespace ai = ascsim::aicore;
  AntiQuantCheckTypes<S, D>();
  if (ai::OnCubeCoreOnly()) return;
  if constexpr (std::is_same_v<S, int4b_t>) {
    ai::FaultInt4Tensor("AscendAntiQuant with an int4b_t src");
  } else {
    const uint64_t elems = src.GetSize();
    AntiQuantCheckK(k, elems);
    const uint32_t rows = static_cast<uint32_t>(elems / k);  // N when transposed, else N = cols
    const AntiQuantOperand<D> none{};
    if constexpr (!isTranspose) {
      const uint32_t n = rows;  // src [K, N]
      if constexpr (withOffset) {
        const bool performance =
            std::is_same_v<D, half> ||
            tmp.GetSize() >= uint64_t{scale.GetSize()} * 2 * sizeof(float) + uint64_t{64} * k * 4;
        const uint32_t computed =
            performance ? k
                        : AntiQuantGroupSize(
                              k, AntiQuantDim(info.scaleHeight, scale.GetShapeInfo(), 0),
                              "the scale's group count (scaleHeight)");
        if constexpr (std::is_same_v<D, half>) {
          // PreCast: all of src to half in one call, then per row Add and Mul with src1's
          // repeat stride 0 (AscendAntiQuantNoTransposePerformance): half rows of N * 2 bytes.
          Cast(dst, src, RoundMode::CAST_NONE, static_cast<uint32_t>(elems));
          for (uint32_t r = 0; r < k; ++r) {
            const LocalTensor<D> row = dst[uint64_t{r} * n];
            Add(row, row, offset, n);
            Mul(row, row, scale, n);
          }
        } else {
          AntiQuantCheckRowBytes(n, "N");
          const AntiQuantOperand<D> off{&offset, D{}}, scl{&scale, D{}};
          for (uint32_t r = 0; r < computed; ++r) {
            AntiQuantPiece<S, D, true>(dst[uint64_t{r} * n], src[uint64_t{r} * n], off, scl, tmp,
                                       n, performance);
          }
        }
      } else {
        const uint32_t groups = AntiQuantDim(info.scaleHeight, scale.GetShapeInfo(), 0);
        const uint32_t group = AntiQuantGroupSize(k, groups, "the scale's group count (scaleHeight)");
        const uint32_t width = AntiQuantDim(info.scaleWidth, scale.GetShapeInfo(), 1);
        AntiQuantCheckRowBytes(width, "N (scaleWidth)");
        for (uint32_t g = 0; g < groups; ++g) {
          const LocalTensor<D> row_scale = scale[uint64_t{g} * width];
          const AntiQuantOperand<D> scl{&row_scale, D{}};
          for (uint32_t j = 0; j < group; ++j) {
            const uint64_t at = (uint64_t{g} * group + j) * width;
            AntiQuantPiece<S, D, false>(dst[at], src[at], none, scl, tmp, width);
          }
        }
      }
    } else {
      // src [N, K]: per row i, one value (brcb path) or one per group along K.
      const uint32_t scale_rows = std::is_same_v<D, half>
                                      ? AntiQuantDim(info.scaleHeight, scale.GetShapeInfo(), 0)
                                      : scale.GetSize();
      bool brcb;
      if constexpr (std::is_same_v<D, half>) {
        brcb = tmp.GetSize() / sizeof(half) >= uint64_t{16} * scale_rows * (withOffset ? 2 : 1) &&
               k < 4096;
      } else {
        brcb = k % 64 == 0 && k <= 255 * 8;
        if (brcb && tmp.GetSize() < uint64_t{scale_rows} * (64 + 16) * sizeof(float)) {
          ai::FaultTmpTooSmall("AscendAntiQuant", tmp.GetSize(),
                               uint64_t{scale_rows} * (64 + 16) * sizeof(float),
                               "the transposed bfloat16_t path needs 320 B per row of scale;");
        }
      }
      if (brcb) {
        AntiQuantCheckRowBytes(k, "K");
        if (scale_rows != rows) {
          AntiQuantFault(ai::Str("transposed src has ", rows, " rows but the per-row path reads ",
                                 scale_rows,
                                 " scale values (not simulated: the device would read values of "
                                 "other rows)"));
        }
        detail::VectorToScalar();
        for (uint32_t i = 0; i < rows; ++i) {
          AntiQuantOperand<D> off{}, scl{};
          if constexpr (withOffset) off.scalar = offset.GetValue(i);
          scl.scalar = scale.GetValue(i);
          detail::ScalarToVector();
          AntiQuantPiece<S, D, withOffset>(dst[uint64_t{i} * k], src[uint64_t{i} * k], off, scl,
                                           tmp, k, true);
          detail::VectorToScalar();
        }
        detail::ScalarToVector();
      } else {
        const uint32_t width = withOffset ? AntiQuantDim(info.offsetWidth, offset.GetShapeInfo(), 1)
                                          : AntiQuantDim(info.scaleWidth, scale.GetShapeInfo(), 1);
        const uint32_t group = AntiQuantGroupSize(
            k, width, withOffset ? "the offset's width (offsetWidth)" : "the scale's width (scaleWidth)");
        const uint32_t groups = k / group;
        AntiQuantCheckRowBytes(group, "K / groups");
        detail::VectorToScalar();
        for (uint32_t i = 0; i < rows; ++i) {
          for (uint32_t j = 0; j < groups; ++j) {
            const uint64_t v = uint64_t{i} * groups + j;
            AntiQuantOperand<D> off{}, scl{};
            if constexpr (withOffset) off.scalar = offset.GetValue(v);
            scl.scalar = scale.GetValue(v);
            detail::ScalarToVector();
            const uint64_t at = uint64_t{i} * k + uint64_t{j} * group;
            AntiQuantPiece<S, D, withOffset>(dst[at], src[at], off, scl, tmp, group);
            detail::VectorToScalar();
          }
        }
        detail::ScalarToVector();
      }
    }
  }
}

template <class S, class D, bool withOffset>
void AntiQuantScalars(const LocalTensor<D>& dst, const LocalTensor<S>& src, D offset, D scale,
                      const LocalTensor<uint8_t>& tmp, uint32_t k) {
  namespace ai = ascsim::aicore;
  AntiQuantCheckTypes<S, D>();
  if (ai::OnCubeCoreOnly()) return;
  if constexpr (std::is_same_v<S, int4b_t>) {
    ai::FaultInt4Tensor("AscendAntiQuant with an int4b_t src");
  } else {
    AntiQuantCheckK(k, src.GetSize());
    AntiQuantOperand<D> off{}, scl{};
    off.scalar = offset;
    scl.scalar = scale;
    AntiQuantPiece<S, D, withOffset>(dst, src, off, scl, tmp, src.GetSize());
  }
}

}  // namespace detail

template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset,
                     const LocalTensor<OutputDataType>& scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  detail::AntiQuantTensors<InputDataType, OutputDataType, isTranspose, true>(
      dst, src, offset, scale, sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  detail::AntiQuantTensors<InputDataType, OutputDataType, isTranspose, false>(
      dst, src, scale, scale, sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  (void)shapeInfo;
  detail::AntiQuantScalars<InputDataType, OutputDataType, true>(dst, src, offset, scale,
                                                                sharedTmpBuffer, k);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
  (void)shapeInfo;
  detail::AntiQuantScalars<InputDataType, OutputDataType, false>(dst, src, scale, scale,
                                                                 sharedTmpBuffer, k);
}
// The forms without sharedTmpBuffer compute in the UB above the TPipe's buffers.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset,
                     const LocalTensor<OutputDataType>& scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(
      dst, src, offset, scale, detail::AdvStack("AscendAntiQuant"), k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(
      dst, src, offset, scale, detail::AdvStack("AscendAntiQuant"), k, shapeInfo);
}

}  // namespace AscendC
