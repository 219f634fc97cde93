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

uint64_t MergeLists(bool half_scores, uint8_t* dst, const uint8_t* const src[4],
                    const uint16_t len[4], int lists, bool suspend, uint16_t taken[4]) {
  uint16_t pos[4] = {0, 0, 0, 0};
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
      if (best < 0 || Before(ScoreOf(half_scores, src[i] + pos[i] * kSortPairBytes),
                             ScoreOf(half_scores, src[best] + pos[best] * kSortPairBytes))) {
        best = i;
      }
    }
    if (best < 0 || (suspend && exhausted)) break;
    std::memcpy(dst + written * kSortPairBytes, src[best] + pos[best] * kSortPairBytes,
                kSortPairBytes);
    ++pos[best];
    ++written;
  }
  for (int i = 0; i < 4; ++i) taken[i] = i < lists ? pos[i] : 0;
  return written;
}

void CheckSortRepeat(const char* call, int64_t repeat) {
  if (repeat < 0 || repeat > kMaxRepeatTimes) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": repeatTime ", repeat, " is outside [0, ", kMaxRepeatTimes, "]"));
  }
}

int MrgSortLists(uint16_t valid_bit) {
  switch (valid_bit) {
    case 3:
      return 2;
    case 7:
      return 3;
    case 15:
      return 4;
    default:
      Fault(ErrorKind::kInvalidArgument, Str("MrgSort: validBit ", valid_bit,
                                             " must be 3, 7 or 15 (the first 2, 3 or 4 lists)"));
  }
}

trace::ApiCall SortCall(const char* name, uint8_t elem, uint64_t n, BufferRef dst, BufferRef src0,
                        BufferRef src1) {
  return VectorCall(name, trace::VectorClass::kSort, elem, n, dst, src0, src1);
}

}  // namespace ascsim::aicore
