// GatherMask (docs 基础API/.../比较与选择/GatherMask): pack the elements a bit pattern selects;
// rsvdCnt = how many. Built-in patterns 1..7 or a pattern tensor, normal and counter mode.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/simd/masked_math.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/vector_masked.h"

namespace AscendC {

struct GatherMaskParams {
  GatherMaskParams() = default;
  GatherMaskParams(uint8_t src0BlockStrideIn, uint16_t repeatTimesIn, uint16_t src0RepeatStrideIn,
                   uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 1;
  uint16_t src0RepeatStride = 8;
  uint8_t src1RepeatStride = 8;
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;
constexpr GatherMaskMode defaultGahterMaskMode = defaultGatherMaskMode;  // the docs' old spelling

}  // namespace AscendC

namespace ascsim::aicore {

// The 16-bit patterns of GatherMask's built-in modes 1..7, repeated over a repeat.
inline uint16_t BuiltinGatherPattern(uint8_t pattern) {
  static const uint16_t kPatterns[8] = {0, 0x5555, 0xAAAA, 0x1111, 0x2222, 0x4444, 0x8888, 0xFFFF};
  return kPatterns[pattern];
}

// After GatherMask the vector mask register is in normal mode, holding what the instruction was
// given (asc-devkit impl/basic_api/dav_c220/kernel_operator_vec_gather_mask_impl.h: counter mode
// sets the count and ends with SetMaskNorm; normal mode sets a full repeat). A kernel that was in
// counter mode must set it again, as the GatherMask docs say.
template <class T>
void GatherMaskLeavesMask(CoreContext& core, bool reduce_mode, uint32_t mask) {
  core.vector.mask_counter_mode = false;
  if (reduce_mode) {
    core.vector.mask_low = mask;
    core.vector.mask_high = 0;
  } else {
    const simd::RepeatMask full = simd::FirstElements(PerRepeat<T>());
    core.vector.mask_low = full.bits[0];
    core.vector.mask_high = full.bits[1];
  }
}

// Normal mode (reduceMode false): each of repeatTimes repeats covers one 256-byte repeat, the
// pattern row's bit e selecting element e. Counter mode (reduceMode true), as Atlas A2/A3 do it
// (GatherMask docs, "配置方式一"): each of repeatTimes repeats covers `mask` elements, read at the
// block stride (so a repeat may span more than 8 blocks) with the pattern row's bits consumed in
// order; repeats start src0RepeatStride blocks apart. The selected elements are packed into dst;
// rsvdCnt is their number.
template <class T>
void GatherMaskImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                    const uint8_t* pattern, uint64_t pattern_pitch, bool reduce_mode, uint32_t mask,
                    const AscendC::GatherMaskParams& p, uint64_t* rsvd_cnt) {
  constexpr const char* name = "GatherMask";
  CoreContext& core = CurrentCore();
  if (reduce_mode && mask == 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(name,
              ": mask 0 is outside [1, 4294967295] (reduceMode = true: the elements of each "
              "repeat)"));
  }
  if (p.repeatTimes > AscendC::MAX_REPEAT_TIMES) {
    Fault(ErrorKind::kInvalidArgument,
          Str(name, ": repeatTimes ", p.repeatTimes, " is outside [0, ", kMaxRepeatTimes, "]"));
  }
  const uint32_t per_repeat = PerRepeat<T>();
  const uint32_t per_block = kBlockBytes / sizeof(T);
  const uint32_t elems = reduce_mode ? mask : per_repeat;  // elements of one repeat
  auto bit = [&](uint32_t r, uint32_t e) {
    const uint8_t* row = pattern + r * pattern_pitch;
    return (row[e / 8] >> (e % 8)) & 1;
  };
  // Each repeat as a plan of 256-byte chunks at the block stride (one chunk in normal mode), so the
  // operand checks and the sanitizer see exactly the elements read.
  const uint32_t chunks = (elems + per_repeat - 1) / per_repeat;
  simd::RepeatPlan plan;
  plan.per_repeat = per_repeat;
  plan.per_block = per_block;
  plan.repeats = chunks;
  plan.body = simd::FirstElements(per_repeat);
  plan.last = simd::FirstElements(elems - (chunks - 1) * per_repeat);
  const simd::Stride chunk_stride{
      uint64_t{p.src0BlockStride} * kBlockBytes,
      uint64_t{p.src0BlockStride} * kBlockBytes * (per_repeat / per_block)};
  const uint64_t repeat_elems = uint64_t{p.src0RepeatStride} * per_block;
  std::vector<const uint8_t*> rows(p.repeatTimes);
  uint64_t selected = 0, span_lo = ~0ull, span_hi = 0;
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    uint64_t ns;
    rows[r] = reinterpret_cast<const uint8_t*>(
        CheckStridedOperand(name, "src0", src0[r * repeat_elems], plan, chunk_stride, &ns));
    span_lo = std::min<uint64_t>(span_lo, rows[r] - core.ub);
    span_hi = std::max<uint64_t>(span_hi, rows[r] - core.ub + ns);
    for (uint32_t e = 0; e < elems; ++e) selected += bit(r, e);
  }
  T* d = CheckUbOperand(name, "dst", dst, selected);
  if (p.repeatTimes != 0) {
    CheckOverlap(name, "dst", d, selected * sizeof(T), "src0", core.ub + span_lo,
                 span_hi - span_lo);
  }
  uint64_t k = 0;
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    for (uint32_t e = 0; e < elems; ++e) {
      if (bit(r, e)) {
        std::memcpy(&d[k++],
                    rows[r] + simd::ElementOffset(plan, chunk_stride, sizeof(T), e / per_repeat,
                                                  e % per_repeat),
                    sizeof(T));
      }
    }
  }
  *rsvd_cnt = selected;
  core.vector.rsvd_cnt = static_cast<int64_t>(selected);
  GatherMaskLeavesMask<T>(core, reduce_mode, mask);
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kSimple, sizeof(T),
                      uint64_t{p.repeatTimes} * chunks * per_repeat, BufferId(dst), BufferId(src0),
                      trace::kNoBuffer);
  });
}

}  // namespace ascsim::aicore

namespace AscendC {

// --- GatherMask ---
// Pattern tensor: per repeat, bit e of the repeat's pattern row selects element e; rows are
// src1RepeatStride blocks apart (0: one row for every repeat). U is uint16_t for 16-bit T and
// uint32_t for 32-bit T.
template <class T, class U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
  namespace ai = ascsim::aicore;
  static_assert(sizeof(T) == sizeof(U),
                "GatherMask: src1Pattern is uint16_t for 16-bit T, uint32_t for 32-bit T");
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const uint64_t pitch = uint64_t{gatherMaskParams.src1RepeatStride} * ai::kBlockBytes;
  // One pattern bit per element of a repeat: a 256-byte repeat's worth in normal mode, `mask` bits
  // (whole pattern words) in counter mode.
  const uint64_t row_bytes =
      reduceMode ? (uint64_t{mask} + 8 * sizeof(U) - 1) / (8 * sizeof(U)) * sizeof(U)
                 : ai::PerRepeat<T>() / 8;
  const uint64_t need = gatherMaskParams.repeatTimes == 0
                            ? 0
                            : (gatherMaskParams.repeatTimes - 1) * pitch + row_bytes;
  ascsim::aicore::TensorAccess::CheckLive(src1Pattern, "GatherMask", "src1Pattern");
  const uint64_t have = uint64_t{src1Pattern.GetSize()} * sizeof(U);
  if (need > have) {
    ai::Fault(
        ascsim::ErrorKind::kOutOfBounds,
        ai::Str("GatherMask: src1Pattern reaches byte ", need, " (", gatherMaskParams.repeatTimes,
                " repeats, src1RepeatStride ", int(gatherMaskParams.src1RepeatStride),
                ") beyond its LocalTensor of ", have, " B"));
  }
  const auto pattern_rows = ai::Footprint::Rows(gatherMaskParams.repeatTimes, row_bytes, pitch);
  const U* pat = ai::CheckUbOperand("GatherMask", "src1Pattern", src1Pattern,
                                    (need + sizeof(U) - 1) / sizeof(U),
                                    {ascsim::trace::Pipe::kV, &pattern_rows});
  ai::GatherMaskImpl<T>(dst, src0, reinterpret_cast<const uint8_t*>(pat), pitch, reduceMode, mask,
                        gatherMaskParams, &rsvdCnt);
}
// Built-in patterns: 1 even elements, 2 odd, 3..6 element 0/1/2/3 of every 4, 7 all.
template <class T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  if (src1Pattern < 1 || src1Pattern > 7) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str("GatherMask: built-in src1Pattern ", int(src1Pattern), " is outside [1, 7]"));
  }
  // The mode's 16-bit pattern repeated over a row as long as a repeat (a counter-mode repeat may
  // be longer than 256 B: the pattern keeps its period).
  const uint64_t row_elems = reduceMode ? std::max<uint64_t>(mask, 1) : ai::PerRepeat<T>();
  std::vector<uint8_t> row((row_elems + 15) / 16 * 2);
  const uint16_t p16 = ai::BuiltinGatherPattern(src1Pattern);
  for (size_t i = 0; i + 1 < row.size(); i += 2) std::memcpy(&row[i], &p16, 2);
  ai::GatherMaskImpl<T>(dst, src0, row.data(), 0, reduceMode, mask, gatherMaskParams, &rsvdCnt);
}

}  // namespace AscendC
