// Strided/padded copy example: gathers a 13-column block out of a row-major matrix with a
// strided DataCopy and writes it packed with DataCopyPad, from ACL host code (ACLRT_LAUNCH_KERNEL
// on a stream) and through the CPU-twin path (ICPU_RUN_KF); checks both against a scalar gather.
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void strided_copy_custom(GM_ADDR x, GM_ADDR y, uint32_t rows,
                                                          uint32_t cols, uint32_t colStart,
                                                          uint32_t width);

namespace {

constexpr uint32_t kBlockDim = 4;
constexpr uint32_t kRows = 100;
constexpr uint32_t kCols = 200;     // multiple of 8 floats (32 B)
constexpr uint32_t kColStart = 24;  // multiple of 8 floats
constexpr uint32_t kWidth = 13;     // 52 B per row: not 32 B aligned, written with DataCopyPad

#define CHECK_ACL(expr)                                                              \
  do {                                                                               \
    const aclError ret = (expr);                                                     \
    if (ret != ACL_SUCCESS) {                                                        \
      std::fprintf(stderr, "%s failed (%d): %s\n", #expr, ret, aclGetRecentErrMsg()); \
      return false;                                                                  \
    }                                                                                \
  } while (0)

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
  const size_t xBytes = x.size() * sizeof(float), yBytes = y->size() * sizeof(float);
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  void *xDevice = nullptr, *yDevice = nullptr;
  CHECK_ACL(aclrtMalloc(&xDevice, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&yDevice, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(xDevice, xBytes, x.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemset(yDevice, yBytes, 0xff, yBytes));  // NaN: an unwritten element shows
  CHECK_ACL(ACLRT_LAUNCH_KERNEL(strided_copy_custom)(kBlockDim, stream, xDevice, yDevice, kRows,
                                                     kCols, kColStart, kWidth));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(y->data(), yBytes, yDevice, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK_ACL(aclrtFree(xDevice));
  CHECK_ACL(aclrtFree(yDevice));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  return true;
}

void RunCpuTwin(const std::vector<float>& x, std::vector<float>* y) {
  const size_t xBytes = x.size() * sizeof(float), yBytes = y->size() * sizeof(float);
  uint8_t* xGm = static_cast<uint8_t*>(AscendC::GmAlloc(xBytes));
  uint8_t* yGm = static_cast<uint8_t*>(AscendC::GmAlloc(yBytes));
  std::memcpy(xGm, x.data(), xBytes);
  std::memset(yGm, 0xff, yBytes);
  ICPU_RUN_KF(strided_copy_custom, kBlockDim, xGm, yGm, kRows, kCols, kColStart, kWidth);
  std::memcpy(y->data(), yGm, yBytes);
  AscendC::GmFree(xGm);
  AscendC::GmFree(yGm);
}

}  // namespace

int main() {
  std::vector<float> x(kRows * kCols), ref(kRows * kWidth);
  for (uint32_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  for (uint32_t r = 0; r < kRows; ++r)
    for (uint32_t c = 0; c < kWidth; ++c) ref[r * kWidth + c] = x[r * kCols + kColStart + c];
  std::vector<float> yAcl(ref.size()), yCpu(ref.size());
  if (!RunAcl(x, &yAcl)) return 1;
  RunCpuTwin(x, &yCpu);
  const int badAcl = CountMismatches(yAcl, ref, "ACL");
  const int badCpu = CountMismatches(yCpu, ref, "CPU twin");
  std::printf("strided_copy: columns [%u, %u) of a [%u, %u] matrix on %u blocks: ACL %s, CPU twin %s\n",
              kColStart, kColStart + kWidth, kRows, kCols, kBlockDim, badAcl ? "FAIL" : "ok",
              badCpu ? "FAIL" : "ok");
  return badAcl || badCpu ? 1 : 0;
}
