// The shipped matmul_custom kernel (kernel/matmul_custom.cpp) through its C++ launcher
// ascsim::kernels::LaunchMatmulCustom: fp16 inputs, fp32 or fp16 C, with and without bias, any
// M, N, K (multiples of 16 or not), any blockDim (including more AICs than the chip has), on
// the caller's thread and on a stream; against a double-precision reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "ascsim/runtime.h"
#include "kernel_launchers.h"

namespace {

using ascsim::kernels::ElementType;
using ascsim_test::DeviceBuffer;
using ascsim_test::RandomVector;

struct MatmulCase {
  uint32_t m, n, k;
  bool bias;
  uint32_t block_dim;
};

std::vector<double> Reference(const std::vector<half>& a, const std::vector<half>& b,
                              const std::vector<float>* bias, uint32_t m, uint32_t n, uint32_t k) {
  std::vector<double> c(size_t{m} * n, 0.0);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t p = 0; p < k; ++p) {
      const double av = static_cast<float>(a[size_t{i} * k + p]);
      for (uint32_t j = 0; j < n; ++j)
        c[size_t{i} * n + j] += av * static_cast<float>(b[size_t{p} * n + j]);
    }
    if (bias != nullptr) {
      for (uint32_t j = 0; j < n; ++j) c[size_t{i} * n + j] += (*bias)[j];
    }
  }
  return c;
}

// fp16 products are exact in fp32 and summed in fp32: the error stays far below 1e-5 of the
// largest |C| (fp32 C) or one half rounding (fp16 C).
template <class CT>
void Check(const std::vector<CT>& got, const std::vector<double>& want, double rel,
           const std::string& what) {
  double scale = 1e-3;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double g = static_cast<float>(got[i]);
    if (!(std::fabs(g - want[i]) <= rel * scale)) {
      if (bad++ < 5) ADD_FAILURE() << what << " [" << i << "]: " << g << " vs " << want[i];
    }
  }
  EXPECT_EQ(bad, 0u) << what;
}

template <class CT>
void RunCase(const MatmulCase& c, ascsim::Stream* stream = nullptr) {
  const ElementType type = sizeof(CT) == 4 ? ElementType::kFloat32 : ElementType::kFloat16;
  auto a = RandomVector<half>(size_t{c.m} * c.k, -1, 1, c.m + 1);
  auto b = RandomVector<half>(size_t{c.k} * c.n, -1, 1, c.n + 2);
  auto bias = RandomVector<float>(c.n, -2, 2, c.k + 3);
  DeviceBuffer da(a.size() * 2), db(b.size() * 2), dbias(bias.size() * 4),
      dc(size_t{c.m} * c.n * sizeof(CT));
  std::memcpy(da.gm(), a.data(), da.bytes());
  std::memcpy(db.gm(), b.data(), db.bytes());
  std::memcpy(dbias.gm(), bias.data(), dbias.bytes());
  std::memset(dc.gm(), 0xff, dc.bytes());
  ascsim::kernels::LaunchMatmulCustom(type, da.gm(), db.gm(), c.bias ? dbias.gm() : nullptr,
                                      dc.gm(), c.m, c.n, c.k, c.block_dim, stream);
  if (stream != nullptr) stream->Synchronize();
  std::vector<CT> got(size_t{c.m} * c.n);
  std::memcpy(got.data(), dc.gm(), dc.bytes());
  Check(got, Reference(a, b, c.bias ? &bias : nullptr, c.m, c.n, c.k),
        sizeof(CT) == 4 ? 1e-5 : 1e-3,
        std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) +
            (c.bias ? " bias" : "") + " blockDim " + std::to_string(c.block_dim));
}

class MatmulCustom : public ::testing::TestWithParam<MatmulCase> {};

TEST_P(MatmulCustom, FloatOut) { RunCase<float>(GetParam()); }
TEST_P(MatmulCustom, HalfOut) { RunCase<half>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Shapes, MatmulCustom,
    ::testing::Values(MatmulCase{1, 1, 1, false, 0}, MatmulCase{16, 16, 16, true, 0},
                      MatmulCase{33, 47, 65, false, 0}, MatmulCase{33, 47, 65, true, 1},
                      MatmulCase{7, 1000, 3, true, 0}, MatmulCase{1000, 5, 300, false, 3},
                      MatmulCase{512, 384, 1000, true, 0}, MatmulCase{200, 300, 100, false, 30}),
    [](const ::testing::TestParamInfo<MatmulCase>& info) {
      const MatmulCase& c = info.param;
      return std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) +
             (c.bias ? "_bias" : "") + "_dim" + std::to_string(c.block_dim);
    });

TEST(MatmulCustomLauncher, QueuesOnAStreamAndFreesItsTiling) {
  const size_t before = ascsim::GetMemoryStats().in_use_bytes;
  {
    ascsim::Stream stream;
    RunCase<float>(MatmulCase{70, 90, 110, true, 2}, &stream);
  }
  EXPECT_EQ(ascsim::GetMemoryStats().in_use_bytes, before);
}

TEST(MatmulCustomLauncher, RejectsShapesOutsideTheKernelsRange) {
  DeviceBuffer d(64);
  for (auto [m, n, k] : {std::array<uint32_t, 3>{0, 16, 16}, {16, 16, 70000}}) {
    try {
      ascsim::kernels::LaunchMatmulCustom(ElementType::kFloat32, d.gm(), d.gm(), nullptr, d.gm(), m,
                                          n, k, 0, nullptr);
      ADD_FAILURE() << "no error";
    } catch (const ascsim::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("matmul_custom: shape " + std::to_string(m) + " x " +
                                           std::to_string(n) + " x " + std::to_string(k) +
                                           " is outside [1, 65535] in some dimension"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(MatmulCustomLauncher, ASmallGlobalBufferIsCaughtByTheKernelsCopies) {
  DeviceBuffer a(32 * 32 * 2), b(16 * 32 * 2), c(32 * 32 * 4);  // B holds 16 rows, not 32
  try {
    ascsim::kernels::LaunchMatmulCustom(ElementType::kFloat32, a.gm(), b.gm(), nullptr, c.gm(), 32,
                                        32, 32, 1, nullptr);
    ADD_FAILURE() << "no error";
  } catch (const ascsim::Error& e) {
    // The AIC reads B for the Matmul request of an AIV (either may be first).
    const std::string msg = e.what();
    EXPECT_NE(msg.find("matmul_custom: block 0/1 AIC (Matmul of AIV"), std::string::npos) << msg;
    EXPECT_NE(msg.find("DataCopy GM->L1 (Nd2NzParams) read ["), std::string::npos) << msg;
    EXPECT_NE(msg.find(") of half runs outside its device allocation of 1024 B"), std::string::npos)
        << msg;
  }
}

}  // namespace
