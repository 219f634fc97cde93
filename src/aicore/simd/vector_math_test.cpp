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
