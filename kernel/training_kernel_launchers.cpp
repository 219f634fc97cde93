// Host launchers of the kernels a training step needs beside the seed's: gelu_custom_backward
// and rms_norm_custom (declared in kernel_launchers.h with the others).
#include <cmath>
#include <limits>
#include <string>

#include "aclrtlaunch_elementwise_bf16_custom.h"
#include "aclrtlaunch_gelu_custom_backward.h"
#include "aclrtlaunch_rms_norm_custom.h"
#include "ascsim/kernel_launcher.h"
#include "kernel_launchers.h"
#include "tiling/platform/platform_ascendc.h"

namespace ascsim::kernels {

void LaunchGeluCustomBackward(ElementType type, const void* dy, const void* x, void* dx, uint64_t n,
                              uint32_t block_dim, Stream* stream) {
  if (n > std::numeric_limits<uint32_t>::max()) {
    throw InvalidArgument("gelu_custom_backward: " + std::to_string(n) +
                          " elements exceed the kernel's uint32 totalLength");
  }
  const auto len = static_cast<uint32_t>(n);
  if (type == ElementType::kBFloat16) {
    MakeKernelLauncher("gelu_custom_backward", &gelu_custom_backward_bf16)
        .Run(block_dim, stream, dy, x, dx, len);
  } else if (type == ElementType::kFloat16) {
    MakeKernelLauncher("gelu_custom_backward", &gelu_custom_backward)
        .Run(block_dim, stream, dy, x, dx, len);
  } else {
    MakeKernelLauncher("gelu_custom_backward", &gelu_custom_backward_float)
        .Run(block_dim, stream, dy, x, dx, len);
  }
}

uint64_t RmsNormCustomMaxCols(ElementType type) {
  uint64_t ub = 0;
  platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreMemSize(
      platform_ascendc::CoreMemType::UB, ub);
  const uint32_t size = type == ElementType::kFloat32 ? 4 : 2;
  // RmsNormCustomUbBytes grows with cols: the largest cols that fits, by bisection.
  uint64_t lo = 0, hi = ub;
  while (lo < hi) {
    const uint64_t mid = (lo + hi + 1) / 2;
    if (RmsNormCustomUbBytes(static_cast<uint32_t>(mid), size) <= ub) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

void LaunchRmsNormCustom(ElementType type, const void* x, const void* gamma, void* y, float* rstd,
                         uint64_t rows, uint64_t cols, float eps, uint32_t block_dim,
                         Stream* stream) {
  const std::string kernel = "rms_norm_custom";
  if (block_dim == 0 || block_dim > 65535) {
    throw InvalidArgument(kernel + ": blockDim " + std::to_string(block_dim) +
                          " is outside [1, 65535]");
  }
  if (cols == 0) throw InvalidArgument(kernel + ": rows of 0 elements have no RMS");
  if (type == ElementType::kBFloat16) {
    throw InvalidArgument(kernel + ": the kernel has float16 and float32 variants, not bfloat16");
  }
  const uint64_t max_cols = RmsNormCustomMaxCols(type);
  if (cols > max_cols) {
    throw InvalidArgument(kernel + ": a row of " + std::to_string(cols) + " " +
                          (type == ElementType::kFloat16 ? "half" : "float") +
                          " elements does not fit in the Unified Buffer (at most " +
                          std::to_string(max_cols) + " on this SoC; the kernel keeps a row in UB)");
  }
  if (rows > std::numeric_limits<uint32_t>::max()) {
    throw InvalidArgument(kernel + ": " + std::to_string(rows) +
                          " rows exceed the kernel's uint32 numRow");
  }
  if (!std::isfinite(eps) || eps < 0) {
    throw InvalidArgument(kernel + ": eps must be finite and >= 0, got " + std::to_string(eps));
  }
  if (rows == 0) return;
  RmsNormCustomTilingData tiling{};
  tiling.numRow = static_cast<uint32_t>(rows);
  tiling.numCol = static_cast<uint32_t>(cols);
  tiling.blockFactor = static_cast<uint32_t>((rows + block_dim - 1) / block_dim);
  tiling.rowFactor = RMS_NORM_ROW_FACTOR;
  tiling.epsilon = eps;
  tiling.avgFactor = 1.0f / static_cast<float>(cols);
  const auto used = static_cast<uint32_t>((rows + tiling.blockFactor - 1) / tiling.blockFactor);
  if (type == ElementType::kFloat16) {
    MakeKernelLauncher("rms_norm_custom", &rms_norm_custom_half)
        .Run(used, stream, x, gamma, y, rstd, tiling);
  } else {
    MakeKernelLauncher("rms_norm_custom", &rms_norm_custom_float)
        .Run(used, stream, x, gamma, y, rstd, tiling);
  }
}

}  // namespace ascsim::kernels
