// The Ascend C kernel programming model (kernel_operator.h) for the ascsim simulator: include
// this instead of CANN's header and compile the kernel with g++. Everything lives in namespace
// AscendC as on the device; `half`, `bfloat16_t`, GM_ADDR and the kernel qualifiers are global.
#pragma once

// Lets the implementation headers below in (ascsim/aicore/internal.h).
#ifndef ASCSIM_KERNEL_OPERATOR_INCLUDED
#define ASCSIM_KERNEL_OPERATOR_INCLUDED 1
#endif

#include <cstdint>

#include "ascsim/adv/activation.h"
#include "ascsim/adv/activation_glu.h"
#include "ascsim/adv/fill.h"
// CANN's kernel_operator.h reaches the HCCL API too (kernel_operator_intf.h -> adv_api/kernel_api.h
// -> hccl/hccl.h): MC2 kernels use HCCL_MAX_RANK_NUM and Hccl without including lib/hccl/hccl.h.
#include "ascsim/adv/hccl.h"
#include "ascsim/adv/math.h"
#include "ascsim/adv/math_asin.h"
#include "ascsim/adv/math_asinh.h"
#include "ascsim/adv/math_xor.h"
#include "ascsim/adv/math_acos_atan.h"
#include "ascsim/adv/math_clamp.h"
#include "ascsim/adv/math_cosh.h"
#include "ascsim/adv/math_cumsum.h"
#include "ascsim/adv/math_sinh.h"
#include "ascsim/adv/math_tan.h"
#include "ascsim/adv/broadcast.h"
#include "ascsim/adv/math_erf.h"
#include "ascsim/adv/math_erfc.h"
#include "ascsim/adv/reduce.h"
#include "ascsim/adv/math_round.h"
#include "ascsim/adv/index.h"
#include "ascsim/adv/norm_softmax_quant.h"
#include "ascsim/adv/antiquant.h"
#include "ascsim/adv/quant.h"
#include "ascsim/adv/dropout.h"
#include "ascsim/adv/utils.h"
#include "ascsim/adv/math_trig.h"
#include "ascsim/adv/normalization.h"
#include "ascsim/adv/pad.h"
#include "ascsim/adv/select_bytes_mask.h"
#include "ascsim/adv/softmax_flashv2.h"
#include "ascsim/adv/softmax_grad.h"
#include "ascsim/adv/topk.h"
#include "ascsim/adv/reduce_pattern.h"
#include "ascsim/aicore/atomic.h"
#include "ascsim/aicore/basic_api_impl.h"
#include "ascsim/aicore/cache_control.h"
#include "ascsim/aicore/cce_intrinsics.h"
#include "ascsim/aicore/compare_select.h"
#include "ascsim/aicore/cube.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/debug.h"
#include "ascsim/aicore/dtype_format.h"
#include "ascsim/aicore/dump_tensor.h"
#include "ascsim/aicore/gather_mask.h"
#include "ascsim/aicore/hccl_context.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/kernel_assert.h"
#include "ascsim/aicore/kernel_constants.h"
#include "ascsim/aicore/kernel_log.h"
#include "ascsim/aicore/kernel_print.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/aicore/kernel_utils.h"
#include "ascsim/aicore/list_tensor.h"
#include "ascsim/aicore/local_mem_allocator.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/que_sync.h"
#include "ascsim/aicore/reduce_ops.h"
#include "ascsim/aicore/scalar.h"
#include "ascsim/aicore/soft_sync_all.h"
#include "ascsim/aicore/sort.h"
#include "ascsim/aicore/special_registers.h"
#include "ascsim/aicore/std_utils.h"
#include "ascsim/aicore/symbol_override.h"
#include "ascsim/aicore/sync.h"
#include "ascsim/aicore/tbuf_pool.h"
#include "ascsim/aicore/tiling_data.h"
#include "ascsim/aicore/tpipe.h"
#include "ascsim/aicore/types.h"
#include "ascsim/aicore/ub_movement.h"
#include "ascsim/aicore/vector_fill.h"
#include "ascsim/aicore/vector_fused.h"
#include "ascsim/aicore/vector_masked.h"
#include "ascsim/aicore/vector_ops.h"
#include "ascsim/aicore/workspace.h"

// Kernels often call these unqualified; make them visible without `using namespace AscendC`.
using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;
// CANN declares GetTPipePtr() at global scope (asc-devkit include/basic_api/kernel_common.h):
// kernels call it unqualified; AscendC::GetTPipePtr stays for code that qualifies it.
using AscendC::GetTPipePtr;
// CANN declares GetSysWorkSpacePtr() and SetSysWorkSpacePtr() at global scope too
// (include/basic_api/kernel_operator_swap_mem_intf.h): the official Matmul samples call the first
// unqualified, without `using namespace AscendC`.
using AscendC::GetSysWorkSpacePtr;
inline void SetSysWorkSpacePtr(__gm__ uint8_t* workspace) { AscendC::SetSysWorkspaceForce(workspace); }
