#include "kernel_launchers.h"

#include <limits>
#include <string>

#include "aclrtlaunch_add_custom.h"
#include "aclrtlaunch_elementwise_bf16_custom.h"
#include "aclrtlaunch_gelu_custom.h"
#include "aclrtlaunch_matmul_custom.h"
#include "ascsim/kernel_launcher.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

// The matmul launcher's header brings kernel_operator.h, whose DT_* numbers (CANN's
// kernel_type.h macros) would rewrite matmul_tiling::DataType::DT_*.
#undef DT_FLOAT
#undef DT_FLOAT16

namespace ascsim::kernels {
namespace {
uint32_t CheckedLength(const char* kernel, uint64_t n) {
  if (n > std::numeric_limits<uint32_t>::max()) {
    throw InvalidArgument(std::string(kernel) + ": " + std::to_string(n) +
                          " elements exceed the kernel's uint32 totalLength");
  }
  return static_cast<uint32_t>(n);
}
}  // namespace

void LaunchAddCustom(ElementType type, const void* x, const void* y, void* z, uint64_t n,
                     uint32_t block_dim, Stream* stream) {
  const uint32_t len = CheckedLength("add_custom", n);
  if (type == ElementType::kBFloat16) {
    MakeKernelLauncher("add_custom", &add_custom_bf16).Run(block_dim, stream, x, y, z, len);
  } else if (type == ElementType::kFloat16) {
    MakeKernelLauncher("add_custom", &add_custom).Run(block_dim, stream, x, y, z, len);
  } else {
    MakeKernelLauncher("add_custom", &add_custom_float).Run(block_dim, stream, x, y, z, len);
  }
}

void LaunchGeluCustom(ElementType type, const void* x, void* y, uint64_t n, uint32_t block_dim,
                      Stream* stream) {
  const uint32_t len = CheckedLength("gelu_custom", n);
  if (type == ElementType::kBFloat16) {
    MakeKernelLauncher("gelu_custom", &gelu_custom_bf16).Run(block_dim, stream, x, y, len);
  } else if (type == ElementType::kFloat16) {
    MakeKernelLauncher("gelu_custom", &gelu_custom).Run(block_dim, stream, x, y, len);
  } else {
    MakeKernelLauncher("gelu_custom", &gelu_custom_float).Run(block_dim, stream, x, y, len);
  }
}

void LaunchMatmulCustom(ElementType c_type, const void* a, const void* b, const void* bias, void* c,
                        uint32_t m, uint32_t n, uint32_t k, uint32_t block_dim, Stream* stream) {
  if (c_type == ElementType::kBFloat16) {
    throw InvalidArgument("matmul_custom: C is float32 or float16, not bfloat16");
  }
  const char* kernel = c_type == ElementType::kFloat16 ? "matmul_custom_half" : "matmul_custom";
  // Nd2NzParams holds row lengths in 16 bits (the Matmul API's limit without intrinsicsCheck).
  constexpr uint32_t kMaxDim = 65535;
  if (m == 0 || n == 0 || k == 0 || m > kMaxDim || n > kMaxDim || k > kMaxDim) {
    throw InvalidArgument(std::string(kernel) + ": shape " + std::to_string(m) + " x " +
                          std::to_string(n) + " x " + std::to_string(k) +
                          " is outside [1, 65535] in some dimension");
  }
  using namespace matmul_tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  const uint32_t aics = block_dim != 0 ? block_dim : platform->GetCoreNumAic();
  MultiCoreMatmulTiling api(*platform);
  api.SetDim(static_cast<int32_t>(aics * 2));  // the AIVs: each is a Matmul client
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND,
               c_type == ElementType::kFloat16 ? DataType::DT_FLOAT16 : DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(static_cast<int32_t>(m), static_cast<int32_t>(n), static_cast<int32_t>(k));
  api.SetShape(static_cast<int32_t>(m), static_cast<int32_t>(n), static_cast<int32_t>(k));
  api.SetBias(bias != nullptr);
  optiling::TCubeTiling tiling;
  if (api.GetTiling(tiling) != 0) {
    throw InvalidArgument(std::string(kernel) + ": no tiling fits the profile for " +
                          std::to_string(m) + " x " + std::to_string(n) + " x " +
                          std::to_string(k));
  }
  void* tiling_dev = DeviceMalloc(tiling.GetDataSize());
  tiling.SaveToBuffer(tiling_dev, tiling.GetDataSize());
  // The workspace a CANN host passes: GetLibApiWorkSpaceSize() bytes of system workspace (the
  // kernel hands it to SetSysWorkspace, which refuses nullptr) and no user part. ascsim's Matmul
  // keeps nothing there; the allocation comes from the runtime's caching pool.
  void* workspace = nullptr;
  try {
    workspace = DeviceMalloc(platform->GetLibApiWorkSpaceSize());
  } catch (...) {
    DeviceFree(tiling_dev);
    throw;
  }
  auto free_all = [tiling_dev, workspace] {
    DeviceFree(workspace);
    DeviceFree(tiling_dev);
  };
  const uint32_t launch_dim = (static_cast<uint32_t>(tiling.get_usedCoreNum()) + 1) / 2;
  auto run = [&] {
    if (c_type == ElementType::kFloat16) {
      MakeKernelLauncher(kernel, &matmul_custom_half)
          .Run(launch_dim, stream, a, b, bias, c, workspace, tiling_dev);
    } else {
      MakeKernelLauncher(kernel, &matmul_custom)
          .Run(launch_dim, stream, a, b, bias, c, workspace, tiling_dev);
    }
  };
  if (stream == nullptr) {
    try {
      run();
    } catch (...) {
      free_all();
      throw;
    }
    free_all();
    return;
  }
  run();  // queued: tiling and workspace are freed after the kernel, in stream order
  stream->Enqueue(free_all);
}

}  // namespace ascsim::kernels
