// lib/matmul_intf.h: the Matmul API of Ascend C for kernels (asc-devkit
// include/adv_api/matmul/matmul_intf.h): AscendC::Matmul<A, B, C, Bias, CFG>, MatmulType,
// MatmulConfig and its CFG_* presets, REGIST_MATMUL_OBJ, and `matmul` as another name of
// AscendC. ascsim implements it on the low-level cube API (ascsim/matmul/matmul_impl.h); which
// core does the work in mix kernels is described in docs/cube.md.
#pragma once

// clang-format off
// kernel_operator.h first: it lets the implementation headers below in (ascsim/aicore/internal.h).
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "ascsim/matmul/matmul_config.h"
#include "ascsim/matmul/matmul_constant_tiling.h"
#include "ascsim/matmul/matmul_impl.h"
#include "ascsim/matmul/matmul_regist.h"
#include "ascsim/matmul/matmul_utils.h"
// clang-format on

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;

}  // namespace AscendC

// Compatible with the `matmul` namespace older kernels use.
namespace matmul = AscendC;
