#include "kernel_launchers.h"

#include <limits>
#include <string>

#include "aclrtlaunch_add_custom.h"
#include "aclrtlaunch_gelu_custom.h"
#include "ascsim/kernel_launcher.h"

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
  if (type == ElementType::kFloat16) {
    MakeKernelLauncher("add_custom", &add_custom).Run(block_dim, stream, x, y, z, len);
  } else {
    MakeKernelLauncher("add_custom", &add_custom_float).Run(block_dim, stream, x, y, z, len);
  }
}

void LaunchGeluCustom(ElementType type, const void* x, void* y, uint64_t n, uint32_t block_dim,
                      Stream* stream) {
  const uint32_t len = CheckedLength("gelu_custom", n);
  if (type == ElementType::kFloat16) {
    MakeKernelLauncher("gelu_custom", &gelu_custom).Run(block_dim, stream, x, y, len);
  } else {
    MakeKernelLauncher("gelu_custom", &gelu_custom_float).Run(block_dim, stream, x, y, len);
  }
}

}  // namespace ascsim::kernels
