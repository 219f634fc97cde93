// REGIST_MATMUL_OBJ (REGIST_CUBE_OBJ): hands the Matmul objects of a kernel their TPipe and
// tiling, as asc-devkit impl/adv_api/detail/kfc/kfc_register_obj.h does per build mode:
//   - with ASCENDC_CUBE_ONLY: the objects run on the core that registers them (an AIC, or the
//     AI core of a coupled arch); on an AIV of a mix kernel the macro leaves the kernel, as the
//     device build of the vector side does;
//   - without it, in a mix kernel: the AIC becomes the server of its AIVs and leaves the kernel
//     (`return`), the AIVs' objects become clients (ascsim/matmul/matmul_server.h);
//   - elsewhere the objects run on the registering core.
// Arguments after the workspace: each object, optionally followed by a pointer to its tiling (a
// null pointer, or none, leaves Init(&tiling) to the kernel, unless the object's MM_CFG is a fully
// constant tiling: then the null pointer initialises it).
#pragma once

#include <type_traits>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/aicore/tpipe.h"
#include "ascsim/matmul/matmul_server.h"
#include "kernel_tiling/kernel_tiling.h"

namespace ascsim::matmul {

// A tiling argument is a pointer (or nullptr). Convertibility, not std::is_pointer: kernels pass
// `const TCubeTiling* __restrict` (ops-nn deformable_conv2d), which GCC's is_pointer rejects.
template <class T>
constexpr bool kIsTilingArg = std::is_convertible<std::decay_t<T>, const volatile void*>::value;

// Objects whose MM_CFG is a fully constant tiling are initialised without one (CANN's
// REGIST_MATMUL_OBJ passes the null pointer to Init; asc-devkit GetMatmulApiTiling.md).
template <class Obj, class = void>
struct InitsWithoutTiling : std::false_type {};
template <class Obj>
struct InitsWithoutTiling<Obj, std::enable_if_t<Obj::InitsWithoutTiling()>> : std::true_type {};

// The tiling as Init takes it. Without ASCENDC_CUBE_ONLY CANN hands it to the KFC server's
// InitKfc, which takes `void*` (kernel_kfc.h InitObjAux), so any pointer passes (ops-math rfft1_d
// passes `(void*)&tiling`); with it, InitCurObj calls `Init(tiling, tpipe)` directly and only a
// TCubeTiling pointer compiles, as here.
template <bool kCubeOnly, class Next>
decltype(auto) TilingForInit(Next&& next) {
  if constexpr (kCubeOnly ||
                std::is_convertible<std::decay_t<Next>, const AscendC::tiling::TCubeTiling*>::value) {
    return std::forward<Next>(next);
  } else {
    return static_cast<const AscendC::tiling::TCubeTiling*>(static_cast<const void*>(next));
  }
}

template <bool kCubeOnly, class Obj>
void InitCubeObjs(AscendC::TPipe* pipe, Obj& obj) {
  obj.SetTPipeForInit(pipe);
}
template <bool kCubeOnly, class Obj, class Next, class... Rest>
void InitCubeObjs(AscendC::TPipe* pipe, Obj& obj, Next&& next, Rest&&... rest) {
  if constexpr (kIsTilingArg<Next>) {
    obj.SetSubBlockIdx(0);
    if (next != nullptr || InitsWithoutTiling<std::decay_t<Obj>>::value) {
      obj.Init(TilingForInit<kCubeOnly>(next), pipe);
    } else {
      obj.SetTPipeForInit(pipe);
    }
    if constexpr (sizeof...(Rest) > 0) InitCubeObjs<kCubeOnly>(pipe, rest...);
  } else {
    obj.SetTPipeForInit(pipe);
    InitCubeObjs<kCubeOnly>(pipe, next, rest...);
  }
}

// True when the calling core leaves the kernel here (the macro returns).
template <bool kCubeOnly, class... Args>
bool RegistCubeObjs(AscendC::TPipe* pipe, GM_ADDR /*workspace*/, Args&&... objs) {
  constexpr bool cube_only = kCubeOnly;
  namespace ai = ascsim::aicore;
  ai::RevealMatmul(cube_only);
  ai::CoreContext& core = ai::CurrentCore();
  if (pipe == nullptr) {
    ai::Fault(ErrorKind::kInvalidArgument, "REGIST_MATMUL_OBJ: the TPipe pointer is null");
  }
  if (cube_only && core.unit == ai::CoreUnit::kAiv && core.group != nullptr) return true;
  if (!cube_only && ai::IsMixAic(core)) {
    ai::MatmulServerReady(core);
    return true;
  }
  InitCubeObjs<kCubeOnly>(pipe, objs...);
  return false;
}

}  // namespace ascsim::matmul

#ifdef ASCENDC_CUBE_ONLY
#define REGIST_CUBE_OBJ(tpipe, workspace, ...) \
  if (::ascsim::matmul::RegistCubeObjs<true>(tpipe, workspace, __VA_ARGS__)) return
#else
#define REGIST_CUBE_OBJ(tpipe, workspace, ...) \
  if (::ascsim::matmul::RegistCubeObjs<false>(tpipe, workspace, __VA_ARGS__)) return
#endif
#define REGIST_CUBE_OBJ_REMOTE(tpipe, workspace, ...)
#define REGIST_MATMUL_OBJ_STATIC REGIST_CUBE_OBJ
#define REGIST_MATMUL_OBJ REGIST_CUBE_OBJ
