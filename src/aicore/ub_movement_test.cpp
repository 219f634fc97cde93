// Gather, TransDataTo5HD, Transpose and the mask/repeat Copy (ub_movement.h) against scalar references, with their
// error paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ascsim_test::Warnings;

// ---------------------------------------------------------------- Gather

template <class T>
void CheckGatherCount(uint32_t n, uint32_t src_n, uint32_t base_elems) {
  CoreFixture fx;
  auto src = fx.Take<T>(src_n), dst = fx.Take<T>(n);
  auto off = fx.Take<uint32_t>(n);
  const auto v = RandomVector<T>(src_n, -50, 50, 21);
  Fill(src, v);
  std::vector<uint32_t> o(n);
  std::mt19937 rng(n);
  for (uint32_t i = 0; i < n; ++i) o[i] = (rng() % (src_n - base_elems)) * sizeof(T);
  Fill(off, o);
  AscendC::Gather(dst, src, off, base_elems * uint32_t(sizeof(T)), n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(v[base_elems + o[i] / sizeof(T)])) << i;
  }
  EXPECT_EQ(Warnings(fx), "");
}
TEST(UbGather, CountFormBothTypesOddSizes) {
  CheckGatherCount<float>(1, 8, 0);
  CheckGatherCount<float>(333, 1000, 5);
  CheckGatherCount<half>(129, 64, 0);
  CheckGatherCount<half>(4097, 300, 16);
  CheckGatherCount<int32_t>(65, 70, 2);
}

template <class T>
void CheckGatherMask(bool bitwise) {
  CoreFixture fx;
  constexpr uint32_t per = 256 / sizeof(T);
  const uint32_t reps = 3, stride = 10;  // dst repeats 10 blocks apart
  auto src = fx.Take<T>(512), dst = fx.Take<T>(stride * 32 / sizeof(T) * reps);
  auto off = fx.Take<uint32_t>(per * reps);
  const auto v = RandomVector<T>(512, -50, 50, 22);
  Fill(src, v);
  const uint32_t dn = stride * 32 / sizeof(T) * reps;
  Fill(dst, std::vector<T>(dn, T(-1)));
  std::vector<uint32_t> o(per * reps);
  for (uint32_t i = 0; i < o.size(); ++i) o[i] = ((i * 7919) % 512) * sizeof(T);
  Fill(off, o);
  uint64_t mask[2] = {0xF0F00000FFFF0001ull, sizeof(T) == 2 ? 0x0000000100000003ull : 0};
  const uint32_t cont = per - 5;
  if (bitwise)
    AscendC::Gather(dst, src, off, 0, mask, reps, stride);
  else
    AscendC::Gather(dst, src, off, 0, uint64_t{cont}, reps, stride);
  std::vector<T> want(dn, T(-1));
  for (uint32_t r = 0; r < reps; ++r)
    for (uint32_t e = 0; e < per; ++e) {
      const bool on = bitwise ? ((mask[e / 64] >> (e % 64)) & 1) : e < cont;
      if (on) want[r * stride * 32 / sizeof(T) + e] = v[o[r * per + e] / sizeof(T)];
    }
  for (uint32_t i = 0; i < dn; ++i) ASSERT_EQ(Bits(dst.GetValue(i)), Bits(want[i])) << i;
}
TEST(UbGather, MaskFormBothMaskModes) {
  CheckGatherMask<float>(false);
  CheckGatherMask<float>(true);
  CheckGatherMask<half>(false);
  CheckGatherMask<half>(true);
}

TEST(UbGather, InPlaceReadsTheSourceBeforeWriting) {
  // add_rms_norm's pattern: each of 8 values broadcast to the 8 floats of its block, in place.
  CoreFixture fx;
  auto t = fx.Take<float>(128);
  auto off = fx.Take<uint32_t>(128);
  std::vector<float> v(128);
  std::iota(v.begin(), v.end(), 0.0f);
  Fill(t, v);
  std::vector<uint32_t> o(128);
  for (uint32_t i = 0; i < 128; ++i) o[i] = (i / 8) * 4;
  Fill(off, o);
  AscendC::Gather(t, t, off, 0u, 128);
  for (uint32_t i = 0; i < 128; ++i) ASSERT_EQ(t.GetValue(i), float(i / 8)) << i;
}

TEST(UbGather, Errors) {
  CoreFixture fx;
  auto src = fx.Take<float>(64), dst = fx.Take<float>(64);
  auto off = fx.Take<uint32_t>(64);
  Fill(off, std::vector<uint32_t>(64, 0));
  off.SetValue(9, 256);
  EXPECT_EQ(ErrorOf([&] { AscendC::Gather(dst, src, off, 0u, 64); }),
            "test: block 0/1: Gather: srcOffset[9] = 256 B (+ srcBaseAddr 0) reads past src (256 B "
            "of float)");
  off.SetValue(9, 6);
  AscendC::Gather(dst, src, off, 0u, 64);
  EXPECT_NE(Warnings(fx).find("Gather: srcOffset 6 B + srcBaseAddr 0 B is not a multiple of the "
                              "element size 4"),
            std::string::npos);
  off.SetValue(9, 0);
  EXPECT_EQ(ErrorOf([&] { AscendC::Gather(dst, src, off, 2u, 64); }),
            "test: block 0/1: Gather: srcBaseAddr 2 B must lie inside src (256 B) and be a "
            "multiple of the element size 4");
  EXPECT_EQ(ErrorOf([&] { AscendC::Gather(dst, src, off, 0u, 65); }),
            "test: block 0/1: Gather: dst [0, 65) of float exceeds LocalTensor size 64");
}

TEST(UbGather, RepeatCountWrapsLikeTheDevice) {
  CoreFixture fx(192 * 1024 - 32);
  const uint32_t n = 256 * 64 + 3;  // 256 float repeats + 3: the device's uint8_t count wraps to 0
  auto src = fx.Take<float>(8), dst = fx.Take<float>(n);
  auto off = fx.Take<uint32_t>(n);
  Fill(src, std::vector<float>(8, 5.0f));
  for (uint32_t i = 0; i < n; ++i) off.SetValue(i, 0);
  dst.SetValue(0, -1.0f);
  AscendC::Gather(dst, src, off, 0u, n);
  EXPECT_EQ(dst.GetValue(0), -1.0f);     // repeats skipped
  EXPECT_EQ(dst.GetValue(n - 1), 5.0f);  // tail done
  EXPECT_NE(Warnings(fx).find("the device keeps the repeat count in 8 bits and gathers only 0 of "
                              "them plus the tail"),
            std::string::npos);
}

// ---------------------------------------------------------------- TransDataTo5HD

TEST(UbTransData, B16BlockTransposeFromAddressLists) {
  CoreFixture fx;
  auto src = fx.Take<half>(256), dst = fx.Take<half>(256);
  const auto v = RandomVector<half>(256, -9, 9, 31);
  Fill(src, v);
  uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    s[i] = src[i * 16].GetPhyAddr();
    d[i] = dst[i * 16].GetPhyAddr();
  }
  AscendC::TransDataTo5HDParams p(false, false, 1, 0, 0);
  AscendC::TransDataTo5HD<half>(d, s, p);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) ASSERT_EQ(Bits(dst.GetValue(i * 16 + j)), Bits(v[j * 16 + i]));
  EXPECT_EQ(Warnings(fx), "");
}

// avg_pool3_d_grad's TransposeBase16M8: float [row, col] -> [col, row], rows a multiple of 16.
TEST(UbTransData, B32TransposeAsProductionKernelsUseIt) {
  CoreFixture fx;
  const uint32_t rows = 32, cols = 24;
  auto src = fx.Take<float>(rows * cols), dst = fx.Take<float>(rows * cols);
  const auto v = RandomVector<float>(rows * cols, -9, 9, 32);
  Fill(src, v);
  AscendC::TransDataTo5HDParams p;
  p.repeatTimes = cols / 8;
  p.srcRepStride = 1;
  p.dstRepStride = rows;
  for (uint32_t r = 0; r < rows / 16; ++r) {
    uint64_t s[16], d[16];
    for (uint32_t i = 0; i < 16; ++i) {
      s[i] = src[r * 16 * cols + i * cols].GetPhyAddr();
      d[i] = dst[r * 16 + i / 2 * rows + i % 2 * 8].GetPhyAddr();
    }
    AscendC::TransDataTo5HD<float>(d, s, p);
  }
  for (uint32_t c = 0; c < cols; ++c)
    for (uint32_t r = 0; r < rows; ++r) ASSERT_EQ(dst.GetValue(c * rows + r), v[r * cols + c]);
}

TEST(UbTransData, NchwToNc1hwc0WithRepeatsAndTensorLists) {
  // The documented NCHW -> NC1HWC0 example for one n: C = 32, H = W = 16, C0 = 16.
  CoreFixture fx;
  const uint32_t c = 32, hw = 256;
  auto src = fx.Take<half>(c * hw), dst = fx.Take<half>(c * hw);
  const auto v = RandomVector<half>(c * hw, -9, 9, 33);
  Fill(src, v);
  AscendC::TransDataTo5HDParams p(false, false, hw / 16, 16, 1);
  for (uint32_t c1 = 0; c1 < 2; ++c1) {
    AscendC::LocalTensor<half> dl[16], sl[16];
    for (uint32_t i = 0; i < 16; ++i) {
      sl[i] = src[(c1 * 16 + i) * hw];
      dl[i] = dst[c1 * hw * 16 + i * 16];
    }
    AscendC::TransDataTo5HD<half>(dl, sl, p);
  }
  for (uint32_t c1 = 0; c1 < 2; ++c1)
    for (uint32_t x = 0; x < hw; ++x)
      for (uint32_t c0 = 0; c0 < 16; ++c0)
        ASSERT_EQ(Bits(dst.GetValue((c1 * hw + x) * 16 + c0)), Bits(v[(c1 * 16 + c0) * hw + x]));
}

TEST(UbTransData, B8HalvesAndAddressTensors) {
  CoreFixture fx;
  auto src = fx.Take<int8_t>(512), dst = fx.Take<int8_t>(512);
  auto dl = fx.Take<uint64_t>(16), sl = fx.Take<uint64_t>(16);
  std::vector<int8_t> v(512);
  for (uint32_t i = 0; i < 512; ++i) v[i] = int8_t(i * 7 + 3);
  Fill(src, v);
  Fill(dst, std::vector<int8_t>(512, 0));
  for (int i = 0; i < 16; ++i) {
    sl.SetValue(i, src[i * 32].GetPhyAddr());
    dl.SetValue(i, dst[i * 32].GetPhyAddr());
  }
  AscendC::TransDataTo5HD<int8_t>(dl, sl, AscendC::TransDataTo5HDParams(true, false, 1, 0, 0));
  AscendC::TransDataTo5HD<int8_t>(dl, sl, AscendC::TransDataTo5HDParams(false, true, 1, 0, 0));
  for (int j = 0; j < 16; ++j)
    for (int k = 0; k < 16; ++k) {
      ASSERT_EQ(dst.GetValue(j * 32 + 16 + k), v[k * 32 + j]);  // high half from low
      ASSERT_EQ(dst.GetValue(j * 32 + k), v[k * 32 + 16 + j]);  // low half from high
    }
}

TEST(UbTransData, SingleRepeatStrideQuirkAndErrors) {
  CoreFixture fx;
  auto src = fx.Take<half>(512), dst = fx.Take<half>(512);
  const auto v = RandomVector<half>(512, -9, 9, 34);
  Fill(src, v);
  uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    s[i] = src[i * 16].GetPhyAddr();
    d[i] = dst[i * 16].GetPhyAddr();
  }
  // One repeat with srcRepStride 16: the device reads 16 blocks past the list.
  AscendC::TransDataTo5HD<half>(d, s, AscendC::TransDataTo5HDParams(false, false, 1, 0, 16));
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      ASSERT_EQ(Bits(dst.GetValue(i * 16 + j)), Bits(v[256 + j * 16 + i]));
  EXPECT_NE(Warnings(fx).find("the device starts that many blocks past the listed addresses"),
            std::string::npos);
  s[3] += 2;
  EXPECT_EQ(ErrorOf([&] {
              AscendC::TransDataTo5HD<half>(d, s, {false, false, 2, 1, 1});
            }),
            "test: block 0/1: TransDataTo5HD: srcList[3] UB address 0x62 is not 32-byte aligned");
  s[3] -= 2;
  EXPECT_EQ(
      ErrorOf([&] {
        AscendC::TransDataTo5HD<half>(d, s, {false, false, 3, 2100, 1});
      }),
      "test: block 0/1: TransDataTo5HD: dstList[0] = UB 0x400 reaches [0x400, 0x21120) over 3 "
      "repeats (repStride 2100 blocks), outside its buffer [0x0, 0x20000)");
  d[5] = s[5] + 32;
  EXPECT_EQ(ErrorOf([&] {
              AscendC::TransDataTo5HD<half>(d, s, {false, false, 2, 1, 1});
            }),
            "test: block 0/1: TransDataTo5HD: dstList UB [0xc0, 0x100) partially overlaps srcList "
            "UB [0xa0, 0xe0)");
}

TEST(UbTransData, AddressInAFreeQueueBufferFaults) {
  CoreFixture fx(64 * 1024);
  AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
  fx.pipe().InitBuffer(q, 1, 1024);
  auto src = fx.Take<half>(256);
  auto t = q.AllocTensor<half>();
  const uint64_t qa = t.GetPhyAddr();
  q.FreeTensor(t);
  uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    s[i] = src[i * 16].GetPhyAddr();
    d[i] = qa + i * 32;
  }
  EXPECT_NE(ErrorOf([&] {
              AscendC::TransDataTo5HD<half>(d, s, {false, false, 1, 0, 0});
            }).find("which is not allocated (AllocTensor it first)"),
            std::string::npos);
}

// ---------------------------------------------------------------- Transpose

TEST(UbTranspose, Block16x16AndNchwNhwc) {
  CoreFixture fx;
  auto a = fx.Take<half>(256), b = fx.Take<half>(256);
  const auto v = RandomVector<half>(256, -9, 9, 41);
  Fill(a, v);
  AscendC::Transpose(b, a);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) ASSERT_EQ(Bits(b.GetValue(i * 16 + j)), Bits(v[j * 16 + i]));
  // [N, C, H, W] = [2, 3, 2, 4] floats -> NHWC and back.
  const uint32_t n = 2, c = 3, h = 2, w = 4, total = n * c * h * w;
  auto x = fx.Take<float>(total), y = fx.Take<float>(total), z = fx.Take<float>(total);
  auto tmp = fx.Take<uint8_t>((2 * c + 1) * 16 * 32);
  const auto vx = RandomVector<float>(total, -9, 9, 42);
  Fill(x, vx);
  AscendC::Transpose(
      y, x, tmp,
      AscendC::TransposeParamsExt(n, c, h, w, AscendC::TransposeType::TRANSPOSE_NCHW2NHWC));
  for (uint32_t b0 = 0; b0 < n; ++b0)
    for (uint32_t ci = 0; ci < c; ++ci)
      for (uint32_t k = 0; k < h * w; ++k)
        ASSERT_EQ(y.GetValue((b0 * h * w + k) * c + ci), vx[(b0 * c + ci) * h * w + k]);
  AscendC::Transpose(
      z, y, tmp,
      AscendC::TransposeParamsExt(n, c, h, w, AscendC::TransposeType::TRANSPOSE_NHWC2NCHW));
  for (uint32_t i = 0; i < total; ++i) ASSERT_EQ(z.GetValue(i), vx[i]) << i;
  // The temporary buffer's documented size.
  auto small = fx.Take<uint8_t>(64);
  EXPECT_EQ(ErrorOf([&] {
              AscendC::Transpose(y, x, small,
                                 AscendC::TransposeParamsExt(
                                     n, c, h, w, AscendC::TransposeType::TRANSPOSE_NCHW2NHWC));
            }),
            "test: block 0/1: Transpose: sharedTmpBuffer [0, 2560) of uint8_t exceeds LocalTensor "
            "size 64");
  EXPECT_NE(ErrorOf([&] {
              AscendC::Transpose(y, x, tmp,
                                 AscendC::TransposeParamsExt(
                                     n, c, h, w, AscendC::TransposeType::TRANSPOSE_ND2ND_ONLY));
            }).find("is not supported by the device's Transpose"),
            std::string::npos);
  EXPECT_EQ(ErrorOf([&] { AscendC::Transpose(b, a[16]); }),
            "test: block 0/1: Transpose: src [0, 256) of half exceeds LocalTensor size 240");
}

template <class T>
void CheckCopy(bool bitwise) {
  CoreFixture fx;
  constexpr uint32_t per_block = 32 / sizeof(T), per_repeat = 256 / sizeof(T);
  const uint32_t n = 4096 / sizeof(T);
  auto src = fx.Take<T>(n), dst = fx.Take<T>(n);
  const auto v = RandomVector<T>(n, -100, 100, 11);
  Fill(src, v);
  Fill(dst, std::vector<T>(n, T(0)));
  // src: blocks 2 apart, repeats 17 blocks apart; dst: blocks 1 apart, repeats 9 apart.
  AscendC::CopyRepeatParams p(1, 2, 9, 17);
  const uint32_t repeats = 3;
  uint64_t mask[2] = {0x00F0F0F0F0F0F0F3ull, sizeof(T) == 2 ? 0x8000000000000001ull : 0};
  const uint32_t cont = per_repeat - 3;
  if (bitwise)
    AscendC::Copy(dst, src, mask, repeats, p);
  else
    AscendC::Copy(dst, src, uint64_t{cont}, repeats, p);
  std::vector<T> want(n, T(0));
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t e = 0; e < per_repeat; ++e) {
      const bool on = bitwise ? ((mask[e / 64] >> (e % 64)) & 1) : e < cont;
      if (!on) continue;
      const uint32_t b = e / per_block, k = e % per_block;
      want[(r * 9 + b * 1) * per_block + k] = v[(r * 17 + b * 2) * per_block + k];
    }
  }
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(Bits(dst.GetValue(i)), Bits(want[i])) << i;
}
TEST(UbCopy, MaskRepeatFormBothMaskModes) {
  CheckCopy<half>(false);
  CheckCopy<half>(true);
  CheckCopy<float>(false);
  CheckCopy<float>(true);
  CheckCopy<int16_t>(true);
  CheckCopy<uint32_t>(false);
}

TEST(UbCopy, Errors) {
  CoreFixture fx;
  auto a = fx.Take<float>(1024), b = fx.Take<float>(64);
  EXPECT_EQ(ErrorOf([&] {
              AscendC::Copy(b, a, 64, 2, {1, 1, 8, 8});
            }),
            "test: block 0/1: Copy: dst reaches byte 512 (2 repeats, blkStride 1, repStride 8) "
            "beyond its LocalTensor of 256 B (64 float)");
  EXPECT_EQ(ErrorOf([&] {
              AscendC::Copy(a, a[8], 64, 1, {1, 1, 8, 8});
            }),
            "test: block 0/1: Copy: dst UB [0x0, 0x100) partially overlaps src UB [0x20, 0x120)");
  EXPECT_EQ(ErrorOf([&] {
              AscendC::Copy(a, a, 64, 1, {1, 1, 4096, 8});
            }),
            "test: block 0/1: Copy: dstRepeatSize 4096 / srcRepeatSize 8 is outside [0, 4095] "
            "(CopyRepeatParams)");
  EXPECT_EQ(ErrorOf([&] {
              AscendC::Copy(a, a[4], 64, 1, {1, 1, 8, 8});
            }),
            "test: block 0/1: Copy: src UB address 0x10 is not 32-byte aligned");
  CoreFixture p310(128 * 1024, "Ascend310P3");
  auto c = p310.Take<float>(64), d = p310.Take<float>(64);
  EXPECT_NE(ErrorOf([&] {
              AscendC::Copy(c, d, 64, 1, {1, 1, 8, 8});
            }).find("Copy: the mask/repeat UB->UB Copy is not available on Ascend310P3"),
            std::string::npos);
}

}  // namespace
