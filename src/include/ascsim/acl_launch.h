// How ACL-path launches reach the simulated grid. Three spellings lead here:
//
//   ACLRT_LAUNCH_KERNEL(k)(blockDim, stream, args...)   plain g++, kernel visible in the same
//                                                       program (returns the aclError)
//   aclrtlaunch_k(blockDim, stream, args...)            the launcher the toolkit's ascendc_library
//                                                       generates, declared in aclrtlaunch_k.h
//   k<<<blockDim, l2ctrl, stream>>>(args...)            rewritten by ascsim-launch-transform into
//                                                       ::ascsim::acl::ChevronLaunch(...)(args...)
//
// GM arguments may be any pointer (void*, uint8_t*), a struct parameter may be given by pointer
// (ascsim/kernel_launcher.h). On a stream the launch is queued and a fault surfaces as an aclError
// at aclrtSynchronizeStream, as on the device. On the default stream (nullptr) it runs at once;
// for the generated launcher and <<<>>> a fault is then also printed once on stderr and kept for
// the next aclrtSynchronizeStream(nullptr) / aclrtSynchronizeDevice, because a <<<>>> statement
// has no value to return it in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "acl/acl_rt.h"
#include "ascsim/kernel_launcher.h"

namespace ascsim::acl {

// Runs `fn` and converts an ascsim error into an aclError (recording its message).
aclError Guard(const char* api, const std::function<void()>& fn);
// The stream behind an aclrtStream (null for the default stream: synchronous). The reference
// keeps it alive while the caller uses it, even if another thread destroys it meanwhile.
std::shared_ptr<Stream> ToStream(aclrtStream stream);
// The Stream* a launch takes, from the reference ToStream returns.
inline Stream* RawStream(const std::shared_ptr<Stream>& s) { return s.get(); }

// Issues a launch whose failure has no caller to return to, or that CANN reports at the stream's
// synchronize: runs `issue` and, when it fails, keeps the error for the synchronize of `stream`
// (queued on it, or kept for the default stream) and prints it once on stderr when it is a fault
// of the default stream. Returns the aclError of the failure (ACL_SUCCESS when none).
aclError IssueDeferred(const char* kernel, aclrtStream stream, const std::function<void()>& issue);

template <class... P>
class AclKernelCall {
 public:
  explicit AclKernelCall(KernelLauncher<P...> launcher) : launcher_(launcher) {}
  template <class... A>
  aclError operator()(uint32_t blockDim, aclrtStream stream, A&&... args) const {
    return Guard(launcher_.name(), [&] {
      const auto s = ToStream(stream);
      launcher_.Run(blockDim, RawStream(s), std::forward<A>(args)...);
    });
  }

 private:
  KernelLauncher<P...> launcher_;
};

template <class... P>
AclKernelCall<P...> MakeAclKernelCall(const char* name, void (*fn)(P...)) {
  return AclKernelCall<P...>(KernelLauncher<P...>(name, fn));
}

// A kernel parameter's type in a generated aclrtlaunch_<kernel>: a class (tiling data) is taken
// by pointer and copied at the launch, as CANN's generated launchers take it; anything else
// (scalars, enums) as it is.
template <class T>
using LauncherParam = std::conditional_t<std::is_class_v<T>, T*, T>;

// The body of a generated aclrtlaunch_<kernel>: returns the aclError of issuing the launch.
template <class... P, class... A>
uint32_t GeneratedLaunch(const char* name, void (*fn)(P...), uint32_t blockDim, aclrtStream stream,
                         A&&... args) {
  static_assert(sizeof...(A) == sizeof...(P), "wrong number of kernel arguments");
  KernelLauncher<P...> launcher(name, fn);
  return static_cast<uint32_t>(IssueDeferred(name, stream, [&] {
    const auto s = ToStream(stream);
    launcher.Run(blockDim, RawStream(s), std::forward<A>(args)...);
  }));
}

// k<<<blockDim, l2ctrl, stream>>>(args...): the configuration first, the arguments after, as the
// syntax has them. l2ctrl is reserved by CANN (nullptr) and ignored.
template <class... P>
class ChevronCall {
 public:
  ChevronCall(const char* name, void (*fn)(P...), uint32_t blockDim, aclrtStream stream)
      : launcher_(name, fn), block_dim_(blockDim), stream_(stream) {}
  template <class... A>
  void operator()(A&&... args) const {
    static_assert(sizeof...(A) == sizeof...(P),
                  "kernel<<<...>>>(args): wrong number of kernel arguments");
    IssueDeferred(launcher_.name(), stream_, [&] {
      const auto s = ToStream(stream_);
      launcher_.Run(block_dim_, RawStream(s), std::forward<A>(args)...);
    });
  }

 private:
  KernelLauncher<P...> launcher_;
  uint32_t block_dim_;
  aclrtStream stream_;
};

// A kernel's entry in an ascendc_fatbin_library binary: the arguments aclrtKernelArgsAppend
// collected, in order, each as its bytes (aclrtLaunchKernelWithConfig hands them over).
struct FatbinArgs {
  const void* const* data = nullptr;
  const size_t* sizes = nullptr;
  size_t count = 0;
};
// The symbol of a kernel's entry (ascsim-launch-transform --fatbin-entries generates it).
#define ASCSIM_FATBIN_ENTRY_PREFIX "ascsim_fatbin_"
using FatbinEntry = uint32_t (*)(uint32_t blockDim, aclrtStream stream, const FatbinArgs* args);

[[noreturn]] void FailFatbinArgs(const char* kernel, size_t expected, size_t given);
[[noreturn]] void FailFatbinArgSize(const char* kernel, size_t index, size_t expected,
                                    size_t given);

template <class... P, size_t... I>
void RunFatbin(const KernelLauncher<P...>& launcher, uint32_t blockDim, Stream* stream,
               const FatbinArgs& args, std::index_sequence<I...>) {
  std::tuple<std::decay_t<P>...> values;
  const size_t sizes[] = {sizeof(std::decay_t<P>)..., 0};
  for (size_t i = 0; i < sizeof...(P); ++i) {
    if (args.sizes[i] != sizes[i]) FailFatbinArgSize(launcher.name(), i, sizes[i], args.sizes[i]);
  }
  ((std::memcpy(static_cast<void*>(&std::get<I>(values)), args.data[I],
                sizeof(std::get<I>(values)))),
   ...);
  launcher.Run(blockDim, stream, std::get<I>(values)...);
}

// The body of a generated fatbin entry: the argument list must hold one argument per parameter,
// each of the parameter's size (a pointer: sizeof(void*)); returns the aclError of issuing.
template <class... P>
uint32_t FatbinLaunch(const char* name, void (*fn)(P...), uint32_t blockDim, aclrtStream stream,
                      const FatbinArgs* args) {
  static_assert((std::is_trivially_copyable_v<std::decay_t<P>> && ...),
                "a kernel parameter of a fatbin entry must be trivially copyable");
  KernelLauncher<P...> launcher(name, fn);
  return static_cast<uint32_t>(Guard(name, [&] {
    if (args == nullptr || args->count != sizeof...(P)) {
      FailFatbinArgs(name, sizeof...(P), args == nullptr ? 0 : args->count);
    }
    const auto s = ToStream(stream);
    RunFatbin(launcher, blockDim, RawStream(s), *args, std::index_sequence_for<P...>{});
  }));
}

// The stream operand as written: an aclrtStream (void*), nullptr, or the literal 0.
template <class S>
aclrtStream ChevronStream(S&& stream) {
  using Raw = std::decay_t<S>;
  if constexpr (std::is_integral_v<Raw>) {
    return stream == 0 ? nullptr : reinterpret_cast<aclrtStream>(static_cast<uintptr_t>(stream));
  } else {
    return static_cast<aclrtStream>(stream);
  }
}

template <class... P, class L2, class S>
ChevronCall<P...> ChevronLaunch(const char* name, void (*fn)(P...), uint32_t blockDim, L2&&,
                                S&& stream) {
  return ChevronCall<P...>(name, fn, blockDim, ChevronStream(std::forward<S>(stream)));
}
// <<<blockDim, l2ctrl>>> (no stream): the default stream.
template <class... P, class L2>
ChevronCall<P...> ChevronLaunch(const char* name, void (*fn)(P...), uint32_t blockDim, L2&&) {
  return ChevronCall<P...>(name, fn, blockDim, nullptr);
}

}  // namespace ascsim::acl

namespace ascsim {
// The spellings before the toolkit (kept for code that names them).
using acl::AclKernelCall;
using acl::MakeAclKernelCall;
}  // namespace ascsim

// ACLRT_LAUNCH_KERNEL(add_custom)(blockDim, stream, x, y, z, totalLength) returns an aclError.
// A generated aclrtlaunch_<kernel>.h redefines it to aclrtlaunch_##kernel, as CANN's does, so a
// program that includes one calls the generated launcher instead.
#ifndef ACLRT_LAUNCH_KERNEL
#define ACLRT_LAUNCH_KERNEL(kernel) ::ascsim::acl::MakeAclKernelCall(#kernel, &kernel)
#endif
