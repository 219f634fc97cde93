// The kernel side of the custom-operator format: reading the tiling data the host's TilingFunc
// wrote, and branching on the launch's tiling key.
//
//   GET_TILING_DATA(var, tiling)                      the default tiling struct, copied from GM
//   GET_TILING_DATA_WITH_STRUCT(T, var, tiling)       a named struct, copied from GM
//   GET_TILING_DATA_MEMBER(T, member, var, tiling)    one member of T, copied from GM
//   GET_TILING_DATA_PTR_WITH_STRUCT(T, ptr, tiling)   a pointer to T in GM (__tiling_data_ptr__)
//   COPY_TILING_WITH_STRUCT / COPY_TILING_WITH_ARRAY  a local copy of a struct / array behind a
//                                                     pointer GET_TILING_DATA_PTR_WITH_STRUCT gave
//   REGISTER_TILING_DEFAULT(T)                        T is the default struct (plain C++ tiling)
//   REGISTER_TILING_FOR_TILINGKEY("expr", T)          T is used for the keys "expr" selects
//   REGISTER_NONE_TILING                              no registered struct
//   TILING_KEY_VAR, TILING_KEY_IS(k), TILING_KEY_LIST(k1, k2, ...)
//
// Semantics are those of the code CANN's build generates for dynamic-shape kernels (asc-devkit
// tools/build/asc_op_compile_base/asc_op_compiler/get_op_tiling.py: InitTilingData copies
// sizeof(T) bytes from the tiling argument; generate_tiling_code.py: the pointer form points into
// GM, `const` except on the 310P) and of impl/basic_api/utils/kernel_utils_macros.h (TILING_KEY_IS
// is `TILING_KEY_VAR == (k)`; the REGISTER_* macros only tell the build which struct a key's data
// has). The API pages are docs/zh/api/SIMD-API/基础API/Kernel-Tiling/*.md.
//
// Which struct GET_TILING_DATA fills: REGISTER_TILING_DEFAULT(T) declares the alias
// AscendCDefaultTilingStruct = T in its scope (the kernel function, or the file); for a struct
// defined with BEGIN_TILING_DATA_DEF on the host, the header the build generates declares it at
// file scope. "'AscendCDefaultTilingStruct' was not declared" therefore means: no default struct
// is registered (add REGISTER_TILING_DEFAULT(YourTilingData) before GET_TILING_DATA).
//
// The tiling key: TILING_KEY_VAR is the key the launch was issued with (the aclnn runtime passes
// the TilingFunc's SetTilingKey; ICPU_RUN_KF passes ICPU_SET_TILING_KEY's). CANN compiles one
// binary per key with -DTILING_KEY_VAR=<key>; ascsim compiles one and reads the key at run time,
// unless the build defines TILING_KEY_VAR itself. Without that define `#if TILING_KEY_VAR == k`
// preprocesses as in CANN's CPU mode (TILING_KEY_VAR is an identifier, 0 in #if).
//
// Every macro is left alone when the program defined it before kernel_operator.h (the operator
// libraries' kernel unit tests force-include a *_tiling_def.h that defines some of them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/internal.h"

namespace ascsim::aicore {

// Checks that the tiling argument can hold `bytes` at `offset` (null: a fault; device memory: the
// allocation must reach that far; other host memory, as CPU-debug programs may pass: not
// checkable) and returns the address of those bytes.
const uint8_t* TilingBytes(const uint8_t* tiling, size_t offset, size_t bytes, const char* macro,
                           const char* what);

template <class T>
inline void InitTilingData(T* dst, const uint8_t* tiling, size_t offset, const char* macro,
                           const char* what) {
  std::memcpy(static_cast<void*>(dst), TilingBytes(tiling, offset, sizeof(T), macro, what),
              sizeof(T));
}

template <class T>
inline const T* TilingDataPtr(const uint8_t* tiling, const char* macro, const char* what) {
  return reinterpret_cast<const T*>(TilingBytes(tiling, 0, sizeof(T), macro, what));
}

// The tiling key of the running launch.
inline uint64_t LaunchTilingKey() { return CurrentCore().launch->tiling_key; }

// Copies `bytes` from a pointer into tiling data (COPY_TILING_WITH_*), checked like TilingBytes.
void CopyTilingBytes(void* dst, const void* src, size_t bytes, const char* macro);

}  // namespace ascsim::aicore

// CANN's CPU-debug TILING_KEY_VAR is the identifier g_tilingKey (asc-devkit
// impl/basic_api/utils/kernel_utils_macros.h: `#define TILING_KEY_VAR g_tilingKey` unless the build
// defines it), so `#if TILING_KEY_VAR == 0` preprocesses (an identifier is 0 in #if) and takes the
// key-0 branch, while C++ code reads the launch's key. ascsim keeps it an identifier for the same
// reason: an object that reads the running launch's key when converted (launches run concurrently,
// so no single global holds "the" key).
namespace ascsim::aicore {
struct TilingKeyVar {
  operator uint64_t() const { return LaunchTilingKey(); }  // NOLINT(google-explicit-constructor)
};
}  // namespace ascsim::aicore
inline constexpr ::ascsim::aicore::TilingKeyVar ascsim_tiling_key_var{};
#ifndef TILING_KEY_VAR
#define TILING_KEY_VAR ascsim_tiling_key_var
#endif
#ifndef TILING_KEY_IS
#define TILING_KEY_IS(k) (TILING_KEY_VAR == (k))
#endif

#define ASCSIM_TILING_KEY_ONE_(a) TILING_KEY_VAR == (a)
#define ASCSIM_TILING_KEY_IN_1_(a) ASCSIM_TILING_KEY_ONE_(a)
#define ASCSIM_TILING_KEY_IN_2_(a, ...) \
  ASCSIM_TILING_KEY_ONE_(a) || ASCSIM_TILING_KEY_IN_1_(__VA_ARGS__)
#define ASCSIM_TILING_KEY_IN_3_(a, ...) \
  ASCSIM_TILING_KEY_ONE_(a) || ASCSIM_TILING_KEY_IN_2_(__VA_ARGS__)
#define ASCSIM_TILING_KEY_IN_4_(a, ...) \
  ASCSIM_TILING_KEY_ONE_(a) || ASCSIM_TILING_KEY_IN_3_(__VA_ARGS__)
#define ASCSIM_TILING_KEY_IN_5_(a, ...) \
  ASCSIM_TILING_KEY_ONE_(a) || ASCSIM_TILING_KEY_IN_4_(__VA_ARGS__)
#define ASCSIM_TILING_KEY_IN_6_(a, ...) \
  ASCSIM_TILING_KEY_ONE_(a) || ASCSIM_TILING_KEY_IN_5_(__VA_ARGS__)
#define ASCSIM_TILING_KEY_IN_7_(a, ...) \
  ASCSIM_TILING_KEY_ONE_(a) || ASCSIM_TILING_KEY_IN_6_(__VA_ARGS__)
#define ASCSIM_TILING_KEY_IN_8_(a, ...) \
  ASCSIM_TILING_KEY_ONE_(a) || ASCSIM_TILING_KEY_IN_7_(__VA_ARGS__)
#define ASCSIM_TILING_KEY_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, N, ...) N
#define ASCSIM_TILING_KEY_CAT_(a, b) ASCSIM_TILING_KEY_CAT_IMPL_(a, b)
#define ASCSIM_TILING_KEY_CAT_IMPL_(a, b) a##b
// TILING_KEY_LIST(k1, ..., k8): the key is one of them (at most 8, as CANN's macro takes).
#ifndef TILING_KEY_LIST
#define TILING_KEY_LIST(...)                                                                   \
  (ASCSIM_TILING_KEY_CAT_(                                                                     \
      ASCSIM_TILING_KEY_IN_,                                                                   \
      ASCSIM_TILING_KEY_CAT_(ASCSIM_TILING_KEY_COUNT_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0), \
                             _))(__VA_ARGS__))
#endif

// ---- registration (what the build learns about the structs; nothing to do at run time) ----
#ifndef REGISTER_TILING_DEFAULT
// [[maybe_unused]]: a kernel that registers a default struct but reads its data only with
// GET_TILING_DATA_WITH_STRUCT / _PTR_WITH_STRUCT / _MEMBER (ops-nn prelu's op_kernel/prelu.cpp,
// docs Kernel-Tiling/GET_TILING_DATA_WITH_STRUCT.md) must compile under -Wall -Werror.
#define REGISTER_TILING_DEFAULT(tiling_struct) \
  using AscendCDefaultTilingStruct [[maybe_unused]] = tiling_struct
#endif
#ifndef REGISTER_TILING_FOR_TILINGKEY
#define REGISTER_TILING_FOR_TILINGKEY(expression, tiling_struct)              \
  static_assert(sizeof(tiling_struct) > 0 && sizeof(expression) > 0,          \
                "REGISTER_TILING_FOR_TILINGKEY takes a string expression of " \
                "TILING_KEY_VAR and a complete tiling struct")
#endif
#ifndef REGISTER_NONE_TILING
#define REGISTER_NONE_TILING static_assert(true, "")
#endif

// ---- reading the tiling data ----
#ifndef GET_TILING_DATA
// The default struct: see the comment at the top of this file when AscendCDefaultTilingStruct is
// not declared.
#define GET_TILING_DATA(tiling_data, tiling_arg)                                                 \
  AscendCDefaultTilingStruct tiling_data;                                                        \
  ::ascsim::aicore::InitTilingData(&(tiling_data), reinterpret_cast<const uint8_t*>(tiling_arg), \
                                   0, "GET_TILING_DATA", "the default tiling struct")
#endif

#ifndef GET_TILING_DATA_WITH_STRUCT
#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg)                      \
  tiling_struct tiling_data;                                                                     \
  ::ascsim::aicore::InitTilingData(&(tiling_data), reinterpret_cast<const uint8_t*>(tiling_arg), \
                                   0, "GET_TILING_DATA_WITH_STRUCT", #tiling_struct)
#endif

#ifndef GET_TILING_DATA_MEMBER
#define GET_TILING_DATA_MEMBER(tiling_type, member, var, tiling)                            \
  decltype(((tiling_type*)0)->member) var;                                                  \
  ::ascsim::aicore::InitTilingData(&(var), reinterpret_cast<const uint8_t*>(tiling),        \
                                   offsetof(tiling_type, member), "GET_TILING_DATA_MEMBER", \
                                   #tiling_type "::" #member)
#endif

// The pointer GET_TILING_DATA_PTR_WITH_STRUCT gives points at the GM tiling data: const, except on
// the 310P, where CANN's compiler does not take the qualifier.
#ifndef __tiling_data_ptr__
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
#define __tiling_data_ptr__
#else
#define __tiling_data_ptr__ const
#endif
#endif

#ifndef GET_TILING_DATA_PTR_WITH_STRUCT
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, dst_ptr, tiling_ptr)                        \
  __tiling_data_ptr__ tiling_struct* dst_ptr = const_cast<__tiling_data_ptr__ tiling_struct*>(     \
      ::ascsim::aicore::TilingDataPtr<tiling_struct>(reinterpret_cast<const uint8_t*>(tiling_ptr), \
                                                     "GET_TILING_DATA_PTR_WITH_STRUCT",            \
                                                     #tiling_struct))
#endif

#ifndef COPY_TILING_WITH_STRUCT
#define COPY_TILING_WITH_STRUCT(tiling_struct, src_ptr, dst_ptr)                       \
  tiling_struct __ascendc_var##dst_ptr;                                                \
  ::ascsim::aicore::CopyTilingBytes(&__ascendc_var##dst_ptr, (const void*)(src_ptr),   \
                                    sizeof(tiling_struct), "COPY_TILING_WITH_STRUCT"); \
  __tiling_data_ptr__ tiling_struct* dst_ptr = &__ascendc_var##dst_ptr
#endif

#ifndef COPY_TILING_WITH_ARRAY
#define COPY_TILING_WITH_ARRAY(arr_type, arr_count, src_ptr, dst_ptr)                          \
  arr_type __ascendc_var##dst_ptr[arr_count];                                                  \
  ::ascsim::aicore::CopyTilingBytes(&__ascendc_var##dst_ptr, (const void*)(src_ptr),           \
                                    sizeof(arr_type) * (arr_count), "COPY_TILING_WITH_ARRAY"); \
  __tiling_data_ptr__ arr_type(*dst_ptr)[arr_count] = &__ascendc_var##dst_ptr
#endif
