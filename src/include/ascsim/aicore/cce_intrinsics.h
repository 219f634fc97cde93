// Names of the CCE compiler and of 2023-2024 public samples, mapped onto the same implementation
// and checks:
//   set_flag / wait_flag        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0): SetFlag/WaitFlag of the
//                               HardEvent named by the pipe pair (same pairing checks)
//   block_idx, block_num        the builtin variables: GetBlockIdx() / GetBlockNum() on read
//   tik2::...                   the pre-2024 namespace: sees everything in AscendC
//   ParamOffset<T>(addr, len)   the 2023 tik2 per-core GM offset: addr + GetBlockIdx() * len
//                               elements of T (bytes: len * sizeof(T))
//   get_imm(imm)                the immediate; as a pointer, this core's UB at that address
//   copy_gm_to_ubuf(...)        the MTE2 copy GM -> UB in 32 B blocks, into this core's UB
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

// ------------------------------------------------------------------- UB addresses of the CCE
// On the device a `__ubuf__` pointer is a UB address, counted from 0 (asc-devkit
// impl/basic_api/kernel_tensor_base.h: a LocalTensor's bufferAddr is `get_imm(0) + bufferOffset`),
// and kernels dereference it: the 2023 samples' tiling headers (Ascend/samples
// kernel_invocation/Add_tile add_custom_tiling.h, without __CCE_KT_TEST__) read their tiling with
//   __ubuf__ uint8_t* ub = (__ubuf__ uint8_t*)get_imm(0);
//   copy_gm_to_ubuf(ub, (__gm__ uint8_t*)tiling, 0, 1, AlignDiv32(sizeof(T)), 0, 0);
//   pipe_barrier(PIPE_ALL);  ... ((__ubuf__ T*)ub)->field ...
// as CANN's op compiler does (asc-devkit tools/build/asc_op_compile_base/adapter/get_op_tiling.py).
// Address 0 cannot be a host pointer, and each simulated core has a UB arena of its own, so a
// `__ubuf__` pointer here is one of two things, told apart by value: a UB offset below the UB
// size (what GetPhyAddr of a LocalTensor gives, and `(__ubuf__ T*)(get_imm(0) + offset)`), or a
// host pointer into the running core's UB arena (what get_imm gives when cast to a pointer),
// which kernels may dereference. Both name the same UB byte, so the tiling copied to UB address
// 0 is what a LocalTensor at offset 0 later holds, as on the device.
namespace ascsim::aicore {
// The UB offset a host pointer into the running core's UB arena names; any other value as it is
// (an offset, checked by the caller).
uint64_t UbAddressValue(const void* ub_addr);
// The UB offset `ub_addr` names (either form above); faults, naming `call` and `role`, when it is
// neither, or the core has no UB.
uint64_t UbOffsetOf(const char* call, const char* role, const void* ub_addr);
// The host address of UB offset `offset` of the running core (offset == UB size: one past the
// end); faults past that.
void* UbHostAddress(const char* call, uint64_t offset);

// What get_imm returns: the immediate, as an integer (get_imm(0) + bufferOffset); cast to a
// pointer, the running core's UB at that address (a host pointer the kernel may dereference).
class CceImmediate {
 public:
  constexpr explicit CceImmediate(uint64_t value) : value_(value) {}
  constexpr operator uint64_t() const { return value_; }  // NOLINT: an integer, as on the device
  template <class T>
  explicit operator T*() const {
    return static_cast<T*>(UbHostAddress("get_imm", value_));
  }

 private:
  uint64_t value_;
};
}  // namespace ascsim::aicore

// get_imm: `MOV ret, #imm` (the CCE stub declarations: uint64_t get_imm(uint64_t imm0_15) and the
// forms with imm16_31, imm32_47, imm48_63, each 16 bits of the value; asc-devkit
// impl/basic_api/dav_c220/kernel_operator_reg_others_impl.h GetImm passes them on). The
// one-argument form is not cut to 16 bits: CANN's own code passes wider values
// (get_op_tiling.py: get_imm(248 * 1024); impl/basic_api/utils/kernel_utils_ceil_oom_que.h:
// get_imm(0x43FE0)), which bisheng materialises whole.
inline ascsim::aicore::CceImmediate get_imm(uint64_t imm0_15) {
  return ascsim::aicore::CceImmediate(imm0_15);
}
inline ascsim::aicore::CceImmediate get_imm(uint64_t imm0_15, uint64_t imm16_31) {
  return ascsim::aicore::CceImmediate((imm0_15 & 0xFFFFu) | (imm16_31 & 0xFFFFu) << 16);
}
inline ascsim::aicore::CceImmediate get_imm(uint64_t imm0_15, uint64_t imm16_31,
                                            uint64_t imm32_47) {
  return ascsim::aicore::CceImmediate((imm0_15 & 0xFFFFu) | (imm16_31 & 0xFFFFu) << 16 |
                                      (imm32_47 & 0xFFFFu) << 32);
}
inline ascsim::aicore::CceImmediate get_imm(uint64_t imm0_15, uint64_t imm16_31, uint64_t imm32_47,
                                            uint64_t imm48_63) {
  return ascsim::aicore::CceImmediate((imm0_15 & 0xFFFFu) | (imm16_31 & 0xFFFFu) << 16 |
                                      (imm32_47 & 0xFFFFu) << 32 | (imm48_63 & 0xFFFFu) << 48);
}

// copy_gm_to_ubuf(dst, src, sid, nBurst, lenBurst, srcStride, dstStride): nBurst bursts of
// lenBurst 32-byte blocks, with srcStride / dstStride blocks between bursts, GM -> UB on MTE2
// (CCE stub declaration `void copy_gm_to_ubuf(__ubuf__ void *dst, __gm__ void *src, uint8_t sid,
// uint16_t nBurst, uint16_t lenBurst, uint16_t srcStride, uint16_t dstStride)`; asc-devkit
// impl/basic_api/dav_m200/kernel_operator_data_copy_impl.h DataCopyGM2UBImpl passes
// DataCopyParams{blockCount, blockLen, srcStride, dstStride} to it, sid 0). `dst` is a UB address
// (either form above), 32-byte aligned; the bytes must lie inside the UB (they need not lie in a
// TPipe buffer: the tiling is read before the kernel builds its TPipe) and the GM bytes inside a
// device allocation of the launch.
void copy_gm_to_ubuf(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst,
                     uint16_t srcStride, uint16_t dstStride);

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
