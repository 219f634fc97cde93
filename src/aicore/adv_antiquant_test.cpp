// AscendAntiQuant (ascsim/adv/antiquant.h) against a scalar reference of the Atlas A2 algorithm:
// half results rounded to half after the Add and after the Mul, bfloat16_t ones computed in float
// and rounded once with CAST_RINT; every path CANN's implementation takes, its quirks included, and
// the error paths.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "adv_api/quantization/ascend_antiquant.h"
#include "adv_api/quantization/kernel_operator_ascend_antiquant_intf.h"
#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "lib/quantization/ascend_antiquant.h"
#include "lib/quantization/kernel_operator_ascend_antiquant_intf.h"

namespace {

using AscendC::AntiQuantShapeInfo;
using AscendC::LocalTensor;
using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

// Round-to-nearest-even of an exact double to half (normal and subnormal range).
float HalfRound(double x) {
  if (x == 0) return static_cast<float>(x);
  int e = static_cast<int>(std::floor(std::log2(std::fabs(x))));
  if (e < -14) e = -14;
  const double ulp = std::ldexp(1.0, e - 10);
  return static_cast<float>(std::nearbyint(x / ulp) * ulp);
}
// Round-to-nearest-even of a float to bfloat16_t, returned as float.
float Bf16Round(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  b = (b + 0x7fffu + ((b >> 16) & 1u)) & 0xffff0000u;
  float r;
  std::memcpy(&r, &b, 4);
  return r;
}

// The reference of one element: dst = (src + offset) * scale as the device computes it.
template <class D>
float Ref(int8_t s, float off, float scl, bool with_offset) {
  if constexpr (std::is_same_v<D, half>) {
    const double sum = with_offset ? HalfRound(double(s) + double(off)) : double(s);
    return HalfRound(sum * double(scl));
  } else {
    const float sum = with_offset ? float(s) + off : float(s);
    return Bf16Round(sum * scl);
  }
}

template <class D>
float AsFloat(D v) {
  if constexpr (std::is_same_v<D, half>)
    return float(v);
  else
    return AscendC::ToFloat(v);
}
template <class D>
D FromFloat(float v) {
  if constexpr (std::is_same_v<D, half>)
    return half(v);
  else
    return AscendC::ToBfloat16(v);
}

std::vector<int8_t> Weights(size_t n, uint32_t seed) {
  std::vector<int8_t> w(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& v : w) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<int8_t>(x >> 24);  // the whole int8 range
  }
  return w;
}
// Values in [-2, 2) with a full half / bfloat16_t mantissa, so every sum and product rounds.
template <class D>
std::vector<float> Params(size_t n, uint32_t seed) {
  std::vector<float> p(n);
  uint32_t x = seed * 40503u + 7;
  for (auto& v : p) {
    x = x * 1103515245u + 12345u;
    v = AsFloat(FromFloat<D>(float(int32_t(x >> 1) % 40000) / 10000.0f - 2.0f + 1e-4f));
  }
  return p;
}

template <class T>
void Put(const LocalTensor<T>& t, const std::vector<T>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, v[i]);
}
template <class D>
void PutF(const LocalTensor<D>& t, const std::vector<float>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, FromFloat<D>(v[i]));
}

const float kSentinel = 1234.0f;  // rows the device leaves unwritten keep it

// Compares dst [rows x cols] with `want` (NaN meaning "unwritten": the sentinel).
template <class D>
void Expect(const LocalTensor<D>& dst, const std::vector<float>& want, const std::string& what) {
  for (uint32_t i = 0; i < want.size(); ++i) {
    const float got = AsFloat(dst.GetValue(i));
    const float w = std::isnan(want[i]) ? AsFloat(FromFloat<D>(kSentinel)) : want[i];
    ASSERT_EQ(Bits(got), Bits(w)) << what << " element " << i << ": " << got << " vs " << w;
  }
}

template <class D>
void NoTransposeWithOffset(uint32_t k, uint32_t n, uint32_t tmp_bytes, uint32_t groups) {
  SCOPED_TRACE(std::string(sizeof(D) == 2 && std::is_same_v<D, half> ? "half" : "bf16") +
               " k=" + std::to_string(k) + " n=" + std::to_string(n) +
               " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(160 * 1024);
  auto src = fx.Take<int8_t>(k * n);
  auto dst = fx.Take<D>(k * n);
  auto off = fx.Take<D>(n), scl = fx.Take<D>(n);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto w = Weights(k * n, k + n);
  const auto o = Params<D>(n, 1), s = Params<D>(n, 2);
  Put(src, w);
  PutF(off, o);
  PutF(scl, s);
  for (uint32_t i = 0; i < k * n; ++i) dst.SetValue(i, FromFloat<D>(kSentinel));
  AscendC::AscendAntiQuant<int8_t, D, false>(dst, src, off, scl, tmp, k,
                                            AntiQuantShapeInfo{1, n, groups, n});
  const bool performance =
      std::is_same_v<D, half> || tmp_bytes >= n * 2 * 4 + 64 * k * 4;
  const uint32_t rows = performance ? k : k / groups;
  const uint32_t piece = tmp_bytes / 8;
  std::vector<float> want(k * n, NAN);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < n; ++c) {
      // A bfloat16_t piece after the first reads the first piece's offsets and scales.
      const uint32_t p = (!std::is_same_v<D, half> && !performance) ? c % piece : c;
      want[r * n + c] = Ref<D>(w[r * n + c], o[p], s[p], true);
    }
  }
  Expect(dst, want, "no transpose, offset");
}

TEST(AscendAntiQuant, HalfPerChannelRoundsAfterTheAddAndAfterTheMul) {
  NoTransposeWithOffset<half>(5, 48, 0, 1);
  NoTransposeWithOffset<half>(1, 16, 0, 1);
  NoTransposeWithOffset<half>(7, 144, 32, 1);
}

TEST(AscendAntiQuant, Bfloat16PerChannelComputesInFloatAndRoundsOnce) {
  NoTransposeWithOffset<bfloat16_t>(3, 32, 32 * 2 * 4 + 64 * 3 * 4, 1);  // performance path
  NoTransposeWithOffset<bfloat16_t>(9, 96, 96 * 2 * 4 + 64 * 9 * 4, 3);
}

// With less temporary space than its performance path needs, CANN's bfloat16_t call computes only
// the first K / groupCount rows, in pieces that all read the first piece's offsets and scales.
TEST(AscendAntiQuant, Bfloat16WithLittleTmpTakesCannsScalarPathWithItsQuirks) {
  NoTransposeWithOffset<bfloat16_t>(6, 128, 512, 2);  // pieces of 64: columns 64.. reuse 0..
  NoTransposeWithOffset<bfloat16_t>(4, 32, 256, 1);   // one group: every row
}

template <class D>
void NoTransposeScaleOnly(uint32_t groups, uint32_t group, uint32_t n) {
  SCOPED_TRACE(std::to_string(groups) + "x" + std::to_string(group) + " n=" + std::to_string(n));
  const uint32_t k = groups * group;
  CoreFixture fx(160 * 1024);
  auto src = fx.Take<int8_t>(k * n);
  auto dst = fx.Take<D>(k * n);
  auto scl = fx.Take<D>(groups * n);
  auto tmp = fx.Take<uint8_t>(4096);
  const auto w = Weights(k * n, k);
  const auto s = Params<D>(groups * n, 3);
  Put(src, w);
  PutF(scl, s);
  const uint32_t dims[2] = {groups, n};
  scl.SetShapeInfo(AscendC::ShapeInfo(2, dims));  // the group count from the tensor's ShapeInfo
  AscendC::AscendAntiQuant<int8_t, D, false>(dst, src, scl, tmp, k);
  std::vector<float> want(k * n);
  for (uint32_t r = 0; r < k; ++r)
    for (uint32_t c = 0; c < n; ++c) want[r * n + c] = Ref<D>(w[r * n + c], 0, s[(r / group) * n + c], false);
  Expect(dst, want, "no transpose, scale only");
}

TEST(AscendAntiQuant, ScaleOnlyGroupsRowsByTheScalesShape) {
  NoTransposeScaleOnly<half>(2, 3, 32);
  NoTransposeScaleOnly<half>(1, 5, 64);
  NoTransposeScaleOnly<bfloat16_t>(3, 2, 96);
}

template <class D>
void Scalars(bool transpose, bool with_offset, uint32_t elems) {
  SCOPED_TRACE(std::string(transpose ? "transposed" : "plain") + (with_offset ? " offset" : ""));
  CoreFixture fx(64 * 1024);
  auto src = fx.Take<int8_t>(elems);
  auto dst = fx.Take<D>(elems);
  auto tmp = fx.Take<uint8_t>(1024);
  const auto w = Weights(elems, elems);
  Put(src, w);
  const float o = Params<D>(1, 4)[0], s = Params<D>(1, 5)[0];
  const uint32_t k = 32;
  if (transpose && with_offset)
    AscendC::AscendAntiQuant<int8_t, D, true>(dst, src, FromFloat<D>(o), FromFloat<D>(s), tmp, k);
  else if (transpose)
    AscendC::AscendAntiQuant<int8_t, D, true>(dst, src, FromFloat<D>(s), tmp, k);
  else if (with_offset)
    AscendC::AscendAntiQuant<int8_t, D, false>(dst, src, FromFloat<D>(o), FromFloat<D>(s), tmp, k);
  else
    AscendC::AscendAntiQuant<int8_t, D, false>(dst, src, FromFloat<D>(s), tmp, k);
  std::vector<float> want(elems);
  for (uint32_t i = 0; i < elems; ++i) want[i] = Ref<D>(w[i], o, s, with_offset);
  Expect(dst, want, "scalars");
}

TEST(AscendAntiQuant, PerTensorScalarsInBothLayouts) {
  for (bool t : {false, true}) {
    for (bool off : {false, true}) {
      Scalars<half>(t, off, 32 * 5);
      Scalars<bfloat16_t>(t, off, 32 * 7);  // 224 elements in pieces of 128
    }
  }
}

// Transposed src [N, K]: one offset / scale per row when the brcb path applies, else one per
// group of K / width along each row (AntiQuantImplScalar).
template <class D>
void Transposed(uint32_t rows, uint32_t k, uint32_t width, uint32_t tmp_bytes, bool with_offset,
                bool per_row) {
  SCOPED_TRACE("rows=" + std::to_string(rows) + " k=" + std::to_string(k) +
               " width=" + std::to_string(width) + " tmp=" + std::to_string(tmp_bytes));
  CoreFixture fx(160 * 1024);
  auto src = fx.Take<int8_t>(rows * k);
  auto dst = fx.Take<D>(rows * k);
  const uint32_t values = per_row ? rows : rows * width;
  auto off = fx.Take<D>(values), scl = fx.Take<D>(values);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto w = Weights(rows * k, rows + k);
  const auto o = Params<D>(values, 6), s = Params<D>(values, 7);
  Put(src, w);
  PutF(off, o);
  PutF(scl, s);
  const AntiQuantShapeInfo info{rows, per_row ? 1u : width, rows, per_row ? 1u : width};
  if (with_offset)
    AscendC::AscendAntiQuant<int8_t, D, true>(dst, src, off, scl, tmp, k, info);
  else
    AscendC::AscendAntiQuant<int8_t, D, true>(dst, src, scl, tmp, k, info);
  std::vector<float> want(rows * k);
  const uint32_t group = per_row ? k : k / width;
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < k; ++j) {
      const uint32_t v = per_row ? i : i * width + j / group;
      want[i * k + j] = Ref<D>(w[i * k + j], o[v], s[v], with_offset);
    }
  }
  Expect(dst, want, "transposed");
}

TEST(AscendAntiQuant, TransposedHalfPerRowAndPerGroup) {
  Transposed<half>(3, 160, 1, 1024, true, true);   // brcb path: 16 * 3 * 2 halves fit
  Transposed<half>(4, 64, 1, 1024, false, true);
  Transposed<half>(3, 160, 5, 32, true, false);    // too little tmp: per group of 32
  Transposed<half>(2, 4096, 4, 4096, true, false);  // K >= 4096: per group
}

TEST(AscendAntiQuant, TransposedBfloat16PerRowAndPerGroup) {
  Transposed<bfloat16_t>(2, 128, 1, 2 * 80 * 4, true, true);  // K % 64 == 0: brcb path
  Transposed<bfloat16_t>(3, 64, 1, 3 * 80 * 4, false, true);
  Transposed<bfloat16_t>(2, 96, 3, 512, true, false);         // K % 64 != 0: per group
}

TEST(AscendAntiQuant, ErrorsNameTheCallAndTheNumbers) {
  CoreFixture fx(64 * 1024);
  auto src = fx.Take<int8_t>(96);
  auto dst = fx.Take<half>(96);
  auto dbf = fx.Take<bfloat16_t>(96);
  auto off = fx.Take<half>(48), scl = fx.Take<half>(48);
  auto obf = fx.Take<bfloat16_t>(48), sbf = fx.Take<bfloat16_t>(48);
  auto tmp = fx.Take<uint8_t>(1024);
  EXPECT_THAT(ErrorOf([&] {
                AscendC::AscendAntiQuant<int8_t, half, false>(dst, src, off, scl, tmp, 5);
              }),
              HasSubstr("AscendAntiQuant: k 5 does not divide src's 96 elements"));
  EXPECT_THAT(ErrorOf([&] {
                AscendC::AscendAntiQuant<int8_t, half, false>(dst, src, scl, tmp, 3,
                                                             AntiQuantShapeInfo{0, 0, 2, 32});
              }),
              HasSubstr("the scale's group count (scaleHeight) is 2, which does not divide k 3"));
  EXPECT_THAT(ErrorOf([&] {  // no shape given anywhere
                AscendC::AscendAntiQuant<int8_t, half, false>(dst, src, scl, tmp, 3);
              }),
              HasSubstr("group count (scaleHeight) is 0"));
  LocalTensor<uint8_t> small = tmp;
  small.SetSize(4);
  EXPECT_THAT(ErrorOf([&] {
                AscendC::AscendAntiQuant<int8_t, bfloat16_t, false>(dbf, src, obf, sbf, small, 3,
                                                                   AntiQuantShapeInfo{1, 32, 1, 32});
              }),
              HasSubstr("8 bytes per element"));
  EXPECT_THAT(ErrorOf([&] {  // transposed per-row path with 3 rows but 2 values
                AscendC::AscendAntiQuant<int8_t, half, true>(dst, src, off, scl, tmp, 32,
                                                            AntiQuantShapeInfo{2, 1, 2, 1});
              }),
              HasSubstr("transposed src has 3 rows but the per-row path reads 2 scale values"));
  EXPECT_THAT(ErrorOf([&] {  // bfloat16_t rows of 48 int8 are not whole 32-byte blocks
                AscendC::AscendAntiQuant<int8_t, bfloat16_t, false>(
                    dbf, src, obf, sbf, tmp, 2, AntiQuantShapeInfo{1, 48, 1, 48});
              }),
              HasSubstr("N = 48: an int8_t row of src must be a multiple of 32 B"));
}

}  // namespace
