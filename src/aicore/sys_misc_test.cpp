// The system names of sys_misc.h and the mask/repeat Copy of ub_movement.h, against their
// documented semantics and scalar references, with every error path.
#include <gtest/gtest.h>

#include <cmath>
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

std::string Warnings(CoreFixture& fx) {
  std::string all;
  for (const std::string& line : fx.core().launch().warnings.Lines()) all += line + "\n";
  return all;
}

// ---------------------------------------------------------------- workspace

TEST(SysWorkspace, UserWorkspaceSkipsTheReservedSystemWorkspace) {
  CoreFixture fx;
  DeviceBuffer ws((16u << 20) + 4096);
  GM_ADDR user = AscendC::GetUserWorkspace(ws.gm());
  EXPECT_EQ(user, ws.gm() + (16u << 20));
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(user), 1024);
  g.SetValue(1023, 2.5f);  // the last user float is inside the allocation
  EXPECT_EQ(g.GetValue(1023), 2.5f);
  EXPECT_EQ(Warnings(fx), "");
}

TEST(SysWorkspace, Reserved310PIsTwoMiB) {
  CoreFixture fx(128 * 1024, "Ascend310P3");
  DeviceBuffer ws((2u << 20) + 64);
  EXPECT_EQ(AscendC::GetUserWorkspace(ws.gm()), ws.gm() + (2u << 20));
}

TEST(SysWorkspace, TooSmallWorkspaceWarnsAndItsUseFaults) {
  CoreFixture fx;
  DeviceBuffer ws(4096);
  GM_ADDR user = AscendC::GetUserWorkspace(ws.gm());
  EXPECT_NE(Warnings(fx).find("GetUserWorkspace: the workspace allocation holds 4096 B from the "
                              "workspace pointer, less than the 16 MiB system workspace"),
            std::string::npos)
      << Warnings(fx);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(user), 16);
  EXPECT_NE(ErrorOf([&] { g.SetValue(0, 1.0f); }).find("is not device memory"), std::string::npos);
}

TEST(SysWorkspace, NullOrForeignWorkspaceFaults) {
  CoreFixture fx;
  EXPECT_EQ(ErrorOf([] { AscendC::GetUserWorkspace(nullptr); }),
            "test: block 0/1: GetUserWorkspace: workspace is nullptr (the host must pass the "
            "workspace it allocated: user bytes + GetLibApiWorkSpaceSize() of system workspace)");
  std::vector<uint8_t> host(64);
  EXPECT_NE(ErrorOf([&] {
              AscendC::GetUserWorkspace(host.data());
            }).find("GetUserWorkspace: workspace 0x"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] {
              AscendC::SetSysWorkspace(nullptr);
            }).find("SetSysWorkspace: workspace can not be nullptr"),
            std::string::npos);
}

TEST(SysWorkspace, SysWorkspacePointerIsSetOnceUnlessForced) {
  CoreFixture fx;
  DeviceBuffer a(64), b(64);
  EXPECT_EQ(AscendC::GetSysWorkSpacePtr(), nullptr);
  AscendC::SetSysWorkspace(a.gm());
  EXPECT_EQ(AscendC::GetSysWorkSpacePtr(), a.gm());
  AscendC::SetSysWorkspace(b.gm());  // g_sysWorkspaceReserved keeps the first
  EXPECT_EQ(AscendC::GetSysWorkSpacePtr(), a.gm());
  AscendC::SetSysWorkspaceForce(b.gm());
  EXPECT_EQ(AscendC::GetSysWorkSpacePtr(), b.gm());
}

// ---------------------------------------------------------------- registers

TEST(SysRegisters, Int32ToHalfCastScalesByDeqScale) {
  CoreFixture fx;
  constexpr uint32_t n = 77;
  auto src = fx.Take<int32_t>(n);
  auto dst = fx.Take<half>(n);
  const auto v = RandomVector<int32_t>(n, -70000, 70000, 5);
  Fill(src, v);
  AscendC::SetDeqScale(half(1.0f));
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(Bits(dst.GetValue(i)), Bits(half(float(v[i])))) << i;
  AscendC::SetDeqScale(half(0.25f));
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(Bits(dst.GetValue(i)), Bits(half(float(v[i]) * 0.25f))) << i;
  }
  EXPECT_EQ(Warnings(fx), "");
}

TEST(SysRegisters, Int32ToHalfCastWithoutDeqScaleWarns) {
  CoreFixture fx;
  auto src = fx.Take<int32_t>(16);
  auto dst = fx.Take<half>(16);
  Fill(src, std::vector<int32_t>(16, 3));
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, 16);
  EXPECT_EQ(float(dst.GetValue(15)), 3.0f);
  EXPECT_NE(Warnings(fx).find("which this kernel never set (call SetDeqScale((half)1.0)"),
            std::string::npos);
}

template <class T>
void CheckAccVal(uint32_t n, uint32_t seed) {
  CoreFixture fx;
  auto src = fx.Take<T>(n), dst = fx.Take<T>(16), work = fx.Take<T>(512);
  const auto v = RandomVector<T>(n, -2, 2, seed);
  Fill(src, v);
  AscendC::ReduceSum(dst, src, work, n);
  EXPECT_EQ(Bits(AscendC::GetAccVal<T>()), Bits(dst.GetValue(0)));
  const int64_t raw = AscendC::GetAccVal();
  T low;
  std::memcpy(static_cast<void*>(&low), &raw, sizeof(T));
  EXPECT_EQ(Bits(low), Bits(dst.GetValue(0)));
  EXPECT_EQ(raw >> (8 * sizeof(T)), 0);
  EXPECT_EQ(Bits(AscendC::GetReduceRepeatSumSpr<T>()), Bits(dst.GetValue(0)));
}
TEST(SysRegisters, AccValHoldsTheLastReduceSum) {
  CheckAccVal<float>(1001, 6);
  CheckAccVal<half>(333, 7);
}

TEST(SysRegisters, CtrlSprBit48) {
  CoreFixture fx;
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 1);  // inf/NaN mode: what ascsim computes in
  AscendC::SetCtrlSpr<48, 48>(1);
  EXPECT_EQ(Warnings(fx), "");
  AscendC::SetCtrlSpr<48, 48>(0);
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 0);
  EXPECT_NE(Warnings(fx).find("saturation mode (inf -> +-MAX, NaN -> 0 for half/bfloat16_t) is not "
                              "simulated"),
            std::string::npos);
  AscendC::ResetCtrlSpr<48, 48>();
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 1);
  EXPECT_EQ(ErrorOf([] { AscendC::SetCtrlSpr<48, 48>(2); }),
            "test: block 0/1: SetCtrlSpr<48, 48>: value 2 does not fit the 1-bit field CTRL[48]");
}

TEST(SysRegisters, CtrlSprIsNotOn310P) {
  CoreFixture fx(128 * 1024, "Ascend310P3");
  EXPECT_EQ(ErrorOf([] { (void)AscendC::GetCtrlSpr<48, 48>(); }),
            "test: block 0/1: GetCtrlSpr: CTRL[48] is not available on Ascend310P3 (arch 2002); "
            "it exists on arch 2201 (Atlas A2/A3)");
}

TEST(SysRegisters, AscendCUtilsSetMaskWritesTheRegister) {
  CoreFixture fx;
  auto& core = fx.core().core();
  for (int32_t len : {1, 7, 63, 64, 65, 100, 127, 128, 200}) {
    AscendC::AscendCUtils::SetMask<half>(len);
    uint64_t lo = 0, hi = 0;
    for (int32_t e = 0; e < std::min(len, 128); ++e) (e < 64 ? lo : hi) |= uint64_t{1} << (e % 64);
    EXPECT_EQ(core.mask_low, lo) << len;
    EXPECT_EQ(core.mask_high, hi) << len;
  }
  AscendC::AscendCUtils::SetMask<float>(64);  // a whole float repeat
  EXPECT_EQ(core.mask_low, ~0ull);
  AscendC::AscendCUtils::SetMask<float>(0x12, 0x34);
  EXPECT_EQ(core.mask_high, 0x12u);
  EXPECT_EQ(core.mask_low, 0x34u);
  EXPECT_EQ(AscendC::AscendCUtils::GetC0Count(2), 16);
  EXPECT_EQ(AscendC::AscendCUtils::GetC0Count(4), 8);
  EXPECT_EQ(AscendC::AscendCUtils::GetBitSize(4), 32);
  EXPECT_EQ(AscendC::AscendCUtils::GetDefaultBlockNum(), 8);
  static_assert(AscendC::GetDataBlockSizeInBytes() == 32);
  EXPECT_EQ(ErrorOf([] { AscendC::AscendCUtils::GetC0Count(0); }),
            "test: block 0/1: AscendCUtils::GetC0Count: dtypeSize can not be 0");
  // The mask it leaves is the one a later isSetMask=false instruction uses.
  auto a = fx.Take<float>(64), b = fx.Take<float>(64), c = fx.Take<float>(64);
  Fill(a, std::vector<float>(64, 1.0f));
  Fill(b, std::vector<float>(64, 2.0f));
  Fill(c, std::vector<float>(64, 0.0f));
  AscendC::AscendCUtils::SetMask<float>(10);
  AscendC::Add<float, false>(c, a, b, AscendC::MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(c.GetValue(i), i < 10 ? 3.0f : 0.0f) << i;
  AscendC::InitSocState();
  EXPECT_EQ(core.mask_low, ~0ull);
  EXPECT_FALSE(core.mask_counter_mode);
}

// ---------------------------------------------------------------- cache control

TEST(SysCache, DataCacheCleanAndInvalidChecksItsTensor) {
  CoreFixture fx;
  DeviceBuffer buf(256);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(buf.as<float>(), 64);
  g.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
  EXPECT_EQ(g.cacheMode_, AscendC::CacheMode::CACHE_MODE_DISABLE);
  g.SetValue(3, 4.0f);
  AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::SINGLE_CACHE_LINE>(g[3]);
  AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE,
                                    AscendC::DcciDst::CACHELINE_OUT>(g);
  EXPECT_EQ(g.GetValue(3), 4.0f);
  AscendC::GlobalTensor<float> unbound;
  EXPECT_EQ(
      ErrorOf([&] {
        AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::SINGLE_CACHE_LINE>(unbound);
      }),
      "test: block 0/1: DataCacheCleanAndInvalid: GlobalTensor has no buffer "
      "(SetGlobalBuffer not called)");
}

TEST(SysCache, DcciDstFormIsNotOn310P) {
  CoreFixture fx(128 * 1024, "Ascend310P3");
  DeviceBuffer buf(256);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(buf.as<float>(), 64);
  AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE>(g);
  EXPECT_NE(ErrorOf([&] {
              AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE,
                                                AscendC::DcciDst::CACHELINE_ALL>(g);
            }).find("the DcciDst form is not available on Ascend310P3"),
            std::string::npos);
}

// ---------------------------------------------------------------- scalar conversions

TEST(SysScalar, Bfloat16ConversionsOfTheScalarUnit) {
  for (float f : {0.0f, -1.0f, 3.14159f, 1e-40f, 65504.0f, 3.4e38f, -INFINITY}) {
    const bfloat16_t b = AscendC::ToBfloat16(f);
    EXPECT_EQ(b.bits, ascsim::FloatToBf16Bits(f)) << f;
    EXPECT_EQ(AscendC::ToFloat(b), ascsim::Bf16BitsToFloat(b.bits)) << f;
  }
  EXPECT_EQ(AscendC::ToBfloat16(NAN).bits, 0x7FFF);
  EXPECT_EQ(AscendC::ToBfloat16(-NAN).bits, 0x7FFF);
  // Ties go to even: 1 + 2^-8 is halfway between 1 and 1 + 2^-7.
  EXPECT_EQ(AscendC::ToBfloat16(1.0f + 1.0f / 256).bits, 0x3F80);
  EXPECT_EQ(AscendC::ToBfloat16(1.0f + 3.0f / 256).bits, 0x3F82);
  EXPECT_EQ(AscendC::Cast(AscendC::Cast(2.5f)), 2.5f);
}

TEST(SysScalar, ScalarCastRoundsByMode) {
  using AscendC::RoundMode;
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(2.5f)), 3);
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(-2.5f)), -3);
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_RINT>(2.5f)), 2);
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(-2.1f)), -3);
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_CEIL>(-2.9f)), -2);
  EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_RINT>(3e9f)), INT32_MAX);
  // 1 + 2^-11 lies between two halves; odd rounding picks the one with an odd last bit.
  const half h = AscendC::ScalarCast<float, half, RoundMode::CAST_ODD>(1.0f + 1.0f / 2048);
  EXPECT_EQ(h.bits, 0x3C01);
  EXPECT_EQ((AscendC::ScalarCast<float, half, RoundMode::CAST_ODD>(1.5f)).bits, 0x3E00);
}

// ---------------------------------------------------------------- InitOutput

template <class T>
void CheckInitOutput(uint32_t size, T value) {
  CoreFixture fx;
  DeviceBuffer buf((size + 8) * sizeof(T));
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(buf.as<T>(), size + 8);
  for (uint32_t i = 0; i < size + 8; ++i) g.SetValue(i, T(7));
  AscendC::InitOutput(g[2], size, value);
  for (uint32_t i = 0; i < size + 8; ++i) {
    const T want = (i >= 2 && i < size + 2) ? value : T(7);
    ASSERT_EQ(Bits(g.GetValue(i)), Bits(want)) << i;
  }
}
TEST(SysInitOutput, FillsGmForBothTypesAndOddSizes) {
  CheckInitOutput<float>(1000, -1.5f);
  CheckInitOutput<float>(3, 0.0f);
  CheckInitOutput<half>(4099, half(2.0f));
  CheckInitOutput<int32_t>(257, 5);
}

TEST(SysInitOutput, DefaultValueIsZeroAndAtomicAddApplies) {
  CoreFixture fx;
  DeviceBuffer buf(64 * sizeof(float));
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(buf.as<float>(), 64);
  AscendC::InitOutput<float>(g, 64);
  EXPECT_EQ(g.GetValue(63), 0.0f);
  AscendC::SetAtomicAdd<float>();
  AscendC::InitOutput<float>(g, 64, 1.25f);
  AscendC::InitOutput<float>(g, 64, 1.25f);
  AscendC::SetAtomicNone();
  EXPECT_EQ(g.GetValue(10), 2.5f);
}

TEST(SysInitOutput, Errors) {
  {
    CoreFixture fx;
    DeviceBuffer buf(64 * sizeof(float));
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(buf.as<float>(), 64);
    EXPECT_EQ(ErrorOf([&] { AscendC::InitOutput<float>(g[10], 60, 1.0f); }),
              "test: block 0/1: InitOutput write [10, 70) of float exceeds GlobalTensor size 64");
  }
  {
    CoreFixture fx(192 * 1024);  // the TPipe owns all of UB
    DeviceBuffer buf(64 * sizeof(float));
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(buf.as<float>(), 64);
    EXPECT_NE(ErrorOf([&] {
                AscendC::InitOutput<float>(g, 64, 1.0f);
              }).find("InitOutput: no free UB above the TPipe's buffers (196608 of 196608 B"),
              std::string::npos);
  }
  {
    CoreFixture fx(128 * 1024, "Ascend310P3");
    DeviceBuffer buf(64 * sizeof(float));
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(buf.as<float>(), 64);
    EXPECT_NE(ErrorOf([&] {
                AscendC::InitOutput<float>(g, 64, 1.0f);
              }).find("InitOutput: InitOutput is not available on Ascend310P3"),
              std::string::npos);
  }
}

TEST(SysDebug, TrapFaults) {
  CoreFixture fx;
  EXPECT_EQ(ErrorOf([] { AscendC::Trap(); }),
            "test: block 0/1: Trap(): the kernel trapped (the device raises an AI core exception)");
}

// ---------------------------------------------------------------- Copy

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
