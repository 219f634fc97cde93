// set_flag / wait_flag, block_idx / block_num, tik2, ParamOffset, get_imm and copy_gm_to_ubuf
// (cce_intrinsics.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

// A 2023-style kernel (tik2, ParamOffset): each block scales its own `len` elements by 3.
template <typename T>
__aicore__ void Tik2Triple(GM_ADDR x, GM_ADDR z, int32_t len) {
  using namespace tik2;
  GlobalTensor<T> xGm;
  GlobalTensor<T> zGm;
  xGm.SetGlobalBuffer((__gm__ T*)ParamOffset<T>(x, len), len);
  zGm.SetGlobalBuffer((__gm__ T*)ParamOffset<T>(z, len), len);
  for (int32_t i = 0; i < len; ++i)
    zGm.SetValue(i, static_cast<T>(static_cast<float>(xGm.GetValue(i)) * 3.0f));
}
extern "C" __global__ __aicore__ void tik2_triple_half(GM_ADDR x, GM_ADDR z, int32_t len) {
  Tik2Triple<half>(x, z, len);
}
extern "C" __global__ __aicore__ void tik2_triple_float(GM_ADDR x, GM_ADDR z, int32_t len) {
  Tik2Triple<float>(x, z, len);
}

// The 2023 samples' way to read tiling in npu mode (their add_custom_tiling.h without
// __CCE_KT_TEST__): copy it from GM to UB address 0 with the CCE intrinsics, wait, and read the
// fields through the __ubuf__ pointer. 36 B: two 32 B blocks.
struct ScaleTiling2023 {
  uint32_t blockLength;
  uint32_t tileNum;
  uint32_t tileLength;
  float scale;
  uint32_t reserved[5];
};
inline __aicore__ int32_t AlignDiv32Test(int32_t n) { return ((n + 31) & ~31) / 32; }

template <typename T>
class KernelScale2023 {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, const ScaleTiling2023& t) {
    blockLength_ = t.blockLength;
    tileNum_ = t.tileNum;
    tileLength_ = t.tileLength;
    scale_ = t.scale;
    xGm_.SetGlobalBuffer((__gm__ T*)tik2::ParamOffset<T>(x, blockLength_), blockLength_);
    zGm_.SetGlobalBuffer((__gm__ T*)tik2::ParamOffset<T>(z, blockLength_), blockLength_);
    pipe_.InitBuffer(inQueue_, 2, tileLength_ * sizeof(T));
    pipe_.InitBuffer(outQueue_, 2, tileLength_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tileNum_ * 2; ++i) {
      tik2::LocalTensor<T> in = inQueue_.AllocTensor<T>();
      tik2::DataCopy(in, xGm_[i * tileLength_], tileLength_);
      inQueue_.EnQue(in);
      tik2::LocalTensor<T> x = inQueue_.DeQue<T>();
      tik2::LocalTensor<T> z = outQueue_.AllocTensor<T>();
      tik2::Muls(z, x, static_cast<T>(scale_), tileLength_);
      outQueue_.EnQue(z);
      inQueue_.FreeTensor(x);
      tik2::LocalTensor<T> out = outQueue_.DeQue<T>();
      tik2::DataCopy(zGm_[i * tileLength_], out, tileLength_);
      outQueue_.FreeTensor(out);
    }
  }

 private:
  tik2::TPipe pipe_;
  tik2::TQue<tik2::QuePosition::VECIN, 2> inQueue_;
  tik2::TQue<tik2::QuePosition::VECOUT, 2> outQueue_;
  tik2::GlobalTensor<T> xGm_, zGm_;
  uint32_t blockLength_ = 0, tileNum_ = 0, tileLength_ = 0;
  float scale_ = 0;
};

template <typename T>
__aicore__ void Scale2023(GM_ADDR x, GM_ADDR z, GM_ADDR tiling) {
  __ubuf__ uint8_t* tilingUb = (__ubuf__ uint8_t*)get_imm(0);
  copy_gm_to_ubuf(((__ubuf__ uint8_t*)(tilingUb)), ((__gm__ uint8_t*)(tiling)), 0, 1,
                  AlignDiv32Test(sizeof(ScaleTiling2023)), 0, 0);
  __ubuf__ ScaleTiling2023* tilingData = reinterpret_cast<__ubuf__ ScaleTiling2023*>(tilingUb);
  pipe_barrier(PIPE_ALL);
  ScaleTiling2023 t;
  t.blockLength = tilingData->blockLength;
  t.tileNum = tilingData->tileNum;
  t.tileLength = tilingData->tileLength;
  t.scale = tilingData->scale;
  KernelScale2023<T> op;
  op.Init(x, z, t);
  op.Process();
}
extern "C" __global__ __aicore__ void scale2023_half(GM_ADDR x, GM_ADDR z, GM_ADDR tiling) {
  Scale2023<half>(x, z, tiling);
}
extern "C" __global__ __aicore__ void scale2023_float(GM_ADDR x, GM_ADDR z, GM_ADDR tiling) {
  Scale2023<float>(x, z, tiling);
}

// The tiling copied to UB address 0 is what the TPipe's first buffer (at UB offset 0) holds,
// and what a kernel writes there through a LocalTensor is what the get_imm pointer reads.
extern "C" __global__ __aicore__ void tiling_aliases_ub(GM_ADDR tiling, GM_ADDR seen) {
  __ubuf__ uint32_t* ub = (__ubuf__ uint32_t*)get_imm(0);
  copy_gm_to_ubuf(ub, (__gm__ uint8_t*)tiling, 0, 1, 1, 0, 0);
  pipe_barrier(PIPE_ALL);
  tik2::TPipe pipe;
  tik2::TBuf<tik2::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  tik2::LocalTensor<uint32_t> first = buf.Get<uint32_t>();
  tik2::GlobalTensor<uint32_t> seenGm;
  seenGm.SetGlobalBuffer((__gm__ uint32_t*)seen + 8 * tik2::GetBlockIdx(), 8);
  seenGm.SetValue(0, static_cast<uint32_t>(first.GetPhyAddr()));
  seenGm.SetValue(1, first.GetValue(0));
  seenGm.SetValue(2, first.GetValue(7));
  first.SetValue(1, 0xABCD1234u);
  seenGm.SetValue(3, ub[1]);
  seenGm.SetValue(4, ((__ubuf__ uint32_t*)get_imm(4))[0]);
}

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

// The scalar intrinsics min / max on int64_t, called unqualified as kernels do: mixed signed and
// unsigned operands meet in int64_t; a kernel's own min in its namespace still wins lookup.
namespace kernel_ns {
inline int32_t min(int32_t, int32_t) { return -7; }
inline int64_t Use(int32_t a, int32_t b) { return min(a, b); }
}  // namespace kernel_ns

TEST(CceIntrinsics, ScalarMinMax) {
  const int blocks = 9;
  const uint32_t size = 1000;
  EXPECT_EQ(min(blocks * 120, size), 1000);
  EXPECT_EQ(min(blocks * 100, size), 900);
  EXPECT_EQ(max(-5, 3u), 3);
  EXPECT_EQ(max(int64_t{-5}, int64_t{-9}), -5);
  EXPECT_EQ(min(int64_t{1} << 40, int64_t{-1}), -1);
  EXPECT_EQ(max(int64_t{1} << 40, 7), int64_t{1} << 40);
  EXPECT_EQ(kernel_ns::Use(1, 2), -7);
}

TEST(CceIntrinsics, FlagsBlockIdxAndTik2) {
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

TEST(CceIntrinsics, GetParaBaseIsNotSimulated) {
  CoreFixture fx;
  EXPECT_THAT(ErrorOf([] { (void)get_para_base(); }),
              HasSubstr("get_para_base: the kernel's parameter area (argument words and inline "
                        "tiling, laid out by CANN's op compiler) is not simulated"));
}

template <typename T, typename Kernel>
void CheckParamOffset(Kernel kernel) {
  constexpr int32_t kBlocks = 5, kLen = 37;  // odd: the offsets are not block-aligned
  auto* x = static_cast<T*>(AscendC::GmAlloc(kBlocks * kLen * sizeof(T)));
  auto* z = static_cast<T*>(AscendC::GmAlloc(kBlocks * kLen * sizeof(T)));
  for (int32_t i = 0; i < kBlocks * kLen; ++i)
    x[i] = static_cast<T>(static_cast<float>(i % 41) - 20.0f);
  ICPU_RUN_KF(kernel, kBlocks, (GM_ADDR)x, (GM_ADDR)z, kLen);
  for (int32_t i = 0; i < kBlocks * kLen; ++i) {
    ASSERT_EQ(static_cast<float>(z[i]),
              static_cast<float>(static_cast<T>(static_cast<float>(x[i]) * 3.0f)))
        << i;
  }
  AscendC::GmFree(x);
  AscendC::GmFree(z);
}

TEST(CceIntrinsics, ParamOffsetIsTheBlocksSliceOfGm) {
  CheckParamOffset<half>(tik2_triple_half);
  CheckParamOffset<float>(tik2_triple_float);
}

TEST(CceIntrinsics, ParamOffsetArithmeticAndNegativeLength) {
  CoreFixture fx;  // block 0 of 1
  alignas(32) static uint8_t buf[64];
  EXPECT_EQ(tik2::ParamOffset<float>(buf, 16), buf);  // block 0: the address itself
  EXPECT_EQ(ErrorOf([] { (void)AscendC::ParamOffset<half>(buf, -3); }),
            "test: block 0/1: ParamOffset: the per-core length is -3, which must not be negative");
}

template <typename T>
void CheckScale2023(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR), uint32_t blocks, uint32_t tileNum,
                    uint32_t tileLength, float scale) {
  const uint32_t blockLength = tileNum * 2 * tileLength;
  const uint32_t n = blocks * blockLength;
  auto* x = static_cast<T*>(AscendC::GmAlloc(n * sizeof(T)));
  auto* z = static_cast<T*>(AscendC::GmAlloc(n * sizeof(T)));
  // The copy reads whole 32 B blocks (AlignDiv32): 64 B, as aclrtMalloc's device block of a
  // 36 B request (rounded up to 32 B, plus 32 B) would hold; GmAlloc gives exactly what it is
  // asked for.
  auto* tiling = static_cast<ScaleTiling2023*>(AscendC::GmAlloc(64));
  *tiling = ScaleTiling2023{blockLength, tileNum, tileLength, scale, {0, 0, 0, 0, 0}};
  const std::vector<T> in = ascsim_test::RandomVector<T>(n, -8.0f, 8.0f, 2023);
  std::memcpy(x, in.data(), n * sizeof(T));
  ICPU_RUN_KF(kernel, blocks, (GM_ADDR)x, (GM_ADDR)z, (GM_ADDR)tiling);
  for (uint32_t i = 0; i < n; ++i) {
    // Muls on T: the product rounded once to T.
    const float s = static_cast<float>(static_cast<T>(scale));
    const T want = static_cast<T>(static_cast<float>(in[i]) * s);
    ASSERT_EQ(ascsim_test::Bits(z[i]), ascsim_test::Bits(want)) << i;
  }
  AscendC::GmFree(x);
  AscendC::GmFree(z);
  AscendC::GmFree(tiling);
}

// The whole 2023 npu-mode tiling path on the 310P: every block copies the tiling to its own UB,
// reads it through the pointer, then builds its TPipe over the same bytes.
TEST(CceIntrinsics, TilingThroughGetImmAndCopyGmToUbuf) {
  ascsim::ScopedSettings settings;
  ascsim::SetSoc("Ascend310P3");
  CheckScale2023<half>(scale2023_half, 3, 3, 48, 1.5f);
  CheckScale2023<float>(scale2023_float, 5, 1, 40, -0.75f);
  CheckScale2023<float>(scale2023_float, 1, 7, 8, 3.0f);
}

TEST(CceIntrinsics, TilingInUbAliasesTheFirstBuffer) {
  ascsim::ScopedSettings settings;
  ascsim::SetSoc("Ascend310P3");
  // Reading a buffer before writing it after InitBuffer is what the `init` check reports (the
  // bytes are the tiling's, as on the device, but the kernel's own buffer never held them).
  ascsim::SetSanitize(ascsim::kSanitizeRace);
  auto* tiling = static_cast<uint32_t*>(AscendC::GmAlloc(32));
  auto* seen = static_cast<uint32_t*>(AscendC::GmAlloc(2 * 32));
  for (uint32_t i = 0; i < 8; ++i) tiling[i] = 100 + 3 * i;
  ICPU_RUN_KF(tiling_aliases_ub, 2, (GM_ADDR)tiling, (GM_ADDR)seen);
  for (uint32_t b = 0; b < 2; ++b) {  // each block in its own UB
    const uint32_t* s = seen + 8 * b;
    EXPECT_EQ(s[0], 0u);           // the first buffer starts at UB address 0
    EXPECT_EQ(s[1], tiling[0]);    // and holds the tiling copied there
    EXPECT_EQ(s[2], tiling[7]);
    EXPECT_EQ(s[3], 0xABCD1234u);  // a LocalTensor write, read through the get_imm pointer
    EXPECT_EQ(s[4], 0xABCD1234u);  // get_imm(4): UB address 4
  }
  AscendC::GmFree(tiling);
  AscendC::GmFree(seen);
}

// get_imm as an integer is the immediate (16-bit pieces in the multi-argument forms); a pointer
// from it and the UB offset it names reach the same bytes, in copy_gm_to_ubuf's strided form and
// in the raw-address basic API (DataCopyGM2UBImpl).
TEST(CceIntrinsics, GetImmValuesAndStridedCopy) {
  CoreFixture fx(128 * 1024, "Ascend310P3");
  const uint64_t v = get_imm(0x1234);
  EXPECT_EQ(v, 0x1234u);
  EXPECT_EQ(static_cast<uint64_t>(get_imm(0x3F000)), 0x3F000u);
  EXPECT_EQ(static_cast<uint64_t>(get_imm(0x1, 0x2)), 0x20001u);
  EXPECT_EQ(static_cast<uint64_t>(get_imm(0x1, 0x2, 0x3, 0x4)), 0x0004000300020001u);
  EXPECT_EQ(get_imm(0) + 64, 64u);  // get_imm(0) + bufferOffset, as CANN's GetPhyAddr
  ascsim_test::DeviceBuffer gm(6 * 32);
  for (uint32_t i = 0; i < 6 * 32; ++i) gm.gm()[i] = static_cast<uint8_t>(i * 7 + 1);
  // The fixture's TBuf covers UB [0, 128 KiB): a tensor over the bytes the copy writes.
  AscendC::LocalTensor<uint8_t> t = fx.Take<uint8_t>(16 * 32);
  ASSERT_EQ(t.GetPhyAddr(), 0u);
  t.SetValue(64, 0xEE);  // in the gap the dst stride leaves
  // Three bursts of one block from every other GM block into every third UB block, at UB 32,
  // named by its offset (the way GetPhyAddr() casts name UB).
  copy_gm_to_ubuf((__ubuf__ uint8_t*)(get_imm(0) + 32), gm.gm(), 0, 3, 1, 1, 2);
  const uint8_t* ub = (__ubuf__ uint8_t*)get_imm(0);
  for (uint32_t b = 0; b < 3; ++b) {
    for (uint32_t j = 0; j < 32; ++j) {
      ASSERT_EQ(ub[32 + b * 96 + j], gm.gm()[b * 64 + j]) << b << " " << j;
      ASSERT_EQ(t.GetValue(32 + b * 96 + j), gm.gm()[b * 64 + j]);
    }
  }
  EXPECT_EQ(ub[64], 0xEE);  // the gap keeps what was there
  // A get_imm pointer passed to the raw-address basic API is the same UB address.
  AscendC::DataCopyParams params(1, 1, 0, 0);
  AscendC::DataCopyGM2UBImpl((__ubuf__ uint8_t*)get_imm(256), gm.gm() + 160, params);
  for (uint32_t j = 0; j < 32; ++j) ASSERT_EQ(t.GetValue(256 + j), gm.gm()[160 + j]);
}

TEST(CceIntrinsics, UbAddressErrors) {
  CoreFixture fx(128 * 1024, "Ascend310P3");
  ascsim_test::DeviceBuffer gm(64);
  uint8_t* src = gm.gm();
  EXPECT_EQ(ErrorOf([] { (void)(__ubuf__ uint8_t*)get_imm(256 * 1024 + 32); }),
            "test: block 0/1: get_imm(0x40020) as a UB address is past the end of the Unified "
            "Buffer (262144 B on Ascend310P3)");
  EXPECT_EQ(ErrorOf([&] {
              copy_gm_to_ubuf((__ubuf__ uint8_t*)get_imm(256 * 1024 - 32), src, 0, 1, 2, 0, 0);
            }),
            "test: block 0/1: copy_gm_to_ubuf: writes UB bytes [262112, 262176) (nBurst 1, "
            "lenBurst 2, dstStride 0, in 32 B blocks), past the end of the Unified Buffer "
            "(262144 B on Ascend310P3)");
  EXPECT_EQ(ErrorOf([&] {
              copy_gm_to_ubuf((__ubuf__ uint8_t*)get_imm(256 * 1024 - 96), src, 0, 2, 1, 0, 2);
            }),
            "test: block 0/1: copy_gm_to_ubuf: writes UB bytes [262048, 262176) (nBurst 2, "
            "lenBurst 1, dstStride 2, in 32 B blocks), past the end of the Unified Buffer "
            "(262144 B on Ascend310P3)");
  EXPECT_EQ(ErrorOf([&] { copy_gm_to_ubuf((__ubuf__ uint8_t*)get_imm(16), src, 0, 1, 1, 0, 0); }),
            "test: block 0/1: copy_gm_to_ubuf: dst UB address 0x10 is not 32-byte aligned");
  EXPECT_EQ(ErrorOf([&] { copy_gm_to_ubuf((__ubuf__ uint8_t*)get_imm(0), src, 0, 4096, 1, 0, 0); }),
            "test: block 0/1: copy_gm_to_ubuf: blockCount 4096 exceeds the device limit 4095");
  // A host address that is no UB address: the kernel passed a pointer of its own.
  alignas(32) static uint8_t host[64];
  const std::string not_ub = ErrorOf([&] { copy_gm_to_ubuf(host, src, 0, 1, 1, 0, 0); });
  EXPECT_THAT(not_ub, HasSubstr("copy_gm_to_ubuf: dst 0x"));
  EXPECT_THAT(not_ub, HasSubstr(" is not a UB address: neither a UB offset below the UB size "
                                "262144 B of Ascend310P3 nor a pointer into this core's UB (from "
                                "get_imm)"));
  // GM: past the device allocation, and not device memory at all.
  EXPECT_THAT(ErrorOf([&] { copy_gm_to_ubuf((__ubuf__ uint8_t*)get_imm(0), src, 0, 1, 3, 0, 0); }),
              HasSubstr("copy_gm_to_ubuf read [0, 96) of uint8_t runs outside its device "
                        "allocation of 64 B"));
  EXPECT_THAT(ErrorOf([&] { copy_gm_to_ubuf((__ubuf__ uint8_t*)get_imm(0), host, 0, 1, 1, 0, 0); }),
              HasSubstr("copy_gm_to_ubuf"));
  // Zero bursts or zero-length bursts copy nothing.
  copy_gm_to_ubuf((__ubuf__ uint8_t*)get_imm(0), src, 0, 0, 1, 0, 0);
  copy_gm_to_ubuf((__ubuf__ uint8_t*)get_imm(0), src, 0, 1, 0, 0, 0);
}

// An AIC has no UB: a get_imm pointer there is an error, not a write into another core's arena.
extern "C" __global__ __aicore__ void get_imm_on_aic(GM_ADDR unused) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  (void)unused;
  __ubuf__ uint8_t* ub = (__ubuf__ uint8_t*)get_imm(0);
  (void)ub;
}

TEST(CceIntrinsics, GetImmPointerOnACubeCoreFaults) {
  auto* unused = static_cast<uint8_t*>(AscendC::GmAlloc(32));
  EXPECT_THAT(ErrorOf([&] { ICPU_RUN_KF(get_imm_on_aic, 1, unused); }),
              HasSubstr("get_imm: this core (AIC) has no Unified Buffer"));
  AscendC::GmFree(unused);
}

}  // namespace
