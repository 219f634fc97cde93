// MulAddDst (vector_fused.h) and ListTensorDesc / TensorDesc (list_tensor.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;

template <class T>
void Fill(const AscendC::LocalTensor<T>& t, const std::vector<T>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, v[i]);
}

template <class T, class U>
void CheckMulAddDst(uint32_t n) {
  CoreFixture fx;
  auto d = fx.Take<T>(n);
  auto a = fx.Take<U>(n), b = fx.Take<U>(n);
  const auto vd = RandomVector<T>(n, -3, 3, 1), va = RandomVector<U>(n, -3, 3, 2),
             vb = RandomVector<U>(n, -3, 3, 3);
  Fill(d, vd);
  Fill(a, va);
  Fill(b, vb);
  AscendC::MulAddDst(d, a, b, n - 1);
  for (uint32_t i = 0; i < n; ++i) {
    const T want = i < n - 1 ? T(float(va[i]) * float(vb[i]) + float(vd[i])) : vd[i];
    ASSERT_EQ(Bits(d.GetValue(i)), Bits(want)) << i;
  }
}
TEST(MulAddDst, CountFormSameAndMixedTypes) {
  CheckMulAddDst<float, float>(1001);
  CheckMulAddDst<half, half>(333);
  CheckMulAddDst<float, half>(77);
}

TEST(MulAddDst, FusedMulAddBothTypes) {
  CoreFixture fx;
  auto d = fx.Take<float>(100), a = fx.Take<float>(100), b = fx.Take<float>(100);
  const auto vd = RandomVector<float>(100, -3, 3, 4), va = RandomVector<float>(100, -3, 3, 5),
             vb = RandomVector<float>(100, -3, 3, 6);
  Fill(d, vd);
  Fill(a, va);
  Fill(b, vb);
  AscendC::FusedMulAdd(d, a, b, 99);
  for (uint32_t i = 0; i < 99; ++i) ASSERT_EQ(d.GetValue(i), va[i] * vd[i] + vb[i]) << i;
  EXPECT_EQ(d.GetValue(99), vd[99]);
  auto dh = fx.Take<half>(64), ah = fx.Take<half>(64), bh = fx.Take<half>(64);
  Fill(dh, std::vector<half>(64, half(1.5f)));
  Fill(ah, std::vector<half>(64, half(2.0f)));
  Fill(bh, std::vector<half>(64, half(0.25f)));
  AscendC::FusedMulAdd(dh, ah, bh, 40, 1, {1, 1, 1, 8, 8, 8});
  EXPECT_EQ(float(dh.GetValue(39)), 3.25f);
  EXPECT_EQ(float(dh.GetValue(40)), 1.5f);
}

TEST(MulAddDst, MaskFormAndErrors) {
  CoreFixture fx;
  auto d = fx.Take<float>(256), a = fx.Take<float>(256), b = fx.Take<float>(256);
  Fill(d, std::vector<float>(256, 1.0f));
  Fill(a, std::vector<float>(256, 2.0f));
  Fill(b, std::vector<float>(256, 3.0f));
  AscendC::MulAddDst(d, a, b, 10, 2, {1, 1, 1, 16, 8, 8});
  for (uint32_t i = 0; i < 256; ++i) {
    const bool on = (i % 128) < 10 && i < 256;
    ASSERT_EQ(d.GetValue(i), on ? 7.0f : 1.0f) << i;
  }
  EXPECT_EQ(ErrorOf([&] { AscendC::MulAddDst(d, a, d[4], 8); }),
            "test: block 0/1: MulAddDst: src1 UB address 0x10 is not 32-byte aligned");
  EXPECT_EQ(ErrorOf([&] { AscendC::MulAddDst(d, a, b, 257); }),
            "test: block 0/1: MulAddDst: dst [0, 257) of float exceeds LocalTensor size 256");
}

// A descriptor of three [rows, cols] float tensors in GM, as the framework builds a TensorList.
TEST(ListTensor, DecodesShapesAndPointers) {
  CoreFixture fx;
  DeviceBuffer t0(6 * 4), t1(20 * 4), t2(2 * 4);
  const uint64_t shapes[3][2] = {{2, 3}, {4, 5}, {1, 2}};
  DeviceBuffer desc(13 * 8);
  uint64_t* w = desc.as<uint64_t>();
  w[0] = 8 * (1 + 3 * 3);  // the pointer array follows three (dim, shape, shape) records
  for (uint64_t i = 0; i < 3; ++i) {
    w[1 + 3 * i] = 2 | ((i == 0 ? 3 : i) << 32);
    w[2 + 3 * i] = shapes[i][0];
    w[3 + 3 * i] = shapes[i][1];
  }
  w[10] = reinterpret_cast<uint64_t>(t0.gm());
  w[11] = reinterpret_cast<uint64_t>(t1.gm());
  w[12] = reinterpret_cast<uint64_t>(t2.gm());
  AscendC::ListTensorDesc list(reinterpret_cast<__gm__ void*>(desc.gm()));
  EXPECT_EQ(list.GetSize(), 3u);
  EXPECT_EQ(list.GetDataPtr<float>(1), t1.as<float>());
  uint64_t shape[8];
  AscendC::TensorDesc<float> td;
  td.SetShapeAddr(shape);
  list.GetDesc(td, 1);
  EXPECT_EQ(td.GetDim(), 2u);
  EXPECT_EQ(td.GetIndex(), 1u);
  EXPECT_EQ(td.GetShape(0), 4u);
  EXPECT_EQ(td.GetShape(1), 5u);
  AscendC::GlobalTensor<float> g = td.GetDataObj();
  g.SetValue(19, 1.5f);
  EXPECT_EQ(t1.as<float>()[19], 1.5f);
  // Checked against the descriptor's own size and count.
  AscendC::ListTensorDesc checked;
  checked.Init(reinterpret_cast<__gm__ void*>(desc.gm()), 13 * 8, 3);
  EXPECT_NE(ErrorOf([&] {
              checked.Init(reinterpret_cast<__gm__ void*>(desc.gm()), 13 * 8, 4);
            }).find("do not match the descriptor (3 tensors, 104 B)"),
            std::string::npos);
  EXPECT_EQ(ErrorOf([&] { list.GetDataPtr<float>(3); }),
            "test: block 0/1: ListTensorDesc::GetDataPtr(3): the list holds 3 tensors");
  EXPECT_EQ(ErrorOf([&] { td.GetShape(2); }),
            "test: block 0/1: TensorDesc::GetShape(2): the tensor has 2 dims");
  std::vector<uint64_t> host(13);
  EXPECT_NE(ErrorOf([&] { AscendC::ListTensorDesc bad(host.data()); }).find("is not device memory"),
            std::string::npos);
}

// ---------------------------------------------------------------- old spellings

template <class T>
void CheckOperators() {
  CoreFixture fx;
  constexpr uint32_t n = 256 / sizeof(T) * 2;  // whole 256 B repeats for the comparisons
  auto a = fx.Take<T>(n), b = fx.Take<T>(n), d = fx.Take<T>(n);
  auto m = fx.Take<uint8_t>(n / 8);
  const auto va = RandomVector<T>(n, -4, 4, 7), vb = RandomVector<T>(n, 0.5f, 4, 8);
  Fill(a, va);
  Fill(b, vb);
  d = a + b;
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(Bits(d.GetValue(i)), Bits(T(float(va[i]) + float(vb[i]))));
  d = a - b;
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(Bits(d.GetValue(i)), Bits(T(float(va[i]) - float(vb[i]))));
  d = a * b;
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(Bits(d.GetValue(i)), Bits(T(float(va[i]) * float(vb[i]))));
  d = a / b;
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(Bits(d.GetValue(i)), Bits(T(float(va[i]) / float(vb[i]))));
  m = a < b;
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ((m.GetValue(i / 8) >> (i % 8)) & 1, float(va[i]) < float(vb[i]) ? 1 : 0) << i;
  }
  // dst's size decides the count: a shorter view leaves the rest alone.
  Fill(d, std::vector<T>(n, T(9.0f)));
  AscendC::LocalTensor<T> head = d;
  head.SetSize(16);
  head = a + b;
  EXPECT_EQ(Bits(d.GetValue(15)), Bits(T(float(va[15]) + float(vb[15]))));
  EXPECT_EQ(float(d.GetValue(16)), 9.0f);
}
TEST(OldSpellings, WholeTensorOperators) {
  CheckOperators<float>();
  CheckOperators<half>();
  CoreFixture fx;
  auto x = fx.Take<int16_t>(16), y = fx.Take<int16_t>(16), z = fx.Take<int16_t>(16);
  Fill(x, std::vector<int16_t>(16, 0x0F0F));
  Fill(y, std::vector<int16_t>(16, 0x00FF));
  z = x & y;
  EXPECT_EQ(z.GetValue(3), 0x000F);
  z = x | y;
  EXPECT_EQ(z.GetValue(3), 0x0FFF);
}

TEST(OldSpellings, FlagsBlockIdxAndTik2) {
  CoreFixture fx;
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
  EXPECT_EQ(ErrorOf([] { wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1); }),
            "test: block 0/1: WaitFlag<V_MTE3>(EVENT_ID1) has no matching SetFlag; the device "
            "would hang until the AI-core timeout (507014)");
  EXPECT_NE(ErrorOf([] {
              set_flag(PIPE_S, PIPE_M, EVENT_ID0);
            }).find("set_flag(pipe 0, pipe 2): no hardware event links these pipes"),
            std::string::npos);
  const int64_t b = block_idx;
  EXPECT_EQ(b, 0);
  EXPECT_EQ(int64_t(block_num), 1);
  EXPECT_EQ(100 * block_idx, 0);
  tik2::LocalTensor<float> t = fx.Take<float>(8);
  tik2::Duplicate(t, 2.0f, 8);
  EXPECT_EQ(t.GetValue(7), 2.0f);
}

}  // namespace
