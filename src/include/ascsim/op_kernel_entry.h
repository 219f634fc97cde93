// The entry of one compiled kernel variant of a custom operator. The toolkit's opc stand-in
// compiles a variant as
//
//   #include "<project>/op_kernel/add_custom.cpp"   (with -DDTYPE_X=half ... and the tiling header)
//   #include "ascsim/op_kernel_entry.h"
//   ASCSIM_OP_KERNEL_ENTRY(add_custom)
//
// into a shared library; the aclnn runtime finds `ascsim_op_kernel()` in it and launches the
// kernel through it. As CANN's generated kernel wrapper does (asc-devkit compile_op.py,
// _gen_set_workspace_codes), the wrapper sets the system workspace to the launch's workspace and
// hands the kernel the user workspace behind it (workspace + RESERVED_WORKSPACE), so
// GetUserWorkspace in the kernel gives that same pointer.
//
// A template kernel (ASCENDC_TPL_*) gets one instantiation per tiling key behind one entry:
// ASCSIM_OP_KERNEL_EXPORT_LAUNCH below.
//
// ASCSIM_OP_KERNEL_DEFINE(kernel, var) defines only the entry object (`static const
// AscsimOpKernel var`), for a program or test that registers variants in process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "acl/acl_base.h"
#include "ascsim/acl_launch.h"
#include "ascsim/op_kernel_abi.h"
#include "kernel_operator.h"

namespace ascsim::op_kernel {

template <class F>
struct Arity;
template <class... P>
struct Arity<void (*)(P...)> {
  static constexpr uint32_t value = sizeof...(P);
};

template <auto K, class... P, size_t... I>
void Call(GM_ADDR const* v, std::index_sequence<I...>) {
  K(reinterpret_cast<P>(v[I])...);
}

// The kernel as the framework runs it: the system workspace set, the user workspace passed on.
template <auto K, class... P>
void Wrapper(P... params) {
  static_assert(sizeof...(P) >= 2, "a custom-operator kernel ends with (..., workspace, tiling)");
  GM_ADDR v[sizeof...(P)] = {reinterpret_cast<GM_ADDR>(params)...};
  GM_ADDR& ws = v[sizeof...(P) - 2];
  if (ws != nullptr) {
    AscendC::SetSysWorkspaceForce(ws);
    ws = AscendC::GetUserWorkspace(ws);
  } else {
    // No workspace (the TilingFunc asked for none): the device computes 0 + RESERVED_WORKSPACE,
    // an address nothing may use; a kernel that checks `workspace == nullptr` sees it non-null.
    ws = reinterpret_cast<GM_ADDR>(static_cast<uintptr_t>(
        ascsim::aicore::ReservedWorkspaceBytes(*ascsim::aicore::CurrentCore().launch->soc)));
  }
  Call<K, P...>(v, std::index_sequence_for<P...>{});
}

template <auto K, class... P, size_t... I>
int LaunchImpl(void (*)(P...), std::index_sequence<I...>, const char* name, void* const* args,
               uint32_t block_dim, uint64_t tiling_key, void* stream) {
  const auto launcher =
      ascsim::MakeKernelLauncher(name, &Wrapper<K, P...>).WithTilingKey(tiling_key);
  return static_cast<int>(ascsim::acl::IssueDeferred(name, stream, [&] {
    const auto s = ascsim::acl::ToStream(stream);
    launcher.Run(block_dim, ascsim::acl::RawStream(s), reinterpret_cast<P>(args[I])...);
  }));
}

template <auto K>
int Launch(void* const* args, uint32_t num_args, uint32_t block_dim, uint64_t tiling_key,
           void* stream, const char* name) {
  constexpr uint32_t n = Arity<decltype(K)>::value;
  if (num_args != n) return ACL_ERROR_INVALID_PARAM;
  return LaunchImpl<K>(K, std::make_index_sequence<n>{}, name, args, block_dim, tiling_key, stream);
}

}  // namespace ascsim::op_kernel

#define ASCSIM_OP_KERNEL_DEFINE(kernel, var)                                                   \
  static int var##_launch_(void* const* args, uint32_t num_args, uint32_t block_dim,           \
                           uint64_t tiling_key, void* stream) {                                \
    return ::ascsim::op_kernel::Launch<&kernel>(args, num_args, block_dim, tiling_key, stream, \
                                                #kernel);                                      \
  }                                                                                            \
  static const AscsimOpKernel var = {ASCSIM_OP_KERNEL_ABI, #kernel,                            \
                                     ::ascsim::op_kernel::Arity<decltype(&kernel)>::value,     \
                                     __NPU_ARCH__, &var##_launch_}

#define ASCSIM_OP_KERNEL_EXPORT_(var)                                                              \
  extern "C" __attribute__((visibility("default"))) const AscsimOpKernel* ascsim_op_kernel(void) { \
    return &var;                                                                                   \
  }

#define ASCSIM_OP_KERNEL_ENTRY(kernel)                      \
  ASCSIM_OP_KERNEL_DEFINE(kernel, ascsim_op_kernel_entry_); \
  ASCSIM_OP_KERNEL_EXPORT_(ascsim_op_kernel_entry_)

// The entry of a template kernel (Tiling模板编程): `launch` picks the instantiation of the launch's
// tiling key (opc writes it: a switch over the keys ASCENDC_TPL_SEL selects, each calling
// ascsim::op_kernel::Launch<&kernel<args...>>); `first` is one instantiation, for the parameter
// count, which every instantiation shares (in parentheses: its template argument list has commas).
#define ASCSIM_OP_KERNEL_EXPORT_LAUNCH(name, first, launch)                            \
  static const AscsimOpKernel ascsim_op_kernel_entry_ = {                              \
      ASCSIM_OP_KERNEL_ABI, #name, ::ascsim::op_kernel::Arity<decltype(first)>::value, \
      __NPU_ARCH__, &launch};                                                          \
  ASCSIM_OP_KERNEL_EXPORT_(ascsim_op_kernel_entry_)
