// The raw-address *Impl forms production kernels call (basic_api_impl.h): a kernel moving rows
// through DataCopyPadGm2UBImpl / DataCopyPadUB2GMImpl / DataCopyGM2UBImpl / DataCopyUB2GMImpl with
// `(__ubuf__ T*)tensor.GetPhyAddr()` pointers, against a scalar reference in half and float with
// odd sizes; TransDataTo5HDImpl with pointer lists; the block reduce / duplicate intrinsics under
// the kernel's mask; every error path with its message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

namespace {

using ascsim_test::Bits;
using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;

// y[r, :] = 3 * x[r, :] + pad for `rows` rows of `cols` elements (cols not a multiple of a block):
// each row comes in with DataCopyPadGm2UBImpl, padded on the right with `pad` up to a block, goes
// out whole (padded) into a row of `padded` elements with DataCopyPadUB2GMImpl. A second pass
// copies y to z block-wise with DataCopyGM2UBImpl / DataCopyUB2GMImpl.
template <class T>
__aicore__ inline void ImplRows(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t rows, uint32_t cols) {
  constexpr uint32_t kPerBlock = 32 / sizeof(T);
  const uint32_t padded = (cols + kPerBlock - 1) / kPerBlock * kPerBlock;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, padded * sizeof(T));
  AscendC::LocalTensor<T> t = buf.Get<T>();
  AscendC::GlobalTensor<T> gx, gy, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), rows * cols);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), rows * padded);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z), rows * padded);
  const uint8_t right = static_cast<uint8_t>(padded - cols);
  for (uint32_t r = 0; r < rows; ++r) {
    AscendC::DataCopyPadGm2UBImpl(
        (__ubuf__ T*)t.GetPhyAddr(), (__gm__ T*)gx[r * cols].GetPhyAddr(),
        AscendC::DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
        AscendC::DataCopyPadExtParams<T>{true, 0, right, T(0)});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::Muls(t, t, T(3), padded);
    AscendC::Adds(t, t, T(1), cols);  // the pad stays 0
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopyPadUB2GMImpl(
        (__gm__ T*)gy[r * padded].GetPhyAddr(), (__ubuf__ T*)t.GetPhyAddr(),
        AscendC::DataCopyParams{1, static_cast<uint16_t>(padded * sizeof(T)), 0, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(0);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
  for (uint32_t r = 0; r < rows; ++r) {
    AscendC::DataCopyGM2UBImpl(
        (__ubuf__ T*)t.GetPhyAddr(), (__gm__ T*)gy[r * padded].GetPhyAddr(),
        AscendC::DataCopyParams{1, static_cast<uint16_t>(padded / kPerBlock), 0, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(0);
    AscendC::DataCopyUB2GMImpl(
        (__gm__ T*)gz[r * padded].GetPhyAddr(), (__ubuf__ T*)t.GetPhyAddr(),
        AscendC::DataCopyParams{1, static_cast<uint16_t>(padded / kPerBlock), 0, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(0);
  }
}

}  // namespace

extern "C" __global__ __aicore__ void impl_rows_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t rows,
                                                     uint32_t cols) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  ImplRows<half>(x, y, z, rows, cols);
}
extern "C" __global__ __aicore__ void impl_rows_float(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                      uint32_t rows, uint32_t cols) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  ImplRows<float>(x, y, z, rows, cols);
}

namespace {

template <class T, class K>
void CheckImplRows(K kernel, uint32_t rows, uint32_t cols) {
  const uint32_t per_block = 32 / sizeof(T);
  const uint32_t padded = (cols + per_block - 1) / per_block * per_block;
  DeviceBuffer x(rows * cols * sizeof(T)), y(rows * padded * sizeof(T)),
      z(rows * padded * sizeof(T));
  std::vector<T> xv(rows * cols);
  for (uint32_t i = 0; i < xv.size(); ++i) xv[i] = T(static_cast<float>(i % 37) - 18.0f);
  std::memcpy(x.gm(), xv.data(), x.bytes());
  ICPU_RUN_KF(kernel, 1, x.gm(), y.gm(), z.gm(), rows, cols);
  const T* yv = reinterpret_cast<const T*>(y.gm());
  const T* zv = reinterpret_cast<const T*>(z.gm());
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < padded; ++c) {
      const double want =
          c < cols ? 3.0 * static_cast<double>(static_cast<float>(xv[r * cols + c])) + 1.0 : 0.0;
      ASSERT_EQ(static_cast<double>(static_cast<float>(yv[r * padded + c])), want) << r << "," << c;
      ASSERT_EQ(Bits(zv[r * padded + c]), Bits(yv[r * padded + c])) << r << "," << c;
    }
  }
}

TEST(BasicApiImpl, DataCopyFormsHalf) {
  CheckImplRows<half>(impl_rows_half, 3, 21);
  CheckImplRows<half>(impl_rows_half, 1, 16);
}
TEST(BasicApiImpl, DataCopyFormsFloat) {
  CheckImplRows<float>(impl_rows_float, 5, 13);
  CheckImplRows<float>(impl_rows_float, 2, 1);
}

// The pointer-list TransDataTo5HDImpl as ge_glu_grad_v2 calls it: 16 rows of 16 half / 8 float
// transposed block-wise.
template <class T>
void CheckTransData() {
  CoreFixture fx;
  auto src = fx.Take<T>(16 * 16), dst = fx.Take<T>(16 * 16);
  std::vector<T> v(256);
  for (uint32_t i = 0; i < 256; ++i) v[i] = T(static_cast<float>(i % 101) - 50.0f);
  for (uint32_t i = 0; i < 256; ++i) src.SetValue(i, v[i]);
  __ubuf__ T* s[16];
  __ubuf__ T* d[16];
  __ubuf__ T* sbase = (__ubuf__ T*)src.GetPhyAddr();
  __ubuf__ T* dbase = (__ubuf__ T*)dst.GetPhyAddr();
  for (int i = 0; i < 16; ++i) {
    s[i] = sbase + i * 16;
    d[i] = dbase + (sizeof(T) == 2 ? i * 16 : (i / 2) * 16 + (i % 2) * 8);
  }
  // half: one repeat (strides 0); float: two repeats of 8 columns, 16 blocks apart in dst.
  const AscendC::TransDataTo5HDParams p =
      sizeof(T) == 2 ? AscendC::TransDataTo5HDParams(false, false, 1, 0, 0)
                     : AscendC::TransDataTo5HDParams(false, false, 2, 16, 1);
  AscendC::TransDataTo5HDImpl<T>(d, s, p);
  if constexpr (sizeof(T) == 2) {
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) ASSERT_EQ(Bits(dst.GetValue(i * 16 + j)), Bits(v[j * 16 + i]));
  } else {
    // float: dst[c * 16 + r] = src[r * 16 + c] for the 16 rows and 16 columns.
    for (int c = 0; c < 16; ++c)
      for (int r = 0; r < 16; ++r)
        ASSERT_EQ(Bits(dst.GetValue(c * 16 + r)), Bits(v[r * 16 + c])) << c << "," << r;
  }
}
TEST(BasicApiImpl, TransDataTo5HDPointerListsHalf) { CheckTransData<half>(); }
TEST(BasicApiImpl, TransDataTo5HDPointerListsFloat) { CheckTransData<float>(); }

// BlockReduce{Max,Sum,Min}IntrinsicsImpl and DuplicateIntrinsicsImpl under the mask the kernel set,
// as moe_gating_top_k_softmax_perf (counter mode) and mc2_nd_to_nz write them, against scalar
// references: each 32-byte block of src reduced to one value; the first n elements duplicated.
template <class T>
void CheckReduceDupIntrinsics() {
  constexpr uint32_t kPerBlock = 32 / sizeof(T);
  constexpr uint32_t kBlocks = 13;  // a repeat and 5 blocks in counter mode
  CoreFixture fx;
  auto src = fx.Take<T>(2 * 8 * kPerBlock), dst = fx.Take<T>(2 * 8 * kPerBlock);
  std::vector<float> v(2 * 8 * kPerBlock);
  for (uint32_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<float>((i * 37 + 11) % 97) - 48.0f;
    src.SetValue(i, T(v[i]));
  }
  // Counter mode: the first kBlocks blocks, one result per block, results contiguous.
  AscendC::AscendCUtils::SetMaskCount<T>();
  AscendC::SetVectorMask<T, AscendC::MaskMode::COUNTER>(0, kBlocks * kPerBlock);
  AscendC::BlockReduceMaxIntrinsicsImpl((__ubuf__ T*)dst.GetPhyAddr(), (__ubuf__ T*)src.GetPhyAddr(),
                                        1, 1, 1, 8);
  AscendC::AscendCUtils::SetMaskNorm<T>();
  for (uint32_t b = 0; b < kBlocks; ++b) {
    float want = v[b * kPerBlock];
    for (uint32_t j = 1; j < kPerBlock; ++j) want = std::max(want, v[b * kPerBlock + j]);
    ASSERT_EQ(static_cast<float>(dst.GetValue(b)), want) << b;
  }
  // Normal mode, two repeats of 8 blocks with the first 2 elements of each block masked in.
  uint64_t low = 0;
  for (uint32_t b = 0; b < 8; ++b) low |= uint64_t{3} << (b * kPerBlock % 64);
  const uint64_t high = sizeof(T) == 2 ? low : 0;
  AscendC::SetVectorMask<T>(sizeof(T) == 2 ? high : 0, sizeof(T) == 2 ? low : 0x0303030303030303ull);
  AscendC::BlockReduceSumIntrinsicsImpl((__ubuf__ T*)dst.GetPhyAddr(),
                                        (__ubuf__ T*)src.GetPhyAddr(), 2, 1, 1, 8);
  AscendC::BlockReduceMinIntrinsicsImpl((__ubuf__ T*)dst[16].GetPhyAddr(),
                                        (__ubuf__ T*)src.GetPhyAddr(), 2, 1, 1, 8);
  for (uint32_t b = 0; b < 16; ++b) {
    const float a0 = v[b * kPerBlock], a1 = v[b * kPerBlock + 1];
    ASSERT_EQ(static_cast<float>(dst.GetValue(b)), static_cast<float>(T(a0 + a1))) << b;
    ASSERT_EQ(static_cast<float>(dst.GetValue(16 + b)), std::min(a0, a1)) << b;
  }
  // Duplicate of 3 blocks and 1 element (counter mode) over a filled tensor.
  AscendC::AscendCUtils::SetMaskCount<T>();
  const uint32_t n = 3 * kPerBlock + 1;
  AscendC::SetVectorMask<T, AscendC::MaskMode::COUNTER>(0, n);
  AscendC::DuplicateIntrinsicsImpl((__ubuf__ T*)src.GetPhyAddr(), T(7), 1, 1, 8);
  AscendC::AscendCUtils::SetMaskNorm<T>();
  for (uint32_t i = 0; i < 8 * kPerBlock; ++i) {
    ASSERT_EQ(static_cast<float>(src.GetValue(i)), i < n ? 7.0f : static_cast<float>(T(v[i]))) << i;
  }
}
TEST(BasicApiImpl, ReduceAndDuplicateIntrinsicsHalf) { CheckReduceDupIntrinsics<half>(); }
TEST(BasicApiImpl, ReduceAndDuplicateIntrinsicsFloat) { CheckReduceDupIntrinsics<float>(); }

#define EXPECT_HAS(msg, text) EXPECT_NE((msg).find(text), std::string::npos) << (msg)

TEST(BasicApiImpl, IntrinsicsFormsCheckTheirAddresses) {
  CoreFixture fx;
  EXPECT_HAS(ErrorOf([&] {
               AscendC::BlockReduceMaxIntrinsicsImpl((__ubuf__ float*)(uintptr_t)0x3f000,
                                                     (__ubuf__ float*)(uintptr_t)0x3f000, 1, 1, 1,
                                                     8);
             }),
             "BlockReduceMaxIntrinsicsImpl: dst UB address 0x3f000 lies in no buffer of this "
             "core's TPipe");
  EXPECT_HAS(ErrorOf([&] {
               AscendC::DuplicateIntrinsicsImpl((__ubuf__ half*)(uintptr_t)0x3f000, half(0), 1, 1,
                                                8);
             }),
             "DuplicateIntrinsicsImpl: dst UB address 0x3f000 lies in no buffer");
}

TEST(BasicApiImpl, Misuse) {
  CoreFixture fx;
  auto t = fx.Take<float>(64);
  DeviceBuffer g(256);
  const AscendC::DataCopyParams p{1, 1, 0, 0};
  // An address past every buffer of the pipe.
  EXPECT_HAS(ErrorOf([&] {
               AscendC::DataCopyGM2UBImpl((__ubuf__ float*)(uintptr_t)0x3f000,
                                          reinterpret_cast<__gm__ float*>(g.gm()), p);
             }),
             "DataCopyGM2UBImpl: dst UB address 0x3f000 lies in no buffer of this core's TPipe");
  // Half a float into its buffer.
  EXPECT_HAS(ErrorOf([&] {
               AscendC::DataCopyUB2GMImpl(reinterpret_cast<__gm__ float*>(g.gm()),
                                          (__ubuf__ float*)(uintptr_t)(t.GetPhyAddr() + 2), p);
             }),
             "is not a whole number of 4-byte elements into its buffer");
  // The public API's own checks still apply (a 32-byte-unaligned UB start).
  EXPECT_HAS(ErrorOf([&] {
               AscendC::DataCopyGM2UBImpl((__ubuf__ float*)t.GetPhyAddr() + 1,
                                          reinterpret_cast<__gm__ float*>(g.gm()), p);
             }),
             "DataCopy");
}

TEST(BasicApiImpl, FreedBufferIsRefused) {
  CoreFixture fx;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
  fx.pipe().InitBuffer(q, 1, 256);
  AscendC::LocalTensor<float> t = q.AllocTensor<float>();
  const uint64_t addr = t.GetPhyAddr();
  q.FreeTensor(t);
  DeviceBuffer g(256);
  EXPECT_HAS(ErrorOf([&] {
               AscendC::DataCopyPadUB2GMImpl(reinterpret_cast<__gm__ float*>(g.gm()),
                                             (__ubuf__ float*)(uintptr_t)addr,
                                             AscendC::DataCopyExtParams{1, 8, 0, 0, 0});
             }),
             "which is not allocated (AllocTensor it first)");
}

}  // namespace
