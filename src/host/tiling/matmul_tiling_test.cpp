// Host tiling (tiling/tiling_api.h) and the platform (tiling/platform/platform_ascendc.h): every
// tiling fits the profile's L1/L0A/L0B/L0C/BiasTable as the Matmul API allocates them, covers the
// matrix with at most the requested cores, and keeps the TCubeTiling byte layout of CANN.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ascsim/runtime.h"
#include "ascsim/soc.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace {

using matmul_tiling::DataType;
using platform_ascendc::CoreMemType;
using platform_ascendc::PlatformAscendCManager;

int32_t Align(int32_t v, int32_t a) { return (v + a - 1) / a * a; }
int32_t CeilDiv(int32_t a, int32_t b) { return (a + b - 1) / b; }

TEST(PlatformAscendC, AnswersFromTheNamedProfile) {
  struct Want {
    const char* soc;
    uint32_t aic, aiv;
    uint64_t ub, l1, l0a, l0c;
    platform_ascendc::SocVersion version;
  };
  for (const Want& w : {Want{"Ascend910B1", 24, 48, 192 * 1024, 512 * 1024, 64 * 1024, 128 * 1024,
                             platform_ascendc::SocVersion::ASCEND910B},
                        Want{"Ascend910B3", 20, 40, 192 * 1024, 512 * 1024, 64 * 1024, 128 * 1024,
                             platform_ascendc::SocVersion::ASCEND910B},
                        Want{"Ascend310P3", 8, 8, 256 * 1024, 1024 * 1024, 64 * 1024, 256 * 1024,
                             platform_ascendc::SocVersion::ASCEND310P}}) {
    auto* p = PlatformAscendCManager::GetInstance(w.soc);
    ASSERT_NE(p, nullptr) << w.soc;
    EXPECT_EQ(p->GetCoreNumAic(), w.aic) << w.soc;
    EXPECT_EQ(p->GetCoreNumAiv(), w.aiv) << w.soc;
    EXPECT_EQ(p->GetCoreNum(), w.aiv) << w.soc;
    uint64_t size = 0;
    p->GetCoreMemSize(CoreMemType::UB, size);
    EXPECT_EQ(size, w.ub) << w.soc;
    p->GetCoreMemSize(CoreMemType::L1, size);
    EXPECT_EQ(size, w.l1) << w.soc;
    p->GetCoreMemSize(CoreMemType::L0_A, size);
    EXPECT_EQ(size, w.l0a) << w.soc;
    p->GetCoreMemSize(CoreMemType::L0_C, size);
    EXPECT_EQ(size, w.l0c) << w.soc;
    EXPECT_EQ(p->GetSocVersion(), w.version) << w.soc;
    // The reserved system workspace: 16 MiB on A2, 2 MiB on the 310P.
    EXPECT_EQ(p->GetLibApiWorkSpaceSize(),
              w.version == platform_ascendc::SocVersion::ASCEND310P ? 2u << 20 : 16u << 20)
        << w.soc;
  }
  // A SoC name the toolkit maps to a profile answers from that profile (src/base/soc_names.inc:
  // the 910B4 is simulated as the 910B3, 20 AICs).
  auto* b4 = PlatformAscendCManager::GetInstance("Ascend910B4");
  ASSERT_NE(b4, nullptr);
  EXPECT_EQ(b4->GetCoreNumAic(), 20u);
  // A name that is none answers from the active profile (and says so on stderr).
  testing::internal::CaptureStderr();
  auto* unknown = PlatformAscendCManager::GetInstance("Ascend999");
  const std::string note = testing::internal::GetCapturedStderr();
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(unknown->GetCoreNumAic(), PlatformAscendCManager::GetInstance()->GetCoreNumAic());
  EXPECT_NE(note.find("GetInstance(\"Ascend999\"): no profile of that name"), std::string::npos)
      << note;
}

TEST(PlatformAscendC, GetInstanceFollowsTheActiveProfile) {
  ascsim::ScopedSettings keep;
  ascsim::Settings s = ascsim::GetSettings();
  s.soc = &ascsim::FindSocProfile("Ascend910B3");
  ascsim::SetSettings(s);
  EXPECT_EQ(PlatformAscendCManager::GetInstance()->GetCoreNumAic(), 20u);
  s.soc = &ascsim::FindSocProfile("Ascend310P3");
  ascsim::SetSettings(s);
  EXPECT_EQ(PlatformAscendCManager::GetInstance()->GetCoreNumAic(), 8u);
}

TEST(PlatformAscendC, ReserveLocalMemoryShrinksTheUnifiedBuffer) {
  platform_ascendc::PlatformAscendC p(&ascsim::FindSocProfile("Ascend910B1"));
  p.ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_16K);
  uint64_t ub = 0;
  p.GetCoreMemSize(CoreMemType::UB, ub);
  EXPECT_EQ(ub, 176u * 1024);
  // A mix kernel takes one block per AIC, each serving aiv / aic slices.
  EXPECT_EQ(p.CalcTschBlockDim(48, 24, 48), 24u);
  EXPECT_EQ(p.CalcTschBlockDim(5, 24, 48), 3u);
}

TEST(TCubeTiling, KeepsCannsFieldOrderAndBytes) {
  static_assert(sizeof(TCubeTiling) == 50 * sizeof(int32_t), "50 int32 fields");
  EXPECT_EQ(offsetof(TCubeTiling, usedCoreNum), 0u);
  EXPECT_EQ(offsetof(TCubeTiling, baseM), 8 * 4u);
  EXPECT_EQ(offsetof(TCubeTiling, isBias), 15 * 4u);
  EXPECT_EQ(offsetof(TCubeTiling, stepKa), 26 * 4u);
  EXPECT_EQ(offsetof(TCubeTiling, dbL0C), 32 * 4u);
  EXPECT_EQ(offsetof(TCubeTiling, mxTypePara), 49 * 4u);
  optiling::TCubeTiling host;
  host.set_M(123);
  host.set_baseK(64);
  host.set_iterateOrder(1);
  EXPECT_EQ(host.GetDataSize(), sizeof(TCubeTiling));
  std::vector<uint8_t> buf(host.GetDataSize());
  host.SaveToBuffer(buf.data(), buf.size());
  TCubeTiling kernel;
  std::memcpy(&kernel, buf.data(), sizeof(kernel));
  EXPECT_EQ(kernel.M, 123);
  EXPECT_EQ(kernel.baseK, 64);
  EXPECT_EQ(kernel.iterateOrder, 1);
}

struct TilingCase {
  int32_t m, n, k;
  DataType in, out;
  bool trans_a, trans_b, bias;
  int32_t dim;
};

int32_t Bytes(DataType t) {
  return t == DataType::DT_FLOAT || t == DataType::DT_INT32 ? 4 : t == DataType::DT_INT8 ? 1 : 2;
}

// Every rule the kernel-side Matmul relies on.
void CheckValid(const TilingCase& c, const optiling::TCubeTiling& t, const ascsim::SocProfile& p) {
  const std::string what =
      std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) + " on " + p.name;
  const int32_t ea = Bytes(c.in), c0 = 32 / ea;
  EXPECT_EQ(t.get_M(), c.m) << what;
  EXPECT_EQ(t.get_N(), c.n) << what;
  EXPECT_EQ(t.get_Ka(), c.k) << what;
  EXPECT_EQ(t.get_Kb(), c.k) << what;
  EXPECT_GE(t.get_usedCoreNum(), 1) << what;
  EXPECT_LE(t.get_usedCoreNum(), c.dim) << what;
  const int32_t sm = t.get_singleCoreM(), sn = t.get_singleCoreN(), sk = t.get_singleCoreK();
  EXPECT_EQ(CeilDiv(c.m, sm) * CeilDiv(c.n, sn), t.get_usedCoreNum()) << what;
  EXPECT_EQ(sk, c.k) << what;
  const int32_t bm = t.get_baseM(), bn = t.get_baseN(), bk = t.get_baseK();
  // int8_t A transposed (B not) is loaded into L0 in 32 x 32 squares: M (N) in multiples of 32.
  const int32_t m_align = (ea == 1 && c.trans_a) ? 32 : 16;
  const int32_t n_align = (ea == 1 && !c.trans_b) ? 32 : 16;
  EXPECT_EQ(bm % m_align, 0) << what;
  EXPECT_EQ(bn % n_align, 0) << what;
  EXPECT_EQ(bk % c0, 0) << what;
  EXPECT_LE(bm, Align(sm, m_align)) << what;
  EXPECT_LE(bn, Align(sn, n_align)) << what;
  EXPECT_LE(uint64_t(bm) * Align(bk, c0) * ea * t.get_dbL0A(),
            ascsim::MemoryBytes(p, ascsim::Memory::kL0A))
      << what;
  EXPECT_LE(uint64_t(Align(bk, c0)) * bn * ea * t.get_dbL0B(),
            ascsim::MemoryBytes(p, ascsim::Memory::kL0B))
      << what;
  EXPECT_LE(uint64_t(bm) * bn * 4 * t.get_dbL0C(), ascsim::MemoryBytes(p, ascsim::Memory::kL0C))
      << what;
  if (c.bias) {
    EXPECT_EQ(t.get_isBias(), 1) << what;
    if (ascsim::MemoryBytes(p, ascsim::Memory::kBt) > 0) {  // none on 310P
      EXPECT_LE(uint64_t(bn) * 4, ascsim::MemoryBytes(p, ascsim::Memory::kBt)) << what;
    }
  }
  const uint64_t a_tile = uint64_t(Align(bm, 32)) * Align(bk, 32) * ea;
  const uint64_t b_tile = uint64_t(Align(bk, 32)) * Align(bn, 32) * ea;
  EXPECT_LE(a_tile * t.get_depthA1() + b_tile * t.get_depthB1() + (c.bias ? Align(bn * 4, 64) : 0),
            ascsim::MemoryBytes(p, ascsim::Memory::kL1))
      << what;
  EXPECT_GE(t.get_depthA1(), 1) << what;
  // CANN's L1 factors (matmul_l1_factors.h): A1 holds one or two tiles of stepM x stepKa blocks;
  // B1 likewise, except where a float B's padded K makes UpdateDepthB1 shrink it.
  const int32_t tile_a = t.get_stepM() * t.get_stepKa(), tile_b = t.get_stepN() * t.get_stepKb();
  ASSERT_GE(tile_a, 1) << what;
  ASSERT_GE(tile_b, 1) << what;
  EXPECT_TRUE(t.get_depthA1() == tile_a || t.get_depthA1() == 2 * tile_a) << what;
  if (c.in != DataType::DT_FLOAT) {
    EXPECT_TRUE(t.get_depthB1() == tile_b || t.get_depthB1() == 2 * tile_b) << what;
  }
  EXPECT_GE(t.get_depthB1(), 1) << what;
}

TEST(MultiCoreMatmulTiling, FitsEveryProfileForManyShapes) {
  const std::vector<TilingCase> cases = {
      {16, 16, 16, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, false, 48},
      {1024, 1024, 1024, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, true, 48},
      {2048, 2048, 2048, DataType::DT_FLOAT16, DataType::DT_FLOAT16, false, true, false, 24},
      {1, 4096, 4096, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, false, 48},
      {4096, 1, 77, DataType::DT_FLOAT16, DataType::DT_FLOAT, true, false, false, 48},
      {257, 300, 130, DataType::DT_BF16, DataType::DT_FLOAT, false, false, true, 40},
      {333, 555, 777, DataType::DT_FLOAT, DataType::DT_FLOAT, false, true, true, 24},
      {512, 512, 8192, DataType::DT_INT8, DataType::DT_INT32, false, true, false, 20},
      {100, 70, 33, DataType::DT_INT8, DataType::DT_INT32, false, true, true, 8},
      {100, 70, 33, DataType::DT_INT8, DataType::DT_INT32, true, false, false, 8},
      {1000, 3000, 700, DataType::DT_INT8, DataType::DT_INT32, false, false, true, 24},
  };
  for (const char* soc : {"Ascend910B1", "Ascend910B3", "Ascend310P3"}) {
    const ascsim::SocProfile& p = ascsim::FindSocProfile(soc);
    for (const TilingCase& c : cases) {
      using namespace matmul_tiling;
      MultiCoreMatmulTiling api(*PlatformAscendCManager::GetInstance(soc));
      api.SetDim(c.dim);
      api.SetAType(TPosition::GM, CubeFormat::ND, c.in, c.trans_a);
      api.SetBType(TPosition::GM, CubeFormat::ND, c.in, c.trans_b);
      api.SetCType(TPosition::GM, CubeFormat::ND, c.out);
      api.SetBiasType(TPosition::GM, CubeFormat::ND,
                      c.in == DataType::DT_INT8 ? DataType::DT_INT32 : DataType::DT_FLOAT);
      api.SetShape(c.m, c.n, c.k);
      api.SetOrgShape(c.m, c.n, c.k);
      api.SetBias(c.bias);
      optiling::TCubeTiling t;
      ASSERT_EQ(api.GetTiling(t), 0) << c.m << "x" << c.n << "x" << c.k << " on " << soc;
      CheckValid(c, t, p);
      int32_t dim = 0, m_dim = 0, n_dim = 0;
      api.GetCoreNum(dim, m_dim, n_dim);
      EXPECT_EQ(dim, t.get_usedCoreNum());
      EXPECT_EQ(dim, m_dim * n_dim);
    }
  }
}

TEST(MultiCoreMatmulTiling, HonoursFixSplitTraverseAndSingleShape) {
  using namespace matmul_tiling;
  MultiCoreMatmulTiling api;
  api.SetDim(2);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(512, 1024, 512);
  api.SetShape(512, 1024, 512);
  api.SetTraverse(MatrixTraverse::FIRSTN);
  api.SetFixSplit(128, 256, -1);
  AscendC::tiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.baseM, 128);
  EXPECT_EQ(t.baseN, 256);
  EXPECT_EQ(t.iterateOrder, 1);
  EXPECT_EQ(t.usedCoreNum, 2);
  EXPECT_EQ(api.GetBaseM(), 128);
  int32_t sm = 0, sn = 0, sk = 0;
  api.GetSingleShape(sm, sn, sk);
  EXPECT_EQ(sm * sn * 2, 512 * 1024);
  api.SetSingleShape(256, 512, -1);
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.singleCoreM, 256);
  EXPECT_EQ(t.singleCoreN, 512);
  // A single shape counts every SetDim core as used (CANN's UpdateTiling), though 2 x 2 are needed.
  EXPECT_EQ(t.usedCoreNum, 2);
  int32_t dim = 0, m_dim = 0, n_dim = 0;
  api.GetCoreNum(dim, m_dim, n_dim);
  EXPECT_EQ(m_dim, 2);
  EXPECT_EQ(n_dim, 2);
}

TEST(MultiCoreMatmulTiling, AFixedBaseMAndNLeaveKToTheTiling) {
  // The kernel-launch samples' host code: SetFixSplit(128, 256, -1) on two cores.
  using namespace matmul_tiling;
  MultiCoreMatmulTiling api(*PlatformAscendCManager::GetInstance("Ascend910B1"));
  api.SetDim(2);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(512, 1024, 512);
  api.SetShape(512, 1024, 512);
  api.SetFixSplit(128, 256, -1);
  api.SetBias(false);
  api.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.get_baseM(), 128);
  EXPECT_EQ(t.get_baseN(), 256);
  EXPECT_EQ(t.get_baseK(), 64);  // L0B: 64 x 256 half, double-buffered, is all of it
  CheckValid(TilingCase{512, 1024, 512, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false,
                        false, 2},
             t, ascsim::FindSocProfile("Ascend910B1"));
}

TEST(MultiCoreMatmulTiling, FromAPlatformInfoWithoutSetDimUsesTheActiveProfilesAics) {
  // Built from a PlatformInfo there is no PlatformAscendC to ask for the core count.
  using namespace matmul_tiling;
  ascsim::ScopedSettings scoped;
  ascsim::SetSoc("Ascend910B3");
  PlatformInfo info;
  info.socVersion = platform_ascendc::SocVersion::ASCEND910B;
  info.l1Size = 512 * 1024;
  info.l0CSize = 128 * 1024;
  info.ubSize = 192 * 1024;
  info.l0ASize = 64 * 1024;
  info.l0BSize = 64 * 1024;
  MultiCoreMatmulTiling api(info);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(1024, 1024, 256);
  api.SetShape(1024, 1024, 256);
  api.SetBias(false);
  optiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_GE(t.get_usedCoreNum(), 1);
  EXPECT_LE(t.get_usedCoreNum(), 20);  // Ascend910B3 has 20 AICs
}

TEST(MultiCoreMatmulTiling, SetDimTwoSplitsMAsCann) {
  // asc-devkit's matmul_advanced_api example: SetDim(2) on M = N = 512, K = 128 gives two cores
  // along M (its kernel offsets A by blockIdx * singleCoreM * Ka and C by blockIdx * singleCoreM
  // * N); an N split would make that kernel read past A.
  using namespace matmul_tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  for (int32_t m : {512, 256, 1024}) {
    MultiCoreMatmulTiling api(*platform);
    api.SetDim(2);
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetOrgShape(m, m, 128);
    api.SetShape(m, m, 128);
    api.EnableBias(false);
    AscendC::tiling::TCubeTiling t;
    ASSERT_EQ(api.GetTiling(t), 0) << m;
    EXPECT_EQ(t.usedCoreNum, 2) << m;
    EXPECT_EQ(t.singleCoreM, m / 2) << m;
    EXPECT_EQ(t.singleCoreN, m) << m;
    int32_t dim = 0, mDim = 0, nDim = 0;
    api.GetCoreNum(dim, mDim, nDim);
    EXPECT_EQ(mDim, 2);
    EXPECT_EQ(nDim, 1);
  }
}

TEST(MatmulApiTiling, OneCoreTakesTheWholeShape) {
  using namespace matmul_tiling;
  MatmulApiTiling api(*PlatformAscendCManager::GetInstance("Ascend910B1"));
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetShape(300, 200, 100);
  api.SetOrgShape(300, 200, 100);
  optiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.get_usedCoreNum(), 1);
  EXPECT_EQ(t.get_singleCoreM(), 300);
  EXPECT_EQ(t.get_singleCoreN(), 200);
  EXPECT_EQ(t.get_singleCoreK(), 100);
  CheckValid(
      TilingCase{300, 200, 100, DataType::DT_FLOAT16, DataType::DT_FLOAT16, true, false, false, 1},
      t, ascsim::FindSocProfile("Ascend910B1"));
}

TEST(MatmulApiTiling, FailsWithMinusOneAndSaysWhy) {
  using namespace matmul_tiling;
  testing::internal::CaptureStderr();
  {
    MatmulApiTiling api;
    api.SetShape(64, 64, 64);
    optiling::TCubeTiling t;
    EXPECT_EQ(api.GetTiling(t), -1);  // no types
  }
  {
    MatmulApiTiling api;
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetShape(1024, 1024, 1024);
    api.SetFixSplit(512, 512, 256);  // far beyond L0A/L0B/L0C
    optiling::TCubeTiling t;
    EXPECT_EQ(api.GetTiling(t), -1);
    EXPECT_EQ(api.SetBufferSpace(1 << 30, -1, -1), -1);
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("matmul_tiling: GetTiling: SetAType, SetBType and SetCType are required"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("matmul_tiling: GetTiling: the fixed base block does not fit L0A/L0B/L0C/L1"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("SetBufferSpace: a size exceeds the platform's buffer"), std::string::npos)
      << err;
}

TEST(MatmulApiTiling, SetBufferSpaceLimitsL1) {
  using namespace matmul_tiling;
  MatmulApiTiling api;
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(1024, 1024, 1024);
  ASSERT_EQ(api.SetBufferSpace(64 * 1024, -1, -1), 0);
  optiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  const int32_t a_tile = Align(t.get_baseM(), 32) * Align(t.get_baseK(), 32) * 2;
  const int32_t b_tile = Align(t.get_baseK(), 32) * Align(t.get_baseN(), 32) * 2;
  EXPECT_LE(a_tile * t.get_depthA1() + b_tile * t.get_depthB1(), 64 * 1024);
}

}  // namespace

// SetDim's value is the number of cores the tiling may use, at most the launch's block_dim
// (asc-devkit SetDim docs), itself at most 65535: a larger one is refused (-1) and leaves the
// previous one; a huge but valid one costs no more than the splits that can differ.
TEST(MultiCoreMatmulTiling, AHugeDimIsRefusedOrCostsOnlyTheUsefulSplits) {
  using namespace matmul_tiling;
  auto tiling_for = [](int32_t dim, int32_t* set_result) {
    MultiCoreMatmulTiling api(*PlatformAscendCManager::GetInstance("Ascend910B1"));
    *set_result = api.SetDim(dim);
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetShape(100, 100, 100);
    api.SetOrgShape(100, 100, 100);
    AscendC::tiling::TCubeTiling t;
    EXPECT_EQ(api.GetTiling(t), 0) << dim;
    return t;
  };
  int32_t set = 0;
  for (int32_t dim : {1 << 30, 65536, std::numeric_limits<int32_t>::max()}) {
    MultiCoreMatmulTiling api;
    ASSERT_EQ(api.SetDim(dim), -1) << dim;
  }
  // 100 x 100 splits into at most 7 x 7 blocks of 16: any dim from 49 up gives that tiling.
  const AscendC::tiling::TCubeTiling at49 = tiling_for(49, &set);
  ASSERT_EQ(set, 0);
  const AscendC::tiling::TCubeTiling at_max = tiling_for(65535, &set);
  ASSERT_EQ(set, 0);
  EXPECT_EQ(at_max.usedCoreNum, at49.usedCoreNum);
  EXPECT_EQ(at_max.singleCoreM, at49.singleCoreM);
  EXPECT_EQ(at_max.singleCoreN, at49.singleCoreN);
  EXPECT_EQ(at_max.baseM, at49.baseM);
  EXPECT_EQ(at_max.baseN, at49.baseN);
  // A refused SetDim leaves the previous dim in force.
  MultiCoreMatmulTiling api(*PlatformAscendCManager::GetInstance("Ascend910B1"));
  ASSERT_EQ(api.SetDim(2), 0);
  EXPECT_EQ(api.SetDim(1 << 30), -1);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(100, 100, 100);
  api.SetOrgShape(100, 100, 100);
  AscendC::tiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_LE(t.usedCoreNum, 2);
}
