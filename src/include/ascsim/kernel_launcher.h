// Turns a kernel function into a launchable object: ACLRT_LAUNCH_KERNEL(k)(blockDim, stream,
// args...) and ICPU_RUN_KF(k, blockDim, args...) both come here. Arguments are converted to the
// kernel's parameter types (void* -> GM_ADDR, as ACL's generated launchers accept) and captured
// by value, so a queued launch does not depend on the caller's stack.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ascsim/npu_arch.h"
#include "ascsim/runtime.h"

namespace ascsim {

// The __NPU_ARCH__ this launching code was compiled for, or 0 for kernels built to run on every
// profile (ASCSIM_ARCH_NEUTRAL_KERNELS: code with no __NPU_ARCH__ branches, e.g. the shipped ones).
#ifdef ASCSIM_ARCH_NEUTRAL_KERNELS
inline constexpr int kCompiledArch = 0;
#else
inline constexpr int kCompiledArch = __NPU_ARCH__;
#endif

template <class P, class A>
P ConvertKernelArg(A&& arg) {
  using Raw = std::decay_t<A>;
  if constexpr (std::is_pointer_v<P> && (std::is_pointer_v<Raw> || std::is_null_pointer_v<Raw>)) {
    return reinterpret_cast<P>(const_cast<void*>(static_cast<const void*>(arg)));
  } else {
    return static_cast<P>(std::forward<A>(arg));
  }
}

template <class... P>
class KernelLauncher {
 public:
  KernelLauncher(const char* name, void (*fn)(P...)) : name_(name), fn_(fn) {}

  // Queues (stream != nullptr) or runs the kernel; throws on error (see Launch).
  template <class... A>
  void Run(uint32_t block_dim, Stream* stream, A&&... args) const {
    static_assert(sizeof...(A) == sizeof...(P), "wrong number of kernel arguments");
    std::tuple<std::decay_t<P>...> bound(ConvertKernelArg<P>(std::forward<A>(args))...);
    void (*fn)(P...) = fn_;
    Launch(
        name_, block_dim, [fn, bound] { std::apply(fn, bound); }, stream, kCompiledArch,
        reinterpret_cast<const void*>(fn));
  }

  const char* name() const { return name_; }

 private:
  const char* name_;
  void (*fn_)(P...);
};

template <class... P>
KernelLauncher<P...> MakeKernelLauncher(const char* name, void (*fn)(P...)) {
  return KernelLauncher<P...>(name, fn);
}

}  // namespace ascsim
