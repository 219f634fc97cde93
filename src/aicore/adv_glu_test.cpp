// SwiGLU, GeGLU and ReGlu (ascsim/adv/activation_glu.h) through their include paths, against a
// scalar replica of the device's steps (float arithmetic step by step, half rounded once at the
// end), and their host temporary sizes (tiling/activation_tiling.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "adv_api/activation/geglu.h"
#include "adv_api/activation/geglu_tiling.h"
#include "adv_api/activation/kernel_operator_geglu_intf.h"
#include "adv_api/activation/kernel_operator_reglu_intf.h"
#include "adv_api/activation/kernel_operator_swiglu_intf.h"
#include "adv_api/activation/reglu.h"
#include "adv_api/activation/reglu_tiling.h"
#include "adv_api/activation/swiglu.h"
#include "adv_api/activation/swiglu_tiling.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/activation/geglu.h"
#include "lib/activation/reglu.h"
#include "lib/activation/swiglu.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

enum class Glu { kSwi, kGe, kRe };

// The exponent each activation feeds to Exp, in scalar float step by step.
float ExpArgument(Glu g, float x, float beta) {
  if (g == Glu::kSwi) return x * (-1.0f * beta);
  float y = x * x;
  y = y + 2.2363860002236e1f;
  y = y * x;
  return y * -0.0713548162726f;
}

// The rest of the steps once e = Exp(ExpArgument) is known (taken from ascsim's vector Exp, the
// basic API the implementations call, so the comparison is to the bit).
float GluRef(Glu g, float a, float b, float e) {
  if (g == Glu::kRe) return a * std::max(b, 0.0f);
  return a * (b / (e + 1.0f));
}

// Every type computes in float (16-bit types cast to float first): the reference is the float
// result rounded once to T.
template <class T>
void CheckGlu(Glu g, uint32_t n, uint32_t cal, uint32_t tmp_bytes, float beta, bool stack_form) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "16-bit" : "float") + " n=" + std::to_string(n) +
               " cal=" + std::to_string(cal) + " tmp=" + std::to_string(tmp_bytes) +
               (stack_form ? " stack" : ""));
  CoreFixture fx(96 * 1024);
  auto src0 = fx.Take<T>(n), src1 = fx.Take<T>(n), dst = fx.Take<T>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes == 0 ? 32 : tmp_bytes);
  auto a = RandomVector<T>(n, -4, 4, n + 1), b = RandomVector<T>(n, -6, 6, n + 2);
  b[0] = T(0.0f);
  if (n > 2) b[1] = T(-30.0f), b[2] = T(30.0f);
  Fill(src0, a);
  Fill(src1, b);
  const T sentinel = T(123.0f);
  Fill(dst, std::vector<T>(n, sentinel));
  const bool whole = cal == n;
  if constexpr (std::is_same_v<T, bfloat16_t>) {  // ReGlu only
    if (stack_form)
      AscendC::ReGlu<T>(dst, src0, src1, cal);
    else
      AscendC::ReGlu<T, false>(dst, src0, src1, tmp, cal);
  } else {
  switch (g) {
    case Glu::kSwi:
      if (stack_form && whole)
        AscendC::SwiGLU<T>(dst, src0, src1, beta);
      else if (stack_form)
        AscendC::SwiGLU<T>(dst, src0, src1, beta, cal);
      else if (whole)
        AscendC::SwiGLU<T>(dst, src0, src1, beta, tmp);
      else
        AscendC::SwiGLU<T, false>(dst, src0, src1, beta, tmp, cal);
      break;
    case Glu::kGe:
      if (stack_form && whole)
        AscendC::GeGLU<T>(dst, src0, src1);
      else if (stack_form)
        AscendC::GeGLU<T>(dst, src0, src1, cal);
      else if (whole)
        AscendC::GeGLU<T>(dst, src0, src1, tmp);
      else
        AscendC::GeGLU<T, false>(dst, src0, src1, tmp, cal);
      break;
    case Glu::kRe:
      if (stack_form)
        AscendC::ReGlu<T>(dst, src0, src1, cal);
      else
        AscendC::ReGlu<T, false>(dst, src0, src1, tmp, cal);
      break;
  }
  }
  std::vector<float> e(n, 0.0f);
  if (g != Glu::kRe) {
    auto scratch = fx.Take<float>(n);
    for (uint32_t i = 0; i < n; ++i) scratch.SetValue(i, ExpArgument(g, float(b[i]), beta));
    AscendC::Exp(scratch, scratch, n);
    for (uint32_t i = 0; i < n; ++i) e[i] = scratch.GetValue(i);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (i >= cal) {
      ASSERT_EQ(Bits(dst.GetValue(i)), Bits(sentinel)) << "written past calCount at " << i;
      continue;
    }
    const float want = GluRef(g, float(a[i]), float(b[i]), e[i]);
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(T(want)))
        << i << ": a=" << float(a[i]) << " b=" << float(b[i]) << " got "
        << float(dst.GetValue(i)) << " want " << want;
  }
}

TEST(AdvSwiGLU, BothTypesEveryFormAgainstTheScalarSteps) {
  CheckGlu<float>(Glu::kSwi, 1000, 1000, 0, 1.0f, false);
  CheckGlu<float>(Glu::kSwi, 333, 301, 0, 0.7f, false);
  CheckGlu<float>(Glu::kSwi, 77, 77, 0, 1.5f, true);
  CheckGlu<float>(Glu::kSwi, 77, 51, 0, 1.5f, true);
  CheckGlu<half>(Glu::kSwi, 1000, 1000, 6 * 256, 1.0f, false);  // pieces of 128, tail 104
  CheckGlu<half>(Glu::kSwi, 333, 317, 200, -0.5f, false);      // pieces of 16
  CheckGlu<half>(Glu::kSwi, 100, 100, 0, 1.0f, true);
  CheckGlu<half>(Glu::kSwi, 100, 37, 0, 1.0f, true);
}

TEST(AdvGeGLU, BothTypesEveryFormAgainstTheScalarSteps) {
  CheckGlu<float>(Glu::kGe, 1000, 1000, 0, 0, false);
  CheckGlu<float>(Glu::kGe, 333, 300, 0, 0, false);
  CheckGlu<float>(Glu::kGe, 77, 77, 0, 0, true);
  CheckGlu<half>(Glu::kGe, 1000, 1000, 4 * 256, 0, false);  // pieces of 128
  CheckGlu<half>(Glu::kGe, 333, 311, 8 * 16, 0, false);     // pieces of 16
  CheckGlu<half>(Glu::kGe, 65, 65, 0, 0, true);
  CheckGlu<half>(Glu::kGe, 65, 3, 0, 0, true);
}

TEST(AdvReGlu, AllThreeTypesAgainstTheScalarSteps) {
  CheckGlu<float>(Glu::kRe, 999, 999, 256, 0, false);
  CheckGlu<float>(Glu::kRe, 77, 40, 0, 0, true);
  CheckGlu<half>(Glu::kRe, 1000, 1000, 6 * 256, 0, false);  // pieces of 128
  CheckGlu<half>(Glu::kRe, 333, 330, 3 * 32 * 4, 0, false);  // pieces of 32
  CheckGlu<half>(Glu::kRe, 65, 65, 0, 0, true);
  CheckGlu<bfloat16_t>(Glu::kRe, 517, 517, 6 * 256, 0, false);
  CheckGlu<bfloat16_t>(Glu::kRe, 100, 99, 0, 0, true);
}

TEST(AdvGlu, ErrorsNameTheCallAndTheCause) {
  CoreFixture fx(64 * 1024);
  auto a = fx.Take<half>(64), b = fx.Take<half>(64), c = fx.Take<half>(48), d = fx.Take<half>(64);
  auto tmp = fx.Take<uint8_t>(2048);
  EXPECT_THAT(ErrorOf([&] { AscendC::SwiGLU<half>(d, a, c, 1.0f, tmp, 32); }),
              HasSubstr("SwiGLU: size of src0 (64) is not equal to size of src1 (48)"));
  EXPECT_THAT(ErrorOf([&] { AscendC::GeGLU<half>(d, a, b, tmp, 65); }),
              HasSubstr("GeGLU: calCount 65 exceeds the src (64) or dst (64) tensor size"));
  EXPECT_THAT(ErrorOf([&] { AscendC::ReGlu<half>(c, a, b, tmp, 64); }),
              HasSubstr("ReGlu: calCount 64 exceeds the src (64) or dst (48) tensor size"));
  EXPECT_THAT(ErrorOf([&] { AscendC::SwiGLU<half>(d, a, b, 1.0f, tmp[1984], 64); }),
              HasSubstr("SwiGLU: sharedTmpBuffer holds 64 B, less than the 192 B"));
  EXPECT_THAT(ErrorOf([&] { AscendC::GeGLU<half>(d, a, b, tmp[2016], 64); }),
              HasSubstr("GeGLU: sharedTmpBuffer holds 32 B, less than the 128 B"));
  EXPECT_THAT(ErrorOf([&] { AscendC::ReGlu<half>(d, a, b, tmp[1680], 64); }),
              HasSubstr("ReGlu: sharedTmpBuffer holds 368 B, less than the 384 B"));
}

TEST(AdvGlu, TmpMayNotOverlapAnOperand) {
  CoreFixture fx(64 * 1024);
  auto a = fx.Take<half>(64), b = fx.Take<half>(64), d = fx.Take<half>(64);
  auto over = a.ReinterpretCast<uint8_t>();
  EXPECT_THAT(ErrorOf([&] { AscendC::GeGLU<half>(d, a, b, over, 16); }),
              HasSubstr("GeGLU: sharedTmpBuffer UB"));
}

TEST(AdvGluTiling, HostSizesAreCannsFactors) {
  uint32_t maxv = 0, minv = 0, nodes = 9, extra = 9;
  const ge::Shape shape({10, 100});
  AscendC::GetSwiGLUMaxMinTmpSize(shape, 2, maxv, minv, false);
  EXPECT_EQ(minv, 6u * 256u);
  EXPECT_EQ(maxv, 6u * 2000u);
  AscendC::GetSwiGLUMaxMinTmpSize(shape, 4, maxv, minv, false);
  EXPECT_EQ(minv, 0u);
  EXPECT_EQ(maxv, 0u);
  AscendC::GetSwiGLUTmpBufferFactorSize(2, nodes, extra);
  EXPECT_EQ(nodes, 6u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetGeGLUMaxMinTmpSize(ge::Shape({7}), 2, false, maxv, minv);
  EXPECT_EQ(minv, 4u * 256u);
  EXPECT_EQ(maxv, 4u * 256u);  // one repeat per unit at least
  AscendC::GetGeGLUTmpBufferFactorSize(4, nodes, extra);
  EXPECT_EQ(nodes, 0u);
  AscendC::GetReGluMaxMinTmpSize(shape, 2, false, maxv, minv);
  EXPECT_EQ(minv, 6u * 256u);
  EXPECT_EQ(maxv, 6u * 2000u);
  AscendC::GetReGluMaxMinTmpSize(shape, 4, false, maxv, minv);
  EXPECT_EQ(minv, 256u);
  EXPECT_EQ(maxv, 256u);
}

TEST(AdvGluTiling, BadArgumentsAreReported) {
  uint32_t maxv = 7, minv = 7;
  testing::internal::CaptureStderr();
  AscendC::GetSwiGLUMaxMinTmpSize(ge::Shape({0}), 2, maxv, minv, false);
  AscendC::GetGeGLUMaxMinTmpSize(ge::Shape({4}), 8, true, maxv, minv);
  AscendC::GetReGluMaxMinTmpSize(ge::Shape({4}), 2, true, maxv, minv);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, HasSubstr("[GetSwiGLUMaxMinTmpSize] Input shape size should be greater than 0!"));
  EXPECT_THAT(err, HasSubstr("[GetGeGLUMaxMinTmpSize] Type size 8 is unsupported!"));
  EXPECT_THAT(err, HasSubstr("[GetGeGLUMaxMinTmpSize] Current isReuseSource is true"));
  EXPECT_THAT(err, HasSubstr("multiplexing of input memory is not supported."));
}

}  // namespace
