// The small names production kernels take from CANN's kernel_operator.h (kernel_utils.h,
// std_utils.h, kernel_constants.h, kernel_type.h, npu_arch.h, que_sync.h): their values, their
// per-arch definitions, g_coreType on each kind of core, GetSortLen / GetSortOffset, and int4b_t.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void core_type_ids(GM_ADDR out) {
  AscendC::GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 64);
  const int32_t row =
      g_coreType == AscendC::AIC
          ? static_cast<int32_t>(AscendC::GetBlockIdx()) * 3
          : static_cast<int32_t>(AscendC::GetBlockIdx() / AscendC::GetSubBlockNum()) * 3 + 1 +
                static_cast<int32_t>(AscendC::GetSubBlockIdx());
  g.SetValue(row, g_coreType);
}
extern "C" __global__ __aicore__ void core_type_ids_mix(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  core_type_ids(out);
}

// Production's spelling (ops-transformer flash_attention_score: `__BLOCK_LOCAL__ __inline__
// FaTscmArray *TscmGlobal;`): one variable per running block.
__BLOCK_LOCAL__ __inline__ int32_t* g_blockSlot;
__BLOCK_LOCAL__ int32_t g_blockValue;

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;

TEST(KernelUtils, LikelyAndIntegerHelpers) {
  EXPECT_TRUE(likely(3 > 2));
  EXPECT_FALSE(unlikely(2 > 3));
  for (uint32_t a : {0u, 1u, 31u, 32u, 33u, 1000u}) {
    for (uint32_t b : {1u, 7u, 32u}) {
      EXPECT_EQ(AscendC::DivCeil(a, b), (a + b - 1) / b);
      EXPECT_EQ(AscendC::AlignUp(a, b), (a + b - 1) / b * b);
      EXPECT_EQ(AscendC::ConstCeil(a, b), (a + b - 1) / b);
      EXPECT_EQ(AscendC::CeilDivision(static_cast<int32_t>(a), static_cast<int32_t>(b)),
                static_cast<int32_t>((a + b - 1) / b));
    }
  }
  EXPECT_EQ(AscendC::CeilDivision(5, 0), 0);  // CANN's definition, not an error
  static_assert(AscendC::AlignUp(33, 32) == 64, "usable in constant expressions");
}

TEST(KernelUtils, TypeTests) {
  static_assert(std::is_same_v<AscendC::Conditional<true, half, float>::type, half>);
  static_assert(std::is_same_v<AscendC::Conditional<false, half, float>::type, float>);
  static_assert(AscendC::IsSameType<half, half>::value && !AscendC::IsSameType<half, float>::value);
  static_assert(AscendC::SupportType<float, half, float>() &&
                !AscendC::SupportType<int8_t, half, float>());
  static_assert(AscendC::SupportEnum<3, 1, 2, 3>() && !AscendC::SupportEnum<4, 1, 2, 3>());
  static_assert(AscendC::SupportBytes<half, 2, 4>() && !AscendC::SupportBytes<int8_t, 2, 4>());
  static_assert(std::is_same_v<float16_t, half> && std::is_same_v<float32_t, float>);
  static_assert(AscendC::Std::is_same_v<int, int> && !AscendC::Std::is_same<int, long>::value);
  static_assert(AscendC::Std::IsSame<half, half>::value &&
                AscendC::Std::IsNotSame<half, float>::value);
  static_assert(std::is_same_v<AscendC::Std::conditional_t<true, int, float>, int>);
  static_assert(AscendC::Std::is_one_of_v<half, float, half> &&
                !AscendC::Std::is_one_of_v<int, float>);
  static_assert(AscendC::Std::is_one_of_value_v<int, 3, 1, 3>);
  static_assert(AscendC::Std::is_floating_point_v<const half> &&
                !AscendC::Std::is_floating_point_v<bfloat16_t>);
  static_assert(AscendC::Std::is_integral_v<uint8_t> && !AscendC::Std::is_integral_v<float>);
  static_assert(std::is_same_v<AscendC::Std::remove_cvref_t<const int&>, int>);
  static_assert(decltype(AscendC::Std::Int<2>{} * AscendC::Std::Int<3>{})::value == 6);
  static_assert(AscendC::Std::min(3, 7L) == 3L && AscendC::Std::max(2.5, 1) == 2.5);
  static_assert(AscendC::Std::ceil_division(17, 8) == 3 && AscendC::Std::ceil_align(17, 8) == 24);
  EXPECT_EQ(AscendC::Std::abs(int16_t(-7)), 7);
  EXPECT_EQ(AscendC::Std::abs(-2.5f), 2.5f);
  EXPECT_EQ(AscendC::Std::sqrt(2.25f), 1.5f);
  EXPECT_EQ(AscendC::Std::sqrt(int64_t(17)), 4);
}

// AscendC::Std::tuple as docs Utils-API/CPP标准库/容器函数/tuple.md uses it: make_tuple, get<N> by
// reference, tuple_size, a tuple of tensors.
TEST(KernelUtils, StdTupleMakeGetSize) {
  AscendC::Std::tuple<uint32_t, float, bool> t{11, 2.5f, true};
  EXPECT_EQ(AscendC::Std::get<0>(t), 11u);
  EXPECT_EQ(AscendC::Std::get<1>(t), 2.5f);
  AscendC::Std::get<0>(t) = 7;  // get returns a reference into the tuple
  EXPECT_EQ(AscendC::Std::get<0>(t), 7u);
  auto m = AscendC::Std::make_tuple(int8_t{-3}, half(1.5f), int64_t{1} << 40);
  static_assert(AscendC::Std::tuple_size<decltype(m)>::value == 3);
  static_assert(std::is_same_v<AscendC::Std::tuple_element<1, decltype(m)>::type, half>);
  EXPECT_EQ(AscendC::Std::get<0>(m), -3);
  EXPECT_EQ(static_cast<float>(AscendC::Std::get<1>(m)), 1.5f);
  EXPECT_EQ(AscendC::Std::get<2>(m), int64_t{1} << 40);
  AscendC::LocalTensor<float> a, b;
  auto tensors = AscendC::Std::make_tuple(a, b);
  static_assert(AscendC::Std::tuple_size<decltype(tensors)>::value == 2);
  static_assert(
      std::is_same_v<decltype(AscendC::Std::get<1>(tensors)), AscendC::LocalTensor<float>&>);
}

TEST(KernelUtils, TQueConfigFromMaskAndAggregate) {
  constexpr AscendC::TQueConfig c = AscendC::GetTQueConfig(0x5);
  static_assert(c.nd2nz && !c.nz2nd && c.scmBlockGroup && c.consumer[7] == AscendC::TPosition::MAX);
  const AscendC::TPosition tp[8] = {};
  constexpr AscendC::TQueConfig agg{false, false, false, 0, 1, 0, {}};  // production's spelling
  static_assert(agg.bufferNumber == 1);
  const AscendC::TQueConfig full =
      AscendC::GetTQueConfig(true, false, false, 64, 2, 1, tp, true, false);
  EXPECT_EQ(full.bufferLen, 64u);
  EXPECT_TRUE(full.enableStaticEvtId);
  // A TQue may take a TQueConfig pointer as its mask.
  CoreFixture fx(64 * 1024);
  static constexpr AscendC::TQueConfig kConf = AscendC::GetTQueConfig(0);
  AscendC::TQue<AscendC::TPosition::VECIN, 1, &kConf> q;
  fx.pipe().InitBuffer(q, 1, 256);
  auto t = q.AllocTensor<float>();
  q.EnQue(t);
  t = q.DeQue<float>();
  q.FreeTensor(t);
}

TEST(KernelUtils, DataTypeAndFormatMacrosAreCanns) {
  // ge's numbers (asc-devkit include/basic_api/kernel_type.h), usable in #if.
#if DT_FLOAT != 0 || DT_FLOAT16 != 1 || DT_INT8 != 2 || DT_BF16 != 27 || DT_INT4 != 29
#error "DT_* values"
#endif
#if FORMAT_NCHW != 0 || FORMAT_ND != 2 || FORMAT_NC1HWC0 != 3 || FORMAT_FRACTAL_NZ != 29
#error "FORMAT_* values"
#endif
  EXPECT_EQ(DT_UINT64, 10);
  EXPECT_EQ(FORMAT_NCL, 47);
#if __CCE_AICORE__ != 220
#error "__CCE_AICORE__ for the default A2 build"
#endif
}

TEST(KernelUtils, ConstantsOfTheArch) {
  EXPECT_EQ(AscendC::TOTAL_UB_SIZE, 192u * 1024);  // __NPU_ARCH__ 2201 (this build)
  EXPECT_EQ(AscendC::TOTAL_L1_SIZE, 512u * 1024 - 128);
  EXPECT_EQ(AscendC::TOTAL_L0C_SIZE, 128u * 1024);
  EXPECT_EQ(AscendC::BLOCK_CUBE, 16);
  EXPECT_EQ(AscendC::ONE_BLK_FLOAT_NUM, 8u);
  EXPECT_EQ(AscendC::MAX_REPEAT_HALF_SIZE, 128u * 255);
  EXPECT_EQ(AscendC::B16_DATA_NUM_PER_REPEAT, 128);
}

TEST(KernelUtils, KernelTilingStructsHaveCannsBytes) {
  // The sizes CANN's hccl_tilingdata.h states, and fields in declaration order.
  static_assert(sizeof(Mc2InitTiling) == 64 && sizeof(Mc2CcTiling) == 512);
  static_assert(sizeof(Mc2ServerCfg) == 16 && sizeof(Mc2HcommCfg) == 280);
  static_assert(sizeof(TopkTiling) == 24 * 4 + 8 * 2 && sizeof(ConfusionTransposeTiling) == 18 * 4);
  static_assert(sizeof(LayerNormTiling) == 26 * 4 && sizeof(LayerNormSeparateTiling) == 26 * 4);
  static_assert(offsetof(LayerNormSeparateTiling, rValueBack) == 25 * 4);
  static_assert(offsetof(Mc2HcommCfg, opType) == 272 &&
                offsetof(TopkTiling, vreducehalfValMask7) == 110);
  static_assert(std::is_same_v<AscendC::TopkTiling, AscendC::tiling::TopkTiling>);
}

TEST(KernelUtils, MatmulsUint16CeilDivAndCeilAlign) {
  // batch_matmul_utils.h's 16-bit forms: arguments and result are uint16_t.
  EXPECT_EQ(AscendC::CeilDiv(uint16_t(33), uint16_t(16)), 3);
  EXPECT_EQ(AscendC::CeilAlign(uint16_t(33), uint16_t(16)), 48);
  uint32_t big = 70000;  // not a constant: its conversion to uint16_t is the point
  EXPECT_EQ(AscendC::CeilDiv(big, 16u), (70000u % 65536 + 15) / 16);
  EXPECT_EQ(AscendC::CeilAlign(uint16_t(65535), uint16_t(16)), 0);  // 65536 wraps, as on the device
  EXPECT_EQ(AscendC::CeilAlign(33u, 16u), 48u);  // the template form for other types
  CoreFixture fx(64 * 1024);
  EXPECT_EQ(ErrorOf([&] { (void)AscendC::CeilDiv(uint16_t(1), uint16_t(0)); }),
            "test: block 0/1: CeilDiv: num2 is 0, which should be larger than 0");
}

TEST(KernelUtils, GetSortLenAndOffset) {
  for (uint32_t n : {0u, 1u, 7u, 32u, 1001u}) {
    EXPECT_EQ(AscendC::GetSortLen<half>(n), n * 4);  // 8 bytes per (value, index) pair
    EXPECT_EQ(AscendC::GetSortLen<float>(n), n * 2);
    EXPECT_EQ(AscendC::GetSortOffset<half>(n), n * 4);
    EXPECT_EQ(AscendC::GetSortOffset<float>(n), n * 2);
  }
}

TEST(KernelUtils, Int4ValuesAndTensorsAreRefused) {
  for (int32_t v = -8; v <= 7; ++v) EXPECT_EQ(int8_t(AscendC::int4b_t(v)), v);
  EXPECT_EQ(int8_t(AscendC::int4b_t(9)), -7);  // keeps the low 4 bits
  EXPECT_LT(AscendC::int4b_t(-3), AscendC::int4b_t(2));
  static_assert(sizeof(int4b_t) == 1);
  CoreFixture fx(64 * 1024);
  AscendC::TBuf<AscendC::TPosition::VECCALC> b;
  fx.pipe().InitBuffer(b, 256);
  EXPECT_EQ(ErrorOf([&] { (void)b.Get<AscendC::int4b_t>(); }),
            "test: block 0/1: LocalTensor<int4b_t>: int4 tensors (two elements per byte) are not "
            "simulated by ascsim");
  DeviceBuffer d(64);
  AscendC::GlobalTensor<AscendC::int4b_t> g;
  EXPECT_EQ(
      ErrorOf([&] { g.SetGlobalBuffer(reinterpret_cast<__gm__ AscendC::int4b_t*>(d.gm()), 64); }),
      "test: block 0/1: GlobalTensor<int4b_t>: int4 tensors (two elements per byte) are not "
      "simulated by ascsim");
  // A kernel that quantizes to int4 (a DTYPE selection of int4b_t) compiles: the vector calls
  // instantiate with int4b_t, and the fault comes where the tensor is bound.
  auto src = b.Get<half>();
  EXPECT_EQ(ErrorOf([&] {
              AscendC::Cast(b.Get<AscendC::int4b_t>(), src, AscendC::RoundMode::CAST_RINT, 64);
            }),
            "test: block 0/1: LocalTensor<int4b_t>: int4 tensors (two elements per byte) are not "
            "simulated by ascsim");
}

TEST(KernelUtils, QueSyncOrdersTwoPipes) {
  CoreFixture fx(64 * 1024);
  AscendC::TQueSync<PIPE_MTE2, PIPE_V> sync;
  sync.SetFlag(2);
  sync.WaitFlag(2);
  const std::string bad = ErrorOf([&] { AscendC::TQueSync<PIPE_MTE1, PIPE_S>{}.SetFlag(0); });
  EXPECT_NE(bad.find("TQueSync::SetFlag(pipe 3, pipe 0): no hardware event links these pipes"),
            std::string::npos)
      << bad;
}

std::vector<int32_t> RunCoreTypes(void (*run)(GM_ADDR)) {
  DeviceBuffer out(64 * 4);
  std::memset(out.gm(), 0xff, out.bytes());
  run(out.gm());
  std::vector<int32_t> v(9);
  std::memcpy(v.data(), out.gm(), 9 * 4);
  return v;
}

TEST(KernelUtils, CoreTypeOfEachCore) {
  // A vector launch: every block is an AIV.
  {
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    const auto v = RunCoreTypes([](GM_ADDR o) { ICPU_RUN_KF(core_type_ids, 2, o); });
    EXPECT_EQ(v[1], AscendC::AIV);
    EXPECT_EQ(v[4], AscendC::AIV);
    ascsim::aicore::SetRequestedKernelMode(-1);
  }
  // A mix launch: the AIC and its two AIVs.
  const auto m = RunCoreTypes([](GM_ADDR o) { ICPU_RUN_KF(core_type_ids_mix, 2, o); });
  for (int b = 0; b < 2; ++b) {
    EXPECT_EQ(m[b * 3], AscendC::AIC) << b;
    EXPECT_EQ(m[b * 3 + 1], AscendC::AIV) << b;
    EXPECT_EQ(m[b * 3 + 2], AscendC::AIV) << b;
  }
  // A coupled AI core (310P): neither AIC nor AIV.
  CoreFixture p310(64 * 1024, "Ascend310P3");
  EXPECT_EQ(g_coreType, AscendC::MIX);
}

// kernel_utils_ceil_oom_que.h's non-template Ceil(uint32_t, uint32_t): calls whose two arguments
// differ in type (size_t and int, as group-matmul kernels write) resolve to it.
TEST(KernelUtils, UnsignedCeilTakesMixedArgumentTypes) {
  for (uint64_t a :
       {uint64_t{0}, uint64_t{1}, uint64_t{31}, uint64_t{32}, uint64_t{33}, uint64_t{4099}}) {
    for (int b : {1, 7, 32}) {
      EXPECT_EQ(AscendC::Ceil(a * sizeof(half), b), (a * 2 + b - 1) / b) << a << "," << b;
    }
  }
  EXPECT_EQ(AscendC::Ceil(uint32_t{65}, uint32_t{8}), 9u);
  static_assert(std::is_same_v<decltype(AscendC::Ceil(uint64_t{1}, 2)), uint32_t>);
  CoreFixture fx;
  EXPECT_EQ(ErrorOf([] { (void)AscendC::Ceil(uint64_t{5}, 0); }),
            "test: block 0/1: Ceil: the divisor is 0 (the device would divide by zero)");
}

// A production-style dtype test (ops-nn experimental/activation/gelu: `std::is_same_v<TYPE_X,
// __bf16> || std::is_same_v<TYPE_X, half>` picks the path that computes in float) over a
// bfloat16_t tensor: with g++ < 13 __bf16 is bfloat16_t, so the float path runs and rounds once.
template <class TYPE_X>
void ScaleByThird(const AscendC::LocalTensor<TYPE_X>& x, const AscendC::LocalTensor<float>& f,
                  uint32_t n) {
  if constexpr (std::is_same_v<TYPE_X, __bf16> || std::is_same_v<TYPE_X, half>) {
    AscendC::Cast(f, x, AscendC::RoundMode::CAST_NONE, n);
    AscendC::Muls(f, f, 1.0f / 3, n);
    AscendC::Cast(x, f, AscendC::RoundMode::CAST_RINT, n);
  } else {
    AscendC::Muls(x, x, TYPE_X(1.0f / 3), n);
  }
}

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
TEST(KernelUtils, Bf16IsBishengsBfloat16) {
  static_assert(std::is_same_v<__bf16, bfloat16_t>);
  CoreFixture fx;
  auto x = fx.Take<bfloat16_t>(48);
  auto f = fx.Take<float>(48);
  std::vector<float> in(48);
  for (uint32_t i = 0; i < 48; ++i) {
    in[i] = float(bfloat16_t(0.37f * float(i) - 5.0f));
    x.SetValue(i, bfloat16_t(in[i]));
  }
  ScaleByThird<__bf16>(x, f, 48);
  for (uint32_t i = 0; i < 48; ++i) {
    const bfloat16_t want(in[i] * (1.0f / 3));  // float product, rounded to nearest even once
    EXPECT_EQ(float(x.GetValue(i)), float(want)) << i;
  }
}
#endif

// Every block sets its block-local variables, waits for all the others to have set theirs
// (SyncAll), and reads its own back: one shared variable would give every block the last writer's.
TEST(KernelUtils, BlockLocalIsPerBlock) {
  constexpr uint32_t kBlocks = 4;
  std::vector<int32_t> seen(kBlocks, -1);
  ascsim::Launch("block_local", kBlocks, [&] {
    const int32_t idx = static_cast<int32_t>(AscendC::GetBlockIdx());
    g_blockValue = idx * 10 + 1;
    g_blockSlot = &g_blockValue;
    AscendC::SyncAll();
    seen[idx] = *g_blockSlot;
  });
  for (uint32_t b = 0; b < kBlocks; ++b) EXPECT_EQ(seen[b], int32_t(b) * 10 + 1) << b;
}

}  // namespace
