// The SIMD fast paths of vector_math.cpp against the portable reference loops, on every Highway
// target this CPU can run (AVX-512, AVX2, SSE4, ... as compiled in and supported), not only the
// best one the dispatcher picks by default. Each target is forced with
// hwy::SetSupportedTargetsForTest, which also re-resolves HWY_DYNAMIC_DISPATCH.
#include "ascsim/aicore/simd/vector_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "hwy/targets.h"

namespace ascsim::simd {
namespace {

// Sizes around the vector widths (4..16 floats, 8..32 halves) and their multiples.
const size_t kSizes[] = {1, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 1000, 4097};

// Elements of `t` (F32 or F16) in raw bits: ordinary values of both signs and magnitudes, plus
// the special values (zeros, infinities, NaN, subnormals, the largest finite).
std::vector<uint8_t> Inputs(DType t, size_t n, uint32_t seed, bool positive_only = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> magnitude(-8.0f, 8.0f);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            1e-40f,
                            65504.0f,
                            -65504.0f,
                            3.0e38f,
                            1.0f,
                            -1.0f};
  std::vector<uint8_t> bytes(n * DTypeSize(t));
  for (size_t i = 0; i < n; ++i) {
    float v = (i % 13 == 5) ? specials[(i / 13) % (sizeof(specials) / sizeof(float))]
                            : std::ldexp(unit(rng) + 0.5f, static_cast<int>(magnitude(rng))) *
                                  (unit(rng) < 0.5f ? -1.0f : 1.0f);
    if (positive_only) v = std::fabs(v);
    if (t == DType::kF32) {
      std::memcpy(&bytes[i * 4], &v, 4);
    } else {
      const half h(v);
      std::memcpy(&bytes[i * 2], &h, 2);
    }
  }
  return bytes;
}

float At(DType t, const std::vector<uint8_t>& bytes, size_t i) {
  if (t == DType::kF32) {
    float v;
    std::memcpy(&v, &bytes[i * 4], 4);
    return v;
  }
  half h;
  std::memcpy(&h, &bytes[i * 2], 2);
  return static_cast<float>(h);
}

// Distance in units in the last place of `t` between two finite values of the same sign.
int64_t UlpDistance(DType t, float a, float b) {
  if (t == DType::kF32) {
    int32_t ia, ib;
    std::memcpy(&ia, &a, 4);
    std::memcpy(&ib, &b, 4);
    return std::llabs(static_cast<int64_t>(ia) - ib);
  }
  const half ha(a), hb(b);
  uint16_t ia, ib;
  std::memcpy(&ia, &ha, 2);
  std::memcpy(&ib, &hb, 2);
  return std::llabs(static_cast<int64_t>(ia) - ib);
}

// Compares fast and reference results element by element: bit-exact (NaN matches any NaN) unless
// `max_ulp` allows the documented difference of an approximated function.
void ExpectSame(DType t, const std::vector<uint8_t>& fast, const std::vector<uint8_t>& ref,
                size_t n, int64_t max_ulp, const std::string& what) {
  int reported = 0;
  for (size_t i = 0; i < n && reported < 5; ++i) {
    const float f = At(t, fast, i), r = At(t, ref, i);
    if (std::isnan(f) && std::isnan(r)) continue;
    const size_t w = DTypeSize(t);
    if (std::memcmp(&fast[i * w], &ref[i * w], w) == 0) continue;
    if (max_ulp > 0 && std::isfinite(f) && std::isfinite(r) && std::signbit(f) == std::signbit(r) &&
        UlpDistance(t, f, r) <= max_ulp) {
      continue;
    }
    ADD_FAILURE() << what << " n=" << n << " element " << i << ": fast " << f << ", reference "
                  << r;
    ++reported;
  }
}

const char* TypeLabel(DType t) { return t == DType::kF32 ? "float" : "half"; }

class VectorMathTargets : public ::testing::Test {
 protected:
  void TearDown() override { hwy::SetSupportedTargetsForTest(0); }  // back to the real CPU
};

TEST_F(VectorMathTargets, EveryTargetMatchesThePortableReference) {
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_FALSE(targets.empty());
  for (int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    const std::string name = hwy::TargetName(target);
    for (DType t : {DType::kF32, DType::kF16}) {
      const size_t w = DTypeSize(t);
      for (size_t n : kSizes) {
        const auto a = Inputs(t, n, 1);
        const auto b = Inputs(t, n, 2);
        const auto positive = Inputs(t, n, 3, /*positive_only=*/true);
        std::vector<uint8_t> fast(n * w), ref(n * w);
        const std::string where = name + " " + TypeLabel(t) + " ";

        for (BinaryOp op : {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul, BinaryOp::kDiv,
                            BinaryOp::kMax, BinaryOp::kMin}) {
          Binary(op, t, fast.data(), a.data(), b.data(), n);
          portable::Binary(op, t, ref.data(), a.data(), b.data(), n);
          ExpectSame(t, fast, ref, n, 0, where + "Binary " + std::to_string(int(op)));
        }
        for (UnaryOp op : {UnaryOp::kExp, UnaryOp::kLn, UnaryOp::kAbs, UnaryOp::kSqrt,
                           UnaryOp::kRsqrt, UnaryOp::kReciprocal, UnaryOp::kRelu}) {
          const auto& in = (op == UnaryOp::kLn || op == UnaryOp::kSqrt || op == UnaryOp::kRsqrt)
                               ? positive
                               : a;
          Unary(op, t, fast.data(), in.data(), n);
          portable::Unary(op, t, ref.data(), in.data(), n);
          // Exp and Ln use Highway's polynomial approximations (documented within a few ulp of
          // float); everything else is exact IEEE arithmetic.
          const int64_t ulp = (op == UnaryOp::kExp || op == UnaryOp::kLn) ? 4 : 0;
          ExpectSame(t, fast, ref, n, ulp, where + "Unary " + std::to_string(int(op)));
        }
        for (ScalarOp op : {ScalarOp::kAdds, ScalarOp::kMuls, ScalarOp::kMaxs, ScalarOp::kMins,
                            ScalarOp::kLeakyRelu}) {
          WithScalar(op, t, fast.data(), a.data(), b.data(), n);
          portable::WithScalar(op, t, ref.data(), a.data(), b.data(), n);
          ExpectSame(t, fast, ref, n, 0, where + "Scalar " + std::to_string(int(op)));
        }
      }
    }
    // Casts between half and float, in both directions and every rounding mode the fast path
    // may take.
    for (size_t n : kSizes) {
      const auto f32 = Inputs(DType::kF32, n, 4);
      const auto f16 = Inputs(DType::kF16, n, 5);
      std::vector<uint8_t> fast(n * 4), ref(n * 4);
      Cast(DType::kF32, DType::kF16, Rounding::kNone, fast.data(), f16.data(), n);
      portable::Cast(DType::kF32, DType::kF16, Rounding::kNone, ref.data(), f16.data(), n);
      ExpectSame(DType::kF32, fast, ref, n, 0, name + " Cast half->float");
      for (Rounding mode : {Rounding::kNone, Rounding::kRint, Rounding::kFloor, Rounding::kCeil,
                            Rounding::kTrunc, Rounding::kRound, Rounding::kOdd}) {
        Cast(DType::kF16, DType::kF32, mode, fast.data(), f32.data(), n);
        portable::Cast(DType::kF16, DType::kF32, mode, ref.data(), f32.data(), n);
        ExpectSame(DType::kF16, fast, ref, n, 0,
                   name + " Cast float->half mode " + std::to_string(int(mode)));
      }
    }
  }
}

// float -> half under every rounding mode, bit for bit (NaN payloads included) against the portable
// loop, on the values where rounding modes differ: every half and the floats right next to it,
// every midpoint between neighbouring halves (the ties) and the floats next to those, subnormal
// halves and floats below them, the overflow edge (65504, 65520, beyond), inf, NaNs.
std::vector<float> RoundingEdgeCases() {
  std::vector<float> v;
  const float inf = std::numeric_limits<float>::infinity();
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const uint16_t h = static_cast<uint16_t>(bits);
    const float f = static_cast<float>(half::FromRaw(h));
    if (std::isnan(f)) continue;
    v.push_back(f);
    v.push_back(std::nextafter(f, inf));
    v.push_back(std::nextafter(f, -inf));
    if ((h & 0x7FFFu) < 0x7C00u) {  // finite: the midpoint to the next half away from zero
      const float next = static_cast<float>(half::FromRaw(static_cast<uint16_t>(h + 1)));
      const float mid = (f + next) / 2;  // exact in float
      v.push_back(mid);
      v.push_back(std::nextafter(mid, inf));
      v.push_back(std::nextafter(mid, -inf));
    }
  }
  for (float f : {1e-8f, -1e-8f, 1e-30f, -1e-30f, 1e-45f, -1e-45f, 65519.99f, 65520.0f, 65536.0f,
                  1e5f, -1e5f, 3.0e38f, -3.0e38f, std::numeric_limits<float>::max(),
                  -std::numeric_limits<float>::max(), inf, -inf}) {
    v.push_back(f);
  }
  for (uint32_t nan : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7FA01234u, 0xFFFFFFFFu,
                       0x7FBFFFFFu}) {
    float f;
    std::memcpy(&f, &nan, 4);
    v.push_back(f);
  }
  return v;
}

TEST_F(VectorMathTargets, CastFloatToHalfEveryRoundingModeIsBitExact) {
  const std::vector<float> in = RoundingEdgeCases();
  const size_t n = in.size();
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    for (Rounding mode : {Rounding::kNone, Rounding::kRint, Rounding::kFloor, Rounding::kCeil,
                          Rounding::kTrunc, Rounding::kRound, Rounding::kOdd}) {
      std::vector<uint16_t> fast(n), ref(n);
      Cast(DType::kF16, DType::kF32, mode, fast.data(), in.data(), n);
      portable::Cast(DType::kF16, DType::kF32, mode, ref.data(), in.data(), n);
      int reported = 0;
      for (size_t i = 0; i < n && reported < 5; ++i) {
        if (fast[i] == ref[i]) continue;
        uint32_t bits;
        std::memcpy(&bits, &in[i], 4);
        ADD_FAILURE() << hwy::TargetName(target) << " mode " << int(mode) << ": float 0x"
                      << std::hex << bits << " (" << in[i] << ") gives half 0x" << fast[i]
                      << ", reference 0x" << ref[i] << std::dec;
        ++reported;
      }
    }
  }
}

// The same values one at a time (n = 1, the rest of the vector zero): the fast paths decide per
// vector whether a bit trick suffices, so a value must also be right when no neighbour in its
// vector sends the whole vector down the general path; and in a vector of normal values with one
// edge value in a varying lane (odd sizes, every lane position, the tail included).
TEST_F(VectorMathTargets, CastFloatToHalfEdgeValuesAloneInTheirVector) {
  const std::vector<float> in = RoundingEdgeCases();
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    for (Rounding mode : {Rounding::kRint, Rounding::kFloor, Rounding::kCeil, Rounding::kTrunc,
                          Rounding::kRound, Rounding::kOdd}) {
      int reported = 0;
      for (size_t i = 0; i < in.size() && reported < 5; ++i) {
        uint16_t fast = 0, ref = 0;
        Cast(DType::kF16, DType::kF32, mode, &fast, &in[i], 1);
        portable::Cast(DType::kF16, DType::kF32, mode, &ref, &in[i], 1);
        if (fast == ref) continue;
        ADD_FAILURE() << hwy::TargetName(target) << " mode " << int(mode) << ": " << in[i]
                      << " alone gives 0x" << std::hex << fast << ", reference 0x" << ref
                      << std::dec;
        ++reported;
      }
      // 37 normal values (1.5) with one edge value moving through every position.
      for (size_t i = 0; i < in.size() && reported < 5; i += 97) {
        std::vector<float> v(37, 1.5f);
        v[i % v.size()] = in[i];
        std::vector<uint16_t> fast(v.size()), ref(v.size());
        Cast(DType::kF16, DType::kF32, mode, fast.data(), v.data(), v.size());
        portable::Cast(DType::kF16, DType::kF32, mode, ref.data(), v.data(), v.size());
        if (fast == ref) continue;
        ADD_FAILURE() << hwy::TargetName(target) << " mode " << int(mode) << ": " << in[i]
                      << " at lane " << i % v.size() << " among 1.5s differs";
        ++reported;
      }
    }
  }
}

// The reference itself on values worked out by hand (half: 10 fraction bits, so the halves next
// to 1 are 1 - 2^-11 and 1 + 2^-10; 65504 is the largest finite).
TEST(CastFloatToHalf, ReferenceRoundsAsEachModeSays) {
  struct Case {
    float in;
    Rounding mode;
    uint16_t out;
  };
  const float tie = 1.0f + 0x1p-11f;  // halfway between 1 (0x3C00) and 1 + 2^-10 (0x3C01)
  const float above = 1.0f + 0x1p-12f;  // between them, nearer 1
  const Case cases[] = {
      {tie, Rounding::kRint, 0x3C00},  {tie, Rounding::kRound, 0x3C01},
      {-tie, Rounding::kRound, 0xBC01}, {tie, Rounding::kFloor, 0x3C00},
      {tie, Rounding::kCeil, 0x3C01},  {-tie, Rounding::kFloor, 0xBC01},
      {-tie, Rounding::kTrunc, 0xBC00}, {above, Rounding::kCeil, 0x3C01},
      {above, Rounding::kRound, 0x3C00}, {above, Rounding::kOdd, 0x3C01},
      {1.0f, Rounding::kOdd, 0x3C00},    {70000.0f, Rounding::kFloor, 0x7BFF},
      {70000.0f, Rounding::kCeil, 0x7C00}, {70000.0f, Rounding::kTrunc, 0x7BFF},
      {-70000.0f, Rounding::kFloor, 0xFC00}, {-70000.0f, Rounding::kTrunc, 0xFBFF},
      {1e-8f, Rounding::kCeil, 0x0001},  {1e-8f, Rounding::kFloor, 0x0000},
      {-1e-8f, Rounding::kFloor, 0x8001}, {-1e-8f, Rounding::kTrunc, 0x8000},
      {0x1p-25f, Rounding::kRound, 0x0001},  // half of the smallest subnormal: a tie, away
      {0x1p-25f, Rounding::kRint, 0x0000},   // ... to even
  };
  for (const Case& c : cases) {
    uint16_t out = 0;
    portable::Cast(DType::kF16, DType::kF32, c.mode, &out, &c.in, 1);
    EXPECT_EQ(out, c.out) << c.in << " mode " << int(c.mode);
    Cast(DType::kF16, DType::kF32, c.mode, &out, &c.in, 1);
    EXPECT_EQ(out, c.out) << c.in << " mode " << int(c.mode) << " (fast path)";
  }
}

// Fill (Duplicate) on every target and element size: every element of [0, n) holds the scalar's
// bits, and the bytes after n (a guard) are left alone, for sizes around every vector width.
TEST_F(VectorMathTargets, FillWritesExactlyNElements) {
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    for (DType t : {DType::kF16, DType::kF32, DType::kI8, DType::kI16, DType::kU32, DType::kI64}) {
      const size_t size = DTypeSize(t);
      const uint8_t scalar[8] = {0x81, 0x42, 0x13, 0xC4, 0x35, 0x26, 0x97, 0x08};
      for (size_t n : kSizes) {
        std::vector<uint8_t> out((n + 9) * size, 0xEE);
        Fill(t, out.data() + size, scalar, n);
        for (size_t i = 0; i < out.size(); ++i) {
          const bool inside = i >= size && i < (n + 1) * size;
          const uint8_t want = inside ? scalar[i % size] : uint8_t{0xEE};
          if (out[i] != want) {
            ADD_FAILURE() << hwy::TargetName(target) << " " << DTypeName(t) << " n=" << n
                          << ": byte " << i << " is " << int(out[i]) << ", want " << int(want);
            break;
          }
        }
      }
    }
  }
}

// The test above is only as strong as the set of targets it ran: say which, so a CI log shows
// whether AVX-512 / AVX2 / SSE4 were all covered on this machine.
TEST_F(VectorMathTargets, ListsTheTargetsItCovers) {
  std::string names;
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    names += std::string(names.empty() ? "" : ", ") + hwy::TargetName(target);
  }
  std::printf("Highway targets tested here: %s\n", names.c_str());
  EXPECT_FALSE(names.empty());
}

}  // namespace
}  // namespace ascsim::simd
