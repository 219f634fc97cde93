// LeakyRelu example: runs leaky_relu_custom from ACL host code (ACLRT_LAUNCH_KERNEL on a stream)
// and through the CPU-twin path (ICPU_RUN_KF), and checks both against a scalar reference.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, uint32_t totalLength,
                                                        float alpha);

namespace {

constexpr uint32_t kBlockDim = 8;
constexpr uint32_t kTotalLength = kBlockDim * 8 * 2 * 256;  // blocks x tiles x buffers x tile
constexpr float kAlpha = 0.01f;

#define CHECK_ACL(expr)                                                              \
  do {                                                                               \
    const aclError ret = (expr);                                                     \
    if (ret != ACL_SUCCESS) {                                                        \
      std::fprintf(stderr, "%s failed (%d): %s\n", #expr, ret, aclGetRecentErrMsg()); \
      return false;                                                                  \
    }                                                                                \
  } while (0)

// Counts elements that differ from the reference (exact: LeakyRelu is one multiply per element).
int CountMismatches(const std::vector<float>& out, const std::vector<float>& ref, const char* path) {
  int bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (out[i] != ref[i]) {
      if (bad < 5) std::printf("  %s mismatch at %zu: got %g, want %g\n", path, i, out[i], ref[i]);
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
  CHECK_ACL(ACLRT_LAUNCH_KERNEL(leaky_relu_custom)(kBlockDim, stream, xDevice, yDevice,
                                                   kTotalLength, kAlpha));
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
  ICPU_RUN_KF(leaky_relu_custom, kBlockDim, xGm, yGm, kTotalLength, kAlpha);
  std::memcpy(y->data(), yGm, bytes);
  AscendC::GmFree(xGm);
  AscendC::GmFree(yGm);
}

}  // namespace

int main() {
  std::vector<float> x(kTotalLength), ref(kTotalLength);
  for (uint32_t i = 0; i < kTotalLength; ++i) {
    x[i] = static_cast<float>(static_cast<int>(i % 201) - 100) * 0.37f;
    ref[i] = x[i] >= 0.0f ? x[i] : x[i] * kAlpha;
  }
  std::vector<float> yAcl(kTotalLength), yCpu(kTotalLength);
  if (!RunAcl(x, &yAcl)) return 1;
  RunCpuTwin(x, &yCpu);
  const int badAcl = CountMismatches(yAcl, ref, "ACL");
  const int badCpu = CountMismatches(yCpu, ref, "CPU twin");
  std::printf("leaky_relu: %u floats on %u blocks, alpha %g: ACL %s, CPU twin %s\n", kTotalLength,
              kBlockDim, kAlpha, badAcl ? "FAIL" : "ok", badCpu ? "FAIL" : "ok");
  return badAcl || badCpu ? 1 : 0;
}
