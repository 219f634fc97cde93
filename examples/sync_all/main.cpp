// SyncAll example: center_custom subtracts the global mean, which needs every block's partial
// sum before any block can finish. Runs from ACL host code (ACLRT_LAUNCH_KERNEL on a stream) and
// through the CPU-twin path (ICPU_RUN_KF) with 48 blocks (one per vector core of Ascend910B1,
// far more than this machine's worker threads), and checks against a scalar reference.
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void center_custom(GM_ADDR x, GM_ADDR y, GM_ADDR total,
                                                    GM_ADDR workspace, uint32_t totalLength);

namespace {

constexpr uint32_t kBlockDim = 48;
constexpr uint32_t kBlockLength = 1024;
constexpr uint32_t kTotalLength = kBlockDim * kBlockLength;
constexpr uint32_t kTotalFloats = 16;  // [0]: atomic sum, [8]: block 0's sum after SyncAll

#define CHECK_ACL(expr)                                                              \
  do {                                                                               \
    const aclError ret = (expr);                                                     \
    if (ret != ACL_SUCCESS) {                                                        \
      std::fprintf(stderr, "%s failed (%d): %s\n", #expr, ret, aclGetRecentErrMsg()); \
      return false;                                                                  \
    }                                                                                \
  } while (0)

struct Result {
  std::vector<float> y = std::vector<float>(kTotalLength);
  std::vector<float> total = std::vector<float>(kTotalFloats);
};

bool RunAcl(const std::vector<float>& x, Result* out) {
  const size_t bytes = x.size() * sizeof(float), totalBytes = kTotalFloats * sizeof(float);
  const size_t workBytes = kBlockDim * 32;
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  void *xDevice = nullptr, *yDevice = nullptr, *totalDevice = nullptr, *workDevice = nullptr;
  CHECK_ACL(aclrtMalloc(&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&totalDevice, totalBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&workDevice, workBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(xDevice, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemset(totalDevice, totalBytes, 0, totalBytes));  // atomic add accumulates
  CHECK_ACL(ACLRT_LAUNCH_KERNEL(center_custom)(kBlockDim, stream, xDevice, yDevice, totalDevice,
                                               workDevice, kTotalLength));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(out->y.data(), bytes, yDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK_ACL(aclrtMemcpy(out->total.data(), totalBytes, totalDevice, totalBytes,
                        ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK_ACL(aclrtFree(xDevice));
  CHECK_ACL(aclrtFree(yDevice));
  CHECK_ACL(aclrtFree(totalDevice));
  CHECK_ACL(aclrtFree(workDevice));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  return true;
}

void RunCpuTwin(const std::vector<float>& x, Result* out) {
  const size_t bytes = x.size() * sizeof(float), totalBytes = kTotalFloats * sizeof(float);
  uint8_t* xGm = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  uint8_t* yGm = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  uint8_t* totalGm = static_cast<uint8_t*>(AscendC::GmAlloc(totalBytes));
  uint8_t* workGm = static_cast<uint8_t*>(AscendC::GmAlloc(kBlockDim * 32));
  std::memcpy(xGm, x.data(), bytes);
  std::memset(totalGm, 0, totalBytes);
  ICPU_RUN_KF(center_custom, kBlockDim, xGm, yGm, totalGm, workGm, kTotalLength);
  std::memcpy(out->y.data(), yGm, bytes);
  std::memcpy(out->total.data(), totalGm, totalBytes);
  AscendC::GmFree(xGm);
  AscendC::GmFree(yGm);
  AscendC::GmFree(totalGm);
  AscendC::GmFree(workGm);
}

// Small integers keep every partial and total sum exact in float, whatever the order.
int CountMismatches(const Result& r, const std::vector<float>& yRef, float totalRef,
                    const char* path) {
  int bad = 0;
  if (r.total[0] != totalRef || r.total[8] != totalRef) {
    std::printf("  %s total: atomic %g, after SyncAll %g, want %g\n", path, r.total[0],
                r.total[8], totalRef);
    ++bad;
  }
  for (size_t i = 0; i < yRef.size(); ++i) {
    if (r.y[i] != yRef[i]) {
      if (bad < 5) std::printf("  %s mismatch at %zu: got %g, want %g\n", path, i, r.y[i], yRef[i]);
      ++bad;
    }
  }
  return bad;
}

}  // namespace

int main() {
  std::vector<float> x(kTotalLength), yRef(kTotalLength);
  float total = 0.0f;
  for (uint32_t i = 0; i < kTotalLength; ++i) {
    x[i] = static_cast<float>(static_cast<int>((i * 37u) % 17u) - 5);
    total += x[i];
  }
  const float mean = total / static_cast<float>(kTotalLength);
  for (uint32_t i = 0; i < kTotalLength; ++i) yRef[i] = x[i] + (-mean);
  Result acl, cpu;
  if (!RunAcl(x, &acl)) return 1;
  RunCpuTwin(x, &cpu);
  const int badAcl = CountMismatches(acl, yRef, total, "ACL");
  const int badCpu = CountMismatches(cpu, yRef, total, "CPU twin");
  std::printf("sync_all: %u floats on %u blocks, total %g (atomic add and SyncAll agree), mean "
              "removed: ACL %s, CPU twin %s\n",
              kTotalLength, kBlockDim, total, badAcl ? "FAIL" : "ok", badCpu ? "FAIL" : "ok");
  return badAcl || badCpu ? 1 : 0;
}
