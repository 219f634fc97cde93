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
#include <vector>

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
// ICPU_RUN_KF with a pointer argument to ordinary host memory (not GmAlloc'd). CANN's CPU mode
// runs each block in a process of its own and GmAlloc maps a shared /tmp file so the host sees
// what the blocks write (docs "GmAlloc": "创建共享内存：在/tmp目录下创建一个共享文件"); a block
// reads any other host address as the host's bytes at the launch, and what it writes there never
// reaches the host. The official AddN samples pass their ListTensorDesc table that way (a stack
// struct). SnapshotHostArgument returns device memory holding a copy of the readable bytes at `p`
// (at most kHostSnapshotBytes, the size of a small table) and warns once per kernel and argument;
// it throws InvalidArgument when `p` is not readable host memory. FreeHostSnapshots frees them.
inline constexpr size_t kHostSnapshotBytes = 4096;
void* SnapshotHostArgument(const char* kernel, size_t index, const void* p);
void FreeHostSnapshots(const std::vector<void*>& snapshots) noexcept;

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

  // The same launcher with CANN's CPU-mode view of host memory (ICPU_RUN_KF): a pointer argument
  // that is not device memory is given to the kernel as a snapshot (SnapshotHostArgument). Only
  // for launches that run now (stream null): the snapshots are freed when Run returns.
  KernelLauncher CpuDebugHostArguments() const {
    KernelLauncher copy = *this;
    copy.host_snapshots_ = true;
    return copy;
  }

 private:
  template <class... A, size_t... I>
  void Bind(uint32_t block_dim, Stream* stream, std::index_sequence<I...>, A&&... args) const {
    std::tuple<std::decay_t<P>...> bound(ConvertKernelArg<P>(name_, I, std::forward<A>(args))...);
    struct Snapshots {
      std::vector<void*> list;
      ~Snapshots() { FreeHostSnapshots(list); }
    } snapshots;
    if (host_snapshots_ && stream == nullptr) {
      (SnapshotIfHost(std::get<I>(bound), I, snapshots.list), ...);
    }
    LaunchGmArgs gm_args;
    constexpr size_t kPointers = (size_t{std::is_pointer_v<std::decay_t<P>>} + ... + 0);
    gm_args.pointers.reserve(kPointers);
    gm_args.param.reserve(kPointers);
    (CollectGmArg(gm_args, I, std::get<I>(bound)), ...);
    void (*fn)(P...) = fn_;
    Launch(
        name_, block_dim, [fn, bound] { std::apply(fn, bound); }, stream, kCompiledArch,
        reinterpret_cast<const void*>(fn), &gm_args, tiling_key_);
  }

  template <class T>
  void SnapshotIfHost(T& arg, size_t index, std::vector<void*>& list) const {
    if constexpr (std::is_pointer_v<T>) {
      const void* p = static_cast<const void*>(arg);
      if (p == nullptr || IsDeviceMemory(p)) return;
      list.push_back(SnapshotHostArgument(name_, index, p));
      arg = reinterpret_cast<T>(list.back());
    }
  }

  const char* name_;
  void (*fn_)(P...);
  uint64_t tiling_key_ = 0;
  bool host_snapshots_ = false;
};

template <class... P>
KernelLauncher<P...> MakeKernelLauncher(const char* name, void (*fn)(P...)) {
  return KernelLauncher<P...>(name, fn);
}
// A captureless lambda (ICPU_RUN_KF takes &kernel): production kernel UTs wrap a template kernel in
// one, `auto kernel = [](GM_ADDR x, ...) { my_kernel<1, 2>(x, ...); }; ICPU_RUN_KF(kernel, ...)`.
// The launch runs the lambda's function; a lambda that captures does not convert and does not
// compile, as with CANN.
template <class F, class = decltype(+std::declval<F&>())>
auto MakeKernelLauncher(const char* name, F* lambda) {
  return MakeKernelLauncher(name, +*lambda);
}

}  // namespace ascsim
