// A kernel module: a plain shared library (no Python headers) that exports a C table of its
// kernels, so that ascsim's Python package can call them: `ascsim.load("my_kernel.cpp")` and the
// CMake function `ascsim_add_kernel_module(<name> <sources...>)` generate the table from the
// sources' `extern "C" __global__ __aicore__` functions, and `ascsim._core` opens the library with
// dlopen. Everything shares libascsim.so: profiler, settings, streams, errors and warnings.
//
// The table describes each parameter from the kernel's own C++ type (templates on the function
// pointer type, so the description is exact) and gives a launch thunk that rebuilds the typed
// arguments from raw storage and launches through KernelLauncher (ascsim/kernel_launcher.h).
//
//   extern "C" __global__ __aicore__ void my_kernel(GM_ADDR x, float alpha, MyTiling tiling);
//   using K = decltype(&my_kernel);
//   constexpr ParamInfo kParams[] = {Describe<ParamAt<K, 0>::type>("x", "GM_ADDR"), ...};
//   extern "C" const KernelInfo kernels[] = {{"my_kernel", 3, kParams, &KernelThunk<&my_kernel>,
//                                             kCompiledArch}};
//   extern "C" const ModuleTable* ascsim_kernel_module_table();  // returns the table
//
// Module authors normally never write this by hand: the generator does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ascsim/half.h"
#include "ascsim/kernel_launcher.h"
#include "ascsim/runtime.h"
#include "ascsim/version.h"

namespace ascsim::module {

// Bumped whenever a struct below changes layout; _core refuses a table of another version.
inline constexpr uint32_t kAbiVersion = 2;

enum class ParamKind : uint32_t {
  kPointer = 1,   // GM_ADDR / __gm__ T*: a NumPy array's data pointer
  kSigned = 2,    // signed integer of `size` bytes
  kUnsigned = 3,  // unsigned integer of `size` bytes
  kBool = 4,
  kFloat = 5,     // float (4) or double (8)
  kHalf = 6,      // half: Python float rounded to IEEE binary16
  kBFloat16 = 7,  // bfloat16_t: Python float rounded to bfloat16
  kStruct = 8,    // trivially copyable class passed by value: exactly `size` bytes
};

struct ParamInfo {
  const char* name;  // from the source ("x", "tiling")
  const char* type;  // the source's spelling ("GM_ADDR", "AddTilingData", "uint32_t")
  ParamKind kind;
  uint32_t size;           // sizeof the parameter type
  uint32_t align;          // alignof the parameter type
  ParamKind pointee_kind;  // for kPointer: kind of T in T* (kUnsigned size 1 for GM_ADDR)
  uint32_t pointee_size;   // for kPointer: sizeof(T); 0 for void*
  uint32_t flags;          // ParamFlags
};

enum ParamFlags : uint32_t {
  // A pointer to const (`const __gm__ float*`): the kernel only reads through it, so a read-only
  // NumPy array may back it. Every other GM pointer may be written.
  kPointeeConst = 1,
};

struct KernelInfo;
// Rebuilds the typed arguments from `args` (args[i] points at `params[i].size` bytes of
// params[i]'s type) and launches `block_dim` blocks, on `stream` or now when it is null. Throws
// what ascsim::Launch throws (ascsim::Error and subclasses).
using LaunchThunk = void (*)(const KernelInfo* self, const void* const* args, uint32_t block_dim,
                             Stream* stream);

struct KernelInfo {
  const char* name;  // the kernel's name, as errors and the profiler show it
  uint32_t num_params;
  const ParamInfo* params;
  LaunchThunk launch;
  int compiled_arch;  // the __NPU_ARCH__ the kernel was compiled for (0: any)
};

struct ModuleTable {
  uint32_t abi_version;        // kAbiVersion of the headers the module was built with
  uint32_t kernel_info_size;   // sizeof(KernelInfo), a second guard
  const char* ascsim_version;  // ASCSIM_VERSION_STRING of those headers
  uint32_t num_kernels;
  const KernelInfo* kernels;
};

// The symbol a kernel module exports (C linkage, so dlsym finds it by this name).
#define ASCSIM_MODULE_TABLE_SYMBOL "ascsim_kernel_module_table"

// ---- describing a parameter type ----
template <class T>
constexpr ParamKind ScalarKind() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return ParamKind::kBool;
  } else if constexpr (std::is_same_v<U, half>) {
    return ParamKind::kHalf;
  } else if constexpr (std::is_same_v<U, bfloat16_t>) {
    return ParamKind::kBFloat16;
  } else if constexpr (std::is_enum_v<U>) {
    return ScalarKind<std::underlying_type_t<U>>();
  } else if constexpr (std::is_integral_v<U>) {
    return std::is_signed_v<U> ? ParamKind::kSigned : ParamKind::kUnsigned;
  } else if constexpr (std::is_floating_point_v<U>) {
    return ParamKind::kFloat;
  } else {
    return ParamKind::kStruct;
  }
}

template <class T>
constexpr ParamInfo Describe(const char* name, const char* type) {
  using P = std::decay_t<T>;
  if constexpr (std::is_pointer_v<P>) {
    using E = std::remove_cv_t<std::remove_pointer_t<P>>;
    constexpr uint32_t flags =
        std::is_const_v<std::remove_pointer_t<P>> ? uint32_t{kPointeeConst} : uint32_t{0};
    if constexpr (std::is_void_v<E>) {
      return ParamInfo{name, type, ParamKind::kPointer, sizeof(P), alignof(P), ParamKind::kUnsigned,
                       0,    flags};
    } else {
      return ParamInfo{name,
                       type,
                       ParamKind::kPointer,
                       sizeof(P),
                       alignof(P),
                       ScalarKind<E>(),
                       static_cast<uint32_t>(sizeof(E)),
                       flags};
    }
  } else {
    static_assert(std::is_trivially_copyable_v<P>,
                  "a kernel parameter passed by value must be trivially copyable (tiling data)");
    static_assert(sizeof(P) <= UINT32_MAX, "parameter too large");
    return ParamInfo{name,
                     type,
                     ScalarKind<P>(),
                     static_cast<uint32_t>(sizeof(P)),
                     static_cast<uint32_t>(alignof(P)),
                     ParamKind::kStruct,
                     0,
                     0};
  }
}

// ---- the launch thunk of a kernel function ----
template <class P>
P LoadArg(const void* storage) {
  // memcpy, not a cast: the storage need not be aligned for P, and P need not be default
  // constructible.
  alignas(P) unsigned char buf[sizeof(P)];
  std::memcpy(buf, storage, sizeof(P));
  return *std::launder(reinterpret_cast<P*>(buf));
}

template <class... P, size_t... I>
void LaunchWith(const char* name, void (*fn)(P...), const void* const* args, uint32_t block_dim,
                Stream* stream, std::index_sequence<I...>) {
  KernelLauncher<P...>(name, fn).Run(block_dim, stream, LoadArg<std::decay_t<P>>(args[I])...);
}

template <class... P>
void LaunchFunction(void (*fn)(P...), const char* name, const void* const* args, uint32_t block_dim,
                    Stream* stream) {
  LaunchWith(name, fn, args, block_dim, stream, std::index_sequence_for<P...>{});
}

// The thunk of kernel `Fn` (a function pointer constant): KernelInfo::launch.
template <auto Fn>
void KernelThunk(const KernelInfo* self, const void* const* args, uint32_t block_dim,
                 Stream* stream) {
  LaunchFunction(Fn, self->name, args, block_dim, stream);
}

// Parameter I of a kernel function pointer type, and its parameter count.
template <class F, size_t I>
struct ParamAt;
template <class... P, size_t I>
struct ParamAt<void (*)(P...), I> {
  using type = std::tuple_element_t<I, std::tuple<P...>>;
};
template <class F>
struct Arity;
template <class... P>
struct Arity<void (*)(P...)> {
  static constexpr size_t value = sizeof...(P);
};

// The description of parameter I of kernel F, for a kernel defined once per #if / #else branch:
// the generator describes every branch's parameters, and those of a branch the compiler did not
// take (I beyond F's arity) are placeholders that are never used.
template <class F, size_t I>
constexpr ParamInfo DescribeParam(const char* name, const char* type) {
  if constexpr (I < Arity<F>::value) {
    return Describe<typename ParamAt<F, I>::type>(name, type);
  } else {
    return ParamInfo{name, type, ParamKind::kStruct, 0, 0, ParamKind::kStruct, 0, 0};
  }
}

}  // namespace ascsim::module
