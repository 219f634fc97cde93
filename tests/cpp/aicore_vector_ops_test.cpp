// Count-form vector ops on one simulated core against scalar references written here: 16-bit
// floats are computed in float and rounded to nearest even once per op; elements beyond `count`
// must keep their old value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::Fill;
using ascsim_test::RandomVector;

constexpr uint32_t kCap = 1040;  // elements per test tensor (a multiple of 32 B for every type)
const uint32_t kCounts[] = {1, 15, 17, 129, 1000, kCap};

template <class T>
T Sentinel() {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(0x5A);
  else return T(-777.0f);
}

// Compares dst[0, count) with `expected` bit for bit and dst[count, kCap) with the sentinel;
// reports the first mismatch of each kind only.
// Distance in units in the last place between two finite floats of the same width.
template <class T>
int64_t UlpDistance(T a, T b) {
  auto ordered = [](T v) {
    const int64_t bits = static_cast<int64_t>(Bits(v));
    const int64_t sign = int64_t{1} << (8 * sizeof(T) - 1);
    return (bits & sign) ? -(bits & (sign - 1)) : bits;
  };
  const int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

// `max_ulp` > 0 allows that many units in the last place (transcendentals, whose vectorised
// implementations are not correctly rounded); 0 demands identical bits.
template <class T>
void ExpectResult(const AscendC::LocalTensor<T>& dst, const std::vector<T>& expected,
                  uint32_t count, uint32_t cap = kCap, int max_ulp = 0) {
  for (uint32_t i = 0; i < count; ++i) {
    bool ok = Bits(dst.GetValue(i)) == Bits(expected[i]);
    if constexpr (!std::is_integral_v<T>) {
      if (!ok && max_ulp > 0) ok = UlpDistance(dst.GetValue(i), expected[i]) <= max_ulp;
    }
    if (!ok) {
      ADD_FAILURE() << "count " << count << ": element " << i << " is "
                    << static_cast<double>(dst.GetValue(i)) << ", expected "
                    << static_cast<double>(expected[i]);
      break;
    }
  }
  for (uint32_t i = count; i < cap; ++i) {
    if (Bits(dst.GetValue(i)) != Bits(Sentinel<T>())) {
      ADD_FAILURE() << "count " << count << ": element " << i << " beyond count was overwritten";
      break;
    }
  }
}

// Arithmetic type of the reference: float for half and float, the type itself for integers.
template <class T>
using Ar = std::conditional_t<std::is_integral_v<T>, T, float>;

template <class T>
void RunBinary(const std::function<void(const AscendC::LocalTensor<T>&,
                                        const AscendC::LocalTensor<T>&,
                                        const AscendC::LocalTensor<T>&, int32_t)>& api,
               const std::function<Ar<T>(Ar<T>, Ar<T>)>& ref, float lo, float hi, float lo2,
               float hi2) {
  for (uint32_t count : kCounts) {
    CoreFixture f;
    auto a = f.Take<T>(kCap), b = f.Take<T>(kCap), d = f.Take<T>(kCap);
    const auto va = RandomVector<T>(kCap, lo, hi, count);
    const auto vb = RandomVector<T>(kCap, lo2, hi2, count + 1000);
    Fill(a, va);
    Fill(b, vb);
    Fill(d, std::vector<T>(kCap, Sentinel<T>()));
    api(d, a, b, static_cast<int32_t>(count));
    std::vector<T> expected(count);
    for (uint32_t i = 0; i < count; ++i) expected[i] = T(ref(Ar<T>(va[i]), Ar<T>(vb[i])));
    ExpectResult(d, expected, count);
  }
}

template <class T>
void RunUnary(const std::function<void(const AscendC::LocalTensor<T>&,
                                       const AscendC::LocalTensor<T>&, int32_t)>& api,
              const std::function<Ar<T>(Ar<T>)>& ref, float lo, float hi, int max_ulp = 0) {
  for (uint32_t count : kCounts) {
    CoreFixture f;
    auto a = f.Take<T>(kCap), d = f.Take<T>(kCap);
    const auto va = RandomVector<T>(kCap, lo, hi, count);
    Fill(a, va);
    Fill(d, std::vector<T>(kCap, Sentinel<T>()));
    api(d, a, static_cast<int32_t>(count));
    std::vector<T> expected(count);
    for (uint32_t i = 0; i < count; ++i) expected[i] = T(ref(Ar<T>(va[i])));
    ExpectResult(d, expected, count, kCap, max_ulp);
  }
}

template <class T>
class FloatVectorOps : public ::testing::Test {};
using FloatTypes = ::testing::Types<half, float>;
TYPED_TEST_SUITE(FloatVectorOps, FloatTypes);

#define BINARY_API(Name) \
  [](const auto& d, const auto& a, const auto& b, int32_t n) { AscendC::Name(d, a, b, n); }
#define UNARY_API(Name) [](const auto& d, const auto& a, int32_t n) { AscendC::Name(d, a, n); }

TYPED_TEST(FloatVectorOps, Add) {
  RunBinary<TypeParam>(BINARY_API(Add), [](float x, float y) { return x + y; }, -100, 100, -100, 100);
}
TYPED_TEST(FloatVectorOps, Sub) {
  RunBinary<TypeParam>(BINARY_API(Sub), [](float x, float y) { return x - y; }, -100, 100, -100, 100);
}
TYPED_TEST(FloatVectorOps, Mul) {
  RunBinary<TypeParam>(BINARY_API(Mul), [](float x, float y) { return x * y; }, -30, 30, -30, 30);
}
TYPED_TEST(FloatVectorOps, Div) {
  RunBinary<TypeParam>(BINARY_API(Div), [](float x, float y) { return x / y; }, -30, 30, 0.5, 20);
}
TYPED_TEST(FloatVectorOps, Max) {
  RunBinary<TypeParam>(BINARY_API(Max), [](float x, float y) { return x > y ? x : y; }, -5, 5, -5, 5);
}
TYPED_TEST(FloatVectorOps, Min) {
  RunBinary<TypeParam>(BINARY_API(Min), [](float x, float y) { return x < y ? x : y; }, -5, 5, -5, 5);
}
TYPED_TEST(FloatVectorOps, Exp) {
  RunUnary<TypeParam>(UNARY_API(Exp), [](float x) { return std::exp(x); }, -8, 8, 2);
}
TYPED_TEST(FloatVectorOps, Ln) {
  RunUnary<TypeParam>(UNARY_API(Ln), [](float x) { return std::log(x); }, 0.01f, 1000, 2);
}
TYPED_TEST(FloatVectorOps, Abs) {
  RunUnary<TypeParam>(UNARY_API(Abs), [](float x) { return std::fabs(x); }, -50, 50);
}
TYPED_TEST(FloatVectorOps, Sqrt) {
  RunUnary<TypeParam>(UNARY_API(Sqrt), [](float x) { return std::sqrt(x); }, 0, 1000);
}
TYPED_TEST(FloatVectorOps, Rsqrt) {
  RunUnary<TypeParam>(UNARY_API(Rsqrt), [](float x) { return 1.0f / std::sqrt(x); }, 0.01f, 1000);
}
TYPED_TEST(FloatVectorOps, Reciprocal) {
  RunUnary<TypeParam>(UNARY_API(Reciprocal), [](float x) { return 1.0f / x; }, 0.05f, 100);
}
TYPED_TEST(FloatVectorOps, Relu) {
  RunUnary<TypeParam>(UNARY_API(Relu), [](float x) { return x > 0 ? x : 0.0f; }, -50, 50);
}
TYPED_TEST(FloatVectorOps, ScalarOps) {
  using T = TypeParam;
  RunUnary<T>([](const auto& d, const auto& a, int32_t n) { AscendC::Adds(d, a, T(1.5f), n); },
              [](float x) { return x + float(T(1.5f)); }, -100, 100);
  RunUnary<T>([](const auto& d, const auto& a, int32_t n) { AscendC::Muls(d, a, T(-0.3f), n); },
              [](float x) { return x * float(T(-0.3f)); }, -100, 100);
  RunUnary<T>([](const auto& d, const auto& a, int32_t n) { AscendC::Maxs(d, a, T(0.25f), n); },
              [](float x) { return x > 0.25f ? x : 0.25f; }, -1, 1);
  RunUnary<T>([](const auto& d, const auto& a, int32_t n) { AscendC::Mins(d, a, T(0.25f), n); },
              [](float x) { return x < 0.25f ? x : 0.25f; }, -1, 1);
  RunUnary<T>(
      [](const auto& d, const auto& a, int32_t n) { AscendC::LeakyRelu(d, a, T(0.1f), n); },
      [](float x) { return x >= 0 ? x : x * float(T(0.1f)); }, -20, 20);
  // The scalar is not deduced: a float literal converts to the tensor type.
  RunUnary<T>([](const auto& d, const auto& a, int32_t n) { AscendC::Adds(d, a, 2.0f, n); },
              [](float x) { return x + 2.0f; }, -100, 100);
}
TYPED_TEST(FloatVectorOps, Duplicate) {
  using T = TypeParam;
  for (uint32_t count : kCounts) {
    CoreFixture f;
    auto d = f.Take<T>(kCap);
    Fill(d, std::vector<T>(kCap, Sentinel<T>()));
    AscendC::Duplicate(d, T(3.25f), static_cast<int32_t>(count));
    ExpectResult(d, std::vector<T>(count, T(3.25f)), count);
  }
}
TYPED_TEST(FloatVectorOps, InPlaceOperandsAreAllowed) {
  using T = TypeParam;
  CoreFixture f;
  auto a = f.Take<T>(64);
  Fill(a, std::vector<T>(64, T(2.0f)));
  AscendC::Add(a, a, a, 64);
  AscendC::Mul(a, a, a, 64);
  EXPECT_EQ(float(a.GetValue(63)), 16.0f);
}

// ---- reductions ----

// The A2 order: a pairwise tree within each 256 B repeat (odd element carried), repeats
// accumulated in sequence; T rounding after every addition.
template <class T>
T ReferenceReduceSum(const std::vector<T>& x, uint32_t n) {
  const uint32_t per_repeat = 256 / sizeof(T);
  T acc = T(0);
  for (uint32_t start = 0; start < n; start += per_repeat) {
    std::vector<T> level(x.begin() + start, x.begin() + std::min(n, start + per_repeat));
    while (level.size() > 1) {
      std::vector<T> next;
      for (size_t i = 0; i + 1 < level.size(); i += 2) {
        next.push_back(T(float(level[i]) + float(level[i + 1])));
      }
      if (level.size() % 2) next.push_back(level.back());
      level.swap(next);
    }
    acc = start == 0 ? level[0] : T(float(acc) + float(level[0]));
  }
  return acc;
}

TYPED_TEST(FloatVectorOps, ReduceSumFollowsTheDeviceOrder) {
  using T = TypeParam;
  for (uint32_t count : kCounts) {
    CoreFixture f;
    auto src = f.Take<T>(kCap), dst = f.Take<T>(16), work = f.Take<T>(kCap);
    const auto v = RandomVector<T>(kCap, -10, 10, count);
    Fill(src, v);
    Fill(dst, std::vector<T>(16, Sentinel<T>()));
    AscendC::ReduceSum(dst, src, work, static_cast<int32_t>(count));
    ExpectResult(dst, {ReferenceReduceSum(v, count)}, 1, 16);
    // The result stays close to the exact sum.
    double exact = 0;
    for (uint32_t i = 0; i < count; ++i) exact += float(v[i]);
    const double tolerance = std::is_same_v<T, half> ? 0.02 * count : 1e-3 * count;
    EXPECT_NEAR(float(dst.GetValue(0)), exact, tolerance);
  }
}

template <class T, bool kMax>
void RunReduceExtreme() {
  for (uint32_t count : kCounts) {
    for (bool with_index : {false, true}) {
      CoreFixture f;
      auto src = f.Take<T>(kCap), dst = f.Take<T>(16), work = f.Take<T>(kCap);
      // Small integers so that the extreme value repeats: the first occurrence must win.
      const auto v = RandomVector<T>(kCap, -60, 60, count);
      std::vector<T> vi(kCap);
      for (uint32_t i = 0; i < kCap; ++i) vi[i] = T(std::round(float(v[i])));
      Fill(src, vi);
      Fill(dst, std::vector<T>(16, Sentinel<T>()));
      if (kMax) AscendC::ReduceMax(dst, src, work, static_cast<int32_t>(count), with_index);
      else AscendC::ReduceMin(dst, src, work, static_cast<int32_t>(count), with_index);
      uint32_t best = 0;
      for (uint32_t i = 1; i < count; ++i) {
        if (kMax ? float(vi[i]) > float(vi[best]) : float(vi[i]) < float(vi[best])) best = i;
      }
      EXPECT_EQ(Bits(dst.GetValue(0)), Bits(vi[best])) << "count " << count;
      if (with_index) {
        uint32_t index = 0;
        if constexpr (sizeof(T) == 2) {
          index = dst.template ReinterpretCast<uint16_t>().GetValue(1);
        } else {
          index = dst.template ReinterpretCast<uint32_t>().GetValue(1);
        }
        EXPECT_EQ(index, best) << "count " << count;
      }
      for (uint32_t i = with_index ? 2 : 1; i < 16; ++i) {
        EXPECT_EQ(Bits(dst.GetValue(i)), Bits(Sentinel<T>())) << "count " << count << " i " << i;
      }
    }
  }
}
TYPED_TEST(FloatVectorOps, ReduceMaxWithAndWithoutIndex) { RunReduceExtreme<TypeParam, true>(); }
TYPED_TEST(FloatVectorOps, ReduceMinWithAndWithoutIndex) { RunReduceExtreme<TypeParam, false>(); }

// ---- integer ops ----

template <class T>
class IntegerVectorOps : public ::testing::Test {};
using IntegerTypes = ::testing::Types<int16_t, uint16_t, int32_t, uint32_t>;
TYPED_TEST_SUITE(IntegerVectorOps, IntegerTypes);

TYPED_TEST(IntegerVectorOps, BitwiseAndShifts) {
  using T = TypeParam;
  const float hi = std::is_signed_v<T> ? 30000 : 60000;
  const float lo = std::is_signed_v<T> ? -30000 : 0;
  RunBinary<T>(BINARY_API(And), [](T x, T y) { return T(x & y); }, lo, hi, lo, hi);
  RunBinary<T>(BINARY_API(Or), [](T x, T y) { return T(x | y); }, lo, hi, lo, hi);
  RunUnary<T>(UNARY_API(Not), [](T x) { return T(~x); }, lo, hi);
  RunUnary<T>([](const auto& d, const auto& a, int32_t n) { AscendC::ShiftLeft(d, a, T(3), n); },
              [](T x) { return T(static_cast<std::make_unsigned_t<T>>(x) << 3); }, 0, 4000);
  RunUnary<T>([](const auto& d, const auto& a, int32_t n) { AscendC::ShiftRight(d, a, T(2), n); },
              [](T x) { return T(x >> 2); }, lo, hi);
}
TYPED_TEST(IntegerVectorOps, ShiftLeftOfNegativeValuesShiftsTheBits) {
  using T = TypeParam;
  using U = std::make_unsigned_t<T>;
  const float lo = std::is_signed_v<T> ? -30000 : 0;
  RunUnary<T>([](const auto& d, const auto& a, int32_t n) { AscendC::ShiftLeft(d, a, T(5), n); },
              [](T x) { return T(U(U(x) << 5)); }, lo, 30000);
}
TYPED_TEST(IntegerVectorOps, ArithmeticWithoutOverflow) {
  using T = TypeParam;
  RunBinary<T>(BINARY_API(Add), [](T x, T y) { return T(x + y); }, 0, 1000, 0, 1000);
  RunBinary<T>(BINARY_API(Max), [](T x, T y) { return x > y ? x : y; }, 0, 1000, 0, 1000);
  RunBinary<T>(BINARY_API(Min), [](T x, T y) { return x < y ? x : y; }, 0, 1000, 0, 1000);
}

// ---- Cast ----

// float -> half under each rounding mode, from the exact multiple of the half ulp (in double).
uint16_t ReferenceFloatToHalf(float f, AscendC::RoundMode mode) {
  using AscendC::RoundMode;
  const double x = f;
  if (x == 0) return ascsim::FloatToHalfBits(f);
  const int e = std::max(std::ilogb(std::fabs(x)), -14);
  const double ulp = std::ldexp(1.0, e - 10);
  const double m = x / ulp;  // exact: a float has 24 significant bits
  double r = 0;
  switch (mode) {
    case RoundMode::CAST_NONE:
    case RoundMode::CAST_RINT: r = std::nearbyint(m); break;
    case RoundMode::CAST_FLOOR: r = std::floor(m); break;
    case RoundMode::CAST_CEIL: r = std::ceil(m); break;
    case RoundMode::CAST_ROUND: r = std::round(m); break;
    case RoundMode::CAST_TRUNC: r = std::trunc(m); break;
    case RoundMode::CAST_ODD:
      r = std::floor(m) == m ? m : (std::fmod(std::floor(m), 2.0) != 0 ? std::floor(m) : std::ceil(m));
      break;
  }
  const float value = static_cast<float>(r * ulp);
  uint16_t bits = ascsim::FloatToHalfBits(value);  // exact: value is on the half grid
  if (value == 0 && std::signbit(f)) bits |= 0x8000u;
  return bits;
}

TEST(Cast, FloatToHalfEveryRoundMode) {
  using AscendC::RoundMode;
  std::vector<float> inputs = RandomVector<float>(kCap - 24, -3000, 3000, 42);
  const float ties[] = {1.0f + std::ldexp(1.0f, -11), 1.0f + 3 * std::ldexp(1.0f, -11),
                        -(1.0f + std::ldexp(1.0f, -11)), -(1.0f + 3 * std::ldexp(1.0f, -11)),
                        2048.0f + 1.0f, 2048.0f + 3.0f, -2049.0f, 0.1f, -0.1f, 1e-6f, -1e-6f,
                        3e-8f, -3e-8f, 65504.0f, -65504.0f, 0.0f, 1.0f, -1.0f, 100.0f, 1000.5f,
                        -1000.5f, 7.0f / 3.0f, -7.0f / 3.0f, 6e-5f};
  inputs.insert(inputs.end(), std::begin(ties), std::end(ties));
  ASSERT_EQ(inputs.size(), kCap);
  for (RoundMode mode : {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
                         RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC,
                         RoundMode::CAST_ODD}) {
    for (uint32_t count : kCounts) {
      CoreFixture f;
      auto src = f.Take<float>(kCap);
      auto dst = f.Take<half>(kCap);
      Fill(src, inputs);
      Fill(dst, std::vector<half>(kCap, Sentinel<half>()));
      AscendC::Cast(dst, src, mode, count);
      std::vector<half> expected(count);
      for (uint32_t i = 0; i < count; ++i) {
        expected[i] = half::FromRaw(ReferenceFloatToHalf(inputs[i], mode));
      }
      SCOPED_TRACE(static_cast<int>(mode));
      ExpectResult(dst, expected, count);
    }
  }
}

TEST(Cast, HalfToFloatIsExact) {
  for (uint32_t count : kCounts) {
    CoreFixture f;
    auto src = f.Take<half>(kCap);
    auto dst = f.Take<float>(kCap);
    const auto v = RandomVector<half>(kCap, -60000, 60000, count);
    Fill(src, v);
    Fill(dst, std::vector<float>(kCap, Sentinel<float>()));
    AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, count);
    std::vector<float> expected(count);
    for (uint32_t i = 0; i < count; ++i) expected[i] = ascsim::HalfBitsToFloat(static_cast<uint16_t>(Bits(v[i])));
    ExpectResult(dst, expected, count);
  }
}

TEST(Cast, FloatToInt32EveryRoundMode) {
  using AscendC::RoundMode;
  std::vector<float> inputs = RandomVector<float>(kCap - 10, -100000, 100000, 7);
  const float ties[] = {2.5f, -2.5f, 3.5f, -3.5f, 0.5f, -0.5f, 1.49f, -1.51f, 0.0f, 7.0f};
  inputs.insert(inputs.end(), std::begin(ties), std::end(ties));
  const std::pair<RoundMode, double (*)(double)> modes[] = {
      {RoundMode::CAST_RINT, [](double x) { return std::nearbyint(x); }},
      {RoundMode::CAST_FLOOR, [](double x) { return std::floor(x); }},
      {RoundMode::CAST_CEIL, [](double x) { return std::ceil(x); }},
      {RoundMode::CAST_ROUND, [](double x) { return std::round(x); }},
      {RoundMode::CAST_TRUNC, [](double x) { return std::trunc(x); }}};
  for (const auto& [mode, ref] : modes) {
    for (uint32_t count : kCounts) {
      CoreFixture f;
      auto src = f.Take<float>(kCap);
      auto dst = f.Take<int32_t>(kCap);
      Fill(src, inputs);
      Fill(dst, std::vector<int32_t>(kCap, Sentinel<int32_t>()));
      AscendC::Cast(dst, src, mode, count);
      std::vector<int32_t> expected(count);
      for (uint32_t i = 0; i < count; ++i) expected[i] = static_cast<int32_t>(ref(inputs[i]));
      SCOPED_TRACE(static_cast<int>(mode));
      ExpectResult(dst, expected, count);
    }
  }
}

}  // namespace

namespace {

// One 256 B repeat holds 256 one-byte elements: the per-repeat tree must cover all of them.
TEST(ReduceSumIntegers, OneByteElementsFillAWholeRepeat) {
  CoreFixture f;
  auto src = f.Take<int8_t>(512), dst = f.Take<int8_t>(32), work = f.Take<int8_t>(512);
  std::vector<int8_t> v(512);
  for (uint32_t i = 0; i < 512; ++i) v[i] = static_cast<int8_t>(i % 3 == 0 ? 1 : (i % 3 == 1 ? -1 : 0));
  Fill(src, v);
  for (uint32_t count : {255u, 256u, 300u, 512u}) {
    AscendC::ReduceSum(dst, src, work, static_cast<int32_t>(count));
    int sum = 0;
    for (uint32_t i = 0; i < count; ++i) sum += v[i];
    EXPECT_EQ(dst.GetValue(0), sum) << count;
  }
}

TEST(ReduceSumIntegers, Int16) {
  CoreFixture f;
  auto src = f.Take<int16_t>(kCap), dst = f.Take<int16_t>(16), work = f.Take<int16_t>(kCap);
  const auto v = RandomVector<int16_t>(kCap, -20, 20, 5);
  Fill(src, v);
  for (uint32_t count : kCounts) {
    AscendC::ReduceSum(dst, src, work, static_cast<int32_t>(count));
    int sum = 0;
    for (uint32_t i = 0; i < count; ++i) sum += v[i];
    EXPECT_EQ(dst.GetValue(0), sum) << count;
  }
}

}  // namespace

namespace {

TEST(Cast, Int32ToFloatAndHalfToInt32) {
  CoreFixture f;
  auto i32 = f.Take<int32_t>(64), back = f.Take<int32_t>(64);
  auto fl = f.Take<float>(64);
  auto h = f.Take<half>(64);
  const int32_t values[] = {0, 1, -1, 16777217, -16777217, 2147483647, -2147483647 - 1, 12345};
  for (int i = 0; i < 64; ++i) i32.SetValue(i, values[i % 8]);
  AscendC::Cast(fl, i32, AscendC::RoundMode::CAST_NONE, 64);
  for (int i = 0; i < 64; ++i) {
    // int32 -> float rounds to nearest even, as a C++ conversion does.
    EXPECT_EQ(fl.GetValue(i), static_cast<float>(values[i % 8])) << i;
  }
  const float halves[] = {2.5f, -2.5f, 3.5f, -0.5f, 1000.75f, -1000.25f, 0.0f, 65504.0f};
  for (int i = 0; i < 64; ++i) h.SetValue(i, half(halves[i % 8]));
  AscendC::Cast(back, h, AscendC::RoundMode::CAST_ROUND, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(back.GetValue(i), std::lround(float(half(halves[i % 8])))) << i;
  AscendC::Cast(back, h, AscendC::RoundMode::CAST_FLOOR, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(back.GetValue(i), std::floor(float(half(halves[i % 8])))) << i;
}

TEST(Cast, FloatToInt32Saturates) {
  CoreFixture f;
  auto src = f.Take<float>(8);
  auto dst = f.Take<int32_t>(8);
  const float values[] = {3e9f, -3e9f, 2147483520.0f, -2147483648.0f, 1e20f, -1e20f, 0.0f, 1.0f};
  for (int i = 0; i < 8; ++i) src.SetValue(i, values[i]);
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_TRUNC, 8);
  const int32_t expected[] = {2147483647, -2147483647 - 1, 2147483520, -2147483647 - 1,
                              2147483647, -2147483647 - 1, 0, 1};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(dst.GetValue(i), expected[i]) << i;
}

TEST(Cast, FloatToHalfOutOfRangeUnderEachMode) {
  CoreFixture f;
  auto src = f.Take<float>(8);
  auto dst = f.Take<half>(16);
  src.SetValue(0, 70000.0f);
  src.SetValue(1, -70000.0f);
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_RINT, 2);
  EXPECT_TRUE(std::isinf(float(dst.GetValue(0))));
  EXPECT_TRUE(std::isinf(float(dst.GetValue(1))));
  // Directed modes round toward the finite grid where the direction says so.
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_FLOOR, 2);
  EXPECT_EQ(float(dst.GetValue(0)), 65504.0f);
  EXPECT_TRUE(std::isinf(float(dst.GetValue(1))));
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_TRUNC, 2);
  EXPECT_EQ(float(dst.GetValue(0)), 65504.0f);
  EXPECT_EQ(float(dst.GetValue(1)), -65504.0f);
}

TEST(Cast, Bfloat16BothWays) {
  CoreFixture fx;
  auto f = fx.Take<float>(256), back = fx.Take<float>(256);
  auto b = fx.Take<bfloat16_t>(256);
  const auto vf = RandomVector<float>(256, -1000, 1000, 7);
  Fill(f, vf);
  AscendC::Cast(b, f, AscendC::RoundMode::CAST_RINT, 256);
  AscendC::Cast(back, b, AscendC::RoundMode::CAST_NONE, 256);
  for (uint32_t i = 0; i < 256; ++i) {
    const uint16_t want = ascsim::FloatToBf16Bits(vf[i]);
    ASSERT_EQ(Bits(b.GetValue(i)), want) << i;
    uint32_t widened = uint32_t(want) << 16;
    float wf;
    std::memcpy(&wf, &widened, 4);
    ASSERT_EQ(back.GetValue(i), wf) << i;
  }
}

}  // namespace
