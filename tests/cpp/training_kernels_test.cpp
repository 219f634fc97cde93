// The kernels a training step needs beside the seed's (kernel/gelu_custom_backward.cpp,
// kernel/rms_norm_custom.cpp) through their host launchers, against double references, over
// awkward lengths, shapes and grid sizes, for half and float; and their argument errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/error.h"
#include "ascsim/half.h"
#include "kernel_launchers.h"

namespace {

using ascsim::kernels::ElementType;
using ascsim_test::DeviceBuffer;

constexpr uint64_t kTail = 64;  // elements of slack after each output, which no kernel may write

size_t ElemBytes(ElementType t) { return t == ElementType::kFloat16 ? 2 : 4; }
bool IsHalf(ElementType t) { return t == ElementType::kFloat16; }
std::string TypeName(ElementType t) { return IsHalf(t) ? "half" : "float"; }

float Load(ElementType t, const DeviceBuffer& b, uint64_t i) {
  return IsHalf(t) ? float(b.as<half>()[i]) : b.as<float>()[i];
}
void Store(ElementType t, const DeviceBuffer& b, uint64_t i, float v) {
  if (IsHalf(t)) {
    b.as<half>()[i] = half(v);
  } else {
    b.as<float>()[i] = v;
  }
}
void FillRandom(ElementType t, const DeviceBuffer& b, uint64_t n, float lo, float hi,
                uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (uint64_t i = 0; i < n; ++i) Store(t, b, i, dist(rng));
}
void MarkTail(const DeviceBuffer& b, size_t used_bytes) {
  std::memset(b.gm() + used_bytes, 0x7E, b.bytes() - used_bytes);
}
bool TailIntact(const DeviceBuffer& b, size_t used_bytes) {
  for (size_t i = used_bytes; i < b.bytes(); ++i) {
    if (b.gm()[i] != 0x7E) return false;
  }
  return true;
}

// d/dx of 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), in double.
double GeluTanhGrad(double x) {
  const double k = std::sqrt(2.0 / M_PI);
  const double t = std::tanh(k * (x + 0.044715 * x * x * x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x);
}

class GeluBackward : public ::testing::TestWithParam<std::tuple<ElementType, uint64_t, uint32_t>> {
};

std::string GeluBackwardName(const ::testing::TestParamInfo<GeluBackward::ParamType>& info) {
  const ElementType type = std::get<0>(info.param);
  return TypeName(type) + "_n" + std::to_string(std::get<1>(info.param)) + "_blocks" +
         std::to_string(std::get<2>(info.param));
}

TEST_P(GeluBackward, MatchesTheDoubleReference) {
  const auto& [type, n, blocks] = GetParam();
  const size_t bytes = n * ElemBytes(type);
  DeviceBuffer dy(bytes), x(bytes), dx(bytes + kTail * ElemBytes(type));
  FillRandom(type, dy, n, -2, 2, 1);
  FillRandom(type, x, n, -12, 12, 2);
  MarkTail(dx, bytes);
  ascsim::kernels::LaunchGeluCustomBackward(type, dy.gm(), x.gm(), dx.gm(), n, blocks, nullptr);
  for (uint64_t i = 0; i < n; ++i) {
    const double xi = Load(type, x, i), dyi = Load(type, dy, i);
    const double exact = dyi * GeluTanhGrad(xi);
    // float: the float op sequence; half: computed in float and rounded once (half an ulp of
    // values up to ~2.2, plus the float error).
    const double tol = IsHalf(type) ? 1e-3 * (1 + std::fabs(exact)) : 4e-6 * (1 + std::fabs(exact));
    ASSERT_NEAR(Load(type, dx, i), exact, tol) << "element " << i << " x " << xi << " dy " << dyi;
  }
  EXPECT_TRUE(TailIntact(dx, bytes)) << "the kernel wrote past its output";
}

INSTANTIATE_TEST_SUITE_P(LengthsAndGrids, GeluBackward,
                         ::testing::Combine(::testing::Values(ElementType::kFloat16,
                                                              ElementType::kFloat32),
                                            ::testing::Values(1, 15, 17, 4096, 4097, 100003),
                                            ::testing::Values(1, 8, 48, 1000)),
                         GeluBackwardName);

TEST(GeluBackwardSpecialValues, InfinitiesGiveTheLimitsAndNanStaysNan) {
  const float in[] = {-INFINITY, -1e30f, -20.0f, -10.5f, 0.0f, 10.5f, 1e30f, INFINITY, NAN};
  constexpr uint64_t n = sizeof(in) / sizeof(in[0]);
  const float want[] = {0, 0, 0, 0, 0.5f, 1, 1, 1, NAN};
  DeviceBuffer dy(n * 4), x(n * 4), dx(n * 4);
  for (uint64_t i = 0; i < n; ++i) {
    x.as<float>()[i] = in[i];
    dy.as<float>()[i] = 1.0f;
  }
  ascsim::kernels::LaunchGeluCustomBackward(ElementType::kFloat32, dy.gm(), x.gm(), dx.gm(), n, 1,
                                            nullptr);
  for (uint64_t i = 0; i < n; ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(dx.as<float>()[i])) << "x " << in[i];
    } else {
      EXPECT_NEAR(dx.as<float>()[i], want[i], 1e-6) << "x " << in[i];
    }
  }
}

// rstd = 1 / sqrt(mean(x^2) + eps), y = x * rstd * gamma, in double.
void RmsNormReference(const std::vector<double>& x, const std::vector<double>& gamma, uint64_t rows,
                      uint64_t cols, double eps, std::vector<double>* y,
                      std::vector<double>* rstd) {
  y->assign(rows * cols, 0);
  rstd->assign(rows, 0);
  for (uint64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (uint64_t c = 0; c < cols; ++c) sum += x[r * cols + c] * x[r * cols + c];
    (*rstd)[r] = 1 / std::sqrt(sum / cols + eps);
    for (uint64_t c = 0; c < cols; ++c) {
      (*y)[r * cols + c] = x[r * cols + c] * (*rstd)[r] * gamma[c];
    }
  }
}

class RmsNorm : public ::testing::TestWithParam<
                    std::tuple<ElementType, std::pair<uint64_t, uint64_t>, uint32_t>> {};

std::string RmsNormName(const ::testing::TestParamInfo<RmsNorm::ParamType>& info) {
  const auto shape = std::get<1>(info.param);
  return TypeName(std::get<0>(info.param)) + "_" + std::to_string(shape.first) + "x" +
         std::to_string(shape.second) + "_blocks" + std::to_string(std::get<2>(info.param));
}

TEST_P(RmsNorm, MatchesTheDoubleReference) {
  const auto& [type, shape, blocks] = GetParam();
  const auto [rows, cols] = shape;
  const float eps = 1e-6f;
  const size_t bytes = rows * cols * ElemBytes(type);
  DeviceBuffer x(bytes), gamma(cols * ElemBytes(type));
  DeviceBuffer y(bytes + kTail * ElemBytes(type)), rstd((rows + kTail) * 4);
  FillRandom(type, x, rows * cols, -3, 3, 3);
  FillRandom(type, gamma, cols, -1.5f, 1.5f, 4);
  MarkTail(y, bytes);
  MarkTail(rstd, rows * 4);
  ascsim::kernels::LaunchRmsNormCustom(type, x.gm(), gamma.gm(), y.gm(), rstd.as<float>(), rows,
                                       cols, eps, blocks, nullptr);
  std::vector<double> xd(rows * cols), gd(cols), yd, rd;
  for (uint64_t i = 0; i < rows * cols; ++i) xd[i] = Load(type, x, i);
  for (uint64_t i = 0; i < cols; ++i) gd[i] = Load(type, gamma, i);
  RmsNormReference(xd, gd, rows, cols, eps, &yd, &rd);
  for (uint64_t r = 0; r < rows; ++r) {
    ASSERT_NEAR(rstd.as<float>()[r], rd[r], 2e-6 * rd[r]) << "row " << r;
  }
  for (uint64_t i = 0; i < rows * cols; ++i) {
    // Products in float, rounded once to half: half an ulp of |y| <= ~4.5 plus float error.
    const double tol = IsHalf(type) ? 1e-3 * (1 + std::fabs(yd[i])) : 2e-6 * (1 + std::fabs(yd[i]));
    ASSERT_NEAR(Load(type, y, i), yd[i], tol) << "element " << i;
  }
  EXPECT_TRUE(TailIntact(y, bytes)) << "the kernel wrote past y";
  EXPECT_TRUE(TailIntact(rstd, rows * 4)) << "the kernel wrote past rstd";
}

INSTANTIATE_TEST_SUITE_P(
    ShapesAndGrids, RmsNorm,
    ::testing::Combine(::testing::Values(ElementType::kFloat16, ElementType::kFloat32),
                       ::testing::Values(std::pair<uint64_t, uint64_t>{1, 1},
                                         std::pair<uint64_t, uint64_t>{3, 7},
                                         std::pair<uint64_t, uint64_t>{130, 64},
                                         std::pair<uint64_t, uint64_t>{65, 33},
                                         std::pair<uint64_t, uint64_t>{8, 4096},
                                         std::pair<uint64_t, uint64_t>{2, 8000}),
                       ::testing::Values(1, 8, 48)),
    RmsNormName);

std::string LaunchError(ElementType type, uint64_t rows, uint64_t cols, float eps,
                        uint32_t blocks) {
  DeviceBuffer x(4096), gamma(4096), y(4096), rstd(4096);
  try {
    ascsim::kernels::LaunchRmsNormCustom(type, x.gm(), gamma.gm(), y.gm(), rstd.as<float>(), rows,
                                         cols, eps, blocks, nullptr);
  } catch (const ascsim::InvalidArgument& e) {
    return e.what();
  }
  return "";
}

TEST(RmsNormErrors, SayWhatIsWrong) {
  const uint64_t max_half = ascsim::kernels::RmsNormCustomMaxCols(ElementType::kFloat16);
  const uint64_t max_float = ascsim::kernels::RmsNormCustomMaxCols(ElementType::kFloat32);
  // 192 KiB of UB: about 22 bytes per half element, 24 per float element.
  EXPECT_GT(max_half, 8000u);
  EXPECT_LT(max_half, 9000u);
  EXPECT_GT(max_float, 7500u);
  EXPECT_LT(max_float, max_half);
  EXPECT_NE(LaunchError(ElementType::kFloat16, 1, max_half + 1, 1e-6f, 1)
                .find("a row of " + std::to_string(max_half + 1) +
                      " half elements does not fit in the Unified Buffer (at most " +
                      std::to_string(max_half)),
            std::string::npos);
  EXPECT_NE(LaunchError(ElementType::kFloat32, 1, 0, 1e-6f, 1).find("rows of 0 elements"),
            std::string::npos);
  EXPECT_NE(LaunchError(ElementType::kFloat32, 1, 8, -1.0f, 1).find("eps must be finite and >= 0"),
            std::string::npos);
  EXPECT_NE(LaunchError(ElementType::kFloat32, 1, 8, NAN, 1).find("eps must be finite"),
            std::string::npos);
  EXPECT_NE(LaunchError(ElementType::kFloat32, 1, 8, 1e-6f, 0).find("blockDim 0 is outside"),
            std::string::npos);
  EXPECT_EQ(LaunchError(ElementType::kFloat32, 0, 8, 1e-6f, 8), "") << "no rows: nothing to do";
}

TEST(RmsNormOnA310P, FitsItsLargerUbAndNeedsAlignedCopies) {
  ascsim::ScopedSettings settings;
  ascsim::SetSoc("Ascend310P3");
  // 256 KiB of UB: longer rows fit than on the A2's 192 KiB.
  EXPECT_GT(ascsim::kernels::RmsNormCustomMaxCols(ElementType::kFloat16), 11000u);
  // 16 rows over 2 blocks: 8 rstd floats (32 B) per block.
  DeviceBuffer x(16 * 64 * 2), gamma(64 * 2), y(16 * 64 * 2), rstd(16 * 4);
  FillRandom(ElementType::kFloat16, x, 16 * 64, -1, 1, 5);
  FillRandom(ElementType::kFloat16, gamma, 64, -1, 1, 6);
  ascsim::kernels::LaunchRmsNormCustom(ElementType::kFloat16, x.gm(), gamma.gm(), y.gm(),
                                       rstd.as<float>(), 16, 64, 1e-6f, 2, nullptr);
  for (int r = 0; r < 16; ++r) {
    double sum = 0;
    for (int c = 0; c < 64; ++c) sum += std::pow(double(float(x.as<half>()[r * 64 + c])), 2);
    EXPECT_NEAR(rstd.as<float>()[r], 1 / std::sqrt(sum / 64 + 1e-6), 1e-5) << "row " << r;
  }
  // A row of 33 half is not 32 B, nor are 2 rstd floats: they need DataCopyPad, which the
  // 310P lacks.
  std::string message;
  try {
    ascsim::kernels::LaunchRmsNormCustom(ElementType::kFloat16, x.gm(), gamma.gm(), y.gm(),
                                         rstd.as<float>(), 2, 33, 1e-6f, 1, nullptr);
  } catch (const ascsim::KernelError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("DataCopyPad is not available on Ascend310P3"), std::string::npos)
      << message;
}

}  // namespace

namespace {

// bfloat16 variants (elementwise_bf16_custom.cpp): computed in float, rounded to nearest even.
class Bf16Elementwise : public ::testing::TestWithParam<uint64_t> {};

float Bf16Ulp(float v) { return std::ldexp(1.0f, std::ilogb(std::fabs(v) + 1e-30f) - 7); }

TEST_P(Bf16Elementwise, AddGeluAndGeluBackwardMatchFloatMathRoundedOnce) {
  const uint64_t n = GetParam();
  DeviceBuffer x(n * 2), y(n * 2), z((n + kTail) * 2);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-6, 6);
  for (uint64_t i = 0; i < n; ++i) {
    x.as<bfloat16_t>()[i] = bfloat16_t(dist(rng));
    y.as<bfloat16_t>()[i] = bfloat16_t(dist(rng) / 3);
  }
  MarkTail(z, n * 2);
  ascsim::kernels::LaunchAddCustom(ElementType::kBFloat16, x.gm(), y.gm(), z.gm(), n, 8, nullptr);
  for (uint64_t i = 0; i < n; ++i) {
    const float sum = float(x.as<bfloat16_t>()[i]) + float(y.as<bfloat16_t>()[i]);
    ASSERT_EQ(float(z.as<bfloat16_t>()[i]), float(bfloat16_t(sum))) << "add, element " << i;
  }
  ascsim::kernels::LaunchGeluCustom(ElementType::kBFloat16, x.gm(), z.gm(), n, 8, nullptr);
  for (uint64_t i = 0; i < n; ++i) {
    const double xi = float(x.as<bfloat16_t>()[i]);
    const double exact =
        0.5 * xi * (1 + std::tanh(std::sqrt(2 / M_PI) * (xi + 0.044715 * xi * xi * xi)));
    ASSERT_NEAR(float(z.as<bfloat16_t>()[i]), exact, Bf16Ulp(exact) + 1e-6) << "gelu, x " << xi;
  }
  ascsim::kernels::LaunchGeluCustomBackward(ElementType::kBFloat16, y.gm(), x.gm(), z.gm(), n, 8,
                                            nullptr);
  for (uint64_t i = 0; i < n; ++i) {
    const double xi = float(x.as<bfloat16_t>()[i]);
    const double exact = float(y.as<bfloat16_t>()[i]) * GeluTanhGrad(xi);
    ASSERT_NEAR(float(z.as<bfloat16_t>()[i]), exact, Bf16Ulp(exact) + 1e-6) << "grad, x " << xi;
  }
  EXPECT_TRUE(TailIntact(z, n * 2)) << "a kernel wrote past its output";
}

INSTANTIATE_TEST_SUITE_P(Lengths, Bf16Elementwise, ::testing::Values(1, 15, 16, 17, 4097, 100003));

TEST(Bf16ElementwiseOnA310P, FaultsAtTheFirstCastThe310PLacks) {
  ascsim::ScopedSettings settings;
  ascsim::SetSoc("Ascend310P3");
  DeviceBuffer x(64), y(64), z(64);
  std::string message;
  try {
    ascsim::kernels::LaunchAddCustom(ElementType::kBFloat16, x.gm(), y.gm(), z.gm(), 16, 1,
                                     nullptr);
  } catch (const ascsim::KernelError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("Cast bfloat16_t -> float is not a conversion Ascend310P3 offers"),
            std::string::npos)
      << message;
}

TEST(Bf16Elementwise, RmsNormAndMatmulRefuseBfloat16) {
  DeviceBuffer b(4096);
  EXPECT_NE(LaunchError(ElementType::kBFloat16, 1, 8, 1e-6f, 1).find("not bfloat16"),
            std::string::npos);
  EXPECT_THROW(ascsim::kernels::LaunchMatmulCustom(ElementType::kBFloat16, b.gm(), b.gm(), nullptr,
                                                   b.gm(), 16, 16, 16, 1, nullptr),
               ascsim::InvalidArgument);
}

}  // namespace
