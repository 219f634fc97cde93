// The tensor API (tensor_api/tensor.h, AscendC::Te): layouts' element-to-address maps, slices,
// whole matmul kernels in the shape of asc-devkit's matmul_tensor_api example (GM -> L1 -> L0A /
// L0B -> Mmad -> L0C -> GM, ordered with Mutex) in half, float and int8 with odd shapes against a
// scalar reference, Mutex's ordering as the sanitizer sees it (on the vector pipes: a cube-only
// AIC runs without the sanitizer), and every check with its message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "tensor_api/tensor.h"
#include "tikicpulib.h"

namespace {

using ::testing::HasSubstr;
using namespace AscendC::Te;

// ---- layouts ----

TEST(TensorApiLayout, NzMapsFractalsOf16RowsBy32Bytes) {
  // half: C0 = 16 elements; float: 8. Element (r, c) of an NZ R x C layout sits in column
  // stripe c / C0 (ceil16(R) * C0 elements each), row r, lane c % C0.
  auto half_nz = MakeFrameLayout<NZLayoutPtn>(40, 56);
  auto float_nz = MakeFrameLayout<NZLayoutPtn, float>(40, 24);
  for (uint64_t r = 0; r < 40; ++r) {
    for (uint64_t c = 0; c < 56; ++c) {
      ASSERT_EQ(half_nz(MakeCoord(r, c)),
                static_cast<int64_t>((c / 16) * 48 * 16 + r * 16 + c % 16));
    }
    for (uint64_t c = 0; c < 24; ++c) {
      ASSERT_EQ(float_nz(MakeCoord(r, c)), static_cast<int64_t>((c / 8) * 48 * 8 + r * 8 + c % 8));
    }
  }
  EXPECT_EQ(half_nz.Size(), 48u * 64u);  // padded to whole fractals
  EXPECT_EQ(half_nz.Capacity(), 48u * 64u);
}

TEST(TensorApiLayout, ZnAndNdMaps) {
  // ZN (the L0B form): row stripes of C0 rows; inside one, column c, lane r % C0.
  auto zn = MakeFrameLayout<ZNLayoutPtn>(40, 24);  // C0 16; columns padded to 32
  auto nd = MakeFrameLayout<NDExtLayoutPtn>(7, 13);
  auto dn = MakeFrameLayout<DNLayoutPtn>(7, 13);
  for (uint64_t r = 0; r < 40; ++r) {
    for (uint64_t c = 0; c < 24; ++c) {
      ASSERT_EQ(zn(MakeCoord(r, c)), static_cast<int64_t>((r / 16) * 16 * 32 + c * 16 + r % 16));
    }
  }
  for (uint64_t r = 0; r < 7; ++r) {
    for (uint64_t c = 0; c < 13; ++c) {
      ASSERT_EQ(nd(MakeCoord(r, c)), static_cast<int64_t>(r * 13 + c));
      ASSERT_EQ(dn(MakeCoord(r, c)), static_cast<int64_t>(c * 7 + r));
    }
  }
  EXPECT_EQ(nd.Capacity(), 91u);
}

// ---- a matmul kernel in the example's shape, with static addresses ----

template <typename T>
constexpr uint64_t AlignUp(uint64_t x, uint64_t a) {
  return (x + a - 1) / a * a;
}

// C (M x N, TOut) = A (M x K) * B (K x N); block b computes the baseM x baseN tile
// (b % mIter, b / mIter), K in steps of baseK, accumulating in L0C.
template <typename T, typename TOut, uint32_t M, uint32_t K, uint32_t N, uint32_t baseM,
          uint32_t baseK, uint32_t baseN>
void TeMatmulBody(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  constexpr uint32_t mIter = (M + baseM - 1) / baseM;
  const uint32_t mIdx = AscendC::GetBlockIdx() % mIter;
  const uint32_t nIdx = AscendC::GetBlockIdx() / mIter;
  auto gmA = MakeTensor(MakeMemPtr((__gm__ T*)a), MakeFrameLayout<NDExtLayoutPtn>(M, K));
  auto gmB = MakeTensor(MakeMemPtr((__gm__ T*)b), MakeFrameLayout<NDExtLayoutPtn>(K, N));
  auto gmC = MakeTensor(MakeMemPtr((__gm__ TOut*)c), MakeFrameLayout<NDExtLayoutPtn>(M, N));
  auto globalA = gmA.Slice(MakeCoord(mIdx * baseM, 0u), MakeShape(baseM, K));
  auto globalB = gmB.Slice(MakeCoord(0u, nIdx * baseN), MakeShape(K, baseN));
  auto globalC = gmC.Slice(MakeCoord(mIdx * baseM, nIdx * baseN), MakeShape(baseM, baseN));

  auto l1ALayout = MakeFrameLayout<NZLayoutPtn, T>(baseM, K);
  auto l1BLayout = MakeFrameLayout<NZLayoutPtn, T>(K, baseN);
  const uint64_t l1BAddr = AlignUp<T>(l1ALayout.Capacity() * sizeof(T), 32);
  auto l1A = MakeTensor(MakeMemPtr<Location::L1, T>(0), l1ALayout);
  auto l1B = MakeTensor(MakeMemPtr<Location::L1, T>(l1BAddr), l1BLayout);
  auto l0A = MakeTensor(MakeMemPtr<Location::L0A, T>(0),
                        MakeFrameLayout<NZLayoutPtn, T>(baseM, baseK));
  auto l0B = MakeTensor(MakeMemPtr<Location::L0B, T>(0),
                        MakeFrameLayout<ZNLayoutPtn, T>(baseK, baseN));
  using TAcc = std::conditional_t<std::is_same_v<T, int8_t>, int32_t, float>;
  auto l0C = MakeTensor(MakeMemPtr<Location::L0C, TAcc>(0),
                        MakeFrameLayout<NZLayoutPtn>(baseM, baseN));

  auto copyGM2L1 = MakeCopy(CopyGM2L1{}, CopyGM2L1TraitDefault{});
  auto copyL12L0A = MakeCopy(CopyL12L0A{}, CopyL12L0ATraitDefault{});
  auto copyL12L0B = MakeCopy(CopyL12L0B{}, CopyL12L0BTraitDefault{});
  auto copyL0C2GM = MakeCopy(CopyL0C2GM{}, CopyL0C2GMTraitDefault{});
  auto mmad = MakeMmad(MmadOperation{}, MmadTraitDefault{});

  constexpr uint32_t kL1 = 0, kL0 = 1, kL0C = 2;
  const uint32_t rows = std::min(baseM, M - mIdx * baseM);
  const uint32_t cols = std::min(baseN, N - nIdx * baseN);
  AscendC::Mutex::Lock<PIPE_M>(kL0C);
  AscendC::Mutex::Lock<PIPE_MTE2>(kL1);
  Copy(copyGM2L1, l1A, globalA);
  Copy(copyGM2L1, l1B, globalB);
  AscendC::Mutex::Unlock<PIPE_MTE2>(kL1);
  AscendC::Mutex::Lock<PIPE_MTE1>(kL1);
  for (uint32_t k0 = 0; k0 < K; k0 += baseK) {
    AscendC::Mutex::Lock<PIPE_MTE1>(kL0);
    Copy(copyL12L0A, l0A, l1A.Slice(MakeCoord(0u, k0), MakeShape(baseM, baseK)));
    Copy(copyL12L0B, l0B, l1B.Slice(MakeCoord(k0, 0u), MakeShape(baseK, baseN)));
    AscendC::Mutex::Unlock<PIPE_MTE1>(kL0);
    AscendC::Mutex::Lock<PIPE_M>(kL0);
    const uint32_t kk = std::min(baseK, K - k0);
    MmadParams para{static_cast<uint16_t>(rows), static_cast<uint16_t>(cols),
                    static_cast<uint16_t>(kk), 0, k0 == 0};
    Mmad(mmad.with(para), l0C, l0A, l0B);
    AscendC::Mutex::Unlock<PIPE_M>(kL0);
  }
  AscendC::Mutex::Unlock<PIPE_MTE1>(kL1);
  AscendC::Mutex::Unlock<PIPE_M>(kL0C);
  AscendC::Mutex::Lock<PIPE_FIX>(kL0C);
  Copy(copyL0C2GM, globalC, l0C);
  AscendC::Mutex::Unlock<PIPE_FIX>(kL0C);
  AscendC::PipeBarrier<PIPE_ALL>();
}

}  // namespace

// 96 x 80 x 64 in 48 x 32 x 32 tiles (K's last step is 16); 40 x 24 x 40 in float with 40-row
// tiles (NZ pads them to 48) and a 16-column N tail; int8 into int32.
extern "C" __global__ __cube__ void te_matmul_half(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  TeMatmulBody<half, half, 96, 80, 64, 48, 32, 32>(a, b, c);
}
extern "C" __global__ __cube__ void te_matmul_float(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  TeMatmulBody<float, float, 40, 24, 40, 40, 16, 24>(a, b, c);
}
extern "C" __global__ __cube__ void te_matmul_int8(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  TeMatmulBody<int8_t, int32_t, 32, 96, 48, 32, 64, 48>(a, b, c);
}

// B goes straight into a ZN layout in L1 (gm_to_l1 nd2zn.h) and on ZN -> ZN into L0B
// (l1_to_l0b zn2zn.h); bfloat16_t inputs, float out: C (16 x 24) = A (16 x 40) * B (40 x 24).
extern "C" __global__ __cube__ void te_matmul_zn_bf16(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  using T = bfloat16_t;
  auto gmA = MakeTensor(MakeMemPtr((__gm__ T*)a), MakeFrameLayout<NDLayoutPtn>(16, 40));
  auto gmB = MakeTensor(MakeMemPtr((__gm__ T*)b), MakeFrameLayout<NDLayoutPtn>(40, 24));
  auto gmC = MakeTensor(MakeMemPtr((__gm__ float*)c), MakeFrameLayout<NDLayoutPtn>(16, 24));
  auto l1A = MakeTensor(MakeMemPtr<Location::L1, T>(0), MakeFrameLayout<NZLayoutPtn, T>(16, 40));
  auto l1B =
      MakeTensor(MakeMemPtr<Location::L1, T>(4096), MakeFrameLayout<ZNLayoutPtn, T>(40, 24));
  auto l0A = MakeTensor(MakeMemPtr<Location::L0A, T>(0), MakeFrameLayout<NZLayoutPtn, T>(16, 40));
  auto l0B = MakeTensor(MakeMemPtr<Location::L0B, T>(0), MakeFrameLayout<ZNLayoutPtn, T>(40, 24));
  auto l0C = MakeTensor(MakeMemPtr<Location::L0C, float>(0), MakeFrameLayout<NZLayoutPtn>(16, 24));
  AscendC::Mutex::Lock<PIPE_MTE2>(0);
  Copy(MakeCopy(CopyGM2L1{}), l1A, gmA);
  Copy(MakeCopy(CopyGM2L1{}), l1B, gmB);
  AscendC::Mutex::Unlock<PIPE_MTE2>(0);
  AscendC::Mutex::Lock<PIPE_MTE1>(0);
  Copy(MakeCopy(CopyL12L0A{}), l0A, l1A);
  Copy(MakeCopy(CopyL12L0B{}), l0B, l1B);
  AscendC::Mutex::Unlock<PIPE_MTE1>(0);
  AscendC::Mutex::Lock<PIPE_M>(0);
  Mmad(MakeMmad(MmadOperation{}).with(MmadParams{16, 24, 40, 0, true}), l0C, l0A, l0B);
  AscendC::Mutex::Unlock<PIPE_M>(0);
  AscendC::Mutex::Lock<PIPE_FIX>(0);
  Copy(MakeCopy(CopyL0C2GM{}), gmC, l0C);
  AscendC::Mutex::Unlock<PIPE_FIX>(0);
}

namespace {

template <typename T, typename TOut, typename K>
void RunMatmul(K& kernel, uint32_t m, uint32_t k, uint32_t n, uint32_t blocks, uint32_t seed) {
  auto* a = static_cast<T*>(AscendC::GmAlloc(m * k * sizeof(T)));
  auto* b = static_cast<T*>(AscendC::GmAlloc(k * n * sizeof(T)));
  auto* c = static_cast<TOut*>(AscendC::GmAlloc(m * n * sizeof(TOut)));
  // Small integers: every product and sum is exact in float, so the reference is exact.
  const auto av = ascsim_test::RandomVector<int32_t>(m * k, -3, 3, seed);
  const auto bv = ascsim_test::RandomVector<int32_t>(k * n, -3, 3, seed + 1);
  for (uint32_t i = 0; i < m * k; ++i) a[i] = static_cast<T>(static_cast<float>(av[i]));
  for (uint32_t i = 0; i < k * n; ++i) b[i] = static_cast<T>(static_cast<float>(bv[i]));
  ICPU_RUN_KF(kernel, blocks, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      int64_t want = 0;
      for (uint32_t p = 0; p < k; ++p) want += int64_t{av[i * k + p]} * bv[p * n + j];
      ASSERT_EQ(static_cast<double>(static_cast<float>(c[i * n + j])), static_cast<double>(want))
          << "C(" << i << ", " << j << ")";
    }
  }
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
}

TEST(TensorApiMatmul, HalfOddTilesAgainstScalarReference) {
  RunMatmul<half, half>(te_matmul_half, 96, 80, 64, 4, 11);
}

TEST(TensorApiMatmul, FloatPaddedRowsAndNTail) {
  RunMatmul<float, float>(te_matmul_float, 40, 24, 40, 2, 12);
}

TEST(TensorApiMatmul, Bfloat16ThroughZnInL1) {
  RunMatmul<bfloat16_t, float>(te_matmul_zn_bf16, 16, 40, 24, 1, 14);
}

TEST(TensorApiMatmul, Int8IntoInt32) {
  RunMatmul<int8_t, int32_t>(te_matmul_int8, 32, 96, 48, 1, 13);
}

// ---- Mutex and the sanitizer ----

// The docs' Mutex example (核内同步/Lock.md) on one tile: MTE2 copies in, V computes, MTE3 copies
// out, each stage under Lock/Unlock of one id (`sync`), or with nothing between them.
void MutexPipelineBody(GM_ADDR x, GM_ADDR z, bool sync) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * 256 * sizeof(float));
  AscendC::GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, 256);
  zGm.SetGlobalBuffer((__gm__ float*)z, 256);
  AscendC::LocalTensor<float> xLocal = buf.Get<float>();
  AscendC::LocalTensor<float> zLocal = xLocal[256];
  const AscendC::MutexID id = AscendC::AllocMutexID();
  if (sync) AscendC::Mutex::Lock<PIPE_MTE2>(id);
  AscendC::DataCopy(xLocal, xGm, 256);
  if (sync) {
    AscendC::Mutex::Unlock<PIPE_MTE2>(id);
    AscendC::Mutex::Lock<PIPE_V>(id);
  }
  AscendC::Muls(zLocal, xLocal, 2.0f, 256);
  if (sync) {
    AscendC::Mutex::Unlock<PIPE_V>(id);
    AscendC::Mutex::Lock<PIPE_MTE3>(id);
  }
  AscendC::DataCopy(zGm, zLocal, 256);
  if (sync) AscendC::Mutex::Unlock<PIPE_MTE3>(id);
  AscendC::ReleaseMutexID(id);
}

TEST(TensorApiMutex, UnlockThenLockOrdersThePipesForTheRaceCheck) {
  ascsim_test::DeviceBuffer x(256 * 4), z(256 * 4);
  std::vector<float> in(256);
  for (int i = 0; i < 256; ++i) in[i] = static_cast<float>(i % 17) - 5.0f;
  std::memcpy(x.gm(), in.data(), x.bytes());
  const auto racy = ascsim_test::LaunchSanitized("mutex_pipeline", 1, ascsim::kSanitizeAll,
                                                 [&] { MutexPipelineBody(x.gm(), z.gm(), false); });
  EXPECT_THAT(racy.message,
              HasSubstr("race: V Muls (call 6) reads src UB [0x0, 0x400) of the VECCALC TBuf, "
                        "which MTE2 DataCopy GM->UB (call 5) wrote"));
  const auto ok = ascsim_test::LaunchSanitized("mutex_pipeline", 1, ascsim::kSanitizeAll,
                                               [&] { MutexPipelineBody(x.gm(), z.gm(), true); });
  EXPECT_EQ(ok.message, "");  // and an Unlock no Lock waits for is no "never waited" finding
  for (int i = 0; i < 256; ++i) ASSERT_EQ(z.as<float>()[i], 2.0f * in[i]) << i;
}

TEST(TensorApiMutex, MisuseFailsWithItsMessage) {
  auto fault = [](std::function<void()> body) {
    return ascsim_test::FaultOf("mutex", 1, std::move(body));
  };
  EXPECT_THAT(fault([] { AscendC::Mutex::Unlock<PIPE_V>(3); }),
              HasSubstr("Mutex::Unlock<PIPE_V>(3): the MutexID is not locked"));
  EXPECT_THAT(fault([] {
                AscendC::Mutex::Lock<PIPE_V>(3);
                AscendC::Mutex::Unlock<PIPE_MTE3>(3);
              }),
              HasSubstr("Mutex::Unlock<PIPE_MTE3>(3): the MutexID is held by PIPE_V"));
  EXPECT_THAT(fault([] {
                AscendC::Mutex::Lock<PIPE_V>(3);
                AscendC::Mutex::Lock<PIPE_V>(3);
              }),
              HasSubstr("PIPE_V holds this MutexID already"));
  EXPECT_THAT(fault([] {
                AscendC::Mutex::Lock<PIPE_MTE2>(5);
                AscendC::Mutex::Lock<PIPE_V>(5);
              }),
              HasSubstr("Mutex::Lock<PIPE_V>(5): PIPE_MTE2 still holds this MutexID"));
  EXPECT_THAT(fault([] { AscendC::Mutex::Lock<PIPE_V>(28); }),
              HasSubstr("Mutex::Lock<PIPE_V>(28): the MutexID must be in [0, 27]"));
  EXPECT_THAT(fault([] { AscendC::Mutex::Lock<PIPE_ALL>(1); }),
              HasSubstr("Mutex::Lock<PIPE_ALL>(1): the pipe must be one of"));
  EXPECT_THAT(fault([] { AscendC::Mutex::Lock<PIPE_FIX>(2); }),
              HasSubstr("Mutex::Lock<PIPE_FIX>(2) was never unlocked by the end of the kernel"));
  EXPECT_THAT(fault([] {
                for (int i = 0; i < 29; ++i) AscendC::AllocMutexID();
              }),
              HasSubstr("AllocMutexID: all 28 MutexIDs are taken"));
  EXPECT_THAT(fault([] { AscendC::ReleaseMutexID(27); }),
              HasSubstr("ReleaseMutexID(27): the id must be in [0, 27)"));
  EXPECT_EQ(fault([] {
              EXPECT_EQ(AscendC::AllocMutexID(), 0);
              EXPECT_EQ(AscendC::AllocMutexID(), 1);
              AscendC::ReleaseMutexID(0);
              EXPECT_EQ(AscendC::AllocMutexID(), 0);
              AscendC::Mutex::Lock<PIPE_V>(0);
              AscendC::Mutex::Unlock<PIPE_V>(0);
              AscendC::Mutex::Lock<PIPE_V>(0);  // the same pipe again: allowed, no wait
              AscendC::Mutex::Unlock<PIPE_V>(0);
            }),
            "");
}

// ---- checks ----

std::string CubeFault(std::function<void()> body) {
  return ascsim_test::FaultOf("te_checks", 1, std::move(body));
}

TEST(TensorApiChecks, EachFailsWithItsMessage) {
  ascsim_test::DeviceBuffer gm(64 * 64 * 4);
  std::memset(gm.gm(), 0, gm.bytes());
  __gm__ half* g = gm.as<half>();
  // The src's rows do not fit the dst's NZ layout.
  EXPECT_THAT(CubeFault([&] {
                auto src = MakeTensor(MakeMemPtr(g), MakeFrameLayout<NDExtLayoutPtn>(40, 16));
                auto dst = MakeTensor(MakeMemPtr<Location::L1, half>(0),
                                      MakeFrameLayout<NZLayoutPtn>(32, 16));
                Copy(MakeCopy(CopyGM2L1{}), dst, src);
              }),
              HasSubstr("Copy(CopyGM2L1): the src's 40 x 16 elements do not fit the dst's 32 x 16 "
                        "NZ layout"));
  // A GM read past the allocation.
  EXPECT_THAT(CubeFault([&] {
                auto src = MakeTensor(MakeMemPtr(g), MakeFrameLayout<NDExtLayoutPtn>(64, 130));
                auto dst = MakeTensor(MakeMemPtr<Location::L1, half>(0),
                                      MakeFrameLayout<NZLayoutPtn>(64, 130));
                Copy(MakeCopy(CopyGM2L1{}), dst, src);
              }),
              HasSubstr("src GM bytes [0, 16640) exceed the allocation of 16384 B") );
  // A float NZ layout in L1 made with the 2-byte C0.
  EXPECT_THAT(CubeFault([&] {
                auto src = MakeTensor(MakeMemPtr((__gm__ float*)g),
                                      MakeFrameLayout<NDExtLayoutPtn>(16, 16));
                auto dst = MakeTensor(MakeMemPtr<Location::L1, float>(0),
                                      MakeFrameLayout<NZLayoutPtn>(16, 16));
                Copy(MakeCopy(CopyGM2L1{}), dst, src);
              }),
              HasSubstr("dst is a NZ layout with C0 16 elements; float in L1 needs C0 8"));
  // An L0A copy whose src, read at its strides for the dst's fractals, runs past L1's end.
  EXPECT_THAT(CubeFault([&] {
                auto l1 = MakeTensor(MakeMemPtr<Location::L1, half>(512 * 1024 - 512),
                                     MakeFrameLayout<NZLayoutPtn>(16, 16));
                auto l0a = MakeTensor(MakeMemPtr<Location::L0A, half>(0),
                                      MakeFrameLayout<NZLayoutPtn>(16, 32));
                Copy(MakeCopy(CopyL12L0A{}), l0a, l1);
              }),
              HasSubstr("Copy(CopyL12L0A): src bytes [523776, 524800) of L1 exceed its 524288 B"));
  // An L0A tensor past the end of L0A (64 KiB on Ascend910B1).
  EXPECT_THAT(CubeFault([&] {
                auto l1 = MakeTensor(MakeMemPtr<Location::L1, half>(0),
                                     MakeFrameLayout<NZLayoutPtn>(256, 256));
                auto l0a = MakeTensor(MakeMemPtr<Location::L0A, half>(0),
                                      MakeFrameLayout<NZLayoutPtn>(256, 256));
                Copy(MakeCopy(CopyL12L0A{}), l0a, l1);
              }),
              HasSubstr("dst bytes [0, 131072) of L0A exceed its 65536 B"));
  // A misaligned L0B address (512 B).
  EXPECT_THAT(CubeFault([&] {
                auto l1 = MakeTensor(MakeMemPtr<Location::L1, half>(0),
                                     MakeFrameLayout<NZLayoutPtn>(16, 16));
                auto l0b = MakeTensor(MakeMemPtr<Location::L0B, half>(32),
                                      MakeFrameLayout<ZNLayoutPtn>(16, 16));
                Copy(MakeCopy(CopyL12L0B{}), l0b, l1);
              }),
              HasSubstr("dst L0B address 0x20 is not 512-byte aligned"));
  // An L1 tensor whose pointer is GM memory.
  EXPECT_THAT(CubeFault([&] {
                auto src = MakeTensor(MakeMemPtr(g), MakeFrameLayout<NDExtLayoutPtn>(16, 16));
                auto dst = MakeTensor(MakeMemPtr<Location::L1>(g + 1024),
                                      MakeFrameLayout<NZLayoutPtn>(16, 16));
                Copy(MakeCopy(CopyGM2L1{}), dst, src);
              }),
              HasSubstr("dst is an L1 tensor whose pointer"));
  // An address past the memory.
  EXPECT_THAT(CubeFault([] { MakeMemPtr<Location::L0C, float>(128 * 1024); }),
              HasSubstr("MakeMemPtr<Location::L0C>(131072): the address is past the 131072 B"));
  // A slice outside the tensor.
  EXPECT_THAT(CubeFault([&] {
                auto t = MakeTensor(MakeMemPtr(g), MakeFrameLayout<NDExtLayoutPtn>(16, 16));
                (void)t.Slice(MakeCoord(17, 0), MakeShape(1, 1));
              }),
              HasSubstr("Tensor::Slice: the coordinate (17, 0) is outside the tensor's 16 x 16"));
  // Mmad's shape and parameter checks.
  auto mmad_fault = [](MmadParams p, uint32_t arows) {
    return CubeFault([=] {
      auto l0a = MakeTensor(MakeMemPtr<Location::L0A, half>(0),
                            MakeFrameLayout<NZLayoutPtn>(arows, 32));
      auto l0b = MakeTensor(MakeMemPtr<Location::L0B, half>(0),
                            MakeFrameLayout<ZNLayoutPtn>(32, 32));
      auto l0c = MakeTensor(MakeMemPtr<Location::L0C, float>(0),
                            MakeFrameLayout<NZLayoutPtn>(64, 32));
      Mmad(MakeMmad(MmadOperation{}).with(p), l0c, l0a, l0b);
    });
  };
  EXPECT_THAT(mmad_fault(MmadParams{48, 32, 32, 0, true}, 32),
              HasSubstr("Mmad: m 48 exceeds the 32 rows of fm"));
  EXPECT_THAT(mmad_fault(MmadParams{16, 32, 48, 0, true}, 32),
              HasSubstr("Mmad: k 48 exceeds the 32 columns of fm"));
  EXPECT_THAT(mmad_fault(MmadParams{16, 48, 32, 0, true}, 32),
              HasSubstr("Mmad: n 48 exceeds the 32 columns of filter"));
  EXPECT_THAT(mmad_fault(MmadParams{4096, 32, 32, 0, true}, 32),
              HasSubstr("Mmad: MmadParams.m 4096 is outside [0, 4095]"));
  EXPECT_THAT(mmad_fault(MmadParams{16, 32, 32, 1, true}, 32),
              HasSubstr("Mmad: MmadParams.unitFlag 1 is not 0, 2 or 3"));
  // An L0C layout with the C0 of float (8) instead of the 16 x 16 fractal.
  EXPECT_THAT(CubeFault([] {
                auto l0a = MakeTensor(MakeMemPtr<Location::L0A, half>(0),
                                      MakeFrameLayout<NZLayoutPtn>(16, 16));
                auto l0b = MakeTensor(MakeMemPtr<Location::L0B, half>(0),
                                      MakeFrameLayout<ZNLayoutPtn>(16, 16));
                auto l0c = MakeTensor(MakeMemPtr<Location::L0C, float>(0),
                                      MakeFrameLayout<NZLayoutPtn, float>(16, 16));
                Mmad(MakeMmad(MmadOperation{}).with(MmadParams{16, 16, 16, 0, true}), l0c, l0a,
                     l0b);
              }),
              HasSubstr("Mmad: dst is a NZ layout with C0 8 elements; float in L0C needs C0 16"));
}

TEST(TensorApiChecks, KernelArraysBeyondTheMemoryFail) {
  // What ascsim-launch-transform makes of `__cc__ float a[32768]; __cc__ float b[16];`.
  const std::string message = CubeFault([] {
    ascsim::tensor_api::LocalArray<float, ascsim::tensor_api::Loc::kL0C, 32768> a("a");
    ascsim::tensor_api::LocalArray<float, ascsim::tensor_api::Loc::kL0C, 16> b("b");
  });
  EXPECT_THAT(message, HasSubstr("__cc__ array b: 64 B at L0C offset 131072 exceed the 131072 B of "
                                 "the L0C Buffer"));
  // Their addresses follow each other, aligned for the memory, and are given back at scope end.
  EXPECT_EQ(CubeFault([] {
              uint8_t* first = nullptr;
              {
                ascsim::tensor_api::LocalArray<half, ascsim::tensor_api::Loc::kL0A, 100> x("x");
                ascsim::tensor_api::LocalArray<half, ascsim::tensor_api::Loc::kL0A, 16> y("y");
                first = reinterpret_cast<uint8_t*>(x.data());
                EXPECT_EQ(reinterpret_cast<uint8_t*>(y.data()) - first, 512);
                auto t = MakeTensor(MakeMemPtr(y), MakeFrameLayout<NZLayoutPtn>(16, 16));
                EXPECT_EQ(reinterpret_cast<uint8_t*>(t.Data().Get()), first + 512);
              }
              ascsim::tensor_api::LocalArray<half, ascsim::tensor_api::Loc::kL0A, 16> z("z");
              EXPECT_EQ(reinterpret_cast<uint8_t*>(z.data()), first);
            }),
            "");
}

}  // namespace
