// DataCopy (contiguous and DataCopyParams) and DataCopyPad on one simulated core: the bytes that
// must move, and the bytes that must not.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;

constexpr uint16_t kGmMark = 0xBEEF;  // GM bytes a copy must not touch
const half kUbMark = half(-555.0f);   // UB elements a copy must not touch

// GM of `n` half, element i = i + 1 (exact in half for i < 2048).
struct HalfGm {
  explicit HalfGm(uint32_t n) : buffer(n * sizeof(half)), size(n) {
    for (uint32_t i = 0; i < n; ++i) buffer.as<half>()[i] = half(float(i + 1));
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(buffer.gm()), n);
  }
  void Mark() {
    for (uint32_t i = 0; i < size; ++i) buffer.as<uint16_t>()[i] = kGmMark;
  }
  DeviceBuffer buffer;
  uint32_t size;
  AscendC::GlobalTensor<half> gm;
};

void MarkUb(const AscendC::LocalTensor<half>& t) {
  for (uint32_t i = 0; i < t.GetSize(); ++i) t.SetValue(i, kUbMark);
}

TEST(DataCopy, GmToUbContiguousLeavesTheRestOfUbAlone) {
  for (uint32_t count : {16u, 32u, 1024u, 2032u}) {
    CoreFixture f;
    HalfGm src(2048);
    auto ub = f.Take<half>(2048);
    MarkUb(ub);
    AscendC::DataCopy(ub, src.gm, count);
    for (uint32_t i = 0; i < 2048; ++i) {
      const float expected = i < count ? float(i + 1) : float(kUbMark);
      ASSERT_EQ(float(ub.GetValue(i)), expected) << "count " << count << " i " << i;
    }
  }
}

TEST(DataCopy, FromAnOffsetGlobalTensorView) {
  CoreFixture f;
  HalfGm src(256);
  auto ub = f.Take<half>(64);
  AscendC::DataCopy(ub, src.gm[100], 64);  // GM needs only element alignment
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(float(ub.GetValue(i)), float(101 + i));
}

TEST(DataCopy, BoolMasksMoveAsBytes) {
  // ops-nn scaled_masked_softmax_grad_v2 copies its bool mask GM -> UB for Select.
  CoreFixture f;
  DeviceBuffer buffer(96);
  for (uint32_t i = 0; i < 96; ++i) buffer.gm()[i] = i % 3 == 0 ? 1 : 0;
  AscendC::GlobalTensor<bool> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ bool*>(buffer.gm()), 96);
  auto ub = f.Take<bool>(96);
  AscendC::DataCopy(ub, gm, 64);
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(ub.GetValue(i), i % 3 == 0) << i;
  AscendC::DataCopy(gm[32], ub, 32);  // and back
  for (uint32_t i = 0; i < 32; ++i) ASSERT_EQ(buffer.gm()[32 + i], i % 3 == 0 ? 1 : 0) << i;
}

TEST(DataCopy, DoubleTensorsMoveAsEightByteWords) {
  // ops-nn foreach_copy copies float64 tensors GM -> UB -> GM; every bit pattern (NaN payloads,
  // -0.0, subnormals) arrives unchanged, and 12 doubles (96 B, three blocks) move whole.
  CoreFixture f;
  DeviceBuffer buffer(2 * 12 * sizeof(double));
  const double values[12] = {1.5, -0.0, 1e-310, -3.25e200, 0.1, 7.0, -1.0, 2.5e-5,
                             std::numeric_limits<double>::infinity(), 42.0, -123456.789, 0.0};
  double* host = reinterpret_cast<double*>(buffer.gm());
  std::memcpy(host, values, sizeof(values));
  uint64_t nan_bits = 0x7ff8dead0000beefull;
  std::memcpy(&host[11], &nan_bits, 8);
  AscendC::GlobalTensor<double> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ double*>(buffer.gm()), 24);
  auto ub = f.Take<double>(12);
  AscendC::DataCopy(ub, gm, 12);
  AscendC::DataCopy(gm[12], ub, 12);
  EXPECT_EQ(std::memcmp(&host[12], &host[0], 12 * sizeof(double)), 0);
  EXPECT_EQ(ascsim_test::Bits(ub.GetValue(11)), nan_bits);
}

TEST(DataCopy, UbToGmContiguousLeavesTheRestOfGmAlone) {
  CoreFixture f;
  HalfGm dst(512);
  dst.Mark();
  auto ub = f.Take<half>(512);
  for (uint32_t i = 0; i < 512; ++i) ub.SetValue(i, half(float(i)));
  AscendC::DataCopy(dst.gm[48], ub, 128);
  for (uint32_t i = 0; i < 512; ++i) {
    if (i >= 48 && i < 176) {
      ASSERT_EQ(float(dst.buffer.as<half>()[i]), float(i - 48)) << i;
    } else {
      ASSERT_EQ(dst.buffer.as<uint16_t>()[i], kGmMark) << i;
    }
  }
}

TEST(DataCopy, UbToUbContiguous) {
  CoreFixture f;
  auto a = f.Take<float>(256);
  auto b = f.Take<float>(256);
  for (uint32_t i = 0; i < 256; ++i) {
    a.SetValue(i, float(i) * 0.5f);
    b.SetValue(i, -1.0f);
  }
  AscendC::DataCopy(b, a, 200);  // 800 B: a multiple of 32 B
  for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(b.GetValue(i), i < 200 ? float(i) * 0.5f : -1.0f);
}

TEST(DataCopy, StridedGmToUbWithDataCopyParams) {
  CoreFixture f;
  HalfGm src(1024);
  auto ub = f.Take<half>(512);
  MarkUb(ub);
  // 3 blocks of 2 x 32 B (32 half); 1 block (16 half) skipped in GM, 2 blocks (32 half) in UB.
  AscendC::DataCopyParams params(3, 2, 1, 2);
  AscendC::DataCopy(ub, src.gm, params);
  for (uint32_t i = 0; i < 512; ++i) {
    const uint32_t row = i / 64, col = i % 64;
    const bool data = row < 3 && col < 32;
    const float expected = data ? float(row * 48 + col + 1) : float(kUbMark);
    ASSERT_EQ(float(ub.GetValue(i)), expected) << i;
  }
}

TEST(DataCopy, StridedUbToGmWithDataCopyParams) {
  CoreFixture f;
  HalfGm dst(512);
  dst.Mark();
  auto ub = f.Take<half>(512);
  for (uint32_t i = 0; i < 512; ++i) ub.SetValue(i, half(float(i)));
  // 4 blocks of 1 x 32 B (16 half); UB gap 1 block, GM gap 3 blocks.
  AscendC::DataCopy(dst.gm, ub, AscendC::DataCopyParams(4, 1, 1, 3));
  for (uint32_t i = 0; i < 512; ++i) {
    const uint32_t row = i / 64, col = i % 64;
    if (row < 4 && col < 16) {
      ASSERT_EQ(float(dst.buffer.as<half>()[i]), float(row * 32 + col)) << i;
    } else {
      ASSERT_EQ(dst.buffer.as<uint16_t>()[i], kGmMark) << i;
    }
  }
}

TEST(DataCopyPad, GmToUbWithoutPaddingPlacesRowsOn32ByteBoundaries) {
  CoreFixture f;
  HalfGm src(256);
  auto ub = f.Take<half>(128);
  MarkUb(ub);
  // 3 rows of 7 half (14 B), 2 half (4 B) apart in GM; each row starts a new 32 B block in UB.
  AscendC::DataCopyExtParams params(3, 14, 4, 0, 0);
  AscendC::DataCopyPadExtParams<half> pad(false, 0, 0, half(0.0f));
  AscendC::DataCopyPad(ub, src.gm, params, pad);
  // The rest of each row's block is "dummy" data: with no padding, the row's first element
  // (GMToUB非对齐数据搬运(DataCopyPad).md).
  for (uint32_t i = 0; i < 128; ++i) {
    const uint32_t row = i / 16, col = i % 16;
    const float expected = row >= 3 ? float(kUbMark) : float(row * 9 + (col < 7 ? col : 0) + 1);
    ASSERT_EQ(float(ub.GetValue(i)), expected) << i;
  }
}

// A stride is applied only between blocks: with blockCount 1 any srcStride / dstStride is
// ignored, even one that is not a whole number of elements (the group-matmul sample's
// DataCopyExtParams{1, len, 1, 1, 0}); between blocks it must be.
TEST(DataCopyPad, OneBlockIgnoresItsStrides) {
  CoreFixture f;
  DeviceBuffer gm(64 * sizeof(float));
  DeviceBuffer out(64 * sizeof(float));
  for (uint32_t i = 0; i < 64; ++i) {
    gm.as<float>()[i] = 0.5f * static_cast<float>(i) - 3.0f;
    out.as<float>()[i] = -1.0f;
  }
  AscendC::GlobalTensor<float> src, dst;
  src.SetGlobalBuffer(gm.as<float>(), 64);
  dst.SetGlobalBuffer(out.as<float>(), 64);
  auto ub = f.Take<float>(64);
  AscendC::DataCopyExtParams one{1, 13 * sizeof(float), 1, 1, 0};
  AscendC::DataCopyPad(ub, src[5], one, AscendC::DataCopyPadExtParams<float>{});
  for (uint32_t i = 0; i < 13; ++i) ASSERT_EQ(ub.GetValue(i), gm.as<float>()[5 + i]) << i;
  AscendC::DataCopyExtParams back{1, 13 * sizeof(float), 0, 3, 0};  // dstStride 3 B: unused
  AscendC::DataCopyPad(dst[2], ub, back);
  for (uint32_t i = 0; i < 64; ++i) {
    const float expected = (i >= 2 && i < 15) ? gm.as<float>()[5 + i - 2] : -1.0f;
    ASSERT_EQ(out.as<float>()[i], expected) << i;
  }
  AscendC::DataCopyExtParams two{2, 8 * sizeof(float), 1, 0, 0};
  EXPECT_EQ(
      ErrorOf([&] { AscendC::DataCopyPad(ub, src, two, AscendC::DataCopyPadExtParams<float>{}); }),
      "test: block 0/1: DataCopyPad GM->UB: srcStride 1 B is not a whole number of float");
  AscendC::DataCopyExtParams twoBack{2, 8 * sizeof(float), 0, 2, 0};
  EXPECT_EQ(ErrorOf([&] { AscendC::DataCopyPad(dst, ub, twoBack); }),
            "test: block 0/1: DataCopyPad UB->GM: blockLen 32 B / dstStride 2 B is not a whole "
            "number of float");
}

TEST(DataCopyPad, GmToUbWithLeftAndRightPadding) {
  CoreFixture f;
  HalfGm src(64);
  auto ub = f.Take<half>(64);
  MarkUb(ub);
  // Per row: 2 pad, 7 data, 3 pad = 12 half (24 B) -> rows 32 B apart; dstStride adds one block.
  AscendC::DataCopyExtParams params(2, 14, 0, 1, 0);
  AscendC::DataCopyPadExtParams<half> pad(true, 2, 3, half(9.0f));
  AscendC::DataCopyPad(ub, src.gm, params, pad);
  for (uint32_t i = 0; i < 64; ++i) {
    const uint32_t row = i / 32, col = i % 32;
    float expected = float(kUbMark);
    if (row < 2 && col < 2) expected = 9.0f;
    if (row < 2 && col >= 2 && col < 9) expected = float(row * 7 + (col - 2) + 1);
    if (row < 2 && col >= 9 && col < 16) expected = 9.0f;  // right pad, then dummy (isPad)
    ASSERT_EQ(float(ub.GetValue(i)), expected) << i;
  }
}

TEST(DataCopyPad, GmToUbFloatWithTheOlderParamSpelling) {
  CoreFixture f;
  DeviceBuffer gm_buf(64 * sizeof(float));
  for (uint32_t i = 0; i < 64; ++i) gm_buf.as<float>()[i] = float(i) + 0.25f;
  AscendC::GlobalTensor<float> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gm_buf.gm()), 64);
  auto ub = f.Take<float>(16);
  for (uint32_t i = 0; i < 16; ++i) ub.SetValue(i, -1.0f);
  // blockLen 12 B (3 floats); right padding of 5 with 0.0 fills the 32 B block.
  AscendC::DataCopyPad(ub, gm[5], AscendC::DataCopyParams(1, 12, 0, 0),
                       AscendC::DataCopyPadParams(true, 0, 5, 0));
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(ub.GetValue(i), float(i + 5) + 0.25f);
  for (uint32_t i = 3; i < 8; ++i) EXPECT_EQ(ub.GetValue(i), 0.0f);
  for (uint32_t i = 8; i < 16; ++i) EXPECT_EQ(ub.GetValue(i), -1.0f);
}

TEST(DataCopyPad, UbToGmWithUnalignedLengthsWritesOnlyTheGivenBytes) {
  CoreFixture f;
  HalfGm dst(64);
  dst.Mark();
  auto ub = f.Take<half>(64);
  for (uint32_t i = 0; i < 64; ++i) ub.SetValue(i, half(float(i)));
  // 3 rows of 7 half from UB rows 32 B apart, written 9 half apart in GM (dstStride 4 B).
  AscendC::DataCopyPad(dst.gm[1], ub, AscendC::DataCopyExtParams(3, 14, 0, 4, 0));
  for (uint32_t i = 0; i < 64; ++i) {
    const bool data = i >= 1 && (i - 1) / 9 < 3 && (i - 1) % 9 < 7;
    if (data) {
      const uint32_t row = (i - 1) / 9, col = (i - 1) % 9;
      ASSERT_EQ(float(dst.buffer.as<half>()[i]), float(row * 16 + col)) << i;
    } else {
      ASSERT_EQ(dst.buffer.as<uint16_t>()[i], kGmMark) << i;
    }
  }
}

TEST(DataCopyPad, UbToGmSingleOddElement) {
  CoreFixture f;
  HalfGm dst(3);
  dst.Mark();
  auto ub = f.Take<half>(16);
  ub.SetValue(0, half(42.0f));
  AscendC::DataCopyPad(dst.gm[1], ub, AscendC::DataCopyExtParams(1, 2, 0, 0, 0));
  EXPECT_EQ(dst.buffer.as<uint16_t>()[0], kGmMark);
  EXPECT_EQ(float(dst.buffer.as<half>()[1]), 42.0f);
  EXPECT_EQ(dst.buffer.as<uint16_t>()[2], kGmMark);
}

}  // namespace
