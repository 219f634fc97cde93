// Mask/repeat ("level 0") form of the element-wise vector instructions against a scalar reference
// written from the documented semantics: element e of repeat r lives at element
//   r * repStride * B + (e / B) * blkStride * B + e % B      (B = elements per 32 B block)
// and is touched only when the mask enables it; everything else keeps its sentinel.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;

constexpr uint32_t kCap = 4096;  // elements per tensor

template <class T>
T Sentinel() {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(0x5A);
  else
    return T(-777.0f);
}

template <class T>
std::vector<T> Read(const AscendC::LocalTensor<T>& t, uint32_t n) {
  std::vector<T> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = t.GetValue(i);
  return v;
}

// The documented per-repeat mask: continuous (first `len`) or bitwise (bit e of bits[e / 64]).
struct RefMask {
  bool bitwise = false;
  uint32_t len = 0;
  uint64_t bits[2] = {0, 0};
  bool Active(uint32_t e) const { return bitwise ? ((bits[e / 64] >> (e % 64)) & 1) : e < len; }
};

template <class T>
uint32_t Index(uint32_t r, uint32_t e, uint32_t blk, uint32_t rep) {
  const uint32_t b = 32 / sizeof(T);
  return r * rep * b + (e / b) * blk * b + e % b;
}

template <class T>
using Ar = std::conditional_t<std::is_integral_v<T>, T, float>;

template <class T>
void ExpectSame(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (Bits(got[i]) != Bits(want[i])) {
      ADD_FAILURE() << what << ": element " << i << " is " << static_cast<double>(got[i])
                    << ", expected " << static_cast<double>(want[i]);
      return;
    }
  }
}

struct BinCase {
  uint64_t len;  // continuous mask (0: use bits)
  uint64_t bits[2];
  uint8_t repeat;
  AscendC::BinaryRepeatParams p;
};

template <class T>
void RunBinaryCase(const BinCase& c, uint32_t seed) {
  CoreFixture fx;
  auto dst = fx.Take<T>(kCap), a = fx.Take<T>(kCap), b = fx.Take<T>(kCap);
  const auto va = RandomVector<T>(kCap, -50, 50, seed),
             vb = RandomVector<T>(kCap, -50, 50, seed + 1);
  Fill(a, va);
  Fill(b, vb);
  std::vector<T> want(kCap, Sentinel<T>());
  Fill(dst, want);
  RefMask m;
  if (c.len != 0) {
    m.len = static_cast<uint32_t>(c.len);
    AscendC::Add(dst, a, b, c.len, c.repeat, c.p);
  } else {
    m.bitwise = true;
    m.bits[0] = c.bits[0];
    m.bits[1] = sizeof(T) == 2 ? c.bits[1] : 0;
    const uint64_t bits[2] = {c.bits[0], sizeof(T) == 2 ? c.bits[1] : 0};
    AscendC::Add(dst, a, b, bits, c.repeat, c.p);
  }
  for (uint32_t r = 0; r < c.repeat; ++r) {
    for (uint32_t e = 0; e < 256 / sizeof(T); ++e) {
      if (!m.Active(e)) continue;
      want[Index<T>(r, e, c.p.dstBlkStride, c.p.dstRepStride)] =
          T(Ar<T>(va[Index<T>(r, e, c.p.src0BlkStride, c.p.src0RepStride)]) +
            Ar<T>(vb[Index<T>(r, e, c.p.src1BlkStride, c.p.src1RepStride)]));
    }
  }
  ExpectSame(Read(dst, kCap), want, "Add");
}

template <class T>
void RunBinaryCases() {
  const BinCase cases[] = {
      {256 / sizeof(T), {0, 0}, 3, {1, 1, 1, 8, 8, 8}},    // full, contiguous
      {7, {0, 0}, 4, {1, 1, 1, 8, 8, 8}},                  // odd continuous mask
      {100 / sizeof(T), {0, 0}, 2, {2, 1, 3, 16, 8, 24}},  // block strides
      {256 / sizeof(T), {0, 0}, 5, {1, 1, 1, 4, 8, 0}},    // src1 repeat stride 0: reused
      {0, {0x8000000000000001ull, 0x00F0F0F00000000Full}, 3, {1, 1, 1, 8, 8, 8}},
      {0, {0xDEADBEEFCAFEF00Dull, 0x1ull << 63}, 2, {3, 2, 1, 24, 16, 8}},
      {33, {0, 0}, 1, {0, 1, 1, 8, 8, 8}},  // dst block stride 0
      // One row of src0 (or src1) reused by every dense repeat, every element active: run as
      // one count-form call over a replicated row; then the shapes just outside that path.
      {256 / sizeof(T), {0, 0}, 31, {1, 1, 1, 8, 0, 8}},
      {256 / sizeof(T), {0, 0}, 7, {1, 1, 1, 8, 8, 0}},
      {256 / sizeof(T), {0, 0}, 1, {1, 1, 1, 8, 0, 8}},
      {256 / sizeof(T) - 1, {0, 0}, 6, {1, 1, 1, 8, 0, 8}},
      {0, {~0ull, ~0ull >> 1}, 4, {1, 1, 1, 8, 8, 0}},
      {256 / sizeof(T), {0, 0}, 3, {1, 1, 2, 8, 0, 16}},
  };
  uint32_t seed = 10;
  for (const BinCase& c : cases) {
    SCOPED_TRACE(::testing::Message() << "len " << c.len << " repeat " << int(c.repeat));
    RunBinaryCase<T>(c, seed++);
  }
}

TEST(VectorMasked, AddHalfTouchesExactlyTheMaskedElements) { RunBinaryCases<half>(); }
TEST(VectorMasked, AddFloatTouchesExactlyTheMaskedElements) { RunBinaryCases<float>(); }
TEST(VectorMasked, AddInt16AndInt32) {
  RunBinaryCases<int16_t>();
  RunBinaryCases<int32_t>();
}

// The replicated row is kept per thread between instructions: a row whose bytes changed since
// (same tensor), a longer instruction after a shorter one, and the same bytes in another tensor
// must each give the per-element result.
template <class T>
void RunRepeatedRowSequence() {
  CoreFixture fx;
  auto dst = fx.Take<T>(kCap), row = fx.Take<T>(kCap), other = fx.Take<T>(kCap),
       b = fx.Take<T>(kCap);
  const uint32_t per = 256 / sizeof(T);
  const auto vb = RandomVector<T>(kCap, -50, 50, 77);
  Fill(b, vb);
  const AscendC::BinaryRepeatParams p(1, 1, 1, 8, 0, 8);  // src0: one row for every repeat
  const struct {
    uint8_t repeat;
    uint32_t seed;      // the row's values
    bool other_tensor;  // the same values, from the second tensor
  } steps[] = {{8, 1, false}, {3, 1, false}, {12, 1, false}, {12, 2, false}, {4, 2, true},
               {15, 3, true}};
  for (const auto& st : steps) {
    SCOPED_TRACE(::testing::Message() << "repeat " << int(st.repeat) << " row " << st.seed);
    const auto vr = RandomVector<T>(per, -50, 50, st.seed);
    auto& src = st.other_tensor ? other : row;
    Fill(src, vr);
    std::vector<T> want(kCap, Sentinel<T>());
    Fill(dst, want);
    AscendC::Max(dst, src, b, per, st.repeat, p);
    for (uint32_t i = 0; i < st.repeat * per; ++i) {
      const Ar<T> x = Ar<T>(vr[i % per]), y = Ar<T>(vb[i]);
      want[i] = T(x > y ? x : y);
    }
    ExpectSame(Read(dst, kCap), want, "Max");
  }
}
TEST(VectorMasked, RepeatedRowKeptBetweenInstructionsFollowsItsBytes) {
  RunRepeatedRowSequence<half>();
  RunRepeatedRowSequence<float>();
}

// Binary ops other than Add with one odd layout each, half and float.
template <class T>
void RunOtherBinary() {
  CoreFixture fx;
  auto dst = fx.Take<T>(kCap), a = fx.Take<T>(kCap), b = fx.Take<T>(kCap);
  const auto va = RandomVector<T>(kCap, 1, 9, 3), vb = RandomVector<T>(kCap, 1, 9, 4);
  Fill(a, va);
  Fill(b, vb);
  const AscendC::BinaryRepeatParams p(2, 1, 1, 20, 8, 9);
  using F = std::function<Ar<T>(Ar<T>, Ar<T>)>;
  const struct {
    const char* name;
    std::function<void()> call;
    F ref;
  } ops[] = {
      {"Sub", [&] { AscendC::Sub(dst, a, b, 45, 3, p); }, [](Ar<T> x, Ar<T> y) { return x - y; }},
      {"Mul", [&] { AscendC::Mul(dst, a, b, 45, 3, p); }, [](Ar<T> x, Ar<T> y) { return x * y; }},
      {"Div", [&] { AscendC::Div(dst, a, b, 45, 3, p); }, [](Ar<T> x, Ar<T> y) { return x / y; }},
      {"Max", [&] { AscendC::Max(dst, a, b, 45, 3, p); },
       [](Ar<T> x, Ar<T> y) { return x > y ? x : y; }},
      {"Min", [&] { AscendC::Min(dst, a, b, 45, 3, p); },
       [](Ar<T> x, Ar<T> y) { return x < y ? x : y; }},
  };
  for (const auto& op : ops) {
    std::vector<T> want(kCap, Sentinel<T>());
    Fill(dst, want);
    op.call();
    for (uint32_t r = 0; r < 3; ++r) {
      for (uint32_t e = 0; e < 45; ++e) {
        want[Index<T>(r, e, 2, 20)] =
            T(op.ref(Ar<T>(va[Index<T>(r, e, 1, 8)]), Ar<T>(vb[Index<T>(r, e, 1, 9)])));
      }
    }
    ExpectSame(Read(dst, kCap), want, op.name);
  }
}
TEST(VectorMasked, SubMulDivMaxMinHalfAndFloat) {
  RunOtherBinary<half>();
  RunOtherBinary<float>();
}

TEST(VectorMasked, AndOrOnUint16WithBitMask) {
  CoreFixture fx;
  auto dst = fx.Take<uint16_t>(kCap), a = fx.Take<uint16_t>(kCap), b = fx.Take<uint16_t>(kCap);
  const auto va = RandomVector<uint16_t>(kCap, 0, 65535, 5);
  const auto vb = RandomVector<uint16_t>(kCap, 0, 65535, 6);
  Fill(a, va);
  Fill(b, vb);
  const uint64_t bits[2] = {0x00FF00FF00FF00FFull, 0xAAAAAAAAAAAAAAAAull};
  RefMask m;
  m.bitwise = true;
  m.bits[0] = bits[0];
  m.bits[1] = bits[1];
  for (int which = 0; which < 2; ++which) {
    std::vector<uint16_t> want(kCap, Sentinel<uint16_t>());
    Fill(dst, want);
    if (which == 0)
      AscendC::And(dst, a, b, bits, 2, {1, 1, 1, 8, 8, 8});
    else
      AscendC::Or(dst, a, b, bits, 2, {1, 1, 1, 8, 8, 8});
    for (uint32_t i = 0; i < 256; ++i) {
      if (!m.Active(i % 128)) continue;
      want[i] = which == 0 ? uint16_t(va[i] & vb[i]) : uint16_t(va[i] | vb[i]);
    }
    ExpectSame(Read(dst, kCap), want, which == 0 ? "And" : "Or");
  }
}

// Unary and tensor-scalar instructions with UnaryRepeatParams.
template <class T>
void RunUnaryAndScalar() {
  CoreFixture fx;
  auto dst = fx.Take<T>(kCap), src = fx.Take<T>(kCap);
  const auto vs = RandomVector<T>(kCap, -20, 20, 7);
  Fill(src, vs);
  const AscendC::UnaryRepeatParams p(1, 2, 10, 16);
  const uint32_t len = 256 / sizeof(T) - 3;
  const struct {
    const char* name;
    std::function<void()> call;
    std::function<Ar<T>(Ar<T>)> ref;
  } ops[] = {
      {"Abs", [&] { AscendC::Abs(dst, src, len, 4, p); }, [](Ar<T> x) { return x < 0 ? -x : x; }},
      {"Relu", [&] { AscendC::Relu(dst, src, len, 4, p); },
       [](Ar<T> x) { return x > 0 ? x : Ar<T>(0); }},
      {"Adds", [&] { AscendC::Adds(dst, src, T(3), len, 4, p); },
       [](Ar<T> x) { return x + Ar<T>(3); }},
      {"Muls", [&] { AscendC::Muls(dst, src, T(-2), len, 4, p); },
       [](Ar<T> x) { return x * Ar<T>(-2); }},
      {"Maxs", [&] { AscendC::Maxs(dst, src, T(1), len, 4, p); },
       [](Ar<T> x) { return x > Ar<T>(1) ? x : Ar<T>(1); }},
      {"Mins", [&] { AscendC::Mins(dst, src, T(1), len, 4, p); },
       [](Ar<T> x) { return x < Ar<T>(1) ? x : Ar<T>(1); }},
  };
  for (const auto& op : ops) {
    std::vector<T> want(kCap, Sentinel<T>());
    Fill(dst, want);
    op.call();
    for (uint32_t r = 0; r < 4; ++r) {
      for (uint32_t e = 0; e < len; ++e) {
        want[Index<T>(r, e, 1, 10)] = T(op.ref(Ar<T>(vs[Index<T>(r, e, 2, 16)])));
      }
    }
    ExpectSame(Read(dst, kCap), want, op.name);
  }
}
TEST(VectorMasked, UnaryAndScalarOpsHalfFloatInt16Int32) {
  RunUnaryAndScalar<half>();
  RunUnaryAndScalar<float>();
  RunUnaryAndScalar<int16_t>();
  RunUnaryAndScalar<int32_t>();
}

TEST(VectorMasked, SqrtExpWithBitMaskFloat) {
  CoreFixture fx;
  auto dst = fx.Take<float>(kCap), src = fx.Take<float>(kCap);
  const auto vs = RandomVector<float>(kCap, 0.5f, 4, 8);
  Fill(src, vs);
  const uint64_t bits[2] = {0x9249249249249249ull, 0};
  std::vector<float> want(kCap, Sentinel<float>());
  Fill(dst, want);
  AscendC::Sqrt(dst, src, bits, 2, {1, 1, 8, 8});
  for (uint32_t i = 0; i < 128; ++i) {
    if ((bits[0] >> (i % 64)) & 1) want[i] = std::sqrt(vs[i]);
  }
  ExpectSame(Read(dst, kCap), want, "Sqrt");
}

TEST(VectorMasked, ShiftAndNotOnInt16) {
  CoreFixture fx;
  auto dst = fx.Take<int16_t>(kCap), src = fx.Take<int16_t>(kCap);
  const auto vs = RandomVector<int16_t>(kCap, -3000, 3000, 9);
  Fill(src, vs);
  std::vector<int16_t> want(kCap, Sentinel<int16_t>());
  Fill(dst, want);
  AscendC::ShiftLeft(dst, src, int16_t(2), 20, 2, {1, 1, 8, 8});
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t e = 0; e < 20; ++e) want[r * 128 + e] = int16_t(uint16_t(vs[r * 128 + e]) << 2);
  ExpectSame(Read(dst, kCap), want, "ShiftLeft");
  Fill(dst, std::vector<int16_t>(kCap, Sentinel<int16_t>()));
  want.assign(kCap, Sentinel<int16_t>());
  AscendC::ShiftRight(dst, src, int16_t(3), 128, 1, {1, 1, 8, 8});
  for (uint32_t e = 0; e < 128; ++e) want[e] = int16_t(vs[e] >> 3);
  ExpectSame(Read(dst, kCap), want, "ShiftRight");
  Fill(dst, std::vector<int16_t>(kCap, Sentinel<int16_t>()));
  want.assign(kCap, Sentinel<int16_t>());
  AscendC::Not(dst, src, 128, 3, {1, 1, 8, 8});
  for (uint32_t e = 0; e < 384; ++e) want[e] = int16_t(~vs[e]);
  ExpectSame(Read(dst, kCap), want, "Not");
}

TEST(VectorMasked, DuplicateWithStrides) {
  CoreFixture fx;
  auto dst = fx.Take<half>(kCap);
  std::vector<half> want(kCap, Sentinel<half>());
  Fill(dst, want);
  AscendC::Duplicate(dst, half(2.5f), 40, 3, 2, 20);
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t e = 0; e < 40; ++e) want[Index<half>(r, e, 2, 20)] = half(2.5f);
  ExpectSame(Read(dst, kCap), want, "Duplicate");
  auto dstf = fx.Take<float>(kCap);
  std::vector<float> wantf(kCap, -1.0f);
  Fill(dstf, wantf);
  const uint64_t bits[2] = {0xF0F0F0F0F0F0F0F1ull, 0};
  AscendC::Duplicate(dstf, 7.0f, bits, 2, 1, 8);
  for (uint32_t i = 0; i < 128; ++i)
    if ((bits[0] >> (i % 64)) & 1) wantf[i] = 7.0f;
  ExpectSame(Read(dstf, kCap), wantf, "Duplicate float");
}

// Counter mode: the register holds an element count across repeats; repeatTime is ignored.
template <class T>
void RunCounterMode(uint32_t count, const AscendC::BinaryRepeatParams& p) {
  CoreFixture fx;
  auto dst = fx.Take<T>(kCap), a = fx.Take<T>(kCap), b = fx.Take<T>(kCap);
  const auto va = RandomVector<T>(kCap, -5, 5, count), vb = RandomVector<T>(kCap, -5, 5, count + 1);
  Fill(a, va);
  Fill(b, vb);
  std::vector<T> want(kCap, Sentinel<T>());
  Fill(dst, want);
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<T, AscendC::MaskMode::COUNTER>(0, count);
  AscendC::Mul<T, false>(dst, a, b, AscendC::MASK_PLACEHOLDER, 1, p);
  AscendC::SetMaskNorm();
  AscendC::ResetMask();
  const uint32_t per = 256 / sizeof(T);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t r = i / per, e = i % per;
    want[Index<T>(r, e, p.dstBlkStride, p.dstRepStride)] =
        T(Ar<T>(va[Index<T>(r, e, p.src0BlkStride, p.src0RepStride)]) *
          Ar<T>(vb[Index<T>(r, e, p.src1BlkStride, p.src1RepStride)]));
  }
  ExpectSame(Read(dst, kCap), want, "counter-mode Mul");
}
TEST(VectorMasked, CounterModeCoversCountElementsAcrossRepeats) {
  for (uint32_t count : {1u, 100u, 128u, 300u, 1000u}) {
    SCOPED_TRACE(count);
    RunCounterMode<half>(count, {1, 1, 1, 8, 8, 8});
    RunCounterMode<float>(count, {1, 1, 1, 8, 8, 8});
  }
  RunCounterMode<half>(333, {1, 2, 1, 8, 16, 9});
  RunCounterMode<float>(150, {2, 1, 1, 16, 8, 8});
}

TEST(VectorMasked, IsSetMaskFalseUsesTheRegisterAndTrueWritesIt) {
  CoreFixture fx;
  auto dst = fx.Take<float>(kCap), a = fx.Take<float>(kCap), b = fx.Take<float>(kCap);
  Fill(a, std::vector<float>(kCap, 1.0f));
  Fill(b, std::vector<float>(kCap, 2.0f));
  Fill(dst, std::vector<float>(kCap, 0.0f));
  AscendC::SetVectorMask<float>(0, 0x5ull);  // elements 0 and 2
  AscendC::Add<float, false>(dst, a, b, AscendC::MASK_PLACEHOLDER, 2, {1, 1, 1, 8, 8, 8});
  EXPECT_EQ(dst.GetValue(0), 3.0f);
  EXPECT_EQ(dst.GetValue(1), 0.0f);
  EXPECT_EQ(dst.GetValue(2), 3.0f);
  EXPECT_EQ(dst.GetValue(64), 3.0f);
  EXPECT_EQ(dst.GetValue(65), 0.0f);
  // A call with isSetMask = true leaves its mask in the register for the next false call.
  AscendC::Sub(dst, a, b, 3, 1, {1, 1, 1, 8, 8, 8});
  Fill(dst, std::vector<float>(kCap, 0.0f));
  AscendC::Add<float, false>(dst, a, b, AscendC::MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
  EXPECT_EQ(dst.GetValue(2), 3.0f);
  EXPECT_EQ(dst.GetValue(3), 0.0f);
  AscendC::ResetMask();
  AscendC::Add<float, false>(dst, a, b, AscendC::MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
  EXPECT_EQ(dst.GetValue(63), 3.0f);
  EXPECT_EQ(dst.GetValue(64), 0.0f);
  // SetVectorMask(len) in normal mode is the continuous mask.
  AscendC::SetVectorMask<half>(5);
  auto h = fx.Take<half>(kCap);
  Fill(h, std::vector<half>(kCap, half(1.0f)));
  AscendC::Adds<half, false>(h, h, half(1.0f), AscendC::MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
  EXPECT_EQ(float(h.GetValue(4)), 2.0f);
  EXPECT_EQ(float(h.GetValue(5)), 1.0f);
}

// --- every check ---
TEST(VectorMasked, RejectsMaskOutsideRange) {
  CoreFixture fx;
  auto h = fx.Take<half>(kCap);
  auto f = fx.Take<float>(kCap);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Add(h, h, h, 129, 1, {1, 1, 1, 8, 8, 8});
            }).find("Add: mask 129 is outside [1, 128] for half"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Abs(f, f, 65, 1, {1, 1, 8, 8});
            }).find("Abs: mask 65 is outside [1, 64] for float"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              const uint64_t no_elements = 0;
              AscendC::Muls(f, f, 2.0f, no_elements, 1, {1, 1, 8, 8});
            }).find("Muls: mask 0 is outside [1, 64]"),
            std::string::npos);
  const uint64_t zero[2] = {0, 0};
  EXPECT_NE(ErrorOf([&] {
              AscendC::Add(h, h, h, zero, 1, {1, 1, 1, 8, 8, 8});
            }).find("Add: bitwise mask is all zero"),
            std::string::npos);
  // A 32-bit call's mask array has one word (its mask[1] is not read: vector_mask_array_test.cpp);
  // SetVectorMask gives the high word explicitly.
  EXPECT_NE(ErrorOf([&] {
              AscendC::SetVectorMask<float>(2, 1);
            }).find("SetVectorMask: bitwise mask[1] is 0x2 but must be 0 for 32-bit float"),
            std::string::npos);
  AscendC::ResetMask();
}

TEST(VectorMasked, RejectsOperandExtentBeyondTensor) {
  CoreFixture fx;
  auto small = fx.Take<half>(256);  // 512 B: two full repeats
  auto big = fx.Take<half>(kCap);
  AscendC::Add(small, big, big, 128, 2, {1, 1, 1, 8, 8, 8});  // fits exactly
  // Three repeats reach byte 768.
  EXPECT_NE(ErrorOf([&] {
              AscendC::Add(small, big, big, 128, 3, {1, 1, 1, 8, 8, 8});
            })
                .find("Add: dst reaches byte 768 (3 repeats, blkStride 1, repStride 8) beyond its "
                      "LocalTensor of 512 B (256 half)"),
            std::string::npos);
  // A block stride of 2 with 17 elements: element 16 is in block 1, at byte 64..66.
  auto tiny = fx.Take<half>(32);
  AscendC::Abs(tiny, big, 16, 1, {2, 1, 8, 8});  // only block 0
  EXPECT_NE(ErrorOf([&] {
              AscendC::Abs(tiny, big, 17, 1, {2, 1, 8, 8});
            }).find("Abs: dst reaches byte 66 (1 repeats, blkStride 2, repStride 8)"),
            std::string::npos);
  // Source side, through the repeat stride.
  EXPECT_NE(ErrorOf([&] {
              AscendC::Adds(big, tiny, half(1.0f), 1, 2, {1, 1, 8, 2});
            }).find("Adds: src reaches byte 66"),
            std::string::npos);
  // Counter mode: the count decides the extent.
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(0, 257);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Add<half, false>(small, big, big, AscendC::MASK_PLACEHOLDER, 1,
                                        {1, 1, 1, 8, 8, 8});
            }).find("Add: dst reaches byte 514 (3 repeats"),
            std::string::npos);
  AscendC::SetMaskNorm();
}

TEST(VectorMasked, RejectsMisalignedAndPartiallyOverlappingOperands) {
  CoreFixture fx;
  auto big = fx.Take<half>(kCap);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Add(big[8], big[1024], big[2048], 128, 1, {1, 1, 1, 8, 8, 8});
            }).find("is not 32-byte aligned"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Add(big[16], big, big[2048], 128, 1, {1, 1, 1, 8, 8, 8});
            }).find("Add: dst UB [0x20, 0x120) partially overlaps src0 UB [0x0, 0x100)"),
            std::string::npos);
  AscendC::Relu(big, big, 128, 2, {1, 1, 8, 8});  // same start is allowed (in place)
}

TEST(VectorMasked, RejectsSetVectorMaskInTheWrongMode) {
  CoreFixture fx;
  EXPECT_NE(ErrorOf([&] { AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(10); })
                .find("SetVectorMask<COUNTER> called while the mask is in normal mode (call "
                      "SetMaskCount first)"),
            std::string::npos);
  AscendC::SetMaskCount();
  // The (maskHigh, maskLow) form writes the register in whatever mode it is in, as the device
  // does: official kernels (0_introduction 14_reduce) call SetVectorMask<T>(0, n) after
  // SetMaskCount.
  AscendC::SetVectorMask<half>(0, 10);
  EXPECT_NE(ErrorOf([&] {
              AscendC::SetVectorMask<half>(10);
            }).find("SetVectorMask<NORMAL> called while the mask is in counter mode"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(1, 10);
            }).find("SetVectorMask<COUNTER>: maskHigh 1 must be 0"),
            std::string::npos);
  AscendC::SetMaskNorm();
  EXPECT_NE(ErrorOf([&] { AscendC::SetVectorMask<float>(0, 0); }).find("bitwise mask is all zero"),
            std::string::npos);
}

}  // namespace
