// The early-2024 include path of the Matmul API (asc-devkit's first commit ships it as
// include/adv_api/matmul/matmul.h, which kernels of that time include as
// lib/matrix/matmul/matmul.h, e.g. ops-math rfft1_d). ascsim's Matmul is lib/matmul_intf.h.
#pragma once

#include "lib/matmul_intf.h"
