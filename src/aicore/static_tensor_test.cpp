// Static tensor programming: LocalTensor(TPosition, addr, tileSize) and LocalMemAllocator, in
// whole kernels run through ICPU_RUN_KF on several blocks (half and float, odd tile counts)
// against scalar references, and every check with its message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "tikicpulib.h"

namespace {

using ::testing::HasSubstr;

// z = x + y with tensors at fixed UB addresses, double-buffered by hand with SetFlag/WaitFlag
// (the shape of the official static-tensor sample).
template <class T, uint32_t TILE>
void StaticAddBody(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t perBlock) {
  AscendC::GlobalTensor<T> xGm, yGm, zGm;
  const uint32_t off = perBlock * AscendC::GetBlockIdx();
  xGm.SetGlobalBuffer((__gm__ T*)x + off, perBlock);
  yGm.SetGlobalBuffer((__gm__ T*)y + off, perBlock);
  zGm.SetGlobalBuffer((__gm__ T*)z + off, perBlock);
  constexpr uint32_t kBytes = TILE * sizeof(T);
  AscendC::LocalTensor<T> xs[2] = {AscendC::LocalTensor<T>(AscendC::TPosition::VECCALC, 0, TILE),
                                   AscendC::LocalTensor<T>(AscendC::TPosition::VECCALC, kBytes, TILE)};
  AscendC::LocalTensor<T> ys[2] = {
      AscendC::LocalTensor<T>(AscendC::TPosition::VECIN, 2 * kBytes, TILE),
      AscendC::LocalTensor<T>(AscendC::TPosition::VECIN, 3 * kBytes, TILE)};
  AscendC::LocalTensor<T> zs[2] = {
      AscendC::LocalTensor<T>(AscendC::TPosition::VECOUT, 4 * kBytes, TILE),
      AscendC::LocalTensor<T>(AscendC::TPosition::VECOUT, 5 * kBytes, TILE)};
  AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
  AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
  for (uint32_t i = 0; i < perBlock / TILE; ++i) {
    const int b = i % 2;
    const event_t e = b ? EVENT_ID1 : EVENT_ID0;
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(e);
    AscendC::DataCopy(xs[b], xGm[i * TILE], TILE);
    AscendC::DataCopy(ys[b], yGm[i * TILE], TILE);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(e);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(e);
    AscendC::Add(zs[b], xs[b], ys[b], TILE);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(e);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(e);
    AscendC::DataCopy(zGm[i * TILE], zs[b], TILE);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(e);
  }
  AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
}

// z = x * y with tensors from a LocalMemAllocator (default position and a named one).
template <class T, uint32_t TILE>
void AllocatorMulBody(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t perBlock) {
  AscendC::GlobalTensor<T> xGm, yGm, zGm;
  const uint32_t off = perBlock * AscendC::GetBlockIdx();
  xGm.SetGlobalBuffer((__gm__ T*)x + off, perBlock);
  yGm.SetGlobalBuffer((__gm__ T*)y + off, perBlock);
  zGm.SetGlobalBuffer((__gm__ T*)z + off, perBlock);
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  AscendC::LocalTensor<T> xl = ub.Alloc<T, TILE>();
  AscendC::LocalTensor<T> yl = ub.Alloc<AscendC::TPosition::VECIN, T>(TILE);
  AscendC::LocalTensor<T> zl = ub.Alloc<T>(TILE);
  for (uint32_t i = 0; i < perBlock / TILE; ++i) {
    AscendC::DataCopy(xl, xGm[i * TILE], TILE);
    AscendC::DataCopy(yl, yGm[i * TILE], TILE);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Mul(zl, xl, yl, TILE);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm[i * TILE], zl, TILE);
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}

}  // namespace

extern "C" __global__ __aicore__ void static_add_half(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                      uint32_t perBlock) {
  StaticAddBody<half, 128>(x, y, z, perBlock);
}
extern "C" __global__ __aicore__ void static_add_float(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                       uint32_t perBlock) {
  StaticAddBody<float, 64>(x, y, z, perBlock);
}
extern "C" __global__ __aicore__ void allocator_mul_half(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                         uint32_t perBlock) {
  AllocatorMulBody<half, 48>(x, y, z, perBlock);
}
extern "C" __global__ __aicore__ void allocator_mul_float(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                          uint32_t perBlock) {
  AllocatorMulBody<float, 40>(x, y, z, perBlock);
}

namespace {

template <class T, class K>
void RunBinary(K& kernel, uint32_t blocks, uint32_t perBlock, bool mul) {
  const uint32_t n = blocks * perBlock;
  auto* x = static_cast<T*>(AscendC::GmAlloc(n * sizeof(T)));
  auto* y = static_cast<T*>(AscendC::GmAlloc(n * sizeof(T)));
  auto* z = static_cast<T*>(AscendC::GmAlloc(n * sizeof(T)));
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<T>(static_cast<float>(i % 41) * 0.5f - 9.0f);
    y[i] = static_cast<T>(static_cast<float>(i % 13) * 0.25f + 1.0f);
  }
  ICPU_RUN_KF(kernel, blocks, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, perBlock);
  for (uint32_t i = 0; i < n; ++i) {
    // One rounding to T of the exact float64 result, as the vector unit does.
    const double a = static_cast<double>(static_cast<float>(x[i]));
    const double b = static_cast<double>(static_cast<float>(y[i]));
    const T expected = static_cast<T>(static_cast<float>(mul ? a * b : a + b));
    ASSERT_EQ(ascsim_test::Bits(z[i]), ascsim_test::Bits(expected)) << "element " << i;
  }
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
}

TEST(StaticTensor, FixedAddressesDoubleBufferedHalfAndFloat) {
  RunBinary<half>(static_add_half, 3, 128 * 5, false);
  RunBinary<float>(static_add_float, 5, 64 * 3, false);
}

TEST(StaticTensor, LocalMemAllocatorHalfAndFloat) {
  RunBinary<half>(allocator_mul_half, 7, 48 * 3, true);
  RunBinary<float>(allocator_mul_float, 2, 40 * 5, true);
}

TEST(StaticTensor, AllocatorAddressesAdvanceByTheExactBytes) {
  ascsim_test::CoreFixture f;  // its TPipe is unused here
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  EXPECT_EQ(ub.GetCurAddr(), 0u);
  AscendC::LocalTensor<half> a = ub.Alloc<half, 48>();
  EXPECT_EQ(ub.GetCurAddr(), 96u);
  AscendC::LocalTensor<float> b = ub.Alloc<AscendC::TPosition::VECOUT, float>(24);
  EXPECT_EQ(ub.GetCurAddr(), 192u);
  EXPECT_EQ(a.GetPhyAddr(), 0u);
  EXPECT_EQ(b.GetPhyAddr(), 96u);
  EXPECT_EQ(static_cast<AscendC::TPosition>(a.GetPosition()), AscendC::TPosition::VECCALC);
  EXPECT_EQ(static_cast<AscendC::TPosition>(b.GetPosition()), AscendC::TPosition::VECOUT);
  EXPECT_EQ(b.GetSize(), 24u);
  // A second allocator of the same memory in one kernel is refused; another memory is fine.
  try {
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> again;
    ADD_FAILURE() << "a second UB allocator was allowed";
  } catch (const ascsim::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("LocalMemAllocator<Hardware::UB>: a second allocator"));
  }
  AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1;
  AscendC::LocalTensor<half> c = l1.Alloc<half, 512>();
  EXPECT_EQ(static_cast<AscendC::TPosition>(c.GetPosition()), AscendC::TPosition::A1);
  try {
    l1.Alloc<AscendC::TPosition::VECIN, half>(16);
    ADD_FAILURE() << "a VECIN tensor from an L1 allocator was allowed";
  } catch (const ascsim::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("logic pos and hardware pos not matched"));
  }
}

TEST(StaticTensor, ConstructorChecksWithTheirMessages) {
  ascsim_test::CoreFixture f;
  using AscendC::LocalTensor;
  using AscendC::TPosition;
  auto expect_fault = [](auto make, const char* text) {
    try {
      make();
      ADD_FAILURE() << "no fault; expected: " << text;
    } catch (const ascsim::Error& e) {
      EXPECT_THAT(e.what(), HasSubstr(text));
    }
  };
  expect_fault([] { LocalTensor<half>(TPosition::VECCALC, 16, 32); },
               "LocalTensor(TPosition::VECCALC, addr 16, 32 half): addr 16 is not 32-byte aligned");
  expect_fault([] { LocalTensor<half>(TPosition::VECCALC, 0, 0); },
               "the tensor size must be in (0, 98304] elements");
  expect_fault([] { LocalTensor<half>(TPosition::VECCALC, 0, 15); },
               "the tensor length is 30 bytes, not a multiple of 32");
  expect_fault([] { LocalTensor<float>(TPosition::VECCALC, 196608 - 64, 32); },
               "bytes [196544, 196672) exceed the 196608 B of the Unified Buffer");
  expect_fault([] { LocalTensor<float>(TPosition::GM, 0, 8); },
               "the position is Global Memory on Ascend910B1");
  // A tensor at the end of UB is fine, and reads and writes land at its address.
  LocalTensor<float> last(TPosition::VECCALC, 196608 - 32, 8);
  last.SetValue(7, 2.5f);
  LocalTensor<float> same(TPosition::VECOUT, 196608 - 32, 8);
  EXPECT_EQ(same.GetValue(7), 2.5f);
  expect_fault([&] { last.GetValue(8); }, "LocalTensor::GetValue");
}

}  // namespace
