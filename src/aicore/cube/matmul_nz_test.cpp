// The Matmul API with A and B in CubeFormat::NZ in GM (column stripes of C0 = 32 B elements,
// Align16(rows) rows each, as the Matmul docs' 表3 and the samples' gen_data scripts lay them
// out) and with int8_t inputs whose K runs down the L1 tile (B not transposed, A transposed),
// which the cube loads with LoadDataWithTranspose. One AIC computes C = op(A) x op(B) of the
// top-left m x n x k of org-sized matrices, against a scalar reference: int8_t exactly, half
// within float rounding; CFG_NORM and CFG_MDL; then the faults with their messages.
#define ASCENDC_CUBE_ONLY
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/profile.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

#undef DT_FLOAT
#undef DT_FLOAT16
#undef DT_INT8
#undef DT_INT32

namespace {

using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;

// After the tiling in GM: transA, transB, then a single shape m, n, k for SetSingleShape (0: the
// tiling's).
constexpr uint32_t kTilingWords = sizeof(TCubeTiling) / sizeof(uint32_t);

template <class T, class C, CubeFormat FA, CubeFormat FB, const auto& CFG>
__aicore__ inline void NzMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR params) {
  AscendC::TPipe pipe;
  TCubeTiling tiling;
  uint32_t* dst = reinterpret_cast<uint32_t*>(&tiling);
  auto src = reinterpret_cast<__gm__ uint32_t*>(params);
  for (uint32_t i = 0; i < kTilingWords; ++i) dst[i] = src[i];
  const bool transA = src[kTilingWords] != 0, transB = src[kTilingWords + 1] != 0;
  using AT = AscendC::MatmulType<AscendC::TPosition::GM, FA, T, true>;
  using BT = AscendC::MatmulType<AscendC::TPosition::GM, FB, T, true>;
  using CT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, C>;
  AscendC::Matmul<AT, BT, CT, CT, CFG> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::GlobalTensor<T> aGlobal, bGlobal;
  AscendC::GlobalTensor<C> cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a));
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b));
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(c), tiling.M * tiling.N);
  if (src[kTilingWords + 2] != 0) {
    mm.SetSingleShape(src[kTilingWords + 2], src[kTilingWords + 3], src[kTilingWords + 4]);
  }
  mm.SetTensorA(aGlobal, transA);
  mm.SetTensorB(bGlobal, transB);
  // Block by block, as the GroupMatmul sample drains it.
  while (mm.Iterate()) mm.GetTensorC(cGlobal);
  mm.End();
}

}  // namespace

#define ASCSIM_NZ_KERNEL(name, T, C, FA, FB, CFG)                                          \
  extern "C" __global__ __aicore__ void name(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR p) { \
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);                                        \
    NzMatmul<T, C, CubeFormat::FA, CubeFormat::FB, CFG>(a, b, c, p);                       \
  }
ASCSIM_NZ_KERNEL(mm_nz_i8_nd_nz, int8_t, int32_t, ND, NZ, CFG_NORM)
ASCSIM_NZ_KERNEL(mm_nz_i8_nz_nz, int8_t, int32_t, NZ, NZ, CFG_NORM)
ASCSIM_NZ_KERNEL(mm_nz_i8_nd_nd, int8_t, int32_t, ND, ND, CFG_NORM)
ASCSIM_NZ_KERNEL(mm_nz_i8_nd_nz_mdl, int8_t, int32_t, ND, NZ, CFG_MDL)
ASCSIM_NZ_KERNEL(mm_nz_i8_nz_nd_mdl, int8_t, int32_t, NZ, ND, CFG_MDL)
ASCSIM_NZ_KERNEL(mm_nz_h_nz_nz, half, float, NZ, NZ, CFG_NORM)
ASCSIM_NZ_KERNEL(mm_nz_h_nz_nd, half, float, NZ, ND, CFG_NORM)
ASCSIM_NZ_KERNEL(mm_nz_h_nd_nz_mdl, half, float, ND, NZ, CFG_MDL)
ASCSIM_NZ_KERNEL(mm_nz_i8_vector_a, int8_t, int32_t, VECTOR, ND, CFG_NORM)

namespace {

using Runner = void (*)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);
#define ASCSIM_NZ_RUNNER(kernel)                                   \
  void kRun_##kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR p) { \
    ICPU_RUN_KF(kernel, 1, a, b, c, p);                            \
  }
ASCSIM_NZ_RUNNER(mm_nz_h_nd_nz_mdl)
ASCSIM_NZ_RUNNER(mm_nz_h_nz_nd)
ASCSIM_NZ_RUNNER(mm_nz_h_nz_nz)
ASCSIM_NZ_RUNNER(mm_nz_i8_nd_nd)
ASCSIM_NZ_RUNNER(mm_nz_i8_nd_nz)
ASCSIM_NZ_RUNNER(mm_nz_i8_nd_nz_mdl)
ASCSIM_NZ_RUNNER(mm_nz_i8_nz_nd_mdl)
ASCSIM_NZ_RUNNER(mm_nz_i8_nz_nz)
ASCSIM_NZ_RUNNER(mm_nz_i8_vector_a)

int32_t AlignUp(int32_t v, int32_t a) { return (v + a - 1) / a * a; }

struct Case {
  int32_t m, n, k;           // the product computed (the tiling's single shape)
  int32_t org_m, org_n, org_k;  // the matrices in GM
  bool trans_a, trans_b;
  bool nz_a, nz_b;
  int32_t base_m = -1, base_n = -1, base_k = -1;  // SetFixSplit (-1: the tiling's choice)
  int32_t step_m = 1, step_n = 1, step_k = 1;     // CFG_MDL steps (depth = 2 tiles)
  int32_t single_m = 0, single_n = 0, single_k = 0;  // SetSingleShape in the kernel (0: none)
};

std::string Describe(const Case& c) {
  return std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) + " of " +
         std::to_string(c.org_m) + "x" + std::to_string(c.org_n) + "x" + std::to_string(c.org_k) +
         (c.nz_a ? " A NZ" : " A ND") + (c.trans_a ? "^T" : "") + (c.nz_b ? ", B NZ" : ", B ND") +
         (c.trans_b ? "^T" : "");
}

// The tiling words plus transA, transB and the kernel's single shape.
std::vector<uint32_t> Params(const Case& c, bool int8) {
  using namespace matmul_tiling;
  using Format = matmul_tiling::CubeFormat;
  const DataType in = int8 ? DataType::DT_INT8 : DataType::DT_FLOAT16;
  MatmulApiTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetAType(TPosition::GM, c.nz_a ? Format::NZ : Format::ND, in, c.trans_a);
  api.SetBType(TPosition::GM, c.nz_b ? Format::NZ : Format::ND, in, c.trans_b);
  api.SetCType(TPosition::GM, Format::ND, int8 ? DataType::DT_INT32 : DataType::DT_FLOAT);
  api.SetShape(c.m, c.n, c.k);
  api.SetOrgShape(c.org_m, c.org_n, c.org_k);
  api.SetBias(false);
  api.SetFixSplit(c.base_m, c.base_n, c.base_k);
  optiling::TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0) << Describe(c);
  if (c.step_m * c.step_n * c.step_k > 1) {
    t.set_stepM(c.step_m);
    t.set_stepN(c.step_n);
    t.set_stepKa(c.step_k);
    t.set_stepKb(c.step_k);
    t.set_depthA1(2 * c.step_m * c.step_k);
    t.set_depthB1(2 * c.step_n * c.step_k);
  }
  std::vector<uint32_t> words(kTilingWords + 5, 0);
  EXPECT_EQ(t.GetDataSize(), kTilingWords * 4);
  t.SaveToBuffer(words.data(), kTilingWords * 4);
  words[kTilingWords] = c.trans_a;
  words[kTilingWords + 1] = c.trans_b;
  words[kTilingWords + 2] = c.single_m;
  words[kTilingWords + 3] = c.single_n;
  words[kTilingWords + 4] = c.single_k;
  return words;
}

// The stored rows x cols matrix `x` (row-major) in GM as ND, or as NZ: element (r, c) at
// (c / C0) * Align16(rows) * C0 + r * C0 + c % C0.
template <class T>
std::vector<T> Layout(const std::vector<T>& x, int32_t rows, int32_t cols, bool nz) {
  if (!nz) return x;
  const int32_t c0 = 32 / sizeof(T), rows16 = AlignUp(rows, 16);
  std::vector<T> out(size_t(rows16) * AlignUp(cols, c0), T(0));
  for (int32_t r = 0; r < rows; ++r) {
    for (int32_t col = 0; col < cols; ++col) {
      out[size_t(col / c0) * rows16 * c0 + size_t(r) * c0 + col % c0] = x[size_t(r) * cols + col];
    }
  }
  return out;
}

// Runs `run` on random A and B; returns C (org_m x org_n, row stride org_n).
template <class T, class C>
std::vector<C> RunCase(Runner run, const Case& c, std::vector<T>* a_log, std::vector<T>* b_log) {
  const bool int8 = sizeof(T) == 1;
  // The stored matrices: A is org_m x org_k (org_k x org_m when transposed), B org_k x org_n
  // (org_n x org_k).
  const int32_t ar = c.trans_a ? c.org_k : c.org_m, ac = c.trans_a ? c.org_m : c.org_k;
  const int32_t br = c.trans_b ? c.org_n : c.org_k, bc = c.trans_b ? c.org_k : c.org_n;
  const auto a = int8 ? RandomVector<T>(size_t(ar) * ac, -128, 127, 81)
                      : RandomVector<T>(size_t(ar) * ac, -1, 1, 81);
  const auto b = int8 ? RandomVector<T>(size_t(br) * bc, -128, 127, 82)
                      : RandomVector<T>(size_t(br) * bc, -1, 1, 82);
  // Logical A (org_m x org_k) and B (org_k x org_n).
  a_log->assign(size_t(c.org_m) * c.org_k, T(0));
  b_log->assign(size_t(c.org_k) * c.org_n, T(0));
  for (int32_t i = 0; i < c.org_m; ++i) {
    for (int32_t p = 0; p < c.org_k; ++p) {
      (*a_log)[size_t(i) * c.org_k + p] = c.trans_a ? a[size_t(p) * ac + i] : a[size_t(i) * ac + p];
    }
  }
  for (int32_t p = 0; p < c.org_k; ++p) {
    for (int32_t j = 0; j < c.org_n; ++j) {
      (*b_log)[size_t(p) * c.org_n + j] = c.trans_b ? b[size_t(j) * bc + p] : b[size_t(p) * bc + j];
    }
  }
  const std::vector<T> ga = Layout(a, ar, ac, c.nz_a), gb = Layout(b, br, bc, c.nz_b);
  const std::vector<uint32_t> params = Params(c, int8);
  DeviceBuffer da(ga.size() * sizeof(T)), db(gb.size() * sizeof(T)),
      dc(size_t(c.org_m) * c.org_n * sizeof(C)), dp(params.size() * 4);
  std::memcpy(da.gm(), ga.data(), da.bytes());
  std::memcpy(db.gm(), gb.data(), db.bytes());
  std::memcpy(dp.gm(), params.data(), dp.bytes());
  std::memset(dc.gm(), 0, dc.bytes());
  run(da.gm(), db.gm(), dc.gm(), dp.gm());
  std::vector<C> out(size_t(c.org_m) * c.org_n);
  std::memcpy(out.data(), dc.gm(), dc.bytes());
  return out;
}

template <class T, class C>
void Check(Runner run, const Case& c) {
  SCOPED_TRACE(Describe(c));
  std::vector<T> a, b;
  const std::vector<C> got = RunCase<T, C>(run, c, &a, &b);
  size_t bad = 0;
  for (int32_t i = 0; i < c.org_m; ++i) {
    for (int32_t j = 0; j < c.org_n; ++j) {
      const double v = static_cast<double>(got[size_t(i) * c.org_n + j]);
      if (i >= c.m || j >= c.n) {  // outside the product: untouched
        if (v != 0 && bad++ < 5) ADD_FAILURE() << "C[" << i << "][" << j << "] written: " << v;
        continue;
      }
      double want = 0;
      for (int32_t p = 0; p < c.k; ++p) {
        want += double(static_cast<float>(a[size_t(i) * c.org_k + p])) *
                double(static_cast<float>(b[size_t(p) * c.org_n + j]));
      }
      const double tol = sizeof(T) == 1 ? 0.0 : 1e-4 * std::sqrt(double(c.k)) + 1e-5;
      if (!(std::fabs(v - want) <= tol) && bad++ < 5) {
        ADD_FAILURE() << "C[" << i << "][" << j << "] = " << v << ", want " << want;
      }
    }
  }
  EXPECT_EQ(bad, 0u);
}

Case Make(int32_t m, int32_t n, int32_t k, int32_t om, int32_t on, int32_t ok, uint32_t trans,
          bool nz_a, bool nz_b) {
  Case c;
  c.m = m;
  c.n = n;
  c.k = k;
  c.org_m = om;
  c.org_n = on;
  c.org_k = ok;
  c.trans_a = (trans & 1) != 0;
  c.trans_b = (trans & 2) != 0;
  c.nz_a = nz_a;
  c.nz_b = nz_b;
  return c;
}

TEST(MatmulNz, Int8NzBAsTheGroupMatmulSampleUsesIt) {
  // A ND, B NZ not transposed (the sample's weight layout), and every other transposition; odd
  // m, n, k inside fractal-aligned org shapes; base blocks of 32 so that every copy, load and
  // Mmad loops; and the tiling's own choice.
  for (uint32_t trans = 0; trans < 4; ++trans) {
    Case c = Make(45, 70, 75, 64, 96, 96, trans, false, true);
    c.base_m = c.base_n = c.base_k = 32;
    Check<int8_t, int32_t>(kRun_mm_nz_i8_nd_nz, c);
    Check<int8_t, int32_t>(kRun_mm_nz_i8_nd_nz,
                           Make(100, 200, 300, 128, 224, 320, trans, false, true));
  }
}

TEST(MatmulNz, Int8NzAAndB) {
  for (uint32_t trans = 0; trans < 4; ++trans) {
    Case c = Make(33, 65, 97, 64, 96, 128, trans, true, true);
    c.base_m = c.base_n = 32;
    c.base_k = 64;
    Check<int8_t, int32_t>(kRun_mm_nz_i8_nz_nz, c);
  }
}

TEST(MatmulNz, Int8NdWithKDownTheRows) {
  // ND A transposed and B not: the L1 stripes are padded to 32 rows of K and loaded with
  // LoadDataWithTranspose; odd org shapes (ND needs no alignment).
  for (uint32_t trans = 0; trans < 4; ++trans) {
    Check<int8_t, int32_t>(kRun_mm_nz_i8_nd_nd,
                           Make(37, 51, 83, 37, 51, 83, trans, false, false));
    Case c = Make(70, 90, 100, 70, 90, 100, trans, false, false);
    c.base_m = c.base_n = c.base_k = 32;
    Check<int8_t, int32_t>(kRun_mm_nz_i8_nd_nd, c);
  }
}

TEST(MatmulNz, Int8MdlTilesOfSeveralBlocks) {
  // CFG_MDL: K = 90 in three steps of 32 held whole (stepKa = stepKb = 3), two blocks of M and N
  // per tile: the transposing loads read blocks at offset 32 of their tiles.
  for (uint32_t trans = 0; trans < 4; ++trans) {
    Case c = Make(100, 120, 90, 128, 128, 96, trans, false, true);
    c.base_m = c.base_n = c.base_k = 32;
    c.step_m = c.step_n = 2;
    c.step_k = 3;
    Check<int8_t, int32_t>(kRun_mm_nz_i8_nd_nz_mdl, c);
    c.nz_a = true;
    c.nz_b = false;
    Check<int8_t, int32_t>(kRun_mm_nz_i8_nz_nd_mdl, c);
  }
}

TEST(MatmulNz, HalfNzInputs) {
  for (uint32_t trans = 0; trans < 4; ++trans) {
    Case c = Make(40, 50, 70, 48, 64, 80, trans, true, true);
    c.base_m = c.base_n = c.base_k = 16;
    Check<half, float>(kRun_mm_nz_h_nz_nz, c);
    Check<half, float>(kRun_mm_nz_h_nz_nd, Make(33, 17, 49, 48, 32, 64, trans, true,
                                                             false));
    Case mdl = Make(60, 70, 50, 64, 80, 64, trans, false, true);
    mdl.base_m = mdl.base_n = mdl.base_k = 16;
    mdl.step_m = mdl.step_n = 2;
    mdl.step_k = 4;
    Check<half, float>(kRun_mm_nz_h_nd_nz_mdl, mdl);
  }
}

TEST(MatmulNz, NzCopiesAreOneBurstPerStripeOnMte2) {
  // The same product from NZ and ND B: the NZ copy moves whole stripes (Align16(k) rows), so it
  // reads at least as many bytes, in as many copy calls.
  const Case nz = Make(32, 64, 64, 32, 64, 64, 0, false, true);
  Case nd = nz;
  nd.nz_b = false;
  std::vector<int8_t> a, b;
  ascsim::Profiler prof;
  RunCase<int8_t, int32_t>(kRun_mm_nz_i8_nd_nz, nz, &a, &b);
  RunCase<int8_t, int32_t>(kRun_mm_nz_i8_nd_nd, nd, &a, &b);
  prof.Stop();
  const auto s = prof.Summary();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].memory.mte2_transfers, s[1].memory.mte2_transfers);
  // A 32 x 64 and B 64 x 64 int8_t: 2048 + 4096 bytes either way.
  EXPECT_EQ(s[0].memory.mte2_bytes, 2048u + 4096u);
  EXPECT_EQ(s[1].memory.mte2_bytes, 2048u + 4096u);
}

// ---- faults ----

template <class T, class C>
std::string FaultOf(Runner run, const Case& c) {
  std::vector<T> a, b;
  return ErrorOf([&] { RunCase<T, C>(run, c, &a, &b); });
}

TEST(MatmulNz, NzShapeNotFractalAligned) {
  // int8_t NZ B (K x N) with N = 40: not a multiple of C0 = 32.
  const Case c = Make(32, 40, 64, 32, 40, 64, 0, false, true);
  EXPECT_THAT((FaultOf<int8_t, int32_t>(kRun_mm_nz_i8_nd_nz, c)),
              testing::HasSubstr(
                  "mm_nz_i8_nd_nz: block 0/1 AIC: Matmul::Iterate: B in CubeFormat::NZ is 64 x 40 "
                  "(Kb x N): NZ needs the rows a multiple of 16 and the columns a multiple of C0 "
                  "= 32 elements (32 B)"));
  // half NZ A transposed (K x M) with K = 40 rows.
  const Case h = Make(32, 32, 40, 32, 32, 40, 1, true, true);
  EXPECT_THAT((FaultOf<half, float>(kRun_mm_nz_h_nz_nz, h)),
              testing::HasSubstr("Matmul::Iterate: A in CubeFormat::NZ is 40 x 32 (Ka x M): NZ "
                                 "needs the rows a multiple of 16 and the columns a multiple of "
                                 "C0 = 16 elements (32 B)"));
}

TEST(MatmulNz, NzBlockInsideAStripe) {
  Case c = Make(32, 96, 64, 32, 96, 64, 0, false, true);
  c.base_n = 48;
  EXPECT_THAT((FaultOf<int8_t, int32_t>(kRun_mm_nz_i8_nd_nz, c)),
              testing::HasSubstr("Matmul::Iterate: B in CubeFormat::NZ (Kb x N) with baseN 48: "
                                 "each block must start at a column stripe of 32 elements, so "
                                 "baseN must be a multiple of 32"));
}

TEST(MatmulNz, NzBlockTallerThanTheMatrix) {
  // SetSingleShape asks for 64 rows of an NZ A that has 32.
  Case c = Make(32, 32, 64, 32, 32, 64, 0, true, false);
  c.base_m = 64;
  c.single_m = 64;
  c.single_n = 32;
  c.single_k = 64;
  EXPECT_THAT((FaultOf<int8_t, int32_t>(kRun_mm_nz_i8_nz_nd_mdl, c)),
              testing::HasSubstr("Matmul::Iterate: a block of 64 rows of an NZ input is taller "
                                 "than the matrix (32 rows): check SetOrgShape and "
                                 "SetSingleShape"));
}

TEST(MatmulNz, Int8TransposingLoadOutgrowsL0B) {
  // baseN 16 with baseK 2048 fills an L0B half exactly, but the load writes whole 32 x 32
  // squares: one fractal more.
  Case c = Make(16, 16, 2048, 16, 16, 2048, 0, false, false);
  c.base_m = c.base_n = 16;
  c.base_k = 2048;
  EXPECT_THAT((FaultOf<int8_t, int32_t>(kRun_mm_nz_i8_nd_nd, c)),
              testing::HasSubstr("Matmul::Iterate: the transposing load of an int8_t B block of "
                                 "16 x 2048 writes whole 32 x 32 squares, 33280 B of L0B, more "
                                 "than its buffer's 32768 B: choose baseN a multiple of 32 or a "
                                 "smaller baseK"));
}

TEST(MatmulNz, Int8BlockInsideATransposeSquare) {
  // CFG_MDL, B (ND, not transposed) tiles of two blocks of baseN = 16: the second block starts
  // in the middle of a 32 x 32 square.
  Case c = Make(32, 64, 64, 32, 64, 64, 0, true, false);
  c.base_m = 32;
  c.base_n = 16;
  c.base_k = 32;
  c.step_n = 2;
  c.step_k = 2;
  EXPECT_THAT((FaultOf<int8_t, int32_t>(kRun_mm_nz_i8_nz_nd_mdl, c)),
              testing::HasSubstr("Matmul::Iterate: an int8_t B (not transposed) block starts at N "
                                 "offset 16 of its L1 tile, inside a 32 x 32 square of the "
                                 "transposing load: baseN must be a multiple of 32 when a tile "
                                 "holds several blocks"));
}

TEST(MatmulNz, OtherFormatsAreNotSimulated) {
  const Case c = Make(32, 32, 32, 32, 32, 32, 0, false, false);
  EXPECT_THAT((FaultOf<int8_t, int32_t>(kRun_mm_nz_i8_vector_a, c)),
              testing::HasSubstr("Matmul::Init: A or B in a format other than ND or NZ is not "
                                 "simulated yet"));
}

}  // namespace
