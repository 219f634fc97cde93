// WelfordUpdate (ascsim/adv/normalization.h) and GetWelfordUpdateMaxMinTmpSize
// (tiling/normalization_tiling.h): a bit-exact scalar model of the device's float steps, n steps
// of the online algorithm against the float64 mean and variance, half input, isReuseSource,
// config.isInplace, small temporary buffers, the stack form, and every error path.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tiling/normalization_tiling.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

template <class T>
void Put(const AscendC::LocalTensor<T>& t, const std::vector<T>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, v[i]);
}

constexpr AscendC::WelfordUpdateConfig kInplace = {true};

// One step as the device's float operations round it.
void ModelStep(float x, float& mean, float& m2, float nRec) {
  const float d = x - mean;
  const float scaled = d * nRec;
  const float new_mean = scaled + mean;
  const float e = x - new_mean;
  const float p = d * e;
  m2 = p + m2;
  mean = new_mean;
}

template <class T, bool reuse>
void CheckSteps(uint32_t ab, uint32_t compute, uint32_t steps, uint32_t tmp_bytes) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + (reuse ? " reuse" : "") +
               " ab=" + std::to_string(ab) + " compute=" + std::to_string(compute) +
               " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(160 * 1024);
  auto x = fx.Take<T>(ab);
  auto m0 = fx.Take<float>(ab), v0 = fx.Take<float>(ab);
  auto m1 = fx.Take<float>(ab), v1 = fx.Take<float>(ab);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  Put(m0, std::vector<float>(ab, 0.0f));
  Put(v0, std::vector<float>(ab, 0.0f));
  std::vector<float> mean(ab, 0.0f), m2(ab, 0.0f);
  std::vector<double> sum(ab, 0), sum2(ab, 0);
  for (uint32_t i = 1; i <= steps; ++i) {
    const auto xs = RandomVector<T>(ab, -3, 5, i * 31 + ab);
    Put(x, xs);
    const float nRec = 1.0f / float(i);
    const AscendC::WelfordUpdateParam para{1, ab, compute, nRec};
    const bool odd = i % 2 == 1;  // ping-pong between the two mean / variance buffers
    if (odd) {
      AscendC::WelfordUpdate<T, float, reuse>(m1, v1, m0, v0, x, tmp, para);
    } else {
      AscendC::WelfordUpdate<T, float, reuse>(m0, v0, m1, v1, x, para);  // stack buffer
    }
    for (uint32_t j = 0; j < compute; ++j) {
      ModelStep(float(xs[j]), mean[j], m2[j], nRec);
      sum[j] += float(xs[j]);
      sum2[j] += double(float(xs[j])) * float(xs[j]);
    }
    const auto& om = odd ? m1 : m0;
    const auto& ov = odd ? v1 : v0;
    for (uint32_t j = 0; j < compute; ++j) {
      ASSERT_EQ(Bits(om.GetValue(j)), Bits(mean[j])) << "step " << i << " j " << j;
      ASSERT_EQ(Bits(ov.GetValue(j)), Bits(m2[j])) << "step " << i << " j " << j;
    }
  }
  for (uint32_t j = 0; j < compute; ++j) {
    const double mu = sum[j] / steps, var = sum2[j] / steps - mu * mu;
    EXPECT_NEAR(mean[j], mu, 1e-5);
    EXPECT_NEAR(m2[j] / steps, var, 1e-4);
  }
}

TEST(AdvNormalization, WelfordUpdateSteps) {
  CheckSteps<float, false>(64, 64, 5, 512);
  CheckSteps<float, false>(1000, 999, 4, 512);  // 64-element pieces and a tail
  CheckSteps<float, true>(200, 130, 3, 256);
  CheckSteps<half, false>(1008, 1001, 4, 768);
  CheckSteps<half, false>(48, 17, 3, 4096);
}

TEST(AdvNormalization, WelfordUpdateInplaceCopiesTheTail) {
  CoreFixture fx;
  const uint32_t ab = 64;
  auto x = fx.Take<float>(ab), m0 = fx.Take<float>(ab), v0 = fx.Take<float>(ab);
  auto m1 = fx.Take<float>(ab), v1 = fx.Take<float>(ab);
  auto tmp = fx.Take<uint8_t>(512);
  Put(x, std::vector<float>(ab, 2.0f));
  std::vector<float> mean(ab), var(ab);
  for (uint32_t j = 0; j < ab; ++j) mean[j] = 0.5f * j, var[j] = 1.0f + j;
  Put(m0, mean);
  Put(v0, var);
  Put(m1, std::vector<float>(ab, -7.0f));
  Put(v1, std::vector<float>(ab, -7.0f));
  // abComputeLength 21: the copy is the last AlignUp(64 - 21, 8) = 48 elements (16..63), made
  // before the computation overwrites 0..20.
  AscendC::WelfordUpdate<float, float, false, kInplace>(m1, v1, m0, v0, x, tmp,
                                                        {1, ab, 21, 0.5f});
  for (uint32_t j = 0; j < 21; ++j) {
    float m = mean[j], v = var[j];
    ModelStep(2.0f, m, v, 0.5f);
    EXPECT_EQ(m1.GetValue(j), m) << j;
    EXPECT_EQ(v1.GetValue(j), v) << j;
  }
  for (uint32_t j = 21; j < ab; ++j) {
    EXPECT_EQ(m1.GetValue(j), mean[j]) << j;
    EXPECT_EQ(v1.GetValue(j), var[j]) << j;
  }
  // Without isInplace the outputs beyond abComputeLength are left alone.
  Put(m1, std::vector<float>(ab, -7.0f));
  AscendC::WelfordUpdate<float, float>(m1, v1, m0, v0, x, tmp, {1, ab, 21, 0.5f});
  EXPECT_EQ(m1.GetValue(40), -7.0f);
}

TEST(AdvNormalization, WelfordUpdateErrors) {
  CoreFixture fx;
  auto x = fx.Take<half>(64);
  auto m0 = fx.Take<float>(64), v0 = fx.Take<float>(64);
  auto m1 = fx.Take<float>(64), v1 = fx.Take<float>(64);
  auto tmp = fx.Take<uint8_t>(768);
  auto big = fx.Take<float>(256);
  auto call = [&](AscendC::WelfordUpdateParam p, const AscendC::LocalTensor<uint8_t>& t) {
    return ErrorOf([&] { AscendC::WelfordUpdate<half, float>(m1, v1, m0, v0, x, t, p); });
  };
  EXPECT_THAT(call({2, 64, 64, 1.0f}, tmp),
              HasSubstr("WelfordUpdate: para.rnLength is 2; it must be 1"));
  EXPECT_THAT(call({1, 80, 64, 1.0f}, tmp),
              HasSubstr("WelfordUpdate: para.abLength 80 exceeds the inputX size 64"));
  EXPECT_THAT(call({1, 64, 0, 1.0f}, tmp),
              HasSubstr("WelfordUpdate: para.abComputeLength must be greater than 0"));
  EXPECT_THAT(call({1, 32, 40, 1.0f}, tmp),
              HasSubstr("WelfordUpdate: para.abComputeLength 40 exceeds para.abLength 32"));
  EXPECT_THAT(call({1, 40, 40, 1.0f}, tmp),
              HasSubstr("WelfordUpdate: para.abLength 40 is not a whole number of 32 B blocks "
                        "(16 elements)"));
  EXPECT_THAT(call({1, 64, 64, 1.0f}, tmp[256]),
              HasSubstr("WelfordUpdate: sharedTmpBuffer holds 512 B, less than the 768 B"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::WelfordUpdate<half, float>(m0, v1, m0, v0, x, tmp, {1, 64, 64, 1.0f});
              }),
              HasSubstr("WelfordUpdate: outputMean UB"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::WelfordUpdate<half, float>(m1, v1, big, v0, x,
                                                    big.ReinterpretCast<uint8_t>(),
                                                    {1, 64, 64, 1.0f});
              }),
              HasSubstr("overlaps inputMean"));
}

TEST(AdvNormalization, WelfordUpdateHostTmpSize) {
  uint32_t mx = 0, mn = 0;
  AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 1000}), 2, 4, false, false, mx, mn);
  EXPECT_EQ(mn, 768u);
  EXPECT_EQ(mx, 16u * 768);
  AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 64}), 4, 4, true, true, mx, mn);
  EXPECT_EQ(mn, 256u);
  EXPECT_EQ(mx, 256u);
  AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 100}), 4, 4, false, false, mx, mn);
  EXPECT_EQ(mn, 512u);
  EXPECT_EQ(mx, 1024u);
  testing::internal::CaptureStderr();
  mx = mn = 5;
  AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({64}), 4, 4, false, false, mx, mn);
  EXPECT_THAT(testing::internal::GetCapturedStderr(), HasSubstr("srcShape dims must be 2."));
  EXPECT_EQ(mx, 5u);
}

}  // namespace
