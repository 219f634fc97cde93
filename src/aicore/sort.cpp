// The element work of the sort instructions (ascsim/aicore/sort.h): stable descending sorts of 32
// (score, index) pairs and merges of up to four descending lists.
#include "ascsim/aicore/sort.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ascsim::aicore {

namespace {

// The score of a pair as float (NaN sorts first, deterministically).
float ScoreOf(bool half_scores, const uint8_t* pair) {
  if (half_scores) {
    uint16_t bits;
    std::memcpy(&bits, pair, 2);
    return HalfBitsToFloat(bits);
  }
  float f;
  std::memcpy(&f, pair, 4);
  return f;
}
bool Before(float a, float b) {  // a sorts before b (descending, NaN first)
  if (std::isnan(a)) return !std::isnan(b);
  if (std::isnan(b)) return false;
  return a > b;
}

}  // namespace

void SortGroups(bool half_scores, uint8_t* dst, const uint8_t* scores, const uint32_t* index,
                uint32_t groups) {
  const size_t elem = half_scores ? 2 : 4;
  for (uint32_t g = 0; g < groups; ++g) {
    uint8_t pairs[32][kSortPairBytes];
    for (uint32_t i = 0; i < 32; ++i) {
      std::memset(pairs[i], 0, kSortPairBytes);
      std::memcpy(pairs[i], scores + (uint64_t{g} * 32 + i) * elem, elem);
      std::memcpy(pairs[i] + 4, &index[uint64_t{g} * 32 + i], 4);
    }
    uint8_t order[32];
    for (uint8_t i = 0; i < 32; ++i) order[i] = i;
    std::stable_sort(order, order + 32, [&](uint8_t a, uint8_t b) {
      return Before(ScoreOf(half_scores, pairs[a]), ScoreOf(half_scores, pairs[b]));
    });
    for (uint32_t i = 0; i < 32; ++i) {
      std::memcpy(dst + (uint64_t{g} * 32 + i) * kSortPairBytes, pairs[order[i]], kSortPairBytes);
    }
  }
}

uint64_t MergeRecords(bool half_scores, uint32_t rec_bytes, uint32_t score_offset, uint8_t* dst,
                      const uint8_t* const src[4], const uint16_t len[4], int lists, bool suspend,
                      uint16_t taken[4]) {
  uint16_t pos[4] = {0, 0, 0, 0};
  float head[4] = {0, 0, 0, 0};  // the score at each list's head, converted once per record
  for (int i = 0; i < lists; ++i) {
    if (len[i] > 0) head[i] = ScoreOf(half_scores, src[i] + score_offset);
  }
  uint64_t written = 0;
  for (;;) {
    int best = -1;
    bool exhausted = false;
    for (int i = 0; i < lists; ++i) {
      if (pos[i] >= len[i]) {
        exhausted = true;
        continue;
      }
      // Ties go to the earlier list, so equal scores keep their order.
      if (best < 0 || Before(head[i], head[best])) best = i;
    }
    if (best < 0 || (suspend && exhausted)) break;
    std::memcpy(dst + written * rec_bytes, src[best] + uint64_t{pos[best]} * rec_bytes, rec_bytes);
    ++pos[best];
    ++written;
    if (pos[best] < len[best]) {
      head[best] =
          ScoreOf(half_scores, src[best] + uint64_t{pos[best]} * rec_bytes + score_offset);
    }
  }
  for (int i = 0; i < 4; ++i) taken[i] = i < lists ? pos[i] : 0;
  return written;
}

uint64_t MergeLists(bool half_scores, uint8_t* dst, const uint8_t* const src[4],
                    const uint16_t len[4], int lists, bool suspend, uint16_t taken[4]) {
  return MergeRecords(half_scores, kSortPairBytes, 0, dst, src, len, lists, suspend, taken);
}

// ---------------------------------------------------------------- region proposals (310P)

void RequireProposalArch(const char* call, uint32_t elem) {
  const SocProfile& soc = *CurrentCore().launch->soc;
  // asc-devkit dav_c220 (and later) kernel_operator_proposal_impl.h: ASCENDC_REPORT_NOT_SUPPORT;
  // the docs' support tables: the 310P AI Core (half, float) and the Ascend 910 (half).
  if (soc.arch != 2002 && soc.arch != 1001) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": the region-proposal instructions are not available on ", soc.name,
              " (arch ", soc.arch, "); they exist on the Atlas inference 310P AI Core (arch 2002)"
              " and the Ascend 910 (arch 1001); on Atlas A2/A3 use Sort32 / MrgSort / Sort"));
  }
  if (soc.arch == 1001 && elem != 2) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": the Ascend 910 (arch 1001) takes half region proposals only"));
  }
}

void CheckProposalArgs(const char* call, int64_t repeat, int64_t mode, bool has_mode) {
  if (repeat < 0 || repeat > kMaxRepeatTimes) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": repeatTime ", repeat, " is outside [0, ", kMaxRepeatTimes, "]"));
  }
  if (has_mode && (mode < 0 || mode > 5)) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": modeNumber ", mode,
              " is outside [0, 5] (0 x1, 1 y1, 2 x2, 3 y2, 4 score, 5 label)"));
  }
}

void ProposalConcatWork(uint32_t elem, uint8_t* dst, const uint8_t* src, uint32_t repeats,
                        int mode) {
  // Repeat by repeat: 16 elements into field `mode` of 16 proposals; the other fields keep their
  // values (Sort on the 310P concatenates score, y1 and label into the same proposals).
  uint8_t in[kProposalsPerRepeat * 4];
  for (uint32_t r = 0; r < repeats; ++r) {
    std::memcpy(in, src + uint64_t{r} * kProposalsPerRepeat * elem, kProposalsPerRepeat * elem);
    for (uint32_t i = 0; i < kProposalsPerRepeat; ++i) {
      const uint64_t p = uint64_t{r} * kProposalsPerRepeat + i;
      std::memcpy(dst + p * kProposalElements * elem + uint64_t(mode) * elem, in + i * elem, elem);
    }
  }
}

void ProposalExtractWork(uint32_t elem, uint8_t* dst, const uint8_t* src, uint32_t repeats,
                         int mode) {
  // Each repeat reads its 16 proposals before writing its 16 elements, so a dst that starts where
  // src does (TopK samples extract in place) reads every proposal before it is overwritten.
  uint8_t out[kProposalsPerRepeat * 4];
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t i = 0; i < kProposalsPerRepeat; ++i) {
      const uint64_t p = uint64_t{r} * kProposalsPerRepeat + i;
      std::memcpy(out + i * elem, src + p * kProposalElements * elem + uint64_t(mode) * elem, elem);
    }
    std::memcpy(dst + uint64_t{r} * kProposalsPerRepeat * elem, out, kProposalsPerRepeat * elem);
  }
}

void RpSortWork(uint32_t elem, uint8_t* dst, const uint8_t* src, uint32_t repeats) {
  const uint32_t rec = kProposalElements * elem;
  const bool half_scores = elem == 2;
  uint8_t group[kProposalsPerRepeat * kProposalElements * 4];
  for (uint32_t r = 0; r < repeats; ++r) {
    const uint64_t base = uint64_t{r} * kProposalsPerRepeat * rec;
    std::memcpy(group, src + base, kProposalsPerRepeat * rec);  // dst may be src (in place)
    float score[kProposalsPerRepeat];
    uint8_t order[kProposalsPerRepeat];
    for (uint8_t i = 0; i < kProposalsPerRepeat; ++i) {
      score[i] = ScoreOf(half_scores, group + i * rec + kProposalScore * elem);
      order[i] = i;
    }
    // Equal scores: the earlier proposal first (RpSort16.md, 约束说明).
    std::stable_sort(order, order + kProposalsPerRepeat,
                     [&](uint8_t a, uint8_t b) { return Before(score[a], score[b]); });
    for (uint32_t i = 0; i < kProposalsPerRepeat; ++i) {
      std::memcpy(dst + base + i * rec, group + order[i] * rec, rec);
    }
  }
}

void CheckSortRepeat(const char* call, int64_t repeat) {
  if (repeat < 0 || repeat > kMaxRepeatTimes) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": repeatTime ", repeat, " is outside [0, ", kMaxRepeatTimes, "]"));
  }
}

int MrgSortLists(uint16_t valid_bit, const char* call) {
  switch (valid_bit) {
    case 3:
      return 2;
    case 7:
      return 3;
    case 15:
      return 4;
    default:
      Fault(ErrorKind::kInvalidArgument, Str(call, ": validBit ", valid_bit,
                                             " must be 3, 7 or 15 (the first 2, 3 or 4 lists)"));
  }
}

trace::ApiCall SortCall(const char* name, uint8_t elem, uint64_t n, BufferRef dst, BufferRef src0,
                        BufferRef src1) {
  return VectorCall(name, trace::VectorClass::kSort, elem, n, dst, src0, src1);
}

}  // namespace ascsim::aicore
