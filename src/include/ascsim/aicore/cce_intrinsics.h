// Names of the CCE compiler and of 2023-2024 public samples, mapped onto the same implementation
// and checks:
//   set_flag / wait_flag        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0): SetFlag/WaitFlag of the
//                               HardEvent named by the pipe pair (same pairing checks)
//   block_idx, block_num        the builtin variables: GetBlockIdx() / GetBlockNum() on read
//   tik2::...                   the pre-2024 namespace: sees everything in AscendC
//   ParamOffset<T>(addr, len)   the 2023 tik2 per-core GM offset: addr + GetBlockIdx() * len
//                               elements of T (bytes: len * sizeof(T))
// Sources: the CCE intrinsics set_flag/wait_flag (pipe, tpipe, event id) and block_idx/block_num
// as the 2023-2024 samples use them. ParamOffset: Ascend/samples (June 2023)
// cplusplus/level1_single_api/4_op_dev/6_ascendc_custom_op/kernel_invocation/Add/add_custom.cpp
// ("get start index for current core, core parallel": ParamOffset<half>(x, BLOCK_LENGTH), then
// SetGlobalBuffer of BLOCK_LENGTH elements); the same samples' later revision spells that
// offset `x + BLOCK_LENGTH * GetBlockIdx()` elements of half.
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/sync.h"

namespace ascsim::aicore {
// The HardEvent from `src` to `dst` ("MTE2_V" for PIPE_MTE2 -> PIPE_V); faults for a pair that
// has none.
AscendC::HardEvent EventOfPipes(const char* call, pipe_t src, pipe_t dst);
}  // namespace ascsim::aicore

// ------------------------------------------------------------------------------- CCE intrinsics
inline void set_flag(pipe_t pipe, pipe_t tpipe, int32_t pipeID) {
  ascsim::aicore::SetFlagImpl(ascsim::aicore::EventOfPipes("set_flag", pipe, tpipe), pipeID);
}
inline void wait_flag(pipe_t pipe, pipe_t tpipe, int32_t pipeID) {
  ascsim::aicore::WaitFlagImpl(ascsim::aicore::EventOfPipes("wait_flag", pipe, tpipe), pipeID);
}

// get_para_base(): the address of the kernel's parameter area (asc-devkit
// impl/basic_api/dav_c220/kernel_operator_reg_others_impl.h GetParaBase). Its layout (the argument
// words, and the tiling data CANN's op compiler may place inline after them, as ops-math gcd reads
// at param_base + 5) is the op compiler's (tools/build/asc_op_compile_base/adapter/compile_op.py),
// which ascsim does not reproduce: the call compiles and is a one-line "not simulated" error.
[[noreturn]] int64_t get_para_base();

// The CCE scalar intrinsics min / max on int64_t, which production kernels call unqualified
// (`min(computeBlocks * ..., tiling.size)`; ops-nn experimental relu_v3, ops-math not_equal_v2).
// Signature as the CCE C simulator declares them: `int64_t min(int64_t in1, int64_t in2)` /
// `int64_t max(...)` (the CCE intrinsic list of the AKG CPU simulator's halide_intrinsics.h).
// Global, as on the device: a kernel's own min in its namespace, or std::min with arguments of
// one type, still wins lookup or overload resolution.
inline int64_t min(int64_t in1, int64_t in2) { return in1 < in2 ? in1 : in2; }
inline int64_t max(int64_t in1, int64_t in2) { return in1 < in2 ? in2 : in1; }

// block_idx / block_num read as int64_t (e.g. `x + BLOCK_LENGTH * block_idx`).
struct AscsimBlockIdxVar {
  operator int64_t() const { return AscendC::GetBlockIdx(); }  // NOLINT: a builtin variable
};
struct AscsimBlockNumVar {
  operator int64_t() const { return AscendC::GetBlockNum(); }  // NOLINT
};
inline constexpr AscsimBlockIdxVar block_idx{};
inline constexpr AscsimBlockNumVar block_num{};

// tik2 is a namespace of its own that sees all of AscendC (not an alias), so `tik2::TPipe` and
// `using namespace tik2;` work and user code may still open `namespace tik2 { ... }` itself.
namespace ascsim::aicore {
[[noreturn]] void FaultNegativeParamOffset(int64_t length);
}  // namespace ascsim::aicore

namespace AscendC {
template <typename T>
__aicore__ inline GM_ADDR ParamOffset(GM_ADDR addr, int64_t length) {
  if (length < 0) ascsim::aicore::FaultNegativeParamOffset(length);
  return addr + GetBlockIdx() * length * static_cast<int64_t>(sizeof(T));
}
}  // namespace AscendC

namespace tik2 {
using namespace AscendC;
}  // namespace tik2
