// The shipped kernels (kernel/add_custom.cpp, kernel/gelu_custom.cpp) through their host
// launchers, against references, over awkward lengths and grid sizes, for half and float.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_launchers.h"

namespace {

using ascsim::kernels::ElementType;
using ascsim_test::DeviceBuffer;

constexpr uint64_t kLengths[] = {1, 15, 16, 17, 2048, 8 * 2048, 100003};
constexpr uint32_t kBlockDims[] = {1, 8, 48, 1000};
constexpr uint16_t kTailMark = 0x7E7E;  // bytes past the output that no kernel may write
constexpr uint64_t kTail = 64;          // elements of slack after each buffer

size_t ElemBytes(ElementType t) { return t == ElementType::kFloat16 ? 2 : 4; }

float Load(ElementType t, const DeviceBuffer& b, uint64_t i) {
  return t == ElementType::kFloat16 ? float(b.as<half>()[i]) : b.as<float>()[i];
}
void Store(ElementType t, const DeviceBuffer& b, uint64_t i, float v) {
  if (t == ElementType::kFloat16) b.as<half>()[i] = half(v);
  else b.as<float>()[i] = v;
}
float RoundTo(ElementType t, float v) { return t == ElementType::kFloat16 ? float(half(v)) : v; }

void FillRandom(ElementType t, const DeviceBuffer& b, uint64_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (uint64_t i = 0; i < n; ++i) Store(t, b, i, dist(rng));
}
void MarkTail(ElementType t, const DeviceBuffer& b, uint64_t n) {
  std::memset(b.gm() + n * ElemBytes(t), 0x7E, kTail * ElemBytes(t));
}
// The first element index in the tail that was written, or -1.
int64_t TailWritten(ElementType t, const DeviceBuffer& b, uint64_t n) {
  const uint8_t* p = b.gm() + n * ElemBytes(t);
  for (uint64_t i = 0; i < kTail * ElemBytes(t); ++i) {
    if (p[i] != (kTailMark & 0xFF)) return static_cast<int64_t>(i / ElemBytes(t));
  }
  return -1;
}

class ShippedKernels
    : public ::testing::TestWithParam<std::tuple<ElementType, uint64_t, uint32_t>> {};

std::string Name(const ::testing::TestParamInfo<ShippedKernels::ParamType>& info) {
  const auto& [type, n, blocks] = info.param;
  return std::string(type == ElementType::kFloat16 ? "half" : "float") + "_n" + std::to_string(n) +
         "_blocks" + std::to_string(blocks);
}

TEST_P(ShippedKernels, AddMatchesTheReference) {
  const auto& [type, n, blocks] = GetParam();
  const size_t bytes = (n + kTail) * ElemBytes(type);
  DeviceBuffer x(bytes), y(bytes), z(bytes);
  FillRandom(type, x, n, -100, 100, 1);
  FillRandom(type, y, n, -100, 100, 2);
  MarkTail(type, z, n);
  ascsim::kernels::LaunchAddCustom(type, x.gm(), y.gm(), z.gm(), n, blocks, nullptr);
  for (uint64_t i = 0; i < n; ++i) {
    const float expected = RoundTo(type, Load(type, x, i) + Load(type, y, i));
    ASSERT_EQ(Load(type, z, i), expected) << "element " << i;
  }
  EXPECT_EQ(TailWritten(type, z, n), -1) << "the kernel wrote past its output";
}

// The kernel's own float op sequence: y = x / (1 + exp(k * x * (1 + c * x^2))).
float GeluOps(float x) {
  float t = x * x;
  t = t * 0.044715f;
  t = t + 1.0f;
  t = t * x;
  t = t * -1.5957691216057308f;
  t = std::exp(t);
  t = t + 1.0f;
  return x / t;
}
// The textbook tanh form in double.
double GeluTanh(double x) {
  return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}

TEST_P(ShippedKernels, GeluMatchesTheReference) {
  const auto& [type, n, blocks] = GetParam();
  const size_t bytes = (n + kTail) * ElemBytes(type);
  DeviceBuffer x(bytes), y(bytes);
  FillRandom(type, x, n, -6, 6, 3);
  MarkTail(type, y, n);
  ascsim::kernels::LaunchGeluCustom(type, x.gm(), y.gm(), n, blocks, nullptr);
  const bool is_half = type == ElementType::kFloat16;
  for (uint64_t i = 0; i < n; ++i) {
    const float xi = Load(type, x, i);
    const float got = Load(type, y, i);
    const float ops = RoundTo(type, GeluOps(xi));
    // Same op sequence: equal up to a few units in the last place (a vectorised exp is not
    // correctly rounded, and its error passes through the division).
    const float ulp = is_half ? std::ldexp(1.0f, std::ilogb(std::fabs(ops) + 1e-30f) - 10)
                              : std::ldexp(1.0f, std::ilogb(std::fabs(ops) + 1e-30f) - 23);
    ASSERT_LE(std::fabs(got - ops), 4 * ulp + (is_half ? 6e-8f : 1e-44f))
        << "element " << i << " x " << xi;
    // And close to GELU itself.
    const double exact = GeluTanh(xi);
    ASSERT_NEAR(got, exact, (is_half ? 2e-3 : 2e-6) * (1 + std::fabs(exact))) << "x " << xi;
  }
  EXPECT_EQ(TailWritten(type, y, n), -1) << "the kernel wrote past its output";
}

INSTANTIATE_TEST_SUITE_P(LengthsAndGrids, ShippedKernels,
                         ::testing::Combine(::testing::Values(ElementType::kFloat16,
                                                              ElementType::kFloat32),
                                            ::testing::ValuesIn(kLengths),
                                            ::testing::ValuesIn(kBlockDims)),
                         Name);

TEST(ShippedKernelsOnA310P, TailsNeedDataCopyPadWhichThe310PLacks) {
  // On Ascend310P3 a length whose tail is not 32 B aligned cannot be handled by these kernels:
  // the launch must fail with a clear message rather than silently drop the tail.
  ascsim::ScopedSettings settings;
  ascsim::SetSoc("Ascend310P3");
  DeviceBuffer x(64), y(64), z(64);
  std::string message;
  try {
    ascsim::kernels::LaunchAddCustom(ElementType::kFloat16, x.gm(), y.gm(), z.gm(), 17, 1, nullptr);
  } catch (const ascsim::KernelError& e) {
    message = e.what();
  }
  // An aligned length works there.
  EXPECT_NO_THROW(ascsim::kernels::LaunchAddCustom(ElementType::kFloat16, x.gm(), y.gm(), z.gm(),
                                                   16, 1, nullptr));
  EXPECT_NE(message.find("DataCopyPad is not available on Ascend310P3"), std::string::npos)
      << message;
}

}  // namespace
