// UB-to-UB data movement on the vector pipe: Copy (mask/repeat form with CopyRepeatParams), Gather
// (elements at byte offsets), TransDataTo5HD (the 16-address NCHW -> NC1HWC0 / block transpose)
// and Transpose (one 16 x 16 block of 16-bit elements).
// Sources: asc-devkit include/basic_api/kernel_operator_data_copy_intf.h (Copy),
// kernel_struct_data_copy.h (CopyRepeatParams), kernel_operator_vec_gather_intf.h,
// kernel_operator_vec_transpose_intf.h, kernel_struct_transpose.h, and the API pages
// docs/zh/api/SIMD-API/基础API/Memory矢量计算/{数据搬运/UB与UB数据搬运, 离散与聚合/Gather.md,
// 数据排布转换/TransDataTo5HD.md, 数据排布转换/Transpose.md}.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/simd/masked_math.h"
#include "ascsim/aicore/special_registers.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/tpipe.h"
#include "ascsim/aicore/vector_masked.h"

namespace AscendC {

constexpr uint16_t DEFAULT_DATA_COPY_STRIDE = 1;
constexpr uint16_t DEFAULT_REPEAT_STRIDE = 8;

// Block strides within a repeat and repeat strides, all in 32 B blocks.
struct CopyRepeatParams {
  CopyRepeatParams() {}
  CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                   uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = DEFAULT_DATA_COPY_STRIDE;
  uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
  uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
  uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

}  // namespace AscendC

namespace ascsim::aicore {

// dstRepeatSize / srcRepeatSize are 12-bit fields.
constexpr uint32_t kMaxCopyRepeatSize = 4095;

void CheckCopyRepeatParams(const AscendC::CopyRepeatParams& p);

template <class T>
void MaskedCopy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const MaskArg& mask, bool is_set_mask, int64_t repeat_time,
                const AscendC::CopyRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "Copy takes 16- or 32-bit elements on Atlas A2/A3 (int16_t, uint16_t, half, "
                "bfloat16_t, int32_t, uint32_t, float)");
  constexpr const char* name = "Copy";
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  RequireArch(name, 2201, "the mask/repeat UB->UB Copy");
  CheckCopyRepeatParams(p);
  const simd::RepeatPlan plan = ResolvePlan<T>(name, core, is_set_mask, mask, repeat_time);
  const simd::Stride sd = StrideOf(p.dstStride, p.dstRepeatSize);
  const simd::Stride ss = StrideOf(p.srcStride, p.srcRepeatSize);
  uint64_t nd, ns;
  auto* d = reinterpret_cast<uint8_t*>(CheckStridedOperand(name, "dst", dst, plan, sd, &nd));
  auto* s = reinterpret_cast<const uint8_t*>(CheckStridedOperand(name, "src", src, plan, ss, &ns));
  CheckOverlap(name, "dst", d, nd, "src", s, ns);
  simd::ForEachRun(
      plan, Contiguous({sd, ss}),
      [&](uint32_t r, uint32_t e, uint32_t len) {
        std::memmove(d + simd::ElementOffset(plan, sd, sizeof(T), r, e),
                     s + simd::ElementOffset(plan, ss, sizeof(T), r, e), len * sizeof(T));
      },
      DenseRepeats({sd, ss}));
  Record(core, [&] {
    return WithUbStrides(VectorCall(name, trace::VectorClass::kSimple, sizeof(T),
                                    uint64_t{plan.repeats} * plan.per_repeat, BufferId(dst),
                                    BufferId(src), trace::kNoBuffer),
                         sd, ss);
  });
}

}  // namespace ascsim::aicore

namespace AscendC {

// Copy, mask/repeat form (Atlas A2/A3; the count form exists only on Ascend 950).
template <class T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
          const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
  ascsim::aicore::MaskedCopy<T>(dst, src, ascsim::aicore::BitMask(mask), isSetMask, repeatTime,
                                repeatParams);
}
template <class T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
          const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
  ascsim::aicore::MaskedCopy<T>(dst, src, ascsim::aicore::ContinuousMask(mask), isSetMask,
                                repeatTime, repeatParams);
}

}  // namespace AscendC

// ==================================================================================== Gather
namespace ascsim::aicore {

// Count form: the device splits `count` into repeats of one 256 B repeat each plus a tail, with
// the repeat count in a uint8_t (kernel_operator_vec_gather_intf_impl.h), so counts beyond 255
// repeats wrap; ascsim reproduces that and warns.
uint64_t GatherCountRepeats(const char* call, uint64_t count, uint64_t per_repeat);
// srcBaseOffset must lie inside src and be a whole number of elements (the CPU-debug checks).
void CheckGatherBase(const char* call, uint32_t base, uint64_t src_bytes, uint32_t elem);
[[noreturn]] void FaultGatherOffset(const char* call, uint64_t i, uint32_t offset, uint32_t base,
                                    uint64_t src_bytes, const char* type);
void WarnGatherMisaligned(const char* call, uint32_t offset, uint32_t base, uint32_t elem);
void RequireGatherType(const char* call, bool is_bf16);

// The offsets of one gather (dst element i reads src byte base + off[i]): validates every offset
// against src (the CPU-debug model checks them against src's length) while finding the span read.
template <class T>
void GatherSpan(const char* call, const uint32_t* off, uint64_t n, uint32_t base,
                uint64_t src_elems, uint64_t* lo, uint64_t* hi) {
  uint64_t min_e = ~0ull, max_e = 0;
  bool misaligned = false;
  uint32_t bad = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t byte = uint64_t{base} + off[i];
    const uint64_t e = byte / sizeof(T);
    if (e >= src_elems) [[unlikely]]
      FaultGatherOffset(call, i, off[i], base, src_elems * sizeof(T), TypeName<T>());
    if (byte % sizeof(T) != 0) misaligned = true, bad = off[i];
    min_e = e < min_e ? e : min_e;
    max_e = e > max_e ? e : max_e;
  }
  if (misaligned) WarnGatherMisaligned(call, bad, base, sizeof(T));
  *lo = n ? min_e : 0;
  *hi = n ? max_e + 1 : 0;
}

// Gather's mask/repeat walk: repeat r writes dst from r * dstRepStride blocks on (contiguous within
// the repeat) and reads its offsets from srcOffset[r * per_repeat] on.
template <class T>
void GatherMasked(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<uint32_t>& src_offset, uint32_t base,
                  const MaskArg& mask, int64_t repeat_time, uint16_t dst_rep_stride) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "Gather takes int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t or float on "
                "Atlas A2/A3");
  constexpr const char* name = "Gather";
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  RequireGatherType(name, std::is_same_v<T, bfloat16_t>);
  const simd::RepeatPlan plan = ResolvePlan<T>(name, core, true, mask, repeat_time);
  if (plan.repeats == 0) return;
  const uint64_t src_elems = src.GetSize();
  CheckGatherBase(name, base, src_elems * sizeof(T), sizeof(T));
  const simd::Stride sd{kBlockBytes, uint64_t{dst_rep_stride} * kBlockBytes};
  uint64_t nd;
  auto* d = reinterpret_cast<uint8_t*>(CheckStridedOperand(name, "dst", dst, plan, sd, &nd));
  // Offsets are read contiguously: per_repeat of them per repeat, up to the last active one.
  const uint64_t n_off = (plan.repeats - 1) * uint64_t{plan.per_repeat} +
                         simd::ActiveSpan(plan.MaskOf(plan.repeats - 1));
  const uint32_t* off = CheckUbOperand(name, "srcOffset", src_offset, n_off);
  uint64_t lo, hi;
  GatherSpan<T>(name, off, n_off, base, src_elems, &lo, &hi);
  const T* s = TensorAccess::Checked(src, name, "src", lo, hi - lo) - lo;
  CheckUbOperand(name, "src", src, 0);
  CheckOverlap(name, "dst", d, nd, "src", s + lo, (hi - lo) * sizeof(T));
  CheckOverlap(name, "dst", d, nd, "srcOffset", off, n_off * sizeof(uint32_t));
  // Read every element first: in-place gathers (dst == src, as production kernels do) see the
  // source as it was before the instruction.
  std::vector<T> got;
  got.reserve(uint64_t{plan.repeats} * plan.per_repeat);
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    const simd::RepeatMask& m = plan.MaskOf(r);
    for (uint32_t e = 0; e < plan.per_repeat; ++e) {
      if (m.Test(e))
        got.push_back(s[(uint64_t{base} + off[uint64_t{r} * plan.per_repeat + e]) / sizeof(T)]);
    }
  }
  uint64_t k = 0;
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    const simd::RepeatMask& m = plan.MaskOf(r);
    for (uint32_t e = 0; e < plan.per_repeat; ++e) {
      if (m.Test(e)) {
        std::memcpy(d + simd::ElementOffset(plan, sd, sizeof(T), r, e), &got[k++], sizeof(T));
      }
    }
  }
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kGather, sizeof(T),
                      uint64_t{plan.repeats} * plan.per_repeat, BufferId(dst), BufferId(src),
                      BufferId(src_offset));
  });
}

}  // namespace ascsim::aicore

namespace AscendC {

// dst[i] = src[(srcBaseAddr + srcOffset[i]) / sizeof(T)], offsets in bytes, mask/repeat form.
template <class T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr, const uint64_t mask,
            const uint8_t repeatTime, const uint16_t dstRepStride) {
  ascsim::aicore::GatherMasked<T>(dst, src, srcOffset, srcBaseAddr,
                                  ascsim::aicore::ContinuousMask(mask), repeatTime, dstRepStride);
}
template <class T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride) {
  ascsim::aicore::GatherMasked<T>(dst, src, srcOffset, srcBaseAddr, ascsim::aicore::BitMask(mask),
                                  repeatTime, dstRepStride);
}
// The first `count` elements: whole repeats, then the tail, as the device's implementation does.
template <class T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const uint32_t count) {
  constexpr uint64_t per_repeat = ONE_REPEAT_BYTE_SIZE / sizeof(T);
  // The whole extent first, so a short tensor is reported as such rather than as an empty tail.
  ascsim::aicore::CheckUbOperand("Gather", "dst", dst, count);
  ascsim::aicore::CheckUbOperand("Gather", "srcOffset", srcOffset, count);
  const uint64_t repeats = ascsim::aicore::GatherCountRepeats("Gather", count, per_repeat);
  const uint64_t tail = count % per_repeat;
  if (repeats > 0) {
    Gather(dst, src, srcOffset, srcBaseAddr, per_repeat, static_cast<uint8_t>(repeats),
           DEFAULT_REPEAT_STRIDE);
  }
  if (tail > 0) {
    const uint32_t at = count - static_cast<uint32_t>(tail);
    Gather(dst[at], src, srcOffset[at], srcBaseAddr, tail, 1, DEFAULT_REPEAT_STRIDE);
  }
}

}  // namespace AscendC

// ============================================================================ TransDataTo5HD
namespace AscendC {

struct TransDataTo5HDParams {
  constexpr TransDataTo5HDParams() = default;
  constexpr TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                                 const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                                 const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn),
        srcHighHalf(srcHighHalfIn),
        repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};

enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW,
};

struct TransposeParamsExt {
  constexpr TransposeParamsExt() = default;
  constexpr TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn,
                               const uint16_t hSizeIn, const uint16_t wSizeIn,
                               const TransposeType transposeTypeIn)
      : nSize(nSizeIn),
        cSize(cSizeIn),
        hSize(hSizeIn),
        wSize(wSizeIn),
        transposeType(transposeTypeIn) {}
  uint16_t nSize = 0;
  uint16_t cSize = 0;
  uint16_t hSize = 0;
  uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

}  // namespace AscendC

namespace ascsim::aicore {

// One repeat of vnchwconv on 16 source and 16 destination 32 B blocks (host pointers), for
// elements of `elem` bytes. b16: dst block j element k = src block k element j. b32: dst block
// 2j + h element k = src block 8h + k element j. b8: the 16 bytes at element j (+16 with
// srcHighHalf) of the 16 source blocks fill half of dst block j (the upper half with dstHighHalf).
void NchwConvRepeat(uint32_t elem, uint8_t* const dst[16], const uint8_t* const src[16],
                    bool dst_high, bool src_high);

// The UB address lists of one TransDataTo5HD: checks (alignment, inside a live buffer of this
// core's TPipe over every repeat, no partial overlap), records every block for the sanitizer, and
// runs the repeats. `dst_addr`/`src_addr` are UB byte offsets (what GetPhyAddr returns).
void TransDataTo5HDRun(const char* call, uint32_t elem, const uint64_t dst_addr[16],
                       const uint64_t src_addr[16], const AscendC::TransDataTo5HDParams& p);

}  // namespace ascsim::aicore

namespace AscendC {

template <class T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                    uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "TransDataTo5HD takes 8-, 16- or 32-bit elements");
  ascsim::aicore::TransDataTo5HDRun("TransDataTo5HD", sizeof(T), dstList, srcList, nchwconvParams);
}
template <class T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "TransDataTo5HD takes 8-, 16- or 32-bit elements");
  uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
  for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
    ascsim::aicore::TensorAccess::CheckLive(dstList[i], "TransDataTo5HD", "dstList");
    ascsim::aicore::TensorAccess::CheckLive(srcList[i], "TransDataTo5HD", "srcList");
    d[i] = dstList[i].GetPhyAddr();
    s[i] = srcList[i].GetPhyAddr();
  }
  ascsim::aicore::TransDataTo5HDRun("TransDataTo5HD", sizeof(T), d, s, nchwconvParams);
}
// The address lists in UB: dst holds the 16 destination addresses, src the 16 source ones.
template <class T>
void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                    const TransDataTo5HDParams& nchwconvParams) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "TransDataTo5HD takes 8-, 16- or 32-bit elements");
  const uint64_t* d = ascsim::aicore::CheckUbOperand("TransDataTo5HD", "dst (address list)", dst,
                                                     NCHW_CONV_ADDR_LIST_SIZE);
  const uint64_t* s = ascsim::aicore::CheckUbOperand("TransDataTo5HD", "src (address list)", src,
                                                     NCHW_CONV_ADDR_LIST_SIZE);
  ascsim::aicore::TransDataTo5HDRun("TransDataTo5HD", sizeof(T), d, s, nchwconvParams);
}

// ================================================================================= Transpose
namespace detail {
void Transpose16x16(const char* call, uint8_t* d, const uint8_t* s);
}
// One 16 x 16 block of 16-bit elements: dst[i][j] = src[j][i].
template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
  static_assert(sizeof(T) == 2, "Transpose (16 x 16) takes int16_t, uint16_t or half");
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  T* d = ai::CheckUbOperand("Transpose", "dst", dst, 256);
  const T* s = ai::CheckUbOperand("Transpose", "src", src, 256);
  ai::CheckOverlap("Transpose", "dst", d, 512, "src", s, 512);
  detail::Transpose16x16("Transpose", reinterpret_cast<uint8_t*>(d),
                         reinterpret_cast<const uint8_t*>(s));
  ai::Record(core, [&] {
    return ai::VectorCall("Transpose", ascsim::trace::VectorClass::kSimple, 2, 256,
                          ai::BufferId(dst), ai::BufferId(src), ascsim::trace::kNoBuffer);
  });
}

namespace detail {
uint64_t TransposeTmpBytes(const TransposeParamsExt& p, uint32_t elem);
void CheckTransposeParams(const TransposeParamsExt& p, uint32_t elem);
}  // namespace detail

// [16, 16] (uint16_t), [N, C, H, W] -> [N, H, W, C] and back, with the documented temporary
// buffer on A2/A3: (cSize + 2) (NCHW2NHWC) or (2 cSize + 1) (NHWC2NCHW) x 16 x 32 B (x2 for 8-bit).
template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& sharedTmpBuffer,
               const TransposeParamsExt& transposeParams) {
  namespace ai = ascsim::aicore;
  const TransposeParamsExt& p = transposeParams;
  if (p.transposeType == TransposeType::TRANSPOSE_ND2ND_B16) {
    if constexpr (sizeof(T) == 2) {
      Transpose(dst, src);
      return;
    }
  }
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  detail::CheckTransposeParams(p, sizeof(T));
  const uint64_t n = uint64_t{p.nSize} * p.cSize * p.hSize * p.wSize;
  T* d = ai::CheckUbOperand("Transpose", "dst", dst, n);
  const T* s = ai::CheckUbOperand("Transpose", "src", src, n);
  ai::CheckOverlap("Transpose", "dst", d, n * sizeof(T), "src", s, n * sizeof(T));
  const uint64_t tmp = core.launch->soc->arch == 2002 ? 0 : detail::TransposeTmpBytes(p, sizeof(T));
  uint8_t* t = ai::CheckUbOperand("Transpose", "sharedTmpBuffer", sharedTmpBuffer, tmp);
  ai::CheckOverlap("Transpose", "sharedTmpBuffer", t, tmp, "src", s, n * sizeof(T));
  ai::CheckOverlap("Transpose", "sharedTmpBuffer", t, tmp, "dst", d, n * sizeof(T));
  const uint64_t hw = uint64_t{p.hSize} * p.wSize, c = p.cSize;
  for (uint64_t b = 0; b < p.nSize; ++b) {
    const T* sb = s + b * c * hw;
    T* db = d + b * c * hw;
    for (uint64_t ci = 0; ci < c; ++ci) {
      for (uint64_t x = 0; x < hw; ++x) {
        if (p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC)
          db[x * c + ci] = sb[ci * hw + x];
        else
          db[ci * hw + x] = sb[x * c + ci];
      }
    }
  }
  ai::Record(core, [&] {
    return ai::VectorCall("Transpose", ascsim::trace::VectorClass::kSimple, sizeof(T), 2 * n,
                          ai::BufferId(dst), ai::BufferId(src), ai::BufferId(sharedTmpBuffer));
  });
}

}  // namespace AscendC
