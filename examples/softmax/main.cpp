// Row softmax example: runs softmax_custom from ACL host code (ACLRT_LAUNCH_KERNEL on a stream)
// and through the CPU-twin path (ICPU_RUN_KF), and checks both against a scalar reference.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, uint32_t rows,
                                                     uint32_t cols);

namespace {

constexpr uint32_t kBlockDim = 8;
constexpr uint32_t kRows = 60;  // not a multiple of kBlockDim: the last block gets fewer rows
constexpr uint32_t kCols = 1000;  // 4000 B per row: a whole number of 32 B blocks
constexpr double kTolerance = 1e-5;  // relative; Exp and the sum order differ from libm

#define CHECK_ACL(expr)                                                              \
  do {                                                                               \
    const aclError ret = (expr);                                                     \
    if (ret != ACL_SUCCESS) {                                                        \
      std::fprintf(stderr, "%s failed (%d): %s\n", #expr, ret, aclGetRecentErrMsg()); \
      return false;                                                                  \
    }                                                                                \
  } while (0)

std::vector<double> Reference(const std::vector<float>& x) {
  std::vector<double> ref(x.size());
  for (uint32_t r = 0; r < kRows; ++r) {
    const float* row = &x[r * kCols];
    double rowMax = row[0], sum = 0.0;
    for (uint32_t c = 1; c < kCols; ++c) rowMax = std::max<double>(rowMax, row[c]);
    for (uint32_t c = 0; c < kCols; ++c) sum += std::exp(row[c] - rowMax);
    for (uint32_t c = 0; c < kCols; ++c) ref[r * kCols + c] = std::exp(row[c] - rowMax) / sum;
  }
  return ref;
}

int CountMismatches(const std::vector<float>& out, const std::vector<double>& ref,
                    const char* path, double* maxRelErr) {
  int bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double err = std::fabs(out[i] - ref[i]) / std::max(ref[i], 1e-30);
    *maxRelErr = std::max(*maxRelErr, err);
    if (!(err <= kTolerance)) {
      if (bad < 5) std::printf("  %s mismatch at %zu: got %.9g, want %.9g\n", path, i, out[i], ref[i]);
      ++bad;
    }
  }
  return bad;
}

bool RunAcl(const std::vector<float>& x, std::vector<float>* y) {
  const size_t bytes = x.size() * sizeof(float);
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  void *xDevice = nullptr, *yDevice = nullptr;
  CHECK_ACL(aclrtMalloc(&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(xDevice, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(ACLRT_LAUNCH_KERNEL(softmax_custom)(kBlockDim, stream, xDevice, yDevice, kRows, kCols));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(y->data(), bytes, yDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK_ACL(aclrtFree(xDevice));
  CHECK_ACL(aclrtFree(yDevice));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  return true;
}

void RunCpuTwin(const std::vector<float>& x, std::vector<float>* y) {
  const size_t bytes = x.size() * sizeof(float);
  uint8_t* xGm = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  uint8_t* yGm = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  std::memcpy(xGm, x.data(), bytes);
  ICPU_RUN_KF(softmax_custom, kBlockDim, xGm, yGm, kRows, kCols);
  std::memcpy(y->data(), yGm, bytes);
  AscendC::GmFree(xGm);
  AscendC::GmFree(yGm);
}

}  // namespace

int main() {
  std::vector<float> x(kRows * kCols);
  uint32_t seed = 12345;
  for (float& v : x) {
    seed = seed * 1664525u + 1013904223u;
    v = static_cast<float>(seed >> 8) / static_cast<float>(1u << 24) * 20.0f - 10.0f;
  }
  const std::vector<double> ref = Reference(x);
  std::vector<float> yAcl(x.size()), yCpu(x.size());
  if (!RunAcl(x, &yAcl)) return 1;
  RunCpuTwin(x, &yCpu);
  double errAcl = 0, errCpu = 0;
  const int badAcl = CountMismatches(yAcl, ref, "ACL", &errAcl);
  const int badCpu = CountMismatches(yCpu, ref, "CPU twin", &errCpu);
  std::printf("softmax: [%u, %u] float on %u blocks: ACL %s (max rel err %.2g), CPU twin %s (%.2g)\n",
              kRows, kCols, kBlockDim, badAcl ? "FAIL" : "ok", errAcl, badCpu ? "FAIL" : "ok",
              errCpu);
  return badAcl || badCpu ? 1 : 0;
}
