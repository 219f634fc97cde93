// Host-side launchers of the shipped kernels: pick the kernel for the dtype and launch it over
// blockDim blocks (the element-wise kernels derive their tiling from totalLength inside the
// kernel, see elementwise_tiling.h; matmul_custom takes a host tiling). Used by the Python module
// and by C++ callers that do not want ACL.
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

// C (m x n) = A (m x k) x B (k x n) (+ bias), row-major device buffers: A and B half, bias float
// (null: none), C float (c_type kFloat32) or half (kFloat16). Runs matmul_custom, a mix kernel
// with the Matmul API: the host tiling (tiling/tiling_api.h) splits C over the AIVs of
// `block_dim` AICs (0: every AIC of the active profile); the launch's blockDim is the number of
// AICs the tiling uses. Any m, n, k in [1, 65535].
void LaunchMatmulCustom(ElementType c_type, const void* a, const void* b, const void* bias, void* c,
                        uint32_t m, uint32_t n, uint32_t k, uint32_t block_dim, Stream* stream);

}  // namespace ascsim::kernels
