// Reductions in mask/repeat form:
//  - WholeReduceSum/Max/Min: one result per repeat (max/min with the index of the element within
//    its repeat, laid out by ReduceOrder); dstRepStride counts whole results.
//  - BlockReduceSum/Max/Min: one result per 32 B block, 8 per repeat; dstRepStride counts groups
//    of 8 results (16 B for half, 32 B for float).
//  - PairReduceSum: one result per adjacent pair, half a repeat's elements; dstRepStride counts
//    128 B.
//  - ReduceSum/Max/Min with mask and repeatTime: one result over every active element of every
//    repeat (index = repeat * elements-per-repeat + element), as the count form lays it out.
// Sums are pairwise binary trees (see simd/masked_math.h). A block of BlockReduceMax/Min with no
// active element leaves its dst slot untouched; BlockReduceSum writes 0 there.
#pragma once

#include <cstdint>
#include <cstring>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/simd/masked_math.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/vector_masked.h"

namespace AscendC {

enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX = 0,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX,
};

}  // namespace AscendC

namespace ascsim::aicore {

inline MaskArg IntMask(const char* call, int32_t mask) {
  if (mask < 0) Fault(ErrorKind::kInvalidArgument, Str(call, ": mask ", mask, " is negative"));
  return ContinuousMask(static_cast<uint64_t>(mask));
}

inline void CheckNonNegative(const char* call, const char* what, int64_t v) {
  if (v < 0) Fault(ErrorKind::kInvalidArgument, Str(call, ": ", what, " ", v, " is negative"));
}

// A reduction's dst: `slot_bytes` per result, results `pitch` bytes apart, `align`-byte aligned.
template <class T>
uint8_t* CheckReduceDst(const char* call, const AscendC::LocalTensor<T>& dst, uint64_t results,
                        uint64_t pitch, uint64_t slot_bytes, uint64_t align, uint64_t* bytes) {
  ascsim::aicore::TensorAccess::CheckLive(dst, call, "dst");
  *bytes = results == 0 ? 0 : (results - 1) * pitch + slot_bytes;
  const uint64_t have = static_cast<uint64_t>(dst.GetSize()) * sizeof(T);
  if (*bytes > have) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, ": dst reaches byte ", *bytes, " (", results, " results ", pitch,
              " B apart) beyond its LocalTensor of ", have, " B"));
  }
  if (ascsim::aicore::TensorAccess::UbOffset(dst) % align != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": dst UB address ", Hex(ascsim::aicore::TensorAccess::UbOffset(dst)),
              " is not ", align, "-byte aligned"));
  }
  auto* p = reinterpret_cast<uint8_t*>(ascsim::aicore::TensorAccess::Data(dst));
  const BufferSlot* slot = ascsim::aicore::TensorAccess::Slot(dst);
  if (slot->sanitizer != nullptr) [[unlikely]] {
    // Every result slot counts as written (BlockReduceMax/Min skip blocks with no active
    // element: an over-approximation that can hide, never invent, an uninitialised read).
    SanitizeLocal(slot->sanitizer, trace::Pipe::kV, Access::kWrite, slot, p,
                  Footprint::Rows(results, slot_bytes, pitch), call, "dst");
  }
  return p;
}

// The source operand of a Whole/Block reduction: its repeat plan and strides, checked once.
struct ReduceSource {
  simd::RepeatPlan plan;
  simd::Stride stride;
  const uint8_t* bytes;
  uint64_t extent;  // bytes from `bytes` to the highest byte read
};

template <class T>
ReduceSource CheckReduceSource(const char* name, CoreContext& core,
                               const AscendC::LocalTensor<T>& src, const MaskArg& mask,
                               bool is_set_mask, int32_t repeat_time, int32_t src_blk_stride,
                               int32_t src_rep_stride) {
  CheckNonNegative(name, "srcBlkStride", src_blk_stride);
  CheckNonNegative(name, "srcRepStride", src_rep_stride);
  ReduceSource source;
  source.plan = ResolvePlan<T>(name, core, is_set_mask, mask, repeat_time);
  source.stride = StrideOf(src_blk_stride, src_rep_stride);
  source.bytes = reinterpret_cast<const uint8_t*>(
      CheckStridedOperand(name, "src", src, source.plan, source.stride, &source.extent));
  return source;
}

template <class T>
void WholeReduce(const char* name, simd::ReduceKind kind, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, const MaskArg& mask, bool is_set_mask,
                 int32_t repeat_time, int32_t dst_rep_stride, int32_t src_blk_stride,
                 int32_t src_rep_stride, AscendC::ReduceOrder order) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  CheckNonNegative(name, "dstRepStride", dst_rep_stride);
  const ReduceSource source = CheckReduceSource(name, core, src, mask, is_set_mask, repeat_time,
                                                src_blk_stride, src_rep_stride);
  const simd::RepeatPlan& plan = source.plan;
  const simd::Stride& ss = source.stride;
  const uint8_t* s = source.bytes;
  const uint64_t ns = source.extent;
  using Order = AscendC::ReduceOrder;
  const bool pairs = kind != simd::ReduceKind::kSum &&
                     (order == Order::ORDER_VALUE_INDEX || order == Order::ORDER_INDEX_VALUE);
  const bool only_index = kind != simd::ReduceKind::kSum && order == Order::ORDER_ONLY_INDEX;
  const uint64_t slot = pairs ? 2 * sizeof(T) : only_index ? 4 : sizeof(T);
  uint64_t nd;
  uint8_t* d =
      CheckReduceDst(name, dst, plan.repeats, uint64_t(dst_rep_stride) * slot, slot, slot, &nd);
  CheckOverlap(name, "dst", d, nd, "src", s, ns);
  const simd::DType dt = simd::DTypeOf<T>();
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    T value{};
    uint32_t index = 0;
    if (!simd::ReduceSlots(kind, dt, s, plan, ss, r, 0, plan.per_repeat, &value, &index)) continue;
    uint8_t* out = d + uint64_t(r) * dst_rep_stride * slot;
    if (kind == simd::ReduceKind::kSum || order == Order::ORDER_ONLY_VALUE) {
      std::memcpy(out, &value, sizeof(T));
    } else if (only_index) {
      std::memcpy(out, &index, 4);
    } else if (order == Order::ORDER_VALUE_INDEX) {
      std::memcpy(out, &value, sizeof(T));
      StoreIndex<T>(out + sizeof(T), index);
    } else {
      StoreIndex<T>(out, index);
      std::memcpy(out + sizeof(T), &value, sizeof(T));
    }
  }
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kReduce, sizeof(T),
                      uint64_t{plan.repeats} * plan.per_repeat, BufferId(dst), BufferId(src),
                      trace::kNoBuffer);
  });
}

// How a Block or Pair reduction groups a repeat: BlockReduce* gives 8 results, one per 32 B
// block, and dstRepStride counts groups of 8 results (16 B for half, 32 B for float);
// PairReduceSum gives one per adjacent pair, so a repeat's 256 B halve to 128 B, the unit of its
// dstRepStride, and dst is 32-byte aligned (asc-devkit docs PairReduceSum.md, "dstRepStride:
// 以一个repeat归约后的长度为单位 ... 即单位为128Byte").
enum class GroupReduce { kBlock, kPair };

template <class T>
void GroupedReduce(const char* name, simd::ReduceKind kind, GroupReduce grouping,
                   const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const MaskArg& mask, bool is_set_mask, int32_t repeat_time,
                   int32_t dst_rep_stride, int32_t src_blk_stride, int32_t src_rep_stride) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  CheckNonNegative(name, "dstRepStride", dst_rep_stride);
  const ReduceSource source = CheckReduceSource(name, core, src, mask, is_set_mask, repeat_time,
                                                src_blk_stride, src_rep_stride);
  const simd::RepeatPlan& plan = source.plan;
  const simd::Stride& ss = source.stride;
  const uint8_t* s = source.bytes;
  const uint64_t ns = source.extent;
  const bool pair = grouping == GroupReduce::kPair;
  const uint32_t groups = pair ? plan.per_repeat / 2 : 8;
  const uint32_t span = pair ? 2 : plan.per_block;  // source elements a result reduces
  const uint64_t group = uint64_t{groups} * sizeof(T);
  uint64_t nd;
  uint8_t* d = CheckReduceDst(name, dst, plan.repeats, uint64_t(dst_rep_stride) * group, group,
                              pair ? 32 : group, &nd);
  CheckOverlap(name, "dst", d, nd, "src", s, ns);
  const simd::DType dt = simd::DTypeOf<T>();
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    uint8_t* out = d + uint64_t(r) * dst_rep_stride * group;
    for (uint32_t g = 0; g < groups; ++g) {
      T value{};
      const bool any = simd::ReduceSlots(kind, dt, s, plan, ss, r, g * span, span, &value, nullptr);
      if (any || kind == simd::ReduceKind::kSum) std::memcpy(out + g * sizeof(T), &value, sizeof(T));
    }
  }
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kReduce, sizeof(T),
                      uint64_t{plan.repeats} * plan.per_repeat, BufferId(dst), BufferId(src),
                      trace::kNoBuffer);
  });
}

template <class T>
void ReduceMasked(const char* name, simd::ReduceKind kind, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& work,
                  const MaskArg& mask, int32_t repeat_time, int32_t src_rep_stride,
                  bool cal_index) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  CheckNonNegative(name, "srcRepStride", src_rep_stride);
  const simd::RepeatPlan plan = ResolvePlan<T>(name, core, true, mask, repeat_time);
  if (plan.repeats == 0) Fault(ErrorKind::kInvalidArgument, Str(name, ": repeatTime must be >= 1"));
  const simd::Stride ss = StrideOf(1, src_rep_stride);
  uint64_t ns;
  const auto* s =
      reinterpret_cast<const uint8_t*>(CheckStridedOperand(name, "src", src, plan, ss, &ns));
  // dst needs only its result's alignment: the element (SUM, or MAX/MIN value only), or the
  // value-index pair (asc-devkit docs ReduceSum.md / ReduceMax.md, ReduceRepeat.md table 3).
  T* d = CheckUbOperand(name, "dst", dst, cal_index ? 2 : 1,
                        static_cast<uint32_t>((cal_index ? 2 : 1) * sizeof(T)));
  CheckUbOperand(name, "workLocal", work,
                 ReduceWorkElements<T>(uint64_t{plan.repeats} * plan.per_repeat));
  const simd::DType dt = simd::DTypeOf<T>();
  T acc{};
  uint32_t best_index = 0;
  bool any = false;
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    T value{};
    uint32_t index = 0;
    if (!simd::ReduceSlots(kind, dt, s, plan, ss, r, 0, plan.per_repeat, &value, &index)) continue;
    const uint32_t global = r * plan.per_repeat + index;
    if (!any) {
      acc = value;
      best_index = global;
    } else if (kind == simd::ReduceKind::kSum) {
      simd::AccumulateSum(dt, &acc, &value);
    } else {
      using A = std::conditional_t<std::is_integral_v<T>, T, float>;
      const bool better = kind == simd::ReduceKind::kMax ? A(value) > A(acc) : A(value) < A(acc);
      if (better) {
        acc = value;
        best_index = global;
      }
    }
    any = true;
  }
  d[0] = acc;
  if (cal_index) StoreIndex<T>(reinterpret_cast<uint8_t*>(&d[1]), best_index);
  Record(core, [&] {
    return VectorCall(name, trace::VectorClass::kReduce, sizeof(T),
                      uint64_t{plan.repeats} * plan.per_repeat, BufferId(dst), BufferId(src),
                      BufferId(work));
  });
}

}  // namespace ascsim::aicore

namespace AscendC {

#define ASCSIM_WHOLE_REDUCE(Name, Kind, ORDER_PARAM, ORDER_ARG)                                 \
  template <class T, bool isSetMask = true>                                                     \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,           \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,   \
            const int32_t srcRepStride ORDER_PARAM) {                                           \
    ascsim::aicore::WholeReduce<T>(#Name, ascsim::simd::ReduceKind::Kind, dst, src,             \
                                   ascsim::aicore::IntMask(#Name, mask), isSetMask, repeatTime, \
                                   dstRepStride, srcBlkStride, srcRepStride, ORDER_ARG);        \
  }                                                                                             \
  template <class T, bool isSetMask = true>                                                     \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],        \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,   \
            const int32_t srcRepStride ORDER_PARAM) {                                           \
    ascsim::aicore::WholeReduce<T>(#Name, ascsim::simd::ReduceKind::Kind, dst, src,             \
                                   ascsim::aicore::BitMask(mask), isSetMask, repeatTime,        \
                                   dstRepStride, srcBlkStride, srcRepStride, ORDER_ARG);        \
  }
#define ASCSIM_ORDER_PARAM , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX
ASCSIM_WHOLE_REDUCE(WholeReduceSum, kSum, , ReduceOrder::ORDER_ONLY_VALUE)
ASCSIM_WHOLE_REDUCE(WholeReduceMax, kMax, ASCSIM_ORDER_PARAM, order)
ASCSIM_WHOLE_REDUCE(WholeReduceMin, kMin, ASCSIM_ORDER_PARAM, order)
#undef ASCSIM_ORDER_PARAM
#undef ASCSIM_WHOLE_REDUCE

#define ASCSIM_GROUPED_REDUCE(Name, Kind, Grouping)                                                         \
  template <class T, bool isSetMask = true>                                                     \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,     \
            const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,         \
            const int32_t srcRepStride) {                                                       \
    ascsim::aicore::GroupedReduce<T>(#Name, ascsim::simd::ReduceKind::Kind, Grouping, dst, src, \
                                     ascsim::aicore::IntMask(#Name, mask), isSetMask,           \
                                     repeatTime, dstRepStride, srcBlkStride, srcRepStride);     \
  }                                                                                             \
  template <class T, bool isSetMask = true>                                                     \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,     \
            const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,      \
            const int32_t srcRepStride) {                                                       \
    ascsim::aicore::GroupedReduce<T>(#Name, ascsim::simd::ReduceKind::Kind, Grouping, dst, src, \
                                     ascsim::aicore::BitMask(mask), isSetMask, repeatTime,      \
                                     dstRepStride, srcBlkStride, srcRepStride);                 \
  }
#define ASCSIM_BLOCK ascsim::aicore::GroupReduce::kBlock
ASCSIM_GROUPED_REDUCE(BlockReduceSum, kSum, ASCSIM_BLOCK)
ASCSIM_GROUPED_REDUCE(BlockReduceMax, kMax, ASCSIM_BLOCK)
ASCSIM_GROUPED_REDUCE(BlockReduceMin, kMin, ASCSIM_BLOCK)
#undef ASCSIM_BLOCK
// PairReduceSum: (a1+a2, a3+a4, ...) per repeat, half and float (asc-devkit docs
// PairReduceSum.md; dav_c220 issues it as vcpadd). A pair with one active element gives that
// element; one with none gives 0, as BlockReduceSum's empty block and the ZEROING mode of the
// register-level PairReduceSum (docs PairReduceElem.md).
ASCSIM_GROUPED_REDUCE(PairReduceSum, kSum, ascsim::aicore::GroupReduce::kPair)
#undef ASCSIM_GROUPED_REDUCE

// RepeatReduceSum: WholeReduceSum with a continuous mask only; dstBlkStride is ignored and
// dstRepStride counts results, as documented.
template <class T, bool isSetMask = true>
void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                     const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                     const int32_t dstRepStride, const int32_t srcRepStride) {
  (void)dstBlkStride;
  ascsim::aicore::WholeReduce<T>("RepeatReduceSum", ascsim::simd::ReduceKind::kSum, dst, src,
                                 ascsim::aicore::IntMask("RepeatReduceSum", mask), isSetMask,
                                 repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                                 ReduceOrder::ORDER_ONLY_VALUE);
}

// ReduceSum/Max/Min, mask/repeat form (the count form is in vector_ops.h).
template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& workLocal, const int32_t mask, const int32_t repeatTime,
               const int32_t srcRepStride) {
  ascsim::aicore::ReduceMasked<T>("ReduceSum", ascsim::simd::ReduceKind::kSum, dst, src, workLocal,
                                  ascsim::aicore::IntMask("ReduceSum", mask), repeatTime,
                                  srcRepStride, false);
}
template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& workLocal, const uint64_t mask[], const int32_t repeatTime,
               const int32_t srcRepStride) {
  ascsim::aicore::ReduceMasked<T>("ReduceSum", ascsim::simd::ReduceKind::kSum, dst, src, workLocal,
                                  ascsim::aicore::BitMask(mask), repeatTime, srcRepStride, false);
}
#define ASCSIM_REDUCE_EXTREME(Name, Kind)                                                          \
  template <class T>                                                                               \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal, \
            const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,              \
            bool calIndex = false) {                                                               \
    ascsim::aicore::ReduceMasked<T>(#Name, ascsim::simd::ReduceKind::Kind, dst, src, workLocal,    \
                                    ascsim::aicore::IntMask(#Name, mask), repeatTime,              \
                                    srcRepStride, calIndex);                                       \
  }                                                                                                \
  template <class T>                                                                               \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal, \
            const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,           \
            bool calIndex = false) {                                                               \
    ascsim::aicore::ReduceMasked<T>(#Name, ascsim::simd::ReduceKind::Kind, dst, src, workLocal,    \
                                    ascsim::aicore::BitMask(mask), repeatTime, srcRepStride,       \
                                    calIndex);                                                     \
  }
ASCSIM_REDUCE_EXTREME(ReduceMax, kMax)
ASCSIM_REDUCE_EXTREME(ReduceMin, kMin)
#undef ASCSIM_REDUCE_EXTREME

}  // namespace AscendC
