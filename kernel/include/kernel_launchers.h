// Host-side launchers of the shipped kernels: pick the kernel for the dtype and launch it over
// blockDim blocks (tiling is derived from totalLength inside the kernel, see
// elementwise_tiling.h). Used by the Python module and by C++ callers that do not want ACL.
#pragma once

#include <cstdint>

#include "ascsim/runtime.h"

namespace ascsim::kernels {

enum class ElementType { kFloat16, kFloat32 };

// z = x + y over n elements (device pointers).
void LaunchAddCustom(ElementType type, const void* x, const void* y, void* z, uint64_t n,
                     uint32_t block_dim, Stream* stream);
// y = gelu(x) over n elements (tanh form).
void LaunchGeluCustom(ElementType type, const void* x, void* y, uint64_t n, uint32_t block_dim,
                      Stream* stream);

}  // namespace ascsim::kernels
