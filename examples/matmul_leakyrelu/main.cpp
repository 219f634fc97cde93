// Matmul + LeakyRelu mixed-kernel example: C = LeakyRelu(A x B + bias, 0.001) with A (M x K) and
// B (K x N) in half, bias and C in float. Runs matmul_leakyrelu_custom from ACL host code and
// through the CPU-debug path (ICPU_RUN_KF), and checks both against a double-precision reference
// (fp16 inputs, fp32 accumulation).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                              GM_ADDR c, GM_ADDR workspace,
                                                              GM_ADDR tiling);
std::vector<uint8_t> GenerateTiling(int32_t m, int32_t n, int32_t k);

namespace {

constexpr int32_t M = 333, N = 520, K = 250;  // not multiples of 16
constexpr float ALPHA = 0.001f;

#define CHECK_ACL(expr)                                                               \
  do {                                                                                \
    const aclError ret = (expr);                                                      \
    if (ret != ACL_SUCCESS) {                                                         \
      std::fprintf(stderr, "%s failed (%d): %s\n", #expr, ret, aclGetRecentErrMsg()); \
      return false;                                                                   \
    }                                                                                 \
  } while (0)

struct Inputs {
  std::vector<half> a, b;
  std::vector<float> bias;
  std::vector<uint8_t> tiling;
};

uint32_t BlockDim(const std::vector<uint8_t>& tiling) {
  int32_t used = 0;  // TCubeTiling::usedCoreNum is its first field: the AICs used
  std::memcpy(&used, tiling.data(), sizeof(used));
  return static_cast<uint32_t>(used);
}

bool RunAcl(const Inputs& in, std::vector<float>* c) {
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  void *a, *b, *bias, *out, *workspace, *tiling;
  const size_t workspaceSize = 16 * 1024 * 1024;  // GetLibApiWorkSpaceSize()
  CHECK_ACL(aclrtMalloc(&a, in.a.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&b, in.b.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&bias, in.bias.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&out, c->size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&tiling, in.tiling.size(), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(
      aclrtMemcpy(a, in.a.size() * 2, in.a.data(), in.a.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(
      aclrtMemcpy(b, in.b.size() * 2, in.b.data(), in.b.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(bias, in.bias.size() * 4, in.bias.data(), in.bias.size() * 4,
                        ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(tiling, in.tiling.size(), in.tiling.data(), in.tiling.size(),
                        ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(ACLRT_LAUNCH_KERNEL(matmul_leakyrelu_custom)(BlockDim(in.tiling), stream, a, b, bias,
                                                         out, workspace, tiling));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(c->data(), c->size() * 4, out, c->size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  for (void* p : {a, b, bias, out, workspace, tiling}) CHECK_ACL(aclrtFree(p));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  return true;
}

void RunCpuDebug(const Inputs& in, std::vector<float>* c) {
  uint8_t* a = static_cast<uint8_t*>(AscendC::GmAlloc(in.a.size() * 2));
  uint8_t* b = static_cast<uint8_t*>(AscendC::GmAlloc(in.b.size() * 2));
  uint8_t* bias = static_cast<uint8_t*>(AscendC::GmAlloc(in.bias.size() * 4));
  uint8_t* out = static_cast<uint8_t*>(AscendC::GmAlloc(c->size() * 4));
  uint8_t* workspace = static_cast<uint8_t*>(AscendC::GmAlloc(16 * 1024 * 1024));
  uint8_t* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(in.tiling.size()));
  std::memcpy(a, in.a.data(), in.a.size() * 2);
  std::memcpy(b, in.b.data(), in.b.size() * 2);
  std::memcpy(bias, in.bias.data(), in.bias.size() * 4);
  std::memcpy(tiling, in.tiling.data(), in.tiling.size());
  AscendC::SetKernelMode(KernelMode::MIX_MODE);
  ICPU_RUN_KF(matmul_leakyrelu_custom, BlockDim(in.tiling), a, b, bias, out, workspace, tiling);
  std::memcpy(c->data(), out, c->size() * 4);
  for (uint8_t* p : {a, b, bias, out, workspace, tiling}) AscendC::GmFree(p);
}

int CountMismatches(const std::vector<float>& c, const std::vector<double>& ref, const char* path) {
  double scale = 1e-3;
  for (double v : ref) scale = std::fmax(scale, std::fabs(v));
  int bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    // fp16 products are exact in fp32; the fp32 sum of K of them differs from the double sum
    // by far less than 1e-5 of the largest value.
    if (!(std::fabs(c[i] - ref[i]) <= 1e-5 * scale)) {
      if (bad < 5) std::printf("  %s mismatch at %zu: got %g, want %g\n", path, i, c[i], ref[i]);
      ++bad;
    }
  }
  return bad;
}

}  // namespace

int main() {
  Inputs in;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  in.a.resize(size_t{M} * K);
  in.b.resize(size_t{K} * N);
  in.bias.resize(N);
  for (auto& x : in.a) x = half(dist(rng));
  for (auto& x : in.b) x = half(dist(rng));
  for (auto& x : in.bias) x = dist(rng);
  in.tiling = GenerateTiling(M, N, K);
  if (in.tiling.empty()) return 1;

  std::vector<double> ref(size_t{M} * N);
  for (size_t i = 0; i < size_t{M}; ++i) {
    for (size_t j = 0; j < size_t{N}; ++j) {
      double s = in.bias[j];
      for (size_t p = 0; p < size_t{K}; ++p)
        s += double(float(in.a[i * K + p])) * double(float(in.b[p * N + j]));
      ref[i * N + j] = s >= 0 ? s : s * double(ALPHA);
    }
  }

  std::vector<float> acl(size_t{M} * N), cpu(size_t{M} * N);
  if (!RunAcl(in, &acl)) return 1;
  RunCpuDebug(in, &cpu);
  const int bad = CountMismatches(acl, ref, "ACL") + CountMismatches(cpu, ref, "ICPU_RUN_KF");
  std::printf("matmul_leakyrelu_custom %dx%dx%d on %u AICs (x2 AIVs): %s\n", M, N, K,
              BlockDim(in.tiling), bad == 0 ? "PASSED" : "FAILED");
  return bad == 0 ? 0 : 1;
}
