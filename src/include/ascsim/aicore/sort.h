// The Atlas A2/A3 sort instructions and the sort APIs built on them:
//   Sort32     sorts each group of 32 scores in descending order into (score, index) pairs of 8 B
//              (float: score in the low 4 B, index in the high 4 B; half: score in the low 2 B, 2 B
//              reserved, index in the high 4 B); equal scores keep their input order
//   MrgSort    merges 2..4 descending lists of such pairs (MrgSort4Info: lengths in pairs,
//              validBit 3/7/15, ifExhaustedSuspension, repeatTimes), GetMrgSortResult reads how
//              many pairs each list gave when an exhausted list stopped the merge
//   Sort<T, isFullSort>   Sort32, then (full sort) MrgSort passes through tmp
//   Concat     A2: the score tensor itself is Sort's input (concat becomes src)
//   Extract    splits sorted pairs into scores and indices (GatherMask, as the device does)
// The region-proposal instructions of the 310P AI Core (arch 2002; the Ascend 910, arch 1001, has
// them for half): a proposal is 8 elements of T, [x1, y1, x2, y2, score, label, reserved x2]
// (16 B in half, 32 B in float; ProposalConcat.md),
//   ProposalConcat / ProposalExtract  16 elements to / from field modeNumber (0 x1 .. 5 label) of
//              16 proposals per repeat; the other fields keep their values. The 2023 samples'
//              Concat(dst, src, repeatTime, modeNumber) / Extract(dst, src, repeatTime,
//              modeNumber) are these under their older names (Ascend samples fc2aea93,
//              kernel_invocation/TopK)
//   RpSort16   sorts each group of 16 proposals by score, descending; equal scores keep their
//              order (RpSort16.md 约束说明); dst may be src
//   MrgSort4   merges 2..4 descending proposal lists (MrgSort4Info as MrgSort's, lengths in
//              proposals); no overlap of dst with a list; dst and lists aligned to a proposal
//              (16 B half, 32 B float; MrgSort4.md); GetMrgSortResult reads the counts too.
// They compile for every arch, as CANN's headers do, and fail at run time off the 310P / 910
// (asc-devkit dav_c220 kernel_operator_proposal_impl.h: ASCENDC_REPORT_NOT_SUPPORT).
// Sources: asc-devkit
// include/basic_api/kernel_operator_proposal_intf.h, kernel_struct_proposal.h,
// impl/basic_api/kernel_operator_proposal_intf_impl.h, impl/basic_api/dav_c220/
// kernel_operator_proposal_impl.h, docs/zh/api/SIMD-API/基础API/Memory矢量计算/排序组合（ISASI）/
// and 高阶API/排序操作/.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/operand_checks.h"
#include "ascsim/aicore/special_registers.h"
#include "ascsim/aicore/ub_movement.h"
#include "ascsim/aicore/gather_mask.h"

namespace AscendC {

constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

struct MrgSort4Info {
  MrgSort4Info() {}
  MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN],
               const bool ifExhaustedSuspensionIn, const uint16_t validBitIn,
               const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn),
        validBit(validBitIn),
        repeatTimes(static_cast<uint8_t>(repeatTimesIn)) {
    for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint8_t repeatTimes = 1;
};

template <class T>
struct MrgSortSrcList {
  MrgSortSrcList() {}
  MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In,
                 const LocalTensor<T>& src3In, const LocalTensor<T>& src4In) {
    src1 = src1In[0];
    src2 = src2In[0];
    src3 = src3In[0];
    src4 = src4In[0];
  }
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

}  // namespace AscendC

namespace ascsim::aicore {

// One (score, index) pair of the sorted layout.
constexpr uint32_t kSortPairBytes = 8;

void SortGroups(bool half_scores, uint8_t* dst, const uint8_t* scores, const uint32_t* index,
                uint32_t groups);
// Merges `lists` descending lists; returns the pairs written. Suspends (stops) when a list is
// exhausted if `suspend`; taken[i] = pairs taken from list i.
uint64_t MergeLists(bool half_scores, uint8_t* dst, const uint8_t* const src[4],
                    const uint16_t len[4], int lists, bool suspend, uint16_t taken[4]);
void CheckSortRepeat(const char* call, int64_t repeat);
trace::ApiCall SortCall(const char* name, uint8_t elem, uint64_t n, BufferRef dst, BufferRef src0,
                        BufferRef src1);
int MrgSortLists(uint16_t valid_bit, const char* call = "MrgSort");
uint64_t MergeRecords(bool half_scores, uint32_t rec_bytes, uint32_t score_offset, uint8_t* dst,
                      const uint8_t* const src[4], const uint16_t len[4], int lists, bool suspend,
                      uint16_t taken[4]);

// Region proposals (the 310P).
constexpr uint32_t kProposalElements = 8;   // elements of T per proposal
constexpr uint32_t kProposalScore = 4;      // the score's element
constexpr uint32_t kProposalsPerRepeat = 16;
void RequireProposalArch(const char* call, uint32_t elem);
void CheckProposalArgs(const char* call, int64_t repeat, int64_t mode, bool has_mode);
void ProposalConcatWork(uint32_t elem, uint8_t* dst, const uint8_t* src, uint32_t repeats,
                        int mode);
void ProposalExtractWork(uint32_t elem, uint8_t* dst, const uint8_t* src, uint32_t repeats,
                         int mode);
void RpSortWork(uint32_t elem, uint8_t* dst, const uint8_t* src, uint32_t repeats);

// ProposalConcat (concat true) / ProposalExtract: checks, element work, record.
template <class T>
void ProposalMove(const char* call, bool concat, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, int32_t repeat, int32_t mode) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "the region-proposal instructions take half or float");
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  RequireProposalArch(call, sizeof(T));
  CheckProposalArgs(call, repeat, mode, true);
  if (repeat == 0) return;
  const uint64_t elems = uint64_t(repeat) * kProposalsPerRepeat;
  const uint64_t props = elems * kProposalElements;
  T* d = CheckUbOperand(call, "dst", dst, concat ? props : elems);
  const T* s = CheckUbOperand(call, "src", src, concat ? elems : props);
  CheckOverlap(call, "dst", d, (concat ? props : elems) * sizeof(T), "src", s,
               (concat ? elems : props) * sizeof(T));
  if (concat) {
    ProposalConcatWork(sizeof(T), reinterpret_cast<uint8_t*>(d),
                       reinterpret_cast<const uint8_t*>(s), static_cast<uint32_t>(repeat), mode);
  } else {
    ProposalExtractWork(sizeof(T), reinterpret_cast<uint8_t*>(d),
                        reinterpret_cast<const uint8_t*>(s), static_cast<uint32_t>(repeat), mode);
  }
  Record(core, [&] {
    return SortCall(call, sizeof(T), elems, BufferId(dst), BufferId(src), BufferRef{});
  });
}

// A list of MrgSort: live, 8 B aligned (the documented requirement for the lists), inside.
template <class T>
const uint8_t* CheckSortList(const char* role, const AscendC::LocalTensor<T>& t, uint64_t pairs) {
  const T* p = TensorAccess::Checked(t, "MrgSort", role, 0, pairs * kSortPairBytes / sizeof(T));
  if (reinterpret_cast<uintptr_t>(p) % kSortPairBytes != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str("MrgSort: ", role, " UB address ", Hex(TensorAccess::UbOffset(t)),
              " is not 8-byte aligned"));
  }
  return reinterpret_cast<const uint8_t*>(p);
}

}  // namespace ascsim::aicore

namespace AscendC {

// ---------------------------------------------------------------- Sort32
template <class T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<uint32_t>& src1, const int32_t repeatTime) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Sort32 takes half or float");
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  // The 310P sorts region proposals (RpSort16), which ascsim does not simulate.
  ai::RequireArch("Sort32", 2201, "Sort32");
  ai::CheckSortRepeat("Sort32", repeatTime);
  if (repeatTime == 0) return;
  const uint64_t n = uint64_t(repeatTime) * 32;
  T* d = ai::CheckUbOperand("Sort32", "dst", dst, n * ai::kSortPairBytes / sizeof(T));
  const T* s = ai::CheckUbOperand("Sort32", "src0", src0, n);
  const uint32_t* idx = ai::CheckUbOperand("Sort32", "src1", src1, n);
  ai::CheckOverlap("Sort32", "dst", d, n * ai::kSortPairBytes, "src0", s, n * sizeof(T));
  ai::CheckOverlap("Sort32", "dst", d, n * ai::kSortPairBytes, "src1", idx, n * 4);
  ai::SortGroups(sizeof(T) == 2, reinterpret_cast<uint8_t*>(d), reinterpret_cast<const uint8_t*>(s),
                 idx, static_cast<uint32_t>(repeatTime));
  ai::Record(core, [&] {
    return ai::SortCall("Sort32", sizeof(T), n, ai::BufferId(dst), ai::BufferId(src0),
                        ai::BufferId(src1));
  });
}

// ---------------------------------------------------------------- MrgSort
template <class T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "MrgSort takes half or float");
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  ai::RequireArch("MrgSort", 2201, "MrgSort");
  const int lists = ai::MrgSortLists(params.validBit);
  const LocalTensor<T>* in[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
  const char* roles[4] = {"src.src1", "src.src2", "src.src3", "src.src4"};
  uint16_t len[4] = {0, 0, 0, 0};
  uint64_t pairs = 0;
  for (int i = 0; i < lists; ++i) {
    len[i] = params.elementLengths[i];
    if (len[i] > 4095) {
      ai::Fault(ascsim::ErrorKind::kInvalidArgument,
                ai::Str("MrgSort: elementLengths[", i, "] ", len[i], " is outside [0, 4095]"));
    }
    pairs += len[i];
  }
  uint32_t repeats = params.repeatTimes;
  if (repeats == 0) return;
  if (repeats > 1) {
    // repeatTimes works only on four contiguous lists of equal length without suspension.
    const bool equal = len[0] == len[1] && len[1] == len[2] && len[2] == len[3];
    bool contiguous = lists == 4;
    for (int i = 1; contiguous && i < 4; ++i) {
      contiguous = ai::TensorAccess::Data(*in[i]) ==
                   ai::TensorAccess::Data(*in[i - 1]) + len[0] * ai::kSortPairBytes / sizeof(T);
    }
    if (!(equal && contiguous && !params.ifExhaustedSuspension && params.validBit == 15)) {
      ai::Fault(ascsim::ErrorKind::kInvalidArgument,
                ai::Str("MrgSort: repeatTimes ", repeats,
                        " needs four contiguous lists of equal "
                        "length, validBit 15 and ifExhaustedSuspension false"));
    }
  }
  const uint64_t out_elems = pairs * repeats * ai::kSortPairBytes / sizeof(T);
  T* d = ai::CheckUbOperand("MrgSort", "dst", dst, out_elems);
  for (uint32_t r = 0; r < repeats; ++r) {
    const uint8_t* s[4] = {nullptr, nullptr, nullptr, nullptr};
    const uint64_t step = uint64_t{r} * pairs * ai::kSortPairBytes / sizeof(T);
    for (int i = 0; i < lists; ++i) {
      s[i] = ai::CheckSortList(roles[i], (*in[i])[static_cast<uint32_t>(step)], len[i]);
      ai::CheckOverlap("MrgSort", "dst", d, out_elems * sizeof(T), roles[i], s[i],
                       uint64_t{len[i]} * ai::kSortPairBytes);
    }
    ai::MergeLists(sizeof(T) == 2, reinterpret_cast<uint8_t*>(d) + step * sizeof(T), s, len, lists,
                   params.ifExhaustedSuspension, core.vector.mrg_sort_result);
  }
  ai::Record(core, [&] {
    return ai::SortCall("MrgSort", sizeof(T), pairs * repeats, ai::BufferId(dst),
                        ai::BufferId(src.src1), ai::BufferId(src.src2));
  });
}

// The pairs each list gave in the last MrgSort with ifExhaustedSuspension.
inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4) {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  mrgSortList1 = core.vector.mrg_sort_result[0];
  mrgSortList2 = core.vector.mrg_sort_result[1];
  mrgSortList3 = core.vector.mrg_sort_result[2];
  mrgSortList4 = core.vector.mrg_sort_result[3];
}

// The sort API's MrgSort: element counts and valid lists as arguments, sortedNum filled when
// isExhaustedSuspension.
template <class T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
             const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
             const int32_t repeatTime) {
  MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit,
                    static_cast<uint16_t>(repeatTime));
  MrgSort(dst, sortList, info);
  if (isExhaustedSuspension) {
    const uint16_t* r = ascsim::aicore::CurrentCore().vector.mrg_sort_result;
    for (int i = 0; i < 4; ++i) sortedNum[i] = r[i];
  }
}

// ---------------------------------------------------------------- Concat / Extract / Sort
// A2: Sort reads the scores directly, so concat becomes src (a handle copy, no data moves).
template <class T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
            const int32_t repeatTime) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Concat takes half or float");
  (void)tmp;
  ascsim::aicore::CheckSortRepeat("Concat", repeatTime);
  ascsim::aicore::TensorAccess::CheckLive(src, "Concat", "src");
  concat = src;
}

template <class T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
             const LocalTensor<T>& sorted, const int32_t repeatTime) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Extract takes half or float");
  ascsim::aicore::CheckSortRepeat("Extract", repeatTime);
  if (repeatTime == 0) return;
  uint64_t cnt = 0;
  const uint16_t r = static_cast<uint16_t>(repeatTime);
  // Scores: element 0 of every pair; indices: the odd 32-bit words.
  GatherMask(dstValue, sorted, uint8_t(sizeof(T) == 2 ? 3 : 1), false, 0u,
             GatherMaskParams(1, r, DEFAULT_REPEAT_STRIDE, 0), cnt);
  // (CANN passes 2 * repeatTime for half here, which would read past the 32 pairs a repeat holds;
  // ascsim reads exactly the pairs the values came from.)
  GatherMask(dstIndex, sorted.template ReinterpretCast<uint32_t>(), uint8_t(2), false, 0u,
             GatherMaskParams(1, r, 8, 0), cnt);
}

// repeatTime groups of 32: each sorted (isFullSort false) or all of them (true, through tmp,
// which holds as many pairs as dst).
template <class T, bool isFullSort>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat,
          const LocalTensor<uint32_t>& index, LocalTensor<T>& tmp, const int32_t repeatTime) {
  Sort32(dst, concat, index, repeatTime);
  if constexpr (isFullSort) {
    // Merge passes of up to four lists each, through tmp (the device's DoFullSort).
    constexpr uint32_t pp = ascsim::aicore::kSortPairBytes / sizeof(T);  // elements per pair
    if (repeatTime <= 1) return;
    uint32_t lens[256], count = static_cast<uint32_t>(repeatTime);
    for (uint32_t i = 0; i < count; ++i) lens[i] = 32;
    const uint32_t total = count * 32;
    while (count > 1) {
      DataCopy(tmp, dst, total * pp);
      uint32_t offset = 0, merged = 0;
      for (uint32_t first = 0; first < count; first += 4) {
        const uint32_t k = count - first < 4 ? count - first : 4;
        uint32_t group = 0;
        if (k == 1) {
          DataCopy(dst[offset * pp], tmp[offset * pp], lens[first] * pp);
          group = lens[first];
        } else {
          uint16_t l[4] = {0, 0, 0, 0};
          uint32_t at[4] = {offset, offset, offset, offset};
          for (uint32_t i = 0; i < k; ++i) {
            l[i] = static_cast<uint16_t>(lens[first + i]);
            at[i] = offset + group;
            group += lens[first + i];
          }
          MrgSortSrcList<T> list(tmp[at[0] * pp], tmp[at[1] * pp], tmp[at[2] * pp],
                                 tmp[at[3] * pp]);
          MrgSort(dst[offset * pp], list,
                  MrgSort4Info(l, false, static_cast<uint16_t>((1u << k) - 1), 1));
        }
        lens[merged++] = group;
        offset += group;
      }
      count = merged;
    }
  }
}

// ---------------------------------------------------------------- sorted-data sizes
// The length / offset, in elements of T, of `elemCount` (value, index) pairs in Sort32 / MrgSort
// output: 8 bytes per pair on A2/A3 (4 halves or 2 floats); on the 310P a region proposal of 8
// elements. (asc-devkit impl/basic_api/kernel_operator_proposal_intf_impl.h; the docs
// GetSortLen.md / GetSortOffset.md say bytes, the code counts elements of T.)
template <typename T>
__aicore__ inline uint32_t GetSortLen(const uint32_t elemCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "GetSortLen supports half and float");
#if __NPU_ARCH__ == 2002 || __NPU_ARCH__ == 1001
  return elemCount * 8;
#else
  return elemCount * (std::is_same_v<T, half> ? 4 : 2);
#endif
}
template <typename T>
__aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "GetSortOffset supports half and float");
  return GetSortLen<T>(elemOffset);
}

// ---------------------------------------------------------------- region proposals (310P)
template <class T>
void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                    const int32_t modeNumber) {
  ascsim::aicore::ProposalMove("ProposalConcat", true, dst, src, repeatTime, modeNumber);
}
template <class T>
void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                     const int32_t repeatTime, const int32_t modeNumber) {
  ascsim::aicore::ProposalMove("ProposalExtract", false, dst, src, repeatTime, modeNumber);
}
// The 2023 names (CANN 6.x, the tik2 namespace of the samples of that time).
template <class T>
void Concat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTimes,
            const int32_t modeNumber) {
  ascsim::aicore::ProposalMove("Concat", true, dst, src, repeatTimes, modeNumber);
}
template <class T>
void Extract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTimes,
             const int32_t modeNumber) {
  ascsim::aicore::ProposalMove("Extract", false, dst, src, repeatTimes, modeNumber);
}

template <class T>
void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "RpSort16 takes half or float");
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  ai::RequireProposalArch("RpSort16", sizeof(T));
  ai::CheckProposalArgs("RpSort16", repeatTime, 0, false);
  if (repeatTime == 0) return;
  const uint64_t n = uint64_t(repeatTime) * ai::kProposalsPerRepeat * ai::kProposalElements;
  T* d = ai::CheckUbOperand("RpSort16", "dst", dst, n);
  const T* s = ai::CheckUbOperand("RpSort16", "src", src, n);
  ai::CheckOverlapExact("RpSort16", "dst", d, n * sizeof(T), "src", s, n * sizeof(T));
  ai::RpSortWork(sizeof(T), reinterpret_cast<uint8_t*>(d), reinterpret_cast<const uint8_t*>(s),
                 static_cast<uint32_t>(repeatTime));
  ai::Record(core, [&] {
    return ai::SortCall("RpSort16", sizeof(T), n / ai::kProposalElements, ai::BufferId(dst),
                        ai::BufferId(src), ai::BufferRef{});
  });
}

template <class T>
void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "MrgSort4 takes half or float");
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  ai::RequireProposalArch("MrgSort4", sizeof(T));
  constexpr uint32_t rec = ai::kProposalElements * sizeof(T);  // bytes per proposal
  // asc-devkit MrgSort4: every elementLengths entry in [0, 4095], validBit 3 / 7 / 15.
  uint64_t proposals = 0;
  for (int i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) {
    if (params.elementLengths[i] > 4095) {
      ai::Fault(ascsim::ErrorKind::kInvalidArgument,
                ai::Str("MrgSort4: elementLengths[", i, "] ", params.elementLengths[i],
                        " is outside [0, 4095]"));
    }
  }
  const int lists = ai::MrgSortLists(params.validBit, "MrgSort4");
  const LocalTensor<T>* in[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
  const char* roles[4] = {"src.src1", "src.src2", "src.src3", "src.src4"};
  uint16_t len[4] = {0, 0, 0, 0};
  for (int i = 0; i < lists; ++i) {
    len[i] = params.elementLengths[i];
    proposals += len[i];
  }
  const uint32_t repeats = params.repeatTimes;
  if (repeats == 0) return;
  if (repeats > 1) {
    // MrgSort4.md: repeatTimes works only on four contiguous lists of equal length, validBit 15,
    // ifExhaustedSuspension false; each repeat moves src and dst on by the four lists.
    const bool equal = len[0] == len[1] && len[1] == len[2] && len[2] == len[3];
    bool contiguous = lists == 4;
    for (int i = 1; contiguous && i < 4; ++i) {
      contiguous = ai::TensorAccess::Data(*in[i]) ==
                   ai::TensorAccess::Data(*in[i - 1]) + len[0] * ai::kProposalElements;
    }
    if (!(equal && contiguous && !params.ifExhaustedSuspension && params.validBit == 15)) {
      ai::Fault(ascsim::ErrorKind::kInvalidArgument,
                ai::Str("MrgSort4: repeatTimes ", repeats,
                        " needs four contiguous lists of equal length, validBit 15 and "
                        "ifExhaustedSuspension false"));
    }
  }
  const uint64_t out_elems = proposals * repeats * ai::kProposalElements;
  T* dp = ai::CheckUbOperand("MrgSort4", "dst", dst, out_elems, rec);
  for (uint32_t r = 0; r < repeats; ++r) {
    const uint8_t* s[4] = {nullptr, nullptr, nullptr, nullptr};
    const uint64_t step = uint64_t{r} * proposals * ai::kProposalElements;
    for (int i = 0; i < lists; ++i) {
      const LocalTensor<T> list = (*in[i])[static_cast<uint32_t>(step)];
      const T* p = ai::CheckUbOperand("MrgSort4", roles[i], list,
                                      uint64_t{len[i]} * ai::kProposalElements, rec);
      const uint8_t* b = reinterpret_cast<const uint8_t*>(p);
      const uint8_t* db = reinterpret_cast<const uint8_t*>(dp);
      const uint64_t dbytes = out_elems * sizeof(T), sbytes = uint64_t{len[i]} * rec;
      if (sbytes != 0 && db < b + sbytes && b < db + dbytes) {
        ai::Fault(ascsim::ErrorKind::kInvalidArgument,
                  ai::Str("MrgSort4: dst UB [", ai::Hex(db - core.ub), ", ",
                          ai::Hex(db + dbytes - core.ub), ") overlaps ", roles[i], " UB [",
                          ai::Hex(b - core.ub), ", ", ai::Hex(b + sbytes - core.ub),
                          "); MrgSort4 does not merge in place"));
      }
      s[i] = b;
    }
    ai::MergeRecords(sizeof(T) == 2, rec, ai::kProposalScore * sizeof(T),
                     reinterpret_cast<uint8_t*>(dp + step), s, len, lists,
                     params.ifExhaustedSuspension, core.vector.mrg_sort_result);
  }
  ai::Record(core, [&] {
    return ai::SortCall("MrgSort4", sizeof(T), proposals * repeats, ai::BufferId(dst),
                        ai::BufferId(src.src1), ai::BufferId(src.src2));
  });
}

}  // namespace AscendC
