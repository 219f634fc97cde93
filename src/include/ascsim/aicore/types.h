// Keywords, enums and small types of the Ascend C programming model.
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/limits.h"
#include "ascsim/half.h"
#include "ascsim/npu_arch.h"

// Kernel qualifiers are empty on the CPU: a kernel is a plain C++ function.
#ifndef __global__
#define __global__
#endif
#define __aicore__
#define __vector__
#define __cube__
// __mix__(aic, aiv) (a mix kernel's cores per block) and __kfc_workspace__ (the Matmul API's system
// workspace parameter): the kernel type and SetSysWorkspace they stand for are added to the
// kernel's body by ascsim-launch-transform, as bisheng's build adds them.
#define __mix__(aic, aiv)
#define __kfc_workspace__
#define __gm__
#define __ubuf__
#define __cbuf__
// The other local memories' address-space qualifiers (asc-devkit impl/tensor_api/utils/
// location_impl.h: __ca__ L0A, __cb__ L0B, __cc__ L0C, __biasbuf__, __fbuf__). A kernel array
// declared with one lives in that memory: ascsim-launch-transform turns the declaration into an
// ascsim::tensor_api::LocalArray (ascsim/tensor_api/tensor_api.h).
#define __ca__
#define __cb__
#define __cc__
#define __biasbuf__
#define __fbuf__
#define __inout_pipe__(...)
#define __in_pipe__(...)
#define __out_pipe__(...)
#define GM_ADDR __gm__ uint8_t*
// A variable of one core's own (asc-devkit impl/basic_api/kernel_macros.h: [[block_local]]; the
// docs' "Block级线程局部变量"; ops-transformer flash_attention_score keeps its L1 cache table in
// one). ascsim runs each block on a thread of its own, so a block-local variable is thread-local:
// running blocks never see each other's (as on the device, its value is unspecified until the
// block sets it; a block may see what an earlier block on the same thread left).
#ifndef __BLOCK_LOCAL__
#define __BLOCK_LOCAL__ thread_local
#endif

// ASCENDC_CPU_DEBUG is defined by the build in cpu mode only (tikicpulib::<SoC>, ascendc.cmake's
// cpu run mode, ascsim-cc --run-mode=cpu), as CANN's is: a kernel file's
// `#ifndef ASCENDC_CPU_DEBUG ... kernel<<<...>>>(...) ... #endif` launch wrapper stays in npu and
// sim builds.

// Pipes of the AI core, as PipeBarrier<PIPE_V>() names them.
enum pipe_t : int32_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX,
};

// Hardware event ids used by SetFlag / WaitFlag.
enum event_t : int32_t {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
};

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};
using QuePosition = TPosition;

const char* PositionName(TPosition pos);

// Source pipe _ destination pipe of a synchronisation event.
enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MAX,
};

const char* HardEventName(HardEvent event);

enum class RoundMode : uint8_t {
  CAST_NONE = 0,
  CAST_RINT,   // round to nearest, ties to even
  CAST_FLOOR,  // toward -inf
  CAST_CEIL,   // toward +inf
  CAST_ROUND,  // to nearest, ties away from zero
  CAST_TRUNC,  // toward zero
  CAST_ODD,    // von Neumann rounding (float -> half)
};

enum class KernelMode : uint8_t { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };

// Scalar arguments of vector ops are not deduced, so Adds(halfTensor, halfTensor, 2.0f, n)
// compiles as it does with the real headers' overloads.
template <class T>
struct NonDeducedT {
  using type = T;
};
template <class T>
using NonDeduced = typename NonDeducedT<T>::type;

constexpr int32_t ONE_BLK_SIZE = ascsim::aicore::kBlockBytes;           // bytes in one data block
constexpr int32_t ONE_REPEAT_BYTE_SIZE = ascsim::aicore::kRepeatBytes;  // one vector repeat
constexpr int32_t DEFAULT_BLK_NUM = ascsim::aicore::kBlocksPerRepeat;
constexpr int32_t MAX_REPEAT_TIMES = ascsim::aicore::kMaxRepeatTimes;

}  // namespace AscendC
