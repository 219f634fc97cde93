// The 310P region-proposal instructions (sort.h): ProposalConcat / ProposalExtract and their 2023
// names Concat / Extract (..., repeatTime, modeNumber), RpSort16, MrgSort4 and GetMrgSortResult,
// against scalar references in half and float with odd repeat counts; a TopK-style kernel (concat,
// sort 16s, merge passes, extract) through a 310P launch; every error path with its message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ::testing::HasSubstr;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;

constexpr const char* kP310 = "Ascend310P3";
constexpr uint32_t kProp = 8;  // elements per region proposal

// Field f of proposal p.
template <class T>
float Field(const AscendC::LocalTensor<T>& t, uint32_t p, uint32_t f) {
  return float(t.GetValue(p * kProp + f));
}

template <class T>
void CheckConcatExtract(uint32_t repeats) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " x" + std::to_string(repeats));
  CoreFixture fx(128 * 1024, kP310);
  const uint32_t n = repeats * 16;
  auto props = fx.Take<T>(n * kProp), src = fx.Take<T>(n), out = fx.Take<T>(n);
  for (uint32_t i = 0; i < n * kProp; ++i) props.SetValue(i, T(float(i % 61) - 30.0f));
  std::vector<std::vector<T>> field(6);
  for (int m = 0; m < 6; ++m) {
    field[m] = RandomVector<T>(n, -50, 50, 7 * n + m);
    for (uint32_t i = 0; i < n; ++i) src.SetValue(i, field[m][i]);
    if (m % 2 == 0) {
      AscendC::ProposalConcat(props, src, repeats, m);
    } else {
      AscendC::Concat(props, src, repeats, m);  // the 2023 spelling
    }
  }
  for (uint32_t p = 0; p < n; ++p) {
    for (int m = 0; m < 6; ++m) ASSERT_EQ(Field(props, p, m), float(field[m][p])) << p << "," << m;
    // The reserved elements keep what was there.
    for (uint32_t f = 6; f < 8; ++f) {
      ASSERT_EQ(Field(props, p, f), float((p * kProp + f) % 61) - 30.0f) << p;
    }
  }
  for (int m = 0; m < 6; ++m) {
    if (m % 2 == 0) {
      AscendC::ProposalExtract(out, props, repeats, m);
    } else {
      AscendC::Extract(out, props, repeats, m);
    }
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(float(out.GetValue(i)), float(field[m][i])) << i;
  }
  // Extracting in place (dst where src starts), as the 2023 TopK sample does.
  AscendC::Extract(props, props, repeats, 4);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(float(props.GetValue(i)), float(field[4][i])) << i;
}
TEST(RegionProposal, ConcatAndExtractMoveOneFieldPerProposal) {
  CheckConcatExtract<half>(1);
  CheckConcatExtract<half>(5);
  CheckConcatExtract<float>(3);
  CheckConcatExtract<float>(7);
}

// Proposals whose score is scores[i] and whose label and x1 carry i (to see whole proposals move).
template <class T>
void MakeProposals(const AscendC::LocalTensor<T>& t, const std::vector<float>& scores) {
  for (uint32_t i = 0; i < scores.size(); ++i) {
    for (uint32_t f = 0; f < kProp; ++f) t.SetValue(i * kProp + f, T(0.0f));
    t.SetValue(i * kProp + 0, T(float(i % 1024)));
    t.SetValue(i * kProp + 4, T(scores[i]));
    t.SetValue(i * kProp + 5, T(float(i % 1024)));
  }
}

// The scores as T rounds them, with each proposal's tag (its x1), sorted descending and stably.
template <class T>
std::vector<std::pair<float, float>> RefSorted(const std::vector<float>& scores, uint32_t begin,
                                               uint32_t n) {
  std::vector<std::pair<float, float>> v;
  for (uint32_t i = begin; i < begin + n; ++i) v.push_back({float(T(scores[i])), float(i % 1024)});
  std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first > b.first; });
  return v;
}

template <class T>
void CheckRpSort16(uint32_t repeats, bool in_place) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " x" + std::to_string(repeats));
  CoreFixture fx(128 * 1024, kP310);
  const uint32_t n = repeats * 16;
  auto src = fx.Take<T>(n * kProp), dst = fx.Take<T>(n * kProp);
  std::vector<float> s(n);
  const auto r = RandomVector<T>(n, -8, 8, n + 11);
  for (uint32_t i = 0; i < n; ++i) s[i] = float(r[i]);
  s[1] = s[5] = s[9] = 2.5f;  // ties: the earlier proposal first
  MakeProposals(src, s);
  const auto& out = in_place ? src : dst;
  AscendC::RpSort16(out, src, repeats);
  for (uint32_t g = 0; g < repeats; ++g) {
    const auto want = RefSorted<T>(s, g * 16, 16);
    for (uint32_t i = 0; i < 16; ++i) {
      const uint32_t p = g * 16 + i;
      ASSERT_EQ(Field(out, p, 4), want[i].first) << p;
      ASSERT_EQ(Field(out, p, 0), want[i].second) << p;
      ASSERT_EQ(Field(out, p, 5), want[i].second) << p;
    }
  }
}
TEST(RegionProposal, RpSort16SortsEachSixteenByScoreStably) {
  CheckRpSort16<half>(1, false);
  CheckRpSort16<half>(7, true);
  CheckRpSort16<float>(3, false);
  CheckRpSort16<float>(5, true);
}

// Merges lists of the given lengths (each sorted first) and compares with a stable reference in
// which equal scores come from the earlier list.
template <class T>
void CheckMrgSort4(std::vector<uint16_t> lens, uint16_t valid_bit) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " validBit " +
               std::to_string(valid_bit));
  CoreFixture fx(128 * 1024, kP310);
  uint32_t total = 0;
  for (uint16_t l : lens) total += l;
  auto src = fx.Take<T>(total * kProp + 64), dst = fx.Take<T>(total * kProp);
  const auto r = RandomVector<T>(total, -6, 6, total + valid_bit);
  std::vector<float> s(total);
  for (uint32_t i = 0; i < total; ++i) s[i] = float(int(float(r[i]) * 2)) / 2;  // many ties
  // List l sorted in place by the reference, then written as proposals.
  std::vector<float> sorted;
  std::vector<uint32_t> tag;
  uint32_t at = 0;
  for (uint16_t l : lens) {
    std::vector<uint32_t> ix(l);
    std::iota(ix.begin(), ix.end(), at);
    std::stable_sort(ix.begin(), ix.end(), [&](uint32_t a, uint32_t b) { return s[a] > s[b]; });
    for (uint32_t i : ix) {
      sorted.push_back(s[i]);
      tag.push_back(i);
    }
    at += l;
  }
  for (uint32_t i = 0; i < total; ++i) {
    for (uint32_t f = 0; f < kProp; ++f) src.SetValue(i * kProp + f, T(0.0f));
    src.SetValue(i * kProp + 4, T(sorted[i]));
    src.SetValue(i * kProp + 0, T(float(tag[i])));
  }
  uint16_t el[4] = {0, 0, 0, 0};
  uint32_t off[4] = {0, 0, 0, 0};
  for (uint32_t i = 0, o = 0; i < lens.size(); ++i) {
    el[i] = lens[i];
    off[i] = o;
    o += lens[i];
  }
  AscendC::MrgSort4Info info(el, false, valid_bit, 1);
  AscendC::MrgSort4(dst,
                    AscendC::MrgSortSrcList<T>(src[off[0] * kProp], src[off[1] * kProp],
                                               src[off[2] * kProp], src[off[3] * kProp]),
                    info);
  // Reference: repeatedly the earliest list whose head is the largest.
  std::vector<uint32_t> pos(lens.size(), 0);
  for (uint32_t k = 0; k < total; ++k) {
    int best = -1;
    for (uint32_t l = 0; l < lens.size(); ++l) {
      if (pos[l] >= lens[l]) continue;
      if (best < 0 || sorted[off[l] + pos[l]] > sorted[off[best] + pos[best]]) best = l;
    }
    const uint32_t from = off[best] + pos[best]++;
    ASSERT_EQ(Field(dst, k, 4), sorted[from]) << k;
    ASSERT_EQ(Field(dst, k, 0), float(tag[from])) << k;
  }
}
TEST(RegionProposal, MrgSort4MergesUpToFourListsWithTiesToTheEarlierList) {
  CheckMrgSort4<half>({5, 16, 3}, 7);
  CheckMrgSort4<half>({9, 1, 13, 7}, 15);
  CheckMrgSort4<float>({11, 6}, 3);
  CheckMrgSort4<float>({4, 17, 1, 9}, 15);
}

template <class T>
void CheckMrgSort4Repeats(uint8_t repeats) {
  SCOPED_TRACE(sizeof(T) == 2 ? "half" : "float");
  CoreFixture fx(128 * 1024, kP310);
  const uint32_t n = repeats * 64;  // 4 lists of 16 per repeat
  auto src = fx.Take<T>(n * kProp), dst = fx.Take<T>(n * kProp);
  std::vector<float> s(n);
  const auto r = RandomVector<T>(n, -100, 100, n);
  for (uint32_t i = 0; i < n; ++i) s[i] = float(r[i]);
  MakeProposals(src, s);
  AscendC::RpSort16(src, src, repeats * 4);
  const uint16_t el[4] = {16, 16, 16, 16};
  AscendC::MrgSort4(dst,
                    AscendC::MrgSortSrcList<T>(src, src[16 * kProp], src[32 * kProp],
                                               src[48 * kProp]),
                    AscendC::MrgSort4Info(el, false, 15, repeats));
  for (uint32_t g = 0; g < repeats; ++g) {
    // Stable within a 16 and ties to the earlier list: a stable sort of the 64.
    const auto want = RefSorted<T>(s, g * 64, 64);
    for (uint32_t i = 0; i < 64; ++i) {
      ASSERT_EQ(Field(dst, g * 64 + i, 4), want[i].first) << g << "," << i;
      ASSERT_EQ(Field(dst, g * 64 + i, 0), want[i].second) << g << "," << i;
    }
  }
}
TEST(RegionProposal, MrgSort4RepeatsMoveOnByTheFourLists) {
  CheckMrgSort4Repeats<half>(3);
  CheckMrgSort4Repeats<float>(1);
  CheckMrgSort4Repeats<float>(5);
}

TEST(RegionProposal, MrgSort4SuspensionAndGetMrgSortResult) {
  CoreFixture fx(128 * 1024, kP310);
  auto src = fx.Take<half>(32 * kProp), dst = fx.Take<half>(32 * kProp);
  // Lists (descending): {9, 7, 5}, {8, 6, 4, 2, 0}: list 0 runs out after 9 8 7 6 5.
  const std::vector<float> a = {9, 7, 5}, b = {8, 6, 4, 2, 0};
  for (uint32_t i = 0; i < 16 * kProp; ++i) src.SetValue(i, half(0.0f));
  for (uint32_t i = 0; i < a.size(); ++i) src.SetValue(i * kProp + 4, half(a[i]));
  for (uint32_t i = 0; i < b.size(); ++i) src.SetValue((8 + i) * kProp + 4, half(b[i]));
  const uint16_t el[4] = {3, 5, 0, 0};
  AscendC::MrgSort4(dst, AscendC::MrgSortSrcList<half>(src, src[8 * kProp], src, src),
                    AscendC::MrgSort4Info(el, true, 3, 1));
  uint16_t l1 = 0, l2 = 0, l3 = 9, l4 = 9;
  AscendC::GetMrgSortResult(l1, l2, l3, l4);
  EXPECT_EQ(l1, 3);
  EXPECT_EQ(l2, 2);
  EXPECT_EQ(l3, 0);
  EXPECT_EQ(l4, 0);
  const std::vector<float> want = {9, 8, 7, 6, 5};
  for (uint32_t i = 0; i < want.size(); ++i) EXPECT_EQ(Field(dst, i, 4), want[i]) << i;
}

// ------------------------------------------------------------ a TopK-style kernel on the 310P
// Sorts `n` scores of one block descending: ProposalConcat into score fields, RpSort16, MrgSort4
// passes of four lists (16 -> 64 -> 256 ...), ProposalExtract of the scores and the labels
// (which hold the input positions), in the Init / Process / CopyIn / Compute / CopyOut shape.
template <class T>
class KernelProposalSort {
 public:
  void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR yIdx, uint32_t n) {
    n_ = n;
    const uint32_t off = AscendC::GetBlockIdx() * n;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + off, n);
    idxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(idx) + off, n);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + off, n);
    yIdxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(yIdx) + off, n);
    pipe_.InitBuffer(inQueue_, 1, 2 * n * sizeof(T));
    pipe_.InitBuffer(outQueue_, 1, 2 * n * sizeof(T));
    pipe_.InitBuffer(work_, 2 * n * kProp * sizeof(T));
  }
  void Process() {
    CopyIn();
    Compute();
    CopyOut();
  }

 private:
  void CopyIn() {
    AscendC::LocalTensor<T> in = inQueue_.template AllocTensor<T>();
    AscendC::DataCopy(in, xGm_, n_);
    AscendC::DataCopy(in[n_], idxGm_, n_);
    inQueue_.EnQue(in);
  }
  void Compute() {
    AscendC::LocalTensor<T> in = inQueue_.template DeQue<T>();
    AscendC::LocalTensor<T> a = work_.template Get<T>();
    AscendC::LocalTensor<T> b = a[n_ * kProp];
    const int32_t repeat = static_cast<int32_t>(n_ / 16);
    AscendC::ProposalConcat(b, in, repeat, 4);
    AscendC::ProposalConcat(b, in[n_], repeat, 5);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::RpSort16(a, b, repeat);
    inQueue_.FreeTensor(in);
    AscendC::LocalTensor<T> from = a, to = b;
    for (uint32_t len = 16; len < n_; len *= 4) {
      const uint16_t l = static_cast<uint16_t>(len);
      const uint16_t el[4] = {l, l, l, l};
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::MrgSort4(to,
                        AscendC::MrgSortSrcList<T>(from, from[len * kProp], from[2 * len * kProp],
                                                   from[3 * len * kProp]),
                        AscendC::MrgSort4Info(el, false, 15, static_cast<uint16_t>(n_ / len / 4)));
      std::swap(from, to);
    }
    AscendC::LocalTensor<T> out = outQueue_.template AllocTensor<T>();
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ProposalExtract(out, from, repeat, 4);
    AscendC::ProposalExtract(out[n_], from, repeat, 5);
    outQueue_.EnQue(out);
  }
  void CopyOut() {
    AscendC::LocalTensor<T> out = outQueue_.template DeQue<T>();
    AscendC::DataCopy(yGm_, out, n_);
    AscendC::DataCopy(yIdxGm_, out[n_], n_);
    outQueue_.FreeTensor(out);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> work_;
  AscendC::GlobalTensor<T> xGm_, idxGm_, yGm_, yIdxGm_;
  uint32_t n_ = 0;
};

class SocGuard : ascsim::ScopedSettings {
 public:
  explicit SocGuard(const char* name) { ascsim::SetSoc(name); }
};

template <class T>
void CheckKernel(uint32_t n, uint32_t blocks) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " n " + std::to_string(n));
  SocGuard soc(kP310);
  const size_t bytes = size_t{n} * blocks * sizeof(T);
  ascsim_test::DeviceBuffer x(bytes), idx(bytes), y(bytes), yIdx(bytes);
  const auto v = RandomVector<T>(size_t{n} * blocks, -1000, 1000, n + blocks);
  std::memcpy(x.as<T>(), v.data(), bytes);
  for (uint32_t i = 0; i < n * blocks; ++i) idx.as<T>()[i] = T(float(i % n));
  ascsim::Launch("proposal_sort", blocks, [&] {
    KernelProposalSort<T> op;
    op.Init(x.as<uint8_t>(), idx.as<uint8_t>(), y.as<uint8_t>(), yIdx.as<uint8_t>(), n);
    op.Process();
  });
  std::vector<float> s(size_t{n} * blocks);
  for (size_t i = 0; i < s.size(); ++i) s[i] = float(v[i]);
  for (uint32_t b = 0; b < blocks; ++b) {
    auto want = RefSorted<T>(s, b * n, n);
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(float(y.as<T>()[b * n + i]), want[i].first) << b << "," << i;
      ASSERT_EQ(float(yIdx.as<T>()[b * n + i]), want[i].second - float(b * n % 1024)) << i;
    }
  }
}
TEST(RegionProposal, TopKStyleKernelSortsEachBlock) {
  CheckKernel<half>(256, 3);
  CheckKernel<float>(1024, 2);
  CheckKernel<half>(64, 1);
}

// ------------------------------------------------------------ errors
TEST(RegionProposal, AtlasA2RejectsThem) {
  CoreFixture fx;  // Ascend910B1
  auto a = fx.Take<half>(16 * kProp), b = fx.Take<half>(16 * kProp);
  const std::string tail =
      ": the region-proposal instructions are not available on Ascend910B1 (arch 2201); they "
      "exist on the Atlas inference 310P AI Core (arch 2002) and the Ascend 910 (arch 1001); on "
      "Atlas A2/A3 use Sort32 / MrgSort / Sort";
  EXPECT_EQ(ErrorOf([&] { AscendC::RpSort16(a, b, 1); }), "test: block 0/1: RpSort16" + tail);
  EXPECT_EQ(ErrorOf([&] { AscendC::ProposalConcat(a, b, 1, 4); }),
            "test: block 0/1: ProposalConcat" + tail);
  EXPECT_EQ(ErrorOf([&] { AscendC::ProposalExtract(a, b, 1, 4); }),
            "test: block 0/1: ProposalExtract" + tail);
  EXPECT_EQ(ErrorOf([&] { AscendC::Concat(a, b, 1, 4); }), "test: block 0/1: Concat" + tail);
  EXPECT_EQ(ErrorOf([&] { AscendC::Extract(a, b, 1, 4); }), "test: block 0/1: Extract" + tail);
  const uint16_t el[4] = {8, 8, 0, 0};
  EXPECT_EQ(ErrorOf([&] {
              AscendC::MrgSort4(a, AscendC::MrgSortSrcList<half>(b, b[64], b, b),
                                AscendC::MrgSort4Info(el, false, 3, 1));
            }),
            "test: block 0/1: MrgSort4" + tail);
}

TEST(RegionProposal, ArgumentErrors) {
  CoreFixture fx(128 * 1024, kP310);
  auto p = fx.Take<float>(64 * kProp), q = fx.Take<float>(64 * kProp), e = fx.Take<float>(64);
  EXPECT_EQ(ErrorOf([&] { AscendC::ProposalConcat(p, e, 1, 6); }),
            "test: block 0/1: ProposalConcat: modeNumber 6 is outside [0, 5] (0 x1, 1 y1, 2 x2, 3 "
            "y2, 4 score, 5 label)");
  EXPECT_EQ(ErrorOf([&] { AscendC::Extract(e, p, 1, -1); }),
            "test: block 0/1: Extract: modeNumber -1 is outside [0, 5] (0 x1, 1 y1, 2 x2, 3 y2, 4 "
            "score, 5 label)");
  EXPECT_EQ(ErrorOf([&] { AscendC::RpSort16(q, p, 256); }),
            "test: block 0/1: RpSort16: repeatTime 256 is outside [0, 255]");
  EXPECT_EQ(ErrorOf([&] { AscendC::ProposalExtract(e, p, 5, 4); }),
            "test: block 0/1: ProposalExtract: dst [0, 80) of float exceeds LocalTensor size 64");
  EXPECT_EQ(ErrorOf([&] { AscendC::RpSort16(q, p, 5); }),
            "test: block 0/1: RpSort16: dst [0, 640) of float exceeds LocalTensor size 512");
  EXPECT_EQ(ErrorOf([&] { AscendC::RpSort16(q[4], p, 1); }),
            "test: block 0/1: RpSort16: dst UB address 0x810 is not 32-byte aligned");
  EXPECT_EQ(ErrorOf([&] { AscendC::RpSort16(p[8], p, 2); }),
            "test: block 0/1: RpSort16: dst UB [0x20, 0x420) overlaps src UB [0x0, 0x400); in "
            "place needs the same range for both (here the extents differ, so elements are "
            "overwritten before they are read)");
  EXPECT_EQ(ErrorOf([&] { AscendC::ProposalConcat(p[8], p, 1, 4); }),
            "test: block 0/1: ProposalConcat: dst UB [0x20, 0x220) partially overlaps src UB [0x0, "
            "0x40)");
  const uint16_t el[4] = {8, 8, 8, 8};
  auto list = [&](uint32_t at) {
    return AscendC::MrgSortSrcList<float>(p[at], p[at + 64], p[at + 128], p[at + 192]);
  };
  EXPECT_EQ(ErrorOf([&] { AscendC::MrgSort4(q, list(0), AscendC::MrgSort4Info(el, false, 5, 1)); }),
            "test: block 0/1: MrgSort4: validBit 5 must be 3, 7 or 15 (the first 2, 3 or 4 lists)");
  const uint16_t big[4] = {8, 8, 8, 4096};
  EXPECT_EQ(
      ErrorOf([&] { AscendC::MrgSort4(q, list(0), AscendC::MrgSort4Info(big, false, 7, 1)); }),
      "test: block 0/1: MrgSort4: elementLengths[3] 4096 is outside [0, 4095]");
  EXPECT_THAT(
      ErrorOf([&] { AscendC::MrgSort4(q, list(0), AscendC::MrgSort4Info(el, true, 15, 2)); }),
      HasSubstr("MrgSort4: repeatTimes 2 needs four contiguous lists of equal length"));
  // A float proposal is 32 bytes: a list 16 bytes in is misaligned (half would be fine).
  EXPECT_EQ(
      ErrorOf([&] { AscendC::MrgSort4(q, list(4), AscendC::MrgSort4Info(el, false, 15, 1)); }),
      "test: block 0/1: MrgSort4: src.src1 UB address 0x10 is not 32-byte aligned");
  EXPECT_EQ(
      ErrorOf([&] { AscendC::MrgSort4(p[64], list(0), AscendC::MrgSort4Info(el, false, 15, 1)); }),
      "test: block 0/1: MrgSort4: dst UB [0x100, 0x500) overlaps src.src2 UB [0x100, 0x200); "
      "MrgSort4 does not merge in place");
  auto h = fx.Take<half>(16 * kProp);
  const uint16_t el2[4] = {1, 1, 0, 0};
  // Half proposals are 16 bytes: a list at a 16-byte offset is fine, one at 8 bytes is not.
  EXPECT_EQ(ErrorOf([&] {
              AscendC::MrgSort4(h[64], AscendC::MrgSortSrcList<half>(h[8], h[20], h, h),
                                AscendC::MrgSort4Info(el2, false, 3, 1));
            }),
            "test: block 0/1: MrgSort4: src.src2 UB address 0x1128 is not 16-byte aligned");
}

}  // namespace
