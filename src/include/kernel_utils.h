// CANN's basic-API utility header (asc-devkit impl/basic_api/kernel_utils.h: AscendCUtils, the
// integer helpers and type tests), which production kernels include by this name after
// kernel_operator.h (ops-nn group_quant). ascsim's kernel_operator.h declares those names.
#pragma once

#include "kernel_operator.h"
