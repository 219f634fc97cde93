// Turns a kernel function into a launchable object: ACLRT_LAUNCH_KERNEL(k)(blockDim, stream,
// args...), ICPU_RUN_KF(k, blockDim, args...), k<<<...>>>(args...) and the generated
// aclrtlaunch_<k> all come here. Arguments are converted to the kernel's parameter types
// (void* -> GM_ADDR, and a pointer to a struct parameter -> a copy of the struct, as ACL's
// generated launchers accept) and captured by value, so a queued launch does not depend on the
// caller's stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
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

// Raises the InvalidArgument for a null pointer given for a struct parameter (out of line, so
// launching code built with the old libstdc++ ABI passes no std::string into libascsim).
[[noreturn]] void ThrowNullStructArgument(const char* kernel, size_t index);

// A pointer given for a kernel parameter that is a struct taken by value: CANN's generated
// launcher aclrtlaunch_<kernel> takes such a parameter (tiling data) by pointer and copies the
// struct into the launch (asc-devkit cmake/asc/legacy_modules/util/extract_host_stub.py,
// tiling_add_pointer).
template <class P, class Raw>
inline constexpr bool kStructByPointer =
    std::is_class_v<std::remove_cv_t<P>>&& std::is_pointer_v<Raw> &&
    !std::is_constructible_v<std::remove_cv_t<P>, Raw>;

template <class P, class A>
P ConvertKernelArg(const char* kernel, size_t index, A&& arg) {
  using Raw = std::decay_t<A>;
  if constexpr (std::is_pointer_v<P> && (std::is_pointer_v<Raw> || std::is_null_pointer_v<Raw>)) {
    return reinterpret_cast<P>(const_cast<void*>(static_cast<const void*>(arg)));
  } else if constexpr (kStructByPointer<P, Raw>) {
    if (arg == nullptr) ThrowNullStructArgument(kernel, index);
    return *reinterpret_cast<const std::remove_cv_t<P>*>(static_cast<const void*>(arg));
  } else {
    return static_cast<P>(std::forward<A>(arg));
  }
}

// Adds argument `index` to the addresses a launch was given (LaunchGmArgs, ascsim/runtime.h).
template <class T>
void CollectGmArg(LaunchGmArgs& out, size_t index, const T& value) {
  if constexpr (std::is_pointer_v<T>) {
    out.pointers.push_back(static_cast<const void*>(value));
    out.param.push_back(static_cast<uint16_t>(index));
  } else if constexpr (std::is_integral_v<T> && sizeof(T) == sizeof(uint64_t)) {
    out.words.push_back(static_cast<uint64_t>(value));
  } else if constexpr (std::is_class_v<T> && std::is_trivially_copyable_v<T> &&
                       sizeof(T) >= sizeof(uint64_t) && sizeof(T) <= 4096) {
    for (size_t at = 0; at + sizeof(uint64_t) <= sizeof(T); at += sizeof(uint64_t)) {
      uint64_t word;
      std::memcpy(&word, reinterpret_cast<const unsigned char*>(&value) + at, sizeof(word));
      if (word != 0) out.words.push_back(word);
    }
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
    Bind(block_dim, stream, std::index_sequence_for<A...>{}, std::forward<A>(args)...);
  }

  const char* name() const { return name_; }

  // The same launcher, launching with `key` as the tiling key (TILING_KEY_VAR in the kernel).
  KernelLauncher WithTilingKey(uint64_t key) const {
    KernelLauncher copy = *this;
    copy.tiling_key_ = key;
    return copy;
  }

 private:
  template <class... A, size_t... I>
  void Bind(uint32_t block_dim, Stream* stream, std::index_sequence<I...>, A&&... args) const {
    std::tuple<std::decay_t<P>...> bound(ConvertKernelArg<P>(name_, I, std::forward<A>(args))...);
    LaunchGmArgs gm_args;
    (CollectGmArg(gm_args, I, std::get<I>(bound)), ...);
    void (*fn)(P...) = fn_;
    Launch(
        name_, block_dim, [fn, bound] { std::apply(fn, bound); }, stream, kCompiledArch,
        reinterpret_cast<const void*>(fn), &gm_args, tiling_key_);
  }

  const char* name_;
  void (*fn_)(P...);
  uint64_t tiling_key_ = 0;
};

template <class... P>
KernelLauncher<P...> MakeKernelLauncher(const char* name, void (*fn)(P...)) {
  return KernelLauncher<P...>(name, fn);
}

}  // namespace ascsim
