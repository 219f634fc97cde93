// Host-side launchers of the shipped kernels: pick the kernel for the dtype and launch it over
// blockDim blocks (the element-wise kernels derive their tiling from totalLength inside the
// kernel, see elementwise_tiling.h; matmul_custom takes a host tiling). Used by the Python module
// and by C++ callers that do not want ACL.
#pragma once

#include <cstdint>

#include "ascsim/runtime.h"

namespace ascsim::kernels {

// kBFloat16: add, GELU and GELU backward only (elementwise_bf16_custom.cpp; not on the 310P).
enum class ElementType { kFloat16, kFloat32, kBFloat16 };

// z = x + y over n elements (device pointers).
void LaunchAddCustom(ElementType type, const void* x, const void* y, void* z, uint64_t n,
                     uint32_t block_dim, Stream* stream);
// y = gelu(x) over n elements (tanh form).
void LaunchGeluCustom(ElementType type, const void* x, void* y, uint64_t n, uint32_t block_dim,
                      Stream* stream);

// dx = dy * gelu'(x) over n elements: the derivative of gelu_custom's tanh form
// (gelu_custom_backward.cpp).
void LaunchGeluCustomBackward(ElementType type, const void* dy, const void* x, void* dx, uint64_t n,
                              uint32_t block_dim, Stream* stream);
// RMSNorm over the last axis (rms_norm_custom.cpp): x is rows x cols, gamma cols elements, both
// of `type`; y = x / sqrt(mean(x^2) + eps) * gamma (rows x cols, `type`) and rstd (rows floats)
// = 1 / sqrt(mean(x^2) + eps). A row must fit in the active profile's UB (about 8,700 half or
// 8,100 float elements on a 192 KiB UB); blocks take consecutive rows, at most block_dim of them.
// On the 310P (no DataCopyPad) a row's bytes and each block's rstd bytes (its rows, at most 64 at
// a time, x 4 B) must be multiples of 32 B; the launch fails with the kernel's fault otherwise.
void LaunchRmsNormCustom(ElementType type, const void* x, const void* gamma, void* y, float* rstd,
                         uint64_t rows, uint64_t cols, float eps, uint32_t block_dim,
                         Stream* stream);
// Largest row (cols) LaunchRmsNormCustom takes for `type` on the active profile.
uint64_t RmsNormCustomMaxCols(ElementType type);

// C (m x n) = A (m x k) x B (k x n) (+ bias), row-major device buffers: A and B half, bias float
// (null: none), C float (c_type kFloat32) or half (kFloat16). Runs matmul_custom, a mix kernel
// with the Matmul API: the host tiling (tiling/tiling_api.h) splits C over the AIVs of
// `block_dim` AICs (0: every AIC of the active profile); the launch's blockDim is the number of
// AICs the tiling uses. Any m, n, k in [1, 65535].
void LaunchMatmulCustom(ElementType c_type, const void* a, const void* b, const void* bias, void* c,
                        uint32_t m, uint32_t n, uint32_t k, uint32_t block_dim, Stream* stream);

}  // namespace ascsim::kernels
