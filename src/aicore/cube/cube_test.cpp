// The low-level cube path end to end: a matmul kernel in the official style (TQue on A1/B1/A2/B2/
// CO1, DataCopy GM->L1 with Nd2NzParams, LoadData with LoadData2DParams, Mmad, Fixpipe) against
// a double-precision reference, for shapes that are and are not multiples of 16, both the
// ICPU_RUN_KF and the ACL paths; then every cube rule with its message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aicore_test_util.h"
#include "ascsim/profile.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

namespace {

using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

constexpr uint32_t Ceil16(uint32_t x) { return (x + 15) / 16 * 16; }

// C (m x n) = A (m x k) x B (k x n), all ND in GM; one block; A and B fit L0A/L0B whole.
template <typename T, typename CT>
class KernelCubeBasic {
 public:
  __aicore__ inline KernelCubeBasic() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k) {
    m_ = m;
    n_ = n;
    k_ = k;
    m1_ = Ceil16(m) / 16;
    n1_ = Ceil16(n) / 16;
    k1_ = Ceil16(k) / 16;
    aGm.SetGlobalBuffer((__gm__ T*)a, m * k);
    bGm.SetGlobalBuffer((__gm__ T*)b, k * n);
    cGm.SetGlobalBuffer((__gm__ CT*)c, m * n);
    pipe.InitBuffer(inQueueA1, 1, Ceil16(m) * Ceil16(k) * sizeof(T));
    pipe.InitBuffer(inQueueB1, 1, Ceil16(k) * Ceil16(n) * sizeof(T));
    pipe.InitBuffer(inQueueA2, 1, Ceil16(m) * Ceil16(k) * sizeof(T));
    pipe.InitBuffer(inQueueB2, 1, Ceil16(k) * Ceil16(n) * sizeof(T));
    pipe.InitBuffer(outQueueCO1, 1, Ceil16(m) * Ceil16(n) * sizeof(float));
  }
  __aicore__ inline void Process() {
    CopyIn();
    SplitA();
    SplitB();
    Compute();
    CopyOut();
  }

 private:
  __aicore__ inline void CopyIn() {
    AscendC::LocalTensor<T> a1 = inQueueA1.AllocTensor<T>();
    AscendC::LocalTensor<T> b1 = inQueueB1.AllocTensor<T>();
    // ND -> NZ: rows padded to 16 in each 16-column stripe.
    AscendC::Nd2NzParams aParams(1, m_, k_, 0, k_, Ceil16(m_), 1, 0);
    AscendC::Nd2NzParams bParams(1, k_, n_, 0, n_, Ceil16(k_), 1, 0);
    AscendC::DataCopy(a1, aGm, aParams);
    AscendC::DataCopy(b1, bGm, bParams);
    inQueueA1.EnQue(a1);
    inQueueB1.EnQue(b1);
  }
  __aicore__ inline void SplitA() {
    AscendC::LocalTensor<T> a1 = inQueueA1.DeQue<T>();
    AscendC::LocalTensor<T> a2 = inQueueA2.AllocTensor<T>();
    // Nz -> Zz: for each row of fractals, the K fractals are m1 apart in L1.
    AscendC::LoadData2DParams params;
    params.repeatTimes = k1_;
    params.srcStride = m1_;
    params.ifTranspose = false;
    for (uint32_t i = 0; i < m1_; ++i) {
      AscendC::LoadData(a2[i * k1_ * 256], a1[i * 256], params);
    }
    inQueueA2.EnQue(a2);
    inQueueA1.FreeTensor(a1);
  }
  __aicore__ inline void SplitB() {
    AscendC::LocalTensor<T> b1 = inQueueB1.DeQue<T>();
    AscendC::LocalTensor<T> b2 = inQueueB2.AllocTensor<T>();
    // Nz -> Zn: fractals transposed; for each K fractal, the N fractals are k1 apart in L1.
    AscendC::LoadData2DParams params;
    params.repeatTimes = n1_;
    params.srcStride = k1_;
    params.ifTranspose = true;
    for (uint32_t i = 0; i < k1_; ++i) {
      AscendC::LoadData(b2[i * n1_ * 256], b1[i * 256], params);
    }
    inQueueB2.EnQue(b2);
    inQueueB1.FreeTensor(b1);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<T> a2 = inQueueA2.DeQue<T>();
    AscendC::LocalTensor<T> b2 = inQueueB2.DeQue<T>();
    AscendC::LocalTensor<float> c1 = outQueueCO1.AllocTensor<float>();
    AscendC::MmadParams params;
    params.m = m_;
    params.n = n_;
    params.k = k_;
    AscendC::Mmad(c1, a2, b2, params);
    outQueueCO1.EnQue(c1);
    inQueueA2.FreeTensor(a2);
    inQueueB2.FreeTensor(b2);
  }
  __aicore__ inline void CopyOut() {
    AscendC::LocalTensor<float> c1 = outQueueCO1.DeQue<float>();
    AscendC::FixpipeParamsV220 params;
    params.nSize = n_;
    params.mSize = m_;
    params.srcStride = Ceil16(m_);
    params.dstStride = n_;
    params.quantPre = sizeof(CT) == 2 ? QuantMode_t::F322F16 : QuantMode_t::NoQuant;
    AscendC::Fixpipe(cGm, c1, params);
    outQueueCO1.FreeTensor(c1);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1;
  AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1;
  AscendC::TQue<AscendC::TPosition::A2, 1> inQueueA2;
  AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2;
  AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1;
  AscendC::GlobalTensor<T> aGm;
  AscendC::GlobalTensor<T> bGm;
  AscendC::GlobalTensor<CT> cGm;
  uint32_t m_ = 0, n_ = 0, k_ = 0, m1_ = 0, n1_ = 0, k1_ = 0;
};

extern "C" __global__ __aicore__ void cube_basic_half(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m,
                                                      uint32_t n, uint32_t k) {
  KernelCubeBasic<half, float> op;
  op.Init(a, b, c, m, n, k);
  op.Process();
}
extern "C" __global__ __aicore__ void cube_basic_half_out(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                          uint32_t m, uint32_t n, uint32_t k) {
  KernelCubeBasic<half, half> op;
  op.Init(a, b, c, m, n, k);
  op.Process();
}
extern "C" __global__ __aicore__ void cube_basic_bf16(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m,
                                                      uint32_t n, uint32_t k) {
  KernelCubeBasic<bfloat16_t, float> op;
  op.Init(a, b, c, m, n, k);
  op.Process();
}

// The reference product in double of the inputs as they are stored (half/bfloat16_t).
template <class T>
std::vector<double> Reference(const std::vector<T>& a, const std::vector<T>& b, uint32_t m,
                              uint32_t n, uint32_t k) {
  std::vector<double> c(size_t{m} * n, 0.0);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t p = 0; p < k; ++p) {
      const double av = static_cast<float>(a[size_t{i} * k + p]);
      for (uint32_t j = 0; j < n; ++j)
        c[size_t{i} * n + j] += av * static_cast<float>(b[size_t{p} * n + j]);
    }
  }
  return c;
}

// fp16 inputs with fp32 accumulation: every product is exact, the sum carries fp32 rounding
// (|err| <= k * 2^-24 * sum|a*b| is a loose bound; we use a relative 1e-5 of the magnitude).
template <class CT>
void ExpectClose(const std::vector<CT>& got, const std::vector<double>& want, double rel,
                 const std::string& what) {
  double scale = 1e-3;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double g = static_cast<float>(got[i]);
    if (!(std::fabs(g - want[i]) <= rel * scale)) {
      if (bad++ < 5) ADD_FAILURE() << what << " element " << i << ": " << g << " vs " << want[i];
    }
  }
  EXPECT_EQ(bad, 0u) << what;
}

struct Shape {
  uint32_t m, n, k;
};

class CubeBasicShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(CubeBasicShapes, HalfInFloatOutMatchesReference) {
  const Shape s = GetParam();
  auto a = RandomVector<half>(size_t{s.m} * s.k, -1, 1, 1);
  auto b = RandomVector<half>(size_t{s.k} * s.n, -1, 1, 2);
  DeviceBuffer da(a.size() * 2), db(b.size() * 2), dc(size_t{s.m} * s.n * 4);
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  ICPU_RUN_KF(cube_basic_half, 1, da.gm(), db.gm(), dc.gm(), s.m, s.n, s.k);
  std::vector<float> c(size_t{s.m} * s.n);
  std::memcpy(c.data(), dc.gm(), dc.bytes());
  ExpectClose(c, Reference(a, b, s.m, s.n, s.k), 1e-5, "half->float");
}

TEST_P(CubeBasicShapes, HalfInHalfOutMatchesReference) {
  const Shape s = GetParam();
  auto a = RandomVector<half>(size_t{s.m} * s.k, -1, 1, 3);
  auto b = RandomVector<half>(size_t{s.k} * s.n, -1, 1, 4);
  DeviceBuffer da(a.size() * 2), db(b.size() * 2), dc(size_t{s.m} * s.n * 2);
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  ICPU_RUN_KF(cube_basic_half_out, 1, da.gm(), db.gm(), dc.gm(), s.m, s.n, s.k);
  std::vector<half> c(size_t{s.m} * s.n);
  std::memcpy(c.data(), dc.gm(), dc.bytes());
  ExpectClose(c, Reference(a, b, s.m, s.n, s.k), 1e-3, "half->half");  // one half rounding
}

TEST_P(CubeBasicShapes, Bf16InFloatOutMatchesReference) {
  const Shape s = GetParam();
  auto a = RandomVector<bfloat16_t>(size_t{s.m} * s.k, -1, 1, 5);
  auto b = RandomVector<bfloat16_t>(size_t{s.k} * s.n, -1, 1, 6);
  DeviceBuffer da(a.size() * 2), db(b.size() * 2), dc(size_t{s.m} * s.n * 4);
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  ICPU_RUN_KF(cube_basic_bf16, 1, da.gm(), db.gm(), dc.gm(), s.m, s.n, s.k);
  std::vector<float> c(size_t{s.m} * s.n);
  std::memcpy(c.data(), dc.gm(), dc.bytes());
  ExpectClose(c, Reference(a, b, s.m, s.n, s.k), 1e-5, "bf16->float");
}

INSTANTIATE_TEST_SUITE_P(Shapes, CubeBasicShapes,
                         ::testing::Values(Shape{16, 16, 16}, Shape{32, 32, 32}, Shape{40, 50, 70},
                                           Shape{17, 33, 9}, Shape{2, 16, 16}, Shape{64, 48, 128}),
                         [](const ::testing::TestParamInfo<Shape>& info) {
                           return std::to_string(info.param.m) + "x" +
                                  std::to_string(info.param.n) + "x" + std::to_string(info.param.k);
                         });

TEST(CubeBasic, AclLaunchMatchesReference) {
  const uint32_t m = 33, n = 20, k = 47;
  auto a = RandomVector<half>(size_t{m} * k, -2, 2, 7);
  auto b = RandomVector<half>(size_t{k} * n, -2, 2, 8);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void *da, *db, *dc;
  ASSERT_EQ(aclrtMalloc(&da, a.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&db, b.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dc, size_t{m} * n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemcpy(da, a.size() * 2, a.data(), a.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(db, b.size() * 2, b.data(), b.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);
  ACLRT_LAUNCH_KERNEL(cube_basic_half)(1, stream, da, db, dc, m, n, k);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  std::vector<float> c(size_t{m} * n);
  aclrtMemcpy(c.data(), c.size() * 4, dc, c.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  ExpectClose(c, Reference(a, b, m, n, k), 1e-5, "acl");
  aclrtFree(da);
  aclrtFree(db);
  aclrtFree(dc);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

}  // namespace

// ---- instruction semantics on one core (a whole AI core of the profile) ----
namespace {

class CubeCore {
 public:
  explicit CubeCore(const char* soc = "Ascend910B1", bool strict = false)
      : core_(ascsim::FindSocProfile(soc), 1, strict) {
    core_.launch().find_gm = ascsim::runtime::FindDeviceMemory;
    pipe_ = std::make_unique<AscendC::TPipe>();
  }
  AscendC::TPipe& pipe() { return *pipe_; }
  ascsim::aicore::SingleCore& core() { return core_; }

 private:
  ascsim::aicore::SingleCore core_;
  std::unique_ptr<AscendC::TPipe> pipe_;
};

template <class T>
AscendC::GlobalTensor<T> Gm(DeviceBuffer& buf, size_t n) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(buf.as<T>(), n);
  return g;
}

// load2d.py (asc-devkit examples/.../load_data_l12l0/scripts) for b16, addrMode 0.
std::vector<uint16_t> Load2dReference(const std::vector<uint16_t>& src, size_t dst_size, int repeat,
                                      int src_stride, int dst_gap, int start, bool transpose) {
  std::vector<uint16_t> dst(dst_size, 0);
  for (int i = 0; i < repeat; ++i) {
    const size_t s = (size_t(start) + size_t(src_stride) * i) * 256;
    const size_t d = size_t(dst_gap + 1) * 256 * i;
    for (int j = 0; j < 16; ++j) {
      for (int c = 0; c < 16; ++c) {
        dst[d + j * 16 + c] = transpose ? src[s + j + c * 16] : src[s + j * 16 + c];
      }
    }
  }
  return dst;
}

TEST(CubeLoadData, MatchesPseudocodeWithStridesGapsAndTranspose) {
  for (bool transpose : {false, true}) {
    CubeCore cc;
    AscendC::TBuf<AscendC::TPosition::A1> l1;
    AscendC::TBuf<AscendC::TPosition::A2> l0a;
    cc.pipe().InitBuffer(l1, 16 * 512);
    cc.pipe().InitBuffer(l0a, 16 * 512);
    AscendC::LocalTensor<uint16_t> src = l1.Get<uint16_t>();
    AscendC::LocalTensor<uint16_t> dst = l0a.Get<uint16_t>();
    std::vector<uint16_t> in(16 * 256);
    for (size_t i = 0; i < in.size(); ++i) {
      in[i] = uint16_t(i * 7 + 3);
      src.SetValue(i, in[i]);
    }
    for (size_t i = 0; i < in.size(); ++i) dst.SetValue(i, 0);
    AscendC::LoadData2DParams p;
    p.startIndex = 1;
    p.repeatTimes = 4;
    p.srcStride = 3;
    p.dstGap = 2;
    p.ifTranspose = transpose;
    AscendC::LoadData(dst, src, p);
    const auto want = Load2dReference(in, in.size(), 4, 3, 2, 1, transpose);
    for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(dst.GetValue(i), want[i]) << i;
  }
}

// load_data_with_transpose.py for b8 and b32 (one repeat, startIndex 0).
TEST(CubeLoadData, WithTransposeMatchesPseudocodeForInt8AndFloat) {
  {
    CubeCore cc;
    AscendC::TBuf<AscendC::TPosition::B1> l1;
    AscendC::TBuf<AscendC::TPosition::B2> l0b;
    cc.pipe().InitBuffer(l1, 4 * 512);
    cc.pipe().InitBuffer(l0b, 8 * 512);
    auto src = l1.Get<int8_t>();
    auto dst = l0b.Get<int8_t>();
    for (int i = 0; i < 2048; ++i) src.SetValue(i, int8_t(i % 251 - 125));
    AscendC::LoadData2dTransposeParams p(0, 2, 1, 3,
                                         1);  // repeat 2, srcStride 1, dstGap 3, fracGap 1
    AscendC::LoadDataWithTranspose(dst, src, p);
    for (int rep = 0; rep < 2; ++rep) {
      for (int j = 0; j < 2; ++j) {
        const int frac = rep * 4 * 512 + j * 2 * 512;  // (dstGap+1) and (dstFracGap+1) fractals
        for (int k = 0; k < 16; ++k) {
          for (int c = 0; c < 32; ++c) {
            ASSERT_EQ(dst.GetValue(frac + k * 32 + c),
                      src.GetValue(rep * 1024 + c * 32 + j * 16 + k))
                << rep << " " << j << " " << k << " " << c;
          }
        }
      }
    }
  }
  {
    CubeCore cc;
    AscendC::TBuf<AscendC::TPosition::A1> l1;
    AscendC::TBuf<AscendC::TPosition::A2> l0a;
    cc.pipe().InitBuffer(l1, 2 * 512);
    cc.pipe().InitBuffer(l0a, 4 * 512);
    auto src = l1.Get<int32_t>();
    auto dst = l0a.Get<int32_t>();
    for (int i = 0; i < 256; ++i) src.SetValue(i, i);
    AscendC::LoadData2dTransposeParams p(0, 1, 0, 0, 1);  // dstFracGap 1
    AscendC::LoadDataWithTranspose(dst, src, p);
    // S = [F0 | F1] (16 x 16); destination fractal j is S^T[:, 8j .. 8j + 7] (16 x 8).
    auto S = [&](int r, int c) { return c < 8 ? r * 8 + c : 128 + r * 8 + (c - 8); };
    for (int j = 0; j < 2; ++j) {
      for (int k = 0; k < 16; ++k) {
        for (int c = 0; c < 8; ++c) {
          ASSERT_EQ(dst.GetValue(j * 256 + k * 8 + c), S(j * 8 + c, k))
              << j << " " << k << " " << c;
        }
      }
    }
  }
}

TEST(CubeNd2Nz, PadsRowsTo32BytesAndHonoursMatrixStrides) {
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::A1> l1;
  cc.pipe().InitBuffer(l1, 64 * 1024);
  auto dst = l1.Get<half>();
  for (uint32_t i = 0; i < dst.GetSize(); ++i) dst.SetValue(i, half(-1.0f));
  // Two 8 x 23 matrices out of a 24 x 32 source (the doc's non-contiguous example).
  DeviceBuffer src_buf(24 * 32 * 2);
  std::vector<half> src(24 * 32);
  for (size_t i = 0; i < src.size(); ++i) src[i] = half(float(i % 1000));
  std::memcpy(src_buf.gm(), src.data(), src_buf.bytes());
  AscendC::Nd2NzParams p(2, 8, 23, 384, 32, 37, 2, 320);
  AscendC::DataCopy(dst, Gm<half>(src_buf, src.size()), p);
  for (int nd = 0; nd < 2; ++nd) {
    for (int r = 0; r < 8; ++r) {
      for (int c = 0; c < 32; ++c) {
        const size_t idx = nd * 320 + (c / 16) * 37 * 16 + r * 2 * 16 + c % 16;
        const float want = c < 23 ? float(src[nd * 384 + r * 32 + c]) : 0.0f;  // zero padded
        ASSERT_EQ(float(dst.GetValue(idx)), want) << nd << " " << r << " " << c;
      }
    }
  }
}

// SetL2CacheHint on the GM tensor reaches the ND2NZ copy, as it reaches every GM access on the
// device (the hint is in the tensor's address bits: asc-devkit impl/basic_api/kernel_tensor_impl.h
// GlobalTensor::SetL2CacheHint): with CACHE_MODE_DISABLE the cost model counts the copy's bytes
// as bypassing L2, without it none. The data lands the same either way.
template <class T>
void CheckNd2NzL2Hint(bool disable) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + (disable ? ", disabled" : ""));
  constexpr uint32_t kRows = 5, kCols = 23, kPitch = 40;  // odd rows, a tail C0 block
  constexpr uint32_t kC0 = 32 / sizeof(T);
  const std::vector<T> src = RandomVector<T>(kRows * kPitch, -4, 4, 91);
  DeviceBuffer gm(src.size() * sizeof(T));
  std::memcpy(gm.gm(), src.data(), gm.bytes());
  std::vector<T> l1(16 * 32);
  ascsim::Profiler prof;
  ascsim::Launch("nd2nz_l2_hint", 1, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    AscendC::GlobalTensor<T> srcGm;
    srcGm.SetGlobalBuffer(gm.as<T>(), kRows * kPitch);
    if (disable) srcGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
    AscendC::LocalTensor<T> dst(AscendC::TPosition::A1, 0, static_cast<uint32_t>(l1.size()));
    AscendC::DataCopy(dst, srcGm, AscendC::Nd2NzParams(1, kRows, kCols, 0, kPitch, 16, 1, 0));
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < l1.size(); ++i) l1[i] = dst.GetValue(i);
  });
  prof.Stop();
  const ascsim::LaunchEstimate e = prof.Summary().at(0);
  EXPECT_EQ(e.memory.mte2_bytes, kRows * kCols * sizeof(T));
  EXPECT_EQ(e.memory.bypass_bytes, disable ? kRows * kCols * sizeof(T) : 0u);
  for (uint32_t r = 0; r < kRows; ++r) {
    for (uint32_t c = 0; c < kCols; ++c) {
      const T got = l1[(c / kC0) * 16 * kC0 + r * kC0 + c % kC0];
      ASSERT_EQ(float(got), float(src[r * kPitch + c])) << r << " " << c;
    }
  }
}

TEST(CubeNd2Nz, L2CacheHintReachesTheCopy) {
  CheckNd2NzL2Hint<half>(true);
  CheckNd2NzL2Hint<half>(false);
  CheckNd2NzL2Hint<float>(true);
  CheckNd2NzL2Hint<float>(false);
}

// The cube's other GM copies carry their GM side to the cost model as ND2NZ does: what Fixpipe
// (ND and NZ) or DataCopy L1 -> GM writes lands in L2's lines, so a contiguous DataCopy GM -> L1
// of the same bytes afterwards is served by L2; with CACHE_MODE_DISABLE on the written tensor the
// write goes around L2 to HBM and the read-back misses. Before, these records had no GM address:
// no line was ever written, and every read-back missed.
template <class T>
void CheckCubeWritesLandInL2(bool nz, bool disable) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + (nz ? ", NZ" : ", ND") +
               (disable ? ", disabled" : ""));
  constexpr uint32_t kM = 21, kN = 37, kM16 = 32, kN16 = 48;  // odd sizes, tail fractals
  const uint32_t out_elems = nz ? kN16 * kM16 : kM * kN;
  const uint32_t copied = out_elems * sizeof(T) / 32 * 32 / sizeof(T);  // whole 32 B blocks
  const uint64_t out_bytes = uint64_t{out_elems} * sizeof(T);
  DeviceBuffer out(out_bytes), copy_back(out_bytes);
  std::vector<T> l1_back(out_elems);
  ascsim::Profiler prof;
  ascsim::Launch("cube_writes_in_l2", 1, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    AscendC::GlobalTensor<T> outGm, backGm;
    outGm.SetGlobalBuffer(out.as<T>(), out_elems);
    backGm.SetGlobalBuffer(copy_back.as<T>(), out_elems);
    if (disable) outGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
    AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, kM16 * kN16);
    for (uint32_t i = 0; i < kM16 * kN16; ++i) c.SetValue(i, float(i % 97) - 40.0f);
    AscendC::FixpipeParamsV220 p(nz ? kN16 : kN, nz ? kM16 : kM, kM16, nz ? kM16 * 16 * 4 / 32 : kN,
                                 false);
    p.quantPre = sizeof(T) == 2 ? QuantMode_t::F322F16 : QuantMode_t::NoQuant;
    if (nz) {
      p.dstStride = kM16 * 16 * sizeof(T) / 32;  // stripes back to back
      AscendC::Fixpipe<T, float, AscendC::CFG_NZ>(outGm, c, p);
    } else {
      AscendC::Fixpipe<T, float, AscendC::CFG_ROW_MAJOR>(outGm, c, p);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    // Read it back into L1 (the read ignores the write's hint: a second tensor on the bytes).
    AscendC::GlobalTensor<T> readGm;
    readGm.SetGlobalBuffer(out.as<T>(), out_elems);
    AscendC::LocalTensor<T> l1(AscendC::TPosition::A1, 0, copied);
    AscendC::DataCopy(l1, readGm, copied);
    AscendC::PipeBarrier<PIPE_ALL>();
    // And through L1 -> GM into a second buffer, read back once more.
    AscendC::DataCopy(backGm, l1, copied);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<T> l1b(AscendC::TPosition::B1, 8192, copied);
    AscendC::DataCopy(l1b, backGm, copied);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < copied; ++i) l1_back[i] = l1b.GetValue(i);
  });
  prof.Stop();
  const ascsim::LaunchEstimate e = prof.Summary().at(0);
  const uint64_t copied_bytes = out_bytes / 32 * 32;
  EXPECT_EQ(e.memory.mte2_bytes, 2 * copied_bytes);
  EXPECT_EQ(e.memory.mte3_bytes, out_bytes + copied_bytes);  // Fixpipe, then L1 -> GM
  // The L1 -> GM copy's bytes are always found again; the Fixpipe's only when it went into L2.
  EXPECT_EQ(e.memory.l2_hit_bytes, (disable ? 0 : copied_bytes) + copied_bytes);
  EXPECT_EQ(e.memory.write_back_bytes, disable ? out_bytes : 0u);
  // The data went the whole way (L0C: 16-column stripes outer, NZ keeps that layout).
  if (nz) {
    for (uint32_t i = 0; i < copied; ++i) {
      const float want = float(T(float(i % 97) - 40.0f));
      ASSERT_EQ(float(l1_back[i]), want) << i;
    }
  } else {
    for (uint32_t i = 0; i < copied; ++i) {
      const uint32_t r = i / kN, col = i % kN;
      const uint32_t at = (col / 16) * kM16 * 16 + r * 16 + col % 16;
      ASSERT_EQ(float(l1_back[i]), float(T(float(at % 97) - 40.0f))) << r << " " << col;
    }
  }
}

TEST(CubeCopyGmSide, WritesOfTheCubeLandInL2) {
  for (bool nz : {false, true}) {
    for (bool disable : {false, true}) {
      CheckCubeWritesLandInL2<half>(nz, disable);
      CheckCubeWritesLandInL2<float>(nz, disable);
    }
  }
}

// Fixpipe of several ND matrices records no rows, but keeps its tensor's L2 hint, as ND2NZ of
// several matrices does: with CACHE_MODE_DISABLE its bytes go around L2 to HBM.
template <class T>
void CheckFixpipeMatricesKeepTheHint(bool disable) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + (disable ? ", disabled" : ""));
  constexpr uint32_t kRows = 16, kCols = 16, kMatrices = 2;
  const uint64_t bytes = uint64_t{kMatrices} * kRows * kCols * sizeof(T);
  DeviceBuffer out(bytes);
  ascsim::Profiler prof;
  ascsim::Launch("fixpipe_matrices_hint", 1, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    AscendC::GlobalTensor<T> outGm;
    outGm.SetGlobalBuffer(out.as<T>(), kMatrices * kRows * kCols);
    if (disable) outGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
    AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, kMatrices * kRows * kCols);
    for (uint32_t i = 0; i < kMatrices * kRows * kCols; ++i) c.SetValue(i, float(i % 50));
    AscendC::FixpipeParamsV220 p(kCols, kRows, kRows, kCols, false);
    p.quantPre = sizeof(T) == 2 ? QuantMode_t::F322F16 : QuantMode_t::NoQuant;
    p.ndNum = kMatrices;
    p.srcNdStride = 1;  // one 16 x 16 fractal apart in L0C
    p.dstNdStride = kRows * kCols;  // back to back in GM
    AscendC::Fixpipe<T, float, AscendC::CFG_ROW_MAJOR>(outGm, c, p);
  });
  prof.Stop();
  const ascsim::LaunchEstimate e = prof.Summary().at(0);
  EXPECT_EQ(e.memory.mte3_bytes, bytes);
  EXPECT_EQ(e.memory.write_back_bytes, disable ? bytes : 0u);
  for (uint32_t i = 0; i < kMatrices * kRows * kCols; ++i) {
    ASSERT_EQ(float(out.as<T>()[i]), float(T(float(i % 50)))) << i;
  }
}

TEST(CubeCopyGmSide, FixpipeOfSeveralMatricesKeepsTheL2Hint) {
  for (bool disable : {false, true}) {
    CheckFixpipeMatricesKeepTheHint<half>(disable);
    CheckFixpipeMatricesKeepTheHint<float>(disable);
  }
}

// L0C holds 16 x 16 fractals, N stripes outer; Fixpipe turns them into rows.
TEST(CubeFixpipe, NdNzReluQuantAndMatrices) {
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::CO1> co1;
  cc.pipe().InitBuffer(co1, 32 * 1024);
  auto c = co1.Get<float>();
  const uint32_t m = 20, n = 40, m16 = 32;  // 2 x 3 fractals
  auto at = [&](uint32_t i, uint32_t j) { return (j / 16) * m16 * 16 + i * 16 + j % 16; };
  for (uint32_t i = 0; i < m16; ++i) {
    for (uint32_t j = 0; j < 48; ++j) c.SetValue(at(i, j), float(i) - float(j) * 0.5f);
  }
  {  // ND, float -> half with ReLU
    DeviceBuffer out(m * n * 2);
    AscendC::FixpipeParamsV220 p(n, m, m16, n, true);
    p.quantPre = QuantMode_t::F322F16;
    AscendC::Fixpipe(Gm<half>(out, m * n), c, p);
    for (uint32_t i = 0; i < m; ++i) {
      for (uint32_t j = 0; j < n; ++j) {
        const float v = std::max(0.0f, float(i) - float(j) * 0.5f);
        ASSERT_EQ(float(out.as<half>()[i * n + j]), float(half(v))) << i << " " << j;
      }
    }
  }
  {  // NZ out: stripes 32 B-units apart (dstStride = rows of a stripe * 16 floats / 8)
    DeviceBuffer out(3 * m16 * 16 * 4);
    AscendC::FixpipeParamsV220 p(48, m16, m16, m16 * 2, false);
    AscendC::Fixpipe<float, float, AscendC::CFG_NZ>(Gm<float>(out, 3 * m16 * 16), c, p);
    for (uint32_t k = 0; k < 3 * m16 * 16; ++k) ASSERT_EQ(out.as<float>()[k], c.GetValue(k)) << k;
  }
  {  // the older FixpipeParams<T> with NZ2ND
    DeviceBuffer out(m * n * 4);
    AscendC::FixpipeParams<float> p;
    p.cburstNum = 3;
    p.burstLen = static_cast<uint16_t>(m * 16 * 4 / 32);
    p.srcStride = 0;
    p.dstStride = n;
    p.nz2ndParams = AscendC::Nz2NdParams(true, 1, 0, 0, n);
    AscendC::Fixpipe(Gm<float>(out, m * n), c, p);
    // m = 20 rows: the legacy burst covers ceil16(20) = 32 rows per stripe
    for (uint32_t i = 0; i < m; ++i) {
      for (uint32_t j = 0; j < n; ++j) {
        ASSERT_EQ(out.as<float>()[i * n + j], float(i) - float(j) * 0.5f) << i << " " << j;
      }
    }
  }
}

// DataCopy out of L0C with DataCopyCO12DstParams is the FIX pipe's copy with Fixpipe's fields
// (ops-transformer prompt_flash_attention: DEQF16 with nz2ndEn): ND with ReLU and a cast, NZ,
// NZ2ND matrices from SetFixpipeNz2ndFlag, the DEQF16 scalar from SetFixpipePreQuantFlag.
TEST(CubeFixpipe, DataCopyCO12DstParamsIsFixpipesCopy) {
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::CO1> co1;
  cc.pipe().InitBuffer(co1, 32 * 1024);
  auto c = co1.Get<float>();
  const uint32_t m = 20, n = 40, m16 = 32;  // 2 x 3 fractals
  auto at = [&](uint32_t i, uint32_t j) { return (j / 16) * m16 * 16 + i * 16 + j % 16; };
  for (uint32_t i = 0; i < m16; ++i) {
    for (uint32_t j = 0; j < 48; ++j) c.SetValue(at(i, j), float(i) - float(j) * 0.5f);
  }
  {  // ND, float -> half with ReLU
    DeviceBuffer out(m * n * 2);
    AscendC::DataCopyCO12DstParams p(n, m, n, m16, QuantMode_t::F322F16, 1, false, true);
    AscendC::DataCopy(Gm<half>(out, m * n), c, p);
    for (uint32_t i = 0; i < m; ++i) {
      for (uint32_t j = 0; j < n; ++j) {
        const float v = std::max(0.0f, float(i) - float(j) * 0.5f);
        ASSERT_EQ(float(out.as<half>()[i * n + j]), float(half(v))) << i << " " << j;
      }
    }
  }
  {  // NZ out, float kept
    DeviceBuffer out(3 * m16 * 16 * 4);
    AscendC::DataCopyCO12DstParams p(48, m16, m16 * 2, m16, QuantMode_t::NoQuant, 0, false, false);
    AscendC::DataCopy(Gm<float>(out, 3 * m16 * 16), c, p);
    for (uint32_t k = 0; k < 3 * m16 * 16; ++k) ASSERT_EQ(out.as<float>()[k], c.GetValue(k)) << k;
  }
  {  // two 16 x 16 matrices (one fractal each) out of the NZ2ND register, dst 300 apart
    DeviceBuffer out(600 * 4);
    AscendC::SetFixpipeNz2ndFlag(2, 1, 300);
    AscendC::DataCopyCO12DstParams p(16, 16, 16, 16, QuantMode_t::NoQuant, 0, false, true);
    AscendC::DataCopy(Gm<float>(out, 600), c, p);
    AscendC::SetFixpipeNz2ndFlag(1, 0, 0);
    for (uint32_t mat = 0; mat < 2; ++mat) {
      for (uint32_t i = 0; i < 16; ++i) {
        for (uint32_t j = 0; j < 16; ++j) {
          ASSERT_EQ(out.as<float>()[mat * 300 + i * 16 + j], c.GetValue(mat * 256 + i * 16 + j))
              << mat << " " << i << " " << j;
        }
      }
    }
  }
  EXPECT_THAT(ErrorOf([&] {
                DeviceBuffer out(1024);
                AscendC::DataCopyCO12DstParams p(16, 16, 16, 16, QuantMode_t::VDEQF16, 0, false,
                                                 true);
                AscendC::DataCopy(Gm<half>(out, 256), c, p);
              }),
              HasSubstr("DataCopy (DataCopyCO12DstParams): a per-channel quantPre (VDEQF16 / "
                        "VQF322B8_PRE / VREQ8), clipReluPre and eltWiseOp are not simulated"));
  EXPECT_THAT(ErrorOf([&] {
                DeviceBuffer out(1024);
                AscendC::DataCopyCO12DstParams p(16, 16, 16, 16, QuantMode_t::NoQuant, 0, false,
                                                 true);
                AscendC::DataCopy(Gm<half>(out, 256), c, p);
              }),
              HasSubstr("needs quantPre = F322F16"));
  // int32_t -> half with the scalar of the quant register.
  AscendC::TBuf<AscendC::TPosition::CO1> co1i;
  cc.pipe().InitBuffer(co1i, 1024);
  auto ci = co1i.Get<int32_t>();
  for (int i = 0; i < 256; ++i) ci.SetValue(i, (i - 128) * 3);
  const float scale = 0.25f;
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  AscendC::SetFixpipePreQuantFlag(bits);
  DeviceBuffer out(256 * 2);
  AscendC::DataCopy(Gm<half>(out, 256), ci,
                    AscendC::DataCopyCO12DstParams(16, 16, 16, 16, QuantMode_t::DEQF16, 0, false,
                                                   false));
  for (int i = 0; i < 256; ++i) ASSERT_EQ(float(out.as<half>()[i]), (i - 128) * 3 * 0.25f) << i;
}

TEST(CubeFixpipe, Int32DequantAndRequant) {
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::CO1> co1;
  cc.pipe().InitBuffer(co1, 1024);
  auto c = co1.Get<int32_t>();
  for (int i = 0; i < 256; ++i) c.SetValue(i, (i - 128) * 3);
  const float scale = 0.25f;
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  {
    DeviceBuffer out(256 * 2);
    AscendC::FixpipeParamsV220 p(16, 16, 16, 16, false, QuantMode_t::DEQF16, bits, 1, 0, 0, 0);
    AscendC::Fixpipe(Gm<half>(out, 256), c, p);
    for (int i = 0; i < 256; ++i) ASSERT_EQ(float(out.as<half>()[i]), (i - 128) * 3 * 0.25f) << i;
  }
  {
    DeviceBuffer out(256);
    AscendC::FixpipeParamsV220 p(16, 16, 16, 16, false, QuantMode_t::REQ8, bits, 1, 0, 0, 0);
    AscendC::Fixpipe(Gm<int8_t>(out, 256), c, p);
    for (int i = 0; i < 256; ++i) {
      const float v = std::nearbyint((i - 128) * 3 * 0.25f);
      ASSERT_EQ(out.as<int8_t>()[i], int8_t(std::clamp(v, -128.0f, 127.0f))) << i;
    }
  }
}

// Mmad on fractal data written directly: int8, accumulation, the bias table and GEMV.
struct MmadRig {
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::A2> a2;
  AscendC::TBuf<AscendC::TPosition::B2> b2;
  AscendC::TBuf<AscendC::TPosition::CO1> co1;
  AscendC::TBuf<AscendC::TPosition::C2> bt;
  MmadRig() {
    cc.pipe().InitBuffer(a2, 32 * 1024);
    cc.pipe().InitBuffer(b2, 32 * 1024);
    cc.pipe().InitBuffer(co1, 64 * 1024);
    cc.pipe().InitBuffer(bt, 1024);
  }
};

template <class T>
void PutA(AscendC::LocalTensor<T> a, const std::vector<T>& A, int m, int k) {  // Zz
  const int k0 = 32 / sizeof(T), k1 = (k + k0 - 1) / k0;
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p)
      a.SetValue(((i / 16) * k1 + p / k0) * 16 * k0 + (i % 16) * k0 + p % k0, A[i * k + p]);
}
template <class T>
void PutB(AscendC::LocalTensor<T> b, const std::vector<T>& B, int k, int n) {  // Zn
  const int k0 = 32 / sizeof(T), n1 = (n + 15) / 16;
  for (int p = 0; p < k; ++p)
    for (int j = 0; j < n; ++j)
      b.SetValue(((p / k0) * n1 + j / 16) * 16 * k0 + (j % 16) * k0 + p % k0, B[p * n + j]);
}
template <class C>
C GetC(AscendC::LocalTensor<C> c, int m, int i, int j) {  // Nz
  const int m1 = (m + 15) / 16;
  return c.GetValue(((j / 16) * m1 + i / 16) * 256 + (i % 16) * 16 + j % 16);
}

TEST(CubeMmad, Int8AccumulatesExactlyInInt32) {
  MmadRig rig;
  const int m = 20, n = 17, k = 70;
  auto A = RandomVector<int8_t>(m * k, -128, 127, 11);
  auto B = RandomVector<int8_t>(k * n, -128, 127, 12);
  PutA(rig.a2.Get<int8_t>(), A, m, k);
  PutB(rig.b2.Get<int8_t>(), B, k, n);
  auto c = rig.co1.Get<int32_t>();
  AscendC::MmadParams p;
  p.m = m;
  p.n = n;
  p.k = k;
  AscendC::Mmad(c, rig.a2.Get<int8_t>(), rig.b2.Get<int8_t>(), p);
  p.cmatrixInitVal = false;  // C += A x B
  AscendC::Mmad(c, rig.a2.Get<int8_t>(), rig.b2.Get<int8_t>(), p);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      int32_t want = 0;
      for (int q = 0; q < k; ++q) want += int32_t(A[i * k + q]) * int32_t(B[q * n + j]);
      ASSERT_EQ(GetC(c, m, i, j), 2 * want) << i << " " << j;
    }
  }
}

TEST(CubeMmad, BiasTableStartsC) {
  MmadRig rig;
  const int m = 16, n = 32, k = 16;
  auto A = RandomVector<half>(m * k, -1, 1, 13);
  auto B = RandomVector<half>(k * n, -1, 1, 14);
  PutA(rig.a2.Get<half>(), A, m, k);
  PutB(rig.b2.Get<half>(), B, k, n);
  auto bias = rig.bt.Get<float>();
  for (int j = 0; j < n; ++j) bias.SetValue(j, float(j) * 10.0f);
  auto c = rig.co1.Get<float>();
  AscendC::MmadParams p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.cmatrixInitVal = false;
  AscendC::Mmad(c, rig.a2.Get<half>(), rig.b2.Get<half>(), bias, p);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double want = j * 10.0;
      for (int q = 0; q < k; ++q) want += double(float(A[i * k + q])) * float(B[q * n + j]);
      ASSERT_NEAR(GetC(c, m, i, j), want, 1e-4) << i << " " << j;
    }
  }
}

TEST(CubeMmad, GemvReadsARowAsItIsStored) {
  MmadRig rig;
  const int n = 20, k = 40;
  auto A = RandomVector<half>(k, -1, 1, 15);
  auto B = RandomVector<half>(k * n, -1, 1, 16);
  auto a = rig.a2.Get<half>();
  for (int q = 0; q < k; ++q) a.SetValue(q, A[q]);  // ND: M = 1 is GEMV (Mmad.md, GEMV.md)
  PutB(rig.b2.Get<half>(), B, k, n);
  auto c = rig.co1.Get<float>();
  AscendC::MmadParams p;
  p.m = 1;
  p.n = n;
  p.k = k;
  AscendC::Mmad(c, a, rig.b2.Get<half>(), p);
  for (int j = 0; j < n; ++j) {
    double want = 0;
    for (int q = 0; q < k; ++q) want += double(float(A[q])) * float(B[q * n + j]);
    ASSERT_NEAR(GetC(c, 1, 0, j), want, 1e-4) << j;
  }
}

TEST(CubeMmad, FloatWithKDirectionAlign) {
  MmadRig rig;
  const int m = 16, n = 16, k = 36;  // K0 = 8: 5 fractals, or 6 with kDirectionAlign
  auto A = RandomVector<float>(m * k, -1, 1, 17);
  auto B = RandomVector<float>(k * n, -1, 1, 18);
  auto a = rig.a2.Get<float>();
  const int k1 = 6;
  for (int i = 0; i < m; ++i)
    for (int q = 0; q < k; ++q)
      a.SetValue(((i / 16) * k1 + q / 8) * 128 + (i % 16) * 8 + q % 8, A[i * k + q]);
  PutB(rig.b2.Get<float>(), B, k, n);
  auto c = rig.co1.Get<float>();
  AscendC::MmadParams p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.kDirectionAlign = true;
  AscendC::Mmad(c, a, rig.b2.Get<float>(), p);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double want = 0;
      for (int q = 0; q < k; ++q) want += double(A[i * k + q]) * B[q * n + j];
      ASSERT_NEAR(GetC(c, m, i, j), want, 1e-4) << i << " " << j;
    }
  }
}

TEST(CubeFill, FillsL0ABlocksWithGaps) {
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::A2> l0a;
  cc.pipe().InitBuffer(l0a, 8 * 512);
  auto t = l0a.Get<half>();
  for (uint32_t i = 0; i < t.GetSize(); ++i) t.SetValue(i, half(7.0f));
  AscendC::InitConstValueParams<half> p(2, 1, 2, half(0.5f));  // 2 repeats of 1 block, gap 2
  AscendC::Fill(t, p);
  for (uint32_t i = 0; i < t.GetSize(); ++i) {
    const uint32_t block = i / 256;
    const float want = (block == 0 || block == 3) ? 0.5f : 7.0f;
    ASSERT_EQ(float(t.GetValue(i)), want) << i;
  }
}

TEST(CubeCopy, L1ToBiasTableInUnitsOf64Bytes) {
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::C1> c1;
  AscendC::TBuf<AscendC::TPosition::C2> c2;
  cc.pipe().InitBuffer(c1, 1024);
  cc.pipe().InitBuffer(c2, 1024);
  auto src = c1.Get<float>();
  auto dst = c2.Get<float>();
  for (int i = 0; i < 256; ++i) src.SetValue(i, float(i));
  AscendC::DataCopy(dst, src, AscendC::DataCopyParams(1, 2, 0, 0));  // 2 x 64 B
  for (int i = 0; i < 32; ++i) ASSERT_EQ(dst.GetValue(i), float(i));
}

}  // namespace

// ---- the 310P path: L0C -> UB (CO1 -> CO2) with DataCopyEnhancedParams / BlockMode ----
namespace {

// A 32 x 32 x 32 matmul in the style of the early kernel_invocation MatMul sample: B split into
// two 32 x 16 halves through two L0B/L0C buffers, each result moved L0C -> CO2 (UB) in matrix
// blocks, then NZ -> ND with a strided UB -> GM copy.
class KernelMatmulCo2 {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    aGM.SetGlobalBuffer((__gm__ half*)a, 1024);
    bGM.SetGlobalBuffer((__gm__ half*)b, 1024);
    cGM.SetGlobalBuffer((__gm__ float*)c, 1024);
    pipe.InitBuffer(inQueueA1, 1, 1024 * sizeof(half));
    pipe.InitBuffer(inQueueA2, 1, 1024 * sizeof(half));
    pipe.InitBuffer(inQueueB1, 1, 1024 * sizeof(half));
    pipe.InitBuffer(inQueueB2, 2, 512 * sizeof(half));
    pipe.InitBuffer(outQueueCO1, 2, 512 * sizeof(float));
    pipe.InitBuffer(outQueueCO2, 1, 1024 * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<half> a1 = inQueueA1.AllocTensor<half>();
    AscendC::LocalTensor<half> b1 = inQueueB1.AllocTensor<half>();
    for (int i = 0; i < 2; ++i) {  // ND -> NZ with strided copies (one 16-column stripe each)
      AscendC::DataCopy(a1[i * 16 * 32], aGM[i * 16], {32, 1, 1, 0});
      AscendC::DataCopy(b1[i * 16 * 32], bGM[i * 16], {32, 1, 1, 0});
    }
    inQueueA1.EnQue(a1);
    inQueueB1.EnQue(b1);
    a1 = inQueueA1.DeQue<half>();
    AscendC::LocalTensor<half> a2 = inQueueA2.AllocTensor<half>();
    AscendC::LoadData2dParams loadA;
    loadA.repeatTimes = 2;
    loadA.srcStride = 2;
    for (int i = 0; i < 2; ++i) AscendC::LoadData(a2[i * 32 * 16], a1[i * 256], loadA);
    inQueueA2.EnQue(a2);
    inQueueA1.FreeTensor(a1);
    b1 = inQueueB1.DeQue<half>();
    a2 = inQueueA2.DeQue<half>();
    AscendC::LocalTensor<float> c2 = outQueueCO2.AllocTensor<float>();
    for (int i = 0; i < 2; ++i) {
      AscendC::LocalTensor<half> b2 = inQueueB2.AllocTensor<half>();
      AscendC::LoadData2dParams loadB;
      loadB.repeatTimes = 2;
      loadB.srcStride = 1;
      loadB.ifTranspose = true;
      AscendC::LoadData(b2, b1[i * 512], loadB);
      inQueueB2.EnQue(b2);
      b2 = inQueueB2.DeQue<half>();
      AscendC::LocalTensor<float> c1 = outQueueCO1.AllocTensor<float>();
      AscendC::Mmad(c1, a2, b2, {32, 16, 32, false, 0, false, false, false});
      outQueueCO1.EnQue(c1);
      inQueueB2.FreeTensor(b2);
      c1 = outQueueCO1.DeQue<float>();
      AscendC::DataCopyParams params;
      params.blockCount = 1;
      params.blockLen = 2;
      AscendC::DataCopyEnhancedParams enhanced;
      enhanced.blockMode = AscendC::BlockMode::BLOCK_MODE_MATRIX;
      AscendC::DataCopy(c2[i * 512], c1, params, enhanced);
      outQueueCO1.FreeTensor(c1);
    }
    inQueueB1.FreeTensor(b1);
    inQueueA2.FreeTensor(a2);
    outQueueCO2.EnQue(c2);
    c2 = outQueueCO2.DeQue<float>();
    for (int i = 0; i < 2; ++i) AscendC::DataCopy(cGM[i * 16], c2[i * 32 * 16], {32, 2, 0, 2});
    outQueueCO2.FreeTensor(c2);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::A1, 1> inQueueA1;
  AscendC::TQue<AscendC::QuePosition::A2, 1> inQueueA2;
  AscendC::TQue<AscendC::QuePosition::B1, 1> inQueueB1;
  AscendC::TQue<AscendC::QuePosition::B2, 2> inQueueB2;
  AscendC::TQue<AscendC::QuePosition::CO1, 2> outQueueCO1;
  AscendC::TQue<AscendC::QuePosition::CO2, 1> outQueueCO2;
  AscendC::GlobalTensor<half> aGM, bGM;
  AscendC::GlobalTensor<float> cGM;
};

extern "C" __global__ __aicore__ void matmul_co2(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  KernelMatmulCo2 op;
  op.Init(a, b, c);
  op.Process();
}

TEST(Cube310P, L0cToUbWithBlockModeMatrix) {
  ascsim::ScopedSettings keep;
  ascsim::Settings s = ascsim::GetSettings();
  s.soc = &ascsim::FindSocProfile("Ascend310P3");
  ascsim::SetSettings(s);
  auto a = RandomVector<half>(1024, -1, 1, 21);
  auto b = RandomVector<half>(1024, -1, 1, 22);
  DeviceBuffer da(2048), db(2048), dc(4096);
  std::memcpy(da.gm(), a.data(), 2048);
  std::memcpy(db.gm(), b.data(), 2048);
  ICPU_RUN_KF(matmul_co2, 1, da.gm(), db.gm(), dc.gm());
  std::vector<float> c(1024);
  std::memcpy(c.data(), dc.gm(), 4096);
  ExpectClose(c, Reference(a, b, 32, 32, 32), 1e-5, "310P CO2");
}

TEST(Cube310P, TheSameKernelFailsOnA2WhereCo2IsGlobalMemory) {
  DeviceBuffer da(2048), db(2048), dc(4096);
  const std::string msg = ErrorOf([&] { ICPU_RUN_KF(matmul_co2, 1, da.gm(), db.gm(), dc.gm()); });
  EXPECT_NE(msg.find("matmul_co2: block 0/1 AIC: InitBuffer: CO2 queue: TPosition::CO2 is Global "
                     "Memory on Ascend910B1, not a local buffer (L0C results leave through "
                     "Fixpipe on this arch)"),
            std::string::npos)
      << msg;
}

}  // namespace

// ---- every cube rule, with its message ----
namespace {

std::string Msg(const std::function<void()>& f) { return ErrorOf(f); }

#define EXPECT_MSG(expr, text)                                        \
  do {                                                                \
    const std::string m_ = Msg([&] { expr; });                        \
    EXPECT_NE(m_.find(text), std::string::npos) << "message: " << m_; \
  } while (0)

TEST(CubeRules, CapacityOfEachMemoryPerProfile) {
  {
    CubeCore cc;
    AscendC::TQue<AscendC::TPosition::A1, 2> q;
    EXPECT_MSG(cc.pipe().InitBuffer(q, 2, 300 * 1024),
               "test: block 0/1: InitBuffer: A1 queue needs 2 x 307200 B at L1 offset 0, "
               "exceeding the L1 Buffer (524288 B on Ascend910B1)");
  }
  {
    CubeCore cc;
    AscendC::TBuf<AscendC::TPosition::CO1> b;
    EXPECT_MSG(cc.pipe().InitBuffer(b, 129 * 1024),
               "InitBuffer: CO1 TBuf needs 132096 B at L0C offset 0, exceeding the L0C Buffer "
               "(131072 B on Ascend910B1)");
  }
  {
    CubeCore cc("Ascend310P3");
    AscendC::TBuf<AscendC::TPosition::CO1> b;
    cc.pipe().InitBuffer(b, 256 * 1024);  // 310P: L0C 256 KiB
    AscendC::TBuf<AscendC::TPosition::A1> l1;
    cc.pipe().InitBuffer(l1, 1024 * 1024);  // L1 1 MiB
    AscendC::TBuf<AscendC::TPosition::A2> l0a;
    EXPECT_MSG(cc.pipe().InitBuffer(l0a, 65 * 1024),
               "exceeding the L0A Buffer (65536 B on Ascend310P3)");
  }
  {
    CubeCore cc;
    AscendC::TBuf<AscendC::TPosition::C2> bt;
    EXPECT_MSG(cc.pipe().InitBuffer(bt, 2048),
               "exceeding the BiasTable Buffer (1024 B on Ascend910B1)");
  }
}

TEST(CubeRules, PositionsThatAreNotLocalOnTheArch) {
  CubeCore cc;
  AscendC::TQue<AscendC::TPosition::CO2, 1> q;
  EXPECT_MSG(cc.pipe().InitBuffer(q, 1, 1024),
             "InitBuffer: CO2 queue: TPosition::CO2 is Global Memory on Ascend910B1, not a local "
             "buffer (L0C results leave through Fixpipe on this arch)");
}

struct RuleRig {
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::A1> l1;
  AscendC::TBuf<AscendC::TPosition::A2> l0a;
  AscendC::TBuf<AscendC::TPosition::B2> l0b;
  AscendC::TBuf<AscendC::TPosition::CO1> l0c;
  AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
  RuleRig() {
    cc.pipe().InitBuffer(l1, 64 * 1024);
    cc.pipe().InitBuffer(l0a, 8 * 1024);
    cc.pipe().InitBuffer(l0b, 8 * 1024);
    cc.pipe().InitBuffer(l0c, 16 * 1024);
    cc.pipe().InitBuffer(ub, 8 * 1024);
  }
};

TEST(CubeRules, LoadData) {
  RuleRig r;
  AscendC::LoadData2DParams p;
  p.repeatTimes = 1;
  EXPECT_MSG(AscendC::LoadData(r.l1.Get<half>(), r.l1.Get<half>(), p),
             "LoadData: dst is the A1 TBuf in the L1 Buffer (TPosition::A1); it must be in the "
             "L0A Buffer (A2) or the L0B Buffer (B2)");
  EXPECT_MSG(AscendC::LoadData(r.l0a.Get<half>(), r.ub.Get<half>(), p),
             "LoadData: src is the VECCALC TBuf in the Unified Buffer (TPosition::VECCALC); it "
             "must be in the L1 Buffer (A1/B1)");
  p.ifTranspose = true;
  EXPECT_MSG(AscendC::LoadData(r.l0a.Get<float>(), r.l1.Get<float>(), p),
             "LoadData: ifTranspose needs a 16-bit type (half, bfloat16_t, int16_t, uint16_t); got "
             "float (use LoadDataWithTranspose for 8- and 32-bit types)");
  p.ifTranspose = false;
  EXPECT_MSG(AscendC::LoadData(r.l0a.Get<half>()[16], r.l1.Get<half>(), p),
             "LoadData: dst L0A address 0x20 is not 512-byte aligned");
  p.repeatTimes = 20;  // 20 fractals from a 16-fractal L0A buffer
  EXPECT_MSG(AscendC::LoadData(r.l0a.Get<half>(), r.l1.Get<half>(), p),
             "LoadData: dst [0, 5120) of half exceeds LocalTensor size 4096");
  p.repeatTimes = 2;
  p.startIndex = 127;
  p.srcStride = 1;
  EXPECT_MSG(AscendC::LoadData(r.l0a.Get<half>(), r.l1.Get<half>(), p),
             "LoadData: src [0, 33024) of half exceeds LocalTensor size 32768");
  p.srcStride = 0;
  p.startIndex = 0;
  p.addrMode = 1;
  EXPECT_MSG(AscendC::LoadData(r.l0a.Get<half>(), r.l1.Get<half>(), p),
             "LoadData: addrMode 1 (decreasing source index) is only available for GM -> L1");
}

TEST(CubeRules, Mmad) {
  RuleRig r;
  AscendC::MmadParams p;
  p.m = 16;
  p.n = 16;
  p.k = 16;
  EXPECT_MSG(AscendC::Mmad(r.l0c.Get<float>(), r.l0b.Get<half>(), r.l0b.Get<half>(), p),
             "Mmad: fm is the B2 TBuf in the L0B Buffer (TPosition::B2); it must be in the L0A "
             "Buffer (A2)");
  EXPECT_MSG(AscendC::Mmad(r.l0c.Get<float>(), r.l0a.Get<half>(), r.l0b.Get<float>(), p),
             "Mmad: dst float <- fm half x filter float is not a type combination of Ascend910B1");
  EXPECT_MSG(AscendC::Mmad(r.l0c.Get<half>(), r.l0a.Get<half>(), r.l0b.Get<half>(), p),
             "Mmad: dst half <- fm half x filter half is not a type combination of Ascend910B1");
  p.m = 5000;
  EXPECT_MSG(AscendC::Mmad(r.l0c.Get<float>(), r.l0a.Get<half>(), r.l0b.Get<half>(), p),
             "Mmad: m 5000 is outside [0, 4095]");
  p.m = 16;
  p.k = 512;  // 32 fractals of A: 16 KiB from an 8 KiB L0A buffer
  EXPECT_MSG(AscendC::Mmad(r.l0c.Get<float>(), r.l0a.Get<half>(), r.l0b.Get<half>(), p),
             "Mmad: fm [0, 8192) of half exceeds LocalTensor size 4096");
  p.k = 16;
  EXPECT_MSG(AscendC::Mmad(r.l0c.Get<float>()[8], r.l0a.Get<half>(), r.l0b.Get<half>(), p),
             "Mmad: dst L0C address 0x20 is not 64-byte aligned");
}

TEST(CubeRules, MmadBiasOverloadWarnsWhenInitIgnoresTheBias) {
  CubeCore cc(/*soc=*/"Ascend910B1", /*strict=*/true);
  AscendC::TBuf<AscendC::TPosition::A2> a;
  AscendC::TBuf<AscendC::TPosition::B2> b;
  AscendC::TBuf<AscendC::TPosition::CO1> c;
  AscendC::TBuf<AscendC::TPosition::C2> bias;
  cc.pipe().InitBuffer(a, 512);
  cc.pipe().InitBuffer(b, 512);
  cc.pipe().InitBuffer(c, 1024);
  cc.pipe().InitBuffer(bias, 64);
  AscendC::MmadParams p(16, 16, 16, 0, false, true);
  EXPECT_MSG(AscendC::Mmad(c.Get<float>(), a.Get<half>(), b.Get<half>(), bias.Get<float>(), p),
             "Mmad: a bias tensor with cmatrixInitVal = true: the device starts C from 0 and "
             "ignores the bias (set mmadParams.cmatrixInitVal = false) [strict mode]");
}

TEST(CubeRules, Fixpipe) {
  RuleRig r;
  DeviceBuffer out(16 * 16 * 4);
  AscendC::FixpipeParamsV220 p(16, 16, 16, 16, false);
  EXPECT_MSG(AscendC::Fixpipe(Gm<half>(out, 256), r.l0c.Get<float>(), p),
             "Fixpipe: float -> half needs quantPre = F322F16 (got NoQuant); the FIX pipe does "
             "not infer it");
  EXPECT_MSG(AscendC::Fixpipe(Gm<float>(out, 256), r.l1.Get<float>(), p),
             "Fixpipe: src is the A1 TBuf in the L1 Buffer (TPosition::A1); it must be in the "
             "L0C Buffer (CO1)");
  // Past the GlobalTensor's size and its allocation (inside the allocation it is a warning:
  // global_tensor_past_size_test.cpp).
  DeviceBuffer small(100 * 4);
  EXPECT_MSG(AscendC::Fixpipe(Gm<float>(small, 100), r.l0c.Get<float>(), p),
             "Fixpipe write [0, 256) of float exceeds GlobalTensor size 100");
  AscendC::FixpipeParamsV220 nz(20, 16, 16, 16, false);
  EXPECT_MSG((AscendC::Fixpipe<float, float, AscendC::CFG_NZ>(Gm<float>(out, 256),
                                                              r.l0c.Get<float>(), nz)),
             "Fixpipe: nSize 20 is not a multiple of 16 (NZ output writes whole fractals)");
  AscendC::FixpipeParamsV220 stride(32, 20, 16, 32, false);
  EXPECT_MSG(AscendC::Fixpipe(Gm<float>(out, 256), r.l0c.Get<float>(), stride),
             "Fixpipe: srcStride 16 is less than mSize 20 rounded up to 16 (32): the column "
             "stripes of L0C would overlap");
}

TEST(CubeRules, Nd2NzAndCopies) {
  RuleRig r;
  DeviceBuffer g(64 * 64 * 2);
  AscendC::Nd2NzParams p(1, 32, 32, 0, 32, 16, 1, 0);  // two stripes, 16 rows apart, 32 rows each
  EXPECT_MSG(AscendC::DataCopy(r.l1.Get<half>(), Gm<half>(g, 4096), p),
             "DataCopy GM->L1 (Nd2NzParams): dstNzC0Stride 16 is less than nValue 32: the 2 "
             "column stripes of 16 x 16 would overlap in L1");
  AscendC::Nd2NzParams ok(1, 16, 16, 0, 16, 16, 1, 0);
  EXPECT_MSG(AscendC::DataCopy(r.l0a.Get<half>(), Gm<half>(g, 4096), ok),
             "DataCopy GM->L1 (Nd2NzParams): dst is the A2 TBuf in the L0A Buffer "
             "(TPosition::A2); it must be in the L1 Buffer (A1/B1/C1/TSCM)");
  EXPECT_MSG(AscendC::DataCopy(r.l0a.Get<half>(), Gm<half>(g, 4096), 256),
             "DataCopy GM->L1: dst is the A2 TBuf in the L0A Buffer (TPosition::A2); it must be "
             "in the L1 Buffer (A1/B1/C1/TSCM)");
  EXPECT_MSG(AscendC::DataCopy(r.l0a.Get<half>(), r.l1.Get<half>(), 256),
             "DataCopy: L1 (TPosition::A1) -> L0A (TPosition::A2) is not a DataCopy path on "
             "Ascend910B1 (L1 -> L0A/L0B is LoadData)");
  // Vector instructions only reach UB.
  EXPECT_MSG(AscendC::Add(r.l1.Get<half>(), r.ub.Get<half>(), r.ub.Get<half>(), 128),
             "Add: dst is the A1 TBuf in the L1 Buffer (TPosition::A1); this operation works on "
             "Unified Buffer tensors (VECIN/VECOUT/VECCALC)");
}

TEST(CubeRules, CubeWorkOnAnAivAndVectorWorkOnAnAic) {
  DeviceBuffer da(2048), db(2048), dc(4096);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  const std::string msg =
      ErrorOf([&] { ICPU_RUN_KF(cube_basic_half, 1, da.gm(), db.gm(), dc.gm(), 16u, 16u, 16u); });
  ascsim::aicore::SetRequestedKernelMode(-1);
  EXPECT_NE(msg.find("cube_basic_half: block 0/1: InitBuffer: A1 queue: TPosition::A1 is the L1 "
                     "Buffer, which the AIV of Ascend910B1 does not have (cube work runs on the "
                     "AIC: guard it with ASCEND_IS_AIC and declare a mix kernel type, e.g. "
                     "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)); "
                     "SetKernelMode(KernelMode::AIV_MODE) is in effect"),
            std::string::npos)
      << msg;
}

}  // namespace

namespace {
// An L1 -> GM copy under SetAtomicAdd would accumulate on the device; ascsim copies this path, so
// it refuses instead of silently overwriting (UB -> GM and Fixpipe do accumulate).
TEST(CubeCopy, L1ToGmUnderAtomicAddIsRefused) {
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::A1> l1;
  cc.pipe().InitBuffer(l1, 1024);
  auto src = l1.Get<float>();
  DeviceBuffer gm(256 * sizeof(float));
  AscendC::DataCopy(Gm<float>(gm, 256), src, 256);  // plain copy: fine
  AscendC::SetAtomicAdd<float>();
  EXPECT_NE(ErrorOf([&] { AscendC::DataCopy(Gm<float>(gm, 256), src, 256); })
                .find("L1 -> GM under SetAtomicAdd/Max/Min is not simulated"),
            std::string::npos);
  AscendC::SetAtomicNone();
}
}  // namespace

namespace {
constexpr AscendC::IsResetLoad3dConfig kKeepRegisters = {false, false};

// LoadData 3D v2 (img2col) compiles with and without the IsResetLoad3dConfig template argument
// and refuses at run time: the simulator does not compute img2col.
TEST(CubeLoad3d, Load3dV2IsNotSimulatedWithOrWithoutTheConfigArgument) {
  static_assert(AscendC::IS_RESER_LOAD3D_DEFAULT_CONFIG.isSetFMatrix &&
                AscendC::IS_RESER_LOAD3D_DEFAULT_CONFIG.isSetPadding);
  static_assert(!kKeepRegisters.isSetFMatrix && !kKeepRegisters.isSetPadding);
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::A1> l1;
  AscendC::TBuf<AscendC::TPosition::A2> l0a;
  cc.pipe().InitBuffer(l1, 1024);
  cc.pipe().InitBuffer(l0a, 1024);
  auto src = l1.Get<half>();
  auto dst = l0a.Get<half>();
  AscendC::LoadData3DParamsV2<half> p;
  const std::string msg = "LoadData with LoadData3DParamsV2 (img2col) is not simulated yet";
  EXPECT_NE(ErrorOf([&] { AscendC::LoadData(dst, src, p); }).find(msg), std::string::npos);
  EXPECT_NE(ErrorOf([&] { AscendC::LoadData<half, kKeepRegisters>(dst, src, p); }).find(msg),
            std::string::npos);
}

// The packed 3D v2 parameters (ops-transformer mla_prolog's service_matmul.h): CANN's defaults
// and constructor order, and the same run-time refusal.
TEST(CubeLoad3d, Load3dV2ProIsNotSimulated) {
  AscendC::LoadData3DParamsV2Pro d;
  EXPECT_EQ(d.channelSize, 0);
  EXPECT_FALSE(d.enTranspose || d.enSmallK || d.filterSizeW || d.filterSizeH || d.fMatrixCtrl);
  EXPECT_EQ(d.extConfig, 0u);
  EXPECT_EQ(d.filterConfig, 0x10101010101u);
  const AscendC::LoadData3DParamsV2Pro p(48, true, false, true, false, true, 0x1234, 7);
  EXPECT_EQ(p.channelSize, 48);
  EXPECT_TRUE(p.enTranspose && !p.enSmallK && p.filterSizeW && !p.filterSizeH && p.fMatrixCtrl);
  EXPECT_EQ(p.extConfig, 0x1234u);
  EXPECT_EQ(p.filterConfig, 7u);
  CubeCore cc;
  AscendC::TBuf<AscendC::TPosition::A1> l1;
  AscendC::TBuf<AscendC::TPosition::A2> l0a;
  cc.pipe().InitBuffer(l1, 1024);
  cc.pipe().InitBuffer(l0a, 1024);
  auto src = l1.Get<half>();
  auto dst = l0a.Get<half>();
  EXPECT_NE(ErrorOf([&] {
              AscendC::LoadData<half>(dst, src, p);
            }).find("LoadData with LoadData3DParamsV2Pro (img2col) is not simulated yet"),
            std::string::npos);
}
}  // namespace
