// The CPU-twin debug API (tikicpulib.h): GmAlloc/GmFree and ICPU_RUN_KF, which runs a kernel over
// blockDim blocks synchronously. A fault throws ascsim::KernelError (a std::runtime_error) with
// the one-line message; it never aborts the process.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ascsim/kernel_launcher.h"
#include "ascsim/profile.h"
#include "kernel_operator.h"
// CANN's tikicpulib.h brings securec (kern_fwk.h includes securec.h), and CPU-debug mains call
// memcpy_s without including it themselves. The toolkit installs securec.h beside this header.
#if __has_include("securec.h")
#include "securec.h"
#endif

namespace AscendC {
// Device (GM) memory for CPU-twin programs.
inline void* GmAlloc(size_t size) { return ascsim::DeviceMalloc(size); }
inline void GmFree(void* ptr) { ascsim::DeviceFree(ptr); }
}  // namespace AscendC

// CANN declares KernelMode at global scope: samples write
// AscendC::SetKernelMode(KernelMode::AIV_MODE).
using AscendC::KernelMode;

// ICPU_RUN_KF launches with the tiling key ICPU_SET_TILING_KEY set last (TILING_KEY_IS in the
// kernel); CANN keeps it in one process-wide variable (g_tilingKey), and so does ascsim. A pointer
// argument to host memory that is not GmAlloc'd reads as a snapshot of it, as in CANN's CPU mode
// (KernelLauncher::CpuDebugHostArguments).
#define ICPU_RUN_KF(kernel, blockDim, ...)                                                    \
  (::ascsim::InstallTraceFromEnvironment(), ::ascsim::MakeKernelLauncher(#kernel, &kernel)    \
                                                .WithTilingKey(::ascsim::CpuDebugTilingKey()) \
                                                .CpuDebugHostArguments()                      \
                                                .Run((blockDim), nullptr, __VA_ARGS__))
#define ICPU_SET_TILING_KEY(key) ::ascsim::SetCpuDebugTilingKey(static_cast<uint64_t>(key))
