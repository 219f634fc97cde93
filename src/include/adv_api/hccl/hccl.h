// CANN's include path of the HCCL API (asc-devkit include/adv_api/hccl/hccl.h; MC2 kernels
// include it as lib/hccl/hccl.h, and kernel_operator.h reaches it too). Compiles; every call is
// "not simulated" (ascsim/adv/hccl.h).
#pragma once

#include "kernel_operator.h"
