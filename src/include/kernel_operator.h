// The Ascend C kernel programming model (kernel_operator.h) for the ascsim simulator: include
// this instead of CANN's header and compile the kernel with g++. Everything lives in namespace
// AscendC as on the device; `half`, `bfloat16_t`, GM_ADDR and the kernel qualifiers are global.
#pragma once

#include <cstdint>

#include "aicore/atomic.h"
#include "aicore/data_copy.h"
#include "aicore/global_tensor.h"
#include "aicore/kernel_print.h"
#include "aicore/local_tensor.h"
#include "aicore/sync.h"
#include "aicore/tpipe.h"
#include "aicore/types.h"
#include "aicore/vector_ops.h"
#include "aicore/vector_masked.h"
#include "aicore/compare_select.h"
#include "aicore/reduce_ops.h"
#include "aicore/vector_misc.h"

// Kernels often call these unqualified; make them visible without `using namespace AscendC`.
using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;
